"""The Cal-Q-Able positions of tools/positions.py that `make bench` measures, scored by hand.
Runs on CPython and on MicroPython.

Tile values in the default profile (hardware/profiles/calqable.json): 0:3 1:1 2:1 3:2 4:2
5:2 6:2 7:4 8:3 9:4, + 1, - 2, × 3, ÷ 4, / 8, = 1. Premiums under the new tiles: D6 and L6
green (equation ×3), F6 and N6 yellow (tile ×3); D5, D7-D9 none.
"""

import engine.calqable  # noqa: F401  (registers the ruleset)
from engine import equation
from engine.game import Game
from engine.profile import Profile
from tests.engine.checks import eq
from tests.engine.fixtures import profile_data
from tools import positions

_PROFILE = []


def calqable():
    if not _PROFILE:
        _PROFILE.append(Profile(profile_data("calqable")))
    return _PROFILE[0]


def dense():
    return positions.calqable_dense_game(Game(calqable(), 2))


def test_every_run_on_the_dense_board_is_a_true_equation():
    g = dense()
    cells = g.board.cells
    w = g.profile.width
    runs = []
    for i in range(len(cells)):
        if cells[i]:
            for step in (1, w):
                run = g.board.run_through(i, step)
                if run is not None and run.start == i:
                    text = bytes([cells[k] for k in run.indices()]).decode()
                    runs.append((run.name, equation.check(text)))
    eq(len(runs), 13)  # 8 down, 5 across
    eq([r for r in runs if r[1] is not None], [])
    eq(g.board.chip_count(), 55)


def test_the_dense_move_is_legal_and_scores_588():
    g = dense()
    v = g.check(g.move(positions.CALQABLE_DENSE_MOVE))
    eq(v.legal, True)
    # C6-N6 7452/6=9×138: 4+2+2+1×3 (yellow F6)+8+2+1+4+3+1+2+3×3 (yellow N6) = 41,
    #   × 3 (green D6) × 3 (green L6) = 369
    # D6-D13 45×0=6-6: 2+2+3+3+1+2+2+2 = 17, × 3 (green D6) = 51
    # F6-F13 22×0+6=6: 1×3 (yellow F6)+1+3+3+1+2+1+2 = 16
    # G1-G7 3+6=9/1: 2+1+2+1+4+8+1 = 19
    # I5-I7 3=3: 2+1+2 = 5
    # K5-K11 1×7+2=9: 1+3+4+1+1+1+4 = 15
    # L1-L6 0=0÷21: 3+1+3+4+1+1 = 13, × 3 (green L6) = 39
    # N6-N14 824×0+5=5: 3×3 (yellow N6)+1+2+3+3+1+2+1+2 = 24
    # 369+51+16+19+5+15+39+24 = 538, +50 for all nine rack tiles = 588
    eq(
        [(r.name, r.text, r.score) for r in v.runs],
        [
            ("C6-N6", "7452/6=9×138", 369),
            ("D6-D13", "45×0=6-6", 51),
            ("F6-F13", "22×0+6=6", 16),
            ("G1-G7", "3+6=9/1", 19),
            ("I5-I7", "3=3", 5),
            ("K5-K11", "1×7+2=9", 15),
            ("L1-L6", "0=0÷21", 39),
            ("N6-N14", "824×0+5=5", 24),
        ],
    )
    eq(v.bonus, 50)
    eq(v.score, 588)


def test_the_replacement_is_legal_and_scores_74():
    board, text = positions.CALQABLE_REPLACE
    g = positions.lay_out(Game(calqable(), 2), board)
    v, removed = g.check_replace(g.move(text))
    eq(v.legal, True)
    eq(len(removed), 3)  # the 5 × 0 on D7-D9
    # D5-D13 8-2×4=6-6: 3+2+1+3+2+1+2+2+2 = 18, × 3 (the - on green D6) = 54, +20 = 74
    eq([(r.name, r.text, r.score) for r in v.runs], [("D5-D13", "8-2×4=6-6", 54)])
    eq(v.bonus, 20)
    eq(v.score, 74)
