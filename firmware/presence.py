"""Debounced presence of a magnet on every square, from raw shift-register bytes.

A square's debounced state changes only after `scans` consecutive raw readings all disagree
with it; one agreeing reading in between starts the count again, so a flickering sensor
never produces a change.

The count is kept bit-sliced, eight squares a byte: `history` holds the disagreement masks
(raw XOR stable) of the last `scans - 1` scans, and a square flips when the AND of those and
this scan's mask has its bit set. So the work per scan is one XOR per byte, plus a few byte
operations for the bytes where something disagrees; only squares that flip are visited bit
by bit.

`scan(raw)` returns what changed in this scan a byte at a time, as a list of small ints
`k << 16 | flipped << 8 | present`: squares `8k + b` for each bit b set in `flipped`
changed, to present if that bit is set in `present` too. Eight squares share an entry, so a
whole board changing at once costs 29 entries, not 225; `squares(entry)` unpacks one. Small
ints allocate nothing; the list object is reused.
"""


def squares(entry):
    """The (square, present) pairs of one `scan` entry."""
    base = (entry >> 16) << 3
    flipped = (entry >> 8) & 0xFF
    out = []
    for bit in range(8):
        if flipped >> bit & 1:
            out.append((base + bit, (entry >> bit) & 1 == 1))
    return out


class Presence:
    def __init__(self, squares, scans=3, active_low=True):
        if scans < 1:
            raise ValueError("debounce needs at least 1 scan")
        n = (squares + 7) >> 3
        self.squares = squares
        self.scans = scans
        self.flip = 0xFF if active_low else 0
        self.stable = bytearray(n)  # debounced: bit set = magnet present
        self.busy = bytearray(n)  # bits with disagreement in any history row
        self.history = [bytearray(n) for _ in range(scans - 1)]
        self.row = 0  # the history row this scan overwrites (the oldest)
        self.last_mask = (1 << (squares - 8 * (n - 1))) - 1  # valid bits of the last byte
        self.prev = bytearray(n)  # the last raw reading
        self.settled = False  # the last scan left no count running
        self.changes = []

    def is_present(self, square):
        return (self.stable[square >> 3] >> (square & 7)) & 1 == 1

    def scan(self, raw):
        changes = self.changes
        changes.clear()
        if self.settled and raw == self.prev:
            return changes  # the same reading on a settled board: nothing can change
        self.prev[:] = raw
        running = 0
        stable = self.stable
        busy = self.busy
        history = self.history
        rows = len(history)
        row = self.row
        flip = self.flip
        last = len(stable) - 1
        for k in range(last + 1):
            level = raw[k] ^ flip
            if k == last:
                level &= self.last_mask
            diff = level ^ stable[k]
            if not (diff | busy[k]):
                continue
            agree = diff  # disagreeing in this scan and in every remembered one
            for h in history:
                agree &= h[k]
            if rows:
                history[row][k] = diff
                seen = 0
                for h in history:
                    if agree:
                        h[k] &= ~agree  # a flipped square starts afresh
                    seen |= h[k]
                busy[k] = seen
                running |= seen
            if agree:
                stable[k] ^= agree
                changes.append(k << 16 | agree << 8 | (level & agree))
        if rows:
            self.row = (row + 1) % rows
        # With no count running, stable == this reading (masked): the next identical reading
        # needs no work.
        self.settled = not running
        return changes
