"""Cal-Q-Able move generation for engine/movegen.py (imported on demand).

A move of two or more tiles makes one main equation along its line, with exactly one `=`.
For every row and column and every square `e` that holds the `=` (a tile there, or an empty
square where an `=` goes), the two sides are built apart, each square by square from left
to right with its exact value (engine/equation.py's grammar: multi-digit numbers without
leading zeros, the fraction bar, `×` `÷` before `+` `−`):
- the right sides, from the square after `e` to every square where the run may end, are
  kept by value;
- each left side, from every square whose left neighbour is empty up to the square before
  `e`, is looked up there, and every right side of the same value that the rack can still
  pay for makes a move.
Each empty square has a cross check (the faces that leave the equation across the line, if
any, true, with that equation's score). After the first move the main equation must hold
a tile already on the board (rules 1 and 12), so a pair without one is dropped. Moves of
one tile are found apart, square by square. Scores add up as engine/calqable.py scores:
tile values with tile premiums under new tiles, times the equation premiums under new
tiles, for the main equation and each cross one; +50 for a whole rack.

Tiles used are counted in a mixed-radix integer over the rack's faces (one digit a face, of
radix count + 1), so a side's usage is one small int.
"""

from engine import equation, faces
from engine.arith import add_term
from engine.compat import gcd
from engine.move import Move
from engine.movegen import Generation, faces_of
from engine.profile import CHIP, RUN

_ALL_RACK_BONUS = 50  # engine/calqable.py ALL_RACK_BONUS, via bonus_points below


def scored(game, rack=None, floor=None):
    """Yield (move, score) for every legal move (see engine/movegen.py)."""
    return _Calq(game, rack, floor).scored()


def _apply(chain, op, n, d):
    """The chain (total n, total d, sign, term n, term d) followed by `op n/d`; None once
    it divides by zero."""
    if chain is None:
        return (0, 1, 1, n, d)
    tn, td, sign, an, ad = chain
    if op == "*":
        an *= n
        ad *= d
    elif op == ":":
        an *= d
        ad *= n
    else:
        tn, td = add_term(tn, td, sign, an, ad)
        sign = 1 if op == "+" else -1
        an = n
        ad = d
    if ad == 0:
        return None
    return (tn, td, sign, an, ad)


def _value(chain):
    """The chain's exact value as (n, d) in lowest terms, d > 0."""
    tn, td, sign, an, ad = chain
    num = tn * ad + sign * an * td
    den = td * ad
    g = gcd(num, den)
    return (num // g, den // g)


# A side's parse state: (chain, pending op, phase, number, digits, denominator, digits).
# Phase 0: an operand must start; 1: in a number; 2: after `/`; 3: in a denominator.
_EMPTY = (None, None, 0, 0, 0, 0, 0)


def _feed(s, ch):
    """The parse state after one more face, or None if no side can go on like this."""
    chain, op, phase, num, nlen, den, dlen = s
    if "0" <= ch <= "9":
        d = ord(ch) - 48
        if phase == 0:
            return (chain, op, 1, d, 1, 0, 0)
        if phase == 1:
            if nlen == 1 and num == 0:
                return None  # leading zero
            return (chain, op, 1, num * 10 + d, nlen + 1, 0, 0)
        if phase == 2:
            return (chain, op, 3, num, nlen, d, 1)
        if dlen == 1 and den == 0:
            return None
        return (chain, op, 3, num, nlen, den * 10 + d, dlen + 1)
    if ch == faces.BAR:
        if phase != 1:
            return None
        return (chain, op, 2, num, nlen, 0, 0)
    if ch in faces.OPERATORS and (phase == 1 or phase == 3):
        d = den if phase == 3 else 1
        if d == 0:
            return None  # a fraction over 0
        chain = _apply(chain, op, num, d)
        if chain is None:
            return None
        return (chain, ch, 0, 0, 0, 0, 0)
    return None  # `=` or a misplaced operator or bar


def _end(s):
    """The side's value (n, d) if it may end here, else None."""
    chain, op, phase, num, _, den, _ = s
    if phase == 1:
        d = 1
    elif phase == 3:
        d = den
        if d == 0:
            return None
    else:
        return None
    chain = _apply(chain, op, num, d)
    if chain is None:
        return None
    return _value(chain)


class _Calq(Generation):
    """One Cal-Q-Able generation."""

    def __init__(self, game, rack, floor):
        Generation.__init__(self, game, rack, floor)
        rules = game.rules
        self.values = rules.values_by_code
        self.rack_size = rules.rack_size()
        counts = self.counts
        self.equals = counts.get(faces.EQUALS, 0)
        self.equals_from_rack = rules.from_rack(faces.EQUALS)
        # Side faces (everything but `=`), with their mixed-radix place values.
        keys = []
        places = []
        radices = []
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
        self.keys = keys
        self.places = places
        self.radices = radices

    # -- cross checks --------------------------------------------------------------------------

    def tile(self, i, ch):
        """(value with a tile premium, equation factor) of a new tile `ch` on square i."""
        v = self.values[ord(ch)]
        p = self.prem[i]
        if p:
            if self.kinds[p] == CHIP:
                return v * self.factors[p], 1
            if self.kinds[p] == RUN:
                return v, self.factors[p]
        return v, 1

    def cross(self, i, b, a):
        """The cross check of Generation.seg: a dict face -> score of the equation through
        empty square i, for the faces that make it true (`b`, `a`: the codes around it)."""
        values = self.values
        before = faces_of(b)
        after = faces_of(a)
        old = 0
        for c in b + a:
            old += values[c & 0x7F]
        out = {}
        cands = list(self.keys)
        if self.equals > 0:
            cands.append(faces.EQUALS)
        for ch in cands:
            if equation.check(before + ch + after) is None:
                v, mult = self.tile(i, ch)
                out[ch] = (old + v) * mult
        return out

    # -- generation ----------------------------------------------------------------------------

    def scored(self):
        if self.limit <= 0 and not (self.equals and not self.equals_from_rack):
            return
        w = self.w
        h = self.h
        if not self.first_move:
            for pair in self.singles():
                yield pair
        for r in range(h):
            for pair in self.line_moves(list(range(r * w, r * w + w)), w):
                yield pair
        for c in range(w):
            for pair in self.line_moves(list(range(c, c + w * h, w)), 1):
                yield pair

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

    def line_moves(self, line, cross_step):
        cells = self.cells
        n = len(line)
        codes = bytes([cells[i] for i in line])
        start_pos = -1
        if self.first_move:
            if self.start_sq not in line:
                return
            start_pos = line.index(self.start_sq)
        # old[k]: squares k..n-1 hold a tile already on the board (prefix counts)
        empties = [0] * (n + 1)  # empty squares in line[0:k]
        for k in range(n):
            empties[k + 1] = empties[k] + (0 if codes[k] else 1)
        for e in range(1, n - 1):
            c = codes[e]
            if c:
                if chr(c & 0x7F) != faces.EQUALS:
                    continue
                e_tile = None  # (square, score parts) of a new `=`; None: one on the board
                e_rack = 0
            else:
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
                e_tile = (i, v, mult, cross[faces.EQUALS] if cross is not None else 0)
            if self.first_move and not (e_tile is not None and codes[e] == 0):
                continue
            yield from self.around(line, codes, e, e_tile, e_rack, cross_step, start_pos)

    def around(self, line, codes, e, e_tile, e_rack, cross_step, start_pos):
        """The moves whose `=` stands on line position e."""
        n = len(line)
        budget = self.limit - e_rack
        e_old = e_tile is None
        first = self.first_move
        # Can some left side hold a tile on the board? (After the first move the equation
        # must hold one: if neither the `=` nor any left side does, every right side must.)
        left_old = False
        for k in range(e - 1, max(-1, e - 1 - budget), -1):
            if codes[k]:
                left_old = True
                break
        must_old = not (first or e_old or left_old)
        # The right sides, by value. A left side takes a rack tile unless the square
        # before the `=` holds one already, and so does a right side.
        r_budget = budget - (0 if codes[e - 1] else 1)
        l_budget = budget - (0 if codes[e + 1] else 1)
        if must_old:
            # gaps[k]: empty squares from k to the next tile on the board (n + 1: none)
            gaps = [n + 1] * (n + 1)
            for k in range(n - 1, e, -1):
                gaps[k] = 0 if codes[k] else gaps[k + 1] + 1
        else:
            gaps = None
        rights = {}  # type: dict
        right_old = False
        ctx = (line, codes, e + 1, n, cross_step, r_budget, gaps)
        for info in self.side(ctx, e + 1, _EMPTY, 0, 0, 0, 1, 0, False, []):
            if must_old and not info[7]:
                continue
            right_old = right_old or info[7]
            key = info[0]
            if key in rights:
                rights[key].append(info)
            else:
                rights[key] = [info]
        if not rights:
            return
        lefts_need_old = not (first or e_old or right_old)
        if e_old:
            e_sum, e_mult, e_cross, e_new = self.values[ord(faces.EQUALS)], 1, 0, 0
        else:
            e_sum, e_mult, e_cross, e_new = e_tile[1], e_tile[2], e_tile[3], 1
        w = self.w
        floor = self.floor
        need = 0
        has_old = False
        for a in range(e - 1, -1, -1):
            if codes[a]:
                has_old = True
            else:
                need += 1
            if need > l_budget:
                break
            if a > 0 and codes[a - 1]:
                continue
            if first and a > start_pos:
                continue
            if lefts_need_old and not has_old:
                continue
            ctx = (line, codes, a, e, cross_step, l_budget, None)
            for left in self.side(ctx, a, _EMPTY, 0, 0, 0, 1, 0, False, []):
                matches = rights.get(left[0])
                if matches is None:
                    continue
                _, l_used, l_rack, l_new, l_sum, l_mult, l_cross, l_old, l_placed, _ = left
                for right in matches:
                    _, r_used, r_rack, r_new, r_sum, r_mult, r_cross, r_old, r_placed, b = right
                    if l_new + r_new + e_new < 2:
                        continue  # one tile: found by singles()
                    nrack = l_rack + r_rack + e_rack
                    if nrack > self.limit:
                        continue
                    if first:
                        if b < start_pos:
                            continue
                    elif not (l_old or r_old or e_old):
                        continue  # not_crossing: the equation uses no tile on the board
                    if not self.fits(l_used, r_used):
                        continue
                    score = (l_sum + e_sum + r_sum) * l_mult * e_mult * r_mult
                    score += l_cross + e_cross + r_cross + self.bonus(nrack)
                    if floor is not None and score <= floor[0]:
                        continue
                    placed = list(l_placed) + list(r_placed)
                    if not e_old:
                        placed.append((e_tile[0], ord(faces.EQUALS)))
                    yield Move(placed, w), score

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

    def side(self, ctx, k, state, used, nrack, tsum, mult, cross_sum, old, placed):
        """Yield (value, used, rack tiles, new tiles, tile sum, factor, cross scores, holds
        an old tile, placements, last position) for each side from ctx's start: up to the
        fixed end (a left side) or to every square where the run may end (a right side)."""
        line, codes, s0, stop, cross_step, budget, gaps = ctx
        n = len(line)
        fixed = stop < n  # a left side ends just before the `=`
        values = self.values
        while k < stop and codes[k]:
            c = codes[k] & 0x7F
            state = _feed(state, chr(c))
            if state is None:
                return
            tsum += values[c]
            old = True
            k += 1
        if k == stop or not fixed:
            if k > s0 and (k == stop or not fixed):
                value = _end(state)
                if value is not None:
                    yield (
                        value,
                        used,
                        nrack,
                        len(placed),
                        tsum,
                        mult,
                        cross_sum,
                        old,
                        tuple(placed),
                        k - 1,
                    )
            if k >= stop:
                return
        if nrack >= budget:
            return
        if gaps is not None and not old and gaps[k] > budget - nrack:
            return  # this side must reach a tile on the board, and cannot
        i = line[k]
        cross = self.seg(i, cross_step)
        counts = self.counts
        keys = self.keys
        for j in range(len(keys)):
            key = keys[j]
            if counts[key] <= 0:
                continue
            nstate = _feed(state, key)
            if nstate is None:
                continue
            c_sum = cross_sum
            if cross is not None:
                if key not in cross:
                    continue
                c_sum += cross[key]
            v, f = self.tile(i, key)
            counts[key] -= 1
            placed.append((i, ord(key)))
            yield from self.side(
                ctx,
                k + 1,
                nstate,
                used + self.places[j],
                nrack + 1,
                tsum + v,
                mult * f,
                c_sum,
                old,
                placed,
            )
            placed.pop()
            counts[key] += 1
