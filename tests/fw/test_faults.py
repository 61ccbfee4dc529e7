"""The board under faults: readers that stop, magnets that flicker, power cuts while a game
ends, saved games that are damaged or of the other game, and exceptions in any part of the
main loop. Each test is one fault a family or a maker met, checked through what they see: the
display, the LEDs, the event lines and the files (runs on CPython and on MicroPython)."""

from firmware.sim.memfs import MemFS
from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK
from tests.fw.board import (
    after_power_cut,
    chips_of,
    events,
    finish_tally,
    lay,
    message,
    new_board,
    pass_turn,
    sq,
    to_the_tally,
)

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.archive",)

RED = (255, 0, 0)


# ----- 1 and 2: the reader ---------------------------------------------------------------


def test_reader_silent_then_ok_says_so_and_the_move_plays_once_it_answers():
    board = new_board({"players": 2})
    chips = chips_of(RULEBOOK[0])
    for name, face in chips[:-1]:
        board.place(sq(name), face)
    board.nfc.powered = False  # the reader stops answering
    board.place(sq(chips[-1][0]), chips[-1][1])
    board.press("ok")  # freezing into the REPL here was fault 1
    eq(message(board), "NFC reader silent")
    eq(events(board, "move"), [])
    board.nfc.powered = True
    board.run(700)  # read again
    eq(message(board), "OK plays it")  # its points on line 3
    board.press("ok")
    eq([e["score"] for e in events(board, "move")], [48])


def test_magnet_dropout_then_a_failed_read_leaves_a_turn_that_can_be_confirmed():
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    h8 = sq("H8")
    board.chain.set(h8, False)  # the magnet drops out; the tag still answers
    board.run(60)
    eq(message(board), "H8: no magnet?")
    board.nfc.powered = False
    board.chain.set(h8, True)  # the magnet is back, but the read fails
    board.run(400)
    eq(message(board), "NFC reader silent")
    board.nfc.powered = True
    board.run(700)
    eq(message(board), "OK plays it")  # its points on line 3
    board.press("ok")
    eq([e["score"] for e in events(board, "move")], [48])


# ----- 6: an illegal move after a pass ---------------------------------------------------------


def test_an_illegal_move_after_a_pass_is_only_refused_when_strict_is_off():
    board = new_board({"players": 2})
    pass_turn(board)  # P1 passes; P2 to move
    lay(board, "H8:2 I8:+")  # no calculation: illegal
    board.press("ok")
    eq(message(board)[:8], "Illegal:")
    eq(events(board, "illegal")[0]["player"], 2)
    eq(board.app.referee.mode, "play")
    eq(board.app.referee.game.to_move, 1)  # still P2's turn
    board.lift(sq("I8"))
    lay(board, "D8:9 E8:+ F8:6 G8:÷")
    board.press("ok")
    eq([(e["player"], e["score"]) for e in events(board, "move")], [(2, 48)])


# ----- 7 and 8: messages follow the state --------------------------------------------------------


def test_no_magnet_message_goes_once_the_magnet_is_back():
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    before = message(board)
    d8 = sq("D8")
    board.chain.set(d8, False)
    board.run(60)
    eq(message(board), "D8: no magnet?")
    board.chain.set(d8, True)  # the same chip settles again: no placement, and no message
    board.run(500)
    eq(message(board), before)


def test_unknown_chip_message_goes_when_the_tag_is_lifted():
    board = new_board({"players": 2})
    before = message(board)
    board.put(sq("H9"), uid=b"\x04\x99\x99\x99")
    board.run(400)
    eq(message(board), "Unknown chip H9")
    board.lift(sq("H9"))
    eq(message(board), before)


def test_clearing_the_board_after_the_final_scores_asks_for_nothing_back():
    board = new_board({"players": 2})
    to_the_tally(board)
    finish_tally(board)
    eq(message(board), "P1 wins")
    d8 = sq("D8")
    board.lift(d8)
    eq(message(board), "P1 wins")
    eq(events(board, "missing"), [])
    for _ in range(3):
        board.run(250)
        eq(board.led(d8) != RED, True)


def test_chips_missing_after_a_power_cut_are_announced():
    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lay(first, RULEBOOK[0])
    first.press("ok")
    lying = [c for c in chips_of(RULEBOOK[0]) if c[0] != "D8"]  # D8 lifted while off
    board = after_power_cut(fs, lying)
    board.press("ok")
    eq([e["square"] for e in events(board, "missing")], ["D8"])
    eq(message(board), "Put back D8")


# ----- 9: the tally -------------------------------------------------------------------------------


def test_the_tally_enters_only_chips_that_exist():
    board = new_board({"players": 2})
    to_the_tally(board)
    ref = board.app.referee
    zeros = ref.game.unseen["0"]
    for _ in range(zeros):
        board.press("ok")  # "0" is offered first while a zero is left
    eq([e["face"] for e in events(board, "tally")], ["0"] * zeros)
    board.press("ok")  # no zero left: OK enters the next face there is
    eq(events(board, "tally")[-1]["face"], "1")
    board.press("left")  # back towards 0: skipped, none is left
    eq(message(board) != "P1 = 0 ?", True)


# ----- 10 and 11: tags -------------------------------------------------------------------------


def test_one_tag_read_on_two_squares_is_not_a_chip():
    board = new_board({"players": 2})
    lay(board, "D8:9 E8:+ F8:6 G8:÷")
    uid = board.on_board[sq("D8")][1]
    board.put(sq("H8"), uid=uid)  # the reader hears D8's tag from H8 (a relayed tag)
    board.run(400)
    eq(message(board), "H8: same tag as D8")
    board.press("ok")
    eq(events(board, "move"), [])
    board.lift(sq("H8"))
    board.place(sq("H8"), "2")
    board.press("ok")
    eq([e["score"] for e in events(board, "move")], [48])


def test_a_chip_whose_tag_did_not_answer_is_read_again():
    board = new_board({"players": 2})
    lay(board, "D8:9 E8:+ F8:6 G8:÷")
    h8 = sq("H8")
    uid = board.tags["2"].pop()
    board.chain.set(h8, True)  # the magnet is sensed, the tag is not yet in the field
    board.run(400)
    eq(message(board), "No chip tag at H8")
    board.field.tags[h8] = uid  # the chip settles onto its antenna
    board.on_board[h8] = ("2", uid)
    board.run(1200)
    eq(message(board), "OK plays it")  # its points on line 3


def test_a_chip_laid_with_the_menu_open_and_not_read_closes_the_menu():
    """Found by the soak: the reader is down while a chip is laid with the menu open; OK
    must not pass the turn while a chip lies there."""
    board = new_board({"players": 2})
    board.press("ok")  # nothing laid: the menu, on "Pass"
    eq(message(board), "Pass")
    board.nfc.powered = False
    board.place(sq("H8"), "2")
    eq(message(board), "NFC reader silent")
    board.press("ok")  # not a pass: the chip must be read first
    eq(events(board, "pass"), [])
    eq(board.app.referee.mode, "play")
    board.nfc.powered = True
    board.run(700)
    eq(board.app.referee.game.pending, [(sq("H8"), ord("2"))])


def test_a_chip_lifted_while_its_magnet_settles_again_is_lifted():
    """Found by the soak: a magnet drops out and comes back, and the chip is lifted before it
    settles again; it must be lifted for the board too, and read normally where it goes."""
    board = new_board({"players": 2})
    lay(board, "D8:9 E8:+ F8:6 G8:÷")
    l10 = sq("L10")
    board.place(l10, "2")
    board.chain.set(l10, False)  # the magnet drops out, the tag still answers
    board.run(60)
    board.chain.set(l10, True)  # back, settling again...
    board.run(100)
    face, uid = board.on_board[l10]
    board.take(l10)  # ...and lifted before it settles
    board.run(600)
    eq(events(board, "lifted")[-1]["square"], "L10")
    board.put(sq("H8"), face, uid)  # the same chip laid where the move needs it
    board.run(400)
    eq(message(board), "OK plays it")  # its points on line 3


def _longest_step(board, ms):
    """Run `ms` of the main loop; the longest step, in ms of the board's clock (a step's
    own time is the reader's waits)."""
    from engine.compat import ticks_diff

    longest = 0
    for _ in range(ms // board.app.period_ms):
        t0 = board.clock.ticks_ms()
        board.app.tick()
        longest = max(longest, ticks_diff(board.clock.ticks_ms(), t0))
        board.clock.advance(board.app.period_ms)
    return longest


def test_reading_every_chip_after_a_power_cut_never_holds_a_step_long():
    """After a power-up every chip on the board settles at once; reading all of them in one
    scan left the buttons unread for as long as all those reads take. A scan reads two at
    most, and the others follow in the next scans."""
    from firmware.sensing import READS_PER_SCAN

    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lying = []
    for move in RULEBOOK[:3]:
        lay(first, move)
        first.press("ok")
        lying += chips_of(move)
    board = new_board({"players": 2}, fs=fs, boot=False)
    for name, face in lying:
        board.put(sq(name), face)
    board.boot()
    longest = _longest_step(board, 1000)
    eq(len(board.app.sensing.placed), len(lying))  # every chip read within a second
    board.put(sq("A1"), "5")
    one = _longest_step(board, 500)  # the step that reads one chip
    eq(0 < one and longest <= READS_PER_SCAN * one < len(lying) * one, True, (longest, one))


def test_ok_pressed_before_the_chips_are_read_announces_only_what_is_wrong():
    """Found by the soak: after a power-up the chips are read a few a scan; resuming before
    they all are must not call the unread ones missing, and a wrong chip read late is still
    found."""
    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lying = []
    for move in RULEBOOK[:3]:
        lay(first, move)
        first.press("ok")
        lying += chips_of(move)
    board = new_board({"players": 2}, fs=fs, boot=False)
    for name, face in lying:
        board.put(sq(name), "5" if name == "D8" else face)  # D8's 9 swapped for a 5
    board.boot()
    board.run(50)
    board.press("ok")  # at once: most tags are not read yet
    board.run(1500)
    eq([e["square"] for e in events(board, "missing")], [])
    eq([(e["square"], e["face"]) for e in events(board, "wrong_chip")], [("D8", "5")])
    eq(message(board), "D8 holds 9")
