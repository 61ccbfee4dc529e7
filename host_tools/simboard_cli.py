"""The board in a terminal: the real firmware on the simulated parts (firmware/sim).

`python -m host_tools sim --text` plays the rulebook's five-move example on the simulated board,
chip by chip and press by press, and after each move draws what the board shows: the OLED's
eight lines (read back from the SSD1306 twin's pixels) and the 15 x 15 NeoPixels (read back
from the WS2812B twin's bit stream). `--text --script -` reads commands from standard input
instead, one per line:

    place H8 9      lay a chip (face as in game records: 9 + - × ÷ ?) on an empty square
    lift H8         pick a chip up
    press ok        press a button: left, right, ok, back
    wait 500        let 500 ms pass
    show            draw the display and the LEDs
    events          print the event lines since the last `events`

A line that cannot be done prints `{"error": "...", "line": N}` and the script goes on; the
command then exits with status 1.

Plain `python -m host_tools sim` shows the same board in a web page (host_tools/websim.py).
"""

import json
import sys

from engine import profile as P
from engine import squares
from engine.errors import EngineError
from engine.rulebook import RULEBOOK
from firmware.sim.simboard import SimBoard
from host_tools import replay

PROFILE = replay.REPO / "hardware" / "profiles" / "calculissimo.json"


def _shade(rgb):
    """One character for an LED: what colour dominates, upper case when bright."""
    r, g, b = rgb
    if max(rgb) == 0:
        return "."
    if r and g and b and max(rgb) - min(rgb) < 20:
        ch = "w"
    elif g > r and g > b:
        ch = "g"
    elif r > g and r > b:
        ch = "r" if g < r // 2 else "a"
    elif b > r and b > g:
        ch = "b"
    else:
        ch = "m" if r and b else "y"
    return ch.upper() if max(rgb) >= 40 else ch


def draw(board):
    """The display and the LEDs, as text lines."""
    w, h = board.profile.width, board.profile.height
    out = ["+" + "-" * 21 + "+"]
    for line in board.screen():
        out.append("|" + line + " " * (21 - len(line)) + "|")
    out.append("+" + "-" * 21 + "+")
    out.append("   " + "".join(chr(65 + c) for c in range(w)))
    cells = board.app.referee.game.board.cells if board.app.referee.game else None
    for r in range(h):
        row = []
        for c in range(w):
            sq = r * w + c
            led = _shade(board.led(sq))
            if cells is not None and cells[sq] and led == ".":
                led = "#"  # a committed chip, unlit
            row.append(led)
        out.append("%2d %s" % (r + 1, "".join(row)))
    out.append("LEDs: G green, R red, A amber, W white, Y yellow, M magenta, B blue;")
    leds = board.app.leds
    out.append("      lower case = dim glow; # = a chip, unlit")
    out.append(
        "LED current about %d mA, capped at %d mA" % (leds.milliamps, leds.budget_ua // 1000)
    )
    return out


def _events(board, seen):
    lines = board.lines[seen[0] :]
    seen[0] = len(board.lines)
    return [line.rstrip("\n") for line in lines]


USAGE = {
    "place": "place SQUARE FACE",
    "lift": "lift SQUARE",
    "press": "press left|right|ok|back",
    "wait": "wait MS",
    "show": "show",
    "events": "events",
}


class ScriptError(ValueError):
    """A script line that cannot be done; its text says why."""


def _square(board, name):
    try:
        return squares.parse(name, board.profile.width, board.profile.height)
    except (ValueError, EngineError):
        raise ScriptError("no square %s on this board" % name) from None


def _place(board, args):
    square = _square(board, args[0])
    face = args[1]
    if board.tags and face not in board.tags:
        raise ScriptError("unknown chip face %s (the set has %s)" % (face, " ".join(board.tags)))
    if board.chain.present(square):
        raise ScriptError("%s already has a chip: lift it first" % args[0])
    try:
        board.place(square, face)
    except ValueError as err:  # every chip of that face is on the board already
        raise ScriptError(str(err)) from None


def _step(board, cmd, args, seen, out):
    if cmd not in USAGE:
        raise ScriptError("unknown command %s (commands: %s)" % (cmd, ", ".join(USAGE)))
    if len(args) != len(USAGE[cmd].split()) - 1:
        raise ScriptError("usage: " + USAGE[cmd])
    if cmd == "place":
        _place(board, args)
    elif cmd == "lift":
        square = _square(board, args[0])
        if not board.chain.present(square):
            raise ScriptError("%s has no chip to lift" % args[0])
        board.lift(square)
    elif cmd == "press":
        if args[0] not in board.pins:
            raise ScriptError("usage: " + USAGE[cmd])
        board.press(args[0])
    elif cmd == "wait":
        if not args[0].isdigit():
            raise ScriptError("usage: " + USAGE[cmd])
        board.run(int(args[0]))
    elif cmd == "show":
        out("\n".join(draw(board)))
    else:
        for line in _events(board, seen):
            out(line)


def run_script(board, lines, out):
    """Run the script's lines; each one that cannot be done prints {"error", "line"} and the
    script goes on. Returns how many could not be done."""
    seen = [0]
    errors = 0
    for number, text in enumerate(lines, 1):
        words = text.split()
        if not words or words[0].startswith("#"):
            continue
        try:
            _step(board, words[0], words[1:], seen, out)
        except (ScriptError, EngineError) as err:
            errors += 1
            out(json.dumps({"error": str(err), "line": number}, ensure_ascii=False))
    return errors


def demo():
    lines = []
    for move in RULEBOOK:
        for part in move.split():
            name, face = part.split(":")
            lines.append("place %s %s" % (name, face))
        lines += ["show", "press ok", "events"]
    lines.append("show")
    return lines


def record_script(data, profile):
    """Commands that play a game record at the board as players would: chips laid and OK,
    the menu for a pass, a swap or a rule-5 replacement (lifting the old left side), and the
    leftover chips laid along the bottom row for the end tally."""
    from engine.game import Game
    from engine.record import read

    rec = read(data, profile.width, profile.height)
    game = Game(profile, rec.players, rec.options, first=rec.first)
    menu = ["pass", "swap", "rule5", "back"] if game.rules.replacement_bonus else []
    lines = []
    for turn in rec.turns:
        if turn.kind in ("pass", "timeout"):
            lines += ["press back", "press ok", "events"]
            game.pass_turn()
            continue
        if turn.kind == "swap":
            lines += ["press back", "press right", "press ok"]
            lines += ["press right"] * (turn.count - 1) + ["press ok", "events"]
            game.swap(turn.count)
            continue
        if turn.kind == "replace":
            lines += ["press back"] + ["press right"] * menu.index("rule5") + ["press ok"]
            _, removed = game.check_replace(turn.move)
            for sq, _ in removed.placements:
                lines.append("lift " + squares.name(sq, profile.width))
            game.replace(turn.move)
        else:
            game.play(turn.move)
        for name, face in turn.move.pairs():
            lines.append("place %s %s" % (name, face))
        lines += ["show", "press ok", "events"]
    if rec.end_racks is not None and game.over:
        free = [sq for sq in range(len(game.board.cells)) if not game.board.cells[sq]]
        free.reverse()  # from the bottom right: away from the play
        for rack in rec.end_racks:
            for face in rack:
                lines.append("place %s %s" % (squares.name(free.pop(0), profile.width), face))
        lines += ["press ok", "events"]
    lines.append("show")
    return lines


# On USB with a MicroPython built to declare 500 mA, so the LEDs light (hardware/README.md).
USB_500 = {"current_ma": 500}


def main(script=None, out=print, game="calculissimo"):
    if game == "calculissimo":
        board = SimBoard(P.load(str(PROFILE)), {"players": 4, "turn_seconds": 0, **USB_500})
        lines = demo()
        title = "The rulebook game on the simulated board (firmware on the twins)."
    else:
        import engine.calqable  # noqa: F401  (registers the ruleset)

        profile = P.load(str(PROFILE.parent / (game + ".json")))
        with open(replay.REPO / "tests" / "data" / (game + ".json"), encoding="utf-8") as f:
            data = json.load(f)
        opts = {"players": data["players"], "turn_seconds": 0, "game": game, **USB_500}
        board = SimBoard(profile, opts)
        lines = record_script(data, profile)
        title = "A %s game on the simulated board (tests/data/%s.json)." % (game, game)
    board.boot()
    board.run(50)
    if script is None:
        out(title)
        return 1 if run_script(board, lines, out) else 0
    # a script with lines that could not be done fails, as a shell script would
    return 1 if run_script(board, script, out) else 0


if __name__ == "__main__":
    sys.exit(main())
