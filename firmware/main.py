"""The firmware's entry point and main loop.

On the board, `main.py` at the flash root runs `firmware.main.main()`: the rp2 backend builds
the parts from the pin map, the settings and the chip registry are read from flash, and the
asyncio loop calls `App.step()` every `scan_ms`. Tests run the same `loop` on CPython with a
simulated clock whose sleep advances virtual time (`sim_sleep`).
"""

try:
    import asyncio
except ImportError:  # the WASI MicroPython used in tests has no asyncio
    asyncio = None


async def loop(app, sleep_ms, until=None):
    """Step `app` every `app.period_ms` until it stops (or `until()` says so)."""
    while app.running and (until is None or not until()):
        app.step()
        await sleep_ms(app.period_ms)


def run_plain(app, sleep_ms, steps):
    """The same loop without asyncio, for `steps` ticks."""
    for _ in range(steps):
        app.step()
        sleep_ms(app.period_ms)


def sim_sleep(clock):
    """A coroutine sleep for a simulated clock: advance it, then yield to other tasks."""

    async def sleep_ms(ms):
        clock.advance(ms)
        await asyncio.sleep(0)

    return sleep_ms


def main():
    from firmware.backend_rp2 import build

    app = build()
    app.boot()
    asyncio.run(loop(app, asyncio.sleep_ms))
