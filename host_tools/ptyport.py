"""The simulated board's USB serial port: a pseudo-terminal, or a loopback socket.

`PtyPort` (Linux and macOS) is a pseudo-terminal; `SocketPort` a TCP socket on 127.0.0.1,
for systems without them. Both have `path`, `read()`, `write(data)` and `close()`.

The simulated board holds the pseudo-terminal's master side; host tools open `path` (the
slave side, such as /dev/pts/5) exactly as they open /dev/ttyACM0 on a real board, through
pyserial. Raw mode, so bytes pass through unchanged: no echo, no line editing, no CR/LF
translation.

A loopback socket is open to every program on the PC, and to every web page its browser
shows: a page can POST a text/plain body to 127.0.0.1 without asking anyone, and a body of
JSON lines would be the board's commands. So a connection must speak the line protocol
(firmware/console.py) from its first byte: blank lines, then a JSON object on a line of its
own. Until that line has come, nothing the connection sent reaches the board; a connection
that starts any other way (an HTTP request line, a header, text that is not a JSON object)
is closed at once, and the board never sees a byte of it.
"""

import json
import os

MAX_FIRST = 1024  # the first line's longest (firmware/console.py MAX_LINE)
BLANK = b" \t\r\n"


def first_line(data):
    """Whether a connection that sent `data` so far speaks the line protocol: True once its
    first line (after blank lines) is a JSON object, False as soon as it cannot be one, None
    while it is too early to say."""
    text = data.lstrip(BLANK)
    if not text:
        return None
    if text[:1] != b"{":
        return False  # "GET / HTTP/1.1", "POST ...", "Host: ...", anything but an object
    ends = [k for k in (text.find(b"\n"), text.find(b"\r")) if k >= 0]
    if not ends:
        return None if len(text) <= MAX_FIRST else False
    try:
        msg = json.loads(text[: min(ends)].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    return isinstance(msg, dict)


class PtyPort:
    private = True  # the slave side is opened only by its owner (mode 0620)

    def __init__(self):
        import tty  # POSIX only

        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)

    def read(self, limit=4096):
        """Bytes the host sent, b"" when there are none."""
        try:
            return os.read(self.master, limit)
        except (BlockingIOError, OSError):  # EIO once no host has the port open (Linux)
            return b""

    def write(self, data):
        """Send bytes to the host; dropped when nobody has the port open and the buffer is full,
        as USB CDC drops output with no host reading."""
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.master, view)
            except BlockingIOError:
                return
            except OSError:
                return
            view = view[n:]

    def close(self):
        """Close both sides; again is harmless (the numbers may be reused by then)."""
        fds, self.fds = getattr(self, "fds", (self.master, self.slave)), ()
        for fd in fds:
            try:
                os.close(fd)
            except OSError:
                pass


class SocketPort:
    """The same port as a loopback TCP socket, for systems without pseudo-terminals (Windows).

    Host tools open `path` ("socket://127.0.0.1:PORT", pyserial's URL) as they would a serial
    port. One PC at a time, as on USB: a new connection replaces the old one once its first
    line shows it speaks the board's protocol (see the module's docstring); until then the
    old one keeps the port, and both hear the board's event lines (a tool that only listens,
    `watch --json`, never sends a line)."""

    private = False  # any program on this PC can connect, web pages included

    def __init__(self, port=0):
        import socket

        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", port))
        self.server.listen(4)
        self.server.setblocking(False)
        self.path = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        self.conn = None  # the connection whose lines reach the board
        self.new = None  # a newer connection, not yet past its first line
        self.held = b""  # what `new` has sent so far, held back
        self.refused = 0  # connections closed for not speaking the protocol

    def _accept(self):
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:  # BlockingIOError: nobody is connecting
                return
            conn.setblocking(False)
            if self.new is not None:
                self.new.close()  # a newer one again: the one before never spoke
            self.new, self.held = conn, b""

    @staticmethod
    def _recv(conn, limit):
        """Bytes from `conn`; b"" when none came yet, None when it is closed."""
        try:
            data = conn.recv(limit)
        except BlockingIOError:
            return b""
        except OSError:
            return None
        return data or None

    def _vet(self, limit):
        """Read the new connection; once its first line is a command, it takes the port and
        what it sent is returned; if it cannot be one, it is closed."""
        data = self._recv(self.new, limit)
        if data is None:  # it hung up before saying anything useful
            self.new.close()
            self.new, self.held = None, b""
            return b""
        self.held += data
        verdict = first_line(self.held)
        if verdict is None:
            return b""
        if verdict is False:
            self.new.close()
            self.refused += 1
            self.new, self.held = None, b""
            return b""
        if self.conn is not None:
            self.conn.close()
        self.conn, self.new = self.new, None
        data, self.held = self.held, b""
        return data

    def read(self, limit=4096):
        """Bytes the PC sent, b"" when there are none."""
        self._accept()
        data = b""
        if self.conn is not None:
            data = self._recv(self.conn, limit)
            if data is None:  # the PC hung up
                self.conn.close()
                self.conn, data = None, b""
        if self.new is not None:
            data += self._vet(limit)
        return data

    def write(self, data):
        """Send to the PC; dropped when nobody is listening, as USB CDC output with no host."""
        for name in ("conn", "new"):
            conn = getattr(self, name)
            if conn is None:
                continue
            try:
                conn.sendall(data)
            except OSError:
                conn.close()
                setattr(self, name, None)
                if name == "new":
                    self.held = b""

    def close(self):
        for conn in (self.conn, self.new):
            if conn is not None:
                conn.close()
        self.conn = self.new = None
        self.server.close()
