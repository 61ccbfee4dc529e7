"""Calculissimo rules (RULES.md), each with positive and negative cases.

Runs on CPython (pytest) and on MicroPython (tests/mpyunit.py) with the same results.
"""

from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK, RULEBOOK_SCORES, check, new_game, play, setup_board


def reasons(v):
    return [r.to_dict() for r in v.reasons]


# --- the rulebook example --------------------------------------------------------------


def test_rulebook_example_scores():
    g = new_game(4)
    got = [play(g, t).score for t in RULEBOOK]
    eq(got, list(RULEBOOK_SCORES))
    eq(g.scores, [48 + 19, 12, 33, 38])


def test_rulebook_move1_breakdown():
    g = new_game()
    v = play(g, RULEBOOK[0])
    eq(len(v.runs), 1)
    r = v.runs[0].to_dict()
    eq(r["run"], "D8-H8")
    eq(r["text"], "9+6÷2")
    eq((r["face_value"], r["premium_value"], r["multiplier"], r["score"]), (12, 24, 2, 48))


def test_premium_spent_once_covered():
    # Move 2 runs through the logo's 2 already laid: the logo no longer doubles (rule 12).
    g = new_game(4)
    play(g, RULEBOOK[0])
    v = play(g, RULEBOOK[1])
    eq(v.runs[0].multiplier, 1)
    eq(v.score, 12)


# --- shape of a move -------------------------------------------------------------------


def test_first_move_must_cover_start():
    g = new_game()
    eq(reasons(check(g, "D7:9 E7:+ F7:6")), [{"code": "first_move_off_start", "square": "H8"}])
    eq(check(g, "F8:9 G8:+ H8:6").legal, True)


def test_first_move_must_form_a_calculation():
    g = new_game()
    eq(check(g, "H8:5").codes(), ["no_calculation"])


def test_not_in_line_and_diagonal():
    g = new_game()
    eq(check(g, "H8:9 I9:+ J10:6").codes(), ["not_in_line"])
    eq(check(g, "H8:9 I8:+ I9:6").codes(), ["not_in_line"])


def test_gap_in_line():
    g = new_game()
    eq(reasons(check(g, "G8:9 H8:+ J8:6")), [{"code": "gap", "square": "I8"}])
    play(g, "G8:9 H8:+ I8:6")
    # Across existing chips is no gap: K8 + L8 extend the run through I8.
    eq(check(g, "J8:+ K8:2").legal, True)
    eq(check(g, "J8:+ L8:2").codes(), ["gap"])


def test_later_move_must_touch():
    g = new_game()
    play(g, RULEBOOK[0])
    eq(check(g, "D12:1 E12:+ F12:2").codes(), ["not_connected"])
    # Touching only diagonally is not touching.
    eq(check(g, "I9:1 J9:+ K9:1").codes(), ["not_connected"])


def test_occupied_and_duplicate():
    g = new_game()
    play(g, RULEBOOK[0])
    eq(reasons(check(g, "H8:5 H9:+ H10:1")), [{"code": "occupied", "square": "H8"}])
    eq(check(g, "H9:+ H9:- H10:1").codes(), ["duplicate_square"])


def test_empty_move():
    eq(check(new_game(), "").codes(), ["no_chips"])


# --- a calculation ---------------------------------------------------------------------


def test_well_formed_alternation():
    g = new_game()
    eq(reasons(check(g, "G8:9 H8:6")), [{"code": "malformed", "run": "G8-H8"}])
    eq(check(g, "G8:9 H8:+").codes(), ["malformed"])
    eq(check(g, "G8:+ H8:9 I8:+ J8:1").codes(), ["malformed"])
    eq(check(g, "G8:9 H8:+ I8:- J8:1").codes(), ["malformed"])
    eq(check(g, "G8:9 H8:+ I8:1").legal, True)


def test_reasons_locate_what_to_light():
    g = new_game()
    v = check(g, "H8:2 I8:× J8:3 K8:× L8:1")
    eq(list(v.reasons[0].where), [7 * 15 + c for c in range(7, 12)])
    play(g, RULEBOOK[0])
    eq(list(check(g, "H8:5 H9:+ H10:1").reasons[0].where), [7 * 15 + 7])
    eq(list(check(g, "A1:1").reasons[0].where), [])  # not_connected: nothing to point at


def test_one_multiplication_per_run():
    g = new_game()
    eq(
        reasons(check(g, "H8:2 I8:× J8:3 K8:× L8:1")),
        [{"code": "two_multiplications", "run": "H8-L8"}],
    )
    eq(check(g, "H8:2 I8:× J8:3 K8:+ L8:1").legal, True)


def test_precedence_standard_and_mul_first():
    # 8 ÷ 2 × 2 on F8..J8 (F8, J8 green; H8 logo): standard 16 ÷ 2 × 4 = 32, ×2 = 64;
    # mul_first 16 ÷ (2 × 4) = 2, ×2 = 4.
    v = check(new_game(), "F8:8 G8:÷ H8:2 I8:× J8:2")
    eq((v.runs[0].face_value, v.score), (8, 64))
    v = check(new_game(options={"precedence": "mul_first"}), "F8:8 G8:÷ H8:2 I8:× J8:2")
    eq((v.runs[0].face_value, v.score), (2, 4))


def test_mul_first_can_make_premium_value_invalid():
    # 8 ÷ 2 × 2 from H8: premium 8 ÷ 4 × 4 is 8 standard but 8 ÷ 16 under mul_first.
    eq(check(new_game(), "H8:8 I8:÷ J8:2 K8:× L8:2").score, 16)
    g = new_game(options={"precedence": "mul_first"})
    eq(
        reasons(check(g, "H8:8 I8:÷ J8:2 K8:× L8:2")),
        [{"code": "premium_invalid", "run": "H8-L8"}],
    )


def test_multiplication_and_division_bind_tighter():
    # 1 + 2 × 3 = 7 (not 9); premiums: F8 g 2, J8 g 6: 2 + 2 × 6 = 14, logo ×2 = 28.
    v = check(new_game(), "F8:1 G8:+ H8:2 I8:× J8:3")
    eq((v.runs[0].face_value, v.score), (7, 28))


def test_intermediate_fraction_and_negative_allowed():
    eq(check(new_game(), "F8:3 G8:÷ H8:2 I8:× J8:4").score, 48)  # 6 ÷ 2 × 8 = 24, ×2
    eq(check(new_game(), "F8:1 G8:- H8:5 I8:+ J8:9").score, 30)  # 2 - 5 + 18 = 15, ×2


def test_result_must_be_positive_integer():
    g = new_game()
    eq(check(g, "H8:3 I8:÷ J8:2").codes(), ["not_integer"])
    eq(check(g, "H8:1 I8:- J8:1").codes(), ["not_positive"])
    eq(check(g, "H8:3 I8:- J8:5").codes(), ["not_positive"])
    eq(check(g, "H8:4 I8:÷ J8:2").score, 2)  # 4 ÷ 2, premium 4 ÷ 4 = 1, logo ×2


def test_division_by_zero():
    eq(
        reasons(check(new_game(), "H8:5 I8:÷ J8:0")),
        [{"code": "division_by_zero", "run": "H8-J8"}],
    )
    eq(check(new_game(), "H8:0 I8:÷ J8:5").codes(), ["not_positive"])


def test_valid_with_face_and_premium_values():
    # RULES.md: 9 ÷ 3 with the 3 new on a green square is illegal: 9 ÷ 6 is no integer.
    eq(reasons(check(new_game(), "H8:9 I8:÷ J8:3")), [{"code": "premium_invalid", "run": "H8-J8"}])
    # 8 ÷ 4 → 8 ÷ 8 = 1 with the premium: legal, logo ×2 → 2.
    eq(check(new_game(), "H8:8 I8:÷ J8:4").score, 2)


# --- jokers ----------------------------------------------------------------------------


def test_joker_cannot_be_multiplication():
    eq(check(new_game(), "H8:2 I8:?× J8:3").codes(), ["joker_as_multiplication"])
    eq(check(new_game(), "H8:2 I8:?+ J8:3").legal, True)


def test_joker_on_number_premium_not_multiplied():
    # J8 green: a real 3 scores 2 + 6 = 8 (×2 logo = 16); a joker 3 scores 2 + 3 = 5 (×2 = 10).
    eq(check(new_game(), "H8:2 I8:+ J8:3").score, 16)
    eq(check(new_game(), "H8:2 I8:+ J8:?3").score, 10)


def test_run_premium_under_joker_still_multiplies():
    # The logo under a joker still doubles the calculation (rule 13 speaks of numbers only).
    eq(check(new_game(), "H8:?2 I8:+ J8:3").score, 16)


def test_joker_keeps_its_value():
    g = new_game()
    play(g, "H8:?2 I8:+ J8:3")
    eq(g.board.cells[7 * 15 + 7] & 0x7F, ord("2"))
    # A later run through it reads it as 2: H6 4, H7 −, (H8 ?2) → 4 − 2 on H6 green: 8 − 2 = 6.
    eq(play(g, "H6:4 H7:-").score, 6)


# --- scoring several runs and premiums -------------------------------------------------


def test_two_run_premiums_on_one_run_both_apply():
    # H8 logo ×2 and N8 yellow ×2 on one run: 1 + 2 + 2 + 1 = 6 (J8, L8 green) × 4 = 24.
    v = check(new_game(), "H8:1 I8:+ J8:1 K8:+ L8:1 M8:+ N8:1")
    eq((v.runs[0].premium_value, v.runs[0].multiplier, v.score), (6, 4, 24))


def test_purple_triples():
    g = new_game()
    play(g, "H8:1 I8:+ J8:1 K8:+ L8:1 M8:+ N8:1")
    # N2 purple ×3 (new), N8 yellow already used: (2 + 3 + 4 + 1) × 3 = 30.
    v = check(g, "N2:2 N3:+ N4:3 N5:+ N6:4 N7:+")
    eq((v.runs[0].text, v.runs[0].multiplier, v.score), ("2+3+4+1", 3, 30))


def test_move_scores_every_run_it_forms():
    # A new operator joining two numbers across makes a cross run; both runs score.
    g = new_game()
    setup_board(g, {"G7": "1", "G9": "2", "I7": "3", "I9": "4", "F8": "6", "H8": "5", "J8": "7"})
    v = check(g, "G8:+ I8:+")
    eq(sorted((r.name, r.score) for r in v.runs), [("F8-J8", 18), ("G7-G9", 3), ("I7-I9", 7)])
    eq(v.score, 28)


def test_shared_run_premium_goes_to_the_better_run():
    # I8 yellow (custom layout below) under a new operator lying on the main run H8-J8 and
    # the cross run I7-I9: the ×2 goes to whichever run is worth more (rule 14).
    from engine.profile import Profile
    from tests.engine.fixtures import profile_data

    data = profile_data()
    data["layout"] = ["." * 15] * 7 + ["........y......"] + ["." * 15] * 7
    g = new_game(profile=Profile(data))
    setup_board(g, {"H8": "2", "J8": "3", "I7": "9", "I9": "8"})
    v = check(g, "I8:+")
    got = sorted((r.name, r.score, r.multiplier) for r in v.runs)
    eq(got, [("H8-J8", 5, 1), ("I7-I9", 34, 2)])
    eq(v.score, 39)
    setup_board(g, {"H7": "7"})  # no effect on these runs, just more chips about
    g2 = new_game(profile=Profile(data))
    setup_board(g2, {"H8": "9", "J8": "9", "I7": "1", "I9": "1"})
    v = check(g2, "I8:×")
    eq(
        sorted((r.name, r.score, r.multiplier) for r in v.runs),
        [("H8-J8", 162, 2), ("I7-I9", 1, 1)],
    )
    eq(v.score, 163)


def test_cross_run_must_be_valid_too():
    g = new_game()
    setup_board(g, {"G7": "1", "G9": "2", "H8": "5"})
    # G8 ÷ makes G7-G9 1 ÷ 2: not an integer, so the whole move is illegal.
    eq(reasons(check(g, "G8:÷ F8:5")), [{"code": "not_integer", "run": "G7-G9"}])
    eq(check(g, "G8:+ F8:4").legal, True)


def test_six_shared_premiums_all_go_to_the_main_run():
    # tools/positions.py's worst case: a premium under each of six new operators, each on
    # the main run A2-M2 and on a cross run. Main 65 × (3·2)³ = 14040 beats any premium
    # moved to a cross run (6, 7, 6, 11, 12, 5): total 14040 + 47 = 14087.
    from tests.engine.fixtures import profile_data
    from tools import positions

    g = positions.dense_game(new_game(2, profile=positions.worst_profile(profile_data())))
    v = check(g, positions.DENSE_MOVE)
    main = v.runs[0]
    eq((main.name, main.multiplier, main.score), ("A2-M2", 216, 14040))
    eq(sorted(r.score for r in v.runs[1:]), [5, 6, 6, 7, 11, 12])
    eq(v.score, 14087)
