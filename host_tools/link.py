"""The PC's side of the board's USB serial line: find the port, send commands, read events.

Every board command goes through `Link`, whatever is at the other end: the RP2040's USB
serial (/dev/ttyACM0, COM3), the simulated board's pseudo-terminal (host_tools/live.py), or
a loopback socket (`socket://127.0.0.1:PORT`); pyserial's `serial_for_url` opens all three.
The protocol is firmware/console.py's: one JSON command a line out, one JSON event a line
in, a command answered by a `reply` event carrying the command's `id`.

Lines that are not JSON (a REPL banner, a half line from before the port was opened) are
skipped. Events that arrive while a reply is awaited are kept for `events()`, so a live
view loses nothing while it asks the board something.
"""

import json
import os
import time

RP2040_VID = 0x2E8A  # Raspberry Pi: the RP2040's USB vendor ID (MicroPython uses it)
ENV_PORT = "SMARTBOARD_PORT"


class LinkError(Exception):
    """The board cannot be reached, did not answer, or refused a command (message says)."""


def find_port(port=None, ports=None):
    """The port to use: `port`, else $SMARTBOARD_PORT, else the one RP2040 plugged in
    (`ports` as serial.tools.list_ports.comports() gives them; read when None)."""
    port = port or os.environ.get(ENV_PORT)
    if port:
        return port
    if ports is None:
        from serial.tools import list_ports

        ports = list_ports.comports()
    boards = [p.device for p in ports if getattr(p, "vid", None) == RP2040_VID]
    if len(boards) == 1:
        return boards[0]
    if boards:
        raise LinkError("several boards found (%s); choose one with --port" % ", ".join(boards))
    seen = ", ".join(sorted(p.device for p in ports)) or "none"
    raise LinkError(
        "no board found: no USB serial port with Raspberry Pi's vendor id 2E8A (ports: %s);"
        " plug the board in or give --port (the simulator prints its port)" % seen
    )


class Link:
    def __init__(self, port=None, timeout=5.0):
        import serial

        self.port = find_port(port)
        self.timeout = timeout
        try:
            # exclusive: a port another program holds (a second `watch`, mpremote, a serial
            # terminal) is refused with a lock error instead of two readers sharing its lines
            self.serial = serial.serial_for_url(
                self.port, baudrate=115200, timeout=0.05, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError) as err:
            if "lock" in str(err):
                raise LinkError(
                    "%s is busy: another program has it open (another watch, mpremote, a serial"
                    " terminal); close that one and try again" % self.port
                ) from None
            raise LinkError("no board at %s: %s" % (self.port, err))
        self.buf = b""
        self.queue = []  # events read while waiting for a reply
        # What came before this run (a late reply to someone else's command) is dropped,
        # and ids start anywhere, so an old reply can never pass for an answer.
        self.serial.reset_input_buffer()
        # and a line end first ends whatever half line the board holds (stray bytes from a
        # terminal, a tool that was stopped mid-write): the board ignores empty lines
        try:
            self.serial.write(b"\n")
        except (serial.SerialException, OSError) as err:
            raise LinkError("cannot write to %s: %s" % (self.port, err))
        import random

        self.next_id = random.randrange(1, 1 << 30)

    def close(self):
        self.serial.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ----- lines ------------------------------------------------------------------------------

    def _read_line(self, until):
        """The next JSON object from the board, or None once `until` (monotonic) has passed."""
        import serial

        while True:
            cut = self.buf.find(b"\n")
            if cut >= 0:
                line, self.buf = self.buf[:cut], self.buf[cut + 1 :]
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue  # not one of the firmware's lines
                if isinstance(obj, dict) and "ev" in obj:
                    return obj
                continue
            if time.monotonic() >= until:
                return None
            try:
                data = self.serial.read(max(1, self.serial.in_waiting))
            except (serial.SerialException, OSError) as err:
                raise LinkError("the board went away (%s): is the cable still in?" % err)
            self.buf += data

    def send(self, cmd, **keys):
        """Send a command without waiting; returns its id."""
        import serial

        ident = self.next_id
        self.next_id += 1
        msg = {"cmd": cmd, "id": ident}
        msg.update(keys)
        try:
            self.serial.write(json.dumps(msg).encode() + b"\n")
            self.serial.flush()
        except (serial.SerialException, OSError) as err:
            raise LinkError("cannot write to %s: %s" % (self.port, err))
        return ident

    def request(self, cmd, **keys):
        """Send a command and return its reply (a dict); LinkError if refused or silent."""
        ident = self.send(cmd, **keys)
        until = time.monotonic() + self.timeout
        while True:
            obj = self._read_line(until)
            if obj is None:
                raise LinkError(
                    "the board on %s did not answer %r within %.0f s: is the firmware "
                    "running? (a board stuck at the REPL needs `host_tools flash`)"
                    % (self.port, cmd, self.timeout)
                )
            if obj["ev"] == "reply" and obj.get("id") == ident:
                if not obj.get("ok"):
                    raise LinkError("the board refused %s: %s" % (cmd, obj.get("error")))
                return obj
            if obj["ev"] == "cannot_start":
                raise LinkError("the board cannot start: %s" % obj.get("text"))
            if obj["ev"] != "reply":
                self.queue.append(obj)

    def events(self, seconds=None):
        """The board's events as they come (forever, or for `seconds`)."""
        end = None if seconds is None else time.monotonic() + seconds
        while True:
            while self.queue:
                yield self.queue.pop(0)
            until = time.monotonic() + 0.2 if end is None else min(end, time.monotonic() + 0.2)
            obj = self._read_line(until)
            if obj is not None and obj["ev"] != "reply":
                yield obj
            if end is not None and time.monotonic() >= end:
                return

    def wait_for(self, kinds, seconds):
        """The first event of one of `kinds` within `seconds`; others go back in the queue."""
        end = time.monotonic() + seconds
        held = []
        try:
            while time.monotonic() < end:
                while self.queue:
                    obj = self.queue.pop(0)
                    if obj["ev"] in kinds:
                        return obj
                    held.append(obj)
                obj = self._read_line(min(end, time.monotonic() + 0.2))
                if obj is None or obj["ev"] == "reply":
                    continue
                if obj["ev"] in kinds:
                    return obj
                held.append(obj)
            return None
        finally:
            self.queue[:0] = held

    # ----- files ------------------------------------------------------------------------------

    def read_file(self, path):
        """A board file: str for JSON files, bytes for the others."""
        reply = self.request("get", path=path)
        if "text" in reply:
            return reply["text"]
        return bytes.fromhex(reply["hex"])

    def write_file(self, path, text, line=600):
        """Write a board file (the board checks it first). A long file goes in parts whose
        JSON text stays under `line` bytes, well inside the board's command line
        (firmware/console.py MAX_LINE) however its characters are escaped."""
        parts = []
        start = size = 0
        for k in range(len(text)):
            width = len(json.dumps(text[k])) - 2  # the character as JSON writes it
            if size + width > line:
                parts.append((start, text[start:k]))
                start, size = k, 0
            size += width
        parts.append((start, text[start:]))
        for offset, part in parts[:-1]:
            self.request("put", path=path, text=part, offset=offset, more=True)
        offset, part = parts[-1]
        return self.request("put", path=path, text=part, offset=offset)

    def profile(self, game=None):
        """The board's own profile (engine.profile.Profile) of `game`, else of its game."""
        from engine import profile as P

        if game is None:
            game = self.request("hello")["game"]
        return P.Profile(json.loads(self.read_file("profiles/%s.json" % game)))
