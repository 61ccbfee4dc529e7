"""The board's Cal-Q-Able think keeps within the rp2 port's stack (issue 12; CPython and
MicroPython, and the emulated Pico through tests/test_pico.py).

On the rp2 port every Python call nests on the C stack, which holds some 35 of them, and
on the board the think runs about eleven calls deep (main.py, main(), asyncio, the main
loop, App.tick, step, the referee's and the mode's think). Until 2026-11-29 the Cal-Q-Able
walks nested one call a rack tile laid, and on this position the think raised
"maximum recursion depth exceeded" on the emulated Pico with the board's depth above it
(tests/test_board_seat.py counts the frames on CPython). Here the think runs under more
frames than the board puts above it, so that on the Pico it has the board's stack or
less.
"""

import engine.calqable  # noqa: F401  (registers the ruleset)
from engine.game import Game
from engine.profile import Profile
from firmware import computer
from firmware.buttons import Buttons
from firmware.sim.bus import SimPin
from firmware.sim.clock import SimClock
from tests.engine.checks import eq
from tests.engine.fixtures import profile_data
from tools.positions import lay_out

# Calls the test nests the think under. On the Pico four frames are above this test (the
# script, mpyunit's run_module and run_test, the test itself); with these and the lambda
# the think is the 14th frame, three deeper than on the board (the 11th). Measured on the
# emulated Pico (2026-11-29): the think passes here with ABOVE up to 13 (the 20th frame);
# the walks by recursion of the day before failed with ABOVE = 7.
ABOVE = 7

# A mid-game position of the benchmark set (tools/hintbench.py's 49th Cal-Q-Able one; its
# best move scores 1,454): the walks nest deepest there.
SEED = 59
RACK = ["4", "*", "9", "6", "+", "9", "0", "9", "4"]
BOARD = {
    "D1": "9", "D2": "+", "D3": "6", "G3": "2", "H3": "8", "I3": "-", "J3": "2", "K3": "6",
    "L3": "=", "M3": "2", "B4": "3", "D4": "=", "H4": "-", "B5": "8", "C5": "=", "D5": "1",
    "E5": "+", "F5": "3", "G5": "+", "H5": "4", "J5": "5", "B6": "=", "D6": "5", "H6": "-",
    "J6": "+", "N6": "4", "B7": "1", "H7": "1", "J7": "5", "N7": "=", "A8": "1", "B8": "×",
    "C8": "1", "D8": "×", "E8": "1", "F8": "×", "G8": "6", "H8": "=", "I8": "6", "J8": "-",
    "K8": "0", "L8": "/", "M8": "1", "N8": "4", "B9": "3", "E9": "4", "H9": "3", "J9": "8",
    "B10": "8", "E10": "/", "H10": "×", "J10": "=", "C11": "7", "D11": "=", "E11": "7",
    "H11": "1", "J11": "2", "K11": "=", "L11": "2", "M11": "÷", "N11": "1", "E12": "=",
    "A13": "4", "B13": "÷", "C13": "2", "D13": "-", "E13": "2", "F13": "=", "G13": "0",
    "H13": "÷", "I13": "3", "J13": "5", "K13": "1", "L13": "÷", "M13": "3", "N13": "3",
    "O13": "5",
}  # fmt: skip


def _nested(k, run):
    """run() under k more nested calls."""
    if k == 0:
        return run()
    return _nested(k - 1, run)


def test_the_calqable_think_keeps_within_the_stack_the_board_leaves_it():
    game = lay_out(Game(Profile(profile_data("calqable")), 2, seed=SEED), BOARD)
    game.racks[game.to_move] = list(RACK)
    # level 1: its chooser nests deepest; 40 checks of the clock, some 2,500 steps (the
    # clock moves a millisecond on at each read, and the think reads it once a check, every
    # movegen.STEP_CHECK steps). At each check, as on the board, the watchdog is fed and the
    # buttons are read (firmware/app.py; `int` stands for the watchdog's feed, a C function
    # as it is; a simulated pin's read is a Python call where a machine.Pin's is a C one:
    # one frame deeper than the board). The buttons keep a clock of their own, so that the
    # think's still gets one read a check.
    clock = SimClock()
    clock.busy(1)
    buttons = Buttons({"ok": SimPin("ok")}, SimClock())

    def think():
        return computer.think(game, list(RACK), 1, clock, 40, None, int, buttons)

    got = _nested(ABOVE, think)
    move, score, _ = got
    eq(move is not None, True, "a move")
    eq(game.check(move).score, score)
