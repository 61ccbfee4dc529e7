"""Push buttons on GPIO inputs with pull-ups (pressed = low), debounced in time.

A button counts as pressed once it has read low for `debounce_ms`, and reports one press per
push. `poll()` returns the names pressed since the last poll (a reused list).

While the board thinks, the main loop does not poll: the search runs inside one step, and
asks `pressed_since()` at each check of its clock (every 50-140 ms in a Cal-Q-Able think on
the emulated Pico, up to about 270 ms). Between `watch()` and `hold_off()` a button counts as
pressed once it has been down for `debounce_ms`: seen down at two asks that far apart, or,
on pins with interrupts (machine.Pin.irq), gone down and up again that far apart, so that a
tap between two asks counts too, and a contact's bounce (a few ms) never does. A button
already down at `watch()` counts only once released and pressed again, so the OK that
started the think does not end it. `hold_off()` after the think: a button still down is not
reported as a press by the next poll.
"""

from engine.compat import ticks_diff


class Buttons:
    def __init__(self, pins, clock, debounce_ms=20):
        self.names = list(pins)
        self.pins = [pins[n] for n in self.names]
        self.clock = clock
        self.debounce_ms = debounce_ms
        n = len(self.pins)
        self.down_since = [None] * n
        self.reported = [False] * n
        self.pressed = []
        # between watch() and hold_off(): each button seen up since watch(), when it went
        # down (None: up, or down since before), and whether one has been pressed
        self.watching = False
        self.up = [1] * n
        self.fell_at = [None] * n  # type: list
        self.went_down = False
        self.edges = [False] * n  # the pin tells its edges (interrupts)
        for k in range(n):
            pin = self.pins[k]
            irq = getattr(pin, "irq", None)
            if irq is not None:
                irq(handler=self._edge, trigger=pin.IRQ_FALLING | pin.IRQ_RISING)
                self.edges[k] = True

    def watch(self):
        """Start watching for a press while the main loop does not poll (see above)."""
        pins = self.pins
        for k in range(len(pins)):
            self.up[k] = pins[k].value()
            self.fell_at[k] = None
        self.went_down = False
        self.watching = True

    def _edge(self, pin):
        # a pin's interrupt (both edges), on the board a soft one, run between two bytecodes
        if not self.watching:
            return
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

    def pressed_since(self):
        """Whether a button has been pressed since `watch()` (it stays True once it was)."""
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
        return self.went_down

    def hold_off(self):
        """After a stretch without polls: a button down now is not a new press."""
        self.watching = False
        now = self.clock.ticks_ms()
        for k in range(len(self.pins)):
            if not self.pins[k].value():
                self.down_since[k] = now
                self.reported[k] = True

    def poll(self):
        pressed = self.pressed
        pressed.clear()
        now = self.clock.ticks_ms()
        for k in range(len(self.pins)):
            if self.pins[k].value():  # released
                self.down_since[k] = None
                self.reported[k] = False
                continue
            since = self.down_since[k]
            if since is None:
                self.down_since[k] = now
                since = now
            if not self.reported[k] and ticks_diff(now, since) >= self.debounce_ms:
                self.reported[k] = True
                pressed.append(self.names[k])
        return pressed
