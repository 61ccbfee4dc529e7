"""engine/movegen.py against the brute-force oracle tests/movegen_brute.py (CPython only).

Each position is `tests.engine.test_movegen.position(game, seed, turns, size, jokers)`:
seeded play, then a fresh rack drawn from the chips not on the board. Calculissimo racks
hold seven chips with 0, 1 or 2 jokers in turn; Cal-Q-Able racks hold four or five tiles,
since the oracle is exponential in the rack.

The count per game is MOVEGEN_POSITIONS (default 40: about a minute in all). The issue's
thousand per game is a run of its own:

    MOVEGEN_POSITIONS=1000 .venv/bin/python -m pytest -q tests/test_movegen_brute.py
    .venv/bin/python -m tests.test_movegen_brute calculissimo 1 1000   # a seed range
"""

import os
import sys
import time

import pytest

from engine import movegen
from engine.game import Game
from engine.profile import Profile
from engine.search import Search
from tests import movegen_brute
from tests.engine.fixtures import profile_data
from tests.engine.test_movegen import position
from tools import benchset
from tools.positions import lay_out

COUNT = int(os.environ.get("MOVEGEN_POSITIONS", "40"))


def make(game, seed):
    """The seed-th test position of a game."""
    if game == "calculissimo":
        return position(game, seed, seed % 17, 7, seed % 3)
    return position(game, seed, seed % 9, 4 + seed % 2)


def compare(game, seed):
    """(moves, problems) for one position: the generator's moves against the oracle's."""
    want, problems = against_oracle(make(game, seed))
    return len(want), problems


def against_oracle(g):
    """(the oracle's moves, problems) for the position of game g."""
    got = {}
    problems = []
    for move, score in movegen.scored(g):
        if move in got:
            problems.append("twice: %s" % move)
        got[move] = score
    want = movegen_brute.legal_moves(g)
    for move in want:
        if got.get(move) != want[move]:
            problems.append("%s: generator %r, brute force %r" % (move, got.get(move), want[move]))
    for move, score in got.items():
        if move not in want:
            problems.append("%s: generated (%r), not legal" % (move, score))
    # The bound (best()) and the whole anytime search (engine/search.py's phases and
    # passes) must keep the best score the brute force finds.
    top = max(want.values()) if want else None
    for name, (move, score) in (("best()", movegen.best(g)), ("search", Search(g).run())):
        if score != top or (move is not None and want.get(move) != score):
            problems.append("%s: %s %r, brute force's best %r" % (name, move, score, top))
    return want, problems


@pytest.mark.parametrize("game", ["calculissimo", "calqable"])
def test_generator_agrees_with_brute_force(game):
    bad = []
    for seed in range(1, COUNT + 1):
        _, problems = compare(game, seed)
        if problems:
            bad.append("seed %d: %s" % (seed, "; ".join(problems[:3])))
    assert not bad, "\n".join(bad[:10])


def test_a_run_between_board_tiles_is_solved_for():
    """A long side's longest run, when it is not its last, is solved for (`heads`) with
    what follows it built: on row 10 of the set's Cal-Q-Able position 12 (`2`, `7` and `1`
    on the board at H10, J10, L10), `42+7×1=49` has the run `42` before two shorter ones.
    Every move for a rack of five agrees with the brute force, that one among them."""
    entry = [e for e in benchset.load() if e["game"] == "calqable"][12]
    g = benchset.game_of(entry)
    g.racks[g.to_move] = ["4", "+", "*", "4", "9"]
    want, problems = against_oracle(g)
    assert not problems, "; ".join(problems[:3])
    assert g.move("G10:4 I10:+ K10:× M10:= N10:4 O10:9") in want


def test_a_side_stops_short_of_a_run_with_another_equals():
    """The main equation holds one `=`, so a side may not take in a run of tiles on the
    board that holds another: the Cal-Q-Able generator starts left sides after such a run
    and ends right sides before it. On row 8, `1+2=3` (A8-E8), a `7` at I8 and `4=4`
    (M8-O8): `7=7` laid on G8-H8 starts just after the square that parts it from `1+2=3`,
    and on J8-K8 ends just before the one that parts it from `4=4`; `5+7=12` on G8-L8
    would fill that square and is not a move. Every move for a rack of five agrees with the
    brute force."""
    row = {"A8": "1", "B8": "+", "C8": "2", "D8": "=", "E8": "3", "I8": "7"}
    row.update({"M8": "4", "N8": "=", "O8": "4"})
    g = lay_out(Game(Profile(profile_data("calqable")), 2, seed=3), row)
    g.racks[g.to_move] = ["1", "2", "5", "+", "7"]
    want, problems = against_oracle(g)
    assert not problems, "; ".join(problems[:3])
    assert g.move("G8:7 H8:=") in want
    assert g.move("J8:= K8:7") in want
    assert g.move("G8:5 H8:+ J8:= K8:1 L8:2") not in want


def test_premiums_of_any_factor_keep_the_faces_apart():
    """A maker's profile may give a premium any factor from 2 to 15 (engine/profile.py).
    The Cal-Q-Able generator shares its tables of faces between squares alike, so a `3` on
    a tile x5 square must stay apart from a `4` on a plain one. The default layout with its
    factors raised (tiles x5 and x13, equations x7 and x15), on the set's first 6 positions
    with a rack of five: every move agrees with the brute force."""
    data = profile_data("calqable")
    for letter, factor in (("o", 5), ("y", 13), ("b", 7), ("g", 15)):
        data["legend"][letter]["factor"] = factor
    profile = Profile(data)
    entries = [e for e in benchset.load() if e["game"] == "calqable"][:6]
    moves = 0
    for entry in entries:
        g = lay_out(Game(profile, 2, seed=entry["seed"]), entry["board"])
        g.racks[g.to_move] = ["3", "4", "+", "7", "1"]
        want, problems = against_oracle(g)
        assert not problems, "; ".join(problems[:3])
        moves += len(want)
    assert moves > 100, moves


def main(argv):
    game, first, last = argv[0], int(argv[1]), int(argv[2])
    t0 = time.time()
    moves = 0
    bad = 0
    for seed in range(first, last + 1):
        n, problems = compare(game, seed)
        moves += n
        if problems:
            bad += 1
            print("seed %d: %s" % (seed, "; ".join(problems[:3])), flush=True)
    print(
        "%s seeds %d-%d: %d positions, %d legal moves, %d disagreeing, %.0f s"
        % (game, first, last, last - first + 1, moves, bad, time.time() - t0)
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
