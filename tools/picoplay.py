"""A Cal-Q-Able (or Calculissimo) game against the board on the Pico's own firmware (stock
v1.27.0, emulated RP2040): does the board's search find room beside the firmware, turn after
turn? Then the same game on each image `make firmware` left in build/firmware/, if any, and
on the ROMFS firmware the repository ships (deploy/firmware/) when no ROMFS one was built.

The board (tools/leanboard.py: the firmware on its own drivers, small stand-ins where a part
must answer) plays the second seat at level 3; the first seat asks it for a hint each turn
and plays it (tools/playprobe.py). Every think runs on the chip's clock, `think_seconds`
each, as on a board. On the stock image the code is loaded from .mpy files into RAM as on a
stock board: the firmware's modules at boot, the search's when the board first thinks. On
the frozen image (SMARTBOARD_PICO.bin) the device code is in the firmware, and on the ROMFS
one (SMARTBOARD_PICO-ROMFS.bin, or the shipped .uf2) in its ROMFS partition, as
`host_tools flash` puts it there; both run it from flash. The collector runs when the heap
fills, as on a board (a collection every few KB would take the thinks' time).

Reported: the free heap and the largest free block after each turn (a collection first), and
per think its score, steps, and whether it ran short of memory (`short`: the search stopped
at a MemoryError and gave the best found so far; `given_up`: squares of `=` whose sides did
not fit); the first fault the firmware's supervisor caught, if any.

    python -m tools.picoplay [--game calqable|calculissimo] [--seed N] [--seconds S]
                             [--turns N] [--firmware IMAGE [--romfs]] [--json]   (minutes)

Goals (`make bench`), on every image: no fault, the game to its end, and no think short of
memory. Caveat: the emulator does not model the flash cache; code run from flash (frozen,
ROMFS) may lose more to it on a real Pico than code in RAM does.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tools import picogame, playprobe, rp2emu

PROFILE = "/input/hardware/profiles/%s.json"  # the game's default profile
LEVEL = 3
# What `make firmware` leaves (deploy/README.md): (file, whether the code goes to its ROMFS).
BUILT = rp2emu.REPO_ROOT / "build" / "firmware"
BUILT_IMAGES = (("SMARTBOARD_PICO.bin", False), ("SMARTBOARD_PICO-ROMFS.bin", True))
# The ROMFS firmware the repository ships: the same build as the ROMFS one above, for when
# none was built here.
SHIPPED = rp2emu.SHIPPED_ROMFS
FIELDS = ("score", "short", "whole", "steps", "given_up", "passed_over", "early", "free")


def _order() -> list[str]:
    """The modules a board has loaded before its first think, leaves first."""
    order = rp2emu.import_order("tools.leanboard")
    for name in rp2emu.import_order("tools.playprobe"):
        if name not in order:
            order.append(name)
    return order


def measure(
    seed: int = 3,
    seconds: int = 5,
    turns: int = 80,
    game: str = "calqable",
    firmware: Path | None = None,
    romfs: bool = False,
) -> dict:
    order = _order()
    if firmware is None:
        code = rp2emu.prelude()
    else:  # the device code is frozen in the firmware (or in its ROMFS); firmware.sim is not
        extras = [m for m in order if m.startswith("firmware.sim")]
        order = [m for m in order if m not in extras]
        code = rp2emu.prelude(extras)
    code += "import gc\n"
    code += "for _m in %r:\n    __import__(_m)\n    gc.collect()\n" % (order,)
    code += "from tools import playprobe\n"
    path = PROFILE % game
    code += "playprobe.play(%r, %d, %d, %d, %d)\n" % (path, seed, LEVEL, seconds, turns)
    cycles = (turns * seconds + 300) * 125_000_000
    image = rp2emu.build_image(code=firmware is None)
    part = rp2emu.romfs_part() if romfs else None
    with rp2emu.Pico(image, heap_watch=True, firmware=firmware, romfs=part) as pico:
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
    # where a fault was raised: the traceback the probe printed before its result
    trace = result.stdout.split("Traceback (most recent call last):")
    out["trace"] = trace[-1].split(playprobe.RESULT)[0].strip() if len(trace) > 1 else None
    out.update(
        {
            "game": game,
            "firmware": firmware.name if firmware else None,
            "romfs": romfs,
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
    where = "stock v1.27.0, code from .mpy files"
    if out.get("firmware"):
        where = "%s, the device code %s" % (
            out["firmware"],
            "in its ROMFS partition" if out.get("romfs") else "frozen in it",
        )
    print(
        "%s against the board on the emulated Pico (%s; seed %d, level %d, think_seconds %d;"
        " tools/picoplay.py):"
        % (out["game"], where, out["seed"], out["level"], out["think_seconds"])
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
        for line in (out.get("trace") or "").splitlines():
            print("    " + line.strip())
    if not out["over"]:
        missed.append("the game did not end within its turns")
    if short:
        missed.append("%d of %d thinks ran short of memory" % (len(short), len(thinks)))
    return missed


def images(folder: Path = BUILT, shipped: Path = SHIPPED) -> list[tuple[Path | None, bool]]:
    """The firmware images to play on: the stock one (None), then those `make firmware` left
    in build/firmware/ (the frozen one, the ROMFS one), as (path, romfs); without a ROMFS one
    there, the ROMFS firmware the repository ships (deploy/firmware/), if present."""
    found: list[tuple[Path | None, bool]] = [(None, False)]
    for name, romfs in BUILT_IMAGES:
        if (folder / name).is_file():
            found.append((folder / name, romfs))
    if not any(romfs for _, romfs in found) and shipped.is_file():
        found.append((shipped, True))
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.picoplay", description=__doc__)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=5, help="think_seconds")
    ap.add_argument("--turns", type=int, default=80)
    ap.add_argument("--game", choices=("calqable", "calculissimo"), default="calqable")
    ap.add_argument(
        "--firmware",
        type=Path,
        help="play on this image only (a make firmware build): the device code frozen in it, or"
        " with --romfs in its ROMFS partition",
    )
    ap.add_argument(
        "--romfs",
        action="store_true",
        help="the --firmware has a ROMFS partition (BOARD_VARIANT=ROMFS): the code goes there",
    )
    ap.add_argument(
        "--json", action="store_true", help="print the figures as JSON, one line an image"
    )
    args = ap.parse_args(argv)
    if args.romfs and not args.firmware:
        ap.error("--romfs needs --firmware (the stock image has no ROMFS partition)")
    runs = [(args.firmware, args.romfs)] if args.firmware else images()
    if not args.firmware and len(runs) == 1 and not args.json:  # (not even the shipped one)
        print(
            "(no image of make firmware in %s: the game is played on the stock image only;"
            " deploy/README.md builds them)" % BUILT.relative_to(rp2emu.REPO_ROOT)
        )
    failed = 0
    for firmware, romfs in runs:
        out = measure(args.seed, args.seconds, args.turns, args.game, firmware, romfs)
        if args.json:  # one line an image
            print(json.dumps(out))
            continue
        missed = report(out)
        for line in missed:
            print("  GOAL MISSED: " + line)
        failed |= bool(missed)
    return int(failed)


if __name__ == "__main__":
    sys.exit(main())
