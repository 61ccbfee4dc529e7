"""The hint search measured from inside MicroPython (tools/hintbench.py sends it).

`trace(board, rack, seed, cap, heap, game)` lays a benchmark position out
(tools/benchset.py: a board as square -> face, the mover's rack, the game's default
profile), then runs engine/search.py's anytime search with a
budget of `cap` fuel (WASI) or emulated cycles (the Pico), read with tools/fuelprobe.py
every movegen.STEP_CHECK steps, and prints one line: each better move found, as (fuel
spent, score), and whether the search was whole. With `heap=True` it also collects every
eighth check and reports the lowest free heap seen beside the free heap at the start (a
sample, so a peak between two samples can be missed; the collections cost cycles, so that
run is not the timed one).
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
    if name == "calqable":
        # loaded before the count starts, as after the board's first think: importing it
        # from source cost about 190 M fuel on the WASI build, once a run
        from engine import movegen_calqable  # noqa: F401
    collect()
    base = mem_free() if heap else 0
    low = [base]
    checks = [0]
    t0 = fuelprobe.fuel()
    chooser = _Trace(t0)

    def expired():
        if heap:
            checks[0] += 1
            if checks[0] % 8 == 0:
                collect()
                low[0] = min(low[0], mem_free())
        return t0 - fuelprobe.fuel() > cap

    s = search.Search(game, chooser=chooser, expired=expired)
    s.run()
    spent = t0 - fuelprobe.fuel()
    out = {"found": chooser.found, "complete": s.complete, "spent": spent, "steps": s.spent}
    out["memory"] = s.short_of_memory
    out["skipped"] = s.skipped
    if heap:
        out["heap"] = base - low[0]
    print(RESULT + json.dumps(out))
