"""The firmware's entry point and main loop.

On the board, `main.py` at the flash root runs `firmware.main.main()`: the rp2 backend builds
the parts from the pin map, the settings and the chip registry are read from flash, and the
asyncio loop calls `App.step()` every `scan_ms`. Tests run the same `loop` on CPython with a
simulated clock whose sleep advances virtual time (`sim_sleep`).
"""

try:
    import asyncio
except ImportError:  # the WASI MicroPython used in tests has no asyncio
    asyncio = None  # type: ignore[assignment]  # tested as None where there is no asyncio


async def loop(app, sleep_ms, until=None):
    """Step `app` every `app.period_ms` until it stops (or `until()` says so)."""
    while app.running and (until is None or not until()):
        app.tick()  # supervised: nothing raised in a step escapes (firmware/app.py)
        await sleep_ms(app.period_ms)


def sim_sleep(clock):
    """A coroutine sleep for a simulated clock: advance it, then yield to other tasks."""

    async def sleep_ms(ms):
        clock.advance(ms)
        await asyncio.sleep(0)

    return sleep_ms


def main():
    """Build, boot and run; a board that cannot start says why on USB instead of stopping.

    A bad pin map or profile file, a missing part, or anything else that stops the start, is
    reported once every 5 s as an event line `{"ev": "cannot_start", "text": ...}`, so the
    board never falls into the REPL. Once running, the loop is supervised (App.tick) and the
    watchdog resets a board whose loop stops; Ctrl-C (mpremote) stops the watchdog first.
    """
    import json
    import sys
    import time

    try:
        from firmware.backend_rp2 import Watchdog, build, restart, stop_watchdog

        app = build()
        app.boot()
    except Exception as err:  # noqa: BLE001  (whatever stops the start, the board says it)
        # built by hand so "ev" comes first, as deploy/main.py writes it for its own reasons
        text = str(err)  # a bad file or a missing part says what it is
        if not isinstance(err, (OSError, ValueError)):
            text = "%s: %s" % (type(err).__name__, err)  # anything else: a bug, named
        line = '{"ev": "cannot_start", "text": %s}\n' % json.dumps(text)
        while True:
            sys.stdout.write(line)
            time.sleep(5)
    app.hw.watchdog = Watchdog()
    try:
        asyncio.run(loop(app, asyncio.sleep_ms))
    except KeyboardInterrupt:
        stop_watchdog()  # the REPL must stay reachable: mpremote flashes through it
        raise
    # the PC changed a file and asked for a restart (firmware/commands.py), or faults kept
    # coming (App.tick): start afresh
    restart()
