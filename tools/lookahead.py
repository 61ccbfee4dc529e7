"""Would one reply of look-ahead beat the best score in Cal-Q-Able? (issue 12's equity goal)

    .venv/bin/python -m tools.lookahead [--positions 30] [--moves 6] [--draws 2]

A leave table can do little in Cal-Q-Able (engine/leave.py: the best-score player lays its
whole rack on 93 % of its turns), so the other way an equity player could beat it is by
the board it leaves: a move that opens a line of equation premiums hands the opponent its
score. This measures that on the mid-game positions of the benchmark set
(tools/benchset.py, the same as tools/hintbench.py's): for the `--moves` highest-scoring
moves of each, the opponent's best reply (engine/movegen.best) is found with their real
rack and with `--draws` racks drawn from the tiles the mover cannot see (the bag and the
opponent's rack; engine/prng.py, seeded). Then, against the highest-scoring move, in
points a turn, net of the reply to it (judged by the real rack):
- what picking by the drawn racks' replies gains: what a look-ahead player would get;
- what picking by the real rack's reply gains: the most any look-ahead could get.
Wall-clock: about 6 s a position on CPython (30 in 2 min 50 s, 2026-11-28).
"""

from __future__ import annotations

import argparse

from engine import movegen
from engine.prng import Prng
from tools import benchset, hintbench


def replies(game, move, racks):
    """The opponent's best score after `move`, for each rack of `racks` (0: no move)."""
    game.push(move)
    try:
        return [movegen.best(game, rack)[1] or 0 for rack in racks]
    finally:
        game.pop()


def measure(game, n_moves, n_draws, prng):
    """(gain by the drawn racks, gain by the real rack) of one position, in points."""
    ranked = sorted(movegen.scored(game), key=lambda pair: -pair[1])[:n_moves]
    if not ranked:
        return 0, 0
    opponent = (game.to_move + 1) % game.players
    real = list(game.racks[opponent])
    unseen = list(game.bag) + real
    rows = []
    for move, score in ranked:
        drawn = []
        for _ in range(n_draws):
            pool = list(unseen)
            prng.shuffle(pool)
            drawn.append(pool[: len(real)])
        got = replies(game, move, [real] + drawn)
        rows.append((score - got[0], score - sum(got[1:]) / max(1, n_draws)))
    top = rows[0][0]  # the highest score's net of the real reply
    by_draws = max(rows, key=lambda row: row[1])[0]
    by_real = max(row[0] for row in rows)
    return by_draws - top, by_real - top


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--moves", type=int, default=6, help="the highest-scoring moves weighed")
    ap.add_argument("--draws", type=int, default=2, help="racks drawn for the opponent")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    wanted = {(e["seed"], e["turns"]) for e in hintbench.positions(None, "calqable")}
    prng = Prng(args.seed)
    gains = []
    for game, entry in benchset.games("calqable"):
        if (entry["seed"], entry["turns"]) not in wanted:
            continue
        if len(gains) >= args.positions:
            break
        gains.append(measure(game, args.moves, args.draws, prng))
    n = len(gains)
    print(
        "Cal-Q-Able, %d mid-game positions, the %d highest-scoring moves each: against the "
        "highest score, net of the opponent's best reply, a turn" % (n, args.moves)
    )
    print(
        "  picked by %d drawn racks' replies: %+.1f points (better on %d, worse on %d)"
        % (
            args.draws,
            sum(g[0] for g in gains) / n,
            sum(1 for g in gains if g[0] > 0),
            sum(1 for g in gains if g[0] < 0),
        )
    )
    print(
        "  picked by the real rack's reply (the most a look-ahead could gain): %+.1f points"
        " (better on %d)" % (sum(g[1] for g in gains) / n, sum(1 for g in gains if g[1] > 0))
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
