"""Learn a game's leave table (engine/leave.py) from seeded self-play.

    .venv/bin/python -m tools.learn_leave [--game calculissimo] [--games 700] [--seed 100001]
        [--rounds 3] [--write] [--save samples.jsonl] [--load samples.jsonl]

Round 0 plays `--games` two-player games of level 3 against itself (the best score, no
leave); each later round plays level 4 against itself with the table learned so far, on
new seeds (the default seeds lie far from tools/selfplay.py's). Every turn taken while the
bag held chips gives a sample: the chips the mover kept (the rack less the chips laid or
swapped) and what came of it, the mover's points on their next turn less the opponent's
turns in between, each counted at the average points of such a turn (the opponent's actual
points would only add noise: they do not depend on the leave). A move of the whole rack
earns a turn at once, with no opponent turn in between: the table learns what that is
worth. The table's terms (engine/leave.py `terms`) are fitted to these by least squares
with a small ridge (which also settles the terms that only add up to others, such as the
digit values and the balance rows), over the samples of every round so far; values are in
tenths of a point. Pure Python (no numpy in the venv).

`--write` puts the last table in engine/leave.py between its TABLE markers, with the seeds
and counts it came from. `--save` keeps every game's samples (JSON lines), and `--load`
fits saved samples first as earlier rounds: `--load FILE --rounds 0 --write` fits again
without playing (e.g. with another `--ridge`).
"""

import argparse
import json
import time

from engine import faces
from engine import leave as leaves
from engine.game import chip_key
from tools.mpyrun import REPO_ROOT
from tools.selfplay import load_profile, play_game

# Per game: the table's faces (engine/leave.py: digits, operators, joker), the rack size,
# the name of its table in engine/leave.py and the markers around it there. Cal-Q-Able's
# `=` comes from the open supply, not the rack: it is no part of a leave.
GAMES = {
    "calculissimo": (
        "0123456789+-*:?",
        7,
        "CALCULISSIMO",
        "# ----- TABLE (written by tools/learn_leave.py) -----",
        "# ----- END TABLE -----",
    ),
    "calqable": (
        "0123456789+-*:/",
        9,
        "CALQABLE",
        "# ----- CALQABLE TABLE (written by tools/learn_leave.py) -----",
        "# ----- END CALQABLE TABLE -----",
    ),
}
RIDGE = 5.0  # added to the diagonal of the normal equations (samples: tens of thousands)


def kept(rack, result, rules):
    """The chips kept after a turn: `rack` (faces) less those laid from it or swapped."""
    left = list(rack)
    kind, detail, _ = result
    if kind in ("place", "replace"):  # (a rule-5 replacement lays rack tiles too)
        for _, code in detail.placements:
            key = chip_key(code)
            if rules.from_rack(key):  # (Cal-Q-Able's `=` comes from the open supply)
                left.remove(key)
    elif kind == "swap":
        for ch in detail:
            left.remove(ch)
    return left


def game_samples(profile, levels, seed, table, shape):
    """[(leave terms, the mover's next points, opponent turns before them, their points)]
    from one seeded game between `levels`; `shape`: (faces, rack size, None)."""
    face_keys = shape[0]
    turns = []  # (player, points, kept counts or None when the bag was empty)

    def watch(game, p, rack, bag, result):
        terms = None
        if bag > 0:
            counts = [0] * len(face_keys)
            for ch in kept(rack, result, game.rules):
                counts[face_keys.index(ch)] += 1
            kind, move, _ = result
            bonus = kind == "place" and game.rules.bonus_turn(len(move), len(rack))
            terms = list(leaves.terms(shape, counts, bonus))
        turns.append((p, result[2], terms))

    play_game(profile, levels, seed, [table] * len(levels), watch=watch)
    out = []
    for i in range(len(turns)):
        p, _, terms = turns[i]
        if terms is None:
            continue
        between = []  # the opponents' points on their turns before the mover's next
        for j in range(i + 1, len(turns)):
            q, points, _ = turns[j]
            if q == p:
                out.append((terms, points, len(between), sum(between)))
                break
            between.append(points)
    return out


class Fit:
    """Normal equations of a ridge least-squares fit, accumulated sample by sample. The
    target is `points - turns * mean`, `mean` the average points of an opponent's turn
    between a sample and the mover's next, known only at the end: the right-hand side is
    kept as two parts."""

    def __init__(self, n):
        self.n = n
        self.a = [[0.0] * n for _ in range(n)]
        self.b = [0.0] * n  # for the mover's next points
        self.c = [0.0] * n  # for the opponent turns in between
        self.count = 0
        self.points = 0.0
        self.turns = 0
        self.between = 0.0

    def add(self, terms, points, turns, between):
        for i, mi in terms:
            row = self.a[i]
            for j, mj in terms:
                row[j] += mi * mj
            self.b[i] += mi * points
            self.c[i] += mi * turns
        self.count += 1
        self.points += points
        self.turns += turns
        self.between += between

    def mean(self):
        """The average points of an opponent's turn in between."""
        return self.between / self.turns if self.turns else 0.0

    def solve(self, ridge=RIDGE):
        """The weights (Gauss-Jordan elimination with partial pivoting)."""
        n = self.n
        mean = self.mean()
        m = [self.a[i][:] + [self.b[i] - mean * self.c[i]] for i in range(n)]
        for i in range(n):
            m[i][i] += ridge
        for c in range(n):
            p = max(range(c, n), key=lambda r: abs(m[r][c]))
            m[c], m[p] = m[p], m[c]
            pivot = m[c][c]
            for r in range(n):
                if r != c and m[r][c]:
                    f = m[r][c] / pivot
                    row, top = m[r], m[c]
                    for k in range(c, n + 1):
                        row[k] -= f * top[k]
        return [m[i][n] / m[i][i] for i in range(n)]


def tenths(weights):
    return tuple(round(10 * w) for w in weights)


def table_text(game, weights, note):
    face_keys, rack_size, name, begin, end = GAMES[game]
    n = len(face_keys)
    lines = [begin]
    lines += ["# " + line for line in note]
    lines.append("# fmt: off")
    lines.append("%s = (" % name)
    lines.append('    "%s",' % face_keys)
    lines.append("    %d," % rack_size)
    lines.append("    (")
    lines.append("        # kept, per chip: " + " ".join(face_keys))
    lines.append("        " + ", ".join(str(w) for w in weights[:n]) + ",")
    lines.append("        # each duplicate of a face")
    lines.append("        " + ", ".join(str(w) for w in weights[n : 2 * n]) + ",")
    lines.append(
        "        # balance: row = numbers kept (0-%d), column = operators kept (0-%d)"
        % (rack_size, rack_size)
    )
    for row in range(rack_size + 1):
        k = 2 * n + row * (rack_size + 1)
        lines.append("        " + ", ".join(str(w) for w in weights[k : k + rack_size + 1]) + ",")
    lines.append("        # a move of the whole rack: the turn it earns")
    lines.append("        %d," % weights[-1])
    lines.append("    ),")
    lines.append(")")
    lines.append("# fmt: on")
    lines.append(end)
    return "\n".join(lines)


def write(game, text):
    begin, end = GAMES[game][3:]
    path = REPO_ROOT / "engine" / "leave.py"
    source = path.read_text()
    head, rest = source.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(head + text + tail)


def describe(table):
    """A readable summary of a table: the face values and a few balance cells."""
    face_keys, rack_size = table[0], table[1]
    n = len(face_keys)
    w = table[2]
    out = ["face  kept  dup"]
    for i in range(n):
        out.append("%4s %5.1f %5.1f" % (faces.text(face_keys[i]), w[i] / 10, w[n + i] / 10))
    out.append("balance (numbers x operators, points):")
    for row in range(rack_size + 1):
        k = 2 * n + row * (rack_size + 1)
        out.append(" ".join("%6.1f" % (v / 10) for v in w[k : k + rack_size + 1 - row]))
    out.append("bonus turn %.1f" % (w[-1] / 10))
    return "\n".join(out)


def fit_line(fit, r, level, first, last, t0):
    return (
        "round %d (level %d, seeds %d-%d): %d samples, next turn %.1f points, "
        "opponent turn %.1f, %.0f s"
        % (
            r,
            level,
            first,
            last,
            fit.count,
            fit.points / fit.count,
            fit.mean(),
            time.perf_counter() - t0,
        )
    )


def load(path, fit):
    """Fit the samples saved in `path`; returns [(level, first seed, last seed)] per round."""
    rounds = []
    with open(path) as f:
        for line in f:
            game = json.loads(line)
            key = (game["round"], game["level"])
            if not rounds or rounds[-1][0] != key:
                rounds.append([key, game["seed"], game["seed"]])
            rounds[-1][2] = game["seed"]
            for terms, points, turns, between in game["samples"]:
                fit.add([tuple(t) for t in terms], points, turns, between)
    return [(key[1], first, last) for key, first, last in rounds]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="calculissimo")
    ap.add_argument("--games", type=int, default=700, help="games per round")
    ap.add_argument("--seed", type=int, default=100001, help="the first bag seed")
    ap.add_argument("--rounds", type=int, default=3, help="rounds: level 3, then level 4")
    ap.add_argument("--ridge", type=float, default=RIDGE)
    ap.add_argument("--load", help="fit the samples saved in this file first (earlier rounds)")
    ap.add_argument("--save", help="append every game's samples to this file (JSON lines)")
    ap.add_argument("--write", action="store_true", help="write the table to engine/leave.py")
    args = ap.parse_args(argv)
    profile = load_profile(args.game)
    face_keys, rack_size = GAMES[args.game][:2]
    shape = (face_keys, rack_size, None)
    fit = Fit(leaves.size(face_keys, rack_size))
    t0 = time.perf_counter()
    rounds = load(args.load, fit) if args.load else []
    table = (face_keys, rack_size, tenths(fit.solve(args.ridge))) if rounds else None
    for r in range(len(rounds)):
        print("loaded round %d: level %d, seeds %d-%d" % ((r,) + rounds[r]))
    seed = args.seed
    for r in range(len(rounds), len(rounds) + args.rounds):
        level = 3 if table is None else 4
        for k in range(args.games):
            samples = game_samples(profile, [level, level], seed + k, table, shape)
            for sample in samples:
                fit.add(*sample)
            if args.save:
                with open(args.save, "a") as f:
                    game = {"round": r, "level": level, "seed": seed + k, "samples": samples}
                    f.write(json.dumps(game) + "\n")
        rounds.append((level, seed, seed + args.games - 1))
        seed += args.games
        table = (face_keys, rack_size, tenths(fit.solve(args.ridge)))
        print(fit_line(fit, r, *rounds[-1], t0=t0), flush=True)
        print(describe(table), flush=True)
    if table is None:
        ap.error("no samples: play a round or --load some")
    note = [
        "Learned by tools/learn_leave.py on %s from %d samples of two-player self-play,"
        % (time.strftime("%Y-%m-%d"), fit.count)
    ]
    note += [
        "round %d: level %d, bag seeds %d-%d;" % ((r,) + rounds[r]) for r in range(len(rounds))
    ]
    note.append(
        "each round at level 4 uses the table of the rounds before; ridge %g." % args.ridge
    )
    note.append("Values in tenths of a point.")
    text = table_text(args.game, table[2], note)
    if args.write:
        write(args.game, text)
        print("written to engine/leave.py")
    else:
        print(text)


if __name__ == "__main__":
    main()
