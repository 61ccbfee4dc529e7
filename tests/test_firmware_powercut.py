"""A power cut at every flash write of a whole game played on the board (CPython only).

The firmware plays a whole game on the simulated board (Calculissimo, and Cal-Q-Able with a
rule-5 replacement), journaling to littlefs on `CutFlash` (tests/flashsim.py). First uncut, to count W, the block writes of the whole game; then for
every k in 1..W the game is played again with the power lost at write k. A new board then
boots on the bytes the flash holds, with the chips still lying where they were, and must
offer the last committed turn (or the one being saved when the power went, if its rename had
landed), resume it, and agree with what lies on the board: exactly the committed squares
whose own chip is not there now are missing.
"""

import json
import time

import pytest

pytest.importorskip("littlefs")

from engine.faces import cell_text
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


def _calqable_board(fs):
    import engine.calqable  # noqa: F401  (registers the ruleset)
    from engine.profile import Profile
    from firmware.sim.simboard import SimBoard
    from tests.engine.fixtures import profile_data

    profile = Profile(profile_data("calqable"))
    settings = {"players": PLAYERS, "turn_seconds": 0, "game": "calqable"}
    return SimBoard(profile, settings, fs=fs)


def play_calqable(board):
    """tests/data/calqable.json played at the board: four moves, one of them a rule-5
    replacement, two passes (the game ends), the leftover tiles laid to be read, the end."""
    from host_tools.simboard_cli import record_script, run_script
    from tests.engine.fixtures import REPO

    with open(REPO + "/tests/data/calqable.json", encoding="utf-8") as f:
        data = json.load(f)
    run_script(board, record_script(data, board.profile), lambda line: None)


GAMES = {
    "calculissimo": (lambda fs: new_board({"players": PLAYERS}, fs=fs, boot=False), play),
    "calqable": (_calqable_board, play_calqable),
}


def run(cut_at=None, torn=False, game="calculissimo"):
    """Play on a fresh flash, losing power at write `cut_at`; returns what happened."""
    flash = CutFlash(torn=torn)
    fs = LfsFS(mount(flash, fresh=True), flash)
    make, play_game = GAMES[game]
    board = make(fs)
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
        play_game(board)
        cut = False
    except PowerLost:
        cut = True
    return flash, board, saved, trying, cut


SAVES = {"calculissimo": 1 + len(RULEBOOK) + 3, "calqable": 1 + 4 + 2 + 1}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("torn", [False, True], ids=["dropped", "torn"])
def test_power_cut_at_every_write_resumes_the_last_committed_turn(torn, game):
    started = time.perf_counter()
    flash, board, saved, _, cut = run(game=game)
    assert not cut
    assert board.app.referee.mode == "over"
    writes = flash.writes
    assert len(saved) == SAVES[game]  # new game, the turns, the end
    outcomes = {"last saved": 0, "being saved": 0, "new game": 0}
    for k in range(1, writes + 1):
        flash, old, saved, trying, cut = run(k, torn, game)
        assert cut, "write %d never happened" % k
        fresh = CutFlash(image=bytearray(flash.buffer))
        fs = LfsFS(mount(fresh), fresh)
        board = GAMES[game][0](fs)
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
        # The board must match the game: exactly the committed squares whose own chip is not
        # lying there now are missing (a turn lost to the cut may have changed some, as a
        # rule-5 replacement does).
        cells = ref.game.board.cells
        lying = {sq: face for sq, (face, _) in old.on_board.items()}
        differ = sorted(
            sq for sq in range(len(cells)) if cells[sq] and lying.get(sq) != cell_text(cells[sq])
        )
        assert sorted(ref.missing) == differ and ref.unknown == {}, k
    print(
        "\n%s: %d block writes, one cut at each (%s): %s (%.1f s)"
        % (game, writes, "torn" if torn else "dropped", outcomes, time.perf_counter() - started)
    )
    assert outcomes["last saved"] > 0
