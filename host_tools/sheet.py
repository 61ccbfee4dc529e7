"""A readable score sheet from a record and its replay output lines.

One line per turn (turn, player, what was done, score or ILLEGAL with the reason codes,
running totals, the runs scored), then a table of totals and end penalties and the winner.
"""


def _move_text(turn):
    if turn.kind in ("place", "replace"):
        text = " ".join(sq + ":" + face for sq, face in turn.move.pairs())
        return text if turn.kind == "place" else "rule 5: " + text
    if turn.kind == "swap":
        return "swap %d" % turn.count
    return turn.kind


def _run_text(run):
    text = "%s %s = %d" % (run["run"], run["text"], run["face_value"])
    if run["premium_value"] != run["face_value"]:
        text += " -> %d" % run["premium_value"]
    if run["multiplier"] != 1:
        text += " x%d = %d" % (run["multiplier"], run["score"])
    return text


def _reason_text(reason):
    where = reason.get("run") or reason.get("square")
    return reason["code"] + (" " + where if where else "")


def _totals(totals):
    return " ".join("%4d" % t for t in totals)


def turn_line(turn, line, width):
    """One score-sheet row for a record turn and its output line."""
    if line["legal"]:
        result = "%7d" % line["score"]
        detail = "; ".join(_run_text(r) for r in line.get("runs", []))
        extra = line["score"] - sum(r["score"] for r in line.get("runs", []))
        if extra:
            detail += "; bonus +%d" % extra
    else:
        result = "ILLEGAL"
        detail = ", ".join(_reason_text(r) for r in line["reasons"])
    head = "%4d  P%d  %s" % (line["turn"], line["player"], _move_text(turn).ljust(width))
    return ("%s  %s  %s  %s" % (head, result, _totals(line["totals"]), detail)).rstrip()


def _who(names, p):
    """Player p's (0-based) name from the record, else P1, P2..."""
    return names[p] if names and p < len(names) and names[p] else "P%d" % (p + 1)


def final_lines(final, names=None):
    totals = final["totals"]
    penalties = final["penalties"]
    bonuses = final.get("bonuses") or [0] * len(totals)
    out = ["", "player   score  penalty    bonus   total"]
    for p in range(len(totals)):
        before = totals[p] + penalties[p] - bonuses[p]
        out.append(
            "%-6s %7d  %7d  %7d  %6d"
            % (_who(names, p)[:6], before, penalties[p], bonuses[p], totals[p])
        )
    best = max(totals)
    winners = [_who(names, p) for p in range(len(totals)) if totals[p] == best]
    label = "Winner" if len(winners) == 1 else "Tie"
    out.append("%s: %s with %d" % (label, ", ".join(winners), best))
    for warning in final.get("warnings", []):
        out.append("warning: " + warning)
    return out


def render(record, lines):
    """The score sheet as a list of text lines."""
    width = max([len(_move_text(t)) for t in record.turns] + [4])
    head = "%s, %d players, profile %s" % (record.game, record.players, record.profile)
    if record.options:
        head += ", options " + ", ".join("%s=%s" % kv for kv in sorted(record.options.items()))
    players = " ".join("%4s" % _who(record.names, p)[:4] for p in range(record.players))
    out = [head, "turn  pl  %s    score  %s  runs / reasons" % ("move".ljust(width), players)]
    for turn, line in zip(record.turns, lines, strict=False):
        out.append(turn_line(turn, line, width))
    return out + final_lines(lines[-1], record.names)
