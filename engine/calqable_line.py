"""A row or column of a Cal-Q-Able search, and what the walks around one square of `=`
share (engine/movegen_calqable.py).

- `_Line`: for each square, the faces a side may have there (the tile on the board, or the
  rack's faces that the square's cross check lets through), and prefix tables of the most
  each square can add to a score, for the bounds of a search with a floor.
- `_Square`: one square of `=`: the rack split between short and long sides, and where
  the left sides start.
- `_Walk`: one walk of sides from one square (engine/calqable_walk.py).
A side's placements are small ints (`_placement`), not tuples: a short side keeps them.

Names with a leading underscore belong to the Cal-Q-Able generator and are shared by its
modules (engine/movegen_calqable.py and engine/calqable_*.py); nothing else should use them.
"""

from engine.calqable_parse import _FLAGS, _WHITE, _kind
from engine.calqable_targets import _Targets  # noqa: F401  (named in a type comment)
from engine.compat import const


def _placement(p):
    """A Move's placement (square, code) of a side's placement p: square << 7 | code (a
    small int, not a tuple: a side keeps its placements)."""
    return (p >> 7, p & 0x7F)


_NO_LIMIT = const(1 << 29)


class _TooMany(Exception):
    """A square of `=` has more short sides than the generation's `most_sides`."""


class _Walk:
    """What building the sides from one square needs: the line, where they may end, how
    many tiles, where they go, and the values to build towards."""

    # Defaults, at the class: a walk sets only what differs, so that its own dict stays
    # small (a square makes a few walks, and each attribute set in a MicroPython instance
    # may grow its dict).
    cut = 0  # from this many tiles on, build towards `targets`
    targets = None  # type: _Targets | None
    spare = 0  # B: a side of k tiles meets other sides of at most B - k
    other = None  # type: tuple | None  # the other kind's short sides (an _index)
    eq = None  # type: tuple | None  # the `=` (see around()), to pair with them
    room = _NO_LIMIT  # the most short sides it may keep (see _Calq.most_sides)
    skip = 0  # the short sides to pass before those it keeps (_Calq.by_chunks)
    # Best first: as `bound`, for a right walk's short sides (short_bounds())
    bound_short = None  # type: tuple | None
    gaps = None  # type: list | None  # (right sides) must reach a tile on the board
    need_old = False
    # Best first: (tile sum, factor, cross scores and bonus) that the `=` and any side of
    # `targets` may add at most to a long side's, or None (see _Calq.bound)
    bound = None  # type: tuple | None

    def __init__(self, ln, s0, stop, fixed, most):
        self.ln = ln
        self.s0 = s0
        self.stop = stop  # a left side ends just before `stop`; a right side by then (the
        # line's end, or the square before a run of tiles that holds another `=`)
        self.fixed = fixed
        self.most = most  # tiles at most
        self.short = []  # type: list  # the short sides found (kept: see _Calq.walk)

    def end(self, k, tiles):
        """Where a side at square k with `tiles` more to lay ends by (exclusive)."""
        return self.stop if self.fixed else min(self.ln.reach(k, tiles), self.stop)


class _Square:
    """What the walks around one square of `=` share (_Calq.square()): its line and
    position e, the rack tiles B besides the `=` (`budget`) and those a right side may take,
    where the left sides start (short and long ones), the most tiles of a short right side,
    whether a right side must hold a tile on the board, the `=` (see around()) and the
    score bounds of short sides (short_bounds())."""

    def __init__(self):
        # one a generation, filled again for each square (_Calq.square()): a square's
        # set-up then allocates nothing of its own on the chip
        self.ln = None  # type: _Line | None
        self.e = 0
        self.budget = 0
        self.r_budget = 0
        self.r_stop = 0  # a right side ends before this square (see _Calq.square())
        self.short_starts = []  # type: list  # (square, tiles) of the short left sides
        self.long_starts = []  # type: list  # and of the long ones
        self.h_right = 0
        self.must_old = False
        self.eq = None  # type: tuple | None
        self.short_bounds = None  # type: tuple | None
        self.floor = None  # type: list | None  # the short sides' floor (by_chunks)


class _Line:
    """One row or column: its squares, and for each the faces a side may have there, as
    (key, place, code, value, equation factor, cross score, kind, digit, flag): the tile on
    the board (key None), or the rack faces its cross check lets through. The tuples hold
    no square, so that the squares without a cross check share their lists by premium
    (_Calq.faces_at): one line's tables held 9-12 KB of the Pico's heap when each square
    had its own. A side's placements are ints, `at[k] | code` for square k (_placement)."""

    def __init__(self, gen, line, cross_step):
        self.line = line
        n = len(line)
        self.n = n
        cells = gen.cells
        codes = bytes([cells[i] for i in line])
        self.codes = codes
        values = gen.values
        opts = []  # type: list[list[tuple]]
        free = []
        flags = []
        empties = [0] * (n + 1)  # empty squares in line[0:k]
        white_count = [0] * (n + 1)  # operators and bars on the board in line[0:k]
        spots = []  # the empty squares' positions
        # digits[k]: the (digit, key) a new tile on square k may be, by digit (key_info
        # is in key order, so digits come in order); whites[k]: the (kind, key) of the
        # other faces
        digits = []
        whites = []
        none = []  # type: list  # (shared: these lists are only read)
        for k in range(n):
            c = codes[k]
            free.append(not c)
            if c:
                empties[k + 1] = empties[k]
                ch = chr(c & 0x7F)
                opts.append([(None, 0, None, values[c & 0x7F], 1, 0, _kind(ch), ord(ch) - 48, 0)])
                flag = _FLAGS.get(ch, 0)
                flags.append(flag)
                white_count[k + 1] = white_count[k] + (1 if flag & _WHITE else 0)
                digits.append(none)
                whites.append(none)
                continue
            empties[k + 1] = empties[k] + 1
            white_count[k + 1] = white_count[k]
            spots.append(k)
            flags.append(0)
            i = line[k]
            here, ds, ws = gen.faces_at(gen.seg(i, cross_step), gen.premium(i))
            opts.append(here)
            digits.append(ds)
            whites.append(ws)
        self.opts = opts
        self.at = [i << 7 for i in line]  # a placement's square, as _placement packs it
        self.free = free
        self.gain = None  # type: list | None  # see tables()
        self.digits = digits
        self.whites = whites
        self.empties = empties
        self.spots = spots
        self.white_count = white_count
        # board[k][m]: the `_FLAGS` of the tiles on the board in line[k:m]. Row k is row
        # k + 1 unless square k holds a tile with a flag: most rows are shared.
        board = [[0] * (n + 1)] * (n + 1)
        for k in range(n - 1, -1, -1):
            flag = flags[k]
            if flag:
                below = board[k + 1]
                board[k] = [0] * (k + 1) + [flag | below[m] for m in range(k + 1, n + 1)]
            else:
                board[k] = board[k + 1]
        self.board = board

    def reach(self, k, tiles):
        """Where a side at k with `tiles` more to lay must end by (exclusive)."""
        at = self.empties[k] + max(tiles, 0)
        return self.spots[at] if at < len(self.spots) else self.n

    def tables(self):
        """Best first: the most squares line[0:k] can add to a side's tile sum, equation
        factor and cross scores (`gain`, `factor`, `most_cross`: prefix tables; the factor a
        product, so a range is a quotient), for the score bound of _Calq.walk(). Made when
        first needed: a search's passes find no move a while."""
        if self.gain is not None:
            return
        opts = self.opts
        n = self.n
        gain = [0] * (n + 1)
        factor = [1] * (n + 1)
        most_cross = [0] * (n + 1)
        for k in range(n):
            g = c = 0
            f = 1
            for o in opts[k]:
                g = max(g, o[3])
                c = max(c, o[5])
                f = max(f, o[4])
            gain[k + 1] = gain[k] + g
            factor[k + 1] = factor[k] * f
            most_cross[k + 1] = most_cross[k] + c
        self.gain = gain
        self.factor = factor
        self.most_cross = most_cross
