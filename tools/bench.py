"""`make bench`: what the rules engine costs on the device, measured in this run.

On MicroPython (the WASI build, tools/mpyrun.py) each figure is the wasm fuel of the
operation alone, read from inside the run just before and after it (tools/fuelprobe.py;
fuel is deterministic). It is the first call after set-up, so it includes first-call
costs. Heap is `gc.mem_alloc()` growth over the operation with the collector off: every
byte allocated, an upper bound on the peak live heap. About 80,000 fuel ~ 1 ms on an
RP2040 at 125 MHz: an estimate from public pystone figures, not a measurement on hardware.

Measured: (a) validating and scoring each move of the rulebook game, (b) the dense
late-game position of tools/positions.py (one seven-chip move, a main run and six cross
runs), the same move on a layout with a premium under all six operators (the premium
search's worst case, 64 assignments; held to (b)'s budget), CPython validations per
second on (b), and a whole refereed game's state (its snapshot size, and the heap
allocated to rebuild it from the snapshot). For Cal-Q-Able, with (b)'s budgets: (c) the
dense position of tools/positions.py (a full rack and an `=` across row 6: a 12-tile main
equation and seven cross equations) and (d) a rule-5 replacement on the same board
(`check_replace`: three tiles taken away, five laid).
And the firmware (tools/fwbench.py): one presence scan and debounce of 225 squares, and the
fuel from a chip's placement being sensed to its LED frame being ready, each with the
simulated parts' own fuel taken off; and the firmware's heap over the rulebook game with the
collector on (tools/heapcheck.py, on the upstream MicroPython WebAssembly port from npm).
Exits with status 1 if any budget is exceeded.
"""

import json
import sys
import time
from pathlib import Path

from tools import mpyrun

FUEL_PER_MS = 80_000
BUDGET_MOVE_FUEL = 1_600_000
BUDGET_DENSE_FUEL = 8_000_000
BUDGET_VALIDATE_HEAP = 24 * 1024
BUDGET_STATE = 8 * 1024
BUDGET_SCAN_FUEL = 800_000
BUDGET_SENSE_TO_LED_FUEL = 4_000_000
BUDGET_FIRMWARE_HEAP = 64 * 1024

_SETUP = """
import gc
import engine.calculissimo
from engine import profile, snapshot
from engine.game import Game
from tools import positions
prof = profile.load("/input/hardware/profiles/calculissimo.json")
"""
# Added to the set-up of the Cal-Q-Able figures only: loading a second ruleset and profile in
# every run would move the other figures (the rulebook moves by 2-13 %).
_CALQABLE_SETUP = """
import engine.calqable
cprof = profile.load("/input/hardware/profiles/calqable.json")
"""


def _mpy(code):
    r = mpyrun.run(mpyrun.prelude() + _SETUP + code, heap="4M")
    if not r.ok:
        raise SystemExit("MicroPython run failed:\n" + r.describe())
    return r


def _measure(setup, op):
    """(fuel of op alone, heap allocated by op, op's value) on MicroPython.

    `op` is an expression. gc.mem_alloc() walks the heap's whole allocation table, so it
    is read outside the fuel window; the probe's own allocations are measured the same
    way on a no-op and taken off.
    """
    code = (
        setup
        + "from tools import fuelprobe\n"
        + "fuelprobe.cost(lambda: None)\n"  # warm the probe: its first call allocates more
        + "a = gc.mem_alloc()\nfuelprobe.cost(lambda: None)\nb = gc.mem_alloc()\n"
        + "c = gc.mem_alloc()\nf, v = fuelprobe.cost(lambda: (%s))\nd = gc.mem_alloc()\n" % op
        + "print('RESULT', f, (d - c) - (b - a), v)\n"
    )
    fuel, heap, value = _mpy(code).stdout.split("RESULT ")[1].split(None, 2)
    return int(fuel), int(heap), value.strip()


def rulebook_moves():
    out = []
    for k in range(5):
        setup = (
            "g = Game(prof, 4)\n"
            "for t in positions.RULEBOOK[:%d]:\n    g.play(g.move(t))\n"
            "m = g.move(positions.RULEBOOK[%d])\n" % (k, k)
        )
        fuel, heap, score = _measure(setup, "g.check(m).score")
        out.append({"move": k + 1, "fuel": fuel, "heap": heap, "score": int(score)})
    return out


def _judged(setup, op="g.check(m).score"):
    """Fuel, heap and score of judging the move `m` set up on the game `g`."""
    fuel, heap, score = _measure(setup, op)
    return {"fuel": fuel, "heap": heap, "score": int(score)}


def dense():
    return _judged("g = positions.dense_game(Game(prof, 2))\nm = g.move(positions.DENSE_MOVE)\n")


def worst():
    return _judged(
        "import json\n"
        "with open('/input/hardware/profiles/calculissimo.json') as f:\n"
        "    wp = positions.worst_profile(json.load(f))\n"
        "g = positions.dense_game(Game(wp, 2))\nm = g.move(positions.DENSE_MOVE)\n"
    )


def calqable_dense():
    return _judged(
        _CALQABLE_SETUP
        + "g = positions.calqable_dense_game(Game(cprof, 2))\n"
        + "m = g.move(positions.CALQABLE_DENSE_MOVE)\n"
    )


def calqable_replace():
    return _judged(
        _CALQABLE_SETUP
        + "board, text = positions.CALQABLE_REPLACE\n"
        + "g = positions.lay_out(Game(cprof, 2), board)\nm = g.move(text)\n",
        "g.check_replace(m)[0].score",
    )


def cpython_rate(seconds=1.0):
    import engine.calculissimo  # noqa: F401
    from engine import profile
    from engine.game import Game
    from tools import positions

    prof = profile.load(str(mpyrun.REPO_ROOT / "hardware/profiles/calculissimo.json"))
    g = positions.dense_game(Game(prof, 2))
    m = g.move(positions.DENSE_MOVE)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g.check(m)
        n += 1
    return n / (time.perf_counter() - t0)


def whole_game_snapshot():
    """A full refereed game (seeded self-play, re-refereed) as snapshot bytes."""
    import engine.calculissimo  # noqa: F401
    from engine import autoplay, profile, snapshot
    from engine.game import Game
    from engine.move import Move

    prof = profile.load(str(mpyrun.REPO_ROOT / "hardware/profiles/calculissimo.json"))
    played = Game(prof, 4, seed=11)
    autoplay.play_game(played)
    ref = Game(prof, 4)
    for kind, _, packed, _, _, undo in played.history:
        if kind == "place":
            ref.push(Move.from_bytes(packed, prof.width))
        elif kind == "swap":
            ref.swap(undo[0])
        else:
            ref.pass_turn()
    return snapshot.encode(ref), ref.turns


def game_state():
    data, turns = whole_game_snapshot()
    setup = "data = bytes.fromhex(%r)\n" % data.hex()
    fuel, heap, _ = _measure(setup, "snapshot.decode(prof, data).turns")
    return {
        "turns": turns,
        "snapshot_bytes": len(data),
        "restore_heap": heap,
        "restore_fuel": fuel,
    }


def firmware_costs():
    """tools/fwbench.py on MicroPython: the presence scan, and a placement to its LED frame."""
    code = (
        mpyrun.prelude()
        + "import json\nfrom tools import fwbench\n"
        + "r = [fwbench.scan_costs(), fwbench.sense_to_led(), fwbench.screen_cost()]\n"
        + "print('RESULT', json.dumps(r))\n"
    )
    r = mpyrun.run(code, heap="16M")
    if not r.ok:
        raise SystemExit("MicroPython run failed:\n" + r.describe())
    scan, led, screen = json.loads(r.stdout.split("RESULT ")[1])
    return {"scan": scan, "sense_to_led": led, "screen": screen}


def firmware_heap():
    """tools/heapcheck.py: the rulebook game on the board with the collector on (.mpy build).

    `data_peak` is the highest heap reached during a move less the heap held once every
    module is imported: what the firmware's own objects need when its code is frozen into
    the firmware image (code and constants in flash). It still counts the simulated parts
    and the test's own objects, so it is an upper bound for the board. `total_peak` is the
    same peak with the code loaded from .mpy files into RAM.
    """
    from tools import heapcheck

    _status, report, lines = heapcheck.run(["--mode", "mpy", "--no-search", "--no-selftest"])
    if report is None:
        raise SystemExit("heapcheck failed:\n" + "\n".join(lines[-20:]))
    ref = report["builds"]["mpy"]["reference"]
    moves = [ref["peak_by_phase"]["move%d" % k] for k in range(1, 6)]
    return {
        "data_peak": max(moves) - ref["live_after_imports"],
        "total_peak": max(moves),
        "code": ref["import_live_by_group"]["device"],
        "max_live_between_moves": ref["max_live_between_moves"],
        "scores": ref["scores"],
    }


def report_firmware(fw, failures):
    scan, led = fw["scan"], fw["sense_to_led"]
    print("Firmware on MicroPython (the simulated parts' own fuel taken off):")
    rows = (
        ("scan 225 squares, quiet", scan["quiet"]),
        ("scan, all start to change", scan["all_start"]),
        ("scan, all 225 change", scan["all_report"]),
    )
    for name, fuel in rows:
        print("%-28s %12d %8.1f" % (name, fuel, fuel / FUEL_PER_MS))
        if fuel > BUDGET_SCAN_FUEL:
            failures.append("%s: %d fuel > %d" % (name, fuel, BUDGET_SCAN_FUEL))
    name = "chip sensed -> LED frame"
    print("%-28s %12d %8.1f" % (name, led["fuel"], led["fuel"] / FUEL_PER_MS))
    print(
        "  (that step: %d fuel in all, %d in the twins over %d calls, %d probe overhead a call;"
        " the reader's own wait: %d ms)"
        % (
            led["gross"],
            led["twins"],
            led["metered_calls"],
            led["overhead_per_call"],
            led["virtual_ms"],
        )
    )
    if led["fuel"] > BUDGET_SENSE_TO_LED_FUEL:
        failures.append("%s: %d fuel > %d" % (name, led["fuel"], BUDGET_SENSE_TO_LED_FUEL))
    sc = fw["screen"]
    print(
        "%-28s %12d %8.1f  (%d lines changed; after the LEDs, no budget)"
        % ("display after a move", sc["after_move"], sc["after_move"] / FUEL_PER_MS,
           sc["lines_changed"])
    )  # fmt: skip
    print(
        "%-28s %12d %8.1f  (%d characters)"
        % ("display, full screen", sc["full"], sc["full"] / FUEL_PER_MS, sc["chars"])
    )
    heap = fw["heap"]
    print(
        "heap over the rulebook game (collector on, MicroPython WebAssembly port):\n"
        "  firmware data at its peak      %7d B  (code frozen into the firmware image)\n"
        "  with the code loaded from .mpy %7d B  (of it %d B the device modules' code)"
        % (heap["data_peak"], heap["total_peak"], heap["code"])
    )
    if heap["data_peak"] > BUDGET_FIRMWARE_HEAP:
        failures.append("firmware heap: %d B > %d" % (heap["data_peak"], BUDGET_FIRMWARE_HEAP))


def main():
    results = {
        "rulebook": rulebook_moves(),
        "dense": dense(),
        "worst": worst(),
        "calqable_dense": calqable_dense(),
        "calqable_replace": calqable_replace(),
        "cpython_dense_per_second": round(cpython_rate()),
        "state": game_state(),
        "firmware": firmware_costs(),
    }
    results["firmware"]["heap"] = firmware_heap()
    failures = []
    print(
        "Engine cost on MicroPython 1.27 (WASI); ms = fuel / %d (an RP2040 estimate)" % FUEL_PER_MS
    )
    print("%-28s %12s %8s %10s" % ("operation", "fuel", "~ms", "heap B"))
    for m in results["rulebook"]:
        name = "rulebook move %d (%d pts)" % (m["move"], m["score"])
        print("%-28s %12d %8.1f %10d" % (name, m["fuel"], m["fuel"] / FUEL_PER_MS, m["heap"]))
        if m["fuel"] > BUDGET_MOVE_FUEL:
            failures.append("%s: %d fuel > %d" % (name, m["fuel"], BUDGET_MOVE_FUEL))
        if m["heap"] > BUDGET_VALIDATE_HEAP:
            failures.append("%s: heap %d > %d" % (name, m["heap"], BUDGET_VALIDATE_HEAP))
    for key, label in (
        ("dense", "dense 7 chips"),
        ("worst", "worst-case premiums"),
        ("calqable_dense", "calqable dense"),
        ("calqable_replace", "calqable replace"),
    ):
        d = results[key]
        name = "%s (%d pts)" % (label, d["score"])
        print("%-28s %12d %8.1f %10d" % (name, d["fuel"], d["fuel"] / FUEL_PER_MS, d["heap"]))
        if d["fuel"] > BUDGET_DENSE_FUEL:
            failures.append("%s: %d fuel > %d" % (key, d["fuel"], BUDGET_DENSE_FUEL))
        if d["heap"] > BUDGET_VALIDATE_HEAP:
            failures.append("%s: heap %d > %d" % (key, d["heap"], BUDGET_VALIDATE_HEAP))
    s = results["state"]
    print(
        "whole game state (%d turns): snapshot %d B, rebuilt from it %d B heap (%d fuel)"
        % (s["turns"], s["snapshot_bytes"], s["restore_heap"], s["restore_fuel"])
    )
    if s["restore_heap"] > BUDGET_STATE:
        failures.append("state: %d B > %d" % (s["restore_heap"], BUDGET_STATE))
    print("CPython: %d validations/s of the dense move" % results["cpython_dense_per_second"])
    report_firmware(results["firmware"], failures)
    out = Path(mpyrun.REPO_ROOT) / "build" / "bench.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(
        "budgets: move <= %d fuel, dense <= %d fuel, heap <= %d B, state <= %d B,"
        " scan <= %d fuel, sensed -> LED frame <= %d fuel, firmware heap <= %d B"
        % (
            BUDGET_MOVE_FUEL,
            BUDGET_DENSE_FUEL,
            BUDGET_VALIDATE_HEAP,
            BUDGET_STATE,
            BUDGET_SCAN_FUEL,
            BUDGET_SENSE_TO_LED_FUEL,
            BUDGET_FIRMWARE_HEAP,
        )
    )
    if failures:
        print("OVER BUDGET:\n  " + "\n  ".join(failures))
        return 1
    print("all within budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
