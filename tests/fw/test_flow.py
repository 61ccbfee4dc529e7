"""Whole-board turn flow beyond single moves: the end tally, resuming after power-up, and
starting afresh (runs on CPython and on MicroPython)."""

from firmware.sim.memfs import MemFS
from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK
from tests.fw.board import after_power_cut, events, lay, new_board, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.archive",)


def _pass_round(board, players):
    for _ in range(players):
        board.press("ok")  # the menu, on "Pass"
        board.press("ok")


def test_end_tally_laid_on_the_board_and_entered_with_buttons():
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    _pass_round(board, 2)
    ref = board.app.referee
    eq(ref.mode, "tally")
    eq(board.screen()[5], "P1: 7 chips left")
    # Player 1 lays their seven leftover chips anywhere to be read.
    for name, face in zip(("A1", "B1", "C1", "D1", "E1", "F1", "G1"), "12+-×÷?"):
        board.place(sq(name), face)
    eq(board.screen()[5], "P2: 7 chips left")
    # Player 2 enters theirs: 9 (left from 0 is ?, then ÷, ×, -, +, 9), then six zeros.
    for _ in range(6):
        board.press("left")
    board.press("ok")
    board.press("back")  # takes the 9 back
    board.press("ok")
    for _ in range(6):
        board.press("right")  # 9 -> 0 ... wraps past the operators
    for _ in range(6):
        board.press("ok")
    eq(events(board, "game_over"), [])  # nothing final yet: BACK could still correct it
    eq(board.screen()[5], "All counted: OK")
    board.press("ok")
    over = events(board, "game_over")
    eq(len(over), 1)
    tallies = events(board, "tally")
    eq([t["face"] for t in tallies if t["player"] == 2][:2], ["9", "9"])
    eq(over[0]["penalties"][0], 1 + 2 + 10 * 5)
    eq(ref.mode, "over")
    eq(board.screen()[5], "P1 wins")


def test_new_game_waits_for_a_clear_board():
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    _pass_round(board, 2)
    for name, face in zip(("A1", "B1", "C1", "D1", "E1", "F1", "G1"), "1234567"):
        board.place(sq(name), face)
    for _ in range(7):
        board.press("ok")
    board.press("ok")  # all counted: the final scores
    board.press("ok")  # game over: a new game, once the board is clear
    eq(board.app.referee.mode, "clear")
    for name in ("A1", "B1", "C1", "D1", "E1", "F1", "G1"):
        board.lift(sq(name))
    for name in ("D8", "E8", "F8", "G8", "H8"):
        board.lift(sq(name))
    eq(board.app.referee.mode, "play")
    eq(len(events(board, "new_game")), 2)
    eq(board.app.referee.game.turns, 0)


def test_resume_after_power_up():
    fs = MemFS()
    first = new_board({"players": 4}, fs=fs)
    for k in range(2):
        lay(first, RULEBOOK[k])
        first.press("ok")
    lay(first, "F6:3 G6:×")  # laid, not confirmed, when the power goes
    lying = [p.split(":") for p in " ".join(RULEBOOK[:2]).split() + ["F6:3", "G6:×"]]
    board = after_power_cut(fs, lying, {"players": 4})
    ref = board.app.referee
    eq(ref.mode, "resume")
    eq(board.screen()[5], "Resume game?")
    board.press("ok")
    eq(ref.game.totals(), [48, 12, 0, 0])
    eq(ref.missing, {})
    eq(sorted(ref.game.pending), [(sq("F6"), ord("3")), (sq("G6"), ord("*"))])
    lay(board, "I6:- J6:1")
    board.press("ok")
    eq(events(board, "move")[-1]["score"], 33)


def test_resume_with_a_chip_missing_waits_for_it():
    fs = MemFS()
    first = new_board({"players": 4}, fs=fs)
    lay(first, RULEBOOK[0])
    first.press("ok")
    lying = [p.split(":") for p in RULEBOOK[0].split() if not p.startswith("F8")]
    board = after_power_cut(fs, lying, {"players": 4})
    board.press("ok")
    ref = board.app.referee
    eq(sorted(ref.missing), [sq("F8")])
    eq(ref.blocked()[0], "put_back")
    board.place(sq("F8"), "6")
    eq(ref.missing, {})


def test_back_at_the_resume_prompt_starts_a_new_game():
    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lay(first, RULEBOOK[0])
    first.press("ok")
    board = after_power_cut(fs, [], {"players": 4})
    board.press("back")
    eq(board.app.referee.mode, "play")
    eq(board.app.referee.game.turns, 0)
    eq(board.app.journal.load()[0] is not None, True)  # the new game is journaled at once


def test_damaged_journal_is_reported_and_a_new_game_starts():
    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lay(first, RULEBOOK[0])
    first.press("ok")
    data = bytearray(fs.files["game.dat"])
    data[-1] ^= 0xFF
    fs.files["game.dat"] = bytes(data)
    board = after_power_cut(fs, [], {"players": 4})
    eq(len(events(board, "journal_problem")), 1)
    eq(board.app.referee.mode, "play")


def test_flash_full_is_a_message_and_play_goes_on():
    fs = MemFS()
    board = new_board({"players": 2}, fs=fs)
    fs.fail_writes = True
    lay(board, RULEBOOK[0])
    board.press("ok")
    eq(len(events(board, "save_failed")), 1)
    eq(fs.remounts, 1)  # the flash is remounted before the next write
    eq("Could not save!" in " ".join(board.screen()), True)
    eq(board.app.referee.game.totals(), [48, 0])
    fs.fail_writes = False
    lay(board, RULEBOOK[1])
    board.press("ok")
    eq(board.screen()[4], "")  # saved again: the alert is gone
    eq(board.app.journal.load()[0] is not None, True)


def test_resume_with_another_chip_on_a_committed_square_waits_for_the_right_one():
    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lay(first, RULEBOOK[0])
    first.press("ok")
    lying = [p.split(":") for p in RULEBOOK[0].split() if not p.startswith("F8")]
    board = after_power_cut(fs, lying + [["F8", "7"]])  # a 7 where the 6 was
    board.press("ok")
    ref = board.app.referee
    eq(sorted(ref.missing), [sq("F8")])
    board.lift(sq("F8"))
    board.place(sq("F8"), "6")
    eq(ref.missing, {})
