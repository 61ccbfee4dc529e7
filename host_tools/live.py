"""The simulated board running in real time, for the web page and the serial port.

`LiveBoard` holds a `firmware.sim.simboard.SimBoard` booted from a folder that stands for
the board's flash (settings.json, pins/, profiles/, chips.json, game.dat, games/), and a
thread that runs the firmware's main loop: one `App.step()` every `scan_ms` of simulated
time, kept in step with the wall clock. Everything that touches the board goes through
`lock`, so the web server's threads and the loop never see half a step.

The players' hands (`press`, `place`, `lift`: the web page's clicks) do not touch the twins
directly: each input joins a queue that `tick` plays in order, in the board's own time, so a
press or a chip reaches the firmware however far the board's clock lags behind the wall
clock (a busy PC) and however fast the inputs come. A button is held down until the firmware
has polled it past its debounce (firmware/buttons.py) and released for a step before the
next input; a chip laid or lifted is left until the firmware has sensed it (presence
debounce, then `settle_ms` for a chip laid: firmware/sensing.py) before an input of another
kind follows, so the firmware's events come in the order the inputs were given. Chips laid
one after the other, or lifted one after the other, follow each other a step apart: the
firmware settles them in that order. While the REPL twin holds the port the firmware is
stopped, and the inputs wait for it. `state()` shows the chips where the hands have put
them, queued or not.

Games against the board (issue 13: firmware/computer.py). `new_game` writes the seats the
board plays, their levels and the hints setting into settings.json and restarts the board
for a new game, as `config set --restart` and BACK at "Resume game?" would. The board sees
only the grid: a rack is shown to it by laying its chips on free squares. The PC holds the
racks a real table would: `hands`, each seat's chips drawn from a simulated bag (the set's
chips less those on the board and in the hands; a seeded PRNG) when the board asks for that
seat's rack, for its own turn or for a person's hint. `show_rack` lays the rack on free
squares, `follow` moves each shown chip to its square of the board's move and lifts the
rest, `take_rack` lifts a rack shown; all go through the same queue as the clicks. The
board's events keep the hands in step (`_table`): a move's chips leave its player's hand,
a swap's go back to the bag, and the board's rack shown for a swap or a pass is lifted.

`serial()` gives the board a USB port: a pseudo-terminal whose path host tools open as they
would /dev/ttyACM0. The firmware's event lines go out on it and the PC's command lines come
in. A Ctrl-C stops the firmware and hands the port to a MicroPython REPL twin
(host_tools/repl_twin.py), so `mpremote` and `host_tools flash` work on the simulated board;
the twin's soft reboot boots the firmware again from the folder, with whatever was flashed.
"""

import collections
import json
import os
import random
import shutil
import tempfile
import threading
import time

import host_tools
from engine import faces, squares
from engine.compat import ticks_add, ticks_diff
from firmware.fsio import DeviceFS
from firmware.sim.simboard import SimBoard, chip_tags
from host_tools import replay

HARDWARE = replay.REPO / "hardware"
KEEP_LINES = 200  # event lines kept for the web page
HOLD_MS = 60  # a button press is held down at least this long (board time)
GAP_MS = 20  # and released at least this long before the next input is played
YIELD_S = 0.0005  # the loop's pause between steps when it is behind, so requests get the lock


def populate(root, game="calculissimo", overwrite=False):
    """Make `root` a freshly flashed board: pin maps, profiles, settings (the game, and a
    supply that lights the LEDs) and the factory registry of the simulated chips' tags. Files
    already there are kept unless `overwrite`."""
    from engine import profile as P

    for folder in ("pins", "profiles"):
        os.makedirs(os.path.join(root, folder), exist_ok=True)
        for name in sorted(os.listdir(HARDWARE / folder)):
            dest = os.path.join(root, folder, name)
            if overwrite or not os.path.exists(dest):
                shutil.copyfile(HARDWARE / folder / name, dest)
    settings = os.path.join(root, "settings.json")
    if overwrite or not os.path.exists(settings):
        with open(settings, "w", encoding="utf-8") as f:
            # On USB with a MicroPython built to declare 500 mA, so the LEDs light (with the
            # stock 250 mA the board keeps them off and says why: hardware/README.md).
            json.dump({"game": game, "current_ma": 500}, f)
    chips = os.path.join(root, "chips.json")
    if overwrite or not os.path.exists(chips):
        registry = {}
        for name in ("calculissimo", "calqable"):
            prof = P.load(HARDWARE / "profiles" / (name + ".json"))
            for face, uids in chip_tags(prof).items():
                for uid in uids:
                    registry[uid.hex()] = face
        with open(chips, "w", encoding="utf-8") as f:
            json.dump({"chips": registry}, f)


class _Lines:
    """Where the firmware writes its event lines: kept, and passed to every subscriber."""

    def __init__(self, live):
        self.live = live

    def append(self, line):
        live = self.live
        live.lines.append(line)
        if len(live.lines) > KEEP_LINES:
            del live.lines[: len(live.lines) - KEEP_LINES]
        live.count += 1
        for fn in live.subscribers:
            fn(line)


class _Playing:
    """An input the twins have been given and the firmware has not sensed yet.

    `note(now, app)` is called before each main-loop step that runs while the input is in
    place, with the step's start time: it follows the firmware's own rules, step by step in
    the board's time, to know when the firmware has seen it (`sensed`)."""

    def __init__(self, kind, at, square=None, name=None, pin=None, hold=0):
        self.kind = kind  # "press", "put" or "take"
        self.at = at  # board ticks when it was played
        self.square = square
        self.name = name  # the button (press)
        self.pin = pin  # the button's pin while it is held down (press)
        self.hold = hold
        self.steps = 0  # steps run since
        self.stable = None  # ticks of the step where the presence debounce flipped (put)
        self.sensed = False  # a step has run in which the firmware saw it

    def note(self, now, app):
        self.steps += 1
        if self.kind == "press":
            # firmware/buttons.py: reported once it has read low for debounce_ms
            if ticks_diff(now, self.at) >= app.buttons.debounce_ms:
                self.sensed = True
            return
        # firmware/presence.py: a square flips after `scans` consecutive readings
        if self.steps >= app.presence.scans:
            if self.kind == "take":
                self.sensed = True  # a chip's magnet gone: lifted at once
                return
            if self.stable is None:
                self.stable = now
            # firmware/sensing.py: a magnet that stays settle_ms is read and reported
            if ticks_diff(now, self.stable) >= app.sensing.settle_ms:
                self.sensed = True

    def rebooted(self, board, now):
        """The firmware started again with this input in place: it senses it afresh (a
        button not read yet is held down on the new board's pin instead)."""
        if self.kind == "press":
            if not self.sensed:
                self.pin.drive(1)
                self.pin = board.pins[self.name]
                self.pin.drive(0)
                self.at, self.steps = now, 0
            return
        self.at, self.steps, self.stable, self.sensed = now, 0, None, False


_TOOLS = host_tools.command()
BOARD_MODES = ("show_rack", "think", "guide", "hint")  # firmware/modes_computer.py
DEAL_SEED = 13  # the simulated bag's PRNG: the same racks every run
FACE_ORDER = "0123456789+-×÷/=?"  # a rack's chips in the order the page draws them


def _record_face(code):
    """The chip for a board cell's code, as laid: "?" for a joker, else its face's text."""
    if code & faces.JOKER_BIT:
        return "?"
    return faces.text(chr(code & faces.FACE_MASK))


def _face_rank(face):
    return FACE_ORDER.index(face) if face in FACE_ORDER else len(FACE_ORDER)


# The line under the board's buttons on the web page: what to do now, for every mode of the
# referee (firmware/referee.py MODES) and every service mode the PC can start
# (firmware/service.py). `LiveBoard.hint` picks one from the board's state.
HINTS = {
    "play": "Lay chips on the board, then press OK. OK with nothing laid opens the menu.",
    "pick": "Choose the chip's value with ◀ ▶, then press OK.",
    "menu": "Menu: ◀ ▶ to choose, OK to select, BACK to leave it.",
    "swap": "How many chips go back to the bag? ◀ ▶ to choose, then OK.",
    "take_back": "The turn is lost: take its chips back off the board.",
    "tally": (
        "Game over. %(name)s counts the chips left on their rack: lay them on the board, "
        "or pick them on the tally card (OK on the board enters %(face)s)."
    ),
    "tally_done": "Every chip is counted. OK shows the final scores; BACK takes one back.",
    "over": "Final scores. Clear the board, then press OK for a new game.",
    "resume": "A game was saved. OK resumes it, BACK starts a new game.",
    "clear": "A new game starts as soon as the board is clear: lift every chip.",
    "show_rack": (
        "The board asks for %(name)s's rack: lay its chips on free squares (they are not a "
        "move), then press OK."
    ),
    "show_hint": (
        "A hint: lay %(name)s's rack on free squares (they are not a move), then press OK. "
        "BACK returns to the move."
    ),
    "think": "The board is thinking.",
    "guide": (
        "The board's move: move each chip shown to the square that blinks green, lift the "
        "rest, then press OK."
    ),
    "hint": "The hint's squares blink green. Any button or chip returns to the move.",
    "problem": "First: %(message)s.",
    "diag": "Sensor test, started from the PC: lay chips anywhere to test the sensors. "
    "BACK ends it.",
    "enrol": "Enrolling chips, started from the PC: lay the chip the display asks for. "
    "BACK ends it.",
    "repl": "The firmware is stopped: a REPL has the board's USB port.",
    "off": "The board is starting.",
}


class LiveBoard:
    def __init__(self, root=None, game="calculissimo", speed=1.0, seed=DEAL_SEED):
        if root is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="simboard-")
            root = self._tmp.name
        self.root = str(root)
        populate(self.root, game)
        self.speed = speed  # simulated ms per wall-clock ms
        self.lock = threading.RLock()
        self.lines = []  # the last event lines
        self.count = 0  # event lines written since start
        self.subscribers = []  # fn(line) for every event line
        self.inputs = collections.deque()  # the hands' inputs not played yet, in order
        self.playing = []  # _Playing: inputs played and not yet sensed (or a button held)
        self.not_before = None  # board ticks before which no further input is played
        self.port = None
        self.repl = None  # the REPL twin while the firmware is stopped (Ctrl-C)
        self.rebooting = False
        self.boots = 0
        self._thread = None
        self._stop = threading.Event()
        self.board = None  # type: SimBoard | None
        # The table around the board (the module's docstring): seat -> the faces of the rack
        # the PC holds for it, and square -> (seat, face) of its chips lying on the board,
        # shown to the board or laid for a move (a hand's chips are wherever they lie).
        self.rng = random.Random(seed)
        self.hands = {}
        self.shown = {}
        self.laid = {}
        self.subscribers.append(self._table)
        self._boot()

    # ----- the board's life -----------------------------------------------------------------

    def _boot(self):
        """Start the firmware from the folder's files, as a power-up or soft reboot does."""
        from firmware.sim.clock import SimClock

        old = self.board
        clock = old.clock if old is not None else SimClock()
        board = SimBoard(
            None, fs=DeviceFS(self.root), clock=clock, out=_Lines(self), enrolled=False
        )
        if old is not None:  # a restart leaves the chips where they lie
            board.chain.inputs[:] = old.chain.inputs
            for sq, (face, uid) in old.on_board.items():
                if face in board.tags and uid in board.tags[face]:
                    board.tags[face].remove(uid)
                board.put(sq, face, uid)
        self.board = board
        self.boots += 1
        board.boot()
        for p in self.playing:
            p.rebooted(board, clock.ticks_ms())

    def start(self):
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="simboard", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self.port is not None:
            self.port.close()

    def _run(self):
        start = time.monotonic()
        done = 0  # simulated ms run
        while not self._stop.is_set():
            with self.lock:
                period = self.board.app.period_ms
                self.tick()
                done += period
            ahead = done / self.speed / 1000 - (time.monotonic() - start)
            if ahead > 0:
                time.sleep(ahead)
                continue
            if ahead < -1:  # fell more than a second behind (a slow machine): do not race
                start = time.monotonic() - done / self.speed / 1000
            # Behind: a lock released and at once taken again is never handed to a thread
            # waiting for it, and the web server's requests would wait for as long as the
            # board stays behind. A short pause lets them in.
            time.sleep(YIELD_S)

    def tick(self):
        """One main-loop period: the port, the hands' inputs, a step, the clock moved on."""
        if self.port is not None:
            self._serial_in()
        board = self.board  # (after the port: a soft reboot there boots a new one)
        if self.repl is None:  # the firmware runs: the hands act, and it sees them
            self._play(board.clock.ticks_ms())
            board = self.board  # (a new game among the inputs boots a new one too)
            board.app.tick()  # supervised, as on the board: a fault never stops the thread
            if board.app.restart or not board.app.running:
                self._boot()
        board.clock.advance(board.app.period_ms)

    def run(self, ms):
        """Run `ms` of simulated time now, on the caller's thread (tests, scripts)."""
        with self.lock:
            end = ticks_add(self.board.clock.ticks_ms(), ms)
            while ticks_diff(end, self.board.clock.ticks_ms()) > 0:
                self.tick()

    def idle(self):
        """Every input given has been played and sensed, and no button is held down."""
        with self.lock:
            return not self.inputs and not self.playing

    # ----- players at the table ---------------------------------------------------------------

    def place(self, square, face):
        """Lay a chip of `face` (as in game records) on `square` (an index or "H8"): queued,
        after every input given before it."""
        sq = self.square(square)
        with self.lock:
            chips, box = self._planned()
            if sq in chips:
                raise ValueError("%s already holds a chip" % self.square_name(sq))
            if face not in box:
                raise ValueError("no chip %r in this game" % (face,))
            if not box[face] or not self._bag(self._to_move())[face]:
                raise ValueError("no %s chip left in the box" % face)  # (or in racks)
            self.inputs.append(("put", sq, face))
            self._from_hand(sq, face)

    def clear(self):
        """Lift every chip on the board, one after the other, as hands clearing it would:
        queued, after every input given before it. Returns how many chips are lifted.
        While a game is on, its played chips belong on the board: ValueError then (a game
        over, or a new game waiting for a clear board, may be cleared)."""
        with self.lock:
            if not self._clearable():
                raise ValueError("the game is on: its chips stay until the game is over")
            chips = sorted(self._planned()[0])
            for sq in chips:
                self._take(sq)
            return len(chips)

    def _clearable(self):
        """Whether the board may be cleared: no game on whose played chips belong there."""
        app = self.board.app
        ref = app.referee
        game = ref.game
        if app.service is not None or game is None or ref.mode in ("over", "clear"):
            return True
        return not any(game.board.cells)

    def enter(self, face):
        """Count a leftover chip of `face` in the end tally with the board's buttons, as a
        player would: ▶ until the display offers `face`, then OK. Queued; the presses are
        worked out when its turn comes, from what the board offers then."""
        with self.lock:
            tally = self.board.app.referee.state
            if getattr(tally, "count", None) is None or self.board.app.service is not None:
                raise ValueError("the board is not counting leftover chips now")
            if face not in self._planned()[1]:
                raise ValueError("no chip %r in this game" % (face,))
            if tally.count.done():
                raise ValueError("every chip is counted: press OK for the final scores")
            if tally._left(face) <= 0:
                raise ValueError("no %s chip left to count" % face)
            self.inputs.append(("enter", face))

    def lift(self, square):
        """Pick up the chip on `square`: queued, after every input given before it."""
        sq = self.square(square)
        with self.lock:
            if sq not in self._planned()[0]:
                raise ValueError("no chip there")
            self._take(sq)

    def press(self, name, hold=HOLD_MS):
        """Press a board button, held down at least `hold` ms of the board's time and until
        the firmware has read it: queued, after every input given before it."""
        with self.lock:
            if name not in self.board.pins:
                raise ValueError("no button %r" % (name,))
            self.inputs.append(("press", name, hold))

    # ----- the table: games against the board, and the racks the PC holds (issue 13) ---------

    def new_game(self, players=None, computer=None, hints=None, think_seconds=None):
        """A new game with these settings (None keeps a setting as it is): settings.json is
        written at once, checked as the board checks it (ValueError, and nothing written, if
        it would refuse a value); then, after the inputs already given, the hands sweep the
        board clear, the board restarts with the new settings and BACK at "Resume game?"
        starts the new game. `computer`: each seat's level, 0 a person, 1 to 4 the board."""
        from firmware import settings as S

        path = os.path.join(self.root, "settings.json")
        with self.lock:
            prof = self.board.profile
            try:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
            except (OSError, ValueError):
                data = {}
            if not isinstance(data, dict):
                data = {}
            change = {"players": players, "computer": computer, "hints": hints}
            change["think_seconds"] = think_seconds
            change = {k: v for k, v in change.items() if v is not None}
            if "players" in change and not (
                isinstance(players, int) and prof.min_players <= players <= prof.max_players
            ):
                raise ValueError("players must be %d to %d" % (prof.min_players, prof.max_players))
            problems = S.validate(change)[1]
            if problems:
                raise ValueError(problems[0])
            data.update(change)
            n = data.get("players", S.DEFAULTS["players"])
            if isinstance(data.get("computer"), list):
                data["computer"] = data["computer"][:n]  # no levels for seats not in play
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f, ensure_ascii=False)
            self.inputs.append(("restart",))
            self.inputs.append(("new",))

    def _sweep(self):
        """Every chip off the board at once, as before the board is switched off and on."""
        board = self.board
        for sq in range(len(board.chain.inputs) * 8):
            if board.chain.present(sq):
                board.take(sq)
        self.shown.clear()
        self.laid.clear()

    def ask_hint(self):
        """Ask the board for a hint through its own menu, as a person would: BACK opens the
        turn menu, ◀ ▶ to "Hint", OK. Queued; the presses are worked out when its turn
        comes, from what the board shows then."""
        with self.lock:
            app = self.board.app
            ref = app.referee
            if app.service is not None or ref.game is None or ref.mode not in ("play", "menu"):
                raise ValueError("the board gives hints during a person's turn")
            if not ref.hints_on():
                raise ValueError("hints are off (choose them for a new game)")
            if ref.game.pending:
                raise ValueError("the menu opens with no chip laid: lift this turn's chips")
            self.inputs.append(("menu", "hint", 0))

    def _menu_presses(self, item):
        """The presses that choose `item` in the turn menu: BACK first if the menu is not
        open (once: a second visit finds it open, or gives up), then ◀ or ▶, then OK."""
        ref = self.board.app.referee
        if ref.mode == "play" and not item[2]:
            return [("press", "back", HOLD_MS), ("menu", item[1], 1)]
        if ref.mode != "menu":
            return []
        items = ref.menu_items()
        if item[1] not in items:
            return []
        k, at, n = items.index(item[1]), ref.state.at, len(items)
        right = (k - at) % n
        if right <= n - right:
            presses = [("press", "right", HOLD_MS)] * right
        else:
            presses = [("press", "left", HOLD_MS)] * (n - right)
        return presses + [("press", "ok", HOLD_MS)]

    def show_rack(self):
        """The board asks for the rack of the player to move (for its own turn, or for a
        hint): the PC's hand for that seat, topped up from the bag, is laid on free squares.
        Queued. Returns the squares."""
        with self.lock:
            app = self.board.app
            ref = app.referee
            if app.service is not None or ref.mode != "show_rack":
                raise ValueError("the board is not asking for a rack now")
            p = ref.game.to_move
            self._deal(p)
            rack = self._in_hand(p)
            if not rack:
                raise ValueError("the rack is on the board already: press OK")
            chips = self._planned()[0]
            free = self._free(chips, len(rack))
            for sq, face in zip(free, rack):
                self.inputs.append(("put", sq, face))
                self.shown[sq] = (p, face)
            return [self.square_name(sq) for sq in free]

    def follow(self):
        """The board's move (mode guide), laid as the person helping it would: each chip
        taken from where it was shown to its square (a shown chip already on a square of
        the move is picked up first), then the rack's other chips lifted. Queued; OK plays
        it. Returns how many chips are laid."""
        with self.lock:
            app = self.board.app
            ref = app.referee
            if app.service is not None or ref.mode != "guide":
                raise ValueError("the board has no move to lay now")
            p = ref.game.to_move
            chips = self._planned()[0]
            rack = {sq: chips[sq] for sq in self._rack_squares(chips)}
            todo = []
            for sq, code in ref.state.move.placements:
                if sq not in chips or sq in rack:  # else its chip is there already
                    todo.append((sq, _record_face(code)))
            hand = []
            for sq, _ in todo:
                if sq in rack:
                    hand.append(rack.pop(sq))
                    self._take(sq)
            for sq, face in todo:
                if face in hand:
                    hand.remove(face)
                else:
                    src = min((k for k in rack if rack[k] == face), default=None)
                    if src is not None:  # (else from the box: a rack shown some other way)
                        del rack[src]
                        self._take(src)
                self.inputs.append(("put", sq, face))
                if p in self.hands:
                    self.laid[sq] = (p, face)
            for sq in sorted(rack):
                self._take(sq)
            return len(todo)

    def take_rack(self):
        """Lift every chip of a rack shown to the board (after a hint, say). Queued;
        returns how many."""
        with self.lock:
            chips = self._planned()[0]
            rack = sorted(self._rack_squares(chips))
            if not rack:
                raise ValueError("no rack is shown on the board")
            for sq in rack:
                self._take(sq)
            return len(rack)

    def _rack_squares(self, chips):
        """The squares holding chips of a rack shown, where the hands will have them: laid
        by `show_rack`, or by hand and read as such by the board."""
        shown = self.board.app.referee.shown
        return [sq for sq in chips if sq in self.shown or sq in shown]

    def _take(self, sq):
        """Queue a chip lifted; a hand's chip goes back to its hand."""
        self.inputs.append(("take", sq))
        self.shown.pop(sq, None)
        self.laid.pop(sq, None)

    def _from_hand(self, sq, face):
        """A chip laid by a click: from the hand of the player to move, if it holds one."""
        ref = self.board.app.referee
        if ref.game is None or self.board.app.service is not None:
            return
        p = ref.game.to_move
        if face in self._in_hand(p):
            (self.shown if ref.mode == "show_rack" else self.laid)[sq] = (p, face)

    def _to_move(self):
        """The seat whose hand a click may lay chips from: the person to move."""
        ref = self.board.app.referee
        game = ref.game
        if game is None or ref.level(game.to_move):
            return None
        return game.to_move

    def _in_hand(self, p):
        """The faces of seat p's rack not on the board."""
        left = list(self.hands.get(p, ()))
        for where in (self.shown, self.laid):
            for seat, face in where.values():
                if seat == p and face in left:
                    left.remove(face)
        return left

    def _bag(self, keep=None):
        """face -> how many chips may be dealt: in the box, less the hands' chips (but for
        those of seat `keep`: the player to move may lay their own)."""
        box = self._planned()[1]
        for p in self.hands:
            if p == keep:
                continue
            for face in self._in_hand(p):
                if box.get(face):
                    box[face] -= 1
        return box

    def _deal(self, p):
        """Top seat p's hand up to the rack the board's game says it holds."""
        game = self.board.app.referee.game
        hand = self.hands.setdefault(p, [])
        want = game.rack_count(p) - len(hand)
        if want <= 0:
            return
        bag = self._bag()
        pool = [face for face in sorted(bag) for _ in range(bag[face])]
        for _ in range(min(want, len(pool))):
            hand.append(pool.pop(self.rng.randrange(len(pool))))
        hand.sort(key=_face_rank)

    def _free(self, chips, n):
        """n free squares for a rack shown: from the bottom row up, left to right, away from
        the game, which starts in the middle."""
        prof = self.board.profile
        cells = self.board.app.referee.game.board.cells
        out = []
        for row in range(prof.height - 1, -1, -1):
            for col in range(prof.width):
                sq = row * prof.width + col
                if sq not in chips and not cells[sq]:
                    out.append(sq)
                    if len(out) == n:
                        return out
        return out

    def _table(self, line):
        """Keep the hands in step with the board's events (a subscriber to its lines)."""
        try:
            ev = json.loads(line)
        except ValueError:
            return
        kind = ev.get("ev")
        if kind == "new_game":
            self.hands.clear()
            self.shown.clear()
            self.laid.clear()
            return
        p = ev.get("player")
        if not isinstance(p, int):
            return
        p -= 1
        if kind in ("move", "replace"):
            hand = self.hands.get(p)
            prof = self.board.profile
            for chip in str(ev.get("move", "")).split():
                name, _, face = chip.partition(":")
                try:
                    sq = squares.parse(name, prof.width, prof.height)
                except ValueError:
                    continue
                self.laid.pop(sq, None)
                self.shown.pop(sq, None)
                face = "?" if face.startswith("?") else face
                if hand is not None and face in hand:
                    hand.remove(face)  # played: no longer in the player's rack
        elif kind == "computer" and ev.get("move") is None:
            # the board swaps or passes: its rack shown is taken back, the swapped chips
            # go back in the bag
            for sq in sorted(self._rack_squares(self._planned()[0])):
                self._take(sq)
            hand = self.hands.get(p)
            for ch in ev.get("swap") or ():
                face = "?" if ch == faces.JOKER else faces.text(ch)
                if hand is not None and face in hand:
                    hand.remove(face)
        elif kind == "swap" and p in self.hands and not self.board.app.referee.level(p):
            del self.hands[p]  # a person's swap: which chips went back is not said

    def _table_state(self):
        """The game against the board, for the page: the seats' levels, what the board asks
        for now, the board's move or the hint on show, and the hands the PC holds."""
        app = self.board.app
        ref = app.referee
        game = ref.game
        settings = ref.settings
        prof = self.board.profile
        out = {
            "setup": {
                "players": settings["players"],
                "computer": list(settings["computer"]),
                "hints": settings["hints"],
                "think_seconds": settings["think_seconds"],
                "min_players": prof.min_players,
                "max_players": prof.max_players,
                "hall": settings["sensor"] == "hall",  # the board plays no seat then
            },
            "seats": [],
            "asks": None,
            "guide": None,
            "hint_move": None,
            "racks": [],
            "rack_shown": [],
        }
        if game is None:
            return out
        name = self.square_name
        out["seats"] = [ref.level(p) for p in range(game.players)]
        mode = ref.mode if app.service is None else None
        p = game.to_move
        state = ref.state
        if mode == "show_rack":
            self._deal(p)
            out["asks"] = {
                "player": p + 1,
                "hint": bool(state.hint),
                "count": game.rack_count(p),
                "level": ref.level(p),
            }
        elif mode == "guide":
            chips = [[name(sq), _record_face(code)] for sq, code in state.move.placements]
            out["guide"] = {
                "player": p + 1,
                "level": ref.level(p),
                "move": str(state.move),
                "score": state.score,
                "chips": chips,
            }
        elif mode == "hint" and state.move is not None:
            out["hint_move"] = {"player": p + 1, "move": str(state.move), "score": state.score}
        for seat in sorted(self.hands):
            shown = {name(sq): f for sq, (s, f) in sorted(self.shown.items()) if s == seat}
            out["racks"].append(
                {
                    "player": seat + 1,
                    "level": ref.level(seat),
                    "hand": self._in_hand(seat),
                    "shown": shown,
                }
            )
        out["rack_shown"] = [name(sq) for sq in sorted(self._rack_squares(self._planned()[0]))]
        return out

    def _planned(self):
        """The chips where the hands will have put them once the queue is played: square ->
        face, and face -> how many are left in the box."""
        board = self.board
        chips = {sq: face for sq, (face, _) in board.on_board.items()}
        for sq in range(len(board.chain.inputs) * 8):
            if sq not in chips and board.chain.present(sq):
                chips[sq] = None  # a magnet without a known chip (put there by a test)
        box = {face: len(uids) for face, uids in board.tags.items()}
        for item in self.inputs:
            if item[0] == "put":
                chips[item[1]] = item[2]
                box[item[2]] -= 1
            elif item[0] == "take":
                face = chips.pop(item[1], None)
                if face in box:
                    box[face] += 1
        return chips, box

    def _play(self, now):
        """Before a step: release a button the firmware has read, play the next input if its
        turn has come, and note the step about to run for the inputs in place."""
        app = self.board.app
        playing = self.playing
        for p in playing:
            if p.kind == "press" and p.sensed and ticks_diff(now, p.at) >= p.hold:
                p.pin.drive(1)  # released: this step reads it up, the next input waits
                p.pin = None
                self.not_before = ticks_add(now, max(GAP_MS, 2 * app.period_ms))
        playing[:] = [p for p in playing if not p.sensed or p.pin is not None]
        while self.inputs:
            if self.not_before is not None and ticks_diff(now, self.not_before) < 0:
                break
            item = self.inputs[0]
            kind = item[0]
            # Chips laid one after the other (or lifted one after the other) on different
            # squares go a step apart: the firmware settles them in that order. Anything else
            # waits until the inputs before it have been sensed.
            if any(p.kind != kind or kind == "press" or p.square == item[1] for p in playing):
                break
            self.inputs.popleft()
            if kind == "enter":  # the tally's buttons, worked out now: ▶ ... ▶ OK
                self.inputs.extendleft(reversed(self._presses(item[1])))
                continue
            if kind == "menu":  # the turn menu's buttons, worked out now: BACK, ◀ ... OK
                self.inputs.extendleft(reversed(self._menu_presses(item)))
                continue
            if kind == "restart":  # the new settings: the board swept and started again
                self._sweep()
                self._boot()
                self.not_before = ticks_add(now, GAP_MS)
                return
            if kind == "new":  # after the restart: BACK at "Resume game?", OK after a game
                mode = self.board.app.referee.mode
                button = {"resume": "back", "over": "ok"}.get(mode)
                if button is not None:
                    self.inputs.appendleft(("press", button, HOLD_MS))
                continue
            played = self._give(item, now, app)
            if played is not None:  # (else it cannot be played any more: the next one)
                playing.append(played)
                self.not_before = ticks_add(now, 1)  # at most one input a step
                break
        for p in playing:
            p.note(now, app)

    def _presses(self, face):
        """The button presses that make the tally offer `face` and enter it (none when the
        board no longer counts, or has no such chip left)."""
        tally = self.board.app.referee.state
        count = getattr(tally, "count", None)
        if count is None or count.done() or tally._left(face) <= 0:
            return []
        k, steps = tally.choice, 0
        while tally._face(k) != face and steps <= len(self.board.app.referee.all_choices):
            k = tally._next_face(k, 1)
            steps += 1
        if tally._face(k) != face:
            return []
        return [("press", "right", HOLD_MS)] * steps + [("press", "ok", HOLD_MS)]

    def _give(self, item, now, app):
        """Put one input into the twins; its _Playing record, None if it cannot be played
        any more (the board changed under it: a test's own hands, a reboot)."""
        board = self.board
        kind = item[0]
        if kind == "press":
            pin = board.pins[item[1]]
            pin.drive(0)
            hold = max(item[2], app.buttons.debounce_ms + 2 * app.period_ms)
            return _Playing("press", now, name=item[1], pin=pin, hold=hold)
        sq = item[1]
        if kind == "put":
            face = item[2]
            if board.chain.present(sq) or not board.tags.get(face):
                return None
            board.put(sq, face)
            return _Playing("put", now, square=sq)
        if not board.chain.present(sq):
            return None
        board.take(sq)
        return _Playing("take", now, square=sq)

    def square(self, square):
        width, height = self.board.profile.width, self.board.profile.height
        if isinstance(square, int):
            if not 0 <= square < width * height:
                raise ValueError("no square %d" % square)
            return square
        return squares.parse(square, width, height)

    def square_name(self, sq):
        return squares.name(sq, self.board.profile.width)

    # ----- what the board shows ---------------------------------------------------------------

    def state(self, since=0):
        """Everything the web page draws, as JSON-able data; event lines from number `since`.
        The chips (and the box) are where the hands put them, queued inputs included: the
        firmware's LEDs and events say what it has sensed."""
        with self.lock:
            board = self.board
            prof = board.profile
            n = prof.width * prof.height
            app = board.app
            ref = app.referee
            game = ref.game
            leds = [list(board.led(sq)) for sq in range(n)]
            table = self._table_state()  # (first: it deals the rack the board asks for)
            planned = self._planned()[0]
            chips = {}
            for sq, face in sorted(planned.items()):
                if face is not None:
                    chips[squares.name(sq, prof.width)] = face
            new = min(self.count - since, len(self.lines)) if since < self.count else 0
            return {
                "game": prof.game,
                "width": prof.width,
                "height": prof.height,
                "leds": leds,
                "oled": self.oled_hex(),
                "screen": board.screen(),
                "chips": chips,
                "box": self._bag(self._to_move()),  # (the racks the PC holds are not in it)
                "names": [ref.name(p) for p in range(game.players)] if game else [],
                "totals": game.totals() if game else [],
                "to_move": game.to_move if game else None,
                "mode": ref.mode,
                "service": app.service.name if app.service else None,
                "milliamps": app.leds.milliamps,
                "events": self.lines[len(self.lines) - new :] if new else [],
                "count": self.count,
                "serial": self.port.path if self.port is not None else None,
                "tools": _TOOLS,  # how to run the host tools on this PC (the port's tooltip)
                "repl": self.repl is not None,
                "inputs": len(self.inputs) + len(self.playing),  # not yet sensed
                "in_turn": bool(game) and app.service is None and ref.in_turn(),
                "tally": self._tally(),
                # the page offers "Clear the board" after a game, and in the PC's service modes
                "can_clear": bool(chips)
                and (app.service is not None or ref.mode in ("over", "clear")),
                "hint": self.hint(),
                "lang": ref.lang,
                "reasons": self.reasons(),
                "table": table,
            }

    def _tally(self):
        """The end tally as the board counts it: who counts, how many chips they have left,
        the face OK enters now (None once every chip is counted), each player's counted
        faces; None outside the tally."""
        ref = self.board.app.referee
        count = ref.tally
        if count is None:
            return None
        done = count.done()
        state = ref.state
        return {
            "player": None if done else count.player + 1,
            "name": None if done else ref.name(count.player),
            "left": 0 if done else count.left(),
            "face": None if done else state._face(state.choice),
            "done": done,
            "racks": count.racks(),
        }

    def hint(self):
        """What to do now, in words, from the board's state (HINTS)."""
        with self.lock:
            if self.repl is not None:
                return HINTS["repl"]
            app = self.board.app
            if app.service is not None:
                return HINTS.get(app.service.name, "")
            ref = app.referee
            if ref.game is None:
                return HINTS["off"]
            mode = ref.mode
            blocked = ref.blocked()
            # (a rack shown is what the board's own modes ask for: not a problem there)
            if blocked is not None and blocked[0] == "lift_shown" and mode in BOARD_MODES:
                blocked = None
            if mode not in ("resume", "over", "clear") and blocked is not None:
                return HINTS["problem"] % {"message": ref.message}
            tally = self._tally()
            if tally is not None:
                return HINTS["tally_done"] if tally["done"] else HINTS["tally"] % tally
            if mode == "show_rack":
                key = "show_hint" if ref.state.hint else "show_rack"
                return HINTS[key] % {"name": ref.name(ref.game.to_move)}
            return HINTS.get(mode, "")

    def reasons(self):
        """Every reason code (engine.verdict) in the words the board's display uses, in its
        language (firmware/i18n.py): the page's log says what the display says."""
        from firmware import i18n

        return i18n.reasons(self.board.app.referee.lang)

    def oled_hex(self):
        """The display's glass, 64 rows of 128 pixels, 16 bytes a row (MSB left), in hex."""
        oled = self.board.oled
        out = bytearray(1024)
        for y in range(64):
            for x in range(128):
                if oled.glass(x, y):
                    out[y * 16 + (x >> 3)] |= 0x80 >> (x & 7)
        return out.hex()

    # ----- the USB port -----------------------------------------------------------------------

    def serial(self, kind=None):
        """Open the board's USB port and return its path: a pseudo-terminal where the system
        has them, else (or with kind="socket") a loopback socket URL."""
        from host_tools import ptyport

        with self.lock:
            if self.port is None:
                if kind == "socket" or not hasattr(os, "openpty"):
                    self.port = ptyport.SocketPort()
                else:
                    self.port = ptyport.PtyPort()
                self.subscribers.append(self._serial_out)
            return self.port.path

    def _serial_out(self, line):
        if self.repl is None:
            self.port.write(line.encode())

    def _serial_in(self):
        data = self.port.read()
        if not data:
            return
        if self.repl is not None:
            self.port.write(self.repl.feed(data))
            if self.rebooting:  # after the REPL's "soft reboot" line, as on the board
                self.rebooting = False
                self.repl = None
                self._boot()
            return
        cut = data.find(b"\x03")
        if cut >= 0 and not self.port.private:
            # A loopback socket is open to every program on the PC, and to web pages: it never
            # gets the REPL twin, which runs the code it is sent. Ctrl-C is dropped there.
            data = data.replace(b"\x03", b"")
            cut = -1
        if cut < 0:
            self.board.usb_in.extend(data)
            return
        # Ctrl-C: the firmware stops with KeyboardInterrupt and the REPL takes the port
        self.board.usb_in.extend(data[:cut])
        from host_tools.repl_twin import ReplTwin

        self.repl = ReplTwin(self.root, on_soft_reboot=self._soft_reboot)
        self.repl.mode = "running"  # main.py was running: the twin answers Ctrl-C as the board
        self.port.write(self.repl.feed(data[cut:]))

    def _soft_reboot(self):
        """The REPL's soft reboot in friendly mode runs main.py: the firmware starts again,
        once the REPL's own output has gone out. The callable returned tells the twin that
        main.py is running (so it prints no prompt); this board drops the twin instead."""
        self.rebooting = True
        return lambda: None
