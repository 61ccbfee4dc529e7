"""The anytime search chooses the same move on MicroPython as on CPython (issue 12).

For a few seeded mid-game positions and step budgets, the move, its score and the steps
taken are printed by a run on the WASI MicroPython and compared with CPython's own: the
search is integers and a seeded bag throughout, so any difference is a bug. Cal-Q-Able's
positions are tests/engine/test_calqable_best.py's (its search goes best bound first, in
passes of growing size: an order that must not depend on the runtime's sort).
"""

from engine import search
from tests.engine.test_search import position
from tools import mpyrun

CASES = [(3, 6, 256), (7, 5, 1024), (11, 8, 600), (19, 10, None)]
CALQABLE = [(0, 300), (1, 2000), (2, None), (3, None)]  # (position, steps)

_SCRIPT = """
from engine import search
from tests.engine.test_search import position
for seed, turns, steps in %r:
    s = search.Search(position(seed, turns), steps=steps)
    move, score = s.run()
    print("R", seed, str(move), score, s.spent, s.complete)
from tests.engine.test_calqable_best import positions
for k, steps in %r:
    s = search.Search(positions()[k], steps=steps)
    move, score = s.run()
    print("Q", k, str(move), score, s.spent, s.complete)
"""


def _line(seed, turns, steps):
    s = search.Search(position(seed, turns), steps=steps)
    move, score = s.run()
    return "R %d %s %s %d %s" % (seed, move, score, s.spent, s.complete)


def _calqable_line(k, steps):
    from tests.engine.test_calqable_best import positions

    s = search.Search(positions()[k], steps=steps)
    move, score = s.run()
    return "Q %d %s %s %d %s" % (k, move, score, s.spent, s.complete)


def test_micropython_chooses_what_cpython_chooses():
    r = mpyrun.run(mpyrun.prelude() + _SCRIPT % (CASES, CALQABLE), fuel=400_000_000_000)
    assert r.ok, r.describe()
    got = [line for line in r.stdout.splitlines() if line.startswith(("R ", "Q "))]
    want = [_line(*case) for case in CASES] + [_calqable_line(*case) for case in CALQABLE]
    assert got == want
