"""engine/calqable_replace.py: Cal-Q-Able's rule-5 replacements agree with Game.check_replace.

`brute` below is the oracle, written apart from the generator: for every `=` on the board
and both directions, every choice of squares before it (those its old left side holds and
the empty ones, the square next to the `=` always among them) and every ordered choice of
rack faces and open-supply faces for them, judged by Game.check_replace. It is exponential
in the rack: racks of three to five tiles. tests/test_calqable_replace_brute.py runs it on
the hundred Cal-Q-Able boards of the benchmark set (CPython only); here a few boards, so
that the agreement is also seen on MicroPython.
"""

import engine.calqable  # noqa: F401  (registers the ruleset)
from engine import calqable_replace, faces
from engine.game import Game
from tests.engine.checks import eq
from tests.engine.test_movegen import _fill, position, profile_for
from tools.positions import lay_out

MPY_FUEL = 60_000_000_000

_EQUALS = ord(faces.EQUALS)


def brute(game, rack=None):
    """{move: score} of every rule-5 replacement Game.check_replace calls legal for the
    player to move holding `rack` (default: their known rack)."""
    if rack is None:
        rack = game.racks[game.to_move]
    pool = list(rack) + list(game.rules.open_faces)

    def judge(move):
        return game.check_replace(move)[0]

    cells = game.board.cells
    w = game.board.width
    found = {}
    for at in range(len(cells)):
        if cells[at] & faces.FACE_MASK != _EQUALS:
            continue
        for step in (1, w):
            # the old left side: the tiles right before the `=`, nearest first
            old = []
            i = at - step
            while i >= 0 and (step == w or i // w == at // w) and cells[i]:
                old.append(i)
                i -= step
            squares = []
            i = at - step
            while i >= 0 and (step == w or i // w == at // w):
                if not cells[i] or i in old:
                    squares.append(i)
                    if len(squares) > len(pool):
                        break
                    _fill(game, pool, sorted(squares), [], found, judge)
                i -= step
    return found


def generated(game, rack=None):
    """{move: score} from the generator; a move given twice fails."""
    got = {}
    for move, score in calqable_replace.replacements(game, rack):
        assert move not in got, "generated twice: " + str(move)
        got[move] = score
    return got


def agree(game, rack=None):
    """The generator against `brute`; returns the number of replacements."""
    got = generated(game, rack)
    want = brute(game, rack)
    for move in want:
        eq(got.get(move), want[move], "missed or misscored: " + str(move))
    for move, score in got.items():
        eq(want.get(move), score, "not legal: " + str(move))
    return len(got)


def _board():
    """A Cal-Q-Able game with `3+4=7` across row 8 (the `=` on K8); each test sets the
    mover's rack."""
    game = Game(profile_for("calqable"), 2, seed=5)
    return lay_out(game, {"H8": "3", "I8": "+", "J8": "4", "K8": "=", "L8": "7"})


def test_one_tile_replaces_a_left_side():
    game = _board()
    game.racks[game.to_move] = ["7", "1", "1"]
    got = generated(game)
    move = game.move("J8:7")
    verdict, removed = game.check_replace(move)
    assert verdict.legal
    eq(len(removed), 3)
    eq(got.get(move), verdict.score)
    assert verdict.bonus >= game.rules.replacement_bonus
    eq(agree(game), len(got))


def test_a_longer_left_side_and_the_bonus():
    game = _board()
    game.racks[game.to_move] = ["2", "*", "3", "+", "1"]
    got = generated(game)
    move = game.move("F8:2 G8:* H8:3 I8:+ J8:1")  # 2 × 3 + 1 = 7
    assert move in got, sorted(str(m) for m in got)
    eq(got[move], game.check_replace(move)[0].score)
    eq(agree(game), len(got))


def test_no_replacement_without_rule_5_or_a_left_side():
    game = Game(profile_for("calculissimo"), 2, seed=1)
    game.racks[0] = ["9", "+", "6"]
    eq(generated(game), {})
    game = Game(profile_for("calqable"), 2, seed=5)  # an empty board: no `=`
    eq(generated(game), {})


def test_agrees_with_brute_force():
    n = 0
    for seed in range(1, 4):
        game = position("calqable", seed, 2 + seed, 3)
        n += agree(game)
    assert n > 0  # (3 when written: seeds 2 and 3)


def test_the_floor_leaves_out_only_lower_scores():
    game = _board()
    game.racks[game.to_move] = ["2", "*", "3", "+", "1", "7"]
    every = generated(game)
    top = max(every.values())
    above = dict(calqable_replace.replacements(game, floor=top - 1))
    for move, score in above.items():
        eq(every.get(move), score)
    assert any(score == top for score in above.values())
