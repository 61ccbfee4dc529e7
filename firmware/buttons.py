"""Push buttons on GPIO inputs with pull-ups (pressed = low), debounced in time.

A button counts as pressed once it has read low for `debounce_ms`, and reports one press per
push. `poll()` returns the names pressed since the last poll (a reused list).

While the board thinks the main loop does not poll: firmware/button_watch.py watches the
buttons then, and `hold_off()` after the think keeps a button still down from being
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
