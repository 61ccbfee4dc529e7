"""Cal-Q-Able on the engine: hand-worked examples of every rule, legal and illegal (RULES.md,
"Cal-Q-Able"; default profile hardware/profiles/calqable.json). Runs on CPython and on
MicroPython.

Tile values in the default profile: 0:3 1:1 2:1 3:2 4:2 5:2 6:2 7:4 8:3 9:4, + 1, - 2, × 3,
÷ 4, / 8, = 1. Premiums used here: H5 orange (tile ×2), E8 K8 orange, F4 J4 green
(equation ×3), B12 blue (×2), F12 green, H11 orange, D10 green.
"""

import json

import engine.calqable  # noqa: F401  (registers the ruleset)
from engine.errors import GameStateError
from engine.game import Game
from engine.profile import Profile
from tests.engine.checks import eq, raises
from tests.engine.fixtures import REPO, profile_data
from tools.positions import lay_out

_PROFILE = []


def calqable():
    if not _PROFILE:
        _PROFILE.append(Profile(profile_data("calqable")))
    return _PROFILE[0]


def new(players=2, options=None, seed=None):
    return Game(calqable(), players, options, seed)


def play(game, text):
    return game.play(game.move(text))


def codes(verdict):
    return verdict.codes()


# ----- equations on the board -----------------------------------------------------------------


def test_first_equation_covers_the_logo_and_scores_tile_values():
    g = new()
    v = play(g, "H4:9 H5:- H6:1 H7:= H8:8")  # 9 - 1 = 8, the - on orange H5
    eq(v.score, 4 + 2 * 2 + 1 + 1 + 3)
    eq(g.scores, [13, 0])
    off = new()
    eq(codes(play(off, "H2:9 H3:- H4:1 H5:= H6:8")), ["first_move_off_start"])


def test_two_green_squares_multiply_by_nine():
    g = new()
    play(g, "H4:9 H5:- H6:1 H7:= H8:8")
    v = play(g, "F4:3 G4:× I4:= J4:2 K4:7")  # 3 × 9 = 27 through the old 9
    eq(v.score, (2 + 3 + 4 + 1 + 1 + 4) * 3 * 3)
    eq(v.runs[0].multiplier, 9)


def test_blue_and_green_multiply_by_six():
    g = new()
    play(g, "H8:7 H9:= H10:3 H11:+ H12:4")  # 7 = 3 + 4, the + on orange H11
    eq(g.scores[0], 4 + 1 + 2 + 1 * 2 + 2)
    v = play(g, "B12:1 C12:6 D12:= E12:1 F12:2 G12:+")  # 16 = 12 + 4 onto the old 4
    eq(v.score, (1 + 2 + 1 + 1 + 1 + 1 + 2) * 2 * 3)


def test_fractions_and_multi_digit_numbers():
    g = new()
    v = play(g, "D8:1 E8:2 F8:÷ G8:5 H8:= I8:2 J8:+ K8:2 L8:/ M8:5")  # 12 ÷ 5 = 2 + 2/5
    # 1 2 ÷ 5 = 2 + 2 / 5: 1+1+4+2+1+1+1+1+8+2 = 22, the 2s on orange E8 and K8 +1 each;
    # nine rack tiles (the = comes from the face-up supply): +50.
    eq(v.score, 24 + 50)
    g = new()
    v = play(g, "D8:1 E8:2 F8:/ G8:5 H8:= I8:2 J8:4 K8:/ L8:1 M8:0")  # 12/5 = 24/10
    eq(v.legal, True)
    eq(v.bonus, 50)


def test_false_and_malformed_equations_are_refused():
    g = new()
    eq(codes(play(g, "G8:3 H8:= I8:4")), ["not_equal"])
    eq(codes(play(g, "G8:3 H8:+ I8:4")), ["no_equals"])
    eq(codes(play(g, "F8:3 G8:= H8:3 I8:= J8:3")), ["two_equals"])
    eq(codes(play(g, "F8:0 G8:7 H8:= I8:7")), ["leading_zero"])
    eq(codes(play(g, "F8:4 G8:÷ H8:0 I8:= J8:1")), ["division_by_zero"])
    eq(codes(play(g, "G8:+ H8:= I8:3")), ["malformed"])
    eq(g.turns, 0)


def test_every_run_a_new_tile_touches_must_be_an_equation():
    g = new()
    play(g, "H4:9 H5:- H6:1 H7:= H8:8")
    play(g, "F4:3 G4:× I4:= J4:2 K4:7")  # 3 × 9 = 27 across row 4
    # 4 - 1 = 3 across row 5 through the old − is true, but each new tile also meets row 4:
    # G4-G5 "×4" and K4-K5 "73" have no =, I4-I5 "=1" and J4-J5 "2=" are malformed.
    v = play(g, "G5:4 I5:1 J5:= K5:3")
    eq(codes(v), ["no_equals", "malformed", "malformed", "no_equals"])
    eq([r.run for r in v.reasons], ["G4-G5", "I4-I5", "J4-J5", "K4-K5"])


def test_a_later_equation_must_use_a_tile_on_the_board():
    g2 = new()
    play(g2, "H6:2 H7:= H8:2")
    lay_out(g2, {"F7": "2", "F8": "="})
    # 2=2 across row 9 also completes 2=2 down columns F and H: every run is true, but the
    # new equation uses no tile of the board, it only touches them through cross runs.
    v = g2.check(g2.move("F9:2 G9:= H9:2"))
    eq(codes(v), ["not_crossing"])
    eq(v.reasons[0].run, "F9-H9")
    lay_out(g2, {"E9": "2", "D9": "1"})  # now row 9 holds a tile already on the board
    v = g2.check(g2.move("F9:2 G9:= H9:2"))  # judged as usual: 122=2, and 2=22 down H
    eq([(r.code, r.run) for r in v.reasons], [("not_equal", "D9-H9"), ("not_equal", "H6-H9")])


def test_no_jokers_in_cal_q_able():
    g = new()
    eq(codes(g.check(g.move("G8:?1 H8:= I8:1"))), ["bad_face"])


def test_the_equals_tiles_come_from_the_open_supply():
    g = new(2)
    eq(g.bag_count(), 109 - 22 - 2 * 9)  # the 22 = tiles never go in the bag
    play(g, "H4:9 H5:- H6:1 H7:= H8:8")
    eq(g.rack_count(0), 9)  # four rack tiles drawn again, not five
    eq(g.bag_count(), 69 - 4)
    eq(g.unseen["="], 21)
    short = new(2, {"equals": 1})  # rule 14: a shorter game
    play(short, "H4:9 H5:- H6:1 H7:= H8:8")
    eq(codes(short.check(short.move("G8:8 I8:= J8:8"))), ["chip_unavailable"])


def test_all_nine_rack_tiles_earn_fifty():
    g = new()
    v = play(g, "D8:1 E8:2 F8:÷ G8:5 H8:= I8:2 J8:+ K8:2 L8:/ M8:5")
    eq(v.bonus, 50)
    small = new()
    eq(play(small, "H4:9 H5:- H6:1 H7:= H8:8").bonus, 0)


def test_advanced_racks_hold_twelve_with_three_equals():
    g = new(2, {"advanced": True}, seed=5)
    eq(g.rack_size, 12)
    for rack in g.racks:
        eq(sorted(rack).count("="), 3)
        eq(len([t for t in rack if "0" <= t <= "9"]), 7)
    referee = new(2, {"advanced": True})
    eq(referee.bag_count(), 109 - 2 * 12)


def _mix(rack):
    """(fawn digits, white tiles) on a rack."""
    digits = len([t for t in rack if "0" <= t <= "9"])
    return digits, len(rack) - digits


def test_racks_are_refilled_to_seven_fawn_and_two_white():
    # The deal gives 7 + 2; a refill after a move draws only from the groups the rack is
    # short of, so laying two white tiles draws two white ones, whatever lies at the bag's end.
    g = new(2, seed=3)
    eq([_mix(r) for r in g.racks], [(7, 2), (7, 2)])
    g.racks[0] = ["9", "1", "8", "2", "3", "4", "5", "-", "+"]
    g.bag.extend(["7", "6", "5", "4"])  # digits at the end of the bag
    before = (list(g.racks[0]), list(g.bag))
    play(g, "H4:9 H5:- H6:1 H7:= H8:8")
    eq(_mix(g.racks[0]), (7, 2))
    # three digits short (4 5 6 from the end) and one white, found behind the 7 left there
    eq((g.racks[0][5:8], g.bag[-1]), (["4", "5", "6"], "7"))
    # taken back: the rack's tiles and the whole bag as they were, in order
    g.pop()
    eq((sorted(g.racks[0]), g.bag), (sorted(before[0]), before[1]))


def test_a_rack_is_filled_from_any_group_when_its_own_ran_out():
    # no digits left: the white tile it lacks first, then whatever the bag holds, so that
    # the rack holds as many tiles as the referee mode counts
    g = new(2, seed=3)
    g.racks[0] = ["9", "1", "8", "2", "3", "4", "5", "-", "+"]
    g.bag = ["+", "*", ":", "/", "-"]  # internal faces: * is ×, : is ÷
    play(g, "H4:9 H5:- H6:1 H7:= H8:8")
    eq(sorted(g.racks[0]), sorted(["2", "3", "4", "5", "+", "-", "/", ":", "*"]))
    eq(g.bag, ["+"])


def test_a_swap_gives_back_the_whole_rack():
    g = new(2, seed=4)
    rack = list(g.racks[0])
    eq(g.swap_range(), (9, 9))
    raises(GameStateError, g.swap, rack[:3])  # rule 4: return all tiles
    eq(g.racks[0], rack)
    g.swap(rack)
    eq((_mix(g.racks[0]), g.to_move), ((7, 2), 1))
    referee = new(2)
    raises(GameStateError, referee.swap, 4)
    referee.swap(9)
    eq(referee.to_move, 1)


# ----- rule 5: a new left side -----------------------------------------------------------------


def _with_two_plus_two():
    g = new()
    play(g, "F8:2 G8:+ H8:2 I8:= J8:4")
    return g


def test_replacing_the_left_side_scores_twenty_more():
    g = _with_two_plus_two()
    bag = g.bag_count()
    v = g.replace(g.move("F8:1 G8:+ H8:3"))  # 1 + 3 = 4
    eq(v.legal, True)
    eq(v.score, 1 + 1 + 2 + 1 + 2 + 20)
    eq(g.scores, [1 + 1 + 1 + 1 + 2, 27])
    eq(g.bag_count(), bag + 3 - 3)  # three back to the pool, three drawn
    eq(g.history[-1][0], "replace")


def test_a_shorter_or_longer_left_side():
    g = _with_two_plus_two()
    v = g.replace(g.move("H8:4"))  # 4 = 4: F8 and G8 are left empty
    eq(v.score, 2 + 1 + 2 + 20)
    # 69 in the bag, 65 after 2+2=4; three go back, one is drawn
    eq((g.board.cells[g.move("F8:1").placements[0][0]], g.bag_count()), (0, 65 + 3 - 1))
    g = _with_two_plus_two()
    v = g.replace(g.move("D8:1 E8:+ F8:1 G8:+ H8:2"))  # 1 + 1 + 2 = 4, a + on orange E8
    eq(v.score, 1 + 1 * 2 + 1 + 1 + 1 + 1 + 2 + 20)


def test_replacement_must_keep_the_answer():
    g = _with_two_plus_two()
    eq(codes(g.replace(g.move("F8:1 G8:+ H8:2"))), ["not_equal"])
    eq(g.scores, [6, 0])
    eq(codes(g.replace(g.move("F8:1 G8:+ H8:3 I8:1"))), ["replace_not_before_equals"])


def test_a_tile_of_a_crossing_equation_cannot_be_taken_away():
    g = _with_two_plus_two()
    lay_out(g, {"F6": "2", "F7": "="})  # the 2 on F8 is also the end of "2=2" down column F
    v = g.replace(g.move("F8:1 G8:+ H8:3"))
    eq(codes(v), ["replace_crossed"])
    eq(v.reasons[0].run, "F6-F8")


def test_a_replacement_is_taken_back_whole():
    g = _with_two_plus_two()
    before = (bytes(g.board.cells), g.bag_count(), list(g.racks), dict(g.unseen), list(g.scores))
    g.replace(g.move("H8:4"))
    g.pop()
    eq((bytes(g.board.cells), g.bag_count(), list(g.racks), dict(g.unseen), list(g.scores)),
       before)  # fmt: skip


def test_known_racks_replacement_and_pop():
    g = new(2, seed=11)
    rack = g.racks[0]
    g.racks[0] = ["2", "+", "2", "4", "1", "3", "9", "×", "-"]
    g.bag.extend(rack)
    play(g, "F8:2 G8:+ H8:2 I8:= J8:4")
    g.racks[1] = ["1", "+", "3", "5", "6", "7", "8", "×", "-"]
    before = (list(g.racks[1]), list(g.bag), bytes(g.board.cells))
    v = g.replace(g.move("F8:1 G8:+ H8:3"))
    eq(v.legal, True)
    eq(len(g.racks[1]), 9)
    g.pop()
    eq((list(g.racks[1]), list(g.bag), bytes(g.board.cells)), before)


# ----- rule 13: the end ---------------------------------------------------------------------------


def test_the_last_mover_gains_the_tiles_left_on_the_other_racks():
    g = new(2)
    play(g, "H4:9 H5:- H6:1 H7:= H8:8")
    g.pass_turn()
    g.pass_turn()
    eq(g.over, True)
    g.finish(
        [
            ["1", "2", "3", "4", "5", "6", "7", "+", "-"],
            ["9", "9", "/", "=", "0", "1", "1", "2", "÷"],
        ]
    )
    eq(g.penalties, [0, 0])
    eq(g.bonuses, [4 + 4 + 8 + 1 + 3 + 1 + 1 + 1 + 4, 0])
    eq(g.scores, [13 + 27, 0])


def test_no_tiles_laid_means_no_transfer():
    g = new(2)
    g.pass_turn()
    g.pass_turn()
    g.finish([["1"] * 9, ["2"] * 9])
    eq(g.bonuses, [0, 0])


def test_options_are_checked():
    raises(Exception, new, 2, {"equals": -1})
    raises(Exception, new, 2, {"advanced": "yes"})
    eq(json.dumps(new(2, {"equals": 3}).options["equals"]), "3")


def test_snapshot_round_trip_with_a_replacement_and_the_end():
    from engine import snapshot

    g = new(2, {"equals": 20})
    play(g, "F8:2 G8:+ H8:2 I8:= J8:4")
    g.replace(g.move("F8:1 G8:+ H8:3"))
    g.pass_turn()
    g.pass_turn()
    g.finish([["1"] * 9, ["7"] * 9])
    data = snapshot.encode(g)
    back = snapshot.decode(calqable(), data)
    eq(snapshot.encode(back), data)
    eq((back.scores, back.bonuses, back.options["equals"]), (g.scores, g.bonuses, 20))
    eq(back.history[1][0], "replace")


def test_a_record_with_a_replacement_replays_and_round_trips():
    from engine import record

    with open(REPO + "/tests/data/calqable.json") as f:
        data = json.load(f)
    rec = record.read(data)
    lines = list(record.replay(rec, calqable()))
    eq([line.get("score") for line in lines[:-1]], [13, 135, 13, 29, 0, 0])
    eq(lines[3]["action"], "replace")
    eq(lines[-1], {"final": True, "totals": [26, 181], "penalties": [0, 0], "bonuses": [0, 17]})
    g = new(2)
    for turn in rec.turns[:4]:
        (g.play if turn.kind == "place" else g.replace)(turn.move)
    written = record.write(g)
    eq(written["turns"], data["turns"][:4])
    eq(written["game"], "calqable")


def test_calculissimo_has_no_rule_5():
    from tests.engine.fixtures import RULEBOOK, new_game

    g = new_game(2)
    g.play(g.move(RULEBOOK[0]))
    eq(codes(g.replace(g.move("F8:1"))), ["replace_not_in_game"])
    eq(g.turns, 1)
