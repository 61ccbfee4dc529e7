"""The best moves for a rack, in the position a game record (../shared/GAME_RECORD.md) reaches.

  hint RECORD --rack "9 + 6 ÷ 2 ?"        the 10 best moves, best first
  hint RECORD --rack 96+:2? --top 3       the 3 best
  hint RECORD --rack "..." --all --json   every legal move, one JSON line each

The record is replayed (all its turns) and the moves are those of the player to move then,
from engine/movegen.py, ordered by score (highest first), then by the move's text. Only
`--all` builds every move, and then the heading gives their count; otherwise the generator
skips what cannot reach the best N (the heading says "the N best moves", or the count when
there are fewer). A row shows the rank, the score, the move (`D8:9 E8:+ F8:6`, a joker
`?7`) and its main calculation; `--json` prints `{"move": ..., "score": ...}` a line.
In Cal-Q-Able the rule-5 replacements (engine/calqable_replace.py) are ranked with the moves:
a row shows one as `rule 5: J8:7` (the tiles before the `=` next to J8 are taken away and
these laid), and its JSON line adds `"replace": true`.

The rack: faces with or without spaces: digits, `+`, `-` (or `−`), `×` (or `*`, `x`), `÷`
(or `:`; `/` too in Calculissimo, where it is no fraction bar), `?` for a joker; for
Cal-Q-Able also `/` and, in the advanced game, `=` (otherwise `=` comes from the open supply
and is not on the rack). A face the game has no chip of, more of a face than are still off
the board, or more chips than the player holds is an error (exit status 2); so is a record
that cannot be read. A finished game has no move to hint (exit status 1).
"""

import json
import sys

HELP = "the best moves for a rack after a game record's turns"

_ORDER = "0123456789+-*:/=?"  # how faces are listed to people


def add_arguments(cmd):
    cmd.add_argument("file", help="the game record, a JSON file")
    cmd.add_argument("--rack", required=True, help='the rack, e.g. "9 + 6 ÷ 2 ?"')
    cmd.add_argument("--top", type=int, default=10, metavar="N", help="how many (default 10)")
    cmd.add_argument("--all", action="store_true", help="every legal move")
    cmd.add_argument("--json", action="store_true", help="one JSON line a move")
    cmd.add_argument("--profile", metavar="PATH", help="board profile file to use")


class Problem(Exception):
    """A one-line error for the user: exit status `status`."""

    def __init__(self, message, status=2):
        super().__init__(message)
        self.message = message
        self.status = status


# ----- shared with cmd_analyse -------------------------------------------------------------


def open_record(path, profile_path=None):
    """(record, game before its first turn) for a record file; Problem if it cannot be read."""
    from engine import record as rec
    from engine.errors import RecordError
    from host_tools import replay
    from host_tools.jsonpos import line_of

    try:
        record, profile, text = replay.load(path, profile_path)
    except replay.Unreadable as exc:
        raise Problem(_where(path, exc.line) + exc.message) from None
    try:
        return record, rec.start(record, profile)
    except RecordError as exc:
        raise Problem(_where(path, line_of(text, exc.path)) + exc.message) from None


def _where(path, line):
    return "%s%s: " % (path, " line %d" % line if line else "")


def _rack_faces(game):
    """The faces a rack of this game may hold, internal characters, in the chip set's order."""
    chips = game.rules.chips()
    keep = [ch for ch in chips if chips[ch] and game.rules.from_rack(ch)]
    return sorted(keep, key=_ORDER.find)


def show_rack(chars):
    """Internal faces as the user reads them: `9 + ÷ ?`."""
    from engine import faces

    return " ".join(faces.display(ch) for ch in chars)


def parse_rack(text, game):
    """A rack typed by the user as internal faces (`"9+:?"` -> ["9", "+", ":", "?"])."""
    from engine import faces
    from engine.errors import FaceError

    out = []
    for part in text.replace(",", " ").split():
        for c in part:
            if c == faces.JOKER:
                out.append(c)
            elif c == "/" and faces.BAR not in game.rules.alphabet:
                out.append(faces.DIV)  # no fraction bar in this game: `/` is a division
            else:
                try:
                    out.append(faces.parse_char(c))
                except FaceError:
                    raise Problem("rack: %r is no chip face" % c) from None
    return check_rack(out, game)


def check_rack(rack, game):
    """`rack` (internal faces) if the player to move may hold it, else Problem."""
    from engine import faces

    if not rack:
        raise Problem("rack: no chips")
    allowed = _rack_faces(game)
    name = game.rules.name
    counts = {}  # type: dict[str, int]
    for ch in rack:
        if ch not in allowed:
            if ch in game.rules.open_faces:
                why = "is taken from the open supply, not held on a rack: leave it out"
            else:
                why = "is no %s chip (a rack holds %s)" % (name, show_rack(allowed))
            raise Problem("rack: %r %s" % (faces.display(ch), why))
        counts[ch] = counts.get(ch, 0) + 1
    for ch in allowed:
        left = game.unseen.get(ch, 0)
        if counts.get(ch, 0) > left:
            raise Problem(
                "rack: %d of %r, but only %d %s left off the board"
                % (counts[ch], faces.display(ch), left, "is" if left == 1 else "are")
            )
    p = game.to_move
    if len(rack) > game.rack_count(p):
        raise Problem(
            "rack: %d chips, but player %d holds %d" % (len(rack), p + 1, game.rack_count(p))
        )
    return rack


def play_through(record, game):
    """Play all the record's turns on `game`; returns their output lines."""
    from engine import record as rec

    return [rec.turn_line(game, n + 1, record.turns[n]) for n in range(len(record.turns))]


def calculation(game, move, replace=False):
    """The move's main calculation as text (`9 + 6 ÷ 2 = 12`; a Cal-Q-Able equation as it
    reads), from Game.check (Game.check_replace for a rule-5 replacement): the run holding
    most of the new chips."""
    verdict = game.check_replace(move)[0] if replace else game.check(move)
    if not verdict.legal:
        return "illegal: " + ", ".join(verdict.codes())
    new = {i for i, _ in move.placements}
    main = None
    most = -1
    for run in verdict.runs:
        n = len([i for i in run.run.indices() if i in new])
        if n > most:
            main, most = run, n
    text = spaced(main.text)
    if game.rules.name == "calculissimo":
        text += " = %d" % main.face_value
    if len(verdict.runs) > 1:
        text += " (+%d more)" % (len(verdict.runs) - 1)
    return text


def spaced(text):
    """A run's text with spaces around operators and `=` (numbers and fractions kept whole)."""
    out = []
    word = ""
    for c in text:
        if c.isdigit() or c == "/":
            word += c
            continue
        if word:
            out.append(word)
            word = ""
        out.append(c)
    if word:
        out.append(word)
    return " ".join(out)


def ranked(game, rack):
    """Every legal (score, text, move, replace) for `rack`, best first, ties by the move's
    text; `replace` True for a Cal-Q-Able rule-5 replacement (Game.replace), False for a
    move (Game.play)."""
    from engine import calqable_replace, movegen

    pairs = [(score, str(move), move, False) for move, score in movegen.scored(game, rack)]
    for move, score in calqable_replace.replacements(game, rack):
        pairs.append((score, str(move), move, True))
    pairs.sort(key=_rank)
    return pairs


def _rank(entry):
    # (a replacement and a move never tie on their text: engine/calqable_replace.py)
    return -entry[0], entry[1]


def best_of(game, rack, n):
    """The `n` best legal (score, text, move, replace) for `rack`, in ranked()'s order. The
    generators are told the n-th best score found so far, so they need not build the moves
    below it (a Cal-Q-Able nine-tile rack: a median of about 0.1 s, against 1.3 s for every
    move). Fewer than `n` means that every legal move was found."""
    from bisect import insort

    from engine import calqable_replace, movegen

    floor = [-1]
    kept = []  # type: list

    def keep(move, score, replace):
        if len(kept) == n and score <= floor[0]:
            return
        insort(kept, (score, str(move), move, replace), key=_rank)
        if len(kept) > n:
            kept.pop()
        if len(kept) == n:
            # an equal score may still come first by its text: only lower ones cannot
            floor[0] = kept[-1][0] - 1

    for move, score in movegen.floored(game, floor, rack):
        keep(move, score, False)
    for move, score in calqable_replace.replacements(game, rack, floor[0]):
        keep(move, score, True)
    return kept


# ----- the command ----------------------------------------------------------------------------


def run(args):
    try:
        return _hint(args)
    except Problem as exc:
        print("hint: %s" % exc.message, file=sys.stderr)
        return exc.status


def _hint(args):
    if not args.all and args.top < 1:
        raise Problem("--top must be 1 or more")
    record, game = open_record(args.file, args.profile)
    play_through(record, game)
    if game.over:
        raise Problem(
            "%s: the game is over after turn %d: there is no move to hint"
            % (args.file, len(record.turns)),
            1,
        )
    try:
        rack = parse_rack(args.rack, game)
    except Problem as exc:
        raise Problem("%s: %s" % (args.file, exc.message)) from None
    if args.all:
        moves = shown = ranked(game, rack)
        found = _count(len(moves), "legal move")
    else:
        shown = best_of(game, rack, args.top)
        found = _count(len(shown), "legal move")
        if len(shown) == args.top:
            found = "the %s" % _count(args.top, "best move")
    if args.json:
        for score, text, _, replace in shown:
            line = {"move": text, "score": score}
            if replace:
                line["replace"] = True
            print(json.dumps(line, ensure_ascii=False))
        return 0
    p = game.to_move
    print(
        "%s, player %d to move after %s, rack %s: %s"
        % (
            game.rules.name,
            p + 1,
            _count(len(record.turns), "turn"),
            show_rack(rack),
            found,
        )
    )
    if not shown:
        print("no move fits: pass, or swap chips")
        return 0
    width = max(len(_shown(entry)) for entry in shown)
    print("rank  score  %s  calculation" % "move".ljust(width))
    for k in range(len(shown)):
        score, _, move, replace = shown[k]
        print(
            "%4d  %5d  %s  %s"
            % (k + 1, score, _shown(shown[k]).ljust(width), calculation(game, move, replace))
        )
    return 0


def _shown(entry):
    """A row's move: a rule-5 replacement as `rule 5: J8:7`, as `analyse` writes it."""
    return ("rule 5: " if entry[3] else "") + entry[1]


def _count(n, what):
    """ "1 turn", "5 turns"."""
    return "%d %s%s" % (n, what, "" if n == 1 else "s")
