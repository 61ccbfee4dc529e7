"""The board: a bytearray of cells, the shape rules of a placement, and the runs it makes.

Shape rules are game-independent (RULES.md "A move"): every new chip on an empty square,
all in one row or one column, one unbroken line together with the chips already there,
the first move on the start square, every later move touching a chip already laid.
A run is a maximal horizontal or vertical line of two or more adjacent chips.
"""

from engine import squares
from engine import verdict as V


class Run:
    """A run on the board: first square index, step (1 across, width down), length."""

    def __init__(self, start, step, length, width):
        self.start = start
        self.step = step
        self.length = length
        self.width = width

    def indices(self):
        return range(self.start, self.start + self.step * self.length, self.step)

    @property
    def last(self):
        return self.start + self.step * (self.length - 1)

    @property
    def name(self):
        return squares.span(self.start, self.last, self.width)

    def square_names(self):
        return [squares.name(i, self.width) for i in self.indices()]


class Board:
    """width x height cells; a cell holds 0 (empty) or a chip's code (see engine.faces)."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.cells = bytearray(width * height)

    def is_empty(self):
        return not any(self.cells)  # in C: a loop in Python costs 3 k fuel a square

    def chip_count(self):
        n = 0
        for c in self.cells:
            if c:
                n += 1
        return n

    def put(self, move):
        for i, code in move.placements:
            self.cells[i] = code

    def remove(self, move):
        for i, _ in move.placements:
            self.cells[i] = 0

    def shape_reasons(self, move, first_move, start):
        """Reasons the placement's shape is illegal (empty list when it is fine).

        Returns (reasons, step): step is 1 (across), width (down) or 0 (a single chip).
        """
        cells = self.cells
        w = self.width
        size = len(cells)
        placements = move.placements
        if not placements:
            return [V.Reason(V.NO_CHIPS)], 0
        reasons = []
        prev = -1
        for i, _ in placements:
            if i < 0 or i >= size:
                return [V.Reason(V.OFF_BOARD)], 0
            if i == prev:
                name = squares.name(i, w)
                reasons.append(V.Reason(V.DUPLICATE_SQUARE, square=name, where=(i,)))
            elif cells[i]:
                reasons.append(V.Reason(V.OCCUPIED, square=squares.name(i, w), where=(i,)))
            prev = i
        if reasons:
            return reasons, 0
        first = placements[0][0]
        last = placements[-1][0]
        if len(placements) == 1:
            step = 0
        elif first // w == last // w:
            step = 1
        elif all((i - first) % w == 0 for i, _ in placements):
            step = w
        else:
            return [V.Reason(V.NOT_IN_LINE)], 0
        if step:
            new = {i for i, _ in placements}
            for i in range(first, last + 1, step):
                if not cells[i] and i not in new:
                    return [V.Reason(V.GAP, square=squares.name(i, w), where=(i,))], step
        if first_move:
            if not any(i == start for i, _ in placements):
                name = squares.name(start, w)
                return [V.Reason(V.FIRST_MOVE_OFF_START, square=name, where=(start,))], step
        elif not any(self._touches(i) for i, _ in placements):
            return [V.Reason(V.NOT_CONNECTED)], step
        return [], step

    def _touches(self, i):
        cells = self.cells
        w = self.width
        col = i % w
        return (
            (col > 0 and cells[i - 1])
            or (col < w - 1 and cells[i + 1])
            or (i >= w and cells[i - w])
            or (i + w < len(cells) and cells[i + w])
        )

    def run_through(self, i, step):
        """The maximal run through occupied cell i along step (1 or width), or None if < 2."""
        cells = self.cells
        w = self.width
        a = b = i
        if step == 1:
            row_start = i - i % w
            row_end = row_start + w - 1
            while a > row_start and cells[a - 1]:
                a -= 1
            while b < row_end and cells[b + 1]:
                b += 1
        else:
            size = len(cells)
            while a - w >= 0 and cells[a - w]:
                a -= w
            while b + w < size and cells[b + w]:
                b += w
        length = (b - a) // step + 1
        return Run(a, step, length, w) if length >= 2 else None

    def runs_of(self, move, step):
        """Every run containing a new chip; the chips must already be on the board.

        The run along the move's line comes first, then the cross runs in square order.
        """
        w = self.width
        main = step or 1
        cross = w if main == 1 else 1
        runs = []
        run = self.run_through(move.placements[0][0], main)
        if run is not None:
            runs.append(run)
        for i, _ in move.placements:
            run = self.run_through(i, cross)
            if run is not None:
                runs.append(run)
        return runs
