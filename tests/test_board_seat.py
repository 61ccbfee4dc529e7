"""The board's seat (issue 13), on the simulated board, where only CPython can show it
(tests/fw/test_computer.py plays whole Calculissimo games on both runtimes):
- how deep the board's think nests Python calls: the rp2 port allows about 30 (measured on
  the emulated Pico: a plain recursive function reaches 30 to 37 levels), and on the board
  about six frames sit above App.tick (main.py, main(), asyncio's run and its loop, the
  main-loop coroutine);
- a Cal-Q-Able seat: its generator takes about 2 s of CPython for a nine-tile rack, minutes
  on the WASI MicroPython; how deep its think nests on mid-game positions (its walks go
  depth first on lists of their own: walked by recursion, a side of nine tiles nested nine
  calls deeper, and the board's think ran out of the rp2 port's stack on the emulated Pico;
  tests/fw/test_think_stack.py runs it there).
"""

import sys

from engine.game import Game
from engine.profile import Profile
from firmware import computer
from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK, profile_data
from tests.fw.board import chips_of, events, lay, message, new_board, sq
from tests.fw.test_calqable_board import board
from tests.fw.test_computer import _show_rack
from tools.positions import lay_out

ABOVE_TICK = 7  # frames above App.tick on the board, with one to spare
RP2_DEPTH = 30  # nested Python calls the rp2 port allows (the plain recursion's count)


def _deepest_below_tick(run, top="tick"):
    """The most Python frames nested below App.tick (or another function named `top`)
    while `run()` runs, and that chain."""
    deepest = [0, ()]

    def prof(frame, event, arg):
        if event != "call":
            return
        chain = []
        f = frame
        while f is not None and f.f_code.co_name != top:
            chain.append(f.f_code.co_name)
            f = f.f_back
        if f is not None and len(chain) > deepest[0]:
            deepest[0] = len(chain)
            deepest[1] = tuple(reversed(chain))

    sys.setprofile(prof)
    try:
        run()
    finally:
        sys.setprofile(None)
    return deepest


def test_the_boards_think_stays_within_the_rp2_stack():
    # imported apart, with what the think imports when first needed (the game's generator,
    # and the leave table for level 4): CPython's import machinery nests deeper than
    # anything the board does
    from engine import leave, movegen_calculissimo, players, search  # noqa: F401

    for level in (1, 4):
        b = new_board({"players": 2, "computer": [0, level]})
        lay(b, RULEBOOK[0])
        b.press("ok")
        _show_rack(b, ["9", "+", "6", "2", "-", "?", "3"])
        depth, chain = _deepest_below_tick(lambda b=b: b.press("ok"))
        eq(b.app.referee.mode, "guide")
        eq("extend" in chain, True, chain)  # the generator's deepest point was measured
        # its windows grow on a stack of their own: as deep for seven chips as for two
        eq(chain.count("extend"), 1, chain)
        eq(depth + ABOVE_TICK <= RP2_DEPTH, True, "%d: %s" % (depth, " > ".join(chain)))


def test_the_board_opens_a_calqable_game_and_its_move_is_scored():
    b = board({"computer": [3, 0]})
    ref = b.app.referee
    eq(ref.mode, "show_rack")  # the board's seat opens: its rack first
    rack = ["1", "+", "2", "3", "4", "5", "6", "7", "8"]
    for i, face in enumerate(rack):
        b.place(i, face)  # on row 1, A1-I1: far from the start square
    eq(message(b), "Lay P1's chips on free squares, OK (9)")
    b.press("ok")
    said = events(b, "computer")[-1]
    eq(ref.mode, "guide")
    shown = dict(enumerate(rack))
    for name, face in chips_of(said["move"]):
        if face != "=":
            src = min(k for k in shown if shown[k] == face)
            del shown[src]
            b.lift(src)
        b.place(sq(name), face)
    for k in sorted(shown):
        b.lift(k)
    b.press("ok")
    eq(ref.mode, "play")
    moved = events(b, "move")[-1]
    eq(moved["move"], said["move"])
    eq(moved["score"], said["score"])
    eq(ref.game.totals()[0], said["score"])


def test_the_boards_calqable_think_stays_within_the_rp2_stack():
    from engine import movegen_calqable, players, search  # noqa: F401  (as above)

    # The board's own chain: a Cal-Q-Able seat at level 1 (its chooser nests deepest),
    # thinking for a nine-tile rack after the first move.
    b = board({"computer": [0, 1]})
    lay(b, "H4:9 H5:- H6:1 H7:= H8:8")
    b.press("ok")
    _show_rack(b, ["8", "8", "2", "2", "7", "4", "0", "3", "-"])
    depth, chain = _deepest_below_tick(lambda: b.press("ok"))
    eq(b.app.referee.mode, "guide")
    eq("walk" in chain, True, chain)
    eq(depth + ABOVE_TICK <= RP2_DEPTH, True, "%d: %s" % (depth, " > ".join(chain)))
    to_search = chain.index("run") + 1  # frames from App.tick down to Search.run
    # Mid-game positions of the benchmark set, thought about as the board's seat would,
    # below Search.run; the deepest chain of the first comes after some 16,600 steps, in
    # a square passed over and searched again by lots.
    from tools.hintbench import positions

    entries = positions(None, "calqable")
    for k in (48, 0, 3):
        e = entries[k]
        game = lay_out(Game(Profile(profile_data("calqable")), 2, seed=e["seed"]), e["board"])
        rack = list(e["rack"])
        game.racks[game.to_move] = rack

        def think(game=game, rack=rack):
            move, _, _ = computer.think(game, list(rack), 1, _Still(), 5000)
            eq(move is not None, True, "a move")

        depth, chain = _deepest_below_tick(think, "run")
        # the walk nests no deeper for a longer side: one walk frame
        eq(chain.count("walk"), 1, chain)
        total = ABOVE_TICK + to_search + depth
        eq(total <= RP2_DEPTH, True, "position %d, %d: %s" % (k, total, " > ".join(chain)))


class _Still:
    """A clock that stands still: the think ends by its level's steps, the same on every
    runtime."""

    def ticks_ms(self):
        return 0
