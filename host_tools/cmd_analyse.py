"""How far each move of a game record (../shared/GAME_RECORD.md) fell short of the best one.

  analyse RECORD           a table: each turn's move and score, the best move for the
                           mover's rack then, and the points lost (best - played)
  analyse RECORD --json    one JSON line a turn, then a final line of totals

Only turns whose record object has `rack` (the mover's rack before the turn, an added key)
can be judged; the others show "no rack". The best move is engine/movegen.py's for that rack
on the position before the turn, or a Cal-Q-Able rule-5 replacement
(engine/calqable_replace.py) when one scores more: the table shows it as `rule 5: J8:7`,
and `--json` adds `"best_replace": true`. A pass, a swap or an illegal move scores 0. The
totals give, per player, the turns judged, the points scored and the best possible on
them, and the points lost. A record that cannot be read, or a turn's rack that the player
cannot hold, is a one-line error (exit status 2).
"""

import json
import sys

HELP = "compare each move of a game record with the best move for the mover's rack"


def add_arguments(cmd):
    cmd.add_argument("file", help="the game record, a JSON file")
    cmd.add_argument("--json", action="store_true", help="one JSON line a turn")
    cmd.add_argument("--profile", metavar="PATH", help="board profile file to use")


def _judge(game, turn, number):
    """The analysis of record turn `turn` (its 1-based number), played on `game` meanwhile:
    a dict as `--json` prints it."""
    from engine import calqable_replace, faces, movegen
    from engine import record as rec
    from host_tools.cmd_hint import Problem, check_rack

    player = game.to_move
    over = game.over
    best = None
    replace = False  # the best is a rule-5 replacement
    if turn.rack is not None and not over:
        try:
            rack = check_rack([faces.parse(t)[0] for t in turn.rack], game)
            if turn.move is not None:
                _from_rack(game, turn.move, rack)
        except Problem as exc:
            raise Problem("turn %d: %s" % (number, exc.message)) from None
        best = movegen.best(game, rack)
        floor = -1 if best[1] is None else best[1]
        for move, score in calqable_replace.replacements(game, rack, floor):
            if score > floor:
                best = (move, score)
                replace = True
                floor = score
    line = rec.turn_line(game, number, turn)
    out = {"turn": number, "player": player + 1, "action": turn.kind}
    played = str(turn.move) if turn.move is not None else None
    out["move"] = played
    out["legal"] = line["legal"]
    out["score"] = line["score"]
    if over:
        out["note"] = "the game was over"
    if best is None:
        out["rack"] = turn.rack
        return out
    move, score = best
    if move is None:
        move, score = None, 0
    if line["legal"] and played is not None and line["score"] >= score:
        move, score = played, line["score"]  # the played move is (one of) the best
        replace = turn.kind == "replace"
    out["rack"] = turn.rack
    out["best"] = str(move) if move is not None else None
    out["best_score"] = score
    if replace:
        out["best_replace"] = True
    out["lost"] = score - line["score"]
    return out


def _from_rack(game, move, rack):
    """Problem if `move` lays rack chips that `rack` does not hold."""
    from engine.game import chip_key
    from host_tools.cmd_hint import Problem

    left = list(rack)
    for _, code in move.placements:
        key = chip_key(code)
        if game.rules.from_rack(key):
            if key not in left:
                raise Problem("the move lays chips its rack does not hold")
            left.remove(key)


def analyse(record, game):
    """The per-turn dicts, then the final dict of totals per player."""
    rows = []
    for n in range(len(record.turns)):
        rows.append(_judge(game, record.turns[n], n + 1))
    players = game.players
    judged = [0] * players
    scored = [0] * players
    best = [0] * players
    for row in rows:
        if "lost" in row:
            p = row["player"] - 1
            judged[p] += 1
            scored[p] += row["score"]
            best[p] += row["best_score"]
    final = {
        "final": True,
        "judged": judged,
        "score": scored,
        "best": best,
        "lost": [best[p] - scored[p] for p in range(players)],
    }
    return rows, final


def _what(row):
    if row["move"] is not None:
        return row["move"] if row["action"] == "place" else "rule 5: " + row["move"]
    return row["action"]


def _best(row):
    if row.get("best") is None:
        return "no move"
    return ("rule 5: " if row.get("best_replace") else "") + row["best"]


def _text(rows, final, names):
    width = max([len(_what(r)) for r in rows] + [6])
    best_width = max([len(_best(r)) for r in rows if r.get("best")] + [4])
    out = [
        "turn  pl  %s  score  %s   best  lost"
        % ("played".ljust(width), "best move".ljust(best_width))
    ]
    for row in rows:
        head = "%4d  P%d  %s" % (row["turn"], row["player"], _what(row).ljust(width))
        score = "%5d" % row["score"] if row["legal"] else "ILLEGAL"
        if "lost" in row:
            tail = "%s  %5d  %4d" % (
                _best(row).ljust(best_width),
                row["best_score"],
                row["lost"],
            )
        else:
            tail = row.get("note") or "no rack"
        out.append(("%s  %5s  %s" % (head, score, tail)).rstrip())
    out.append("")
    out.append("player  turns judged  scored   best   lost")
    for p in range(len(final["lost"])):
        who = names[p] if names and p < len(names) and names[p] else "P%d" % (p + 1)
        out.append(
            "%-6s  %12d  %6d  %5d  %5d"
            % (who[:6], final["judged"][p], final["score"][p], final["best"][p], final["lost"][p])
        )
    return out


def run(args):
    from host_tools.cmd_hint import Problem, open_record

    try:
        record, game = open_record(args.file, args.profile)
        rows, final = analyse(record, game)
    except Problem as exc:
        message = exc.message
        if not message.startswith(args.file):
            message = "%s: %s" % (args.file, message)
        print("analyse: %s" % message, file=sys.stderr)
        return exc.status
    if args.json:
        for row in rows + [final]:
            print(json.dumps(row, ensure_ascii=False))
    else:
        print("\n".join(_text(rows, final, record.names)))
    return 0
