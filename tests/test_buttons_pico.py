"""The buttons while the board thinks, on the Pico's own firmware (stock MicroPython
v1.27.0 on the emulated RP2040, firmware/button_watch.py from the board's .mpy files): the pins'
interrupts (machine.Pin.irq, soft) run while Python code is busy, as the search is between
two of its asks, so a tap between two asks counts and a bounce does not.
tests/fw/test_buttons_watch.py checks the same rules on the pins' twins."""

from tests.test_picoplay import require_pico
from tools import rp2emu

PIN = 20  # an input with the button's pull-up, as the board's buttons are
SYNC = 21  # set high when the world's timeline starts (the script waits for it)
START_MS = 300  # (the script has imported what it needs and waits for SYNC well before)

# Three watches, 400 ms apart, each with asks 100, 200 and 300 ms after its watch() (the
# search asks every 50-270 ms in a Cal-Q-Able think), the script busy in between as the
# search is.
SCRIPT = """
import time, machine
from firmware.button_watch import Watch
from firmware.buttons import Buttons

class Clock:
    def ticks_ms(self):
        return time.ticks_ms()

pin = machine.Pin(%d, machine.Pin.IN, machine.Pin.PULL_UP)
sync = machine.Pin(%d, machine.Pin.IN)
buttons = Buttons({"ok": pin}, Clock())
while not sync.value():
    pass
t0 = time.ticks_ms()

def until(ms):
    while time.ticks_diff(time.ticks_ms(), t0) < ms:
        x = [1, 2, 3]  # (busy, as the search is: bytecodes and allocations)

for case in range(3):
    until(400 * case)
    watch = Watch(buttons)
    asks = []
    for k in (1, 2, 3):
        until(400 * case + 100 * k)
        asks.append(watch.pressed())
    watch.close()
    buttons.hold_off()
    print("CASE", case, asks)
""" % (PIN, SYNC)


def _at(ms):
    return int((START_MS + ms) * 1000)


def test_a_tap_between_two_asks_counts_on_the_pico_and_a_bounce_does_not():
    require_pico()
    world = [(0, PIN, 1), (0, SYNC, 0), (_at(0), SYNC, 1)]
    # case 0: a 30 ms tap between the asks at 100 and 200 ms
    world += [(_at(130), PIN, 0), (_at(160), PIN, 1)]
    # case 1: a bounce of a few ms, between the same asks
    world += [(_at(530), PIN, 0), (_at(532), PIN, 1), (_at(533), PIN, 0), (_at(535), PIN, 1)]
    # case 2: down before the watch (the OK that started the think), let go at 850 ms with
    # a bounce, then a tap of 30 ms between the asks at 900 and 1,000 ms
    world += [(_at(750), PIN, 0), (_at(850), PIN, 1), (_at(851), PIN, 0), (_at(852), PIN, 1)]
    world += [(_at(930), PIN, 0), (_at(960), PIN, 1)]
    with rp2emu.Pico(rp2emu.build_image()) as chip:
        r = chip.run(rp2emu.prelude() + SCRIPT, max_cycles=500_000_000, gpio=world)
    cases = [line for line in r.stdout.splitlines() if line.startswith("CASE")]
    assert cases == [
        "CASE 0 [False, True, True]",
        "CASE 1 [False, False, False]",
        "CASE 2 [False, True, True]",
    ], r.describe()
