"""Cal-Q-Able move generation for engine/movegen.py (imported on demand).

A move of two or more tiles makes one main equation along its line, with exactly one `=`.
For every row and column and every square `e` that holds the `=` (a tile there, or an empty
square where an `=` goes), the two sides are built apart, square by square from left to
right with their exact values (engine/equation.py's grammar: multi-digit numbers without
leading zeros, the fraction bar, `×` `÷` before `+` `−`): a left side from a square whose
left neighbour is empty up to the square before `e`, a right side from the square after
`e` to a square whose right neighbour is empty. A left and a right side of the same value,
whose tiles the rack can pay for together, make a move. No side takes in a run of tiles on
the board that holds another `=`: the left sides start after the nearest such run, the right
sides end before it, and the split below is fitted to that room (every move of the set's
100 racks: 8 % less time in all, 10 % on the median position, up to 38 %; 2026-11-28).

The two sides share the rack: with B tiles to lay besides the `=`, a left side of kL tiles
meets right sides of at most B - kL. So the sides are split (hL + hR >= B - 1):
- the *short* sides (kL <= hL, kR <= hR) are all built, and kept by value (`_index`) and,
  for the long sides to build towards, by value and by the tiles they use (`_Targets`);
- a *long* side can only meet short sides of the other kind, those the tiles it leaves can
  pay for, so it is built towards their values. A branch is cut when the range its value
  can still end in holds none of them (`_bounds`, from the exact value so far, the squares
  left and the faces that may still come; at the start of a number, `reachable` follows
  where the operators to come may go). Its longest run of digits (the last of them, if
  several are as long) is not built digit by digit but solved for, one value at a time:
  the last run by `tails`; another by `heads`, which builds what follows it (runs shorter
  than it) with the run as 1 and as 2, so that the value is a x + b (or a / x + b when the
  run divides) and x follows from each value to meet. A long side once built is not kept:
  it is paired at once with the short sides of the other kind of its value (`meet`), and
  its moves handed out (to a search's `emit` in the walk, or kept for `scored()` until the
  walk ends). Nine in ten long sides meet none; only the short sides take the heap.
Every pair then has at least one short side and is found once. A left side's length, and
so its tile count, is fixed by its start square; a right side is built once from `e` with
every end it may have.
With a floor (the best score so far, engine/search.py), a long side's walk also stops where
no move it can still make beats the floor: the side so far, the squares left in its reach
at their best, the best side of the other kind, the `=` and the +50 (`bound`).

Each empty square has a cross check (the faces that leave the equation across the line, if
any, true, with that equation's score). After the first move the main equation must hold
a tile already on the board (rules 1 and 12), so a pair without one is dropped. Moves of
one tile are found apart, square by square. Scores add up as engine/calqable.py scores:
tile values with tile premiums under new tiles, times the equation premiums under new
tiles, for the main equation and each cross one; +50 for a whole rack.

For the chip (engine/search.py): a square of `=` whose short sides are more than
`most_sides` is passed over (`skipped`, and kept in `passed` for `passed_over()`, which
searches those squares again by lots of short sides: `by_chunks()`), and with
`give_up` one whose sides run the heap out is given up (`given_up`); the generation goes on
with the next square, the rack's counts put back (`refill`). The lookups a square's long
walks make are not kept on the chip (`keep_lookups`; kept elsewhere): a lookup is an int, a
mask over the square's sorted scaled floors (a small int, no heap block, up to 30 floors),
worked out from the usages of the other kind's short sides, each usage's tiles in bit
fields of their own so that one subtraction tells whether the rack left pays for it
(`_shifts`). The squares of a line without a cross check share their tables of faces, by
premium (_Line). The search's live heap peaked at 71,328 B on the emulated Pico's 12
positions of tools/hintbench.py with two lists of floors and values a lookup, keyed twice;
at 52,304 B with bytes of indexes; at 46,608 B with the tables shared; at 33,168 B with the
squares passed over searched again by lots (46,736 B on the one position that came back to
them within 5 s, then 33,232 B), the targets' groups as tuples, the walk's tuple unpacked
seven at a time and the lines as ranges; at 29,744 B with the lookups as masks; at 24,384 B
with the lookups not kept, the usages' fields and masks in two lists and the lots of a
square passed over two thirds of `most_sides` (2026-11-28).

Tiles used are counted in a mixed-radix integer over the rack's faces (one digit a face, of
radix count + 1), so a side's usage is one small int. Everything is exact: integers and
fractions, and integer bounds rounded outwards.

This module is the generator's entry (`scored`, `generation`) and its `_Calq`: the lines,
the squares of `=`, the cross checks, and the pairing of sides into scored moves. What it
walks with is in modules of their own:
- engine/calqable_parse.py: a side's parse state and exact value, face by face;
- engine/calqable_ranges.py: the ranges a side's value can still end in (`_bounds`);
- engine/calqable_targets.py: the short sides' values a long side is built towards
  (`_Targets`), and sides by value (`_index`);
- engine/calqable_line.py: a line's faces and bound tables (`_Line`), a square of `=`
  (`_Square`), a walk (`_Walk`);
- engine/calqable_walk.py: the walk that builds the sides (`walk`, `reachable`);
- engine/calqable_solve.py: a long side's longest run of digits solved for (`tails`,
  `heads`).
"""

from engine import calqable_bounds, equation, faces
from engine.calqable_line import _Line, _placement, _Square, _TooMany, _Walk
from engine.calqable_parse import _DIGIT, _FLAGS, _kind
from engine.calqable_targets import _index, _shifts, _Targets
from engine.calqable_walk import walk as _walk
from engine.compat import ON_BOARD, const
from engine.move import Move
from engine.movegen import STEP_CHECK, Generation, _nothing
from engine.profile import CHIP, RUN

_ALL_RACK_BONUS = 50  # engine/calqable.py ALL_RACK_BONUS, via bonus_points below
_EQUALS_CODE = ord(faces.EQUALS)
_EQUALS_BYTES = faces.EQUALS.encode()
# (as in engine/calqable_targets.py and engine/calqable_line.py: MicroPython keeps a const()
# whose name starts with `_` out of its module, so it cannot be imported)
_KEY_D = const(4096)
_KEY_N = const(131072)
_NO_LIMIT = const(1 << 29)


def scored(game, rack=None, floor=None):
    """Yield (move, score) for every legal move (see engine/movegen.py)."""
    return _Calq(game, rack, floor).scored()


def generation(game, rack=None, floor=None):
    """The generation behind scored(), for engine/search.py: its `scored()` stream, its
    step count (`steps`, calls of the side builder) and its `steps_done` hook, called every
    movegen.STEP_CHECK steps (where a search's budget can stop it, by raising)."""
    return _Calq(game, rack, floor)


class _Calq(Generation):
    """One Cal-Q-Able generation."""

    # Rule-5 replacements (engine/calqable_replace.py) set these on their own generations:
    # the right sides take no new tile (`right_new` False), and a move of one new tile is
    # paired too (`least_new` 1: singles() finds those otherwise, which runs on no line)
    right_new = True
    least_new = 2

    def __init__(self, game, rack, floor):
        Generation.__init__(self, game, rack, floor)
        rules = game.rules
        self.values = rules.values_by_code
        self.rack_size = rules.rack_size()
        counts = self.counts
        self.rack_counts = dict(counts)  # as the rack holds them (see refill())
        self.equals = counts.get(faces.EQUALS, 0)
        self.equals_from_rack = rules.from_rack(faces.EQUALS)
        # Side faces (everything but `=`), with their mixed-radix place values.
        keys = []
        places = []
        radices = []
        flagged = []  # (key, flag) of the faces in _FLAGS
        place = 1
        for key in sorted(counts):
            if key == faces.EQUALS or counts[key] <= 0:
                continue
            if key not in rules.alphabet or key == faces.JOKER:
                continue  # Cal-Q-Able has no jokers
            keys.append(key)
            places.append(place)
            radices.append(counts[key] + 1)
            place *= counts[key] + 1
            if key in _FLAGS:
                flagged.append((key, _FLAGS[key]))
        self.keys = keys
        self.places = places
        self.shifts, self.guard = _shifts(keys, counts)  # (see fields())
        # what _Line needs of each face: (key, place, code, value, kind, digit, flag)
        self.key_info = [
            (key, places[j], ord(key), self.values[ord(key)], _kind(key), ord(key) - 48,
             _FLAGS.get(key, 0))
            for j, key in enumerate(keys)
        ]  # fmt: skip
        self.radices = radices
        self.flagged = flagged
        self.digit_keys = [key for key in keys if "0" <= key <= "9"]
        self.white_keys = [key for key in keys if not "0" <= key <= "9"]
        # Best first (with a floor): a line's bounds are worked out once for each limit
        # (`marks`: by line number, a dict of its spots' bounds by limit), as a search's passes
        # lower `limit` for a while and then ask again at the whole rack. `ordered` False: the
        # board's order without bounds (a search's first, quick pass). (A dict a line: one
        # for every line grows into one block that a stock board's splintered heap may not
        # have, as engine/movegen.py's seg_cache did.)
        self.marks = [None] * (self.w + self.h)  # type: list
        self.ordered = True
        self.lone = True  # False: no moves of one tile (a search's later passes)
        self.lone_last = False  # True: those after the lines' moves, not before
        # With `give_up` (a search sets it), a square of `=` whose sides do not fit in the
        # heap is given up and counted in `given_up` (see line_moves); otherwise the
        # MemoryError ends the generation. A square whose short sides (of both kinds) are
        # more than `most_sides` is passed over and counted in `skipped`.
        self.give_up = False
        self.given_up = 0
        self.most_sides = _NO_LIMIT
        self.skipped = 0
        # Whether a square's lookups are kept, each made once (_Targets.lookup): not on a
        # board, for its heap, nor in a search with a budget (the chip's, wherever it runs)
        self.keep_lookups = not ON_BOARD
        # (line, cross step, spot, moves handed out, floor at its start) of each square
        # passed over
        self.passed = []  # type: list
        self.handed = 0  # moves of the current square of `=` handed to `emit`
        self.started = None  # the floor when the current square of `=` started
        self.held_back = 0  # of those, the first ones not handed out (passed_over())
        self.steps = 0  # calls of walk()'s side builder, the search's unit of work
        self.next_check = STEP_CHECK
        self.steps_done = _nothing  # engine/search.py's budget check
        # The moves of long sides, paired as they are built (meet()): handed to `emit` if
        # set (a search's, called in the walk), else kept in `found` for scored() to yield.
        self.emit = None
        self.found = []  # type: list
        # _Line's tables of the squares without a cross check, shared by premium
        self.plain = {}  # type: dict
        self.sq = _Square()  # the current square of `=` (around())

    # -- cross checks --------------------------------------------------------------------------

    def premium(self, i):
        """(tile factor, equation factor) of square i's premium: (1, 1) without one."""
        p = self.prem[i]
        if p:
            if self.kinds[p] == CHIP:
                return self.factors[p], 1
            if self.kinds[p] == RUN:
                return 1, self.factors[p]
        return 1, 1

    def faces_at(self, cross, premium):
        """(faces, digits, others) of an empty square with the cross check `cross` (or
        None) and the premium (tile factor, equation factor): see _Line. Squares without a
        cross check share them by premium."""
        plain = cross is None
        if plain:
            got = self.plain.get(premium)
            if got is not None:
                return got
        tile_f, run_f = premium
        here = []  # type: list[tuple]
        ds = []
        ws = []
        for key, place, code, value, kind, digit, bit in self.key_info:
            c_score = 0
            if not plain:
                c_score = cross.get(key)
                if c_score is None:
                    continue
            here.append((key, place, code, value * tile_f, run_f, c_score, kind, digit, bit))
            if kind == _DIGIT:
                ds.append((digit, key))
            else:
                ws.append((kind, key))
        got = (here, ds, ws)
        if plain:
            self.plain[premium] = got
        return got

    def tile(self, i, ch):
        """(value with a tile premium, equation factor) of a new tile `ch` on square i."""
        tile_f, run_f = self.premium(i)
        return self.values[ord(ch)] * tile_f, run_f

    def cross(self, i, b, a):
        """The cross check of Generation.seg: a dict face -> score of the equation through
        empty square i, for the faces that make it true (`b`, `a`: the codes around it)."""
        values = self.values
        before = bytes([c & 0x7F for c in b])
        after = bytes([c & 0x7F for c in a])
        old = 0
        for c in before + after:
            old += values[c]
        out = {}  # type: dict
        # An equation holds exactly one `=` and ends on digits at both ends (no unary
        # minus): only the faces that can make one are judged.
        in_before = before.find(_EQUALS_BYTES)
        in_after = after.find(_EQUALS_BYTES)
        if in_before < 0 and in_after < 0:
            # the new face must be the `=`
            text = before + _EQUALS_BYTES + after
            if self.equals > 0 and before and after and equation.check(text) is None:
                v, mult = self.tile(i, faces.EQUALS)
                out[faces.EQUALS] = (old + v) * mult
            return out
        cands = self.keys if before and after else self.digit_keys
        # The new face is on one side of the `=`: the other side's value is worked out
        # once, and only the side with the new face judged for each face.
        if in_before >= 0:
            fixed = before[:in_before]
            head = before[in_before + 1 :]
            tail = after
        else:
            fixed = after[in_after + 1 :]
            head = before
            tail = after[:in_after]
        if _EQUALS_BYTES in head or _EQUALS_BYTES in tail or _EQUALS_BYTES in fixed:
            return out  # two `=`
        want = equation.value(fixed)
        if want is None:
            return out
        for ch in cands:
            got = equation.value(head + ch.encode() + tail)
            if got is not None and got[0] * want[1] == want[0] * got[1]:
                v, mult = self.tile(i, ch)
                out[ch] = (old + v) * mult
        return out

    # -- generation ----------------------------------------------------------------------------

    def scored(self):
        if self.limit <= 0 and not (self.equals and not self.equals_from_rack):
            return
        w = self.w
        h = self.h
        singles = not self.first_move and self.lone
        if singles and not self.lone_last:
            yield from self.singles()
        # (ranges, not lists: 30 lists of squares held some 2.5 KB of the chip's heap)
        lines = [(range(r * w, r * w + w), w) for r in range(h)]
        lines += [(range(c, c + w * h, w), 1) for c in range(w)]
        if not self.first_move:
            # after the first move the equation holds a tile on the board: a line without
            # one has no move of more than one tile (those are singles())
            cells = self.cells
            lines = [x for x in lines if any(cells[i] for i in x[0])]
        floor = self.floor
        if floor is None or not self.ordered:
            # every move: the board's order, rows then columns
            for line, cross_step in lines:
                yield from self.line_moves(line, cross_step, self.spots(line, cross_step))
            lines = []  # (the best-first order below has none to go through)
        # Best first: the lines in the order of their best bound (calqable_bounds.py), and
        # in a line the squares of `=` so too; none is searched once its bound cannot beat
        # the floor, which the moves found raise. Only the bounds are kept, not the spots
        # (every line's spots would hold some 25 KB of the chip's heap).
        # A line's bounds need its cross checks, the costliest part of a line's set-up:
        # the lines are first ranked by a rough bound without them (rough(), never below),
        # and a line's bounds are worked out only once it comes first, then it goes back in
        # by its best bound. Working out every line's first held the chip's hint back: on
        # the WASI build that ranking ended at a median of 72 M fuel, 53 M after the first
        # move (tools/hintbench.py, 82 positions: 11.7 % of the best at 80 M against 19.1 %
        # with the rough bound, 53.3 % at 400 M against 55.5 %; 2026-11-28).
        # A line's place in `order` is one int, -bound * span + 2 n + exact (in the order
        # of those three; a tuple a line held 1 KB of the chip's heap).
        span = 2 * len(lines)
        order = []
        rack = calqable_bounds.rack_of(self) if lines else None
        for n in range(len(lines)):
            line, cross_step = lines[n]
            order.append(-calqable_bounds.rough(self, line, cross_step, rack) * span + 2 * n)
        order.sort()
        while order:
            top = order.pop(0)
            n = top % span
            exact = n & 1
            n >>= 1
            if -(top // span) <= floor[0]:
                break
            if not exact:
                ranked = self.ranked(lines, n, rack)
                if not ranked:
                    continue
                item = -ranked[0][3] * span + 2 * n + 1
                j = 0
                while j < len(order) and order[j] < item:
                    j += 1
                if j > 0:
                    order.insert(j, item)
                    continue
                # still first: searched now, with the spots just ranked
                if ranked[0][3] <= floor[0]:
                    break
            else:
                ranked = self.ranked(lines, n, rack)
            line, cross_step = lines[n]
            yield from self.line_moves(line, cross_step, ranked)
        if singles and self.lone_last:
            yield from self.singles()

    def ranked(self, lines, n, rack=None):
        """The spots() of line `n` of `lines`, each with its bound as a fourth item, best
        first (ties in the line's order); `rack`: calqable_bounds.rack_of(self), if known."""
        line, cross_step = lines[n]
        spots = self.spots(line, cross_step)
        if not spots:
            return spots
        by_limit = self.marks[n]
        if by_limit is None:
            by_limit = self.marks[n] = {}
        marks = by_limit.get(self.limit)
        if marks is None:
            marks = by_limit[self.limit] = calqable_bounds.of_line(
                self, line, cross_step, spots, rack
            )
        order = sorted(range(len(spots)), key=lambda j: (-marks[j], j))
        return [spots[j] + (marks[j],) for j in order]

    def from_rack(self, move):
        """The tiles of `move` taken from the rack (an `=` from the open supply is not)."""
        if self.equals_from_rack:
            return len(move.placements)
        n = 0
        for _, code in move.placements:
            if code != _EQUALS_CODE:
                n += 1
        return n

    def bonus(self, nrack):
        return _ALL_RACK_BONUS if nrack == self.rack_size else 0

    def singles(self):
        w = self.w
        cands = [k for k in self.keys if self.limit > 0]
        if self.equals > 0 and (self.limit > 0 or not self.equals_from_rack):
            cands.append(faces.EQUALS)
        for i, across, down in self.lone_squares():
            for ch in cands:
                score = 0
                ok = True
                for run in (across, down):
                    if run is not None:
                        if ch not in run:
                            ok = False
                            break
                        score += run[ch]
                if ok:
                    nrack = 1 if (ch != faces.EQUALS or self.equals_from_rack) else 0
                    yield Move([(i, ord(ch))], w), score + self.bonus(nrack)

    def spots(self, line, cross_step):
        """Where the `=` of a move along `line` may stand: (position e, its new tile as
        (square, value, equation factor, cross score) or None for one on the board, rack
        tiles it takes)."""
        cells = self.cells
        n = len(line)
        out = []  # type: list
        for e in range(1, n - 1):
            c = cells[line[e]]
            if c:
                if chr(c & 0x7F) == faces.EQUALS and not self.first_move:
                    out.append((e, None, 0))
                continue
            if self.equals <= 0:
                continue
            e_rack = 1 if self.equals_from_rack else 0
            if e_rack > self.limit:
                continue
            i = line[e]
            cross = self.seg(i, cross_step)
            if cross is not None and faces.EQUALS not in cross:
                continue
            v, mult = self.tile(i, faces.EQUALS)
            out.append((e, (i, v, mult, cross[faces.EQUALS] if cross is not None else 0), e_rack))
        return out

    def line_moves(self, line, cross_step, spots, chunked=False):
        """The moves along `line` whose `=` stands on one of `spots` (see spots(); a fourth
        item, the spot's bound, cuts the rest once the floor reaches it); `chunked`: see
        around()."""
        start_pos = -1
        if self.first_move:
            if self.start_sq not in line:
                return
            start_pos = 0
            while line[start_pos] != self.start_sq:  # (a range has no index() on the chip)
                start_pos += 1
        floor = self.floor
        ln = None
        for spot in spots:
            if len(spot) > 3 and spot[3] <= floor[0]:
                return
            if ln is None:
                ln = _Line(self, line, cross_step)
            try:
                yield from self.around(ln, spot[0], spot[1], spot[2], start_pos, chunked)
            except _TooMany:
                self.skipped += 1
                self.refill()
                self.passed.append((line, cross_step, spot, self.handed, self.started))
            except (MemoryError, RuntimeError) as err:
                # The sides of this square of `=` did not fit in the heap (a whole rack's
                # short sides on the Pico): they are garbage now, and the next square may
                # need fewer. Or its walk ran out of stack ("maximum recursion depth
                # exceeded", CPython's RecursionError): the rp2 port nests some 35 Python
                # calls, and the walks keep well within it (engine/calqable_walk.py), so
                # only a caller nesting deeper than the board meets it. A search goes on;
                # `given_up` tells that moves were missed. Any other RuntimeError is a bug.
                if not self.give_up:
                    raise
                if isinstance(err, RuntimeError) and "recursion" not in str(err):
                    raise
                self.given_up += 1
                self.refill()

    def passed_over(self):
        """Yield the moves of the squares of `=` passed over (`passed`), searched now by
        lots of short sides (around(), by_chunks()), the highest bound first;
        each leaves `passed` as it is taken. A search's last resort: they hold the most
        sides, so the most time; by lots, no more heap than the other squares. The moves
        `emit` had from a square before it was passed over are not handed out again if the
        floor is still what it was when that square started (levels 1 and 2: every move
        once): the walks then go the same way up to there. (Once the floor has moved, the
        walks cut other branches and those moves may come again, which changes no chooser
        that keeps a floor.)"""
        passed = self.passed
        order = sorted(
            range(len(passed)),
            key=lambda j: (-passed[j][2][3] if len(passed[j][2]) > 3 else 0, j),
        )
        todo = [passed[j] for j in order]
        passed.clear()
        passed.extend(todo)
        try:
            while passed:
                line, cross_step, spot, handed, was = passed.pop(0)
                now = None if self.floor is None else self.floor[0]
                self.held_back = handed if now == was else 0
                yield from self.line_moves(line, cross_step, [spot], True)
        finally:
            self.held_back = 0

    def refill(self):
        """Put back on the rack's counts the tiles a square left in the middle of building
        a side still held (the walks take them off as they go), and drop the moves it kept
        for scored(): a square passed over yields none (a search's `emit` has had those it
        found already, each a legal move)."""
        self.found.clear()
        counts = self.counts
        rack = self.rack_counts
        for key in rack:
            counts[key] = rack[key]

    def around(self, ln, e, e_tile, e_rack, start_pos, chunked=False):
        """The moves whose `=` stands on line position e. `chunked` (a square passed over,
        searched again: see passed_over()): the short sides of each kind are taken by lots
        (by_chunks()), so that the heap holds no more of them than a square not passed
        over."""
        self.handed = 0
        self.started = None if self.floor is None else self.floor[0]
        sq = self.square(ln, e, e_tile, e_rack, start_pos)
        if sq is None:
            return
        if chunked:
            yield from self.by_chunks(sq)
            return
        # The left sides, short ones first; the long ones wait for the right sides.
        lefts = self.lefts(sq, 0, self.most_sides)[0]
        if not lefts and not sq.long_starts:
            return  # no left side
        # The right sides: short ones kept, long ones built towards the short left sides
        # and paired with them as they come (without any, only the short ones, which the
        # long left sides meet).
        left_index = _index(lefts) if lefts else None
        walk = self.right_walk(sq, lefts, left_index, 0, self.most_sides - len(lefts))
        found = self.found
        if found:
            yield from found
            found.clear()
        rights = walk.short
        if not rights:
            return
        right_index = _index(rights)
        if left_index is not None:
            yield from self.join(sq.eq, left_index, right_index)
        if sq.long_starts:
            yield from self.long_lefts(sq, rights, right_index)

    def by_chunks(self, sq):
        """around() for a square passed over: the short left sides two thirds of
        `most_sides` at a time, each lot met by the long right sides and joined with the
        short right sides, those too a lot at a time; then the long left sides built towards
        each lot of short right sides. The walks of short sides are made again for each lot
        (they are the cheap ones); the long ones are made once a lot of the other kind."""
        # (Two thirds: a lot of left sides is held with its index, the targets of the long
        # right walk and half a lot of right sides; lots of most_sides held the emulated
        # Pico's largest peak, 25.6 KB on the 12 positions of tools/hintbench.py, 22.0 KB so)
        size = max(1, self.most_sides * 2 // 3)
        found = self.found
        # The walks of short sides are cut by the floor as it was when the square started,
        # not as the moves found raise it, so that every walk of one kind finds the same
        # sides in the same order: the lots neither miss nor repeat one.
        sq.floor = None if self.floor is None else [self.floor[0]]
        skip = 0
        more = True
        while more:
            lefts, more = self.lefts(sq, skip, size, True)
            skip += size
            if not lefts:
                break
            left_index = _index(lefts)
            self.right_walk(sq, lefts, left_index, _NO_LIMIT, 0)  # the long sides only
            if found:
                yield from found
                found.clear()
            # joined half a lot at a time: the lot of left sides is held beside them
            for rights in self.right_lots(sq, max(1, size // 2)):
                yield from self.join(sq.eq, left_index, _index(rights))
        if not sq.long_starts:
            return
        for rights in self.right_lots(sq, size):
            yield from self.long_lefts(sq, rights, _index(rights))

    def right_lots(self, sq, size):
        """Yield the short right sides of `sq`, `size` at a time (by_chunks())."""
        skip = 0
        more = True
        while more:
            rights, more = self.rights(sq, skip, size)
            skip += size
            if not rights:
                return
            yield rights

    def square(self, ln, e, e_tile, e_rack, start_pos):
        """What the walks around a square of `=` on line position e share (_Square), or
        None if no move can have its `=` there."""
        codes = ln.codes
        n = ln.n
        budget = self.limit - e_rack
        e_old = e_tile is None
        first = self.first_move
        # The equation holds one `=`: a side cannot take in a run of tiles on the board that
        # holds another. The left sides start after the nearest such `=` before e (`lo`);
        # the right sides end before the square that parts e from the nearest such run
        # after it (`r_stop`; the line's end without one).
        lo = e - 1
        while lo >= 0 and codes[lo] & 0x7F != _EQUALS_CODE:
            lo -= 1
        lo += 1
        r_stop = e + 1
        while r_stop < n and codes[r_stop] & 0x7F != _EQUALS_CODE:
            r_stop += 1
        if r_stop < n:
            while codes[r_stop - 1]:
                r_stop -= 1  # back to the run's first tile (e + 1 at least)
            r_stop -= 1  # the empty square before it
            if r_stop <= e:
                return None  # the run touches e: no right side
        # Can some left side hold a tile on the board? (After the first move the equation
        # must hold one: if neither the `=` nor any left side does, every right side must.)
        left_old = False
        for k in range(e - 1, max(lo - 1, e - 1 - budget), -1):
            if codes[k]:
                left_old = True
                break
        right_old = False
        for k in range(e + 1, min(r_stop, e + 1 + budget)):
            if codes[k]:
                right_old = True
                break
        if not (first or e_old or left_old or right_old):
            return None  # no tile on the board within the rack's reach: the equation holds none
        # A left side takes a rack tile unless the square before the `=` holds one already,
        # and so does a right side.
        r_budget = budget - (0 if codes[e - 1] else 1) if self.right_new else 0
        l_budget = budget - (0 if codes[e + 1] else 1)
        if r_budget < 0 or l_budget < 0:
            return None
        sq = self.sq  # (filled here, not by a method of its own: a call a square costs)
        sq.ln = ln
        sq.e = e
        sq.budget = budget
        sq.r_budget = r_budget
        sq.r_stop = r_stop
        sq.short_starts.clear()
        sq.long_starts.clear()
        sq.floor = None
        sq.must_old = not (first or e_old or left_old)
        lefts_need_old = not (first or e_old or right_old)
        # The split: short sides of up to h_left and h_right tiles.
        max_left = min(l_budget, ln.empties[e] - ln.empties[lo])
        max_right = min(r_budget, ln.empties[r_stop] - ln.empties[e + 1])
        h_left = (budget - 1) // 2
        h_right = budget - 1 - h_left
        if max_left <= h_left:
            h_left = max_left
            h_right = -1
        elif max_right <= h_right:
            h_right = max_right
            h_left = -1
        sq.h_right = h_right
        if e_old:
            e_sum, e_mult, e_cross, e_new = self.values[ord(faces.EQUALS)], 1, 0, 0
        else:
            e_sum, e_mult, e_cross, e_new = e_tile[1], e_tile[2], e_tile[3], 1
        sq.eq = eq = (e_tile, e_old, e_rack, e_sum, e_mult, e_cross, e_new, start_pos)
        sq.short_bounds = self.short_bounds(ln, e, eq, l_budget, r_budget, lo, r_stop)
        # Where the left sides start: (square, tiles), short ones and long ones
        has_old = False
        for a in range(e - 1, lo - 1, -1):
            if codes[a]:
                has_old = True
            kl = ln.empties[e] - ln.empties[a]
            if kl > l_budget:
                break
            if a > 0 and codes[a - 1]:
                continue
            if first and a > start_pos:
                continue
            if lefts_need_old and not has_old:
                continue
            (sq.short_starts if kl <= h_left else sq.long_starts).append((a, kl))
        if not sq.short_starts and not sq.long_starts:
            return None  # no left side
        return sq

    def lefts(self, sq, skip, room, lot=False):
        """The short left sides of `sq` after the first `skip` of them, at most `room`:
        (those, whether more are left). Without `lot` (by_chunks()) more than `room` raise
        _TooMany."""
        lefts = []  # type: list
        ln = sq.ln
        for a, kl in sq.short_starts:
            walk = _Walk(ln, a, sq.e, True, kl)
            walk.room = room - len(lefts)
            if sq.short_bounds is not None:
                walk.bound = sq.short_bounds[0]
            if lot:
                walk.skip = skip
                if not self.lot_walk(walk, sq.floor):
                    lefts.extend(walk.short)
                    return lefts, True
                skip = walk.skip
            else:
                self.walk(walk)
            lefts.extend(walk.short)
        return lefts, False

    def rights(self, sq, skip, room):
        """The short right sides of `sq` after the first `skip` of them, at most `room`:
        (those, whether more are left). (by_chunks(): the walk of the short ones only.)"""
        if sq.h_right < 0:
            return [], False  # every right side is long (a side of no new tile too)
        walk = self.right_walk(sq, None, None, skip, room, False)
        more = not self.lot_walk(walk, sq.floor)
        return walk.short, more

    def lot_walk(self, walk, floor):
        """by_chunks(): walk the short sides of `walk` with the floor `floor`; False if they
        ran past its room (the last dropped, the rack made whole again)."""
        live = self.floor
        self.floor = floor
        try:
            self.walk(walk)
        except _TooMany:
            walk.short.pop()
            self.refill()
            return False
        finally:
            self.floor = live
        return True

    def right_walk(self, sq, lefts, left_index, skip, room, walk_it=True):
        """The walk of the right sides of `sq`: the long ones built towards `lefts` and
        paired with them as they come (into `found`, or to `emit`), the short ones (after
        `skip`, at most `room`) kept in the walk's `short`; walked unless not `walk_it`."""
        ln = sq.ln
        most = sq.r_budget if lefts else min(sq.r_budget, sq.h_right)
        walk = _Walk(ln, sq.e + 1, sq.r_stop, False, most)
        walk.cut = sq.h_right + 1
        walk.spare = sq.budget
        if skip:
            walk.skip = skip
        walk.room = room
        if sq.short_bounds is not None:
            walk.bound_short = sq.short_bounds[1]
        if sq.must_old:
            walk.need_old = True
            # gaps[k]: empty squares from k to the next tile on the board that a right
            # side may reach (n + 1: none)
            n = ln.n
            codes = ln.codes
            gaps = [n + 1] * (n + 1)
            for k in range(sq.r_stop - 1, sq.e, -1):
                gaps[k] = 0 if codes[k] else gaps[k + 1] + 1
            walk.gaps = gaps
        if lefts:
            walk.targets = _Targets(self, lefts)
            walk.bound = self.bound(ln, sq.eq, walk.targets)
            walk.other = left_index
            walk.eq = sq.eq
        if walk_it:
            self.walk(walk)
        return walk

    def long_lefts(self, sq, rights, right_index):
        """The moves of the long left sides of `sq`, built towards the short right sides
        `rights` (and their _index)."""
        targets = _Targets(self, rights)
        bound = self.bound(sq.ln, sq.eq, targets)
        found = self.found
        for a, kl in sq.long_starts:
            walk = _Walk(sq.ln, a, sq.e, True, kl)
            walk.targets = targets
            walk.bound = bound
            walk.spare = sq.budget
            walk.other = right_index
            walk.eq = sq.eq
            self.walk(walk)
            if found:
                yield from found
                found.clear()

    def meet(self, wk, value, used, nk, tsum, mult, cross_sum, held, placed, pos):
        """Pair a long side of `wk`, once built, with the short sides of the other kind
        (wk.other) of its value whose tiles the rack can pay for beside its own, and hand
        out the moves: to `emit` (a search's), or into `found` for around() to yield. A long
        side is not kept: nine in ten meet no short side."""
        n, d = value
        key = n * _KEY_D + d if 0 < d < _KEY_D and -_KEY_N < n < _KEY_N else value
        others = wk.other[0].get(key)
        if others is None:
            return
        fits = self.fits
        side = None
        for other in others:
            if not fits(used, other[1]):
                continue
            if side is None:
                side = (value, used, nk, tsum, mult, cross_sum, held, tuple(placed), pos)
            if wk.fixed:
                got = self.pair(wk.eq, side, other)
            else:
                got = self.pair(wk.eq, other, side)
            if got is not None:
                if self.emit is None:
                    self.found.append(got)
                else:
                    self.handed += 1
                    if self.handed > self.held_back:
                        self.emit(got[0], got[1])

    def short_bounds(self, ln, e, eq, l_budget, r_budget, lo, r_stop):
        """Best first (a floor): what the `=` of `eq` and any side of the other kind add at
        most to a short side's tile sum, equation factor, and cross scores with the bonus,
        as bound() gives them for a long side, but from the squares the other kind may take
        at their best (every side of the other kind is not built yet): (for left sides, for
        right sides), or None without a floor."""
        if self.floor is None or self.floor[0] < 0:
            return None
        ln.tables()
        gain = ln.gain
        factor = ln.factor
        most_cross = ln.most_cross
        empties = ln.empties
        e_sum, e_mult, e_cross = eq[3], eq[4], eq[5]
        bonus = _ALL_RACK_BONUS if self.limit >= self.rack_size else 0
        # the right sides' squares: from e + 1 to where r_budget new tiles end by (r_stop
        # at most, see square())
        z = min(ln.reach(e + 1, r_budget), r_stop)
        # the left sides': from the first square l_budget new tiles can start on (lo at
        # least)
        a = e
        while a > lo and empties[e] - empties[a - 1] <= l_budget:
            a -= 1
        return (
            (
                gain[z] - gain[e + 1] + e_sum,
                factor[z] // factor[e + 1] * e_mult,
                most_cross[z] - most_cross[e + 1] + e_cross + bonus,
            ),
            (
                gain[e] - gain[a] + e_sum,
                factor[e] // factor[a] * e_mult,
                most_cross[e] - most_cross[a] + e_cross + bonus,
            ),
        )

    def bound(self, ln, eq, targets):
        """Best first (a floor): what the `=` of `eq` and a side of `targets` add at most
        to a long side's tile sum, equation factor, and cross scores with the bonus, for
        walk()'s score bound on line `ln` (see pair()); None without a floor, or before a
        move is found (every move beats the floor then)."""
        if self.floor is None or self.floor[0] < 0:
            return None
        ln.tables()
        e_sum, e_mult, e_cross = eq[3], eq[4], eq[5]
        bonus = _ALL_RACK_BONUS if self.limit >= self.rack_size else 0
        # the most any side of `targets` adds to each (not all from the same side)
        t_sum = 0
        t_mult = 1
        t_cross = 0
        for entry in targets.entries:
            t_sum = max(t_sum, entry[3])
            t_mult = max(t_mult, entry[4])
            t_cross = max(t_cross, entry[5])
        return t_sum + e_sum, t_mult * e_mult, t_cross + e_cross + bonus

    def join(self, eq, lefts, rights):
        """The moves of the left and right sides (two `_index`es) of equal values."""
        fits = self.fits
        pair = self.pair
        right_table = rights[0]
        left_table = lefts[0]
        for key in lefts[1]:
            right_sides = right_table.get(key)
            if right_sides is None:
                continue
            for left in left_table[key]:
                lu = left[1]
                for right in right_sides:
                    if not fits(lu, right[1]):
                        continue
                    found = pair(eq, left, right)
                    if found is not None:
                        yield found

    def pair(self, eq, left, right):
        """(move, score) of a left and a right side around the `=` whose tiles the rack can
        pay for together, or None if they make no legal move (or, with a floor, score no
        more than it)."""
        e_tile, e_old, e_rack, e_sum, e_mult, e_cross, e_new, start_pos = eq
        _, _, l_new, l_sum, l_mult, l_cross, l_old, l_placed, _ = left
        _, _, r_new, r_sum, r_mult, r_cross, r_old, r_placed, b = right
        if l_new + r_new + e_new < self.least_new:
            return None  # one tile: found by singles()
        nrack = l_new + r_new + e_rack
        if nrack > self.limit:
            return None
        if self.first_move:
            if b < start_pos:
                return None
        elif not (l_old or r_old or e_old):
            return None  # not_crossing: the equation uses no tile on the board
        score = (l_sum + e_sum + r_sum) * l_mult * e_mult * r_mult
        score += l_cross + e_cross + r_cross + self.bonus(nrack)
        floor = self.floor
        if floor is not None and score <= floor[0]:
            return None
        # (loops, not comprehensions: on MicroPython a comprehension is one more nested
        # call, and the walks that pair sides run deep; see engine/calqable_walk.py)
        placed = []  # type: list
        for p in l_placed:
            placed.append(_placement(p))
        for p in r_placed:
            placed.append(_placement(p))
        if not e_old:
            placed.append((e_tile[0], _EQUALS_CODE))
        return Move(placed, self.w), score

    def fields(self, u):
        """A usage (mixed radix) with each face's tiles in a bit field of its own (_shifts),
        so that one subtraction tells whether the rack left pays for it (_Targets.lookup)."""
        out = 0
        places = self.places
        radices = self.radices
        shifts = self.shifts
        for j in range(len(places)):
            out += (u // places[j]) % radices[j] << shifts[j]
        return out

    def fits(self, u, v):
        """Whether the tiles of two sides' usages (mixed-radix ints) are on the rack."""
        if not u or not v:
            return True
        places = self.places
        radices = self.radices
        for k in range(len(places)):
            r = radices[k]
            if (u // places[k]) % r + (v // places[k]) % r >= r:
                return False
        return True

    def rack_flags(self):
        """The `_FLAGS` of the faces still on the rack."""
        counts = self.counts
        out = 0
        for key, flag in self.flagged:
            if counts[key] > 0:
                out |= flag
        return out

    # Build the sides of a walk: engine/calqable_walk.py's walk(), a module function set as
    # the method, so that calling it nests one Python call, not two (see there).
    walk = _walk
