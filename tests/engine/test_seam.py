"""The ruleset seam: a different game plugs in without touching board, placement or turns.

A toy game, defined here only: every run is `digit = digit` with equal digits and scores
the sum of its digits, doubled by run premiums; a joker may stand for a digit or `=`.
It brings its own alphabet (`=`), validity and scoring, and the unchanged Game referees it.
"""

from engine import verdict as V
from engine.game import Game
from engine.profile import RUN, Profile
from engine.rules import Ruleset, register
from tests.engine.checks import eq
from tests.engine.fixtures import profile_data


@register
class Mirror(Ruleset):
    name = "mirror"
    alphabet = "0123456789="

    def face_reasons(self, move):
        return [
            V.Reason(V.BAD_FACE) for _, c in move.placements if chr(c & 0x7F) not in "0123456789="
        ]

    def score_runs(self, board, runs, new):
        reasons = []
        scores = []
        total = 0
        for run in runs:
            codes = bytes([board.cells[i] for i in run.indices()])
            text = codes.decode()
            if len(text) != 3 or text[1] != "=" or text[0] != text[2] or text[0] == "=":
                reasons.append(V.Reason(V.MALFORMED, run=run.name, where=run.indices()))
                continue
            mult = 1
            for i in run.indices():
                p = self.profile.premiums[i]
                if p and i in new and self.profile.kinds[p] == RUN:
                    mult *= self.profile.factors[p]
            value = 2 * (ord(text[0]) - 48)
            scores.append(V.RunScore(run, codes, value, value, mult))
            total += value * mult
        return (reasons, [], 0) if reasons else ([], scores, total)


def mirror_game(players=2):
    data = profile_data()
    data["game"] = "mirror"
    data["chips"] = {"1": 10, "2": 10, "7": 10, "=": 20}
    return Game(Profile(data), players)


def test_another_game_plugs_in():
    g = mirror_game()
    eq(g.rules.name, "mirror")
    v = g.play(g.move("G8:7 H8:= I8:7"))  # covers the logo (run ×2): (7 + 7) × 2
    eq((v.legal, v.score, v.runs[0].text), (True, 28, "7=7"))
    # Down column H through the `=` already laid: 2 = 2 is a run of this game, "==1" is not.
    eq(g.check(g.move("H7:2 H9:2")).score, 4)
    eq(g.check(g.move("H9:= H10:1")).codes(), ["malformed"])
    eq(g.check(g.move("J8:1")).codes(), ["malformed"])  # 7=71 is no mirror
    eq(g.check(g.move("J8:+")).codes(), ["bad_face"])  # not a face of this game
    # The board's own shape rules still hold: no gap, connected.
    eq(g.check(g.move("H6:2 H9:2")).codes(), ["gap"])
    eq(g.check(g.move("A1:1 A2:= A3:1")).codes(), ["not_connected"])


def test_the_same_turn_code_referees_it():
    g = mirror_game(3)
    g.play(g.move("G8:7 H8:= I8:7"))
    eq((g.to_move, g.rack_count(0), g.bag_count()), (1, 7, 50 - 21 - 3))
    g.pass_turn()
    g.pass_turn()
    g.pass_turn()
    eq(g.over, True)
