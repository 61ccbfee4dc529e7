"""Shared helpers for whole-board tests: a booted SimBoard, and laying moves chip by chip."""

from engine import squares
from firmware.sim import simboard
from firmware.sim.simboard import SimBoard
from tests.engine.fixtures import RULEBOOK, default_profile

W = 15


def sq(name):
    return squares.parse(name, W, W)


def warm():
    """Make now what the boards of every test share and keep (the default profile, its
    chips' tags and registry): made during a test, it would lie among that test's data and
    splinter the heap for the next (tests/test_pico.py calls this before the first test)."""
    simboard.warm(default_profile())


def new_board(settings=None, nfc=True, fs=None, boot=True):
    """A booted board (4 players, no turn clock unless `settings` say otherwise), on a supply
    that lights its LEDs: USB with a MicroPython built to declare 500 mA (the stock 250 mA
    keeps them off: tests/fw/test_power.py)."""
    opts = {"players": 4, "turn_seconds": 0, "current_ma": 500}
    if settings:
        opts.update(settings)
    board = SimBoard(default_profile(), opts, fs=fs, nfc=nfc)
    if boot:
        board.boot()
        board.run(50)
    return board


def after_power_cut(fs, lying, settings=None, nfc=True):
    """A fresh board on the same flash, with these (square name, face) chips still lying on
    it, booted and settled."""
    opts = {"players": 2}
    if settings:
        opts.update(settings)
    board = new_board(opts, fs=fs, boot=False, nfc=nfc)
    for name, face in lying:
        board.put(sq(name), face)
    board.boot()
    board.run(500)
    return board


def lay(board, move):
    """Lay every chip of a move's text ("D8:9 E8:+"), each settling before the next."""
    for part in move.split():
        name, face = part.split(":")
        board.place(sq(name), face)


def events(board, kind):
    import json

    out = []
    for line in board.lines:
        ev = json.loads(line)
        if ev["ev"] == kind:
            out.append(ev)
    return out


def message(board):
    """The display's message lines (5-7), joined."""
    return " ".join(line for line in board.screen()[5:] if line)


def pass_turn(board):
    board.press("ok")  # nothing laid: the menu, on "Pass"
    board.press("ok")


def chips_of(move):
    """[[square name, face], ...] of a move's text."""
    return [part.split(":") for part in move.split()]


def to_the_tally(board):
    """Move 1 of the rulebook, then a round of passes: the game ends, the tally begins."""
    lay(board, RULEBOOK[0])
    board.press("ok")
    pass_turn(board)
    pass_turn(board)


def finish_tally(board):
    """Enter every leftover chip with OK (each as the face offered), then the final OK."""
    ref = board.app.referee
    while not ref.tally.done():
        board.press("ok")
    board.press("ok")


def send(board, text):
    """Send one line as the PC does and return the board's reply (a dict)."""
    import json

    before = len(board.lines)
    board.usb_in.extend(text.encode() + b"\n")
    board.run(20)
    for line in board.lines[before:]:
        ev = json.loads(line)
        if ev["ev"] == "reply":
            return ev
    raise AssertionError("no reply to %s" % text)


def cmd(board, name, ident=1, **keys):
    """Send one command as the PC does ({"cmd": name, "id": ident, ...}); the reply."""
    import json

    msg = {"cmd": name, "id": ident}
    msg.update(keys)
    return send(board, json.dumps(msg))
