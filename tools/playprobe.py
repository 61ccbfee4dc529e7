"""A game against the board, played on tools/leanboard.py's board from inside MicroPython
(tools/picoplay.py sends it; it runs on CPython too).

`play(path, seed, level, think_s, turns)`: two seats on the profile at `path`, the board
playing the second at `level`, hints on, `think_s` seconds a think. A known-rack game
(engine/game.py, seeded) holds the bag and both racks. On the person's turn the person asks
for a hint (the menu's Hint, the rack shown on free squares, OK), then lays the hinted move
chip by chip, choosing each joker's face with the buttons, and confirms it; with no hint,
they pass. On the board's turn its rack is shown and it lays what the board says. The
board's thinks run on the runtime's own clock (`ticks_ms`), as on a board, not on the
board's still virtual clock, so a think ends where a board's would.

It prints, as it goes:
- PLAY-PHASE <name> after each turn (a collection first), then on MicroPython
  `micropython.mem_info()` (free heap and the largest free block, tools/picogame.py reads
  them);
- PLAY-THINK {json} after each think: firmware/computer.py's `last` (score, short of memory,
  whole, steps, squares given up and passed over), then the free heap after it;
- PLAY {json} at the end: each turn, the faults the board's supervisor caught (the first
  ends the game: a board restarts and resumes, which this board cannot), the totals.
"""

import json
import sys

from engine import faces, squares
from engine import profile as P
from engine.compat import collect, mem_free, ticks_ms
from engine.game import Game
from engine.move import Move
from firmware import computer
from tools.leanboard import LeanBoard

RESULT = "PLAY "
THINK = "PLAY-THINK "
PHASE = "PLAY-PHASE"

try:
    from micropython import mem_info
except ImportError:  # CPython: no heap to show

    def mem_info():
        pass


class _Clock:
    def ticks_ms(self):
        return ticks_ms()


def _watch_thinks():
    """Give the board's thinks the runtime's clock, and report each (computer.last)."""
    real_think = computer.think
    clock = _Clock()

    def think(game, rack, level, _still, ms, progress=None, keepalive=None, buttons=None):
        out = real_think(game, rack, level, clock, ms, progress, keepalive, buttons)
        print(THINK + json.dumps(computer.last + [mem_free()]))
        return out

    computer.think = think
    return real_think


class Table:
    """The chips on the table around a board (this module's, or a SimBoard: tests/fw): the
    racks shown on free squares, and the moves laid from them."""

    def __init__(self, board):
        self.board = board
        self.ref = board.app.referee
        self.w = board.profile.width
        self.h = board.profile.height

    def sq(self, name):
        return squares.parse(name, self.w, self.h)

    def show(self, rack):
        """Lay the rack's chips on the first free squares: square -> face."""
        board = self.board
        cells = self.ref.game.board.cells
        shown = {}
        k = 0
        for ch in rack:
            while cells[k] or k in board.on_board:
                k += 1
            face = "?" if ch == "?" else ch.replace("*", "×").replace(":", "÷")
            board.place(k, face)
            shown[k] = face
        return shown

    def lift_all(self, shown):
        for k in sorted(shown):
            self.board.lift(k)
        shown.clear()

    def lay(self, text, shown, pick):
        """Lay move `text` chip by chip, each from the shown chips (or the open supply: a
        Cal-Q-Able `=`; ValueError for any other face they lack); with `pick`, a joker's
        face is chosen with the buttons."""
        board = self.board
        hand = []
        for part in text.split():
            name, face = part.split(":")
            want = "?" if face[0] == "?" else face
            target = self.sq(name)
            if target in shown:
                hand.append(shown.pop(target))
                board.lift(target)
            if want in hand:
                hand.remove(want)
            else:
                src = [k for k in sorted(shown) if shown[k] == want]
                if src:
                    del shown[src[0]]
                    board.lift(src[0])
                elif faces.parse(want)[0] not in self.ref.game.rules.open_faces:
                    # a chip the rack never held: the board's move is wrong, say so
                    raise ValueError("no %s among the chips shown for %s" % (want, text))
            board.place(target, want)
            if pick and want == "?":
                for _ in range(self.ref.picking[2].index(faces.parse(face)[0])):
                    board.press("right")
                board.press("ok")
        self.lift_all(shown)

    def menu(self, item):
        """OK with nothing laid opens the turn menu; RIGHT to `item`, OK."""
        board = self.board
        board.press("ok")
        for _ in range(8):
            if self.ref.state.prompt()[0] == item:
                break
            board.press("right")
        board.press("ok")


def _said(board, kind):
    for line in reversed(board.lines):
        if '"ev": "%s"' % kind in line:
            return json.loads(line)
    return None


def _turn(table, world, p):
    """One turn; returns what was done ("hint 12", "board 30", "pass", "swap")."""
    board = table.board
    if p == 0:
        table.menu("hint")
        shown = table.show(world.racks[p])
        board.press("ok")
        said = _said(board, "hint")
        board.press("back")
    else:
        shown = table.show(world.racks[p])
        board.press("ok")
        said = _said(board, "computer")
    text = said.get("move")
    if text is None:
        table.lift_all(shown)
        if said.get("swap"):
            world.swap(said["swap"])
            return "swap"
        if p == 0:
            table.menu("pass")
        world.pass_turn()
        return "pass"
    table.lay(text, shown, p == 0)
    board.press("ok")
    world.push(Move.parse(text, table.w, table.h))
    return "%s %d" % ("hint" if p == 0 else "board", said["score"])


def _print_traceback(err):
    """Where the fault was raised, on stdout (MicroPython keeps an exception's traceback)."""
    try:
        from sys import print_exception  # type: ignore[attr-defined]  # MicroPython
    except ImportError:
        import traceback

        traceback.print_exception(type(err), err, err.__traceback__, file=sys.stdout)
        return
    print_exception(err)


def play(path, seed, level, think_s, turns):
    real_think = _watch_thinks()
    try:
        _play(path, seed, level, think_s, turns)
    finally:
        computer.think = real_think


def _play(path, seed, level, think_s, turns):
    profile = P.load(path)
    settings = {"players": 2, "computer": [0, level], "hints": True}
    settings.update({"think_seconds": think_s, "turn_seconds": 0, "current_ma": 500})
    board = LeanBoard(profile, settings)
    board.boot()
    board.run(50)
    world = Game(profile, 2, seed=seed)
    table = Table(board)
    ref = table.ref
    done = []
    fault = None

    def settle(what):
        del board.lines[:]  # a board sends them to USB
        done.append(what)
        collect()
        print(PHASE, len(done), what)
        mem_info()

    settle("boot")
    try:
        for _ in range(turns):
            if world.over:
                break
            settle(_turn(table, world, world.to_move))
            if ref.game.totals() != world.totals():
                fault = "the board's totals %r, the game's %r" % (
                    ref.game.totals(),
                    world.totals(),
                )
                break
        if fault is None and ref.mode == "tally":
            while not ref.tally.done():
                board.press("ok")
            board.press("ok")
            settle("tally")
    except Exception as err:  # noqa: BLE001  (any fault the supervisor caught, raised again)
        fault = "%s: %s" % (type(err).__name__, err)
        _print_traceback(err)
    out = {"turns": done, "fault": fault, "over": world.over, "mode": ref.mode}
    out["totals"] = world.totals()
    print(RESULT + json.dumps(out))
