"""Cal-Q-Able move generation for engine/movegen.py (imported on demand).

A move of two or more tiles makes one main equation along its line, with exactly one `=`.
For every row and column and every square `e` that holds the `=` (a tile there, or an empty
square where an `=` goes), the two sides are built apart, square by square from left to
right with their exact values (engine/equation.py's grammar: multi-digit numbers without
leading zeros, the fraction bar, `×` `÷` before `+` `−`): a left side from a square whose
left neighbour is empty up to the square before `e`, a right side from the square after
`e` to a square whose right neighbour is empty. A left and a right side of the same value,
whose tiles the rack can pay for together, make a move.

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
premium (_Line). The search's live
heap peaked at 71,328 B on the emulated Pico's 12 positions of tools/hintbench.py with two
lists of floors and values a lookup, keyed twice; at 52,304 B with bytes of indexes; at
46,608 B with the tables shared; at 33,168 B with the squares passed over searched again by
lots (46,736 B on the one position that came back to them within 5 s, then 33,232 B), the
targets' groups as tuples, the walk's tuple unpacked seven at a time and the lines as ranges;
at 29,744 B with the lookups as masks; at 24,384 B with the lookups not kept, the usages'
fields and masks in two lists and the lots of a square passed over two thirds of
`most_sides` (2026-11-28).

Tiles used are counted in a mixed-radix integer over the rack's faces (one digit a face, of
radix count + 1), so a side's usage is one small int. Everything is exact: integers and
fractions, and integer bounds rounded outwards.
"""

from engine import calqable_bounds, equation, faces
from engine.arith import add_term
from engine.compat import ON_BOARD, const, gcd
from engine.move import Move
from engine.movegen import STEP_CHECK, Generation, _nothing
from engine.profile import CHIP, RUN

_ALL_RACK_BONUS = 50  # engine/calqable.py ALL_RACK_BONUS, via bonus_points below

# Faces that may still come in a side, as bits (`_bounds`).
_PLUS = 1
_MINUS = 2
_MUL = 4
_DIV = 8
_BAR = 16
_ZERO = 32  # the digit 0
_WHITE = _PLUS | _MINUS | _MUL | _DIV | _BAR
_EQUALS_CODE = ord(faces.EQUALS)
_EQUALS_BYTES = faces.EQUALS.encode()
_FLAGS = {"+": _PLUS, "-": _MINUS, "*": _MUL, ":": _DIV, "/": _BAR, "0": _ZERO}


def scored(game, rack=None, floor=None):
    """Yield (move, score) for every legal move (see engine/movegen.py)."""
    return _Calq(game, rack, floor).scored()


def generation(game, rack=None, floor=None):
    """The generation behind scored(), for engine/search.py: its `scored()` stream, its
    step count (`steps`, calls of the side builder) and its `steps_done` hook, called every
    movegen.STEP_CHECK steps (where a search's budget can stop it, by raising)."""
    return _Calq(game, rack, floor)


# A side's parse state is flat: total n, total d (the terms before the current one), sign of
# the current term, its product so far n, d, whether the current operand divides it (`÷`
# before it), phase (0: an operand must start; 1: in a number; 2: after `/`; 3: in a
# denominator), number, denominator. A number or denominator of 0 in phase 1 or 3 is the
# single digit `0`, which takes no more digits.
_START = (0, 1, 1, 1, 1, False, 0, 0, 0)

# What a face does to a side: digit, fraction bar, `×`, `÷`, `+`, `−`.
_DIGIT = 0
_SLASH = 1
_TIMES = 2
_OVER = 3
_ADD = 4
_SUB = 5
_EQUALS = 6  # no side holds one
_KINDS = {"/": _SLASH, "*": _TIMES, ":": _OVER, "+": _ADD, "-": _SUB}


def _kind(ch):
    if "0" <= ch <= "9":
        return _DIGIT
    return _KINDS.get(ch, _EQUALS)


def _step(st, kind, d):
    """The parse state after one more face (`kind`, digit d), or None if no side can go on
    like this: a leading zero, a misplaced operator or bar, a division by zero."""
    tn, td, sg, an, ad, dv, ph, num, den = st
    if kind == _DIGIT:
        if ph == 0:
            return (tn, td, sg, an, ad, dv, 1, d, 0)
        if ph == 1:
            if num == 0:
                return None
            return (tn, td, sg, an, ad, dv, 1, num * 10 + d, 0)
        if ph == 2:
            return (tn, td, sg, an, ad, dv, 3, num, d)
        if den == 0:
            return None
        return (tn, td, sg, an, ad, dv, 3, num, den * 10 + d)
    if kind == _SLASH:
        if ph != 1:
            return None
        return (tn, td, sg, an, ad, dv, 2, num, 0)
    if kind == _EQUALS:
        return None
    term = _term(an, ad, dv, ph, num, den)
    if term is None:
        return None
    an, ad = term
    if kind == _TIMES or kind == _OVER:
        return (tn, td, sg, an, ad, kind == _OVER, 0, 0, 0)
    tn, td = add_term(tn, td, sg, an, ad)
    return (tn, td, 1 if kind == _ADD else -1, 1, 1, False, 0, 0, 0)


def _term(an, ad, dv, ph, num, den):
    """The current term once its operand is complete, as (n, d); None if the operand is
    not complete or the term divides by zero."""
    if ph == 1:
        xd = 1
    elif ph == 3 and den:
        xd = den
    else:
        return None
    if dv:
        an *= xd
        ad *= num
        if ad == 0:
            return None
    else:
        an *= num
        ad *= xd
    return an, ad


def _end(st):
    """The exact value (n, d) in lowest terms of a side in parse state `st` if it may end
    here, else None. (It takes the tuple, not its items: on MicroPython a call `f(*st)`
    copies them into a fresh heap block.)"""
    tn, td, sg, an, ad, dv, ph, num, den = st
    term = _term(an, ad, dv, ph, num, den)
    if term is None:
        return None
    an, ad = term
    n = tn * ad + sg * an * td
    d = td * ad
    g = gcd(n, d)
    return (n // g, d // g)


# Bounds and the values they are held against are integers: the value times _SCALE,
# rounded down (a value) or outwards (a bound), so a value within a bound stays within it.
_SCALE = 4096


def _down(n, d):
    return (n * _SCALE) // d


def _up(n, d):
    return -((-n * _SCALE) // d)


def _bounds(st, q, exact, flags):
    """Bounds (times _SCALE) around every value a side in parse state `st` can end with,
    after q more squares (exactly q if `exact`, else at most q) in which only the faces in
    `flags` (`_PLUS`...) besides digits 1-9 may come: (lo, hi, zero), a bound None when
    there is none, `zero` None or (lo, hi) around the values once the current term is
    multiplied by 0; None when the side cannot end validly at all.

    Every operand is >= 0, so a term is too. Any number made of squares still to come is
    below 10^q; after an operator, whatever follows (one term or several, a factor or
    several) is below 10^(q-1), and a factor other than 0 is above 10^(1-q).
    """
    tn, td, sg, an, ad, dv, ph, num, den = st
    more = q >= 2 and flags & 15  # an operator and an operand can still come
    solid = exact and not more  # the current operand takes every square left
    bar = q >= 2 and flags & _BAR
    p = 10**q
    # X, the current operand once complete: from xn/xd to yn/yd.
    if ph == 0:
        if q == 0:
            return None
        xd = 1
        if flags & _ZERO:
            xn = 0
        elif bar and q >= 3:
            xn, xd = 1, p // 100  # 1 over a number of q - 2 digits at most
        elif solid and q > 1:
            xn = p // 10
        else:
            xn = 1
        yn = p - 1
        yd = 1
    elif ph == 1:
        if num == 0:  # `0` takes no more digits: 0, or 0 over something
            if solid and q and not bar:
                return None
            xn = yn = 0
            xd = yd = 1
        else:
            if bar:
                xn, xd = num, p // 10  # over a denominator of q - 1 digits at most
            elif solid:
                xn, xd = num * p, 1
            else:
                xn, xd = num, 1
            yn = (num + 1) * p - 1
            yd = 1
    elif ph == 2:
        if q == 0:
            return None
        xn, xd = num, p - 1
        yn = num
        yd = p // 10 if solid and q > 1 else 1
    else:
        if den == 0:
            return None  # `0` over nothing more, or a leading zero
        xn, xd = num, (den + 1) * p - 1
        yn = num
        yd = den * p if solid else den
    # G, the current term once complete: from gn/gd to hn/hd (hn None: unbounded).
    if dv:
        if yn == 0:
            return None  # divides by zero
        gn, gd = an * yd, ad * yn
        if xn == 0:
            hn, hd = None, 1
        else:
            hn, hd = an * xd, ad * xn
    else:
        gn, gd, hn, hd = an * xn, ad * xd, an * yn, ad * yd
    lo_add = 0
    hi_add = 0
    zero = False
    if more:
        m = p // 10
        if flags & (_MUL | _DIV):
            zero = flags & _MUL and flags & _ZERO  # × 0
            if flags & _DIV or bar:
                gd *= m  # ÷ a number, or × a fraction
            if hn is not None and (flags & _MUL or bar):
                hn *= m  # × a number, or ÷ a fraction
        if flags & _PLUS:
            hi_add = m * _SCALE
        if flags & _MINUS:
            lo_add = -m * _SCALE
    t_lo = _down(tn, td) + lo_add
    t_hi = _up(tn, td) + hi_add
    if sg > 0:
        lo = t_lo + _down(gn, gd)
        hi = None if hn is None else t_hi + _up(hn, hd)
    else:
        lo = None if hn is None else t_lo - _up(hn, hd)
        hi = t_hi - _down(gn, gd)
    return lo, hi, (t_lo, t_hi) if zero else None


def _at(floors, lo):
    """The first index in the sorted list `floors` whose scaled floor is >= lo."""
    i = 0
    j = len(floors)
    while i < j:
        mid = (i + j) // 2
        if floors[mid] < lo:
            i = mid + 1
        else:
            j = mid
    return i


try:  # the same, quicker: in C (not on MicroPython)
    from bisect import bisect_left as _at  # type: ignore[import-not-found,no-redef]
except ImportError:
    pass


def _meets(look, floors, lo, hi):
    """Whether a lookup (a mask of indexes into `floors`, see _Targets) holds a scaled floor
    from lo to hi (None: open)."""
    i = 0 if lo is None else _at(floors, lo)
    if hi is None:
        return look >> i != 0
    j = _at(floors, hi + 1)
    return j > i and (look >> i) & ((1 << (j - i)) - 1) != 0


_FRESH = (0, 0, 0, True, 0, 0, True)  # `reachable`: no operand started


def _digits_step(nums, a, b):
    """`reachable`: an operand's ranges (see there) once a digit from a to b follows, or
    None if it cannot."""
    ph, nlo, nhi, n1, dlo, dhi, d1 = nums
    if ph == 0:
        return (1, a, b, True, 0, 0, True)
    if ph == 1:
        if nhi == 0:
            return None  # `0` takes no more digits
        if n1:
            nlo = max(nlo, 1)
        return (1, nlo * 10 + a, nhi * 10 + b, False, 0, 0, True)
    if ph == 2:
        return (3, nlo, nhi, n1, a, b, True)
    if dhi == 0:
        return None
    if d1:
        dlo = max(dlo, 1)
    return (3, nlo, nhi, n1, dlo * 10 + a, dhi * 10 + b, False)


def _term_range(alo, ahi, dv, nums):
    """`reachable`: the scaled range (lo, hi) of the current term (factors from alo to
    ahi, scaled; ahi None: unbounded) once its operand (ranges `nums`) is complete; None
    if it cannot be."""
    S = _SCALE
    ph, nlo, nhi, _, dlo, dhi, _ = nums
    if ph == 1:
        xlo = nlo * S
        xhi = nhi * S
        tiny = S  # the least operand other than 0
    elif ph == 3 and dhi > 0:
        xlo = (nlo * S) // dhi
        xhi = -((-nhi * S) // max(dlo, 1))
        tiny = S // dhi
    else:
        return None
    if dv:
        if xhi == 0:
            return None  # divides by zero
        xlo = max(xlo, tiny)
        lo = (alo * S) // xhi
        hi = None if ahi is None or xlo == 0 else -((-ahi * S) // xlo)
    else:
        lo = (alo * xlo) // S
        hi = None if ahi is None else -((-ahi * xhi) // S)
    return lo, hi


def _plus(tlo, thi, sg, term):
    """`reachable`: the range of the terms before (tlo to thi) plus or minus (sg) the
    term's; None stands for no bound."""
    lo, hi = term
    if sg > 0:
        return (None if tlo is None else tlo + lo), (
            None if thi is None or hi is None else thi + hi
        )
    return (None if tlo is None or hi is None else tlo - hi), (None if thi is None else thi - lo)


def _zero(st):
    """At the start of a run of digits in parse state `st`: 1 if no side goes on from
    here (÷ 0/…), 2 if the run cannot change the value (× 0, × 0/…), else 0."""
    if st[6] == 2 and st[7] == 0:
        return 1 if st[5] else 2
    return 2 if st[3] == 0 else 0


def _solve(st, value, over):
    """The number N, a whole number >= 0, that makes a side in parse state `st` (at the
    start of a run of digits: after an operator, or after `/` if `over`) end with `value`
    as N; None if there is none."""
    tn, td, sg, an, ad, dv, _, num, _ = st
    t_n, t_d = value
    # the value is T + sg * term: the term must be gn / gd
    gn = sg * (t_n * td - tn * t_d)
    gd = t_d * td
    # the term is A × X (or A ÷ X): X
    if dv:
        xn, xd = an * gd, ad * gn
    else:
        xn, xd = gn * ad, gd * an
    if over:  # X = num / N
        xn, xd = num * xd, xn
    return _whole(xn, xd)


def _whole(n, d):
    """n / d if it is a whole number >= 0, else None."""
    if d < 0:
        n, d = -n, -d
    if d == 0 or n < 0 or n % d:
        return None
    return n // d


# Dicts here are keyed by a value's key, not by the value (n, d): MicroPython hashes a tuple
# as the sum of its items' hashes, so (1, 2), (2, 1) and (0, 3) collide, and a dict of
# values as tuples degrades to a list (WASI build: an insert into 4,000 such keys cost
# 2.6 M fuel, against 3,300 with int keys). The key is an int for every value of small
# numerator and denominator (n * _KEY_D + d, one to one while 0 < d < _KEY_D, and a small
# int on the rp2 port), else the value itself: rare, so their collisions cost little. It is
# worked out inline where sides are indexed (a call costs more than the arithmetic there).
_KEY_D = const(4096)
_KEY_N = const(131072)


class _Targets:
    """The values of one kind's short sides, which a long side of the other kind is built
    towards, looked up by the tiles the long side leaves."""

    def __init__(self, gen, entries):
        self.gen = gen
        # A lookup is an int, a mask of the indexes of the sides' scaled floors in `floors`
        # (each floor once, in order; `values[j]` the values of floor j): a small int, no
        # heap block, up to 30 floors on the chip. (As bytes of those indexes, with dicts
        # to share them, the search's peak on the emulated Pico was 1.5-4.7 KB higher on
        # the six positions of tools/hintbench.py then above 24 KB, and its steps slower.)
        # by_tiles[k]: {a value's key: (scaled floor, value)} of the sides of k tiles (a
        # usage's tile count is k); groups: usage -> [tiles, {a value's key: that item}] of
        # the sides using it. Once all are in, they give each usage's fields and the mask
        # of its sides, for lookup().
        groups = {}  # type: dict
        by_tiles = []  # type: list
        for entry in entries:
            value = entry[0]
            u = entry[1]
            k = entry[2]
            group = groups.get(u)
            if group is None:
                group = groups[u] = [k, {}]
            n, d = value
            key = n * _KEY_D + d if 0 < d < _KEY_D and -_KEY_N < n < _KEY_N else value
            if key in group[1]:
                continue
            while len(by_tiles) <= k:
                by_tiles.append({})
            item = by_tiles[k].get(key)
            if item is None:
                item = by_tiles[k][key] = (_down(n, d), value)
            group[1][key] = item
        items = []
        for tiles in by_tiles:
            items.extend(tiles.values())
        items.sort()
        floors = []  # type: list[int]
        values = []  # type: list
        at = {}  # a scaled floor -> its index
        for f, value in items:
            if not floors or floors[-1] != f:
                at[f] = len(floors)
                floors.append(f)
                values.append((value,))
            elif values[-1][-1] != value:  # (a value in two by_tiles)
                values[-1] += (value,)
        # The usages' fields and masks, fewest tiles first, in two lists of ints (a tuple a
        # usage held 1 KB more of the Pico's heap for 60 sides); upto[k]: how many of them
        # have at most k tiles (lookup() takes those)
        order = sorted([(group[0], u) for u, group in groups.items()])
        self.fields = [gen.fields(u) for _, u in order]
        self.masks = [_mask(at, groups[u][1]) for _, u in order]
        upto = [0] * (len(by_tiles) + 1)
        for k, _ in order:
            upto[k + 1] += 1
        for k in range(1, len(upto)):
            upto[k] += upto[k - 1]
        self.upto = upto[1:]
        self.floors = floors
        self.values = values
        self.entries = entries
        # the lookups made, by the usage of the side so far and the usages taken (None: not
        # kept, on the chip; see lookup())
        self.kept = {} if gen.keep_lookups else None  # type: dict | None

    def lookup(self, most, used=-1):
        """The scaled floors of the sides of at most `most` tiles that the rack left (the
        generation's counts now: the rack less `used`, the usage of the side so far, if
        given) can pay for, as a mask of their indexes in `floors`.
        Kept by `used` and the usages taken if the generation's `keep_lookups` says so;
        worked out each time on the chip, for its heap. Kept in dicts by usage and tiles,
        the lookups held up to 6.9 KB more of the emulated Pico's heap (position 4 of
        tools/hintbench.py: 30,320 B against 23,440 B) for a few more steps (WASI, 82
        positions: 25.3 % of the best at 80 M against 24.4 %, 58.3 % at 400 M against
        57.2 %, the best within 400 M on 21 against 19). On CPython, kept so, every move of
        the set's first 30 positions took 22 % less time (2026-11-28)."""
        if most < 0:
            return 0
        upto = self.upto
        n = upto[min(most, len(upto) - 1)]
        kept = self.kept
        key = 0
        if kept is not None and used >= 0:
            key = used << 16 | n  # (n may pass 64, never 65,536: usages are parts of the rack)
            out = kept.get(key)
            if out is not None:
                return out
        else:
            kept = None
        gen = self.gen
        counts = gen.counts
        keys = gen.keys
        shifts = gen.shifts
        # The rack left, each face's count in its field (_Calq.fields): a usage it pays for
        # takes from no field more than it holds, so that no guard bit is borrowed.
        guard = gen.guard
        left = guard
        for j in range(len(keys)):
            c = counts[keys[j]]
            if c > 0:
                left += c << shifts[j]
        out = 0
        fields = self.fields
        masks = self.masks
        for j in range(n):
            if (left - fields[j]) & guard == guard:
                out |= masks[j]
        if kept is not None:
            kept[key] = out
        return out

    def between(self, look, lo, hi):
        """The values of a lookup whose scaled floors lie from lo to hi (only to read: it
        may be one of `values`, a tuple)."""
        floors = self.floors
        values = self.values
        i = _at(floors, lo)
        j = _at(floors, hi + 1)
        if j <= i:
            return ()
        look = (look >> i) & ((1 << (j - i)) - 1)
        if not look & (look - 1):  # one floor or none: most often
            while look > 1:
                look >>= 1
                i += 1
            return values[i] if look else ()
        out = []
        while look:
            if look & 1:
                out.extend(values[i])
            look >>= 1
            i += 1
        return out


def _shifts(keys, counts):
    """Where each face's bit field starts (wide enough for its count, with a guard bit
    above), and the mask of the guard bits: (shifts, guard)."""
    shifts = []
    guard = 0
    at = 0
    for key in keys:
        width = 1
        while 1 << width <= counts[key]:
            width += 1
        shifts.append(at)
        guard |= 1 << (at + width)
        at += width + 1
    return shifts, guard


def _mask(at, items):
    """The lookup of the sides of a dict of items (scaled floor, value): see _Targets."""
    out = 0
    for item in items.values():
        out |= 1 << at[item[0]]
    return out


def _value_of(st, n1):
    """The value (n, d), d > 0, of a side in parse state `st` (at the start of a run of
    digits) that ends with the number n1 there; None if it divides by zero."""
    tn, td, sg, an, ad, dv, ph, num, _ = st
    if ph == 0:
        xn, xd = n1, 1
    else:
        xn, xd = num, n1
    if dv:
        xn, xd = xd, xn
    gn = an * xn
    gd = ad * xd
    if gd == 0:
        return None
    return tn * gd + sg * gn * td, td * gd


def _candidates(targets, look, st, lo1, hi1):
    """The values of a lookup that a side in parse state `st` can end with as a number n1
    from lo1 to hi1 (the value is monotonic in n1)."""
    a = _value_of(st, lo1)
    b = _value_of(st, hi1)
    if a is None or b is None:
        return targets.between(look, targets.floors[0], targets.floors[-1]) if look else ()
    if a[0] * b[1] > b[0] * a[1]:
        a, b = b, a
    return targets.between(look, _down(a[0], a[1]), _up(b[0], b[1]))


def _placement(p):
    """A Move's placement (square, code) of a side's placement p: square << 7 | code (a
    small int, not a tuple: a side keeps its placements)."""
    return (p >> 7, p & 0x7F)


_NO_LIMIT = const(1 << 29)


class _TooMany(Exception):
    """A square of `=` has more short sides than the generation's `most_sides`."""


def _index(entries):
    """Sides by value: (value's key -> list of its sides, those keys in the order first
    met). Lists, not a dict's order, give the order the moves come in: MicroPython's dicts
    keep no insertion order, and the search's budget and the players' ties must see the
    moves as CPython does. (Sides are not grouped by the tiles they use as well: a value's
    short sides mostly use tiles of their own, and each group's two lists cost the Pico's
    heap more than the pairs they spare.)"""
    table = {}  # type: dict
    order = []
    for entry in entries:
        n, d = entry[0]
        key = n * _KEY_D + d if 0 < d < _KEY_D and -_KEY_N < n < _KEY_N else entry[0]
        sides = table.get(key)
        if sides is None:
            table[key] = [entry]
            order.append(key)
        else:
            sides.append(entry)
    return table, order


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
        self.stop = stop  # a left side ends just before `stop`; a right side by then
        self.fixed = fixed
        self.most = most  # tiles at most
        self.short = []  # type: list  # the short sides found (kept: see _Calq.walk)

    def end(self, k, tiles):
        """Where a side at square k with `tiles` more to lay ends by (exclusive)."""
        return self.stop if self.fixed else self.ln.reach(k, tiles)


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


class _Calq(Generation):
    """One Cal-Q-Able generation."""

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
        # (`marks`: its spots' bounds by line number * 64 + limit), as a search's passes lower
        # `limit` for a while and then ask again at the whole rack. `ordered` False: the
        # board's order without bounds (a search's first, quick pass).
        self.marks = {}  # type: dict[int, list[int]]
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
        key = n * 64 + self.limit  # an int, not a tuple: see _KEY_D
        marks = self.marks.get(key)
        if marks is None:
            marks = self.marks[key] = calqable_bounds.of_line(self, line, cross_step, spots, rack)
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
            except MemoryError:
                # The sides of this square of `=` did not fit in the heap (a whole rack's
                # short sides on the Pico): they are garbage now, and the next square may
                # need fewer. A search goes on; `given_up` tells that moves were missed.
                if not self.give_up:
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
        # Can some left side hold a tile on the board? (After the first move the equation
        # must hold one: if neither the `=` nor any left side does, every right side must.)
        left_old = False
        for k in range(e - 1, max(-1, e - 1 - budget), -1):
            if codes[k]:
                left_old = True
                break
        right_old = False
        for k in range(e + 1, min(n, e + 1 + budget)):
            if codes[k]:
                right_old = True
                break
        if not (first or e_old or left_old or right_old):
            return None  # no tile on the board within the rack's reach: the equation holds none
        # A left side takes a rack tile unless the square before the `=` holds one already,
        # and so does a right side.
        r_budget = budget - (0 if codes[e - 1] else 1)
        l_budget = budget - (0 if codes[e + 1] else 1)
        if r_budget < 0 or l_budget < 0:
            return None
        sq = self.sq  # (filled here, not by a method of its own: a call a square costs)
        sq.ln = ln
        sq.e = e
        sq.budget = budget
        sq.r_budget = r_budget
        sq.short_starts.clear()
        sq.long_starts.clear()
        sq.floor = None
        sq.must_old = not (first or e_old or left_old)
        lefts_need_old = not (first or e_old or right_old)
        # The split: short sides of up to h_left and h_right tiles.
        max_left = min(l_budget, ln.empties[e])
        max_right = min(r_budget, ln.empties[n] - ln.empties[e + 1])
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
        sq.short_bounds = self.short_bounds(ln, e, eq, l_budget, r_budget)
        # Where the left sides start: (square, tiles), short ones and long ones
        has_old = False
        for a in range(e - 1, -1, -1):
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
        walk = _Walk(ln, sq.e + 1, ln.n, False, most)
        walk.cut = sq.h_right + 1
        walk.spare = sq.budget
        if skip:
            walk.skip = skip
        walk.room = room
        if sq.short_bounds is not None:
            walk.bound_short = sq.short_bounds[1]
        if sq.must_old:
            walk.need_old = True
            # gaps[k]: empty squares from k to the next tile on the board (n + 1: none)
            n = ln.n
            codes = ln.codes
            gaps = [n + 1] * (n + 1)
            for k in range(n - 1, sq.e, -1):
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

    def short_bounds(self, ln, e, eq, l_budget, r_budget):
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
        # the right sides' squares: from e + 1 to where r_budget new tiles end by
        z = ln.reach(e + 1, r_budget)
        # the left sides': from the first square l_budget new tiles can start on
        a = e
        while a > 0 and empties[e] - empties[a - 1] <= l_budget:
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
        if l_new + r_new + e_new < 2:
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
        placed = [_placement(p) for p in l_placed] + [_placement(p) for p in r_placed]
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

    def reachable(self, ln, k, stop, fixed, tiles, st, look, floors):
        """Whether a side in parse state `st` at square k can, with up to `tiles` more rack
        tiles (exactly the squares up to `stop` if `fixed`, else ending where it may), end
        with a value whose scaled floor is in the lookup `look` (of `floors`). Sound, not exact:
        the sides are followed by where their operators and bars go, each number within the range
        its length and the digits left allow (every bound rounded outwards)."""
        # (a plain function and one tuple, not a closure: see _go)
        ctx = (ln.free, ln.opts, ln.digits, ln.whites, self.counts, stop, fixed, look, floors)
        tn, td, sg, an, ad, dv, ph, num, den = st
        nums = (ph, num, num, num < 10, den, den, den < 10)
        return _reach(
            ctx, k, tiles, _down(tn, td), _up(tn, td), sg, _down(an, ad), _up(an, ad), dv, nums
        )

    def walk(self, wk):
        """Build the sides of `wk`: its short sides into wk.short, each as (value, used,
        tiles, tile sum, equation factor, cross scores, holds a tile on the board,
        placements, start (a left side) or last square (a right side)); its long sides
        (built towards wk.targets) are paired as they come (meet()) and not kept.

        A long side (of `cut` tiles or more) is not built digit by digit in its longest
        run of digits (the last of the longest, if several): the walk builds it up to that
        run's start, where the run is solved for from the values to meet, the last run by
        `tails` and another by `heads` (which builds what follows it). A run knows (first
        square, whether `tails` and `heads` solved it, the length and whether solved of
        the longest run before it) and passes them on to its squares; the walk keeps a side
        itself only when the run that should have solved it could not (× 0)."""
        ln = wk.ln
        opts = ln.opts
        free = ln.free
        board = ln.board
        white_count = ln.white_count
        empties = ln.empties
        spots = ln.spots
        nspots = len(spots)
        n = ln.n
        counts = self.counts
        s0 = wk.s0
        stop = wk.stop
        fixed = wk.fixed
        most = wk.most
        cut = wk.cut
        spare = wk.spare
        targets = wk.targets
        gaps = wk.gaps
        need_old = wk.need_old
        short = wk.short
        room = wk.room
        white_keys = self.white_keys
        floors = targets.floors if targets is not None else []
        placed = []  # type: list[int]  # (see _placement)
        at = ln.at
        bound = wk.bound
        bound_short = wk.bound_short
        floor = gain = factor = most_cross = None
        if bound is not None or bound_short is not None:
            floor = self.floor
            gain = ln.gain
            factor = ln.factor
            most_cross = ln.most_cross

        # (a plain function and one tuple, not a closure: see _go)
        # (in tuples of seven, unpacked one by one: see _go)
        ctx = (
            (self, wk, ln, opts, free, board, white_count),
            (empties, spots, nspots, n, counts, s0, stop),
            (fixed, most, cut, spare, targets, gaps, need_old),
            (short, room, white_keys, floors, placed),
            (at, bound, bound_short, floor, gain, factor, most_cross),
        )
        _go(ctx, s0, _START, 0, 0, 0, 1, 0, False, self.rack_flags(), None)

    def tails(self, wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least):
        """Add to wk the long sides that end in a run of digits from square k on (a number,
        or a denominator after `/`) of `least` squares or more, solved for from the values
        they must meet rather than built digit by digit. False (nothing done) when that
        does not pay: the run leaves the value as it is (× 0), or there are more values
        than runs to try."""
        zero = _zero(st)
        if zero:
            return zero == 1
        dv = st[5]
        ph = st[6]
        ln = wk.ln
        opts = ln.opts
        free = ln.free
        counts = self.counts
        fixed = wk.fixed
        stop = wk.stop
        cut = wk.cut
        left = wk.most - nk
        end = wk.end(k, left)
        # Where the run may end: (square after it, new tiles in it, holds a board tile).
        ends = []
        m = 0
        held = old
        p = k
        digit_keys = 0
        for key in self.digit_keys:
            if counts[key] > 0:
                digit_keys += 1
        walking = 0  # about how many runs building them digit by digit would try
        runs = 1
        while p < end:
            if free[p]:
                m += 1
                if m > left:
                    break
                runs *= max(1, digit_keys - m + 1)
            elif opts[p][0][6] != _DIGIT:
                break  # an operator, bar or `=` on the board ends the run
            else:
                held = True
            p += 1
            if p - k < least:
                continue
            if fixed:
                if p == stop:
                    ends.append((p, m, held))
                    walking += runs
            elif (p == ln.n or free[p]) and nk + m >= cut and (held or not wk.need_old):
                ends.append((p, m, held))
                walking += runs
        if not ends:
            return True
        spare = wk.spare
        targets = wk.targets
        tried = 0
        todo = []
        for p, m, held in ends:
            j = p - k
            top = 10**j
            low = top // 10 if j > 1 else 0
            first = 1 if low == 0 and (ph == 2 or dv) else low  # no ÷ 0, no over 0
            look = targets.lookup(spare - nk - m, used)
            values = _candidates(targets, look, st, first, top - 1)
            tried += len(values)
            todo.append((p, m, held, values, low, top))
        if tried > 4 * walking:
            return False
        for p, m, held, values, low, top in todo:
            for value in values:
                n = _solve(st, value, ph == 2)
                if n is None or n >= top or n < low or (ph == 2 and n == 0):
                    continue
                got = self.lay(ln, k, p, n)
                if got is not None:
                    u, t, f, c, at = got
                    pos = wk.s0 if fixed else p - 1
                    u += used
                    t += tsum
                    f *= mult
                    c += cross_sum
                    self.meet(wk, value, u, nk + m, t, f, c, held, placed + at, pos)
        return True

    def heads(self, wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least):
        """Add to wk the long sides from square k on (where a run of digits starts: a
        number, or a denominator after `/`) whose run 1, from k, is at least `least`
        squares long and longer than every run after it: what follows run 1 is built
        (`rest`) and run 1 solved for. False (nothing done) when run 1 does not change the
        value (× 0 before it)."""
        zero = _zero(st)
        if zero:
            return zero == 1
        left = wk.most - nk
        end = wk.end(k, left)
        ln = wk.ln
        opts = ln.opts
        free = ln.free
        counts = self.counts
        tn, td, sg, an, ad, dv, ph, num, _ = st
        nonzero = ph == 2 or dv  # run 1 a denominator or divisor: not 0
        over = (ph == 2) != dv  # run 1 divides the term
        m1 = 0  # new tiles in run 1
        held = old
        q = k
        while q < end:
            # run 1 takes square q
            if free[q]:
                m1 += 1
                if m1 > left:
                    break
            elif opts[q][0][6] != _DIGIT:
                break
            else:
                held = True
            q += 1
            if q + 2 > end:
                break  # no room for an operator and a run after run 1
            if not free[q] and opts[q][0][6] == _DIGIT:
                continue  # run 1 goes on over the digit on the board
            if q - k < least or q - k < 2:
                if free[q]:
                    continue
                break
            run1 = (k, q, nonzero, over)
            # the parse states once run 1 is 1, and once it is 2
            if ph == 0:
                s1 = (tn, td, sg, an, ad, dv, 1, 1, 0)
                s2 = (tn, td, sg, an, ad, dv, 1, 2, 0)
            else:
                s1 = (tn, td, sg, an, ad, dv, 3, num, 1)
                s2 = (tn, td, sg, an, ad, dv, 3, num, 2)
            for o in opts[q]:  # the operators and bars on the rack, or the one on the board
                key = o[0]
                kind = o[6]
                if kind == _DIGIT or kind == _EQUALS:
                    continue
                if key is not None and (counts[key] <= 0 or m1 + 1 > left):
                    continue
                n1 = _step(s1, kind, 0)
                n2 = _step(s2, kind, 0)
                if n1 is None or n2 is None:
                    continue
                if key is None:
                    head = [used, tsum + o[3], mult, cross_sum]
                    self.rest(wk, run1, q + 1, n1, n2, head, [], nk + m1, True, placed)
                    continue
                counts[key] -= 1
                head = [used + o[1], tsum + o[3], mult * o[4], cross_sum + o[5]]
                more = [ln.at[q] | o[2]]
                self.rest(wk, run1, q + 1, n1, n2, head, more, nk + m1 + 1, held, placed)
                counts[key] += 1
            if not free[q]:
                break  # run 1 stops at the operator or bar on the board
        return True

    def rest(self, wk, run1, q, s1, s2, head, more, nk, held, placed):
        """heads(): build every end of a long side from square q on (after run 1 and the
        operator or bar after it) whose runs are all shorter than run 1, following the
        parse states with run 1 as 1 and as 2 (s1, s2); at each end, solve run 1
        (`solve1`). run1: (its first square, the square after it, whether it must not be
        0, whether it divides); head: [usage, tile sum, factor, cross scores] so far, `more`
        the placements after run 1."""
        ln = wk.ln
        fixed = wk.fixed
        bound = wk.bound
        floor = gain = factor = most_cross = None
        gain1 = factor1 = cross1 = 0
        if bound is not None:  # as in walk(), run 1's squares at their best
            floor = self.floor
            gain = ln.gain
            factor = ln.factor
            most_cross = ln.most_cross
            k, q1 = run1[0], run1[1]
            gain1 = gain[q1] - gain[k] + bound[0]
            factor1 = factor[q1] // factor[k] * bound[1]
            cross1 = most_cross[q1] - most_cross[k] + bound[2]
        # (a plain function and one tuple, not a closure: see _grow)
        # (in tuples of seven, unpacked one by one: see _go)
        ctx = (
            (self, wk, ln, ln.opts, ln.at, ln.free, self.counts),
            (fixed, wk.stop if fixed else ln.n, wk.gaps, wk.need_old, wk.cut,
             run1[1] - run1[0] - 1,  # runs after run 1 are at most this long
             wk.most - nk),
            (bound, floor, gain, factor, most_cross, gain1, factor1),
            (cross1, head, more, nk, placed, run1),
        )  # fmt: skip
        _grow(ctx, q, s1, s2, 0, 0, held)

    def solve1(self, wk, run1, s1, s2, head, more, nk, held, placed, last):
        """rest(): the sides that end on square `last` in parse states s1 (run 1 as 1) and
        s2 (run 1 as 2), run 1 solved for: every run 1 the rack can lay when the value
        does not depend on it (× 0 after it)."""
        v1 = _end(s1)
        v2 = _end(s2)
        if v1 is None or v2 is None:
            return
        k, q, nonzero, over = run1
        targets = wk.targets
        look = targets.lookup(wk.spare - nk, head[0])  # (tiles left for the other kind)
        if not look:
            return
        pos = wk.s0 if wk.fixed else last
        # The value is a x + b (a / x + b if run 1 divides: `over`), all over dd.
        dd = v1[1] * v2[1]
        w1 = v1[0] * v2[1]
        w2 = v2[0] * v1[1]
        if over:
            a = 2 * (w1 - w2)
            b = 2 * w2 - w1
        else:
            a = w2 - w1
            b = 2 * w1 - w2
        if a == 0:
            f = _down(v1[0], v1[1])
            for value in wk.targets.between(look, f, f):
                if value == v1:
                    for x in self.numbers(wk.ln, k, q, nonzero):
                        self.side1(wk, k, q, x, value, nk, head, more, held, placed, pos)
            return
        top = 10 ** (q - k)
        low = top // 10 if q - k > 1 else 0
        first = 1 if low == 0 and nonzero else low
        # the value over run 1 from `first` to top - 1 (monotonic)
        if over:
            lo = (a + b * first, dd * first)
            hi = (a + b * (top - 1), dd * (top - 1))
        else:
            lo = (a * first + b, dd)
            hi = (a * (top - 1) + b, dd)
        if lo[0] * hi[1] > hi[0] * lo[1]:
            lo, hi = hi, lo
        for value in wk.targets.between(look, _down(lo[0], lo[1]), _up(hi[0], hi[1])):
            tn, td = value
            g = tn * dd - b * td  # (value × dd - b) × td
            if over:
                x = _whole(a * td, g)
            else:
                x = _whole(g, a * td)
            if x is None or x >= top or x < low or (x == 0 and nonzero):
                continue
            self.side1(wk, k, q, x, value, nk, head, more, held, placed, pos)

    def side1(self, wk, k, q, n1, value, nk, s, more, held, placed, pos):
        """Pair the side with run 1 = n1 on squares k to q - 1 if it can be laid."""
        got = self.lay(wk.ln, k, q, n1)
        if got is not None:
            u, t, f, c, at = got
            u += s[0]
            t += s[1]
            f *= s[2]
            c += s[3]
            self.meet(wk, value, u, nk, t, f, c, held, placed + more + at, pos)

    def numbers(self, ln, a, b, nonzero):
        """Every number the rack (counts now) can lay on squares a to b - 1."""
        out = []
        free = ln.free
        opts = ln.opts
        counts = self.counts

        def grow(r, n):
            if r == b:
                if n or not nonzero:
                    out.append(n)
                return
            if r > a and n == 0:
                return  # leading zero
            if not free[r]:
                grow(r + 1, n * 10 + opts[r][0][7])
                return
            for o in opts[r]:
                key = o[0]
                if o[6] == _DIGIT and counts[key] > 0:
                    counts[key] -= 1
                    grow(r + 1, n * 10 + o[7])
                    counts[key] += 1

        grow(a, 0)
        return out

    def lay(self, ln, a, b, n):
        """What laying the number n on squares a to b - 1 (new digits from the rack, the
        others on the board already) adds to a side: (usage, tile sum, factor, cross
        scores, placements), or None if the board, the cross checks or the rack do not let
        it. The rack's counts are left as they were. Most numbers solved for cannot be
        laid: that is found before anything is built (on the chip every new object is a
        search of the heap)."""
        opts = ln.opts
        free = ln.free
        counts = self.counts
        # Can it be laid? The digits are taken off the counts on the way (a number may
        # want one twice), then put back.
        ok = True
        q = b - 1
        m = n
        while q >= a:
            d = m % 10
            m //= 10
            if not free[q]:
                if opts[q][0][7] != d:
                    ok = False
                    break
            else:
                for o in opts[q]:
                    if o[6] == _DIGIT and o[7] == d:
                        break
                else:
                    ok = False
                    break
                key = o[0]
                if counts[key] <= 0:
                    ok = False
                    break
                counts[key] -= 1
            q -= 1
        stop = q
        q = b - 1
        m = n
        while q > stop:
            d = m % 10
            m //= 10
            if free[q]:
                counts[chr(48 + d)] += 1
            q -= 1
        if not ok:
            return None
        u = t = c = 0
        f = 1
        at = []  # type: list[int]
        q = b - 1
        while q >= a:
            d = n % 10
            n //= 10
            if not free[q]:
                t += opts[q][0][3]
            else:
                for o in opts[q]:
                    if o[6] == _DIGIT and o[7] == d:
                        break
                u += o[1]
                t += o[3]
                f *= o[4]
                c += o[5]
                at.append(ln.at[q] | o[2])
            q -= 1
        return u, t, f, c, at


def _grow(ctx, r, s1, s2, run, m, held):
    """_Calq.rest()'s walk: squares q to r - 1 built, m new tiles; `run`: the length of the
    run of digits they end in. A module function given one tuple `ctx`, not a closure: on
    MicroPython a call of a closure with more than five cells and arguments together copies
    them into a fresh heap block, every call (py/objclosure.c)."""
    self, wk, ln, opts, at, free, counts = ctx[0]
    fixed, stop, gaps, need_old, cut, longest, left = ctx[1]
    bound, floor, gain, factor, most_cross, gain1, factor1 = ctx[2]
    cross1, head, more, nk, placed, run1 = ctx[3]
    self.steps += 1
    if self.steps >= self.next_check:
        self.next_check += STEP_CHECK
        self.steps_done()
    if bound is not None:
        end = stop if fixed else ln.reach(r, left - m)
        top = (head[1] + gain[end] - gain[r] + gain1) * head[2]
        top *= factor[end] // factor[r] * factor1
        if top + head[3] + most_cross[end] - most_cross[r] + cross1 <= floor[0]:
            return
    if run and (r == stop or (not fixed and free[r])) and nk + m >= cut and (held or not need_old):
        self.solve1(wk, run1, s1, s2, head, more, nk + m, held, placed, r - 1)
    if r >= stop:
        return
    if free[r]:
        if m >= left:
            return
        if gaps is not None and not held and gaps[r] > left - m:
            return  # the side must reach a tile on the board, and cannot
        for key, place, code, v, f, c_score, kind, d, _ in opts[r]:
            if counts[key] <= 0:
                continue
            if kind == _DIGIT:
                if run >= longest:
                    continue
            elif r + 2 > stop:
                continue  # no room for an operand after it
            t1 = _step(s1, kind, d)
            if t1 is None:
                continue
            t2 = _step(s2, kind, d)
            if t2 is None:
                continue
            counts[key] -= 1
            head[0] += place
            head[1] += v
            head[2] *= f
            head[3] += c_score
            more.append(at[r] | code)
            _grow(ctx, r + 1, t1, t2, run + 1 if kind == _DIGIT else 0, m + 1, held)
            more.pop()
            head[0] -= place
            head[1] -= v
            head[2] //= f
            head[3] -= c_score
            counts[key] += 1
        return
    o = opts[r][0]
    kind = o[6]
    if kind == _DIGIT:
        if run >= longest:
            return
    elif r + 2 > stop:
        return
    t1 = _step(s1, kind, o[7])
    t2 = _step(s2, kind, o[7])
    if t1 is None or t2 is None:
        return
    head[1] += o[3]
    _grow(ctx, r + 1, t1, t2, run + 1 if kind == _DIGIT else 0, m, True)
    head[1] -= o[3]


def _go(ctx, k, st, used, nk, tsum, mult, cross_sum, old, rfl, run):
    """_Calq.walk()'s walk from square k (see there), given its tuple `ctx`: a module
    function, not a closure, as _grow."""
    # (Unpacked seven at a time: one unpacking of all 35 made the frame 35 words deeper, and
    # on MicroPython a frame of more than 11 words is a heap block, one a call in the walk.)
    self, wk, ln, opts, free, board, white_count = ctx[0]
    empties, spots, nspots, n, counts, s0, stop = ctx[1]
    fixed, most, cut, spare, targets, gaps, need_old = ctx[2]
    short, room, white_keys, floors, placed = ctx[3]
    at, bound, bound_short, floor, gain, factor, most_cross = ctx[4]
    while True:
        # run: (first square, tails done, heads done, length of the longest run before,
        # whether that one was solved) of the current run of digits, or None (no
        # targets, or no run yet)
        self.steps += 1
        if self.steps >= self.next_check:
            self.next_check += STEP_CHECK
            self.steps_done()
        ph = st[6]
        # (A side cannot end at a run start, so the ends come first: the checks below
        # then spare a run start that leads nowhere its `tails` and `heads`.)
        if k == stop or (free[k] and not fixed and (ph == 1 or ph == 3)):
            # the side may end here
            keep = nk < cut or run is None
            if not keep:
                # the longest run, the last of them, should have solved this side
                keep = not run[1] if k - run[0] >= run[3] else not run[4]
            if keep and k > s0 and (fixed or old or not need_old):
                value = _end(st)
                if value is not None:
                    pos = s0 if fixed else k - 1
                    if targets is None or (nk < cut and not fixed):
                        if wk.skip:
                            wk.skip -= 1  # (by_chunks: one of the lots before)
                        else:
                            side = (
                                value,
                                used,
                                nk,
                                tsum,
                                mult,
                                cross_sum,
                                old,
                                tuple(placed),
                                pos,
                            )
                            short.append(side)
                            if len(short) > room:
                                raise _TooMany()
                    else:
                        self.meet(wk, value, used, nk, tsum, mult, cross_sum, old, placed, pos)
            if k == stop:
                return
        left = most - nk
        if fixed:
            end = stop
        else:
            end = empties[k] + max(left, 0)
            end = spots[end] if end < nspots else n
        b = bound if nk >= cut else bound_short
        if b is not None:
            # Best first: every move with a side on from here scores at most the squares
            # up to `end` at their best, with the best of the other sides.
            top = tsum + gain[end] - gain[k] + b[0]
            top *= mult * (factor[end] // factor[k]) * b[1]
            if top + cross_sum + most_cross[end] - most_cross[k] + b[2] <= floor[0]:
                return
        if free[k]:
            if left <= 0:
                return
            if gaps is not None and not old and gaps[k] > left:
                return  # this side must reach a tile on the board, and cannot
            if targets is not None and nk + 1 >= cut:
                # Every side on from here has more than `cut` tiles: it must meet a
                # short side of the other kind.
                look = targets.lookup(spare - (most if fixed else nk + 1), used)
                b = _bounds(st, end - k, fixed, rfl | board[k][end])
                if b is None:
                    return
                if not _meets(look, floors, b[0], b[1]):
                    z = b[2]
                    if z is None or not _meets(look, floors, z[0], z[1]):
                        return
        if targets is not None and (ph == 0 or ph == 2):
            if nk >= cut and end - k >= 3:
                # a run starts: can the side still end with a value to meet?
                look = targets.lookup(
                    spare - (most if fixed else nk + (1 if free[k] else 0)), used
                )
                if not self.reachable(ln, k, end, fixed, left, st, look, floors):
                    return
            least = 0 if run is None else run[3]
            done = run is None or run[4]
            tail = self.tails(wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least)
            head = self.heads(wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least)
            run = (k, tail, head, least, done)
        # Digits go on only towards a side not found already: a short one, one the run
        # that should solve it could not, or one whose longest run is still to come
        # (room for an operator and a run at least as long as any before).
        digits = True
        if run is not None and nk + (1 if free[k] else 0) >= cut:
            m = k + 1 - run[0]  # this run's length with a digit here
            if run[1] and run[2] and (run[4] or run[3] <= m):
                digits = k + 2 + max(m, run[3]) <= end
                if digits:
                    whites = white_count[end] - white_count[k + 1]
                    for key in white_keys:
                        whites += counts[key]
                    digits = whites > 0
        for key, place, code, v, f, c_score, kind, d, bit in opts[k]:
            nrun = run
            if kind == _DIGIT:
                if not digits:
                    continue
            elif k + 2 > end:
                continue  # no room for an operand after it
            elif run is not None:
                # the run ends: the longest so far (the last of them) passes on
                m = k - run[0]
                if m >= run[3]:
                    nrun = (k + 1, False, False, m, run[2])
                else:
                    nrun = (k + 1, False, False, run[3], run[4])
            if key is None:  # the tile on the board
                nst = _step(st, kind, d)
                if nst is None:
                    return
                break  # on to square k + 1, below
            c = counts[key]
            if c <= 0:
                continue
            nst = _step(st, kind, d)
            if nst is None:
                continue
            counts[key] = c - 1
            placed.append(at[k] | code)
            _go(
                ctx,
                k + 1,
                nst,
                used + place,
                nk + 1,
                tsum + v,
                mult * f,
                cross_sum + c_score,
                old,
                rfl & ~bit if c == 1 else rfl,
                nrun,
            )
            placed.pop()
            counts[key] = c
        else:
            return
        # The tile on the board: the walk goes on from square k + 1 in this frame, not in a
        # call of its own (a frame of _go is a heap block on MicroPython: one a tile on the
        # board held the heap while the walk ran deep).
        k += 1
        st = nst
        tsum += v
        old = True
        run = nrun


def _reach(ctx, k, tiles, tlo, thi, sg, alo, ahi, dv, nums):
    """_Calq.reachable()'s walk from square k, given its tuple `ctx` (a module function,
    not a closure, as _go)."""
    free, opts, digits, whites, counts, stop, fixed, look, floors = ctx
    # (tlo, thi): the terms before; sg, (alo, ahi), dv: the current term as in a
    # parse state; nums: its operand, (phase, number lo, hi, of one digit,
    # denominator lo, hi, of one digit) as _digits_step gives them
    ph = nums[0]
    if k == stop or (free[k] and not fixed):
        # the side may end here
        if ph == 1 or ph == 3:
            term = _term_range(alo, ahi, dv, nums)
            if term is not None:
                lo, hi = _plus(tlo, thi, sg, term)
                if _meets(look, floors, lo, hi):
                    return True
        if k == stop:
            return False
    if free[k]:
        if tiles <= 0:
            return False
        tiles -= 1
        ds = digits[k]
        a = -1
        for d, key in ds:
            if counts[key] > 0:
                a = d
                break
        if a >= 0:
            b = a
            for j in range(len(ds) - 1, -1, -1):
                if counts[ds[j][1]] > 0:
                    b = ds[j][0]
                    break
            nxt = _digits_step(nums, a, b)
            if nxt is not None and _reach(ctx, k + 1, tiles, tlo, thi, sg, alo, ahi, dv, nxt):
                return True
        cands = whites[k]
    else:
        o = opts[k][0]
        if o[6] == _DIGIT:
            nxt = _digits_step(nums, o[7], o[7])
            return nxt is not None and _reach(ctx, k + 1, tiles, tlo, thi, sg, alo, ahi, dv, nxt)
        cands = ((o[6], None),)
    for kind, key in cands:
        if key is not None:
            c = counts[key]
            if c <= 0:
                continue
        # the state after it, as _reach's arguments (set one by one: a tuple of them would
        # be one more heap block)
        n_tlo = tlo
        n_thi = thi
        n_sg = sg
        if kind == _SLASH:
            if ph != 1:
                continue
            n_alo = alo
            n_ahi = ahi
            n_dv = dv
            nst = (2, nums[1], nums[2], nums[3], 0, 0, True)
        elif kind == _EQUALS or not (ph == 1 or ph == 3):
            continue
        else:
            term = _term_range(alo, ahi, dv, nums)
            if term is None:
                continue
            nst = _FRESH
            if kind == _TIMES or kind == _OVER:
                n_alo = term[0]
                n_ahi = term[1]
                n_dv = kind == _OVER
            else:
                n_tlo, n_thi = _plus(tlo, thi, sg, term)
                n_sg = 1 if kind == _ADD else -1
                n_alo = n_ahi = _SCALE
                n_dv = False
        if key is not None:
            counts[key] = c - 1
        found = _reach(ctx, k + 1, tiles, n_tlo, n_thi, n_sg, n_alo, n_ahi, n_dv, nst)
        if key is not None:
            counts[key] = c
        if found:
            return True
    return False
