"""Game flow (RULES.md "Turns and the end"), referee mode and known-rack self-play.

Runs on CPython (pytest) and on MicroPython (tests/mpyunit.py) with the same results.
"""

from engine import autoplay
from engine.errors import GameStateError, IllegalMoveError, OptionError, ProfileError
from engine.game import Game
from engine.profile import Profile
from tests.engine.checks import eq, raises
from tests.engine.fixtures import RULEBOOK, new_game, play, profile_data

# Two whole self-play games run here: about 5e10 wasm fuel on MicroPython.
MPY_FUEL = 150_000_000_000


def chip_total(g):
    """Board + bag + racks, per face: must always equal the chip set (known-rack mode)."""
    count = {}
    for c in g.board.cells:
        if c:
            key = "?" if c & 0x80 else chr(c & 0x7F)
            count[key] = count.get(key, 0) + 1
    for ch in g.bag:
        count[ch] = count.get(ch, 0) + 1
    for rack in g.racks:
        for ch in rack:
            count[ch] = count.get(ch, 0) + 1
    return count


# --- turns -----------------------------------------------------------------------------


def test_turns_go_round_and_racks_refill():
    g = new_game(3)
    eq(g.bag_count(), 100 - 21)
    play(g, RULEBOOK[0])
    eq((g.to_move, g.rack_count(0), g.bag_count()), (1, 7, 74))
    play(g, RULEBOOK[1])
    play(g, RULEBOOK[2])
    eq(g.to_move, 0)


def test_illegal_move_changes_nothing_and_same_player_retries():
    g = new_game(2)
    v = play(g, "D8:9 E8:+ F8:6")  # off the start square
    eq(v.legal, False)
    eq((g.to_move, g.scores, g.board.chip_count(), len(g.history)), (0, [0, 0], 0, 0))


def test_strict_loses_the_turn():
    g = new_game(2, {"strict": True})
    play(g, "D8:9 E8:+ F8:6")
    eq((g.to_move, g.board.chip_count(), g.history[-1][0]), (1, 0, "forfeit"))


def test_push_raises_specific_error():
    g = new_game(2)
    err = raises(IllegalMoveError, g.push, g.move("H8:9 I8:÷ J8:3"))
    eq(err.verdict.codes(), ["premium_invalid"])


def test_pass_ends_turn():
    g = new_game(2)
    g.pass_turn()
    eq((g.to_move, g.over), (1, False))


def test_swap_rules():
    g = new_game(2)
    g.swap(3)
    eq((g.to_move, g.rack_count(0), g.bag_count()), (1, 7, 86))
    raises(GameStateError, g.swap, 8)
    raises(GameStateError, g.swap, 0)


def test_swap_needs_seven_in_bag_option():
    data = profile_data()
    data["chips"] = {"1": 8, "+": 8}  # 16 chips: 2 racks of 7, 2 in the bag
    data["players"] = [2, 2]
    g = new_game(2, profile=Profile(data))
    eq(g.can_swap(), False)
    raises(GameStateError, g.swap, 1)
    g = new_game(2, {"swap_min_bag": 2}, profile=Profile(data))
    g.swap(1)
    eq(g.to_move, 1)


def test_seven_chip_move_plays_again():
    g = new_game(2)
    v = play(g, "H8:1 I8:+ J8:1 K8:+ L8:1 M8:+ N8:1")
    eq(v.legal, True)
    eq((g.to_move, g.rack_count(0)), (0, 7))
    play(g, "N2:2 N3:+ N4:3 N5:+ N6:4 N7:+")
    eq(g.to_move, 1)


def test_every_player_idle_ends_the_game():
    g = new_game(3)
    play(g, RULEBOOK[0])
    g.pass_turn()
    g.swap(2)
    eq(g.over, False)
    eq(g.over, False)
    g.timeout()  # players 2, 3 and 1 in turn have not moved: the game ends
    eq(g.over, True)
    raises(GameStateError, g.pass_turn)
    eq(g.check(g.move("H9:+ H10:1")).codes(), ["game_over"])


def test_empty_bag_and_empty_rack_ends_the_game():
    data = profile_data()
    data["chips"] = {"1": 8, "2": 2, "+": 8}  # 18: racks 14, bag 4
    data["players"] = [2, 2]
    data["rack_size"] = 7
    g = new_game(2, profile=Profile(data))
    play(g, "H8:1 I8:+ J8:1 K8:+ L8:1 M8:+ N8:1")  # 7 chips: draws the last 4, plays again
    eq((g.bag_count(), g.rack_count(0), g.to_move), (0, 4, 0))
    play(g, "G8:+ F8:1")
    eq(g.over, False)
    g.pass_turn()
    play(g, "E8:+ D8:2")
    eq(g.over, True)  # player 1's rack is empty and the bag too


def test_end_penalties():
    g = new_game(3)
    play(g, RULEBOOK[0])
    raises(GameStateError, g.finish, [["5"], [], []])  # rack sizes must match the game
    racks = [["5", "+", "?", "0", "9", "-", "×"], ["1"] * 7, ["÷"] * 7]
    eq(g.finish(racks), [5 + 10 + 10 + 0 + 9 + 10 + 10, 7, 70])
    eq(g.scores, [48 - 54, -7, -70])
    raises(GameStateError, g.finish, racks)
    raises(GameStateError, g.pop)


def test_turn_clock_option():
    eq(new_game(2).options["turn_seconds"], 120)
    eq(new_game(2, {"turn_seconds": 0}).options["turn_seconds"], 0)
    raises(OptionError, new_game, 2, {"turn_seconds": -1})
    raises(OptionError, new_game, 2, {"precedence": "backwards"})
    raises(OptionError, new_game, 2, {"strict": "yes"})
    raises(OptionError, new_game, 2, {"no_such_option": 1})
    raises(OptionError, new_game, 5)
    raises(OptionError, new_game, 1)


# --- referee mode: what the board can know without seeing racks -------------------------


def test_rack_too_small_for_the_move():
    data = profile_data()
    data["chips"] = {"1": 8, "2": 2, "+": 8}
    data["players"] = [2, 2]
    g = new_game(2, profile=Profile(data))
    play(g, "H8:1 I8:+ J8:1 K8:+ L8:1 M8:+ N8:1")  # rack now 4 (bag had only 4)
    eq(g.check(g.move("G8:+ F8:1 E8:+ D8:1 C8:+ B8:1")).codes(), ["too_many_chips"])


def test_chip_set_exhausted():
    data = profile_data()
    data["chips"]["×"] = 1
    g = new_game(2, profile=Profile(data))
    play(g, "H8:2 I8:× J8:3")
    eq(g.check(g.move("H9:× H10:1")).codes(), ["chip_unavailable"])
    eq(g.check(g.move("H9:+ H10:1")).legal, True)


# --- the uncommitted turn and taking back ----------------------------------------------


def test_pending_lay_lift_undo_preview_commit():
    g = new_game(2)
    g.lay(7 * 15 + 7, "2")  # H8
    g.lay(7 * 15 + 8, "+")  # I8
    eq(g.preview().codes(), ["malformed"])
    g.lay(7 * 15 + 9, "3")  # J8
    eq(g.preview().score, 16)
    eq(g.undo_lay(), (7 * 15 + 9, ord("3")))
    g.lay(7 * 15 + 9, "5")
    eq(g.lift(7 * 15 + 9), True)
    eq(g.lift(7 * 15 + 9), False)
    g.lay(7 * 15 + 9, "4")
    eq(g.board.chip_count(), 0)  # pending chips are not on the board
    v = g.commit()
    eq((v.score, g.board.chip_count(), g.pending), (2 * (2 + 8), 3, []))
    g.lay(8 * 15 + 7, "+")  # H9
    g.clear_pending()  # the player takes every chip of this turn back
    eq((g.pending, g.preview().codes()), ([], ["no_chips"]))


def test_leaders():
    g = new_game(3)
    eq(g.leaders(), [0, 1, 2])
    play(g, RULEBOOK[0])
    eq(g.leaders(), [0])


def test_pop_restores_everything():
    g = new_game(3)
    before = (list(g.scores), g.to_move, g.bag_count(), list(g.racks), dict(g.unseen))
    play(g, RULEBOOK[0])
    g.swap(2)
    g.pass_turn()
    play(g, RULEBOOK[1])
    for _ in range(4):
        g.pop()
    eq((list(g.scores), g.to_move, g.bag_count(), list(g.racks), dict(g.unseen)), before)
    eq(g.board.chip_count(), 0)
    raises(GameStateError, g.pop)


# --- profiles --------------------------------------------------------------------------


def test_profile_errors_are_specific():
    for key, value in (
        ("width", 0),
        ("start", "Z99"),
        ("layout", ["..."]),
        ("chips", {"%": 3}),
        ("rack_size", 90),
        ("players", [3]),
    ):
        data = profile_data()
        data[key] = value
        raises(ProfileError, Profile, data)
    data = profile_data()
    del data["legend"]
    raises(ProfileError, Profile, data)
    data = profile_data()
    data["layout"] = ["Q" * 15] * 15
    raises(ProfileError, Profile, data)
    for kind in (["run"], {"run": 1}, None):  # unhashable, or missing: still a ProfileError
        data = profile_data()
        next(iter(data["legend"].values()))["kind"] = kind
        raises(ProfileError, Profile, data)


def test_profile_matches_rules_md():
    p = Profile(profile_data())
    eq((p.width, p.height, p.start, p.rack_size), (15, 15, 7 * 15 + 7, 7))
    eq(sum(p.chips.values()), 100)
    eq((p.chips["*"], p.chips[":"], p.chips["?"], p.chips["0"]), (6, 10, 4, 2))
    from engine import squares

    greens = [n for n in ("D8", "F8", "J8", "H6", "H10", "F10")]
    blues = ["F6", "J6", "D10", "J10"]
    for n in greens:
        eq(p.premium_letter(squares.parse(n, 15, 15)), "g", n)
    for n in blues:
        eq(p.premium_letter(squares.parse(n, 15, 15)), "b", n)
    eq(p.premium_letter(squares.parse("H8", 15, 15)), "*")


# --- known racks: seeded self-play -----------------------------------------------------


def test_known_racks_must_hold_the_chips():
    g = new_game(2, seed=7)
    eq(sorted(g.racks[0]), ["+", "-", "-", "1", "3", "6", ":"])
    eq(g.check(g.move("H8:9 I8:+ J8:1")).codes(), ["not_on_rack"])


def test_seeded_self_play_keeps_invariants_and_is_the_same_everywhere():
    # Whole games, every turn checked. The literal results below were recorded once; the
    # same module runs on MicroPython, so equal results there prove the seeded bag, the
    # PRNG and the greedy player behave identically on both runtimes.
    expected = {(7, 3): (48, [624, 921, 1085]), (2024, 2): (51, [1419, 1248])}
    for seed, players in ((7, 3), (2024, 2)):
        g = new_game(players, seed=seed)
        chipset = dict(g.profile.chips)
        move_points = [0] * players
        turns = 0
        while not g.over and turns < 300:
            p = g.to_move
            kind, verdict = autoplay.play_turn(g)
            if kind == "place":
                move_points[p] += verdict.score
            eq(chip_total(g), chipset, "chips after turn %d" % turns)
            turns += 1
        eq(g.over, True)
        eq(g.scores, move_points)
        eq((len(g.history), g.scores), expected[(seed, players)])
        penalties = g.finish()
        eq(g.scores, [move_points[p] - penalties[p] for p in range(players)])


def test_seeded_first_move():
    eq(str(autoplay.best_move(new_game(3, seed=1))[0]), "F8:3 G8:× H8:4")


# --- who starts --------------------------------------------------------------------------


def test_first_player_from_the_draw():
    from engine.game import draw_for_first
    from engine.prng import Prng

    # Seed 0: no one draws a number at first (-, ×, -), so all three draw again.
    first, draws = draw_for_first(new_game(3).profile, 3, Prng(0))
    eq((first, draws), (0, [["-", "9"], ["*", "3"], ["-", "7"]]))
    # The winner's last draw is a number higher than every other player's last draw.
    mine = draws[first][-1]
    eq("0" <= mine <= "9", True)
    for p in range(3):
        if p != first and len(draws[p]) == len(draws[first]):
            eq(draws[p][-1] < mine or not "0" <= draws[p][-1] <= "9", True)
    g = new_game(3, first=first)
    eq(g.to_move, first)
    play(g, RULEBOOK[0])
    eq(g.scores[first], 48)
    first, draws = draw_for_first(new_game(3).profile, 3, Prng(5))  # decided at once
    eq((first, draws), (0, [["8"], ["3"], ["4"]]))
    eq(g.to_move, (first + 1) % 3)
    raises(OptionError, Game, g.profile, 3, None, None, 3)


def _lay_all(g, text):
    for sq, code in g.move(text).placements:
        g.lay(sq, chr(code))


def test_commit_reuses_the_preview_only_while_nothing_changed():
    g = new_game(2)
    _lay_all(g, RULEBOOK[0])
    first = g.preview()
    eq(g.commit() is first, True)  # judged once
    eq(g.scores, [48, 0])
    _lay_all(g, RULEBOOK[1])
    eq(g.preview().score, 12)
    g.pop()  # move 1 taken back: the same chips are judged on the board as it is now
    g.clear_pending()
    _lay_all(g, RULEBOOK[1])
    eq(g.commit().codes(), ["gap"])  # H8 is empty again
    g.clear_pending()
    _lay_all(g, RULEBOOK[0])
    stale = g.preview()
    g.lift(g.move("H8:2").placements[0][0])
    _lay_all(g, "H8:3")  # changed since the preview: judged again
    v = g.commit()
    eq(v is stale, False)
    eq(v.score, 44)  # (18 + 12 / 3) x 2
    eq(g.scores, [44, 0])
