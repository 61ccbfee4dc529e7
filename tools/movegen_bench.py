"""Timings of engine/movegen.py on CPython (issue 12's goals).

    .venv/bin/python -m tools.movegen_bench [--positions 100] [--calqable-positions 20]

- Calculissimo, every move for the mover's own seven-chip rack (as drawn from the bag, so
  jokers come as often as the bag gives them) in mid-game positions of seeded greedy
  self-play (engine/autoplay.py, 4 to 23 turns): median and p99 (goal 50 ms and 500 ms);
- Calculissimo, the best move only (`movegen.best`; goal: median 20 ms);
- Cal-Q-Able, every move for a nine-tile rack in positions of seeded random play
  (tests/engine/test_movegen.py `position`; goal: median 250 ms, p99 2 s).
"""

import argparse
import time

from engine import autoplay, movegen
from engine.game import Game
from tests.engine.test_movegen import position, profile_for


def calculissimo_position(seed):
    game = Game(profile_for("calculissimo"), 2, seed=seed)
    for _ in range(4 + seed % 20):
        if game.over:
            break
        autoplay.play_turn(game)
    if game.over or len(game.racks[game.to_move]) < 7:
        return None
    return game


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
    times = sorted(times)
    n = len(times)
    median = times[n // 2]
    p99 = times[min(n - 1, (99 * n) // 100)]
    print(
        "%-40s n=%4d  median %8.1f ms  p99 %8.1f ms  max %8.1f ms%s"
        % (name, n, median, p99, times[-1], extra)
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--calqable-positions", type=int, default=20)
    args = ap.parse_args()

    games = []
    seed = 1
    while len(games) < args.positions:
        game = calculissimo_position(seed)
        if game is not None:
            games.append(game)
        seed += 1
    all_times = []
    best_times = []
    moves = 0
    for game in games:
        ms, n = timed(count, game)
        all_times.append(ms)
        moves += n
        ms, _ = timed(movegen.best, game)
        best_times.append(ms)
    stats("calculissimo all moves, 7-chip rack", all_times, "  (%d moves)" % moves)
    stats("calculissimo best move", best_times)

    times = []
    moves = 0
    for seed in range(1, args.calqable_positions + 1):
        game = position("calqable", seed, 4 + seed % 8, 9)
        ms, n = timed(count, game)
        times.append(ms)
        moves += n
    if times:
        stats("calqable all moves, 9-tile rack", times, "  (%d moves)" % moves)


if __name__ == "__main__":
    main()
