"""The values a long Cal-Q-Able side is built towards (engine/movegen_calqable.py).

`_Targets` holds one kind's short sides around one square of `=` by their values, sorted by
scaled floor (engine/calqable_ranges.py). Its `lookup` tells which of those values the rack
left can still pay for, as a mask over the floors: each usage's tiles sit in bit fields of
their own (`_shifts`), so that one subtraction tells whether the rack left holds them.
`_candidates` narrows a lookup to the values a side can reach with one number still to come,
and `_index` groups sides by value for the pairing.

Names with a leading underscore belong to the Cal-Q-Able generator and are shared by its
modules (engine/movegen_calqable.py and engine/calqable_*.py); nothing else should use them.
"""

from engine.calqable_parse import _value_of
from engine.calqable_ranges import _at, _down, _up
from engine.compat import const

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
