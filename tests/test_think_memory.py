"""The board's think on a nearly full heap, on the Pico's own firmware (stock v1.27.0 on the
emulated RP2040, code from .mpy files): whatever room is left, running out of memory ends
the think as a search short of memory and never raises (a MemoryError out of it faults the
board's step).

Seen first in a whole game against the board (tools/picoplay.py, 2026-11-29): "memory
allocation failed, allocating 256 bytes", raised by firmware/computer.py's `_drop` while
the search's data still filled the heap. Here a Cal-Q-Able think runs with the heap filled
(blocks of 700 B with holes, then 32-B ones) to each of a band of free sizes, from where the
search's code no longer loads to where the search runs: before RESERVE_BYTES, at 60,704 B
free the think raised that very error.
"""

from __future__ import annotations

import ast

from tests.test_picoplay import require_pico
from tools import hintbench, rp2emu

# The band of free heap (bytes, after a collection) the think is tried at, and the think's
# time. Measured 2026-11-29: below about 62 KB the search's code did not load, above it the
# search ran and on this position ran short of memory up to about 69 KB (given 300 ms). With
# the code compiled with -O3 (host_tools/flash.py) and the leave table loaded at level 4
# only, the code loads from 58.3-59 KB on, and given 300 ms (5 steps) the search no longer
# ran short there; given 1 s it does (59 and 62 KB: 128 and 192 steps). Since the firmware's
# modules no longer load firmware/settings.py (a module only a board's build needs:
# firmware/assemble.py's BOOT_ONLY) and the search keeps its caches in small dicts, the code
# loads from 57.5 KB on (not at 57.25 KB), and the search runs short at 57.5-58.25 KB and
# from 59 KB on (2026-11-29). Where the code loads moves by a KB or two with the layout of
# the modules loaded before the think (their interned names among them): after the board
# came to read its buttons while it thinks (firmware/buttons.py), from 59.5 KB on, and with
# that change's buttons.py alone taken back, from 60 KB. Given 1 s the search then ran
# short at 59.5 KB only; given 2 s at 59.5-60 and 60.5-61.25 KB (128-256 steps).
BAND = range(58_000, 61_500, 250)
THINK_MS = 2000

SCRIPT = """
import gc, sys, time
from engine.game import Game
from engine.profile import Profile
from tests.engine.fixtures import profile_data
from tools.positions import lay_out
from firmware import computer
import firmware.app, firmware.modes_computer


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()


game = lay_out(Game(Profile(profile_data('calqable')), 2, seed=%d), %r)
rack = %r
game.racks[game.to_move] = list(rack)
target = %d
gc.collect()
# (a bytearray(700) takes 720 B of the heap, a bytearray(32) 48 B and more while the list
# grows; gc.mem_free() walks the whole heap, so it is asked once a batch)
ballast = [bytearray(700) for _ in range((gc.mem_free() - target - 3000) // 720)]
for k in range(0, len(ballast), 4):
    ballast[k] = None
gc.collect()
fine = [bytearray(32) for _ in range((gc.mem_free() - target) // 64)]
while gc.mem_free() > target:
    fine.append(bytearray(32))
gc.collect()
print('FREE', gc.mem_free())
try:
    move = computer.think(game, list(rack), 3, Clock(), %d)[0]
    print('LAST', computer.last, move is not None)
except MemoryError as err:
    sys.print_exception(err)
    print('RAISED', err)
"""


def test_a_think_on_a_nearly_full_heap_never_raises():
    require_pico()
    entry = hintbench.positions(game="calqable")[0]
    seen = []
    with rp2emu.Pico(rp2emu.build_image()) as pico:
        for free in BAND:
            code = SCRIPT % (entry["seed"], entry["board"], entry["rack"], free, THINK_MS)
            result = pico.run(rp2emu.prelude() + code, 2_000_000_000, 300)
            assert "RAISED" not in result.stdout, (free, result.stdout)
            assert result.ok, result.describe()
            last = [line for line in result.stdout.splitlines() if line.startswith("LAST ")]
            assert len(last) == 1, result.stdout
            seen.append((free, last[0]))
    # The band holds both ends: thinks whose code did not load (nothing searched) and
    # thinks whose search ran and stopped short of memory. (If not, re-centre BAND.)
    # (computer.last: [score, short of memory, whole, steps, given up, passed over, early])
    lasts = [(f, ast.literal_eval(line.split(" ", 1)[1].rsplit(" ", 1)[0])) for f, line in seen]
    not_loaded = [f for f, last in lasts if last[1] and last[3] == 0]
    short = [f for f, last in lasts if last[1] and not last[2] and last[3] > 0]
    assert not_loaded and short, seen
