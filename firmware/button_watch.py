"""The buttons while the board thinks (firmware/computer.py `think`): whether one has been
pressed, to take the move found so far.

The main loop does not poll while the board thinks (firmware/buttons.py): the search runs
inside one step and asks `pressed()` at each check of its clock, every 50-140 ms in a
Cal-Q-Able think on the emulated Pico, up to about 270 ms. A button counts as pressed once
it has been down for the buttons' debounce: seen down at two asks that far apart, or, on
pins with interrupts (machine.Pin.irq, both edges, soft: run between two bytecodes), gone
down and up again that far apart, so that a tap between two asks counts too and a contact's
bounce (a few ms) never does. A button already down when the watch starts counts only once
released and pressed again, so the OK that started the think does not end it. `close()`
lets the interrupts go (then the App's `Buttons.hold_off()` keeps a button still down from
being a press for the next poll).

A module of its own, imported by the think: on a stock board, whose code is in RAM, it is
dropped again with the search's modules after each think.
"""

from engine.compat import ticks_diff


class Watch:
    def __init__(self, buttons):
        self.buttons = buttons
        pins = buttons.pins
        self.pins = pins
        self.clock = buttons.clock
        self.debounce_ms = buttons.debounce_ms
        n = len(pins)
        self.up = [pin.value() for pin in pins]  # each button seen up since the start
        self.fell_at = [None] * n  # type: list  # when it went down (None: up, or held)
        self.went_down = False
        self.edges = [False] * n  # the pin tells its edges (interrupts)
        handler = self._edge
        for k in range(n):
            pin = pins[k]
            if getattr(pin, "irq", None) is not None:
                pin.irq(handler=handler, trigger=pin.IRQ_FALLING | pin.IRQ_RISING)
                self.edges[k] = True

    def _edge(self, pin):
        k = self.pins.index(pin)
        now = self.clock.ticks_ms()
        if pin.value():
            at = self.fell_at[k]
            if at is not None and ticks_diff(now, at) >= self.debounce_ms:
                self.went_down = True
            self.up[k] = 1
            self.fell_at[k] = None
        elif self.up[k] and self.fell_at[k] is None:
            self.fell_at[k] = now

    def pressed(self):
        """Whether a button has been pressed since the watch began (True from then on)."""
        if self.went_down:
            return True
        pins = self.pins
        up = self.up
        fell_at = self.fell_at
        now = self.clock.ticks_ms()
        for k in range(len(pins)):
            if pins[k].value():
                up[k] = 1
                if not self.edges[k]:
                    fell_at[k] = None  # (with interrupts the rising edge decides)
            elif up[k]:
                at = fell_at[k]
                if at is None:
                    fell_at[k] = now
                elif ticks_diff(now, at) >= self.debounce_ms:
                    self.went_down = True
                    return True
        return False

    def close(self):
        """End the watch: the pins' interrupts are let go."""
        for k in range(len(self.pins)):
            if self.edges[k]:
                self.pins[k].irq(handler=None)
