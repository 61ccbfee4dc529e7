"""Nothing is lost: the journal survives a power cut at every block write (CPython only).

The flash is littlefs v2, the filesystem the rp2 port mounts (littlefs-python; the rp2
port's settings: 4096-byte blocks, prog size 256, read size 32, cache 1024, lookahead 32,
block_cycles 100), on `CutFlash`, a block device that counts its block writes (prog and
erase) and loses power at the k-th: that write is dropped, or torn (a prog writes only a
prefix, an erase leaves half the block unerased), and every write after it fails.

A refereed game is played once and its snapshot taken after every committed turn. W is the
number of block writes its journaling takes. Then, for every k in 1..W, the journaling is
replayed on a freshly formatted flash with power lost at write k; the flash is mounted
afresh from the bytes left on it, and `Journal.load` must give the last snapshot whose
`save` returned, or the one being saved, never anything else and never a damaged journal.
"""

import errno
import time

import pytest

littlefs = pytest.importorskip("littlefs")

from engine import autoplay, snapshot
from firmware.journal import Journal, JournalError
from tests.engine.fixtures import RULEBOOK, default_profile, new_game, play

LittleFSError = littlefs.LittleFSError
lfs = littlefs.lfs
IO = LittleFSError.Error.LFS_ERR_IO

BLOCK = 4096
BLOCKS = 24  # 96 KB
RP2 = {"read_size": 32, "prog_size": 256, "cache_size": 1024, "lookahead_size": 32,
       "block_cycles": 100}  # fmt: skip


class CutFlash(littlefs.UserContext):
    """Flash that counts block writes (prog, erase) and, once armed with `arm(k)`, loses
    power at the k-th: that write is dropped (or, if `torn`, half done) and every later one
    fails. With `survive`, write k fails (LFS_ERR_IO) but the power stays on."""

    def __init__(self, image=None, torn=False, survive=False):
        super().__init__(buffsize=BLOCK * BLOCKS, buffer=image)
        self.torn = torn
        self.survive = survive
        self.cut_at = None
        self.progs = 0
        self.erases = 0
        self.dead = False

    @property
    def writes(self):
        return self.progs + self.erases

    def arm(self, cut_at):
        """Count writes from zero, and fail write `cut_at` (None: never)."""
        self.progs = self.erases = 0
        self.cut_at = cut_at

    def _fails(self):
        """None if this write happens, else "cut" (the armed write) or "off" (after it)."""
        if self.dead:
            return "off"
        if self.writes + 1 != self.cut_at:
            return None
        self.cut_at = None
        self.dead = not self.survive
        return "cut"

    def prog(self, cfg, block, off, data):
        fails = self._fails()
        if fails is None:
            self.progs += 1
            return super().prog(cfg, block, off, data)
        if fails == "cut" and self.torn:
            super().prog(cfg, block, off, data[: len(data) // 2])
        return IO

    def erase(self, cfg, block):
        fails = self._fails()
        if fails is None:
            self.erases += 1
            return super().erase(cfg, block)
        if fails == "cut" and self.torn:
            start = block * cfg.block_size
            self.buffer[start : start + cfg.block_size // 2] = b"\xff" * (cfg.block_size // 2)
        return IO


class PowerLost(BaseException):
    """The board's power went: nothing runs after this (no firmware handler may catch it)."""


class LfsFS:
    """The firmware's fsio interface on a littlefs-python filesystem on `flash`. As with
    MicroPython's VFS, littlefs errors are OSError(errno). Once the flash has lost power no
    more code runs: every call raises PowerLost."""

    def __init__(self, fs, flash):
        self.lfs = fs
        self.fs = fs.fs
        self.flash = flash

    def _do(self, fn, *args):
        if self.flash.dead:
            raise PowerLost()
        try:
            result = fn(*args)
        except LittleFSError as exc:
            if self.flash.dead:
                raise PowerLost() from exc
            raise OSError(-exc.code, exc.name) from exc
        if self.flash.dead:
            raise PowerLost()
        return result

    def read(self, path):
        try:
            fh = self._do(lfs.file_open, self.fs, path, "rb")
        except OSError as exc:
            if exc.errno == errno.ENOENT:
                return None
            raise
        try:
            return self._do(lfs.file_read, self.fs, fh, self._do(lfs.file_size, self.fs, fh))
        finally:
            self._do(lfs.file_close, self.fs, fh)

    def write(self, path, data):
        fh = self._do(lfs.file_open, self.fs, path, "wb")
        try:
            self._do(lfs.file_write, self.fs, fh, bytes(data))
        finally:
            self._do(lfs.file_close, self.fs, fh)

    def rename(self, old, new):
        self._do(lfs.rename, self.fs, old, new)

    def remove(self, path):
        try:
            self._do(lfs.remove, self.fs, path)
        except OSError as exc:
            if exc.errno != errno.ENOENT:
                raise

    def exists(self, path):
        try:
            self._do(lfs.stat, self.fs, path)
        except OSError:
            return False
        return True

    def listdir(self, path=""):
        return self._do(lambda: self.lfs.listdir(path or "/"))

    def mkdir(self, path):
        try:
            self._do(lfs.mkdir, self.fs, path)
        except OSError as exc:
            if exc.errno != errno.EEXIST:
                raise


def mount(flash, fresh=False):
    """littlefs on `flash`, formatted first if `fresh`; a failed mount is an error (never
    silently reformatted, which would hide a lost journal)."""
    fs = littlefs.LittleFS(flash, mount=False, block_size=BLOCK, block_count=BLOCKS, **RP2)
    if fresh:
        fs.format()
    fs.mount()
    return fs


class _Seat:
    """What autoplay.best_move reads of a game: the referee's board, and as the rack every
    face still unseen (the board cannot see racks; the referee checks supply itself)."""

    def __init__(self, game):
        self.profile = game.profile
        self.board = game.board
        self.check = game.check
        self.to_move = 0
        self.racks = [sorted(k for k, n in game.unseen.items() if n > 0)]

    def is_first_move(self):
        return False


def play_game():
    """[(snapshot, scores, turns)] after each committed turn of a whole refereed 4-player
    game: the rulebook's five moves, then the greedy player's moves to the end, the first
    four each followed by a pass, a swap, a timeout or a forfeit (an illegal move under
    strict); last the end-of-game penalties for the chips left on the racks."""
    g = new_game(4, {"strict": True})
    states = []

    def commit():
        states.append((snapshot.encode(g), list(g.scores), g.turns))

    def forfeit():
        assert not play(g, "A1:1 B1:+ C1:2").legal

    for text in RULEBOOK:
        assert play(g, text).legal
        commit()
    idle = [g.pass_turn, lambda: g.swap(3), g.timeout, forfeit]
    while not g.over:
        move, _ = autoplay.best_move(_Seat(g))
        if move is None:
            g.pass_turn()
        else:
            g.push(move)
        commit()
        if idle:
            idle.pop(0)()
            commit()
    left = [k for k in sorted(g.unseen) for _ in range(g.unseen[k])]
    racks = []
    for n in g.racks:
        racks.append(left[:n])
        left = left[n:]
    g.finish(racks)
    commit()
    return states


_STATES = []


def states():
    if not _STATES:
        _STATES.extend(play_game())
    return _STATES


def journal_game(flash, payloads, cut_at=None):
    """Format `flash`, arm it, and journal each payload; returns how many saves returned
    before the power went (all of them if it never did)."""
    j = Journal(LfsFS(mount(flash, fresh=True), flash))
    flash.arm(cut_at)
    for done, p in enumerate(payloads):
        try:
            j.save(p)
        except PowerLost:
            return done
    return len(payloads)


def recover(flash):
    """Power back on: a fresh mount of the bytes the flash holds, and the journal on it."""
    fresh = CutFlash(image=bytearray(flash.buffer))
    return Journal(LfsFS(mount(fresh), fresh))


def test_the_game_is_long_enough_and_journals_uncut():
    s = states()
    assert len(s) >= 20
    flash = CutFlash()
    assert journal_game(flash, [p for p, _, _ in s]) == len(s)
    assert flash.progs > 0 and flash.erases > 0
    assert recover(flash).load() == (s[-1][0], None)


def block_writes(payloads):
    """W: the block writes that journaling `payloads` takes on a fresh flash."""
    flash = CutFlash()
    journal_game(flash, payloads)
    return flash.writes, flash.progs, flash.erases


def outcome(k, done, loaded, s, outcomes):
    """Check what `Journal.load` gave after write k failed during save number `done`
    (0-based), count it, and return the index of the snapshot it holds (None: no game)."""
    payload, problem = loaded
    assert problem is None, "write %d: %s" % (k, problem)
    if payload == s[done][0]:
        index, name = done, "being saved"
    elif done == 0:
        assert payload is None, "write %d: a journal from nowhere" % k
        index, name = None, "nothing yet"
    else:
        assert payload == s[done - 1][0], "write %d: a stale or foreign journal" % k
        index, name = done - 1, "last saved"
    outcomes[name] += 1
    if index is not None:
        game = snapshot.decode(default_profile(), payload)
        assert (game.scores, game.turns) == (s[index][1], s[index][2])
    return index


def report(what, counts, outcomes, started):
    total, progs, erases = counts
    print("\n%s: W=%d block writes (%d progs, %d erases) over %d saves; %s; %.1f s"
          % (what, total, progs, erases, len(states()), outcomes,
             time.perf_counter() - started))  # fmt: skip
    assert sum(outcomes.values()) == total
    assert outcomes["last saved"] > 0 and outcomes["being saved"] > 0


@pytest.mark.parametrize("torn", [False, True], ids=["dropped", "torn"])
def test_power_cut_at_every_block_write(torn):
    started = time.perf_counter()
    s = states()
    payloads = [p for p, _, _ in s]
    counts = block_writes(payloads)
    outcomes = {"nothing yet": 0, "last saved": 0, "being saved": 0}
    for k in range(1, counts[0] + 1):
        flash = CutFlash(torn=torn)
        done = journal_game(flash, payloads, k)
        assert flash.dead and done < len(payloads), "write %d never came" % k
        j = recover(flash)
        index = outcome(k, done, j.load(), s, outcomes)
        # The flash works on after the cut: the next turn is journaled and read back.
        nxt = payloads[0 if index is None else min(index + 1, len(payloads) - 1)]
        j.save(nxt)
        assert j.load() == (nxt, None)
    report("power cut, write " + ("torn" if torn else "dropped"), counts, outcomes, started)


def test_failed_write_then_remount_plays_on():
    """Write k fails but the board stays on: `save` raises JournalError, the firmware
    remounts (as journal.save documents), saves again, and the game goes on."""
    started = time.perf_counter()
    s = states()
    payloads = [p for p, _, _ in s]
    counts = block_writes(payloads)
    outcomes = {"nothing yet": 0, "last saved": 0, "being saved": 0}
    for k in range(1, counts[0] + 1):
        flash = CutFlash(survive=True)
        j = Journal(LfsFS(mount(flash, fresh=True), flash))
        flash.arm(k)
        failed = None
        for i, p in enumerate(payloads):
            try:
                j.save(p)
            except JournalError:
                assert failed is None
                failed = i
                j = Journal(LfsFS(mount(flash), flash))
                outcome(k, i, j.load(), s, outcomes)
                j.save(p)  # and tries again
        assert failed is not None, "write %d never came" % k
        assert recover(flash).load() == (payloads[-1], None)
    report("write error, power on", counts, outcomes, started)
