"""The anytime search chooses the same move on MicroPython as on CPython (issue 12).

For a few seeded mid-game positions and step budgets, the move, its score and the steps
taken are printed by a run on the WASI MicroPython and compared with CPython's own: the
search is integers and a seeded bag throughout, so any difference is a bug.
"""

from engine import search
from tests.engine.test_search import position
from tools import mpyrun

CASES = [(3, 6, 256), (7, 5, 1024), (11, 8, 600), (19, 10, None)]

_SCRIPT = """
from engine import search
from tests.engine.test_search import position
for seed, turns, steps in %r:
    s = search.Search(position(seed, turns), steps=steps)
    move, score = s.run()
    print("R", seed, str(move), score, s.spent, s.complete)
"""


def _line(seed, turns, steps):
    s = search.Search(position(seed, turns), steps=steps)
    move, score = s.run()
    return "R %d %s %s %d %s" % (seed, move, score, s.spent, s.complete)


def test_micropython_chooses_what_cpython_chooses():
    r = mpyrun.run(mpyrun.prelude() + _SCRIPT % (CASES,), fuel=200_000_000_000)
    assert r.ok, r.describe()
    got = [line for line in r.stdout.splitlines() if line.startswith("R ")]
    want = [_line(*case) for case in CASES]
    assert got == want
