"""The hint on the chip (issue 12): how soon engine/search.py finds a legal move, how good
its move is after about one second, and whether it finds the best within about five.

    .venv/bin/python -m tools.hintbench [--positions N] [--pico N] [--game calqable] [--shipped]
                                        [--seconds S]

The positions are those of tools/benchset.py's set that have a legal move, past the first
three turns (mid-game), for each game (Calculissimo, then Cal-Q-Able with nine tiles).
Each runs tools/hintprobe.py on the WASI MicroPython with a budget of 400 M fuel, and the
trace of better moves gives, per position: the fuel to the first legal move, the score held
at 80 M fuel (about 1 s on the RP2040) against the set's best score, and whether the best
was found within 400 M fuel (about 5 s).
Goals: a legal move within 80 M; at least 80 % of the best score on average at 80 M; the
best within 400 M on at least 90 % of the positions. Then the first `--pico` positions on
the emulated Pico (tools/rp2emu.py, the stock firmware, code from .mpy files; `--shipped`:
the ROMFS firmware the repository ships, code from its partition): the same with
emulated cycles, budgets of 1 s and 5 s at 125 MHz, and the search's heap over the 5 s,
collected at every check of the budget (goal: 24 KB). `--seconds S` (more than 5): the
Pico's searches run S seconds, and the share of the best is also given at each of
LENGTHS up to S: what a longer `think_seconds` buys on the board.
"""

from __future__ import annotations

import argparse
import json

from engine import movegen
from tools import benchset, mpyrun

FIRST_FUEL = 80_000_000
WHOLE_FUEL = 400_000_000
CYCLES_PER_S = 125_000_000
HEAP_GOAL = 24 * 1024
GAMES = ("calculissimo", "calqable")
BATCH = 10
LENGTHS = (1, 2, 5, 10, 15, 20, 30, 45, 60)  # seconds (--seconds)


def positions(limit=None, game="calculissimo"):
    out = [
        e
        for e in benchset.load()
        if e["game"] == game and e["turns"] >= 3 and e["best"] is not None
    ]
    return out[:limit] if limit else out


def _call(entry, cap, heap=False):
    return "hintprobe.trace(%r, %r, %d, %d, %r, %r)\n" % (
        entry["board"],
        entry["rack"],
        entry["seed"],
        cap,
        heap,
        entry["game"],
    )


def lines(stdout, tag):
    """The JSON results a probe printed after `tag` (`"HINT "`), in order."""
    n = len(tag)
    return [json.loads(line[n:]) for line in stdout.splitlines() if line.startswith(tag)]


def run_batches(probe, calls, fuel_each, tag):
    """Run the calls (lines of MicroPython) of `tools.<probe>` on the WASI MicroPython,
    BATCH a run, each with `fuel_each` fuel; every result printed after `tag`."""
    out = []
    for k in range(0, len(calls), BATCH):
        batch = calls[k : k + BATCH]
        code = mpyrun.prelude() + "from tools import %s\n" % probe + "".join(batch)
        r = mpyrun.run(code, fuel=fuel_each * len(batch))
        got = lines(r.stdout, tag)
        if not r.ok or len(got) != len(batch):
            raise SystemExit("the %s probe failed on MicroPython:\n%s" % (probe, r.describe()))
        out.extend(got)
    return out


def wasi(entries):
    calls = [_call(e, WHOLE_FUEL) for e in entries]
    return run_batches("hintprobe", calls, WHOLE_FUEL + 2_000_000_000, "HINT ")


def pico(entries, shipped=False, seconds=5):
    """(traces of `seconds`, traces with the heap collected) on the emulated Pico: the stock
    image with the code from .mpy files, or (`shipped`) the ROMFS firmware the repository
    ships, the code in its partition as `host_tools flash` puts it."""
    from tools import rp2emu

    timed = []
    heaps = []
    prelude = rp2emu.prelude()
    if shipped:
        prelude = rp2emu.prelude(["engine.rulebook"])  # (a test-only module, not in /rom)
    with rp2emu.shipped_pico() if shipped else rp2emu.Pico(rp2emu.build_image()) as chip:
        for e in entries:
            for heap, cap in ((False, seconds * CYCLES_PER_S), (True, seconds * CYCLES_PER_S)):
                code = prelude + "from tools import hintprobe\n" + _call(e, cap, heap)
                r = chip.run(code, max_cycles=cap * 4 + 4_000_000_000, timeout_s=900)
                got = lines(r.stdout, "HINT ")
                if len(got) != 1:
                    raise SystemExit(
                        "the hint probe failed on the emulated Pico:\n" + r.describe()
                    )
                (heaps if heap else timed).append(got[0])
    return timed, heaps


def held_at(found, budget):
    """The best score of a trace's moves found within `budget` (0: none)."""
    held = 0
    for spent, score in found:
        if spent <= budget:
            held = score
    return held


def share_at(entries, traces, budget):
    """The mean share of the best score held at `budget`."""
    shares = [
        held_at(t["found"], budget) / e["best"] if e["best"] else 1.0
        for e, t in zip(entries, traces)
    ]
    return sum(shares) / len(shares)


def summary(entries, traces, first, whole):
    """Figures over the positions: (fuel to the first legal move per position, mean share of
    the best score held at `first`, positions whose best was found within `whole`)."""
    to_first = []
    best_found = 0
    for e, t in zip(entries, traces):
        found = t["found"]
        to_first.append(found[0][0] if found else None)
        if any(spent <= whole and score == e["best"] for spent, score in found):
            best_found += 1
    return to_first, share_at(entries, traces, first), best_found


def report(name, unit, entries, traces, first, whole):
    to_first, share, best_found = summary(entries, traces, first, whole)
    n = len(entries)
    known = sorted(x for x in to_first if x is not None)
    late = sum(1 for x in to_first if x is None or x > first)
    print(
        "%s, %d positions: first legal move median %.1f M %s, max %.1f M; "
        "%d without one within %.0f M"
        % (name, n, known[len(known) // 2] / 1e6, unit, known[-1] / 1e6, late, first / 1e6)
    )
    print(
        "  at %.0f M %s: %.1f %% of the best score on average (goal 80 %%; %.1f %% at %.0f M);"
        " the best within %.0f M on %d of %d (%.0f %%, goal 90 %%); whole searches within it:"
        " %d"
        % (
            first / 1e6,
            unit,
            100 * share,
            100 * share_at(entries, traces, whole),
            whole / 1e6,
            whole / 1e6,
            best_found,
            n,
            100.0 * best_found / n,
            sum(1 for t in traces if t["complete"]),
        )
    )
    skipped = [t["skipped"] for t in traces if t.get("skipped")]
    if skipped:
        print(
            "  squares of `=` passed over, their short sides more than engine/search.py's"
            " CALQ_SIDES: %d on %d positions" % (sum(skipped), len(skipped))
        )
    short = sum(1 for t in traces if t.get("memory"))
    if short:
        print(
            "  the heap ran out on %d (Cal-Q-Able gives up the square of `=` whose sides did"
            " not fit and goes on; otherwise the search stops with what it found)" % short
        )
    for jokers in (0, 1, 2):
        pick = [k for k in range(n) if entries[k]["rack"].count("?") == jokers]
        if pick and len(pick) < n:
            _, j_share, j_found = summary(
                [entries[k] for k in pick], [traces[k] for k in pick], first, whole
            )
            print(
                "  racks with %d joker(s), %d positions: %.1f %% at %.0f M, the best within "
                "%.0f M on %d"
                % (jokers, len(pick), 100 * j_share, first / 1e6, whole / 1e6, j_found)
            )
    return late == 0 and share >= 0.8 and best_found * 10 >= n * 9


def by_length(entries, traces, seconds):
    """Print the share of the best held, and the positions whose best was found, at each of
    LENGTHS up to `seconds`."""
    parts = []
    for length in LENGTHS:
        if length <= seconds:
            at = length * CYCLES_PER_S
            _, share, found = summary(entries, traces, at, at)
            parts.append("%d s %.1f %% (best on %d)" % (length, 100 * share, found))
    print("  by the think's length, of %d positions: %s" % (len(entries), ", ".join(parts)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=0, help="at most this many (0: all)")
    ap.add_argument("--pico", type=int, default=6, help="positions on the emulated Pico")
    ap.add_argument("--game", choices=GAMES, action="append", help="one game (default: both)")
    ap.add_argument(
        "--seconds", type=int, default=5, help="the Pico's searches this long (default 5)"
    )
    ap.add_argument(
        "--shipped",
        action="store_true",
        help="the Pico part on the shipped ROMFS firmware (deploy/firmware/), not the stock one",
    )
    args = ap.parse_args()
    ok = True
    for game in args.game or GAMES:
        ok = bench(game, args.positions or None, args.pico, args.shipped, args.seconds) and ok
    print("hint goals met" if ok else "hint goals NOT met")
    return 0 if ok else 1


def bench(game, limit, on_pico, shipped=False, seconds=5):
    """Every figure of one game; True if its goals are met."""
    entries = positions(limit, game)
    name = "%s, WASI MicroPython" % game
    ok = report(name, "fuel", entries, wasi(entries), FIRST_FUEL, WHOLE_FUEL)
    if on_pico:
        some = entries[:on_pico]
        timed, heaps = pico(some, shipped, seconds)
        name = "%s, emulated Pico%s" % (game, " (shipped ROMFS firmware)" if shipped else "")
        ok = report(name, "cycles", some, timed, CYCLES_PER_S, 5 * CYCLES_PER_S) and ok
        if seconds > 5:
            by_length(some, timed, seconds)
        most = max(h["heap"] for h in heaps)
        short = sum(1 for t in timed + heaps if t.get("memory"))
        print(
            "  the search's live heap on the Pico (collected every %d steps, for %d s): at"
            " most %d B over %d positions (goal %d B%s)"
            % (
                movegen.STEP_CHECK,
                seconds,
                most,
                len(heaps),
                HEAP_GOAL,
                "; not met where the heap ran out" if short else "",
            )
        )
        ok = ok and most <= HEAP_GOAL and not short
    return ok


if __name__ == "__main__":
    raise SystemExit(main())
