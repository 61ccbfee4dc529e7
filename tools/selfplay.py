"""Computer against computer (engine/players.py): win rates of every pair of levels.

    .venv/bin/python -m tools.selfplay [--games 20] [--seed 1] [--levels 1,2,3,4]
    .venv/bin/python -m tools.selfplay --pair 4,3 --games 2000      # equity vs best score

Two-player known-rack games on the game's default profile (hardware/profiles/), seeded:
game k of a pair uses the bag of seed `seed + k // 2`, the two levels taking the first seat
in turn (k even: the first level named starts), so every deal is played from both seats.
Each seat draws its random moves (levels 1 and 2) from its own engine/prng.py stream, so a
run is repeatable. A game runs until it is over (or `--max-turns`), then the end penalties
are applied (`Game.finish`). Prints a Markdown table of win rates (a draw counts half),
then wins/draws/losses and average scores per pair, the level 4 vs level 3 (equity vs best
score) result, and the time taken.
"""

import argparse
import json
import sys
import time

from engine.game import Game
from engine.players import LEVELS, play_turn
from engine.prng import Prng
from engine.profile import Profile
from tools.mpyrun import REPO_ROOT

MAX_TURNS = 500


def load_profile(name="calculissimo"):
    """The default profile of a game, from hardware/profiles/."""
    with open(REPO_ROOT / "hardware" / "profiles" / (name + ".json")) as f:
        return Profile(json.load(f))


def play_game(profile, levels, seed, leaves=None, max_turns=MAX_TURNS, watch=None):
    """Play one seeded game, seat p at `levels[p]` (with leave table `leaves[p]`, None: the
    game's own); returns the finished Game. `watch(game, player, rack, bag, result)`, if given,
    sees every turn: who moved, their rack and the bag's count before it, and `play_turn`'s
    result."""
    game = Game(profile, len(levels), seed=seed)
    prngs = [Prng(seed * 8 + p + 1) for p in range(len(levels))]
    if leaves is None:
        leaves = [None] * len(levels)
    turns = 0
    while not game.over and turns < max_turns:
        p = game.to_move
        rack = list(game.racks[p])
        bag = game.bag_count()
        result = play_turn(game, levels[p], prngs[p], leaves[p])
        if watch is not None:
            watch(game, p, rack, bag, result)
        turns += 1
    game.finish()
    return game


class Tally:
    """Wins, draws, losses and points of level `a` against level `b`."""

    def __init__(self, a, b):
        self.a = a
        self.b = b
        self.wins = self.draws = self.losses = 0
        self.points_a = self.points_b = 0
        self.seconds = 0.0

    @property
    def games(self):
        return self.wins + self.draws + self.losses

    def add(self, score_a, score_b):
        self.points_a += score_a
        self.points_b += score_b
        if score_a > score_b:
            self.wins += 1
        elif score_a == score_b:
            self.draws += 1
        else:
            self.losses += 1

    def rate(self):
        """a's share of the games, a draw counting half (0 to 1)."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def margin(self):
        """The 95% half-width of rate() (normal approximation)."""
        n = self.games
        if not n:
            return 0.0
        r = self.rate()
        return 1.96 * (r * (1 - r) / n) ** 0.5


def match(profile, a, b, games, seed, leaves=(None, None), progress=None):
    """Play `games` games of level `a` against level `b` (both seat orders); a Tally."""
    tally = Tally(a, b)
    t0 = time.perf_counter()
    for k in range(games):
        flip = k % 2 == 1
        levels = [b, a] if flip else [a, b]
        seat_leaves = [leaves[1], leaves[0]] if flip else list(leaves)
        game = play_game(profile, levels, seed + k // 2, seat_leaves)
        s = game.totals()
        if flip:
            tally.add(s[1], s[0])
        else:
            tally.add(s[0], s[1])
        if progress is not None:
            progress(tally)
    tally.seconds = time.perf_counter() - t0
    return tally


def table(levels, tallies):
    """The Markdown win-rate table: row level's share against the column level."""
    lines = ["| level | " + " | ".join("vs %d" % b for b in levels) + " |"]
    lines.append("|---" * (len(levels) + 1) + "|")
    for a in levels:
        cells = []
        for b in levels:
            if (a, b) in tallies:
                cells.append("%.0f%%" % (100 * tallies[a, b].rate()))
            elif (b, a) in tallies:
                cells.append("%.0f%%" % (100 * (1 - tallies[b, a].rate())))
            else:
                cells.append("-")
        lines.append("| %d | " % a + " | ".join(cells) + " |")
    return "\n".join(lines)


def details(tally):
    return "| %d vs %d | %d | %d-%d-%d | %.1f%% ± %.1f | %.1f | %.1f | %.2f |" % (
        tally.a,
        tally.b,
        tally.games,
        tally.wins,
        tally.draws,
        tally.losses,
        100 * tally.rate(),
        100 * tally.margin(),
        tally.points_a / max(1, tally.games),
        tally.points_b / max(1, tally.games),
        tally.seconds / max(1, tally.games),
    )


def report(levels, tallies, games, seed):
    out = [
        "Win rates (row against column; a draw counts half), %d games a pair, seeds %d-%d,"
        " both seat orders:" % (games, seed, seed + (games - 1) // 2),
        "",
    ]
    out.append(table(levels, tallies))
    out += ["", "| pair | games | W-D-L | win rate (95%) | avg score | avg opp | s/game |"]
    out.append("|---|---|---|---|---|---|---|")
    for key in sorted(tallies, reverse=True):
        out.append(details(tallies[key]))
    if (4, 3) in tallies:
        t = tallies[4, 3]
        out += [
            "",
            "Equity (level 4) vs best score (level 3): %.1f%% ± %.1f over %d games "
            "(%d wins, %d draws, %d losses)"
            % (100 * t.rate(), 100 * t.margin(), t.games, t.wins, t.draws, t.losses),
        ]
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per pair of levels")
    ap.add_argument("--seed", type=int, default=1, help="the first bag seed")
    ap.add_argument("--levels", default="1,2,3,4", help="levels to pair, e.g. 1,2,3,4")
    ap.add_argument("--pair", help="one pair only, e.g. 4,3")
    ap.add_argument("--game", default="calculissimo", choices=("calculissimo", "calqable"))
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = ap.parse_args(argv)
    profile = load_profile(args.game)
    if args.pair:
        a, b = (int(x) for x in args.pair.split(","))
        pairs = [(a, b)]
        levels = sorted({a, b})
    else:
        levels = sorted(int(x) for x in args.levels.split(","))
        pairs = [(a, b) for a in levels for b in levels if a > b]
    for level in levels:
        if level not in LEVELS:
            ap.error("levels are 1 to 4")

    def progress(t):
        if not args.quiet and (t.games % 10 == 0 or t.games == args.games):
            sys.stderr.write("%d vs %d: %d games, %.1f%%\n" % (t.a, t.b, t.games, 100 * t.rate()))

    t0 = time.perf_counter()
    tallies = {}
    for a, b in pairs:
        tallies[a, b] = match(profile, a, b, args.games, args.seed, progress=progress)
    print(report(levels, tallies, args.games, args.seed))
    print("\n%d games in %.0f s" % (len(pairs) * args.games, time.perf_counter() - t0))


if __name__ == "__main__":
    main()
