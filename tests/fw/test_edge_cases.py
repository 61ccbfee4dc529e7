"""Edge cases of refereeing through sensors and buttons: modes entered and left in unusual
orders, the turn clock, the end of the game, resuming, and sensing corner cases (runs on
CPython and on MicroPython).

Tests marked "BUG" in their docstring were found failing in a review of the turn flow and
fixed; each says what a family at the table expects."""

from firmware.sim.clock import SimClock
from firmware.sim.memfs import MemFS
from firmware.sim.simboard import SimBoard
from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK, default_profile
from tests.fw.board import after_power_cut, events, lay, new_board, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.archive",)

SEVEN = "B8:9 C8:+ D8:6 E8:- F8:1 G8:× H8:2"  # a legal first move with all seven chips


def _pass(board):
    board.press("ok")  # nothing laid: the menu, on "Pass"
    board.press("ok")


def _pending_squares(board):
    return sorted(s for s, _ in board.app.referee.game.pending)


def _text(board):
    return " | ".join(board.screen())


def _no_crash(fn, *args):
    """Run fn; an exception escaping App.step() is a crash into the REPL on the device."""
    try:
        fn(*args)
    except Exception as err:  # noqa: BLE001  (any escape is the failure being shown)
        raise AssertionError("crash: %s: %s" % (type(err).__name__, err))


# ----- found as bugs, now fixed ---------------------------------------------------------


def test_chips_laid_with_the_menu_open_then_ok_plays_them_not_a_pass():
    """BUG. A player opens the menu (BACK), changes their mind and lays their move, then
    presses OK to confirm it. They expect the move to be scored, not a silent pass that drops
    the chips lying on the board."""
    board = new_board({"players": 2})
    board.press("back")
    eq(board.app.referee.mode, "menu")
    lay(board, RULEBOOK[0])
    board.press("ok")
    eq(events(board, "pass"), [])
    eq([m["score"] for m in events(board, "move")], [48])


def test_chips_laid_while_choosing_a_swap_count_are_not_dropped():
    """BUG. With the swap count on the display, the player lays chips instead and presses OK.
    They expect their move, not a swap that forgets the chips on the board."""
    board = new_board({"players": 2})
    board.press("back")
    board.press("right")  # "Swap"
    board.press("ok")
    eq(board.app.referee.mode, "swap")
    lay(board, RULEBOOK[0])
    board.press("ok")
    eq(events(board, "swap"), [])
    eq([m["score"] for m in events(board, "move")], [48])


def test_turn_clock_running_out_while_choosing_a_joker_asks_for_the_joker_back():
    """BUG. The clock runs out while the player is still choosing the value of the joker they
    laid. The turn is lost, so the joker must be taken back like every other chip laid; the
    board must not forget it and let it lie there as an invisible chip."""
    board = new_board({"players": 2, "turn_seconds": 5})
    board.place(sq("H8"), "?")
    eq(board.app.referee.mode, "pick")
    board.run(5000)
    ref = board.app.referee
    eq(len(events(board, "timeout")), 1)
    eq(ref.mode, "take_back")
    eq(sorted(ref.take_back), [sq("H8")])


def test_strict_forfeit_that_ends_the_game_goes_to_the_tally():
    """BUG. Strict mode: P1 passes, P2 confirms an illegal move and forfeits. Every player has
    now gone a turn without moving, so the game is over: once the chips are taken back the
    board should ask for the leftover chips, not offer another turn."""
    board = new_board({"players": 2, "strict": True})
    _pass(board)
    lay(board, "D8:9 E8:+ F8:6")
    board.press("ok")
    ref = board.app.referee
    eq(ref.game.over, True)
    # The chips P2 laid are P2's leftovers now: counted where they lie.
    eq(ref.mode, "tally")
    eq(ref.tally.racks(), [[], ["9", "+", "6"]])
    eq(ref.tally.player, 0)


def test_strict_forfeit_that_ends_the_game_then_the_menu_does_not_crash():
    """BUG. Same end of game as above; the players press OK twice (menu, Pass) as they would
    to carry on. The board must not crash (GameStateError from Game.pass_turn)."""
    board = new_board({"players": 2, "strict": True})
    _pass(board)
    lay(board, "D8:9 E8:+ F8:6")
    board.press("ok")
    for name in ("D8", "E8", "F8"):
        board.lift(sq(name))
    _no_crash(_pass, board)


def test_strict_forfeit_that_ends_the_game_then_the_clock_does_not_crash():
    """BUG. Same end of game with the turn clock on: left alone, the board must not crash when
    the clock of a turn that cannot exist runs out (GameStateError from Game.timeout)."""
    board = new_board({"players": 2, "strict": True, "turn_seconds": 5})
    _pass(board)
    lay(board, "D8:9 E8:+ F8:6")
    board.press("ok")
    for name in ("D8", "E8", "F8"):
        board.lift(sq(name))
    _no_crash(board.run, 6000)


def test_timeout_that_ends_the_game_stops_blinking_once_the_chips_are_lifted():
    """BUG. The last idle turn of the game is a timeout with a chip down: the tally starts and
    that chip blinks red to be taken back. Once it is lifted it must stop blinking (in the
    tally, and in the next game too)."""
    board = new_board({"players": 2, "turn_seconds": 10})
    lay(board, RULEBOOK[0])
    board.press("ok")
    _pass(board)  # P2
    board.place(sq("H6"), "4")  # P1, then the clock runs out
    board.run(10000)
    ref = board.app.referee
    eq(ref.game.over, True)
    eq(ref.mode, "tally")
    board.lift(sq("H6"))
    eq(sorted(ref.take_back), [])


def test_committed_chip_lifted_while_taking_back_a_lost_turn_is_missing():
    """BUG. Strict mode: P2's illegal move is refused and P2 takes the chips back. While doing
    so a committed chip (F8) is knocked off. As in every other mode the board must say "Put
    back F8" and refuse the next move until it is back."""
    board = new_board({"players": 2, "strict": True})
    lay(board, RULEBOOK[0])
    board.press("ok")
    board.place(sq("A1"), "5")  # P2: touches nothing, illegal
    board.press("ok")
    ref = board.app.referee
    eq(ref.mode, "take_back")
    board.lift(sq("F8"))
    eq(sorted(ref.missing), [sq("F8")])


def test_two_jokers_laid_before_choosing_both_are_kept():
    """BUG. A player lays a joker on D8 and, before choosing its value, a second joker on H8.
    After choosing H8's value the board must still ask for D8's (or keep D8 in the move);
    it must not forget the D8 joker lying on the board."""
    board = new_board({"players": 2})
    lay(board, "E8:+ F8:6 G8:÷")
    board.place(sq("D8"), "?")
    board.place(sq("H8"), "?")
    ref = board.app.referee
    eq(ref.picking[0], sq("D8"))  # asked in the order laid
    for _ in range(4):
        board.press("left")  # 0, then ÷, -, +, 9
    eq(ref.picking[0], sq("D8"))
    board.press("ok")
    eq(ref.picking[0], sq("H8"))  # then the second joker
    board.press("right")
    board.press("right")  # 2
    board.press("ok")
    eq(_pending_squares(board), [sq("D8"), sq("E8"), sq("F8"), sq("G8"), sq("H8")])
    eq(ref.verdict.score, 30)  # (9 + 6 ÷ 2, jokers not doubled on D8) x 2 at the logo


def test_chip_laid_while_choosing_a_joker_keeps_the_question_on_the_display():
    """BUG. The display asks "Joker D8 = 0 ?"; the player lays another chip meanwhile. The board
    is still waiting for the joker's value (mode pick), so the question must stay on the
    display rather than be replaced by the move's preview."""
    board = new_board({"players": 2})
    board.place(sq("D8"), "?")
    board.place(sq("E8"), "+")
    eq(board.app.referee.mode, "pick")
    eq("Joker D8" in _text(board), True)


def test_lifting_the_joker_being_chosen_clears_the_question():
    """BUG. The player lays a joker, the display asks its value, and the player lifts the joker
    again. The question about a chip no longer there must go from the display."""
    board = new_board({"players": 2})
    board.place(sq("H8"), "?")
    eq("Joker H8" in _text(board), True)
    board.lift(sq("H8"))
    eq(board.app.referee.mode, "play")
    eq("Joker H8" in _text(board), False)


def test_resume_with_a_joker_among_the_laid_chips_restores_every_chip():
    """BUG. The power goes while a player has laid D8:? E8:+ F8:6 G8:÷ H8:2. On resuming, the
    board asks the joker's value; every other laid chip must still be part of the move."""
    fs = MemFS()
    new_board({"players": 2}, fs=fs)  # a new game is journaled at once
    lying = [("D8", "?"), ("E8", "+"), ("F8", "6"), ("G8", "÷"), ("H8", "2")]
    board = after_power_cut(fs, lying)
    board.press("ok")
    ref = board.app.referee
    eq(ref.mode, "pick")
    for _ in range(4):
        board.press("left")  # 0, ÷, -, +, 9
    board.press("ok")
    eq(_pending_squares(board), sorted(sq(n) for n, _ in lying))


def test_resume_into_the_tally_says_whose_leftovers_to_lay():
    """BUG. The power goes after the game ended, before the leftovers were counted. On resuming
    the display must ask for P1's leftover chips ("P1: 7 chips left"), not "P1 to play"."""
    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lay(first, RULEBOOK[0])
    first.press("ok")
    _pass(first)
    _pass(first)
    eq(first.app.referee.mode, "tally")
    board = after_power_cut(fs, [p.split(":") for p in RULEBOOK[0].split()])
    board.press("ok")
    eq(board.app.referee.mode, "tally")
    eq(board.screen()[5], "P1: 7 chips left")


def test_resume_of_a_finished_game_shows_the_result():
    """The power goes on the final-scores screen. The game is archived, so the board does not
    ask "Resume game?" again: it shows who won at once, and OK asks for the board to be
    cleared for a new game."""
    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lay(first, RULEBOOK[0])
    first.press("ok")
    _pass(first)
    _pass(first)
    for _ in range(14):
        first.press("ok")  # every leftover chip entered as 0
    first.press("ok")  # all counted: the final scores
    eq(first.app.referee.mode, "over")
    eq(first.screen()[5], "P1 wins")
    first = None  # the power goes: that board is gone (a Pico holds one board at a time)
    board = after_power_cut(fs, [p.split(":") for p in RULEBOOK[0].split()])
    eq(board.app.referee.mode, "over")
    eq(board.screen()[5], "P1 wins")
    board.press("ok")  # a new game, once the chips are off the board
    eq(board.app.referee.mode, "clear")


def test_chip_lifted_slowly_is_lifted_even_if_its_tag_answered_at_first():
    """BUG. A player lifts a pending chip slowly: the magnet leaves the Hall sensor first, the
    tag still answers the reader for a moment (the board reports tag_only), then the chip is
    gone. The board must notice that the chip has gone: it must not stay in the move, and the
    board must not wait for it to be cleared."""
    board = new_board({"players": 2})
    board.place(sq("H8"), "2")
    eq(_pending_squares(board), [sq("H8")])
    board.chain.set(sq("H8"), False)  # the magnet is out of range, the tag not yet
    board.run(60)
    eq(len(events(board, "tag_only")), 1)
    board.field.tags.pop(sq("H8"))  # now the chip is in the hand
    board.on_board.pop(sq("H8"))
    board.run(2000)
    eq(_pending_squares(board), [])
    eq(board.app.sensing.placed, {})


def test_chip_lifted_and_laid_again_in_the_tally_counts_once():
    """BUG. Counting leftovers, P1 lays a 5, picks it up again and lays it a square further.
    It is one chip: it must be counted once, not twice (which would also move the count on to
    P2 while P1 still holds a chip)."""
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    _pass(board)
    _pass(board)
    ref = board.app.referee
    eq(ref.mode, "tally")
    board.place(sq("A1"), "5")
    board.lift(sq("A1"))
    board.place(sq("B1"), "5")
    eq(ref.tally.racks()[0], ["5"])


def test_hall_only_resume_asks_the_faces_of_chips_laid_before_the_power_cut():
    """BUG. Hall-only board: the power goes while a player has laid chips. On resuming the
    board cannot read them, so it must ask their faces (as when they were laid) rather than
    ignore them: otherwise they lie there unseen by the referee."""
    fs = MemFS()
    new_board({"players": 2}, fs=fs, nfc=False)
    board = after_power_cut(fs, [("H8", None)], nfc=False)
    board.press("ok")
    ref = board.app.referee
    asked = ref.picking is not None and ref.picking[0] == sq("H8")
    eq(asked, True)


def test_back_in_the_tally_takes_back_the_previous_players_last_chip():
    """BUG. Entering leftovers with the buttons, P1's seventh chip is entered wrong; the count
    has already moved on to P2. BACK must be able to take that chip back: otherwise the wrong
    face is counted in P1's final score and cannot be corrected."""
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    _pass(board)
    _pass(board)
    ref = board.app.referee
    for _ in range(7):
        board.press("ok")  # seven zeros for P1; the last should have been a 9
    eq(ref.tally.player, 1)
    board.press("back")
    eq(ref.tally.player, 0)
    eq(len(ref.tally.racks()[0]), 6)


# ----- passing: tricky cases that work ------------------------------------------------------


def test_buttons_in_every_mode_never_crash():
    """Every button pressed in play, pick, menu, swap, take_back, tally and over."""
    board = new_board({"players": 2, "strict": True})
    ref = board.app.referee
    for name in ("left", "right", "back", "back"):  # play, then the menu and out again
        board.press(name)
    board.press("back")
    eq(ref.mode, "menu")
    for name in ("left", "right", "right", "left"):
        board.press(name)
    board.press("right")  # "Swap"
    board.press("ok")
    eq(ref.mode, "swap")
    for name in ("left", "left", "right", "back"):
        board.press(name)
    eq(ref.mode, "menu")
    board.press("back")
    board.place(sq("H8"), "?")
    eq(ref.mode, "pick")
    for name in ("back", "left", "right", "left"):
        board.press(name)
    eq(ref.mode, "pick")
    board.press("ok")  # joker = 0, alone: illegal, strict: the turn is lost
    board.press("ok")
    eq(ref.mode, "take_back")
    for name in ("left", "right", "ok", "back"):
        board.press(name)
    eq(ref.mode, "take_back")
    board.lift(sq("H8"))
    eq(ref.mode, "play")
    _pass(board)  # P2: every player idle, the game ends
    eq(ref.mode, "tally")
    for _ in range(14):
        board.press("ok")
    eq(board.screen()[5], "All counted: OK")
    board.press("ok")
    eq(ref.mode, "over")
    for name in ("left", "right", "back"):
        board.press(name)
    eq(ref.mode, "over")
    board.press("ok")
    eq(ref.mode, "play")  # the board was clear: a new game at once
    eq(len(events(board, "new_game")), 2)


def test_joker_on_a_square_whose_committed_chip_is_missing_is_the_wrong_chip():
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    board.lift(sq("F8"))
    board.place(sq("F8"), "?")
    eq(events(board, "wrong_chip")[-1]["want"], "6")
    eq(board.app.referee.mode, "play")
    eq(sorted(board.app.referee.missing), [sq("F8")])
    eq(_pending_squares(board), [])


def test_turn_clock_running_out_in_the_menu_loses_the_turn():
    board = new_board({"players": 2, "turn_seconds": 5})
    board.press("back")
    board.press("right")
    board.press("ok")
    eq(board.app.referee.mode, "swap")
    board.run(5000)
    eq(events(board, "timeout")[0]["player"], 1)
    eq(board.app.referee.mode, "play")
    eq(board.app.referee.game.to_move, 1)


def test_turn_clock_running_out_with_a_committed_chip_missing_keeps_it_missing():
    board = new_board({"players": 2, "turn_seconds": 10})
    lay(board, RULEBOOK[0])
    board.press("ok")
    board.lift(sq("F8"))
    board.run(10000)
    ref = board.app.referee
    eq(len(events(board, "timeout")), 1)
    eq(sorted(ref.missing), [sq("F8")])
    board.place(sq("F8"), "6")
    eq(ref.missing, {})


def test_swap_refused_when_the_bag_is_short():
    board = new_board({"players": 2})
    ref = board.app.referee
    ref.game.bag = 6
    board.press("back")
    board.press("right")
    board.press("ok")
    eq(ref.mode, "play")
    eq("Swap needs bag 7+" in _text(board), True)
    eq(events(board, "swap"), [])


def test_swap_count_wraps_within_the_rack():
    board = new_board({"players": 2})
    board.press("back")
    board.press("right")
    board.press("ok")
    board.press("left")  # from 1 to the whole rack
    eq(board.screen()[5], "Swap 7 chips")
    board.press("right")
    eq(board.screen()[5], "Swap 1 chip")


def test_seven_chip_move_that_empties_bag_and_rack_ends_the_game():
    """The bonus move is also the last: no bonus turn, the tally skips P1 (no chips left)."""
    board = new_board({"players": 2})
    ref = board.app.referee
    ref.game.bag = 0
    lay(board, SEVEN)
    board.press("ok")
    eq(events(board, "bonus_turn"), [])
    eq(ref.mode, "tally")
    eq(board.screen()[5], "P2: 7 chips left")
    for _ in range(7):
        board.press("ok")  # OK enters the face shown, as long as such a chip is left
    board.press("ok")  # all counted: the final scores
    entered = [e["face"] for e in events(board, "tally")]
    eq(len(entered), 7)
    for face in entered:  # never more of a face than the set has off the board
        eq(entered.count(face) <= ref.game.unseen[face], True, face)
    over = events(board, "game_over")
    eq(over[0]["penalties"], [0, ref.game.rack_penalty(entered)])
    eq(ref.mode, "over")


def test_last_chip_of_the_bag_is_drawn_and_play_goes_on():
    board = new_board({"players": 2})
    ref = board.app.referee
    ref.game.bag = 1
    lay(board, RULEBOOK[0])
    board.press("ok")
    eq(ref.game.bag_count(), 0)
    eq(ref.game.rack_count(0), 3)
    eq(ref.mode, "play")
    eq(ref.game.to_move, 1)


def test_every_player_timing_out_ends_the_game():
    board = new_board({"players": 2, "turn_seconds": 3})
    board.run(3100)
    board.run(3100)
    eq(len(events(board, "timeout")), 2)
    eq(board.app.referee.mode, "tally")
    board.run(10000)  # no clock in the tally
    eq(len(events(board, "timeout")), 2)


def test_chip_laid_while_taking_back_must_be_lifted_too():
    board = new_board({"players": 2, "strict": True})
    board.place(sq("A1"), "5")
    board.press("ok")
    ref = board.app.referee
    eq(ref.mode, "take_back")
    board.place(sq("B1"), "6")
    board.lift(sq("A1"))
    eq(ref.mode, "take_back")
    board.lift(sq("B1"))
    eq(ref.mode, "play")
    eq(ref.game.to_move, 1)


def test_unknown_tag_lifted_while_taking_back():
    board = new_board({"players": 2, "strict": True})
    board.place(sq("A1"), "5")
    board.press("ok")
    ref = board.app.referee
    board.put(sq("C3"), uid=b"\xde\xad\xbe\xef")
    board.run(400)
    eq(sorted(ref.unknown), [sq("C3")])
    board.lift(sq("C3"))
    eq(ref.unknown, {})
    eq(ref.mode, "take_back")
    board.lift(sq("A1"))
    eq(ref.mode, "play")


def test_chip_slid_from_a_pending_square_to_the_next():
    board = new_board({"players": 2})
    board.place(sq("D8"), "9")
    face, uid = board.on_board[sq("D8")]
    board.take(sq("D8"))
    board.tags[face].remove(uid)  # the same chip, still in the hand
    board.put(sq("E8"), face, uid)
    board.run(400)
    eq(board.app.referee.game.pending, [(sq("E8"), ord("9"))])


def test_chip_placed_and_lifted_before_it_settles_is_never_seen():
    board = new_board({"players": 2})
    board.put(sq("H8"), "2")
    board.run(200)
    board.take(sq("H8"))
    board.run(600)
    eq(events(board, "placed"), [])
    eq(events(board, "lifted"), [])
    eq(_pending_squares(board), [])


def test_same_chip_laid_again_on_its_pending_square():
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.lift(sq("F8"))
    eq(board.app.referee.verdict.legal, False)
    board.place(sq("F8"), "6")
    eq(board.app.referee.verdict.legal, True)
    board.press("ok")
    eq(events(board, "move")[0]["score"], 48)


def test_reader_failing_during_the_tally_counts_the_chip_once_it_answers():
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    _pass(board)
    _pass(board)
    ref = board.app.referee
    board.nfc.powered = False
    board.place(sq("A1"), "7")
    eq(len(events(board, "reader_down")), 1)
    eq(ref.tally.racks()[0], [])
    board.nfc.powered = True
    board.run(700)
    eq(ref.tally.racks()[0], ["7"])
    eq(len(events(board, "tally")), 1)


def test_hall_only_tally_is_entered_with_the_buttons():
    board = new_board({"players": 2}, nfc=False)
    board.place(sq("H8"))
    board.press("right")
    board.press("right")
    board.press("ok")  # H8 = 2: no calculation, not committed
    board.lift(sq("H8"))
    _pass(board)
    _pass(board)
    ref = board.app.referee
    eq(ref.mode, "tally")
    board.place(sq("A1"))  # cannot be read: ignored
    eq(ref.tally.racks()[0], [])
    for _ in range(3):
        board.press("left")  # ?, ÷, ×
    board.press("ok")
    eq(ref.tally.racks()[0], ["×"])


def test_strict_mode_with_an_illegal_joker_takes_it_back():
    board = new_board({"players": 2, "strict": True})
    board.place(sq("A1"), "?")
    board.press("ok")  # joker = 0
    board.press("ok")  # illegal: the turn is lost
    ref = board.app.referee
    eq(ref.mode, "take_back")
    eq(sorted(ref.take_back), [sq("A1")])
    board.lift(sq("A1"))
    eq(ref.mode, "play")
    eq(ref.game.to_move, 1)


def test_tick_counter_wrap_around():
    """The 30-bit tick counter wraps a second into the game: settling, buttons and the turn
    clock all keep working."""
    opts = {"players": 2, "turn_seconds": 5}
    board = SimBoard(default_profile(), opts, clock=SimClock(start=(1 << 30) - 1000))
    board.boot()
    board.run(50)
    lay(board, "H8:2 I8:+ J8:7")  # laid across the wrap
    ref = board.app.referee
    eq(ref.verdict.legal, True)
    board.press("ok")
    eq(events(board, "move")[0]["score"], 32)  # (2 + 7 on green J8) x 2 on the logo
    eq(events(board, "timeout"), [])
    eq(board.screen()[0].endswith("0:05"), True)
    board.run(5100)
    eq(events(board, "timeout")[0]["player"], 2)
