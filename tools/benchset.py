"""The benchmark set of issue 12: 100 positions a game, each with its rack, how many legal
moves it has and the best score (tests/data/movegen_positions.json).

    .venv/bin/python -m tools.benchset --write [--game calqable]   # make it anew (slow)

Each position is a board (square -> face, as a game record writes chips), the player to
move and their rack, from seeded play (tests/engine/test_movegen.py `position`: greedy and
random legal turns): Calculissimo with seven-chip racks holding 0, 1 or 2 jokers, and
boards from the empty one to late game; Cal-Q-Able with nine-tile racks. `games()` lays a
position out on a fresh game of the default profile, for the generator, the search and
their benchmarks; tests/test_benchset.py checks that the generator still finds the counts
and scores the file gives.
"""

import argparse
import json

from engine import faces, movegen, squares
from engine.game import Game
from tests.engine.test_movegen import position, profile_for
from tools.mpyrun import REPO_ROOT
from tools.positions import lay_out

PATH = REPO_ROOT / "tests" / "data" / "movegen_positions.json"
PER_GAME = 100
RACK = {"calculissimo": 7, "calqable": 9}


def _entry(name, seed):
    turns = seed % 20
    jokers = seed % 3 if name == "calculissimo" else 0
    game = position(name, seed, turns, RACK[name], jokers)
    w = game.board.width
    board = {}
    for i, code in enumerate(game.board.cells):
        if code:
            board[squares.name(i, w)] = faces.cell_text(code)
    rack = list(game.racks[game.to_move])
    count = 0
    best = None
    for _, score in movegen.scored(game):
        count += 1
        if best is None or score > best:
            best = score
    return {
        "game": name,
        "seed": seed,
        "turns": len(game.history),
        "board": board,
        "rack": rack,
        "moves": count,
        "best": best,
    }


def load(path=PATH):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["positions"]


def game_of(entry):
    """A known-rack game of the default profile with the entry's board, its rack to move."""
    game = lay_out(Game(profile_for(entry["game"]), 2, seed=entry["seed"]), entry["board"])
    game.racks[game.to_move] = list(entry["rack"])
    return game


def games(name=None, path=PATH):
    """[(game, entry)] for every position (of one game, if `name`)."""
    return [(game_of(e), e) for e in load(path) if name is None or e["game"] == name]


def write(names, path=PATH):
    try:
        kept = [e for e in load(path) if e["game"] not in names]
    except (OSError, ValueError):
        kept = []
    for name in names:
        for seed in range(1, PER_GAME + 1):
            kept.append(_entry(name, seed))
            print(name, seed, kept[-1]["moves"], kept[-1]["best"], flush=True)
    data = {
        "about": "issue 12's benchmark set, made by tools/benchset.py: see its docstring",
        "positions": kept,
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=0, ensure_ascii=False)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--game", action="append", choices=sorted(RACK))
    args = ap.parse_args()
    if args.write:
        write(args.game or sorted(RACK))


if __name__ == "__main__":
    main()
