"""A button pressed while the board thinks takes the move found so far (the search is
anytime): for a hint, and for the board's own turn. On the simulated board, whose clock
moves on at each read while it thinks (SimClock.busy), so that the display's progress line
is redrawn; the person presses OK when the display offers it. CPython and MicroPython."""

from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK
from tests.fw import test_computer as computer_tests
from tests.fw.board import events, lay, message, new_board
from tests.fw.test_computer import _show_rack

RACK = ["5", "+", "3", "×", "2", "9", "-"]
MS_PER_READ = 20  # while the board thinks: the progress line is redrawn every 13 reads


def _think_pressing_ok(board):
    """The OK that starts the think, pressed with the clock busy."""
    board.clock.busy(MS_PER_READ)
    board.press("ok")
    board.clock.busy(0)


def _ask_hint(board, rack):
    computer_tests._ask_hint(board, rack, _think_pressing_ok)


def _screen(board):
    """The display's lines, as the person reads them while the board thinks ("" otherwise:
    the glass is read back only then, it takes time on MicroPython)."""
    if board.app.referee.mode != "think":
        return ""
    return " ".join(board.screen())


def _hint(press_when=None, button="ok"):
    """Ask a hint for RACK after the rulebook's first move. `press_when`: text on the
    display at which the person presses `button` (OK released first if the OK that started
    the think is still down), and holds it down. Returns (board, the hint's event, what the
    display said when the button went down)."""
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    seen = []
    if press_when is not None:
        pin = board.pins[button]

        def offered():
            text = _screen(board)
            if press_when in text and not seen:
                seen.append(text)
            return bool(seen)

        pin.script([1, 0], offered)
    _ask_hint(board, RACK)
    return board, events(board, "hint")[-1], seen[0] if seen else None


def test_ok_during_a_hint_shows_the_best_move_found_so_far():
    board, said, shown = _hint("OK shows it")
    eq(shown is not None, True, "the display offered the best so far")
    eq(said.get("early"), True)
    eq(board.app.referee.mode, "hint")  # the press ended the think; it did not leave the hint
    eq(message(board), "Hint %d pts: %s" % (said["score"], said["move"]))
    # the display had said the best score so far; the hint is that move or a better one
    so_far = int(shown.split("best ")[1].split(" pts")[0])
    eq(said["score"] >= so_far, True, (said["score"], shown))
    whole = _hint()[1]
    eq("early" in whole, False)
    eq(said["score"] <= whole["score"], True, (said, whole))


def test_another_button_ends_the_think_too_and_is_not_also_a_press_after_it():
    board, said, shown = _hint("OK shows it", "back")
    eq((shown is not None, said.get("early")), (True, True))
    board.run(100)  # still held: not a press of the hint's mode (which would leave it)
    board.pins["back"].drive(1)
    board.run(100)
    eq(board.app.referee.mode, "hint")
    eq(message(board), "Hint %d pts: %s" % (said["score"], said["move"]))


def test_the_ok_that_starts_the_think_does_not_end_it():
    # held down through the whole think, then released: no press during it
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    board.pins["ok"].script([0] * 10000 + [1], lambda: board.app.referee.mode == "think")
    _ask_hint(board, RACK)
    said = events(board, "hint")[-1]
    eq("early" in said, False)
    eq(board.app.referee.mode, "hint")


def test_ok_during_the_boards_turn_plays_its_move_found_so_far():
    board = new_board({"players": 2, "computer": [0, 3]})
    lay(board, RULEBOOK[0])
    board.press("ok")
    _show_rack(board, ["9", "+", "6", "2", "-", "?", "3"])
    seen = []

    def offered():
        if "OK plays now" in _screen(board) and not seen:
            seen.append(True)
        return bool(seen)

    board.pins["ok"].script([1, 0], offered)
    _think_pressing_ok(board)
    said = events(board, "computer")[-1]
    eq((said.get("early"), board.app.referee.mode), (True, "guide"))
    eq(said["move"] is not None, True)
