"""Timings of the move generator on CPython, over the benchmark set (issue 12's goals).

    .venv/bin/python -m tools.movegen_bench

Calculissimo, judged against the goals: 100 mid-game positions of seeded greedy two-player
games (engine/autoplay.py, 4 to 23 turns), the mover holding the seven chips the bag gave
them (a joker as often as the bag gives one); every move (`movegen.scored`), then the best
move only (`movegen.best`, which cuts branches that cannot beat the best so far). Goals: all
moves median <= 50 ms and p99 <= 500 ms, best move median <= 20 ms. Then the same over the
published set (tools/benchset.py, tests/data/movegen_positions.json), whose racks hold 0, 1
or 2 jokers by design, a line per joker count: each joker is every face but `×`, so a rack
with two holds many times the moves. Cal-Q-Able: every move for the set's nine-tile racks
(goal: median <= 250 ms, p99 <= 2 s), then the best move only (best first by the bound of
each square of `=`, engine/calqable_bounds.py; no goal of its own). Wall-clock times of
this run on this machine: a loaded machine reads slower.
"""

import time

from engine import autoplay, movegen
from engine.game import Game
from tests.engine.test_movegen import profile_for
from tools import benchset

GOALS = {
    "calculissimo all moves, 7-chip rack": (50.0, 500.0),
    "calculissimo best move": (20.0, None),
    "calqable all moves, 9-tile rack": (250.0, 2000.0),
}
POSITIONS = 100


def drawn_positions():
    """Mid-game positions with the racks as drawn: [game], POSITIONS of them."""
    out = []
    seed = 1
    while len(out) < POSITIONS:
        game = Game(profile_for("calculissimo"), 2, seed=seed)
        for _ in range(4 + seed % 20):
            if game.over:
                break
            autoplay.play_turn(game)
        if not game.over and len(game.racks[game.to_move]) == 7:
            out.append(game)
        seed += 1
    return out


def timed(fn, game):
    t0 = time.perf_counter()
    out = fn(game)
    return (time.perf_counter() - t0) * 1000.0, out


def count(game):
    n = 0
    for _ in movegen.scored(game):
        n += 1
    return n


def stats(name, times, extra=""):
    """Print one line; True if the goals of `name` are met."""
    times = sorted(times)
    n = len(times)
    median = times[n // 2]
    p99 = times[(99 * n + 99) // 100 - 1]  # nearest rank: the ceil(0.99 n)-th time
    line = "%-40s n=%3d  median %7.1f ms  p99 %7.1f ms  max %7.1f ms%s" % (
        name,
        n,
        median,
        p99,
        times[-1],
        extra,
    )
    if name not in GOALS:
        print(line)
        return True
    goal_median, goal_p99 = GOALS[name]
    ok = median <= goal_median and (goal_p99 is None or p99 <= goal_p99)
    goals = "goal median %.0f ms" % goal_median
    if goal_p99 is not None:
        goals += ", p99 %.0f ms" % goal_p99
    print("%s  (%s: %s)" % (line, goals, "met" if ok else "NOT met"))
    return ok


def calculissimo(name, games):
    """Time every move and the best move of each game; True if the goals are met."""
    all_times = []
    best_times = []
    moves = 0
    for game in games:
        ms, n = timed(count, game)
        all_times.append(ms)
        moves += n
        ms, _ = timed(movegen.best, game)
        best_times.append(ms)
    ok = stats("calculissimo all moves, 7-chip rack" + name, all_times, "  (%d moves)" % moves)
    return stats("calculissimo best move" + name, best_times) and ok


def main():
    ok = calculissimo("", drawn_positions())
    set_calc = [(g, e) for g, e in benchset.games("calculissimo") if e["turns"] >= 3]
    for jokers in (0, 1, 2):
        games = [g for g, e in set_calc if e["rack"].count("?") == jokers]
        calculissimo(" (set, %d joker%s)" % (jokers, "" if jokers == 1 else "s"), games)
    times = []
    best_times = []
    moves = 0
    for game, _ in benchset.games("calqable"):
        ms, n = timed(count, game)
        times.append(ms)
        moves += n
        ms, _ = timed(movegen.best, game)
        best_times.append(ms)
    if times:
        ok = stats("calqable all moves, 9-tile rack", times, "  (%d moves)" % moves) and ok
        stats("calqable best move, 9-tile rack", best_times)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
