"""Property tests of the Calculissimo engine against independent references (CPython only).

Not run on MicroPython: it needs pytest, hypothesis, `fractions` and `eval`.

1. `engine.arith.evaluate` against exact `Fraction` evaluation, both precedence modes and
   fraction inputs (`dens=`).
2. `Game.check` legality, score and run count against a brute-force scorer written from
   RULES.md alone: it reads the premium layout from the profile JSON itself, finds runs,
   checks shape, supply and well-formedness, and tries every premium-square assignment.
   Positions come from seeded random games (default layout, and a random layout with
   premiums on half the squares) biased towards new chips that bridge gaps between
   numbers, plus a fixed scaffold where one move joins two runs through a premium square.
   Note: on a board of valid runs a new number chip never has a neighbour across the
   move's line (the run it would extend ends on a number), so only calculation premiums
   under new operators can be shared by two runs; the scaffold forces that case.
3. Jokers on premium squares.
4. Round trips of `Move` through its text and byte forms; `engine.prng.Prng`.
"""

import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import engine.calculissimo  # noqa: F401  (registers the ruleset)
from engine import verdict as V
from engine.arith import evaluate
from engine.game import Game
from engine.move import Move
from engine.prng import Prng
from engine.profile import Profile, load

ROOT = Path(__file__).resolve().parent.parent
PROFILE_PATH = ROOT / "hardware" / "profiles" / "calculissimo.json"
PROFILE = load(str(PROFILE_PATH))

settings.register_profile(
    "properties",
    derandomize=True,
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
PROPS = settings.get_profile("properties")

OPS = "+-*:"
DIGITS = "0123456789"

# ----- 1. the evaluator ------------------------------------------------------------------


def ref_standard(values, ops):
    """Exact value under standard precedence via Python's own parser, or None on ÷ 0."""
    parts = [repr(Fraction(values[0]))]
    for op, v in zip(ops, values[1:]):
        parts.append({"+": "+", "-": "-", "*": "*", ":": "/"}[op])
        parts.append(repr(Fraction(v)))
    try:
        return eval(" ".join(parts), {"Fraction": Fraction, "__builtins__": {}})
    except ZeroDivisionError:
        return None


def ref_mul_first(values, ops):
    """Exact value under `mul_first`: in each product every × first, then ÷ left to right."""
    terms = [(1, [[Fraction(values[0])]])]  # (sign, groups); a group is a run of × factors
    for op, v in zip(ops, values[1:]):
        v = Fraction(v)
        if op == "+" or op == "-":
            terms.append((1 if op == "+" else -1, [[v]]))
        elif op == "*":
            terms[-1][1][-1].append(v)
        else:
            terms[-1][1].append([v])
    total = Fraction(0)
    for sign, groups in terms:
        products = []
        for group in groups:
            p = Fraction(1)
            for f in group:
                p *= f
            products.append(p)
        value = products[0]
        for divisor in products[1:]:
            if divisor == 0:
                return None
            value /= divisor
        total += sign * value
    return total


def ref_value(values, ops, mul_first):
    return ref_mul_first(values, ops) if mul_first else ref_standard(values, ops)


def as_pair(value):
    return (0, 0) if value is None else (value.numerator, value.denominator)


_number = st.one_of(st.integers(0, 30), st.integers(0, 30), st.integers(0, 10**6))


@st.composite
def chains(draw, number=_number):
    n = draw(st.integers(1, 8))
    nums = draw(st.lists(number, min_size=n, max_size=n))
    ops = draw(st.lists(st.sampled_from(OPS), min_size=n - 1, max_size=n - 1))
    return nums, "".join(ops)


@PROPS
@given(chains())
def test_evaluate_standard_matches_fraction(chain):
    nums, ops = chain
    assert evaluate(nums, ops) == as_pair(ref_standard(nums, ops))


@PROPS
@given(chains())
def test_evaluate_mul_first_matches_reference(chain):
    nums, ops = chain
    assert evaluate(nums, ops, mul_first=True) == as_pair(ref_mul_first(nums, ops))


@PROPS
@given(chains(number=st.integers(0, 3)))
def test_evaluate_zero_heavy_chains(chain):
    """Small numbers make division by zero and zero products frequent in both modes."""
    nums, ops = chain
    assert evaluate(nums, ops) == as_pair(ref_standard(nums, ops))
    assert evaluate(nums, ops, mul_first=True) == as_pair(ref_mul_first(nums, ops))


@PROPS
@given(chains(number=st.integers(-30, 30)), st.data(), st.booleans())
def test_evaluate_fraction_inputs(chain, data, mul_first):
    nums, ops = chain
    dens = data.draw(st.lists(st.integers(1, 12), min_size=len(nums), max_size=len(nums)))
    values = [Fraction(n, d) for n, d in zip(nums, dens)]
    got = evaluate(nums, ops, mul_first=mul_first, dens=dens)
    assert got == as_pair(ref_value(values, ops, mul_first))


def test_evaluate_precedence_examples():
    assert evaluate([8, 2, 2], ":*") == (8, 1)
    assert evaluate([8, 2, 2], ":*", mul_first=True) == (2, 1)
    assert evaluate([6, 2, 0], ":*") == (0, 1)
    assert evaluate([6, 2, 0], ":*", mul_first=True) == (0, 0)
    assert evaluate([9, 6, 2], "+:") == (12, 1)
    assert evaluate([1, 3], ":") == (1, 3)
    assert evaluate([1, 3], "-") == (-2, 1)
    assert evaluate([5, 0], ":") == (0, 0)


# ----- 2. scoring against a brute-force reference ------------------------------------------


DATA = json.loads(PROFILE_PATH.read_text())
WIDTH = DATA["width"]
HEIGHT = DATA["height"]
RACK = DATA["rack_size"]
START = (int(DATA["start"][1:]) - 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(DATA["start"][0]))
CHIPS = {{"×": "*", "÷": ":", "−": "-"}.get(k, k): v for k, v in DATA["chips"].items()}


def read_layout(rows, legend=DATA["legend"]):
    """(kind, factor) per (row, col) with a premium, read straight from layout rows."""
    out = {}
    for r, row in enumerate(rows):
        for c, letter in enumerate(row):
            if letter != ".":
                out[(r, c)] = (legend[letter]["kind"], legend[letter]["factor"])
    return out


LAYOUT = read_layout(DATA["layout"])


def dense_rows(rng):
    """A random premium layout with about half the squares premium, for a stress profile."""
    return ["".join(rng.choice("..gbyp*") for _ in range(WIDTH)) for _ in range(HEIGHT)]


class RefResult:
    """The reference's verdict: `score` is None when illegal; counters for coverage."""

    def __init__(self, score, why, runs=0, shared=0):
        self.score = score
        self.why = why
        self.runs = runs
        self.shared = shared


def _runs_through(cells, new_cells):
    """Every maximal line of >= 2 chips through a new chip, as tuples of (row, col)."""
    found = []
    for r, c in new_cells:
        for dr, dc in ((0, 1), (1, 0)):
            a = (r, c)
            while (a[0] - dr, a[1] - dc) in cells:
                a = (a[0] - dr, a[1] - dc)
            line = [a]
            while (line[-1][0] + dr, line[-1][1] + dc) in cells:
                line.append((line[-1][0] + dr, line[-1][1] + dc))
            if len(line) >= 2 and tuple(line) not in found:
                found.append(tuple(line))
    return found


def ref_judge(board, placements, first, rack, mul_first, layout=LAYOUT):
    """RULES.md verdict on laying `placements` [((r, c), ch, joker)] on `board`.

    `board` maps (r, c) to (ch, joker); `rack` is how many chips the mover holds; `layout`
    maps (r, c) to a premium (kind, factor).
    """
    squares = [sq for sq, _, _ in placements]
    if not squares:
        return RefResult(None, "empty")
    for ch in (ch for _, ch, _ in placements):
        if ch not in DIGITS + OPS:
            return RefResult(None, "face")
    if any(ch == "*" and joker for _, ch, joker in placements):
        return RefResult(None, "joker_mul")
    if len(set(squares)) != len(squares) or any(sq in board for sq in squares):
        return RefResult(None, "occupied")
    if any(not (0 <= r < HEIGHT and 0 <= c < WIDTH) for r, c in squares):
        return RefResult(None, "off_board")
    rows = {r for r, _ in squares}
    cols = {c for _, c in squares}
    if len(rows) > 1 and len(cols) > 1:
        return RefResult(None, "not_in_line")
    if len(rows) == 1:
        r = rows.pop()
        line = [(r, c) for c in range(min(cols), max(cols) + 1)]
    else:
        c = cols.pop()
        line = [(r, c) for r in range(min(rows), max(rows) + 1)]
    if any(sq not in board and sq not in squares for sq in line):
        return RefResult(None, "gap")
    if first:
        if START not in squares:
            return RefResult(None, "first_off_start")
    else:
        near = [
            (r + dr, c + dc) for r, c in squares for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
        ]
        if not any(sq in board for sq in near):
            return RefResult(None, "not_connected")
    if len(placements) > rack:
        return RefResult(None, "too_many")
    unseen = dict(CHIPS)
    for ch, joker in board.values():
        unseen["?" if joker else ch] -= 1
    for ch, joker in ((ch, joker) for _, ch, joker in placements):
        key = "?" if joker else ch
        unseen[key] = unseen.get(key, 0) - 1
        if unseen[key] < 0:
            return RefResult(None, "unavailable")

    cells = dict(board)
    for sq, ch, joker in placements:
        cells[sq] = (ch, joker)
    runs = _runs_through(cells, squares)
    if not runs:
        return RefResult(None, "no_calculation")
    parsed = []
    for run in runs:
        text = "".join(cells[sq][0] for sq in run)
        numbers = text[0::2]
        operators = text[1::2]
        if (
            len(text) % 2 == 0
            or any(ch not in DIGITS for ch in numbers)
            or any(ch not in OPS for ch in operators)
            or operators.count("*") > 1
        ):
            return RefResult(None, "malformed", len(runs))
        values = [int(ch) for ch in numbers]
        value = ref_value(values, operators, mul_first)
        if value is None or value.denominator != 1 or value <= 0:
            return RefResult(None, "face_value", len(runs))
        parsed.append((values, operators))

    # Premium squares covered now that do something, with the runs each lies on.
    premium_squares = []
    for sq, ch, joker in placements:
        if sq not in layout:
            continue
        kind, factor = layout[sq]
        if kind == "chip" and (joker or ch not in DIGITS):
            continue
        owners = [k for k in range(len(runs)) if sq in runs[k]]
        premium_squares.append((sq, kind, factor, owners))
    shared = sum(1 for p in premium_squares if len(p[3]) > 1)

    best = None
    for choice in itertools.product(*[p[3] for p in premium_squares]):
        total = 0
        for k, run in enumerate(runs):
            values, operators = parsed[k]
            values = list(values)
            mult = 1
            for (sq, kind, factor, _), owner in zip(premium_squares, choice):
                if owner != k:
                    continue
                if kind == "chip":
                    values[run.index(sq) // 2] *= factor
                else:
                    mult *= factor
            value = ref_value(values, operators, mul_first)
            if value is None or value.denominator != 1 or value <= 0:
                total = None
                break
            total += int(value) * mult
        if total is not None and (best is None or total > best):
            best = total
    if best is None:
        return RefResult(None, "premium", len(runs), shared)
    return RefResult(best, "legal", len(runs), shared)


def _index(sq):
    return sq[0] * WIDTH + sq[1]


def _code(ch, joker):
    return ord(ch) | 0x80 if joker else ord(ch)


def _neighbours(sq):
    r, c = sq
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        if 0 <= r + dr < HEIGHT and 0 <= c + dc < WIDTH:
            yield (r + dr, c + dc)


def _render(board, placements=()):
    new = {sq: (ch, j) for sq, ch, j in placements}
    lines = ["   ABCDEFGHIJKLMNO"]
    for r in range(HEIGHT):
        row = ""
        for c in range(WIDTH):
            if (r, c) in new:
                ch, j = new[(r, c)]
                row += "?" if j else {"*": "x", ":": "/"}.get(ch, ch)
            elif (r, c) in board:
                ch = board[(r, c)][0]
                row += {"*": "X", ":": "%", "+": "p", "-": "m"}.get(ch, ch)
            else:
                row += "."
        lines.append(f"{r + 1:2d} {row}")
    return "\n".join(lines)


def _pick_chip(rng, number):
    if number:
        ch = rng.choice("0123456789123456789")
    else:
        ch = rng.choice("+++++----**::")
    return ch, rng.random() < 0.08


def _number_cell(sq, phase):
    return (sq[0] + sq[1] + phase) % 2 == 0


def _phase_from(board, squares):
    """Checkerboard phase matching an existing chip next to or between `squares`."""
    for sq in squares:
        for n in [sq] + list(_neighbours(sq)):
            if n in board:
                return (n[0] + n[1] + (0 if board[n][0] in DIGITS else 1)) % 2
    return 0


def _fits(board, sq, dr, dc, phase):
    """Whether a chip on `sq` (laid along dr, dc) can be part of a valid cross run.

    On a board of valid runs a new chip with a neighbour across the line must be an
    operator between two numbers; a chip with no neighbour across makes no cross run.
    """
    a = (sq[0] - dc, sq[1] - dr)
    b = (sq[0] + dc, sq[1] + dr)
    if a not in board and b not in board:
        return True
    if a in board and b in board:
        return not _number_cell(sq, phase) and board[a][0] in DIGITS and board[b][0] in DIGITS
    return False


def _line_end(board, new, sq, dr, dc, sign):
    """The last chip of the move's line from `sq` outwards (sign -1 back, +1 forward)."""
    while True:
        nxt = (sq[0] + sign * dr, sq[1] + sign * dc)
        if nxt in board or nxt in new:
            sq = nxt
        else:
            return sq


def _is_number(board, sq, phase):
    return board[sq][0] in DIGITS if sq in board else _number_cell(sq, phase)


def _on_board(sq):
    return 0 <= sq[0] < HEIGHT and 0 <= sq[1] < WIDTH


def _grow(rng, board, target, dr, dc, phase, careful):
    """New squares of a line through `target`; `careful` steers towards valid runs."""
    new = [target]
    for sign in (-1, 1):
        sq = target
        for _ in range(rng.choice((0, 0, 1, 2, 3, 4, 6))):
            sq = (sq[0] + sign * dr, sq[1] + sign * dc)
            if not _on_board(sq):
                break
            if sq in board:
                continue
            if careful and not _fits(board, sq, dr, dc, phase):
                break
            new.append(sq)
    new.sort()
    limit = RACK + (rng.random() < 0.1)  # sometimes one chip more than a rack holds
    while len(new) > limit:
        new.pop(0 if rng.random() < 0.5 else -1)
    if not careful:
        return new
    extend_lone = rng.random() < 0.7
    # Make both ends of the move's line numbers: drop a new operator end, or add a number.
    for _ in range(6):
        changed = False
        for sign in (-1, 1):
            if not new:
                return new
            edge = new[0] if sign < 0 else new[-1]
            end = _line_end(board, set(new), edge, dr, dc, sign)
            if _is_number(board, end, phase):
                continue
            lone = end == _line_end(board, set(new), edge, dr, dc, -sign)
            if lone and not extend_lone:
                continue  # a lone operator may just bridge a gap across the line
            beyond = (end[0] + sign * dr, end[1] + sign * dc)
            if (
                _on_board(beyond)
                and beyond not in board
                and len(new) < limit
                and _number_cell(beyond, phase)
                and _fits(board, beyond, dr, dc, phase)
            ):
                new.append(beyond)
                new.sort()
                changed = True
            elif end == edge and not lone:
                new.remove(end)
                changed = True
        if not changed:
            break
    return new


def _joinable(board, sq, dr, dc):
    """Whether both line neighbours of an operator on `sq` (line along dr, dc) can be numbers."""
    for sign in (-1, 1):
        n = (sq[0] + sign * dr, sq[1] + sign * dc)
        if n in board:
            if board[n][0] not in DIGITS:
                return False
        elif (
            not _on_board(n) or (n[0] - dc, n[1] - dr) in board or (n[0] + dc, n[1] + dr) in board
        ):
            return False
    return True


def gen_candidate(rng, board, first):
    """A plausible move (list of placements) for the present board."""
    if first:
        across = rng.random() < 0.5
        n = rng.randint(1, 7)
        k = rng.randrange(n)
        line = [
            (START[0], START[1] - k + i) if across else (START[0] - k + i, START[1])
            for i in range(n)
        ]
        phase = 0 if rng.random() < 0.7 else 1
        if rng.random() < 0.05:
            line = [(r + across, c + (not across)) for r, c in line]  # off the start square
        return _fill(rng, line, phase, 0.04)
    empty_near = sorted({n for sq in board for n in _neighbours(sq) if n not in board})
    if rng.random() < 0.05:
        # Junk: a few chips anywhere near the others (shape rules, gaps, lines).
        cells = rng.sample(empty_near, min(len(empty_near), rng.randint(1, 3)))
        return _fill(rng, cells, rng.randrange(2), 0.2)
    # Gaps between two number chips: an operator there joins two runs.
    bridges = []
    for sq in empty_near:
        for dr, dc in ((0, 1), (1, 0)):
            a = (sq[0] - dr, sq[1] - dc)
            b = (sq[0] + dr, sq[1] + dc)
            if a in board and b in board and board[a][0] in DIGITS and board[b][0] in DIGITS:
                bridges.append((sq, dc, dr))  # the line laid across the gap
    phase = None
    if bridges and rng.random() < 0.7:
        # Prefer gaps where a line across can start and end on numbers: two runs at once.
        joinable = [(sq, dr, dc) for sq, dr, dc in bridges if _joinable(board, sq, dr, dc)]
        target, dr, dc = rng.choice(joinable if joinable and rng.random() < 0.8 else bridges)
        phase = (target[0] + target[1] + 1) % 2  # the target is an operator
        if rng.random() < 0.2:
            dr, dc = dc, dr  # lay along the gap: the bridge is the main run
    else:
        target = rng.choice(empty_near)
        along = [
            (dr, dc)
            for dr, dc in ((0, 1), (1, 0))
            if (target[0] - dr, target[1] - dc) in board
            or (target[0] + dr, target[1] + dc) in board
        ]
        if along and rng.random() < 0.8:
            dr, dc = rng.choice(along)
        else:
            dr, dc = rng.choice(((0, 1), (1, 0)))
    if phase is None:
        phase = _phase_from(board, [target])
    careful = rng.random() < 0.9
    if careful and not _fits(board, target, dr, dc, phase):
        dr, dc = dc, dr
        if not _fits(board, target, dr, dc, phase):
            return []
    new = _grow(rng, board, target, dr, dc, phase, careful)
    if rng.random() < 0.1:
        new = _distort(rng, board, new, dr, dc, empty_near)
    return _fill(rng, new, phase, 0.03)


def _distort(rng, board, new, dr, dc, empty_near):
    """Break the shape of a plausible move: a gap, a shifted line, a chip off the line, or
    two chips on one square."""
    kind = rng.randrange(4)
    if kind == 3 and new:
        return new + [rng.choice(new)]
    if kind == 0 and len(new) >= 3:
        return new[:1] + new[2:] if rng.random() < 0.5 else new[:-2] + new[-1:]
    if kind == 1:
        k = rng.choice((-3, -2, 2, 3))
        moved = [(r + k * dc, c + k * dr) for r, c in new]
        return [sq for sq in moved if _on_board(sq) and sq not in board]
    off = [sq for sq in empty_near if sq not in new]
    return new + rng.sample(off, 1) if off else new


def _fill(rng, cells, phase, noise):
    """Chips for `cells`: numbers and operators alternating on a checkerboard, some noise."""
    out = []
    for sq in cells:
        number = _number_cell(sq, phase)
        if rng.random() < noise:
            number = not number
        ch, joker = _pick_chip(rng, number)
        out.append((sq, ch, joker))
    return out


TRIES = 80  # candidate moves judged per game
MOVES = 25  # legal moves laid per game at most


class Harness:
    """A referee-mode game mirrored by the reference; `step()` tries one candidate.

    `dense` swaps the default layout for a random one with premiums on half the squares.
    """

    def __init__(self, seed, players, mul_first, dense=False):
        self.rng = random.Random(seed)
        self.mul_first = mul_first
        options = {"precedence": "mul_first" if mul_first else "standard"}
        profile = PROFILE
        self.layout = LAYOUT
        if dense:
            data = dict(DATA)
            data["layout"] = dense_rows(self.rng)
            profile = Profile(data)
            self.layout = read_layout(data["layout"])
            assert profile.premiums != PROFILE.premiums
        self.game = Game(profile, players, options)
        self.board = {}
        self.racks = [RACK] * players
        self.bag = sum(CHIPS.values()) - RACK * players
        self.to_move = 0
        self.players = players
        self.stats = {
            "checked": 0,
            "legal": 0,
            "cross": 0,
            "shared": 0,
            "premium_illegal": 0,
        }

    def step(self):
        placements = gen_candidate(self.rng, self.board, not self.board)
        if placements:
            self.play(placements)

    def play(self, placements):
        """Judge `placements` [((r, c), ch, joker)] both ways, compare, lay them if legal."""
        first = not self.board
        move = Move([(_index(sq), _code(ch, j)) for sq, ch, j in placements], WIDTH)
        got = self.game.check(move)
        rack = self.racks[self.to_move]
        want = ref_judge(self.board, placements, first, rack, self.mul_first, self.layout)
        mode = "mul_first" if self.mul_first else "standard"
        detail = (
            f"move {move} ({mode})\n{_render(self.board, placements)}\n"
            f"engine {got!r}, reference {want.why} {want.score!r}"
        )
        assert got.legal == (want.score is not None), detail
        if got.legal:
            assert got.score == want.score, detail
            assert got.score == sum(r.score for r in got.runs), detail
            assert len(got.runs) == want.runs, detail
        s = self.stats
        s["checked"] += 1
        s["premium_illegal"] += want.why == "premium"
        if got.legal:
            s["legal"] += 1
            s["cross"] += want.runs > 1
            s["shared"] += want.shared > 0
            self._commit(move, placements)
        return got, want

    def _commit(self, move, placements):
        self.game.push(move)
        for sq, ch, joker in placements:
            self.board[sq] = (ch, joker)
        p = self.to_move
        n = len(placements)
        drawn = min(n, self.bag)
        self.bag -= drawn
        self.racks[p] += drawn - n
        if not (self.bag == 0 and self.racks[p] == 0) and n != RACK:
            self.to_move = (p + 1) % self.players
        assert self.game.to_move == self.to_move
        assert self.game.rack_count(p) == self.racks[p]
        assert self.game.bag_count() == self.bag

    def run(self, tries, moves):
        for _ in range(tries):
            if self.game.over or self.stats["legal"] >= moves:
                break
            self.step()
        return self.stats


@PROPS
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.booleans())
def test_check_matches_reference_scorer(seed, players, mul_first):
    Harness(seed, players, mul_first).run(tries=TRIES, moves=MOVES)


@PROPS
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_check_matches_reference_on_dense_premium_layout(seed, mul_first):
    """Premiums on half the squares: shared squares and premium-invalid runs are common."""
    Harness(seed, 2, mul_first, dense=True).run(tries=TRIES, moves=MOVES)


def _coverage(dense):
    total = {}
    for seed in range(30):
        stats = Harness(seed, 2, seed % 2 == 1, dense).run(tries=TRIES, moves=MOVES)
        for key, value in stats.items():
            total[key] = total.get(key, 0) + value
    return total


def test_generator_reaches_dense_positions():
    """Guard for the generator: many legal moves, often with cross runs."""
    total = _coverage(False)
    assert total["legal"] >= 250, total
    assert total["cross"] >= 8, total


def test_generator_reaches_shared_premiums():
    """Guard: on the dense layout squares shared by two runs, and premium-invalid moves."""
    total = _coverage(True)
    assert total["shared"] >= 6, total
    assert total["premium_illegal"] >= 5, total


# A position where one move makes two runs through a premium square (0-based (row, col)).
# Row 8 E8-K8, columns E and K up to row 2, row 2 grown inwards to G2 and I2: laying
# H1, H2, H3 (and maybe H4, H5) down column H joins E2-G2 and I2-K2 into one run across
# through H2, the yellow square, which belongs to that run and to column H's run.
_JOIN_SCAFFOLD = (
    [(7, c) for c in range(4, 11)],
    [(r, 4) for r in range(6, 0, -1)],
    [(r, 10) for r in range(6, 0, -1)],
    [(1, 5), (1, 6)],
    [(1, 9), (1, 8)],
)


@PROPS
@given(st.data(), st.booleans(), st.booleans())
def test_join_move_shares_a_premium_square(data, mul_first, dense):
    """Two runs through one new premium square: it must apply to exactly one of them."""
    seed = data.draw(st.integers(0, 2**32 - 1)) if dense else 0
    h = Harness(seed, 2, mul_first, dense=dense)
    digit = st.sampled_from("123456789")
    count = 0
    for k, squares in enumerate(_JOIN_SCAFFOLD):
        ops = iter(["*", "+", "+"] if k == 0 else ["+"] * 3)
        placements = []
        for r, c in squares:
            if (r + c) % 2 == 1:
                # Spread the digits so the chip set (six of each) rarely runs short.
                count += 1
                ch = str(1 + (data.draw(st.integers(0, 8)) + count) % 9)
            else:
                ch = next(ops)
            placements.append(((r, c), ch, False))
        got, _ = h.play(placements)
        assume(V.CHIP_UNAVAILABLE not in got.codes())
        assert got.legal, _render(h.board, placements)
    length = data.draw(st.sampled_from((3, 3, 5)))
    placements = []
    for r in range(length):
        number = r % 2 == 0
        ch = data.draw(digit if number else st.sampled_from(OPS))
        joker = data.draw(st.booleans()) and ch != "*"
        placements.append(((r, 7), ch, joker))
    got, want = h.play(placements)
    if got.legal:
        assert len(got.runs) == 2
        if not dense:
            assert want.shared == 1  # H2 (yellow) lies on both runs


def test_reference_agrees_on_rulebook_example():
    """The acceptance game of RULES.md, through both the engine and the reference."""
    game = Game(PROFILE, 2)
    board = {}
    moves = [
        ("D8:9 E8:+ F8:6 G8:÷ H8:2", 48),
        ("H6:4 H7:− H9:+ H10:3", 12),
        ("F6:3 G6:× I6:− J6:1", 33),
        ("D10:6 E10:+ F10:4 G10:− I10:+ J10:5", 38),
        ("J7:× J8:7 J9:+", 19),
    ]
    for text, score in moves:
        move = game.move(text)
        placements = [
            ((i // WIDTH, i % WIDTH), chr(code & 0x7F), bool(code & 0x80))
            for i, code in move.placements
        ]
        assert ref_judge(board, placements, not board, RACK, False).score == score
        assert game.push(move).score == score
        for sq, ch, joker in placements:
            board[sq] = (ch, joker)


def test_covered_premium_is_spent():
    """Green F10 doubles its 1 when laid, and is plain for the later move through it."""
    game = Game(PROFILE, 2)
    assert game.push(game.move("F8:6 G8:+ H8:2")).score == 28  # (12 + 2) × 2 (logo)
    assert game.push(game.move("F9:+ F10:1")).score == 8  # 6 + 2: F8 is spent, F10 green
    verdict = game.check(game.move("G10:+ H10:4"))  # 1 + 8: F10 spent, H10 green
    assert verdict.legal and verdict.score == 9
    board = {
        (7, 5): ("6", False),
        (7, 6): ("+", False),
        (7, 7): ("2", False),
        (8, 5): ("+", False),
        (9, 5): ("1", False),
    }
    placements = [((9, 6), "+", False), ((9, 7), "4", False)]
    assert ref_judge(board, placements, False, RACK, False).score == 9


def _join_position(row2, harness):
    """Lay the join scaffold; `row2` gives the digits of E2, G2, I2, K2."""
    e2, g2, i2, k2 = row2
    moves = [
        "E8:2 F8:× G8:3 H8:+ I8:4 J8:+ K8:5",
        f"E7:+ E6:2 E5:+ E4:3 E3:+ E2:{e2}",
        f"K7:+ K6:2 K5:+ K4:3 K3:+ K2:{k2}",
        f"F2:+ G2:{g2}",
        f"J2:+ I2:{i2}",
    ]
    for text in moves:
        move = Move.parse(text, WIDTH, HEIGHT)
        placements = [((i // WIDTH, i % WIDTH), chr(c & 0x7F), False) for i, c in move]
        assert harness.play(placements)[0].legal, text


def test_shared_yellow_square_goes_to_the_better_run():
    """H2 (yellow ×2) lies on column H's new run and on row 2's: one of them gets it."""
    h = Harness(0, 2, False)
    _join_position("1111", h)
    got, want = h.play([((0, 7), "9", False), ((1, 7), "+", False), ((2, 7), "8", False)])
    # column H 9 + 8 = 17, row 2 1 + 1 + 1 + 1 = 4: the ×2 goes to the column.
    assert got.score == want.score == 17 * 2 + 4
    assert want.shared == 1
    h = Harness(0, 2, False)
    _join_position("9876", h)
    got, want = h.play([((0, 7), "1", False), ((1, 7), "+", False), ((2, 7), "2", False)])
    # column H 1 + 2 = 3, row 2 9 + 8 + 7 + 6 = 30: the ×2 goes to the row.
    assert got.score == want.score == 3 + 30 * 2


def test_illegal_when_no_premium_assignment_is_integral():
    """RULES.md: `9 ÷ 3` with the 3 new on a green square is illegal (9 ÷ 6)."""
    game = Game(PROFILE, 2)
    verdict = game.check(game.move("H8:9 I8:÷ J8:3"))
    assert not verdict.legal
    assert verdict.codes() == [V.PREMIUM_INVALID]
    placements = [((7, 7), "9", False), ((7, 8), ":", False), ((7, 9), "3", False)]
    assert ref_judge({}, placements, True, RACK, False).why == "premium"


# ----- 3. jokers -------------------------------------------------------------------------


def test_joker_parse_form():
    move = Move.parse("J8:?7", 15, 15)
    assert move.placements == ((7 * 15 + 9, ord("7") | 0x80),)
    assert str(move) == "J8:?7"


def test_joker_on_green_square_is_not_doubled():
    game = Game(PROFILE, 2)
    plain = game.check(game.move("D8:9 E8:+ F8:6 G8:÷ H8:2"))
    joker = game.check(game.move("D8:?9 E8:+ F8:6 G8:÷ H8:2"))
    assert plain.score == 48  # (18 + 12 ÷ 2) × 2
    assert joker.score == 30  # (9 + 12 ÷ 2) × 2


def test_run_premium_under_a_joker_still_multiplies():
    game = Game(PROFILE, 2)
    assert game.check(game.move("F8:6 G8:÷ H8:2")).score == 12  # 12 ÷ 2 = 6, logo ×2
    assert game.check(game.move("F8:6 G8:÷ H8:?2")).score == 12
    assert game.check(game.move("F8:?6 G8:÷ H8:?2")).score == 6  # 6 ÷ 2 = 3, logo ×2
    assert game.check(game.move("F8:6 G8:?÷ H8:?2")).score == 12


def test_joker_may_not_stand_for_multiplication():
    game = Game(PROFILE, 2)
    verdict = game.check(game.move("G8:3 H8:?× I8:2"))
    assert not verdict.legal
    assert V.JOKER_AS_MULTIPLICATION in verdict.codes()


@PROPS
@given(st.data(), st.sampled_from((3, 5, 7)), st.booleans())
def test_first_move_with_jokers_matches_reference(data, length, mul_first):
    """First moves across row 8 over green squares and the logo, jokers anywhere."""
    start = data.draw(st.integers(START[1] + 1 - length, START[1]))
    placements = []
    for k in range(length):
        ch = data.draw(st.sampled_from(DIGITS if k % 2 == 0 else "+-*:"))
        joker = data.draw(st.booleans()) and ch != "*"
        placements.append(((START[0], start + k), ch, joker))
    options = {"precedence": "mul_first" if mul_first else "standard"}
    game = Game(PROFILE, 2, options)
    move = Move([(_index(sq), _code(ch, j)) for sq, ch, j in placements], WIDTH)
    got = game.check(move)
    want = ref_judge({}, placements, True, RACK, mul_first)
    assert got.legal == (want.score is not None), (str(move), got, want.why)
    if got.legal:
        assert got.score == want.score, str(move)


# ----- 4. round trips --------------------------------------------------------------------

_face = st.tuples(st.sampled_from(list(DIGITS + OPS)), st.booleans())


@st.composite
def moves(draw):
    squares = draw(st.lists(st.integers(0, 224), min_size=1, max_size=7, unique=True))
    chips = draw(st.lists(_face, min_size=len(squares), max_size=len(squares)))
    return Move([(i, _code(ch, j)) for i, (ch, j) in zip(squares, chips)], 15)


@PROPS
@given(moves(), st.randoms(use_true_random=False))
def test_move_text_round_trip(move, rnd):
    again = Move.parse(str(move), 15, 15)
    assert again == move
    assert hash(again) == hash(move)
    tokens = str(move).split()
    rnd.shuffle(tokens)
    shuffled = Move.parse(" ".join(tokens), 15, 15)
    assert shuffled == move and hash(shuffled) == hash(move)
    assert Move.from_pairs(move.pairs(), 15, 15) == move
    assert Move.from_bytes(move.to_bytes(), 15) == move
    assert len(move.to_bytes()) == 3 * len(move)


def _xorshift32(seed, count):
    """An independent xorshift32 (13, 17, 5) with the engine's seed folding."""
    mask = (1 << 32) - 1
    x = (seed & mask) ^ 0x9E3779B9 or 1
    out = []
    for _ in range(count):
        x = (x ^ (x << 13)) & mask
        x ^= x >> 17
        x = (x ^ (x << 5)) & mask
        out.append(x)
    return out


@PROPS
@given(st.integers(0, 2**40), st.integers(1, 2**32))
def test_prng_is_deterministic_and_in_range(seed, n):
    a = Prng(seed)
    b = Prng(seed)
    first = [a.next32() for _ in range(20)]
    assert first == [b.next32() for _ in range(20)]
    assert first == _xorshift32(seed, 20)
    assert all(0 < x < 2**32 for x in first)
    draws = [a.below(n) for _ in range(20)]
    assert draws == [b.below(n) for _ in range(20)]
    assert all(0 <= x < n for x in draws)
    items = list(range(12))
    Prng(seed).shuffle(items)
    assert sorted(items) == list(range(12))
