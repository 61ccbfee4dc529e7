"""Rule 14's shared premiums (engine/calculissimo.py) against a plain 2**k enumeration.

Random premium layouts (chip and run premiums, factors 2 to 15) and random moves on them: a
main run along the move's line and cross runs through some of its new chips, with faces
that make most runs valid calculations, jokers, chip premiums shared by two runs (a new
number with a cross run) and moves that a premium makes illegal. For each, `Game.check`'s
verdict (the score, every run's breakdown, the reasons) must equal the one found here the
slow way, as RULES.md reads: try every assignment of the shared premium squares, score the
whole move again for each from the chips' faces, and keep the largest total of those where
every run is a positive integer (the first such assignment on a tie); when there is none,
the first assignment with the fewest invalid runs names them (premium_invalid).

Assignments are numbered as the engine numbers them: bit j of the mask gives the j-th shared
square (in the order of a dict of the premium squares filled run by run, square by square)
to the second run through it. Runs on MicroPython too.
"""

from engine import faces, squares
from engine import verdict as V
from engine.arith import evaluate
from engine.game import Game
from engine.move import Move
from engine.prng import Prng
from engine.profile import CHIP, RUN, Profile
from tests.engine.checks import eq

SIZE = 13  # board width and height
LETTERS = "abcdefgh"
PER_PROFILE = 10  # positions on each random profile (making one takes a while on a Pico)


# Kinds of random position (`_position`).
MIXED = "mixed"  # anything: short and long moves, some cross runs, all kinds of operators
DENSE = "dense"  # long lines of easy sums, up to 8 new chips, a cross run through nearly
# every one and a premium under 4 squares in 5: many shared squares, most moves legal
FRAGILE = "fragile"  # number premiums only, cross runs through new numbers, operators
# that a doubled number easily spoils: premium_invalid, and the fewest invalid runs chosen


def _profile(rng, mode):
    """A random premium layout on a SIZE x SIZE board, a legend of up to 8 premiums."""
    legend = {}
    for letter in LETTERS[: 1 + rng.below(len(LETTERS))]:
        kind = "run" if rng.below(2) and mode != FRAGILE else "chip"
        factor = (2, 3, 2, 3, 5, 15, 7, 4)[rng.below(8)]
        legend[letter] = {"kind": kind, "factor": factor}
    letters = "".join(sorted(legend))
    density = 4 if mode == DENSE else 1 + rng.below(4)  # of 5 squares
    layout = []
    for _ in range(SIZE):
        row = ""
        for _ in range(SIZE):
            row += letters[rng.below(len(letters))] if rng.below(5) < density else "."
        layout.append(row)
    chips = {ch: 40 for ch in "0123456789"}
    chips.update({"+": 40, "-": 40, "×": 40, "÷": 40, "?": 40})
    data = {
        "name": "random",
        "game": "calculissimo",
        "width": SIZE,
        "height": SIZE,
        "start": "A1",
        "legend": legend,
        "layout": layout,
        "chips": chips,
        "rack_size": 16,
        "players": [2, 2],
    }
    return Profile(data)


def _digit(rng, small, big=False):
    if big:
        return "56789"[rng.below(5)]
    if small:
        return "123"[rng.below(3)]  # few values: ties between runs are common
    return "0123456789"[rng.below(10)] if rng.below(8) else "1"


# Operators to draw from: hard ones often make a run no positive integer.
_OPS = {MIXED: ("++++++++-*:", "++--*::"), DENSE: ("+++++++++-",), FRAGILE: ("+--", "-")}


def _position(rng, mode, prof):
    """(game, move): a random board of that kind on profile `prof` and a move laid across or
    down a line of it, of a legal shape (one line, no gap, touching a chip already there), or
    None."""
    options = {"precedence": "mul_first" if rng.below(4) == 0 else "standard"}
    game = Game(prof, 2, options)
    cells = game.board.cells
    small = rng.below(2) == 0
    choices = _OPS[mode]
    ops = choices[rng.below(len(choices))]
    crossing = 1 + rng.below(4) if mode == MIXED else 4  # cross runs through that in 4
    across = rng.below(2) == 0
    line = rng.below(SIZE)
    length = 1 + 2 * rng.below(SIZE // 2 + 1)  # odd: numbers at both ends
    if mode == DENSE:
        length = SIZE - 2 * rng.below(3)
    elif mode == FRAGILE:
        length = 3 + 2 * rng.below(2)
    if rng.below(20) == 0:
        length += 1  # an even length: the main run is malformed
    length = min(length, SIZE)
    first = rng.below(SIZE - length + 1)

    def square(along, at):
        return at * SIZE + along if across else along * SIZE + at

    new = []  # (square, code, offset along the main run)
    for k in range(length):
        if k % 2 == 0:
            big = mode == FRAGILE and k == 0  # 9 - 2 - 1: a tripled 2 spoils it
            code = faces.cell_code(_digit(rng, small or mode != MIXED, big), rng.below(7) == 0)
        else:
            op = ops[rng.below(len(ops))]
            code = faces.cell_code(op, op != "*" and rng.below(10) == 0)
        sq = square(first + k, line)
        # At most 8 new chips on a dense line (2**8 assignments to try here; the rack holds
        # 7 on the default profile), 16 otherwise (the most a profile allows).
        if rng.below(8 if mode == DENSE else 3) == 0 or len(new) == (8 if mode == DENSE else 16):
            cells[sq] = code  # a chip already on the board
        else:
            new.append((sq, code, k))
    touching = len(new) < length
    for sq, code, k in new:
        if rng.below(4) >= crossing or (mode == FRAGILE and k % 2):
            continue
        # A cross run through this new chip: chips before and after it across the line,
        # numbers and operators alternating (now and then not: a malformed run).
        number = (k % 2 == 0) == (mode != MIXED or rng.below(40) != 0)
        before = rng.below(3) * 2 + (0 if number else 1)
        while before > line:
            before -= 2  # the board's edge: the run stays whole
        after = rng.below(3) * 2 + (0 if number else 1)
        while line + after >= SIZE:
            after -= 2
        if before < 0 or after < 0:
            continue  # an operator on the edge: no calculation across it
        times = mode == DENSE and rng.below(2) == 0  # one ×: cross runs worth more
        for d in range(-before, after + 1):
            at = line + d
            if d != 0:
                if (d % 2 == 0) != number:
                    ch = "*" if times else ops[rng.below(len(ops))]
                    times = False
                elif mode == DENSE:
                    ch = _digit(rng, False, True)  # small main runs, big cross runs
                else:
                    ch = _digit(rng, small or mode == FRAGILE, mode == FRAGILE and d == -before)
                cells[square(first + k, at)] = faces.cell_code(ch)
                touching = True
    if not new or (not touching and len(new) < 2):
        return None
    if not touching:  # every chip of the line is new: one of them was there before
        sq, code, _ = new.pop()
        cells[sq] = code
    return game, Move([(sq, code) for sq, code, _ in new], SIZE)


def _run_through(cells, w, i, step):
    """The squares of the maximal line of chips through i along step (1 or w, the board's
    width), or None if that is the chip alone."""
    run = [i]
    j = i
    while j - step >= 0 and cells[j - step] and (step != 1 or (j - 1) // w == i // w):
        j -= step
        run.insert(0, j)
    j = i
    while j + step < len(cells) and cells[j + step] and (step != 1 or (j + 1) // w == i // w):
        j += step
        run.append(j)
    return run if len(run) > 1 else None


def _faces(cells, run):
    """(numbers, operators) of a run's chips, or None if they do not alternate."""
    nums, ops = [], []
    for k in range(len(run)):
        ch = chr(cells[run[k]] & 0x7F)
        if (k % 2 == 0) != ("0" <= ch <= "9"):
            return None
        if k % 2 == 0:
            nums.append(ord(ch) - 48)
        else:
            ops.append(ch)
    return (nums, ops) if len(run) % 2 else None


def _problem(nums, ops, mul_first):
    """(reason, value): why a calculation is not a positive integer (None if it is)."""
    if ops.count("*") > 1:
        return V.TWO_MULTIPLICATIONS, 0
    n, d = evaluate(nums, ops, mul_first)
    if d == 0:
        return V.DIVISION_BY_ZERO, 0
    if d != 1:
        return V.NOT_INTEGER, 0
    return (V.NOT_POSITIVE if n <= 0 else None), n


def _name(run, w):
    return squares.span(run[0], run[-1], w)


def _expected(game, move, seen):
    """(reasons as (code, run), runs as (run, face value, premium value, multiplier), score)
    of a move whose shape is legal, every assignment of the shared premiums tried; `seen`
    counts the shared squares."""
    prof = game.profile
    prem, kinds, factors = prof.premiums, prof.kinds, prof.factors
    mul_first = game.options["precedence"] == "mul_first"
    cells = bytearray(game.board.cells)
    placed = [i for i, _ in move.placements]
    for i, code in move.placements:
        cells[i] = code
    w = prof.width
    across = len(placed) == 1 or placed[0] // w == placed[-1] // w
    runs = [_run_through(cells, w, placed[0], 1 if across else w)]
    for i in placed:
        runs.append(_run_through(cells, w, i, w if across else 1))
    runs = [run for run in runs if run is not None]
    if not runs:
        return [(V.NO_CALCULATION, None)], [], 0
    names = [_name(run, w) for run in runs]
    chains = [_faces(cells, run) for run in runs]  # (numbers, operators) with face values
    reasons = []
    face_values = []
    for r in range(len(runs)):
        chain = chains[r]
        problem, value = (V.MALFORMED, 0) if chain is None else _problem(*chain, mul_first)
        if problem is not None:
            reasons.append((problem, names[r]))
        face_values.append(value)
    if reasons:
        return reasons, [], 0
    # The premium squares of this turn, each with the runs it works in.
    owners = {}
    on_run = [[] for _ in runs]  # per run: (offset, square) of this turn's premiums on it
    for r in range(len(runs)):
        for k in range(len(runs[r])):
            i = runs[r][k]
            p = prem[i]
            number = k % 2 == 0 and not cells[i] & faces.JOKER_BIT
            if p and i in placed and (kinds[p] == RUN or number):
                on_run[r].append((k, i))
                if i in owners:
                    owners[i].append(r)
                else:
                    owners[i] = [r]
    shared = [i for i, rs in owners.items() if len(rs) > 1]
    for i in shared:
        seen["shared chip" if kinds[prem[i]] == CHIP else "shared run"] += 1
    best = best_rows = fewest = None
    for mask in range(1 << len(shared)):
        gets = {}  # premium square -> the run it works in under this assignment
        for i, rs in owners.items():
            gets[i] = rs[0]
        for j in range(len(shared)):
            gets[shared[j]] = owners[shared[j]][(mask >> j) & 1]
        # The whole move scored again under this assignment.
        total = 0
        rows = []
        bad = []
        for r in range(len(runs)):
            nums, ops = chains[r]
            nums = list(nums)
            mult = 1
            for k, i in on_run[r]:
                if gets[i] == r:
                    if kinds[prem[i]] == RUN:
                        mult *= factors[prem[i]]
                    else:
                        nums[k // 2] *= factors[prem[i]]
            problem, value = _problem(nums, ops, mul_first)
            if problem is not None:
                bad.append(r)
            else:
                total += value * mult
                rows.append((names[r], face_values[r], value, mult))
        if bad:
            if fewest is None or len(bad) < len(fewest):
                fewest = bad
        elif best is None or total > best:
            best, best_rows = total, rows
        elif total == best and rows != best_rows:
            seen["ties"] += 1  # another assignment as good: the first one stands
    if best is None:
        return [(V.PREMIUM_INVALID, names[r]) for r in fewest], [], 0
    return [], best_rows, best


def _engine(verdict):
    reasons = [(r.code, r.run) for r in verdict.reasons]
    rows = [(s.name, s.face_value, s.premium_value, s.multiplier) for s in verdict.runs]
    return reasons, rows, verdict.score


def _compare(seed, count, mode):
    """Check `count` random positions from `seed`; returns what was seen (legal moves,
    moves a premium made illegal, shared squares of each kind)."""
    rng = Prng(seed)
    seen = {"legal": 0, V.PREMIUM_INVALID: 0, "shared run": 0, "shared chip": 0, "ties": 0}
    n = 0
    while n < count:
        if n % PER_PROFILE == 0:
            prof = _profile(rng, mode)
        position = _position(rng, mode, prof)
        if position is None:
            continue
        n += 1
        game, move = position
        verdict = game.check(move)
        want = _expected(game, move, seen)
        eq(_engine(verdict), want, "seed %d, position %d, %s" % (seed, n, move))
        if verdict.legal:
            seen["legal"] += 1
        elif verdict.codes()[0] == V.PREMIUM_INVALID:
            seen[V.PREMIUM_INVALID] += 1
    return seen


def test_mixed_moves():
    seen = _compare(1, 250, MIXED)
    assert seen["legal"] >= 60 and seen["shared run"] >= 15 and seen["shared chip"] >= 8, seen
    assert seen["ties"] >= 5, seen


def test_dense_moves():
    seen = _compare(2, 40, DENSE)
    assert seen["legal"] >= 30 and seen["shared run"] >= 100 and seen["shared chip"] >= 30, seen


def test_fragile_moves():
    seen = _compare(3, 200, FRAGILE)
    assert seen[V.PREMIUM_INVALID] >= 6 and seen["shared chip"] >= 30, seen


_SHAPES = {V.NO_CHIPS, V.GAP, V.NOT_CONNECTED, V.FIRST_MOVE_OFF_START}


def test_a_move_judged_chip_by_chip():
    # The board's live preview judges the move again after each chip (the engine then
    # meets the runs of the last call again): every verdict on the way must be the same.
    rng = Prng(4)
    seen = {"legal": 0, V.PREMIUM_INVALID: 0, "shared run": 0, "shared chip": 0, "ties": 0}
    compared = 0
    for n in range(40):
        mode = DENSE if n % 2 else MIXED
        if n % 4 < 2:
            prof = _profile(rng, mode)
        position = _position(rng, mode, prof)
        if position is None:
            continue
        game, move = position
        laid = list(move.placements)
        order = [laid[:k] for k in range(1, len(laid) + 1)]
        order += [laid[1:], laid]  # the first chip lifted, and put back
        sq, code = laid[-1]
        digit = chr(code & 0x7F)
        if digit in "123456789":  # the last chip swapped for another number
            other = faces.cell_code("912345678"[int(digit) - 1], code & faces.JOKER_BIT != 0)
            order += [laid[:-1] + [(sq, other)], laid]
        for placements in order:
            part = Move(placements, SIZE)
            verdict = game.check(part)
            if set(verdict.codes()) & _SHAPES:
                continue  # a shape the engine refuses before it scores runs
            eq(_engine(verdict), _expected(game, part, seen), "position %d, %s" % (n, part))
            compared += 1
    assert compared >= 250 and seen["shared run"] >= 80 and seen["shared chip"] >= 50, seen


def test_seven_operators_on_purples():
    # tools/positions.py's ROW_MOVE (the bench's case): seven purples, each shared by the
    # main run 9+8×7-6+5+4-3+2 = 67 and a cross run worth 5 to 12: all go to the main run.
    from tests.engine.fixtures import profile_data
    from tools import positions

    game = positions.lay_out(Game(positions.row_profile(profile_data()), 2), positions.ROW_BOARD)
    move = game.move(positions.ROW_MOVE)
    verdict = game.check(move)
    eq(_engine(verdict), _expected(game, move, {"shared run": 0, "shared chip": 0, "ties": 0}))
    eq(verdict.score, 67 * 3**7 + 6 + 7 + 6 + 11 + 12 + 5 + 11)
    eq([run.multiplier for run in verdict.runs], [3**7] + [1] * 7)


def test_two_runs_from_one_corner():
    # One chip starting two runs alike, across and down (1+1 both ways): each is named for
    # its own squares, also when judged again.
    game = Game(_profile(Prng(5), MIXED), 2)
    cells = game.board.cells
    for name, face in (("D3", "+"), ("E3", "1"), ("C4", "+"), ("C5", "1")):
        cells[squares.parse(name, SIZE, SIZE)] = faces.cell_code(face)
    move = game.move("C3:1")
    for _ in range(2):
        verdict = game.check(move)
        eq([run.name for run in verdict.runs], ["C3-E3", "C3-C5"])
        eq(_engine(verdict), _expected(game, move, {"shared run": 0, "shared chip": 0}))
