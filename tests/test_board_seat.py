"""The board's seat (issue 13), on the simulated board, where only CPython can show it
(tests/fw/test_computer.py plays whole Calculissimo games on both runtimes):
- how deep the board's think nests Python calls: the rp2 port allows about 30 (measured on
  the emulated Pico: a plain recursive function reaches 30 to 37 levels), and on the board
  about six frames sit above App.tick (main.py, main(), asyncio's run and its loop, the
  main-loop coroutine);
- a Cal-Q-Able seat: its generator takes about 2 s of CPython for a nine-tile rack, minutes
  on the WASI MicroPython.
"""

import sys

from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK
from tests.fw.board import chips_of, events, lay, message, new_board, sq
from tests.fw.test_calqable_board import board
from tests.fw.test_computer import _show_rack

ABOVE_TICK = 7  # frames above App.tick on the board, with one to spare
RP2_DEPTH = 30  # nested Python calls the rp2 port allows (the plain recursion's count)


def _deepest_below_tick(run):
    """The most Python frames nested below App.tick while `run()` runs, and that chain."""
    deepest = [0, ()]

    def prof(frame, event, arg):
        if event != "call":
            return
        chain = []
        f = frame
        while f is not None and f.f_code.co_name != "tick":
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
    from engine import players, search  # noqa: F401  (imported apart: CPython's import
    # machinery nests deeper than anything the board does)

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
