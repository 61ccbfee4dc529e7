"""A Cal-Q-Able (or Calculissimo) game against the board on the Pico's own firmware (stock
v1.27.0, emulated RP2040): does the board's search find room beside the firmware, turn after
turn?

The board (tools/leanboard.py: the firmware on its own drivers, small stand-ins where a part
must answer) plays the second seat at level 3; the first seat asks it for a hint each turn
and plays it (tools/playprobe.py). Every think runs on the chip's clock, `think_seconds`
each, as on a board. The code is loaded from .mpy files into RAM as on a stock board: the
firmware's modules at boot, the search's when the board first thinks. The collector runs
when the heap fills, as on a board (a collection every few KB would take the thinks' time).

Reported: the free heap and the largest free block after each turn (a collection first), and
per think its score, steps, and whether it ran short of memory (`short`: the search stopped
at a MemoryError and gave the best found so far; `given_up`: squares of `=` whose sides did
not fit); the first fault the firmware's supervisor caught, if any.

    python -m tools.picoplay [--game calqable|calculissimo] [--seed N] [--seconds S]
                             [--turns N] [--json]                        (minutes)

Goals (`make bench`): no fault, the game to its end, and no think short of memory.
"""

from __future__ import annotations

import argparse
import json
import sys

from tools import picogame, playprobe, rp2emu

PROFILE = "/input/hardware/profiles/%s.json"  # the game's default profile
LEVEL = 3
FIELDS = ("score", "short", "whole", "steps", "given_up", "passed_over", "free")


def _order() -> list[str]:
    """The modules a board has loaded before its first think, leaves first."""
    order = rp2emu.import_order("tools.leanboard")
    for name in rp2emu.import_order("tools.playprobe"):
        if name not in order:
            order.append(name)
    return order


def measure(seed: int = 3, seconds: int = 5, turns: int = 80, game: str = "calqable") -> dict:
    code = rp2emu.prelude() + "import gc\n"
    code += "for _m in %r:\n    __import__(_m)\n    gc.collect()\n" % (_order(),)
    code += "from tools import playprobe\n"
    path = PROFILE % game
    code += "playprobe.play(%r, %d, %d, %d, %d)\n" % (path, seed, LEVEL, seconds, turns)
    cycles = (turns * seconds + 300) * 125_000_000
    with rp2emu.Pico(rp2emu.build_image(), heap_watch=True) as pico:
        result = pico.run(code, cycles, cycles / 40_000_000 + 600)
    lines = result.stdout.splitlines()
    end = [line for line in lines if line.startswith(playprobe.RESULT)]
    if not end:
        raise SystemExit("the game did not finish on the emulated Pico:\n" + result.describe())
    out = json.loads(end[-1][len(playprobe.RESULT) :])
    out["thinks"] = [
        dict(zip(FIELDS, json.loads(line[len(playprobe.THINK) :])))
        for line in lines
        if line.startswith(playprobe.THINK)
    ]
    out["phases"] = picogame.phases(result.stdout, playprobe.PHASE)
    out.update(
        {
            "game": game,
            "seed": seed,
            "level": LEVEL,
            "think_seconds": seconds,
            "lowest": result.heap_low,
            "collections": result.collections,
            "cycles": result.cycles,
        }
    )
    return out


def report(out: dict) -> list[str]:
    """Print the figures; the goals missed (empty: all held)."""
    thinks = out["thinks"]
    short = [k for k, t in enumerate(thinks) if t["short"] or t["given_up"]]
    empty = [k for k in short if thinks[k]["score"] is None]
    turns = [v for k, v in out["phases"].items() if not k.endswith(" boot")]
    print(
        "%s against the board on the emulated Pico (stock v1.27.0, code from .mpy "
        "files; seed %d, level %d, think_seconds %d; tools/picoplay.py):"
        % (out["game"], out["seed"], out["level"], out["think_seconds"])
    )
    print(
        "  %d turns, %d thinks; totals %s; %s"
        % (len(out["turns"]) - 1, len(thinks), out["totals"], out["fault"] or "no fault")
    )
    print("  free heap after boot %7d B" % out["phases"]["1 boot"]["free"])
    if turns:
        print(
            "  after each turn (collected): free %d-%d B, largest free block %d-%d B"
            % (
                min(t["free"] for t in turns),
                max(t["free"] for t in turns),
                min(t["largest"] for t in turns),
                max(t["largest"] for t in turns),
            )
        )
    print(
        "  lowest just after a collection %d B (%d collections)"
        % (out["lowest"], out["collections"])
    )
    steps = sorted(t["steps"] for t in thinks) or [0]
    print(
        "  thinks: steps median %d, max %d; short of memory %d (of them without a move %d):"
        " turns %s" % (steps[len(steps) // 2], steps[-1], len(short), len(empty), short)
    )
    missed = []
    if out["fault"]:
        missed.append("a fault on the board: " + out["fault"])
    if not out["over"]:
        missed.append("the game did not end within its turns")
    if short:
        missed.append("%d of %d thinks ran short of memory" % (len(short), len(thinks)))
    return missed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.picoplay", description=__doc__)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=5, help="think_seconds")
    ap.add_argument("--turns", type=int, default=80)
    ap.add_argument("--game", choices=("calqable", "calculissimo"), default="calqable")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    out = measure(args.seed, args.seconds, args.turns, args.game)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    missed = report(out)
    for line in missed:
        print("  GOAL MISSED: " + line)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
