"""The simulated board running in real time, for the web page and the serial port.

`LiveBoard` holds a `firmware.sim.simboard.SimBoard` booted from a folder that stands for
the board's flash (settings.json, pins/, profiles/, chips.json, game.dat, games/), and a
thread that runs the firmware's main loop: one `App.step()` every `scan_ms` of simulated
time, kept in step with the wall clock. Everything that touches the board goes through
`lock`, so the web server's threads and the loop never see half a step.

`serial()` gives the board a USB port: a pseudo-terminal whose path host tools open as they
would /dev/ttyACM0. The firmware's event lines go out on it and the PC's command lines come
in. A Ctrl-C stops the firmware and hands the port to a MicroPython REPL twin
(host_tools/repl_twin.py), so `mpremote` and `host_tools flash` work on the simulated board;
the twin's soft reboot boots the firmware again from the folder, with whatever was flashed.
"""

import json
import os
import shutil
import tempfile
import threading
import time

from engine import squares
from firmware.fsio import DeviceFS
from firmware.sim.simboard import SimBoard, chip_tags
from host_tools import replay

HARDWARE = replay.REPO / "hardware"
KEEP_LINES = 200  # event lines kept for the web page


def populate(root, game="calculissimo", overwrite=False):
    """Make `root` a freshly flashed board: pin maps, profiles, settings and the factory
    registry of the simulated chips' tags. Files already there are kept unless `overwrite`."""
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
            json.dump({"game": game}, f)
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
        self.actions = []  # [due ms of simulated time, fn] for the loop to apply
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
            elif ahead < -1:  # fell more than a second behind (a slow machine): do not race
                start = time.monotonic() - done / self.speed / 1000

    def tick(self):
        """One main-loop period: the port, due actions, a step, the clock moved on."""
        board = self.board
        if self.port is not None:
            self._serial_in()
        now = board.clock.ticks_ms()
        due = [a for a in self.actions if a[0] <= now]
        if due:
            self.actions = [a for a in self.actions if a[0] > now]
            for _, fn in due:
                fn()
        if self.repl is None:
            board.app.step()
            if board.app.restart or not board.app.running:
                self._boot()
        board.clock.advance(board.app.period_ms)

    def run(self, ms):
        """Run `ms` of simulated time now, on the caller's thread (tests, scripts)."""
        with self.lock:
            end = self.board.clock.ticks_ms() + ms
            while self.board.clock.ticks_ms() < end:
                self.tick()

    # ----- players at the table ---------------------------------------------------------------

    def _later(self, ms, fn):
        with self.lock:
            self.actions.append([self.board.clock.ticks_ms() + ms, fn])

    def place(self, square, face):
        """Lay a chip of `face` (as in game records) on `square` (an index or "H8")."""
        sq = self.square(square)
        with self.lock:
            board = self.board
            if sq in board.on_board:
                raise ValueError("%s already holds a chip" % squares.name(sq, board.profile.width))
            if face not in board.tags:
                raise ValueError("no chip %r in this game" % (face,))
            if not board.tags[face]:
                raise ValueError("no %s chip left in the box" % face)
            board.put(sq, face)

    def lift(self, square):
        sq = self.square(square)
        with self.lock:
            if not self.board.chain.present(sq):
                raise ValueError("no chip there")
            self.board.take(sq)

    def press(self, name, hold=60):
        """Press a board button for `hold` ms of simulated time."""
        with self.lock:
            pin = self.board.pins[name]
            pin.drive(0)
        self._later(hold, lambda: pin.drive(1))

    def square(self, square):
        width, height = self.board.profile.width, self.board.profile.height
        if isinstance(square, int):
            if not 0 <= square < width * height:
                raise ValueError("no square %d" % square)
            return square
        return squares.parse(square, width, height)

    # ----- what the board shows ---------------------------------------------------------------

    def state(self, since=0):
        """Everything the web page draws, as JSON-able data; event lines from number `since`."""
        with self.lock:
            board = self.board
            prof = board.profile
            n = prof.width * prof.height
            app = board.app
            ref = app.referee
            game = ref.game
            leds = [list(board.led(sq)) for sq in range(n)]
            chips = {}
            for sq, (face, _) in board.on_board.items():
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
                "box": {face: len(uids) for face, uids in board.tags.items()},
                "names": [ref.name(p) for p in range(game.players)] if game else [],
                "totals": game.totals() if game else [],
                "to_move": game.to_move if game else None,
                "mode": ref.mode,
                "service": app.service.name if app.service else None,
                "milliamps": app.leds.milliamps,
                "events": self.lines[len(self.lines) - new :] if new else [],
                "count": self.count,
                "serial": self.port.path if self.port is not None else None,
                "repl": self.repl is not None,
            }

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
