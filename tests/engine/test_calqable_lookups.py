"""A square's lookups (engine/calqable_targets.py's _Targets): which values of the other
kind's short sides the rack left can still pay for, found by scaled floor.

A lookup is an int, a mask over the square's sorted scaled floors: a small int on the chip up
to 30 floors, a long one past that. Here every lookup, `_meets` and `between` is checked
against the plain sets it stands for, with 8 to 100 floors, on all runtimes.
"""

from engine import calqable_ranges as cr
from engine import calqable_targets as ct
from engine import movegen_calqable as mc
from engine.prng import Prng
from tests.engine.checks import eq

KEYS = ["1", "2", "3"]
RACK = {"1": 2, "2": 2, "3": 2}  # places 1, 3, 9: a usage is t1 + 3 t2 + 9 t3
PLACES = [1, 3, 9]


class _Gen:
    """What _Targets reads of a generation: the rack's faces, their places, radices and
    fields (as the rack holds them), their counts now and whether lookups are kept."""

    fields = mc._Calq.fields

    def __init__(self, keys, places, rack, counts, keep=False):
        self.keys = keys
        self.places = places
        self.radices = [rack[key] + 1 for key in keys]
        self.shifts, self.guard = ct._shifts(keys, rack)
        self.counts = counts
        self.keep_lookups = keep


def _digits(usage, places):
    """The tiles of each face a usage takes (mixed radix, `places` its place values)."""
    out = []
    for j in range(len(places) - 1, -1, -1):
        out.append(usage // places[j])
        usage %= places[j]
    out.reverse()
    return out


def _entries(prng, floors, usages, places):
    """Short sides (value, usage, tiles, ...) whose values have `floors` distinct scaled
    floors: most of them whole numbers, some fractions sharing a floor with another value,
    some values under two usages."""
    out = []
    for n in range(floors):
        u = usages[prng.below(len(usages))]
        k = sum(_digits(u, places))
        value = (3 * n - floors, 1)
        out.append((value, u, k, 0, 1, 0, False, (), 0))
        if prng.below(4) == 0:  # another value of the same floor: (v * 8193 + 1) / 8193
            other = (value[0] * 8193 + 1, 8193)
            out.append((other, u, k, 0, 1, 0, False, (), 0))
        if prng.below(4) == 0:  # the same value under another usage
            u2 = usages[prng.below(len(usages))]
            out.append((value, u2, sum(_digits(u2, places)), 0, 1, 0, False, (), 0))
    return out


def _payable(u, counts, keys, places):
    for j, t in enumerate(_digits(u, places)):
        if t > counts[keys[j]]:
            return False
    return True


def _check(floors_wanted, seed):
    prng = Prng(seed)
    usages = list(range(27))
    entries = _entries(prng, floors_wanted, usages, PLACES)
    for _ in range(8):
        used = usages[prng.below(len(usages))]
        taken = _digits(used, PLACES)
        counts = {}
        for j, key in enumerate(KEYS):
            counts[key] = RACK[key] - taken[j]
        targets = ct._Targets(_Gen(KEYS, PLACES, RACK, counts), entries)
        floors = targets.floors
        eq(len(floors), floors_wanted)
        for most in (0, 2, 6):
            look = targets.lookup(most)
            # the plain set: the floors of the sides the rack left pays for, in `most` tiles
            want = set()
            for e in entries:
                if e[2] <= most and _payable(e[1], counts, KEYS, PLACES):
                    want.add(cr._down(e[0][0], e[0][1]))
            got = [floors[i] for i in range(len(floors)) if look >> i & 1]
            eq(got, sorted(want), (floors_wanted, used, most))
            eq(look >> len(floors), 0)
            for _ in range(12):
                lo = floors[prng.below(len(floors))] + prng.below(3) - 1
                hi = lo + prng.below(5) * prng.below(40 * cr._SCALE)
                inside = [f for f in want if lo <= f <= hi]
                eq(cr._meets(look, floors, lo, hi), bool(inside), (lo, hi))
                eq(cr._meets(look, floors, None, hi), any(f <= hi for f in want), hi)
                eq(cr._meets(look, floors, lo, None), any(f >= lo for f in want), lo)
                values = set()
                for e in entries:
                    f = cr._down(e[0][0], e[0][1])
                    if f in inside:
                        values.add(e[0])
                found = targets.between(look, lo, hi)
                eq(list(found), sorted(values, key=lambda v: (cr._down(v[0], v[1]), v)))


def test_lookups_of_a_few_floors():
    _check(8, 1)


def test_lookups_at_the_chips_small_int_and_past_it():
    _check(30, 2)
    _check(31, 3)


def test_lookups_of_many_floors():
    _check(60, 4)
    _check(100, 5)


# Seven faces of one tile each: a usage is a bit a face, 128 of them.
MANY_KEYS = ["1", "2", "3", "4", "5", "6", "7"]
MANY_PLACES = [1, 2, 4, 8, 16, 32, 64]


def _many_faces(keep=False):
    """(targets of the 128 usages' sides, the rack, its counts now, the sides)."""
    entries = []
    for u in range(128):
        k = 0
        for j in range(7):
            k += u >> j & 1
        entries.append(((u, 1), u, k, 0, 1, 0, False, (), 0))
    rack = {}
    for key in MANY_KEYS:
        rack[key] = 1
    counts = dict(rack)
    targets = ct._Targets(_Gen(MANY_KEYS, MANY_PLACES, rack, counts, keep), entries)
    return targets, rack, counts, entries


def _spend(counts, rack, used):
    for j, key in enumerate(MANY_KEYS):
        counts[key] = rack[key] - (used >> j & 1)


def _usable(targets, look):
    return [targets.floors[i] // cr._SCALE for i in range(128) if look >> i & 1]


def test_a_rack_of_many_faces():
    # Two of the seven spent: of the 128 usages, those of the other five with at most
    # `most` tiles.
    targets, rack, counts, entries = _many_faces()
    _spend(counts, rack, 34)
    for most in range(8):
        look = targets.lookup(most)
        eq(_usable(targets, look), [e[0][0] for e in entries if e[2] <= most and not e[1] & 34])


def test_kept_lookups_are_those_worked_out():
    # Off the chip a square's lookups are kept, by the usage of the side so far and how
    # many usages they take (up to all 128 here): each must be the lookup worked out for
    # that rack left, asked twice in a shuffled order, as a walk would.
    targets, rack, counts, entries = _many_faces(keep=True)
    prng = Prng(7)
    asks = [(used, most) for used in range(40) for most in (0, 1, 3, 7)]  # 1, 8, 64, 128 usages
    for n in range(2 * len(asks)):
        used, most = asks[prng.below(len(asks))] if n >= len(asks) else asks[n]
        _spend(counts, rack, used)
        want = [e[0][0] for e in entries if e[2] <= most and not e[1] & used]
        eq(_usable(targets, targets.lookup(most, used)), want, (used, most))
        eq(_usable(targets, targets.lookup(most)), want, (used, most))
