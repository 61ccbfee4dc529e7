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

import time

import pytest

pytest.importorskip("littlefs")

from engine import autoplay, snapshot
from firmware.journal import Journal, JournalError
from tests.engine.fixtures import RULEBOOK, default_profile, new_game, play
from tests.flashsim import CutFlash, LfsFS, PowerLost, mount


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
