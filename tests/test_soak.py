"""A short seeded soak (tests/soak.py): whole games on the simulated board, and nothing may go
wrong (CPython only; `make soak` is the long run).

Runs of a few seconds or less:
- clean: only what players do anyway (chips slid in, hesitated over, put on the wrong square
  and moved, the menu looked through), no noise and no mistakes;
- noisy: every noise (magnets, the NFC reader, power cuts at flash writes, USB lines) and
  every mistake the board must refuse (illegal moves, tally entries of chips that do not
  exist), at the long run's rates;
- menu: the reader failing while chips are laid with the turn menu open;
- end-cuts: the power cut at a write of every game's end (its last save, the archive, the
  next game's first save);
- one session each where a long soak found a fault (`--session`). They replay the same
  players and noise, but the firmware's own timing decides what the noise meets, so a
  firmware change may make one pass without mending its fault: the long run is the judge.
Each fault count of each run is its own test, so a failure names what went wrong; its message
gives the first occurrence of each kind, with the command that replays it.
"""

import functools

import pytest

pytest.importorskip("littlefs")  # tests/flashsim.py, under tests/soak.py, needs it

from tests import soak


def _menu_rates():
    out = soak.rates(only=("reader_stuck", "reader_off", "corrupt"))
    out.update(menu_first=0.5, reader_stuck=0.3, reader_off=0.2, corrupt=0.3)
    return out


def _end_cut_rates():
    out = soak.rates(only=("cut_end",))
    out["cut_end"] = 1.0
    return out


RUNS = {
    "clean": {"seed": 11, "turns": 150, "rates": soak.rates(noise=False, mistakes=False)},
    "noisy": {"seed": 3, "turns": 300},
    "menu": {"seed": 5, "turns": 40, "rates": _menu_rates()},
    "end-cuts": {"seed": 1, "turns": 120, "rates": _end_cut_rates()},
    # OK with the menu open and a chip laid but not read passed the turn (fixed in a1eea77)
    "menu-pass": {"session": 2675342405, "rates": _menu_rates()},
    # a chip whose magnet dropped out and came back, lifted before it settled again, stayed
    # on the board for the firmware: moved to another square, its tag was "the same as" there
    # (fixed: sensing._changed lifts a placed chip whose magnet goes while it settles again)
    "ghost-chip": {"session": 2187298114},
    # OK pressed at power-up before every tag was read: the unread chips were called missing
    # (fixed: a chip sensed and not read yet is there, its face unknown)
    "resume-early": {"session": 1360367077},
}

# Faults the firmware has today, found by the soak and not fixed yet: (run, count) -> what.
# They are expected failures (not strict): once fixed, the test passes and its entry goes.
KNOWN = {}  # type: dict[tuple[str, str], str]


@functools.cache
def _soak(run):
    opts = dict(RUNS[run])
    opts.setdefault("turns", 1000)  # a session alone ends with its games (three at most)
    s = soak.Soak(**opts)
    s.run()
    return s


@pytest.mark.parametrize("count", soak.FAULTS)
@pytest.mark.parametrize("run", sorted(RUNS))
def test_soak_counts_nothing(run, count, request):
    if (run, count) in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[run, count], strict=False))
    s = _soak(run)
    described = ["x%d: %s" % (n, line) for n, line in s.notes[count].values()]
    assert s.counts[count] == 0, "\n".join(described)


@pytest.mark.parametrize("run", ["clean", "noisy", "end-cuts"])
def test_soak_plays_whole_games(run):
    s = _soak(run)
    assert s.counts["turns"] >= RUNS[run]["turns"]
    assert s.counts["games"] >= 2, s.counts  # finished, archived and cleared away


def test_soak_cuts_the_power():
    assert _soak("noisy").power_cuts >= 5


def test_a_seed_replays_the_same_run():
    a = soak.Soak(seed=3, turns=30)
    b = soak.Soak(seed=3, turns=30)
    assert a.run() == b.run()
    assert (a.power_cuts, a.sessions, a.vt) == (b.power_cuts, b.sessions, b.vt)
