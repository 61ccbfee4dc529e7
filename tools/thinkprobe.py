"""The board's think for its own turn, measured from inside MicroPython (tools/thinkbench.py
sends it).

`think(board, rack, seed, level, heap)` lays a benchmark position out (tools/benchset.py),
then runs firmware/computer.py's `think()` at `level` with the board's default budget
(`think_seconds` 5) on a clock made of fuel (WASI: MICROPY_FUEL_PER_MS wasm fuel a
millisecond, the median the emulated Pico ran at in ../shared/rp2/README.md) or of emulated
cycles (the Pico: 125,000 a millisecond), and prints one line: the fuel (or cycles) spent,
the score of the move chosen (or a swap), and with `heap=True` the lowest free heap seen,
collected at each of think()'s progress calls (every 250 ms of the clock), against the free
heap at the start.
"""

import json

# Imported here: on the board they are frozen or .mpy code, so compiling them from source
# is no part of a think's cost. (The positions are Calculissimo's, whose generator
# engine/movegen.py imports when first asked: counted in the think until 2026-11-29.)
from engine import movegen_calculissimo, players, search  # noqa: F401
from engine.compat import collect, mem_free
from engine.game import Game
from firmware import computer
from tests.engine.fixtures import default_profile
from tools import fuelprobe
from tools.positions import lay_out

RESULT = "THINK "
THINK_MS = 5000  # firmware/settings.py's default think_seconds
FUEL_PER_MS = 76_000  # WASI fuel an emulated-Pico millisecond (median, ../shared/rp2)
CYCLES_PER_MS = 125_000


class _Clock:
    """Milliseconds from fuel (or cycles) spent since it was made."""

    def __init__(self, per_ms):
        self.t0 = fuelprobe.fuel()
        self.per_ms = per_ms

    def ticks_ms(self):
        return (self.t0 - fuelprobe.fuel()) // self.per_ms


def think(board, rack, seed, level, heap=False):
    game = lay_out(Game(default_profile(), 2, seed=seed), board)
    game.racks[game.to_move] = list(rack)
    collect()
    base = mem_free() if heap else 0
    low = [base]

    def progress(percent, _score):
        if heap:
            collect()
            low[0] = min(low[0], mem_free())

    per_ms = CYCLES_PER_MS if fuelprobe.host is None else FUEL_PER_MS
    clock = _Clock(per_ms)
    t0 = fuelprobe.fuel()
    move, score, swap = computer.think(game, list(rack), level, clock, THINK_MS, progress)
    spent = t0 - fuelprobe.fuel()
    out = {
        "spent": spent,
        "score": score if move is not None and swap is None else None,
        "swap": swap is not None,
    }
    if heap:
        out["heap"] = base - low[0]
    print(RESULT + json.dumps(out))
