"""Counting the chips left on each rack at the end of the game (rule 15's penalty).

Players count in turn. Each lays their leftover chips on the board to be read, or enters them
with the buttons. A chip counted from the board and then lifted is uncounted, so a chip
picked up and laid again counts once. BACK takes back the last entry, going back to the
previous player if the current one has none. Once every chip is counted, nothing is final
until OK: the last entry can still be taken back.

Each player's entries are one ordered list of (face, square or None): the square of a chip
read from the board, None for one entered with the buttons.
"""


class Tally:
    def __init__(self, counts):
        self.counts = counts  # chips each player holds
        self.entries = [[] for _ in counts]  # type: list[list[tuple]]  # (face, square)
        self.player = 0
        self._skip()

    def _skip(self):
        while self.player < len(self.counts) and self.left(self.player) <= 0:
            self.player += 1

    def left(self, p=None):
        p = self.player if p is None else p
        return self.counts[p] - len(self.entries[p])

    def done(self):
        return self.player >= len(self.counts)

    def racks(self):
        """Each player's counted faces, for Game.finish."""
        return [[face for face, _ in e] for e in self.entries]

    def add(self, face, square=None):
        """Count a face for the player counting now; False when everyone is counted."""
        if self.done():
            return False
        self.entries[self.player].append((face, square))
        self._skip()
        return True

    def preset(self, player, face, square):
        """Count a chip of `player`'s that already lies on `square` (a turn lost at the end)."""
        self.entries[player].append((face, square))
        self.player = 0
        self._skip()

    def lift(self, square):
        """A chip counted from the board was picked up: uncount it. True if it was counted."""
        for p in range(len(self.entries)):
            e = self.entries[p]
            for k in range(len(e)):
                if e[k][1] == square:
                    del e[k]
                    self.player = min(self.player, p)
                    return True
        return False

    def back(self):
        """Take back the last entry (of this player, else of the one before)."""
        p = min(self.player, len(self.counts) - 1)
        while p >= 0 and not self.entries[p]:
            p -= 1
        if p < 0:
            return False
        self.entries[p].pop()  # a chip read from the board stays there, uncounted
        self.player = p
        return True
