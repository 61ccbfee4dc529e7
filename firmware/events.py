"""The USB event stream: one JSON object per line for everything that happens on the board.

Each line starts with `"t"` (the board's millisecond ticks) and `"ev"` (the kind), then the
event's own keys in a fixed order. The keys are written one by one because MicroPython's
`json.dumps` does not keep a dict's order. The kinds and their keys are listed in
firmware/README.md. `write` is where lines go: `sys.stdout.write` on the board (USB CDC).
`keep` > 0 also keeps the last lines in a ring, for tests and for the screen-less host tools.

`emit` only queues the event with its time; `flush` formats and writes the queue. The main
loop flushes after the LEDs and the display are updated, so building JSON text (string work
is slow on MicroPython) never delays what the players see.

A line is always JSON any parser reads: a float that JSON cannot hold (NaN, infinity, which
json.dumps writes as NaN/Infinity on CPython and nan/inf on MicroPython) is written as null,
and so is a value nested deeper than json.dumps goes.
"""

import json

from engine.compat import mem_free

# Events after which a board adds its free heap (`"free"`, bytes; not on CPython or WASI):
# the boot, and the end of every turn, so `diag` and `watch` show the margin as a game goes.
_HEAP_KINDS = ("boot", "move", "replace", "pass", "swap")


def _finite(value):
    """`value` with every NaN or infinite float in it made None."""
    if isinstance(value, float):
        return value if value - value == 0 else None  # inf - inf and nan - nan are nan
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    return value


def _dumps(value):
    try:
        return json.dumps(_finite(value))
    except (ValueError, RuntimeError):  # nested too deeply (CPython: RecursionError)
        return "null"


class EventStream:
    def __init__(self, write, clock, keep=0):
        self.write = write
        self.clock = clock
        self.keep = keep
        self.ring = [None] * keep  # type: list[str | None]
        self.count = 0
        self.queue = []

    def emit(self, kind, *pairs):
        """Queue an event; `pairs` alternate key, value: emit("move", "player", 1, "score", 48)."""
        self.queue.append((self.clock.ticks_ms(), kind, pairs))

    def flush(self):
        """Write every queued event as a line."""
        queue = self.queue
        if not queue:
            return
        self.queue = []
        for t, kind, pairs in queue:
            self._line(t, kind, pairs)

    def _line(self, t, kind, pairs):
        parts = ['{"t": %d, "ev": "%s"' % (t, kind)]
        for k in range(0, len(pairs), 2):
            parts.append(', "%s": %s' % (pairs[k], _dumps(pairs[k + 1])))
        if kind in _HEAP_KINDS:
            free = mem_free()
            if free is not None:
                parts.append(', "free": %d' % free)
        parts.append("}\n")
        line = "".join(parts)
        if self.keep:
            self.ring[self.count % self.keep] = line
        self.count += 1
        self.write(line)
        return line

    def recent(self):
        """The kept lines, oldest first."""
        n = min(self.count, self.keep)
        start = self.count - n
        return [self.ring[(start + k) % self.keep] for k in range(n)]
