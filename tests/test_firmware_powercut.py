"""A power cut at every flash write of a whole game played on the board (CPython only).

The firmware plays a game on the simulated board, journaling to littlefs on `CutFlash`
(tests/flashsim.py). First uncut, to count W, the block writes of the whole game; then for
every k in 1..W the game is played again with the power lost at write k. A new board then
boots on the bytes the flash holds, with the chips still lying where they were, and must
offer the last committed turn (or the one being saved when the power went, if its rename had
landed), resume it, and agree with what was on the board: nothing missing, same scores.
"""

import time

import pytest

pytest.importorskip("littlefs")

from engine.snapshot import encode
from tests.engine.fixtures import RULEBOOK
from tests.flashsim import CutFlash, LfsFS, PowerLost, mount
from tests.fw.board import lay, new_board

PLAYERS = 2


def play(board):
    """A whole game as players would play it at the board: the rulebook's five moves, a pass
    and a swap (a round without a move: the game ends), the leftover chips entered with the
    buttons, and the final scores."""
    for move in RULEBOOK:
        lay(board, move)
        board.press("ok")
    board.press("ok")  # menu: pass
    board.press("ok")
    board.press("ok")  # menu, then swap 1 chip
    board.press("right")
    board.press("ok")
    board.press("ok")
    assert board.app.referee.mode == "tally"
    for _ in range(2 * 7):
        board.press("ok")  # every leftover chip entered as a 0
    board.press("ok")  # all counted: final scores


def run(cut_at=None, torn=False):
    """Play on a fresh flash, losing power at write `cut_at`; returns what happened."""
    flash = CutFlash(torn=torn)
    fs = LfsFS(mount(flash, fresh=True), flash)
    board = new_board({"players": PLAYERS}, fs=fs, boot=False)
    saved = []  # payloads whose save returned
    trying = []  # the payload being saved
    save = board.app.journal.save

    def recording_save(payload):
        trying[:] = [payload]
        save(payload)
        saved.append(payload)

    board.app.journal.save = recording_save  # the referee holds this same Journal
    flash.arm(cut_at)
    try:
        board.boot()
        board.run(50)
        play(board)
        cut = False
    except PowerLost:
        cut = True
    return flash, board, saved, trying, cut


@pytest.mark.parametrize("torn", [False, True], ids=["dropped", "torn"])
def test_power_cut_at_every_write_resumes_the_last_committed_turn(torn):
    started = time.perf_counter()
    flash, board, saved, _, cut = run()
    assert not cut
    assert board.app.referee.mode == "over"
    writes = flash.writes
    assert len(saved) == 1 + len(RULEBOOK) + 3  # new game, five moves, pass, swap, the end
    outcomes = {"last saved": 0, "being saved": 0, "new game": 0}
    for k in range(1, writes + 1):
        flash, old, saved, trying, cut = run(k, torn)
        assert cut, "write %d never happened" % k
        fresh = CutFlash(image=bytearray(flash.buffer))
        fs = LfsFS(mount(fresh), fresh)
        board = new_board({"players": PLAYERS}, fs=fs, boot=False)
        for square, (face, _) in old.on_board.items():
            board.put(square, face)
        board.boot()
        board.run(500)
        ref = board.app.referee
        if ref.mode != "resume":
            assert not saved, "write %d: a saved game was lost" % k
            outcomes["new game"] += 1
            continue
        board.press("ok")
        got = encode(ref.game)
        if saved and got == saved[-1]:
            outcomes["last saved"] += 1
        else:
            assert got == trying[0], "write %d: resumed neither turn" % k
            outcomes["being saved"] += 1
        assert ref.missing == {} and ref.unknown == {}
    print(
        "\n%d block writes, one cut at each (%s): %s (%.1f s)"
        % (writes, "torn" if torn else "dropped", outcomes, time.perf_counter() - started)
    )
    assert outcomes["last saved"] > 0
