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

`serial()` gives the board a USB port: a pseudo-terminal whose path host tools open as they
would /dev/ttyACM0. The firmware's event lines go out on it and the PC's command lines come
in. A Ctrl-C stops the firmware and hands the port to a MicroPython REPL twin
(host_tools/repl_twin.py), so `mpremote` and `host_tools flash` work on the simulated board;
the twin's soft reboot boots the firmware again from the folder, with whatever was flashed.
"""

import collections
import json
import os
import shutil
import tempfile
import threading
import time

import host_tools
from engine import squares
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
    "problem": "First: %(message)s.",
    "diag": "Sensor test, started from the PC: lay chips anywhere to test the sensors. "
    "BACK ends it.",
    "enrol": "Enrolling chips, started from the PC: lay the chip the display asks for. "
    "BACK ends it.",
    "repl": "The firmware is stopped: a REPL has the board's USB port.",
    "off": "The board is starting.",
}


class LiveBoard:
    def __init__(self, root=None, game="calculissimo", speed=1.0):
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
            if not box[face]:
                raise ValueError("no %s chip left in the box" % face)
            self.inputs.append(("put", sq, face))

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
                self.inputs.append(("take", sq))
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
            self.inputs.append(("take", sq))

    def press(self, name, hold=HOLD_MS):
        """Press a board button, held down at least `hold` ms of the board's time and until
        the firmware has read it: queued, after every input given before it."""
        with self.lock:
            if name not in self.board.pins:
                raise ValueError("no button %r" % (name,))
            self.inputs.append(("press", name, hold))

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
            planned, box = self._planned()
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
                "box": box,
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
            if mode not in ("resume", "over", "clear") and ref.blocked() is not None:
                return HINTS["problem"] % {"message": ref.message}
            tally = self._tally()
            if tally is not None:
                return HINTS["tally_done"] if tally["done"] else HINTS["tally"] % tally
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
