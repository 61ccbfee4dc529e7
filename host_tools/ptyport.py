"""The simulated board's USB serial port: a pseudo-terminal, or a loopback socket.

`PtyPort` (Linux and macOS) is a pseudo-terminal; `SocketPort` a TCP socket on 127.0.0.1,
for systems without them. Both have `path`, `read()`, `write(data)` and `close()`.

The simulated board holds the pseudo-terminal's master side; host tools open `path` (the
slave side, such as /dev/pts/5) exactly as they open /dev/ttyACM0 on a real board, through
pyserial. Raw mode, so bytes pass through unchanged: no echo, no line editing, no CR/LF
translation.
"""

import os


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
    port. One PC at a time, as on USB: a new connection replaces the old one."""

    private = False  # any program on this PC can connect, web pages included

    def __init__(self, port=0):
        import socket

        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", port))
        self.server.listen(1)
        self.server.setblocking(False)
        self.path = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        self.conn = None

    def _accept(self):
        try:
            conn, _ = self.server.accept()
        except OSError:  # BlockingIOError: nobody is connecting
            return
        conn.setblocking(False)
        if self.conn is not None:
            self.conn.close()
        self.conn = conn

    def read(self, limit=4096):
        self._accept()
        if self.conn is None:
            return b""
        try:
            data = self.conn.recv(limit)
        except BlockingIOError:
            return b""
        except OSError:
            data = b""
        if not data:  # the PC hung up
            self.conn.close()
            self.conn = None
        return data

    def write(self, data):
        if self.conn is None:
            return  # nobody listening: dropped, as USB CDC output with no host
        try:
            self.conn.sendall(data)
        except OSError:
            self.conn.close()
            self.conn = None

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        self.server.close()
