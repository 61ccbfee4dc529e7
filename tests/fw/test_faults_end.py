"""The board under faults at the end of a game and in its saved files: power cuts while a
finished game is archived, a full flash, saved games that are damaged or of the other game.
Checked through the display, the event lines and the files (CPython and MicroPython)."""

from firmware.archive import Archive
from firmware.sim.memfs import MemFS
from firmware.sim.simboard import SimBoard
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
    sq,
    to_the_tally,
)

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("engine.calqable",)

# ----- 3: a power cut while a finished game is archived ------------------------------------


class PowerCut(BaseException):
    """The power goes: nothing the firmware catches (its guard catches Exception only)."""


class CutFS(MemFS):
    """A flash whose power goes before the write or rename numbered `cut_at` (1-based)."""

    def __init__(self):
        MemFS.__init__(self)
        self.ops = 0
        self.cut_at = None

    def _op(self):
        self.ops += 1
        if self.cut_at is not None and self.ops >= self.cut_at:
            self.cut_at = None
            raise PowerCut()

    def write(self, path, data):
        self._op()
        MemFS.write(self, path, data)

    def rename(self, old, new):
        self._op()
        MemFS.rename(self, old, new)


def _end_cut_at(k, laid):
    """A game ended with the power cut at the `k`-th write or rename of its end, then resumed
    and checked; False if the end has fewer writes (the cut never came). One board at a time,
    as on a Pico (whose heap holds one), and nothing of it kept once this returns."""
    fs = CutFS()
    first = new_board({"players": 2}, fs=fs)
    to_the_tally(first)
    while not first.app.referee.tally.done():
        first.press("ok")
    fs.cut_at = fs.ops + k
    try:
        first.press("ok")  # the final scores: archive and journal
    except PowerCut:
        pass
    if fs.cut_at is not None:  # every write of the end went through: all cuts tried
        return False
    first = None  # the power went: that board is gone
    board = after_power_cut(fs, laid)
    board.press("ok")  # resume
    ref = board.app.referee
    if ref.mode == "tally":  # the cut came before the end was saved: count again
        finish_tally(board)
    eq(ref.mode, "over", "cut %d" % k)
    for name, _ in laid:  # the board is cleared
        board.lift(sq(name))
    board.press("ok")  # a new game
    eq(ref.mode, "play", "cut %d" % k)
    archive = Archive(fs)
    eq(archive.names(), ["games/001.dat"], "cut %d" % k)
    eq(archive.read("games/001.dat")[1]["racks"][0][:2], ["0", "0"])
    eq([name for name in fs.files if name.endswith(".new")], [], "cut %d" % k)
    return True


def test_a_power_cut_at_every_write_of_the_end_never_loses_the_finished_game():
    laid = chips_of(RULEBOOK[0])
    k = 1
    while _end_cut_at(k, laid):
        k += 1
    eq(k > 2, True)  # the archive's write and rename, and the journal's, were all cut


def test_a_finished_game_the_flash_refused_to_archive_is_not_dropped_by_ok():
    fs = MemFS()
    board = new_board({"players": 2}, fs=fs)
    to_the_tally(board)
    while not board.app.referee.tally.done():
        board.press("ok")
    fs.fail_writes = True  # the flash is full
    board.press("ok")
    eq(board.app.referee.mode, "over")
    eq(board.screen()[4], "Could not save!")
    for name, _ in chips_of(RULEBOOK[0]):
        board.lift(sq(name))
    board.press("ok")  # a new game? not while the finished one is nowhere but in RAM
    eq(board.app.referee.mode, "over")
    fs.fail_writes = False
    board.press("ok")
    eq(board.app.referee.mode, "play")
    eq(Archive(fs).names(), ["games/001.dat"])
    eq(board.screen()[4], "")


# ----- 5 and 13: the saved game --------------------------------------------------------------


def test_a_saved_game_of_the_other_game_is_kept_and_comes_back_with_its_game():
    from engine.profile import Profile
    from tests.engine.fixtures import profile_data

    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lay(first, RULEBOOK[0])
    first.press("ok")
    first = None  # switched off to play Cal-Q-Able (a Pico holds one board at a time)
    calqable = SimBoard(Profile(profile_data("calqable")), {"players": 2}, fs=fs)
    calqable.boot()
    calqable.run(100)
    eq(calqable.app.referee.mode, "play")  # never resumed as Cal-Q-Able
    eq(calqable.app.referee.game.turns, 0)
    eq(events(calqable, "journal_problem")[0]["text"], "saved calculissimo game kept")
    eq(message(calqable), "Saved calculissimo game kept")
    eq(fs.exists("game-calculissimo.dat"), True)
    calqable = None
    back = after_power_cut(fs, chips_of(RULEBOOK[0]))  # switched back to Calculissimo
    eq(back.app.referee.mode, "resume")
    back.press("ok")
    eq((back.app.referee.game.turns, back.app.referee.game.scores), (1, [48, 0]))
    eq(fs.exists("game-calqable.dat"), True)  # and the Cal-Q-Able game waits in turn


def test_a_damaged_saved_game_is_kept_and_the_board_says_so():
    fs = MemFS()
    first = new_board({"players": 2}, fs=fs)
    lay(first, RULEBOOK[0])
    first.press("ok")
    damaged = bytearray(fs.files["game.dat"])
    damaged[-1] ^= 0xFF
    fs.files["game.dat"] = bytes(damaged)
    board = after_power_cut(fs, [])
    eq(message(board), "Saved game damaged")
    eq(events(board, "journal_problem")[0]["text"], "journal checksum wrong; kept as game.bad")
    eq(fs.files["game.bad"], bytes(damaged))  # the new game's first save went elsewhere
    eq(board.app.referee.game.turns, 0)
