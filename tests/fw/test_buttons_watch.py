"""The buttons while the board thinks (firmware/button_watch.py, then firmware/buttons.py
`hold_off`), on the pins' twins: the search asks every 50-270 ms, so a tap between two asks
must count (through the pins' interrupts), a contact's bounce must not, and a button held
down when the think starts counts only once pressed again. CPython and MicroPython."""

from firmware.button_watch import Watch
from firmware.buttons import Buttons
from firmware.sim.bus import SimPin
from firmware.sim.clock import SimClock
from tests.engine.checks import eq


class _PlainPin:
    """An input with no interrupts (the CircuitPython backend's pins): a level only."""

    def __init__(self):
        self.level = 1

    def value(self):
        return self.level


def _watched(pin):
    clock = SimClock()
    buttons = Buttons({"ok": pin}, clock)
    return Watch(buttons), clock


def _tap(pin, clock, ms):
    pin.drive(0)
    clock.advance(ms)
    pin.drive(1)


def test_a_tap_between_two_asks_counts():
    pin = SimPin("ok")
    watch, clock = _watched(pin)
    eq(watch.pressed(), False)
    clock.advance(40)
    _tap(pin, clock, 30)  # down and up again before the search asks
    clock.advance(40)
    eq(watch.pressed(), True)
    eq(watch.pressed(), True)  # it stays so, for this watch
    watch.close()
    eq(pin.handler, None)  # the interrupt let go
    eq(Watch(watch.buttons).pressed(), False)  # the next think's watch starts afresh


def test_a_bounce_does_not_count():
    pin = SimPin("ok")
    watch, clock = _watched(pin)
    for _ in range(4):
        _tap(pin, clock, 2)
        clock.advance(1)
    clock.advance(100)
    eq(watch.pressed(), False)


def test_a_button_held_when_the_think_starts_counts_only_when_pressed_again():
    pin = SimPin("ok")
    pin.drive(0)  # the OK that started the think
    watch, clock = _watched(pin)
    clock.advance(100)
    eq(watch.pressed(), False)  # still down: the same press
    pin.drive(1)  # let go, with a bounce
    clock.advance(1)
    _tap(pin, clock, 1)
    clock.advance(100)
    eq(watch.pressed(), False)
    _tap(pin, clock, 25)  # pressed again
    eq(watch.pressed(), True)


def test_a_press_held_across_two_asks_counts_at_the_second():
    pin = SimPin("ok")
    watch, clock = _watched(pin)
    pin.drive(0)
    clock.advance(10)
    eq(watch.pressed(), False)  # down for 10 ms: not yet a press
    clock.advance(10)
    eq(watch.pressed(), True)


def test_pins_without_interrupts_count_a_button_seen_down_at_two_asks():
    pin = _PlainPin()
    watch, clock = _watched(pin)
    pin.level = 0  # a bounce read at one ask only...
    eq(watch.pressed(), False)
    pin.level = 1
    clock.advance(100)
    eq(watch.pressed(), False)  # ...is no press
    pin.level = 0
    eq(watch.pressed(), False)
    clock.advance(100)
    eq(watch.pressed(), True)  # down at two asks 100 ms apart


def test_after_the_think_a_button_still_down_is_not_a_press():
    pin = SimPin("ok")
    watch, clock = _watched(pin)
    pin.drive(0)
    clock.advance(30)
    eq(watch.pressed(), True)  # down for 30 ms, still down
    watch.close()
    buttons = watch.buttons
    buttons.hold_off()  # (as the App does after the think)
    for _ in range(5):
        clock.advance(30)
        eq(buttons.poll(), [])
    pin.drive(1)
    clock.advance(30)
    eq(buttons.poll(), [])
    pin.drive(0)  # then a press as usual: down for 20 ms at a poll
    eq(buttons.poll(), [])
    clock.advance(20)
    eq(buttons.poll(), ["ok"])
