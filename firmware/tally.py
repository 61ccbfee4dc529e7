"""Counting the chips left on each rack at the end of the game (rule 15's penalty).

Players count in turn. Each lays their leftover chips on the board to be read, or enters them
with the buttons. A chip counted from the board and then lifted is uncounted, so a chip
picked up and laid again counts once. BACK takes back the last entry, going back to the
previous player if the current one has none. Once every chip is counted, nothing is final
until OK: the last entry can still be taken back.
"""


class Tally:
    def __init__(self, counts):
        self.counts = counts  # chips each player holds
        self.racks = [[] for _ in counts]  # type: list[list[str]]  # faces counted, per player
        self.on_board = {}  # type: dict[int, tuple]  # square -> (player, face) read there
        self.player = 0
        self._skip()

    def _skip(self):
        while self.player < len(self.counts) and self.left(self.player) <= 0:
            self.player += 1

    def left(self, p=None):
        p = self.player if p is None else p
        return self.counts[p] - len(self.racks[p])

    def done(self):
        return self.player >= len(self.counts)

    def add(self, face, square=None):
        """Count a face for the player counting now; False when everyone is counted."""
        if self.done():
            return False
        p = self.player
        self.racks[p].append(face)
        if square is not None:
            self.on_board[square] = (p, face)
        self._skip()
        return True

    def preset(self, player, face, square):
        """Count a chip of `player`'s that already lies on `square` (a turn lost at the end)."""
        self.racks[player].append(face)
        self.on_board[square] = (player, face)
        self.player = 0
        self._skip()

    def lift(self, square):
        """A chip counted from the board was picked up: uncount it. True if it was counted."""
        entry = self.on_board.pop(square, None)
        if entry is None:
            return False
        p, face = entry
        self.racks[p].remove(face)
        self.player = min(self.player, p)
        return True

    def back(self):
        """Take back the last entry (of this player, else of the one before)."""
        p = min(self.player, len(self.counts) - 1)
        while p >= 0 and not self.racks[p]:
            p -= 1
        if p < 0:
            return False
        face = self.racks[p].pop()
        for sq in list(self.on_board):
            if self.on_board[sq] == (p, face):
                del self.on_board[sq]  # now entered by hand if at all
                break
        self.player = p
        return True
