"""The hint search measured from inside MicroPython (tools/hintbench.py sends it).

`trace(board, rack, seed, cap, heap, game)` lays a benchmark position out
(tools/benchset.py: a board as square -> face, the mover's rack, the game's default
profile), then runs engine/search.py's anytime search with a
budget of `cap` fuel (WASI) or emulated cycles (the Pico), read with tools/fuelprobe.py
every movegen.STEP_CHECK steps, and prints one line: each better move found, as (fuel
spent, score), and whether the search was whole. With `heap=True` it also collects at
every check and reports the lowest free heap seen beside the free heap at the start (the
live heap every STEP_CHECK steps: a peak between two checks can be missed). The
collections' own cycles are not counted against the budget, so that the run goes as far
as the timed one, but the moves' times of that run are not the timed figures.
"""

import json

from engine import search
from engine.compat import collect, mem_free
from engine.game import Game
from engine.profile import Profile
from tests.engine.fixtures import default_profile, profile_data
from tools import fuelprobe
from tools.positions import lay_out

RESULT = "HINT "


class _Trace(search.BestScore):
    def __init__(self, t0):
        search.BestScore.__init__(self)
        self.t0 = t0
        self.found = []

    def offer(self, move, score):
        if score > self.score:
            self.found.append((self.t0 - fuelprobe.fuel(), score))
        search.BestScore.offer(self, move, score)


def trace(board, rack, seed, cap, heap=False, name="calculissimo"):
    if name == "calculissimo":
        profile = default_profile()
    else:
        profile = Profile(profile_data(name))
    game = lay_out(Game(profile, 2, seed=seed), board)
    game.racks[game.to_move] = list(rack)
    # The game's generator is loaded before the count starts, as after the board's first
    # think: importing Cal-Q-Able's from source cost about 190 M fuel on the WASI build, once
    # a run (engine/movegen.py imports either only when a game first asks for it).
    if name == "calqable":
        from engine import movegen_calqable  # noqa: F401
    else:
        from engine import movegen_calculissimo  # noqa: F401
    collect()
    base = mem_free() if heap else 0
    low = [base]
    aside = [0]  # the collections' own fuel or cycles, not counted against the budget
    t0 = fuelprobe.fuel()
    chooser = _Trace(t0)

    def expired():
        if heap:
            t = fuelprobe.fuel()
            collect()
            low[0] = min(low[0], mem_free())
            aside[0] += t - fuelprobe.fuel()
        return t0 - fuelprobe.fuel() - aside[0] > cap

    s = search.Search(game, chooser=chooser, expired=expired)
    s.run()
    spent = t0 - fuelprobe.fuel()
    out = {"found": chooser.found, "complete": s.complete, "spent": spent, "steps": s.spent}
    out["memory"] = s.short_of_memory
    out["skipped"] = s.skipped
    if heap:
        out["heap"] = base - low[0]
    print(RESULT + json.dumps(out))
