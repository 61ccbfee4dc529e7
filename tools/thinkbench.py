"""The board's think for its own turn (issue 13), at every level: how long the chip thinks
and how good its move is, and the heap it takes.

    .venv/bin/python -m tools.thinkbench [--positions N] [--pico N]

The positions are tools/hintbench.py's (the benchmark set's mid-game Calculissimo positions
with a legal move). Each runs tools/thinkprobe.py on the WASI MicroPython at levels 1 to 4:
firmware/computer.py's `think()` with the board's default budget (5 s, counted in fuel at
76,000 a millisecond) and the level's step budget (computer.LEVEL_STEPS). Per level: the
fuel of the think (median, max; goal: within 400 M fuel, about 5 s, the hint's budget in
issue 12), the share of the set's best score its move holds, and how often it swaps. Then
the first `--pico` positions on the emulated Pico (stock firmware, code from .mpy files) at
levels 3 and 4: emulated milliseconds and the think's heap (goal 24 KB).
"""

from __future__ import annotations

import argparse

from tools import hintbench

LEVELS = (1, 2, 3, 4)
FUEL_GOAL = 400_000_000
FUEL_PER_MS = 76_000
HEAP_GOAL = 24 * 1024
TAG = "THINK "


def _call(entry, level, heap=False):
    return "thinkprobe.think(%r, %r, %d, %d, %r)\n" % (
        entry["board"],
        entry["rack"],
        entry["seed"],
        level,
        heap,
    )


def wasi(entries, level):
    calls = [_call(e, level) for e in entries]
    return hintbench.run_batches("thinkprobe", calls, FUEL_GOAL + 2_000_000_000, TAG)


def pico(entries, levels):
    from tools import rp2emu

    out = []
    with rp2emu.Pico(rp2emu.build_image()) as chip:
        for level in levels:
            for e in entries:
                code = rp2emu.prelude() + "from tools import thinkprobe\n" + _call(e, level, True)
                r = chip.run(code, max_cycles=20 * 125_000_000, timeout_s=900)
                got = hintbench.lines(r.stdout, TAG)
                if len(got) != 1:
                    raise SystemExit(
                        "the think probe failed on the emulated Pico:\n" + r.describe()
                    )
                out.append((level, got[0]))
    return out


def _median(values):
    values = sorted(values)
    return values[len(values) // 2]


def report(entries, level, results):
    spent = [r["spent"] for r in results]
    shares = []
    best = 0
    for e, r in zip(entries, results):
        score = r["score"] or 0
        shares.append(score / e["best"] if e["best"] else 1.0)
        best += score == e["best"]
    n = len(entries)
    print(
        "level %d, %d positions: think median %.1f M fuel (%.0f ms), max %.1f M (%.0f ms); "
        "%.1f %% of the best score on average, the best on %d; swaps %d"
        % (
            level,
            n,
            _median(spent) / 1e6,
            _median(spent) / FUEL_PER_MS,
            max(spent) / 1e6,
            max(spent) / FUEL_PER_MS,
            100 * sum(shares) / n,
            best,
            sum(1 for r in results if r["swap"]),
        )
    )
    return max(spent) <= FUEL_GOAL


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40, help="at most this many (0: all)")
    ap.add_argument("--pico", type=int, default=2, help="positions on the emulated Pico")
    args = ap.parse_args()
    entries = hintbench.positions(args.positions or None)
    ok = True
    for level in LEVELS:
        ok = report(entries, level, wasi(entries, level)) and ok
    if args.pico:
        some = entries[: args.pico]
        runs = pico(some, (3, 4))
        for level in (3, 4):
            got = [r for lv, r in runs if lv == level]
            most = max(r["heap"] for r in got)
            print(
                "emulated Pico, level %d, %d positions: think at most %.0f ms; heap at most "
                "%d B (goal %d B)"
                % (level, len(got), max(r["spent"] for r in got) / 125_000, most, HEAP_GOAL)
            )
            ok = ok and most <= HEAP_GOAL
    print("think goals met" if ok else "think goals NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
