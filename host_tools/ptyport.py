"""A pseudo-terminal standing in for the board's USB serial port (Linux and macOS).

The simulated board holds the master side; host tools open `path` (the slave side, such as
/dev/pts/5) exactly as they open /dev/ttyACM0 on a real board, through pyserial. Raw mode,
so bytes pass through unchanged: no echo, no line editing, no CR/LF translation.
"""

import os
import tty


class PtyPort:
    def __init__(self):
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
