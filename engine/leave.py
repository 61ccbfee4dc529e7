"""Leave tables: what the chips kept on the rack after a turn are worth (issue 12, level 4).

A level-4 player (engine/players.py) ranks a move by its equity: the score plus the value of
the chips it keeps (its *leave*). The value of a leave is a sum of these terms, in tenths of
a point:
- a value per face kept (each chip of that face counts once);
- a value per duplicate: each chip of a face beyond the first (two `×` are worse than one);
- a balance term for the mix kept: one value per (numbers kept, operators kept), jokers
  counting as neither;
- and, for a move that lays the whole rack, what the turn it earns at once is worth
  (Calculissimo rule 15; a swap of the whole rack earns none, though it keeps nothing too).
A table is (faces, rack size, weights): `faces` lists the ten digits first, then the
operators, then the joker if the game has one; `weights` holds the face values (one per
face, in the order of `faces`), then the duplicate values, then the balance values indexed
`numbers * (rack size + 1) + operators`, then the bonus turn's. `counts` below is a list of
chips kept, one count per face of the table.

The Calculissimo table (95 small integers, a few hundred bytes of flash) is learned by
tools/learn_leave.py from seeded self-play (its docstring says how); the block between the
TABLE markers is written by that tool, with the seeds and the games it used: this one by
`python -m tools.learn_leave --games 700 --rounds 3 --write` (2,100 games, about 35 minutes
on one core). With it, level 4 beat level 3 in 79.7% (± 1.8) of 2,000 games
(`python -m tools.selfplay --pair 4,3 --games 2000`: bag seeds 1-1000, each from both seats).
Cal-Q-Able's table (its faces, no joker; `=` comes from the open supply, so it is no part
of a leave) is learned the same way: `python -m tools.learn_leave --game calqable --games
450 --rounds 1 --ridge 200 --write` (one round of level 3, about 32 minutes on one core now
that the best move is searched best first, engine/calqable_bounds.py). Its 3,559 turns are
few for 131 terms: fitted on each half of the games apart, the face values agreed with a
correlation of 0.34 under the default ridge of 5 and 0.93 under 200, hence 200. Level 4
then won 51.0 % of 300 games against level 3 (152-2-146, bag seeds 1-75 and 101-175, each
from both seats; about 25 points a game more on average), within the noise of an even
match; under ridge 5 it had won 47.4 % of 170. Keeping an operator costs 17-37 points.
A leave table can do little there: level 3 lays the whole rack (+50) on 93 % of its turns
with tiles in the bag (2,993 of the 3,218 samples), and the leave is then empty.
"""

from engine.faces import JOKER, JOKER_BIT

# ----- TABLE (written by tools/learn_leave.py) -----
# Learned by tools/learn_leave.py on 2026-11-25 from 47852 samples of two-player self-play,
# round 0: level 3, bag seeds 100001-100700;
# round 1: level 4, bag seeds 100701-101400;
# round 2: level 4, bag seeds 101401-102100;
# each round at level 4 uses the table of the rounds before; ridge 5.
# Values in tenths of a point.
# fmt: off
CALCULISSIMO = (
    "0123456789+-*:?",
    7,
    (
        # kept, per chip: 0 1 2 3 4 5 6 7 8 9 + - * : ?
        -129, -116, -113, -132, -116, -102, -89, -76, -64, -68, 14, -59, 741, -149, 154,
        # each duplicate of a face
        33, 12, 21, 39, 17, -3, -7, -41, -35, -63, -167, -61, -819, 18, -197,
        # balance: row = numbers kept (0-7), column = operators kept (0-7)
        -33, 140, 197, 2, -9, -123, -166, 0,
        48, 72, 69, 26, 20, 3, 0, 0,
        4, 26, 95, 140, 23, 0, 0, 0,
        -63, -11, 104, 64, 0, 0, 0, 0,
        -51, 39, 57, 0, 0, 0, 0, 0,
        -65, 3, 0, 0, 0, 0, 0, 0,
        -123, 0, 0, 0, 0, 0, 0, 0,
        -176, 0, 0, 0, 0, 0, 0, 0,
        # a move of the whole rack: the turn it earns
        1248,
    ),
)
# fmt: on
# ----- END TABLE -----

# ----- CALQABLE TABLE (written by tools/learn_leave.py) -----
# Learned by tools/learn_leave.py on 2026-11-27 from 3218 samples of two-player self-play,
# round 0: level 3, bag seeds 100001-100450;
# each round at level 4 uses the table of the rounds before; ridge 200.
# Values in tenths of a point.
# fmt: off
CALQABLE = (
    "0123456789+-*:/",
    9,
    (
        # kept, per chip: 0 1 2 3 4 5 6 7 8 9 + - * : /
        11, 8, -108, 70, -9, 49, -40, 23, 15, -4, -21, -1, -22, 39, 9,
        # each duplicate of a face
        -13, -16, -37, 7, -12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        # balance: row = numbers kept (0-9), column = operators kept (0-9)
        -467, -36, 0, 0, 0, 0, 0, 0, 0, 0,
        36, 70, 4, 0, 0, 0, 0, 0, 0, 0,
        -73, -36, 0, 0, 0, 0, 0, 0, 0, 0,
        58, 9, 0, 0, 0, 0, 0, 0, 0, 0,
        0, -10, 0, 0, 0, 0, 0, 0, 0, 0,
        -7, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        # a move of the whole rack: the turn it earns
        0,
    ),
)
# fmt: on
# ----- END CALQABLE TABLE -----

_TABLES = {"calculissimo": CALCULISSIMO, "calqable": CALQABLE}


def table_for(name):
    """The leave table of a game (its ruleset's name), or None if it has none."""
    return _TABLES.get(name)


def _mix(faces, counts):
    """(numbers, operators) kept: the faces list the ten digits first; a joker is neither."""
    numbers = 0
    operators = 0
    for i in range(len(faces)):
        if i < 10:
            numbers += counts[i]
        elif faces[i] != JOKER:
            operators += counts[i]
    return numbers, operators


def _balance(table, counts):
    """The index of the balance weight of `counts`."""
    numbers, operators = _mix(table[0], counts)
    return _balance_at(table, numbers, operators)


def _balance_at(table, numbers, operators):
    faces, rack_size, _ = table
    # a rack holds no more than rack_size chips; clamp in case a caller passes more
    numbers = min(numbers, rack_size)
    operators = min(operators, rack_size - numbers)
    return 2 * len(faces) + numbers * (rack_size + 1) + operators


def terms(table, counts, bonus=False):
    """Yield (weight index, multiplier) for every term of the leave `counts`; `bonus`: the
    move earns a turn at once. (The learner's view of `value`, which sums them.)"""
    n = len(table[0])
    for i in range(n):
        if counts[i]:
            yield i, counts[i]
        if counts[i] > 1:
            yield n + i, counts[i] - 1
    yield _balance(table, counts), 1
    if bonus:
        yield size(table[0], table[1]) - 1, 1


def value(table, counts, bonus=False):
    """The leave's value in tenths of a point: the sum of `terms`' weights, without making
    them (a level-4 chooser asks this once a move)."""
    weights = table[2]
    n = len(table[0])
    total = weights[_balance(table, counts)]
    for i in range(n):
        c = counts[i]
        if c:
            total += weights[i] * c
            if c > 1:
                total += weights[n + i] * (c - 1)
    if bonus:
        total += weights[len(weights) - 1]
    return total


def size(faces, rack_size):
    """How many weights a table of these faces and rack size holds."""
    return 2 * len(faces) + (rack_size + 1) * (rack_size + 1) + 1


class Keeper:
    """One rack's leaves, move by move: `after(placements)` is `value` of what the rack
    keeps once those chips are laid, worked out from the chips laid alone (a level-4
    chooser asks it for every move it is offered, so it must be quick: no list is made).

    `rack` is a list of faces (`?` a joker); `full`: how many chips laid earn a turn at once
    (-1: none). `counts` holds the rack's counts per face of the table."""

    def __init__(self, table, rack, full=-1):
        self.table = table
        faces = table[0]
        n = len(faces)
        self.counts = [0] * n
        for key in rack:
            i = faces.find(key)
            if i >= 0:
                self.counts[i] += 1
        self.joker = faces.find(JOKER)
        self.full = full
        # board cell code -> 1 + index of the face it takes from the rack (a joker standing
        # for anything takes a `?`); 0: not in the table
        self.slots = bytearray(256)
        for i in range(n):
            if i == self.joker:
                for code in range(JOKER_BIT, 256):
                    self.slots[code] = i + 1
            else:
                self.slots[ord(faces[i])] = i + 1
        weights = table[2]
        self.base = 0  # the face and duplicate terms of the whole rack
        for i in range(n):
            c = self.counts[i]
            if c:
                self.base += weights[i] * c + (weights[n + i] * (c - 1) if c > 1 else 0)
        self.numbers, self.operators = _mix(faces, self.counts)

    def after(self, placements):
        """The value (tenths of a point) of the chips kept after laying `placements`
        ((square, cell code) pairs, as Move.placements)."""
        weights = self.table[2]
        n = len(self.counts)
        counts = self.counts
        slots = self.slots
        total = self.base
        numbers = self.numbers
        operators = self.operators
        laid = 0
        for _, code in placements:
            i = slots[code] - 1
            if i < 0:
                continue
            c = counts[i]
            total -= weights[i] + (weights[n + i] if c > 1 else 0)
            counts[i] = c - 1
            laid += 1
            if i < 10:
                numbers -= 1
            elif i != self.joker:
                operators -= 1
        for _, code in placements:
            i = slots[code] - 1
            if i >= 0:
                counts[i] += 1
        total += weights[_balance_at(self.table, numbers, operators)]
        if laid == self.full:
            total += weights[len(weights) - 1]
        return total
