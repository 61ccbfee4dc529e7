"""The board as a player (issue 13): its seats' turns and the players' hints, and what of
them outlives a power cut.

Settings: `computer` gives each seat's level (0 a person; 1 to 4 engine/players.py's
levels), `hints` whether a person may ask for one, `think_seconds` how long the board
thinks at most. The board sees only the grid, so a rack is shown to it by laying its chips
on empty squares (hardware/README.md, "Showing the board a rack"): firmware/modes_computer.py
has the modes that ask for it, think, and guide the computer's chips onto the board.

`think()` runs engine/search.py's anytime search with the level's chooser until the time
or the level's step budget is out, whichever comes first. The steps make a turn the same on
every runtime and in the tests, whose clock stands still while a step runs; on the emulated
Pico they ended levels 3 and 4 in about 2 s (tools/thinkbench.py; real hardware may be
1.3-1.5 times slower: the emulator has no flash cache), Cal-Q-Able's slower generator only
by the time.

`Seat` holds what the game's own snapshot does not: the rack shown for the computer's turn
and the move it chose, and each player's hints. It is journaled after every change
(firmware/journal.py: `seat.dat`, a JSON payload, written atomically), with the CRC-32 of
the game's snapshot it belongs to. A power cut during the computer's turn so resumes that
turn: with the move it had chosen, or with its rack to think again; a record of another
state of the game gives back only the hints.
"""

import json
import os
import sys

from engine.compat import ON_BOARD, collect, forget, ticks_diff
from engine.move import Move
from engine.prng import Prng
from firmware.journal import Journal, JournalError, crc32_small

LEVEL_STEPS = (0, 300, 600, 2500, 2500)  # the search's step budget, by level
# A Cal-Q-Able step (one call of its side builder) is about a hundredth of a Calculissimo
# one (a window grown by a chip): its budget is this many times larger.
CALQABLE_STEPS = 100
HINT_LEVEL = 3  # a hint is the best score found
PROGRESS_MS = 250  # the display's progress line moves on at most this often
# What the last think did, for the bench and the tests: [score, whether the search ran short
# of memory (it then gives the best move found so far), whether it was whole, its steps,
# the squares of `=` it gave up for memory and those it passed over (Cal-Q-Able), and whether a
# button ended it early].
last = []  # type: list
# Kept free while the search runs, for what the think does after it: its record, the swap,
# and dropping the search's modules (`_drop`). A search short of memory can leave no free
# block of even 256 B, and on a stock board the emulated Pico's think then raised a
# MemoryError in `_drop` (a fault of the board's step; tests/test_think_memory.py).
RESERVE_BYTES = 1024


def think(game, rack, level, clock, ms, progress=None, keepalive=None, buttons=None):
    """(move, score, chips to swap or None) the board plays for the player to move holding
    `rack` at `level`; move None with no legal move found. `progress(percent, score)` is
    called between two lines of the search (at most every PROGRESS_MS), on the board to
    redraw the display, with the score of the move chosen so far (None before the first);
    `keepalive()` with every check of the clock (the watchdog). `buttons`
    (firmware/buttons.py) are watched meanwhile (firmware/button_watch.py, asked at the same
    checks): once one is pressed the search stops at the first check with a move in hand,
    the move found so far (the search is anytime; a hint of 20 s can be taken at 3).

    The search's modules are imported here, when the board thinks, and on a board dropped
    again once it has (see `_drop`). Running out of memory anywhere in it, their import and
    the search's set-up included, is a search short of memory, never an error."""
    before = _loaded()
    last[:] = [None, True, False, 0, 0, 0, False]  # short of memory until the search has run
    early = [False]  # a button ended the search
    reserve = None
    watch = None
    try:
        try:
            if buttons is not None:
                from firmware.button_watch import Watch

                watch = Watch(buttons)
            # Room for what follows the search (see RESERVE_BYTES), held while it runs.
            reserve = bytearray(RESERVE_BYTES) if ON_BOARD else None
            from engine import players, search

            start = clock.ticks_ms()
            prng = Prng(len(game.history) * 8 + game.to_move + 1)  # the same after a restart
            chooser = players.Chooser(game, level, prng, rack=rack)
            steps = LEVEL_STEPS[level]
            if game.rules.name == "calqable":
                steps *= CALQABLE_STEPS
            drawn = [start]  # when the progress line was last redrawn
            s = None

            # Called from inside the generator every STEP_CHECK steps: kept to the clock and
            # the watchdog (the rp2 port allows about 30 nested Python calls; the display's
            # redraw nests deeper, so it is left to between(), called between two lines).
            def expired():
                if keepalive is not None:
                    keepalive()
                # (asked even before a move is found: a press then is kept for later)
                if watch is not None and watch.pressed() and s is not None and s.found:
                    early[0] = True
                    return True
                return ticks_diff(clock.ticks_ms(), start) >= ms

            def between():
                now = clock.ticks_ms()
                if ticks_diff(now, drawn[0]) >= PROGRESS_MS:
                    drawn[0] = now
                    done = ticks_diff(now, start) * 100 // ms
                    taken = s.gen.steps if s is not None and s.gen is not None else 0
                    progress(min(99, max(done, taken * 100 // steps)), chooser.choice()[1])

            s = search.Search(
                game,
                rack=rack,
                chooser=chooser,
                steps=steps,
                expired=expired,
                between=None if progress is None else between,
            )
        except MemoryError:  # no room for the search's code or its set-up
            reserve = None
            return None, None, None
        move, score = s.run()  # a MemoryError in the search ends it (search.py)
        reserve = None
        given_up = getattr(s.gen, "given_up", 0)  # Cal-Q-Able's generator only
        last[:] = [score, s.short_of_memory, s.complete, s.spent, given_up, s.skipped, early[0]]
        s = None  # its generation's lists may fill the heap: garbage from here on
        swap = None
        if game.can_swap():
            swap = players.swap_plan(chooser) if level == 4 else None
            if move is None and swap is None:
                swap = list(rack)  # nothing to lay: the whole rack goes back
        return move, score, swap
    finally:
        reserve = None  # noqa: F841  (freed for _drop, whatever ended the think)
        if watch is not None:
            watch.close()
        watch = None
        _drop(before)


# Loaded from .mpy files, as on a stock board (README, "2. Flash"), the search's code takes 55 KB
# of the Pico's heap in a Cal-Q-Able game and 30 KB in a Calculissimo one (43 KB in Cal-Q-Able at
# the first think, 32 KB at the next, since host_tools flash compiles with -O3). Kept after the
# board's first think, it left the rest of a Cal-Q-Able game too little: on the emulated Pico
# (tools/picoplay.py) saving a move then failed (MemoryError) after a few turns of hints. So on a
# stock board the think imports it on a collected heap and forgets it after, and the game keeps the
# room between thinks; importing it again took 235-266 ms of the emulated chip (its names stay
# interned: about 18 KB, from the first think on). With the code in flash (frozen, or ROMFS at
# /rom) it is kept: importing it again would make 5.9 KB (frozen) or 8.7 KB (ROMFS) of the heap at
# each think and take 20 or 100 ms of its time, for no room a game needs (tools/picoplay.py,
# 2026-11-29: 84-136 KB stayed free at the heap's lowest over a whole game).


def _code_in_ram():
    """Whether this board loaded the device code into its heap: from .mpy (or .py) files on
    its filesystem, as a stock board does. Not when it runs from flash: a frozen module's
    __file__ names no file, a ROMFS module's lies under /rom."""
    path = __file__
    if path.startswith("/rom/"):
        return False
    try:
        os.stat(path)
    except OSError:
        return False
    return True


def _loaded():
    """The names of the modules loaded now, on a board whose code is in RAM (after a
    collection, so that the search's code fills the holes rather than splinter what is
    free); None elsewhere (nothing will be dropped)."""
    if not ON_BOARD or not _code_in_ram():
        return None
    collect()
    return set(sys.modules)


def _drop(before):
    """Forget every module loaded since `before` (`_loaded()`), so that the collector can
    free its code."""
    if before is not None:
        forget([name for name in sys.modules if name not in before])


class Seat:
    """The computer's current turn and the hints, for one game (see the module docstring)."""

    def __init__(self, fs, n_players):
        self.journal = Journal(fs, "seat") if fs is not None else None
        self.hints = [0] * n_players
        self.clear_turn()

    def clear_turn(self):
        self.rack = None  # the faces shown for the computer's turn
        self.move = None  # the Move it chose, None until it has
        self.score = 0
        self.swap = None  # or the chips it swaps, when it does not move
        self.at = None  # the CRC-32 of the game's snapshot the turn belongs to

    def to_json(self):
        return json.dumps(
            {
                "at": self.at,
                "rack": self.rack,
                "move": None if self.move is None else str(self.move),
                "score": self.score,
                "swap": self.swap,
                "hints": self.hints,
            }
        )

    def save(self):
        """Journal the record; JournalError if the flash refused (the old one stays)."""
        if self.journal is not None:
            self.journal.save(self.to_json().encode())

    def restore(self, snapshot, profile):
        """Take back a journaled record for the game whose snapshot is `snapshot`: the turn
        if it belongs to this very state of the game, the hints if they fit. Returns True
        if the turn came back. A damaged or foreign record is ignored."""
        self.clear_turn()
        if self.journal is None:
            return False
        payload, _ = self.journal.load()
        if payload is None:
            return False
        try:
            data = json.loads(bytes(payload).decode())
            hints = data["hints"]
            if not isinstance(hints, list) or len(hints) != len(self.hints):
                return False
            for n in hints:
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    return False
            self.hints = list(hints)
            if data["at"] != crc32_small(snapshot) or not isinstance(data["rack"], list):
                return False
            self.rack = [str(ch) for ch in data["rack"]]
            self.at = data["at"]
            if data["move"] is not None:
                self.move = Move.parse(data["move"], profile.width, profile.height)
                self.score = int(data["score"])
            elif data["swap"] is not None:
                self.swap = [str(ch) for ch in data["swap"]]
            return True
        except (ValueError, KeyError, TypeError, AttributeError):
            self.clear_turn()
            return False

    def forget(self):
        """A new game: no turn, no hints, and the journal says so."""
        self.hints = [0] * len(self.hints)
        self.clear_turn()


def save_quietly(seat, events):
    """Journal the seat record; a refusal is reported and play goes on (True if saved)."""
    try:
        seat.save()
    except JournalError as err:
        events.emit("save_failed", "error", str(err))
        return False
    return True
