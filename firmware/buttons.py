"""Push buttons on GPIO inputs with pull-ups (pressed = low), debounced in time.

A button counts as pressed once it has read low for `debounce_ms`, and reports one press per
push. `poll()` returns the names pressed since the last poll (a reused list).

While the board thinks, the main loop does not poll: the search runs inside one step.
`watch()` then `pressed_since()` tell whether any button went down meanwhile (the search
asks every few tens of steps, so a press is a level read between two asks, not debounced:
it only ends the think early). A button already down at `watch()` counts only once released
and pressed again, so the OK that started the think does not end it. `hold_off()` after the
think: a button still down is not reported as a press until it is released.
"""

from engine.compat import ticks_diff


class Buttons:
    def __init__(self, pins, clock, debounce_ms=20):
        self.names = list(pins)
        self.pins = [pins[n] for n in self.names]
        self.clock = clock
        self.debounce_ms = debounce_ms
        self.down_since = [None] * len(self.pins)
        self.reported = [False] * len(self.pins)
        self.pressed = []
        self.up = [1] * len(self.pins)  # watch(): each button seen released since
        self.went_down = False

    def watch(self):
        """Start watching for a press while the main loop is not polling (see above)."""
        pins = self.pins
        for k in range(len(pins)):
            self.up[k] = pins[k].value()
        self.went_down = False

    def pressed_since(self):
        """Whether a button went down since `watch()` (it stays True once it did)."""
        if self.went_down:
            return True
        pins = self.pins
        up = self.up
        for k in range(len(pins)):
            if pins[k].value():
                up[k] = 1
            elif up[k]:
                self.went_down = True
                return True
        return False

    def hold_off(self):
        """After a stretch without polls: a button down now is not a new press."""
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
