"""A live view of the game on the board, from its USB event stream.

The PC reads the game as the board holds it (its snapshot, over the serial line), draws the
board and the scores, then follows the events: chips laid and lifted, the live preview,
moves, passes, swaps, the end; the board's own moves and hints when it plays a seat
(issue 13: firmware/computer.py). Every committed move is also scored again on the PC with the
engine, from the PC's own copy of the game, and checked against the points the board gave:
a family never has to take the board's word for a score.

  watch                  draw the board after every turn, and a line for every event
  watch --json           the raw event lines, for other programs
  watch --seconds 30     stop after 30 s (otherwise Ctrl-C)
"""

import json
import sys

HELP = "a live view of the game on the board, checked move by move"

TURN_EVENTS = ("move", "replace", "pass", "timeout", "swap", "bonus_turn", "game_over")


def add_arguments(cmd):
    cmd.add_argument("--port", help="the board's serial port (default: the one plugged in)")
    cmd.add_argument("--json", action="store_true", help="print the raw event lines")
    cmd.add_argument("--seconds", type=float, help="stop after this many seconds")


def board_lines(game, pending=()):
    """The board as text: committed chips, this turn's chips in brackets' stead (lower row)."""
    from engine import faces

    prof = game.profile
    w = prof.width
    pend = dict(pending)
    out = ["    " + " ".join(chr(65 + c) for c in range(w))]
    for r in range(prof.height):
        row = []
        for c in range(w):
            sq = r * w + c
            code = game.board.cells[sq] or pend.get(sq)
            row.append(faces.cell_text(code)[-1:] if code else ("*" if sq == prof.start else "."))
        out.append("%3d %s" % (r + 1, " ".join(row)))
    return out


def _free(ev):
    """What a real board says of its free heap after a turn (not the simulated board)."""
    return "" if ev.get("free") is None else " (free heap %d B)" % ev["free"]


def _reasons(codes):
    """The reason codes in the words the board's display uses (firmware/i18n.py)."""
    from firmware.i18n import reason

    return ", ".join(reason("en", code) for code in codes)


def _faces(chips):
    """A rack's chips as the board holds them ("*", ":", "?") in the display's forms."""
    from engine import faces

    return " ".join("?" if ch == faces.JOKER else faces.text(ch) for ch in chips)


# Events that are the PC's own traffic or a service mode's detail: not part of the game's story.
QUIET = ("reply", "sensor", "tag", "service", "recount")


def _how_it_thought(ev):
    """What a think's event says of how it ended, if not by its time: out of memory (the
    best move it had found), or taken early by a button (firmware/README.md, events)."""
    out = ""
    if ev.get("short"):
        out += ", out of memory"
    if ev.get("early"):
        out += ", taken early"
    return out


def describe(ev, names=()):
    """One readable line for an event, or None for those drawn otherwise or not worth a line.
    `names`: the players' names from the board's settings (else P1, P2...)."""
    from host_tools import n_chips

    kind = ev["ev"]
    p = ev.get("player")
    who = names[p - 1] if isinstance(p, int) and 0 < p <= len(names) else "P%s" % p
    if kind == "placed":
        return "%s: %s laid" % (ev["square"], ev["face"] if ev["face"] is not None else "a chip")
    if kind == "lifted":
        return "%s: lifted" % ev["square"]
    if kind == "preview":
        if ev["legal"]:
            return "  would score %d" % ev["score"]
        return "  not legal: %s" % _reasons(ev["codes"])
    if kind in ("move", "replace"):
        return "%s %s %s: %d points, totals %s%s" % (
            who, "plays" if kind == "move" else "replaces", ev["move"], ev["score"],
            " / ".join(str(t) for t in ev["totals"]), _free(ev),
        )  # fmt: skip
    if kind == "pass":
        return "%s passes" % who
    if kind == "timeout":
        return "%s ran out of time" % who
    if kind == "bonus_turn":
        return "bonus turn for %s" % who
    if kind == "swap":
        return "%s swaps %s" % (who, n_chips(ev["count"]))
    if kind == "illegal":
        return "%s: not legal (%s)" % (who, _reasons(ev["codes"]))
    if kind == "game_over":
        totals = " / ".join(str(t) for t in ev["totals"])
        return "Game over: %s (penalties %s)" % (totals, " / ".join(map(str, ev["penalties"])))
    if kind == "button":
        return "%s pressed" % str(ev.get("name", "?")).upper()
    if kind == "new_game":
        return "New game, %d players" % ev.get("players", 0)
    if kind == "boot":
        return "The board started (%s)%s" % (ev.get("game"), _free(ev))
    if kind == "resume":
        return "The saved game is back (%d turns played)" % ev.get("turns", 0)
    if kind == "missing":
        return "Put the chip back on %s" % ev.get("square")
    if kind == "restored":
        return "%s is back" % ev.get("square")
    if kind == "wrong_chip":
        return "%s holds %s, not %s" % (ev.get("square"), ev.get("face"), ev.get("want"))
    if kind == "unknown_chip":
        return "Unknown chip on %s (not enrolled)" % ev.get("square")
    if kind == "tally":
        return "%s still held %s" % (who, ev.get("face"))
    if kind == "shown":  # a chip of a rack shown to the board: not a move
        return "%s shown: %s" % (ev.get("square"), ev.get("face") or "a chip")
    if kind == "computer":
        board = "%s (board, level %s)" % (who, ev.get("level"))
        if ev.get("move"):
            said = "%s plays %s for %d" % (board, ev["move"], ev.get("score", 0))
        elif ev.get("swap"):
            said = "%s swaps %s: %s" % (board, n_chips(len(ev["swap"])), _faces(ev["swap"]))
        else:
            said = "%s passes" % board
        return said + _how_it_thought(ev)
    if kind == "hint":
        found = "no move found"
        if ev.get("move"):
            found = "%s for %d" % (ev["move"], ev.get("score", 0))
        said = "%s asks a hint: %s (hint %s)" % (who, found, ev.get("hints"))
        return said + _how_it_thought(ev)
    if kind == "stray":
        return "%s: not the board's move (%s), take it off" % (
            ev.get("square"), ev.get("face") or "a chip")  # fmt: skip
    if kind in QUIET:
        return None
    if "text" in ev:  # problems and notes carry their own words
        return "%s: %s" % (kind.replace("_", " "), ev["text"])
    keys = ", ".join("%s %s" % (k, json.dumps(v, ensure_ascii=False)) for k, v in ev.items()
                     if k not in ("t", "ev"))  # fmt: skip
    return "%s%s" % (kind.replace("_", " "), ": " + keys if keys else "")


class Watcher:
    """The PC's copy of the game, kept in step with the board and checking its scores."""

    def __init__(self, link, out=print):
        self.link = link
        self.out = out
        self.profile = None
        self.game = None
        self.checked = 0
        self.mismatches = 0
        self.names = ()  # the players' names, from the board's settings

    def sync(self):
        """Read the board's game afresh (its snapshot), and draw it."""
        from engine import snapshot

        game_name = self.link.request("hello")["game"]
        self.names = self._names()
        if self.profile is None or self.profile.game != game_name:
            self.profile = self.link.profile(game_name)
        state = self.link.request("state")
        if state["snapshot"] is None:
            self.game = None
            self.out("(no game yet: the board is in mode %s)" % state["mode"])
            return
        self.game = snapshot.decode(self.profile, bytes.fromhex(state["snapshot"]))
        g = self.game
        for line in board_lines(g):
            self.out(line)
        marks = ["%s%d" % (">" if p == g.to_move and not g.over else " ", t)
                 for p, t in enumerate(g.totals())]  # fmt: skip
        self.out("scores: %s   bag %d" % ("  ".join(marks), g.bag_count()))

    def _names(self):
        """The players' names as the board uses them (its settings.json, checked as at boot)."""
        from firmware import settings as S
        from host_tools.link import LinkError

        try:
            text = self.link.read_file("settings.json")
        except LinkError:
            text = None  # no settings file: the defaults, no names
        return tuple(S.load(text)[0].get("names") or ())

    def check(self, ev):
        """Score a committed move on the PC and compare it with the board's."""
        game = self.game
        if game is None:
            return
        try:
            move = game.move(ev["move"])
            if ev["ev"] == "replace":
                verdict, _ = game.check_replace(move)
            else:
                verdict = game.check(move)
        except Exception as err:  # noqa: BLE001  (any engine error is a disagreement to report)
            self.mismatches += 1
            self.out("  !! the PC cannot read this move: %s" % err)
            return
        self.checked += 1
        if verdict.legal and verdict.score == ev["score"]:
            self.out("  checked: the PC scores it %d too" % verdict.score)
        else:
            self.mismatches += 1
            self.out("  !! MISMATCH: the board gave %d, the PC scores %s" % (
                ev["score"], verdict.score if verdict.legal else "it illegal"))  # fmt: skip

    def handle(self, ev):
        text = describe(ev, self.names)
        if text is not None:
            self.out(text)
        if ev["ev"] in ("move", "replace"):
            self.check(ev)
        if ev["ev"] in TURN_EVENTS or ev["ev"] in ("resume", "new_game", "boot"):
            self.sync()


def run(args):
    from host_tools.link import Link, LinkError

    try:
        with Link(args.port) as link:
            if args.json:
                for ev in link.events(args.seconds):
                    print(json.dumps(ev, ensure_ascii=False), flush=True)
                return 0
            watcher = Watcher(link, lambda text: print(text, flush=True))
            watcher.sync()
            try:
                for ev in link.events(args.seconds):
                    watcher.handle(ev)
            except KeyboardInterrupt:  # the usual way to stop: still say what was checked
                print()
            print("%d moves checked, %d disagreements" % (watcher.checked, watcher.mismatches))
            return 1 if watcher.mismatches else 0
    except LinkError as err:
        print("watch: %s" % err, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
