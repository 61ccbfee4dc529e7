"""The Cal-Q-Able generator's sides are matched by exact value whatever their size.

engine/calqable_targets.py (and engine/movegen_calqable.py) key their dicts of sides by an
int made of a value's numerator and denominator (MicroPython hashes a (n, d) tuple as n + d,
so tuples collide), and by the value itself beyond the int's range. Two values must share a key only if they are equal:
here values whose int keys would coincide if the range were not checked (1/4097 and 1, say)
must stay apart, and values out of the range must still find each other.
"""

from engine import calqable_ranges as cr
from engine import calqable_targets as ct
from engine import movegen_calqable as mc
from tests.engine.checks import eq

# pairs of distinct values whose int keys n * 4096 + d coincide (out of range on one side)
CLASHING = [((0, 4097), (1, 1)), ((-1, 8193), (1, 1)), ((131072, 1), (131071, 4097))]
BIG = [(1, 4096), (131072, 1), (-131072, 3), (7, 123456789), (10**12, 7)]


def _side(value, usage):
    # (value, usage, tiles, tile sum, factor, cross scores, holds a board tile, placements,
    # position): only the first two matter to the index
    return (value, usage, 1, 0, 1, 0, False, (), 0)


def _values(index, key):
    return [side[0] for side in index[0][key]]


def test_values_whose_int_keys_would_coincide_stay_apart():
    for a, b in CLASHING:
        index = ct._index([_side(a, 1), _side(b, 1)])
        eq(len(index[1]), 2, (a, b))
        for key in index[1]:
            eq(len(_values(index, key)), 1, (a, b))


def test_equal_values_meet_in_range_and_beyond():
    for value in BIG + [(3, 1), (-5, 2), (0, 1)]:
        again = (value[0] * 1, value[1] * 1)  # an equal tuple, not the same object
        index = ct._index([_side(value, 1), _side(again, 2), _side((9, 1), 1)])
        eq(len(index[1]), 2, value)
        eq(_values(index, index[1][0]), [value, again], value)
        eq([side[1] for side in index[0][index[1][0]]], [1, 2], value)


class _Gen:
    """What _Targets reads of a generation: a rack of one `1`, its counts, lookups not kept."""

    fields = mc._Calq.fields

    def __init__(self):
        self.keys = ["1"]
        self.places = [1]
        self.radices = [2]
        self.counts = {"1": 1}
        self.shifts, self.guard = ct._shifts(self.keys, self.counts)
        self.keep_lookups = False


def test_targets_look_up_values_beyond_the_int_range():
    entries = [_side(v, 0) for v in BIG] + [_side((2, 1), 0), _side((2, 1), 0)]
    targets = ct._Targets(_Gen(), entries)
    look = targets.lookup(1)  # a mask of scaled floors, each value's once
    floors = [targets.floors[i] for i in range(len(targets.floors)) if look >> i & 1]
    eq(floors, sorted(set(floors)))
    eq(len(floors), len(BIG) + 1)
    found = targets.between(look, floors[0], floors[-1])
    eq(sorted(found), sorted(BIG + [(2, 1)]))


def test_a_lookup_of_more_than_256_floors_finds_each():
    values = [(n, 3) for n in range(-200, 200)]  # 400 values, 400 scaled floors
    targets = ct._Targets(_Gen(), [_side(v, 0) for v in values])
    look = targets.lookup(1)
    eq(look, (1 << 400) - 1)  # every floor
    eq(targets.between(look, cr._down(-7, 3), cr._down(5, 3)), [(n, 3) for n in range(-7, 6)])
    eq(targets.between(look, cr._down(-200, 3), cr._down(199, 3)), values)
