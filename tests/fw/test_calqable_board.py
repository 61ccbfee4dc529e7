"""Cal-Q-Able on the board: the game chosen in the settings, equations laid through the
sensors, rule 5 through the menu, and rule 13 at the end (runs on CPython and MicroPython)."""

import json

import engine.calqable  # noqa: F401  (registers the ruleset)
from engine.profile import Profile
from firmware.sim.simboard import SimBoard
from tests.engine.checks import eq
from tests.engine.fixtures import profile_data
from tests.fw.board import events, lay, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.archive", "firmware.config")

_PROFILE = []


def board(settings=None):
    if not _PROFILE:
        _PROFILE.append(Profile(profile_data("calqable")))
    opts = {"players": 2, "turn_seconds": 0, "game": "calqable"}
    if settings:
        opts.update(settings)
    b = SimBoard(_PROFILE[0], opts)
    b.boot()
    b.run(50)
    return b


def _menu(b, item):
    """Open the menu and choose an item by its position: pass, swap, rule 5, back."""
    b.press("back")
    for _ in range(("pass", "swap", "rule5", "back").index(item)):
        b.press("right")
    b.press("ok")


def test_equations_through_the_sensors():
    b = board()
    lay(b, "H4:9 H5:- H6:1 H7:= H8:8")
    eq(b.app.referee.verdict.score, 13)
    b.press("ok")
    lay(b, "F4:3 G4:× I4:= J4:2 K4:7")
    b.press("ok")
    eq([m["score"] for m in events(b, "move")], [13, 135])
    eq(b.screen()[1], " P1     13  P2    135")
    eq(b.screen()[0], "P1 to play")


def test_a_false_equation_is_shown_and_refused():
    b = board()
    lay(b, "G8:3 H8:= I8:4")
    eq(b.screen()[5], "Illegal: sides differ")
    b.press("ok")
    eq(events(b, "move"), [])


def test_rule_5_through_the_menu():
    b = board()
    lay(b, "F8:2 G8:+ H8:2 I8:= J8:4")
    b.press("ok")
    _menu(b, "rule5")
    eq(b.screen()[5], "Lift all before =")
    for name in ("F8", "G8", "H8"):
        b.lift(sq(name))
    eq(b.app.referee.missing, {})  # taken off for rule 5, not missing
    lay(b, "F8:1 G8:+ H8:3")
    eq(b.app.referee.verdict.score, 27)
    b.press("ok")
    eq(events(b, "replace")[0]["score"], 27)
    eq(b.app.referee.game.scores, [6, 27])


def test_rule_5_needs_every_tile_before_the_equals_lifted():
    b = board()
    lay(b, "F8:2 G8:+ H8:2 I8:= J8:4")
    b.press("ok")
    _menu(b, "rule5")
    b.lift(sq("H8"))
    lay(b, "H8:4")  # 2+4=4? the engine reads the new left side as H8 alone: F8 G8 still lie
    b.press("ok")
    eq(events(b, "replace"), [])
    eq(b.screen()[5], "Lift all before =")


def test_leaving_rule_5_asks_for_the_lifted_tiles_back():
    b = board()
    lay(b, "F8:2 G8:+ H8:2 I8:= J8:4")
    b.press("ok")
    _menu(b, "rule5")
    b.lift(sq("G8"))
    b.press("back")  # changed their mind
    eq(sorted(b.app.referee.missing), [sq("G8")])
    b.place(sq("G8"), "+")
    eq(b.app.referee.missing, {})


def test_a_swap_returns_the_whole_rack():
    # rule 4: "return all tiles to the pool and draw anew"; the count cannot be changed
    b = board()
    _menu(b, "swap")
    eq(b.screen()[5], "Swap 9 chips")
    b.press("left")
    b.press("right")
    eq(b.screen()[5], "Swap 9 chips")
    b.press("ok")
    eq(events(b, "swap")[0]["count"], 9)
    eq(b.screen()[0], "P2 to play")


def test_the_end_gives_the_last_mover_the_other_racks():
    b = board()
    lay(b, "H4:9 H5:- H6:1 H7:= H8:8")
    b.press("ok")
    _menu(b, "pass")
    _menu(b, "pass")
    ref = b.app.referee
    eq(ref.mode, "tally")
    eq(ref.all_choices, "0123456789+-*:/=")
    for name, face in zip(("A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1"), "1234567+-"):
        b.place(sq(name), face)
    for _ in range(9):
        b.press("ok")  # P2's nine, entered as shown: the zeros left, then the ones...
    b.press("ok")
    entered = [e["face"] for e in events(b, "tally")][9:]
    eq(entered[:4], ["0"] * 4)  # five zeros in the set, one on the board
    over = events(b, "game_over")[0]
    eq(over["penalties"], [0, 0])
    # P1 moved last: P1 gains the value of P2's nine; P1's own leftovers cost nothing.
    values = ref.game.rules.values
    eq(over["totals"], [13 + sum(values[f] for f in entered), 0])


def test_settings_choose_the_game_and_the_board_boots_it():
    from firmware import config
    from firmware.sim.memfs import MemFS
    from tests.engine.fixtures import REPO

    fs = MemFS()
    for name in ("pins/pico.json", "profiles/calqable.json"):
        folder = "hardware/" + name
        with open(REPO + "/" + folder) as f:
            fs.files[name] = f.read().encode()
    fs.files["settings.json"] = json.dumps({"game": "calqable"}).encode()
    cfg = config.load(fs)
    eq(cfg.profile.game, "calqable")
    b = SimBoard(None, fs=fs)
    b.boot()
    eq(events(b, "boot")[0]["game"], "calqable")
