"""A twin of MicroPython's USB REPL on the rp2 port, for flashing without a board.

`ReplTwin(root)` is a byte-level state machine: `feed(data)` takes the bytes the host sent and
returns the bytes the board sends back, following shared/runtime/pyexec.c as mpremote relies
on it: the friendly REPL (`>>> `), the raw REPL (Ctrl-A; code up to Ctrl-D, then `OK`, stdout,
`\\x04`, the traceback, `\\x04`, `>`), raw-paste mode (`\\x05A\\x01`, flow-controlled windows)
and soft reboots. Code sent in raw mode runs on CPython in a namespace whose `open`, `os`,
`hashlib`, `sys`, `machine`... act on `root`, a host folder standing for the board's flash;
errors come back as MicroPython prints them, so mpremote's errno mapping works. The jail
catches path mistakes (a path leaving `root` is refused); it is not a sandbox for hostile code.

`serve(twin, port, stop)` pumps a twin on a `host_tools.ptyport.PtyPort` from a thread. A soft
reboot in the friendly REPL calls `on_soft_reboot()`, which starts the board's program (the
simulated firmware); it may return a callable that stops it again (Ctrl-C). A running program
writes to USB with `twin.emit(data)` and reads the host's bytes with `twin.take_input()`.
`cut_after_writes=N` pulls the cable: the (N+1)th `w(...)` chunk of a file copy is never run,
and `serve` closes the port.
"""

import binascii
import builtins
import errno
import hashlib
import json
import os
import posixpath
import select
import struct
import threading
import time
import types

BANNER = (
    b"MicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040\r\n"
    b'Type "help()" for more information.\r\n'
)
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
RAW_PASTE_WINDOW = 128  # half of MICROPY_REPL_STDIN_BUFFER_MAX (256), as pyexec.c sends it
S_IFDIR, S_IFREG = 0x4000, 0x8000  # the only mode bits MicroPython's VFS reports
CTRL_A, CTRL_B, CTRL_C, CTRL_D, CTRL_E = 1, 2, 3, 4, 5


class _SoftReset(Exception):
    """machine.soft_reset(): the REPL ends the run and reboots (PYEXEC_FORCED_EXIT)."""


class _HardReset(_SoftReset):
    """machine.reset(): the board restarts in the friendly REPL and runs main.py."""


class _Bootloader(_SoftReset):
    """machine.bootloader(): the RP2040 restarts into its boot ROM, whose USB device is a
    drive (BOOTSEL mode), not a serial port: the port goes away."""


class ReplTwin:
    def __init__(
        self, root, on_soft_reboot=None, raw_paste=True, cut_after_writes=None, on_bootloader=None
    ):
        self.root = os.path.realpath(root)
        self.on_soft_reboot = on_soft_reboot
        self.on_bootloader = on_bootloader  # called at machine.bootloader(), then the cable goes
        # False models a firmware without raw-paste (MicroPython < 1.14), which takes
        # \x05A\x01 as a raw REPL reset. A current firmware refusing it would send "R\x00>",
        # but mpremote 1.29 then reads ">O" where it wants "OK" and gives up.
        self.raw_paste = raw_paste
        self.cut_after_writes = cut_after_writes
        self.writes = 0  # w(...) chunks run, mpremote's fs_writefile
        self.execs = 0  # code blocks run in the raw REPL
        self.pastes = 0  # of them, sent in raw-paste mode
        self.cut = False
        self.mode = "friendly"  # friendly, raw, paste (raw-paste), running (main.py)
        self.line = bytearray()
        self.stop_program = None
        self._lock = threading.Lock()
        self._pending = bytearray()  # what a running program emitted
        self._input = bytearray()  # what the host typed while a program runs
        self._reset_vm()

    # --- what a running program uses ---

    def emit(self, data):
        """Bytes a running program writes to USB (any thread)."""
        with self._lock:
            self._pending += data.encode() if isinstance(data, str) else data

    def take_output(self):
        with self._lock:
            out, self._pending = bytes(self._pending), bytearray()
        return out

    def take_input(self):
        """The bytes the host sent to the running program since the last call."""
        with self._lock:
            data, self._input = bytes(self._input), bytearray()
        return data

    def program_exit(self):
        """The running program ended: back to the friendly REPL, as after main.py returns."""
        if self.mode == "running":
            self.mode = "friendly"
            self.stop_program = None
            self.emit(BANNER + b">>> ")

    # --- the byte stream ---

    def feed(self, data):
        out = bytearray()
        for c in data:
            if self.cut:
                break
            out += getattr(self, "_" + self.mode)(c)
        return bytes(out)

    def _friendly(self, c):
        if c == CTRL_A:
            self.mode, self.line = "raw", bytearray()
            return b"\r\n" + RAW_BANNER + b">"
        if c == CTRL_B:
            self.line = bytearray()
            return b"\r\n" + BANNER + b">>> "
        if c == CTRL_C:
            self.line = bytearray()
            return b"\r\n>>> "
        if c == CTRL_D:
            if self.line:
                return b""
            return b"\r\n" + self._soft_reboot()
        if c in (8, 127):  # backspace
            if not self.line:
                return b""
            del self.line[-1]
            return b"\b \b"
        if c == 13:
            text, self.line = bytes(self.line), bytearray()
            return b"\r\n" + self._run_line(text) + b">>> "
        if c == 10 or c < 32:
            return b""
        self.line.append(c)
        return bytes([c])

    def _raw(self, c):
        if c == CTRL_A:
            if len(self.line) == 2 and self.line[0] == CTRL_E:
                return self._start_paste(self.line[1])
            self.line = bytearray()
            return RAW_BANNER + b">"
        if c == CTRL_B:
            self.mode, self.line = "friendly", bytearray()
            return b"\r\n" + BANNER + b">>> "
        if c == CTRL_C:
            self.line = bytearray()
            return b""
        if c != CTRL_D:
            self.line.append(c)
            return b""
        code, self.line = bytes(self.line), bytearray()
        if not code:  # an empty Ctrl-D in the raw REPL is a soft reset that stays raw
            return b"OK\r\n" + self._soft_reboot()
        return b"OK" + self._execute(code)

    def _start_paste(self, command):
        self.line = bytearray()
        if not self.raw_paste:  # an old firmware takes Ctrl-A as "reset the raw REPL"
            return RAW_BANNER + b">"
        if command != ord("A"):
            return b"R\x00>"
        self.mode = "paste"
        self.pastes += 1
        self.window = RAW_PASTE_WINDOW
        # The window size, then 0x01: a second window is free too.
        return b"R\x01" + struct.pack("<H", RAW_PASTE_WINDOW) + b"\x01"

    def _paste(self, c):
        if c == CTRL_C:
            self.mode, self.line = "raw", bytearray()
            return b"\x04\x04KeyboardInterrupt: \r\n\x04>"
        if c == CTRL_D:
            self.mode = "raw"
            code, self.line = bytes(self.line), bytearray()
            return b"\x04" + self._execute(code)
        self.line.append(c)
        self.window -= 1
        if self.window == 0:
            self.window = RAW_PASTE_WINDOW
            return b"\x01"
        return b""

    def _running(self, c):
        if c != CTRL_C:
            with self._lock:
                self._input.append(c)
            return b""
        if self.stop_program is not None:
            self.stop_program()
        self.mode, self.stop_program = "friendly", None
        return (
            b"Traceback (most recent call last):\r\n"
            b'  File "main.py", line 1, in <module>\r\n'
            b"KeyboardInterrupt: \r\n" + BANNER + b">>> "
        )

    def _execute(self, code):
        """Run one raw-REPL block: stdout, 0x04, traceback, 0x04, then the prompt."""
        if code.startswith(b"w("):
            if self.cut_after_writes is not None and self.writes >= self.cut_after_writes:
                self._pull_cable()
                return b""
            self.writes += 1
        self.execs += 1
        out, err, reset = self._run(code, "exec")
        if isinstance(reset, _Bootloader):
            return self._bootloader()
        reply = _cooked(out) + b"\x04" + _cooked(err) + b"\x04"
        if reset is None:
            return reply + b">"
        if isinstance(reset, _HardReset):
            self.mode = "friendly"
        return reply + self._soft_reboot()

    def _run_line(self, text):
        """A friendly-REPL line: an expression's repr is printed, a statement is run."""
        if not text.strip():
            return b""
        out, err, reset = self._run(text, "single")
        if isinstance(reset, _Bootloader):
            return self._bootloader()
        if reset is not None:
            return _cooked(out) + self._soft_reboot()
        return _cooked(out + err)

    def _bootloader(self):
        if self.on_bootloader is not None:
            self.on_bootloader()
        self._pull_cable()
        return b""

    def _pull_cable(self):
        self.cut = True
        for f in self.files:
            f.close()

    def _soft_reboot(self):
        """MicroPython's soft reset: a fresh VM, then main.py (friendly) or the raw REPL."""
        for f in self.files:
            f.close()
        self._reset_vm()
        out = b"MPY: soft reboot\r\n"
        if self.mode == "raw":
            return out + RAW_BANNER + b">"
        stop = self.on_soft_reboot() if self.on_soft_reboot is not None else None
        if callable(stop):
            self.mode, self.stop_program = "running", stop
            return out
        return out + BANNER + b">>> "

    # --- running code ---

    def _reset_vm(self):
        self.cwd = "/"
        self.files = []
        self._stdout = types.SimpleNamespace(write=lambda s: self._out.append(_text(s)))
        self._stdout.buffer = self._stdout
        self.modules = self._modules()
        self.ns = {"__name__": "__main__", "__builtins__": self._builtins()}

    def _run(self, code, kind):
        """(stdout, traceback text, the reset it asked for or None) of running `code`."""
        self._out = []
        try:
            source = code.decode("utf-8") if isinstance(code, bytes) else code
            if kind == "single":
                try:
                    compiled, kind = compile(source, "<stdin>", "eval"), "eval"
                except SyntaxError:
                    compiled = compile(source, "<stdin>", "exec")
            else:
                compiled = compile(source, "<stdin>", "exec")
        except (SyntaxError, UnicodeDecodeError) as exc:
            line = getattr(exc, "lineno", None) or 1
            err = 'Traceback (most recent call last):\n  File "<stdin>", line %d\n' % line
            return "", err + "SyntaxError: invalid syntax\n", None
        try:
            value = eval(compiled, self.ns)  # the twin runs what the host sends, as a board does
            if kind == "eval" and value is not None:
                self._out.append(repr(value) + "\n")
        except _SoftReset as exc:
            return "".join(self._out), "", exc
        except SystemExit as exc:
            return "".join(self._out), "", _SoftReset(exc)
        except BaseException as exc:  # noqa: BLE001  (every error is the program's, printed)
            return "".join(self._out), _traceback(exc), None
        return "".join(self._out), "", None

    def _print(self, *args, sep=" ", end="\n", file=None):
        text = sep.join(str(a) for a in args) + end
        if file is not None and file is not self._stdout:
            file.write(text)
        else:
            self._out.append(text)

    def _builtins(self):
        names = dict(builtins.__dict__)
        for name in ("input", "exit", "quit", "help", "breakpoint", "copyright", "credits"):
            names.pop(name, None)
        names.update(open=self._open, print=self._print, __import__=self._import)
        return names

    def _import(self, name, globals=None, locals=None, fromlist=(), level=0):
        top = name.split(".")[0]
        if top not in self.modules:
            raise ImportError("no module named '%s'" % name)
        return self.modules[top]

    def _modules(self):
        mod = types.SimpleNamespace
        os_mod = mod(
            sep="/",
            stat=self._stat,
            ilistdir=self._ilistdir,
            listdir=lambda path="": [entry[0] for entry in self._ilistdir(path)],
            mkdir=lambda path: os.mkdir(self._host(path)),
            remove=self._remove,
            rmdir=lambda path: os.rmdir(self._host(path)),
            rename=lambda old, new: os.replace(self._host(old), self._host(new)),
            getcwd=lambda: self.cwd,
            chdir=self._chdir,
            sync=lambda: None,
            statvfs=self._statvfs,
            uname=lambda: ("rp2", "rp2", "1.27.0", "v1.27.0", "Raspberry Pi Pico with RP2040"),
        )
        ticks = time.monotonic_ns
        return {
            "os": os_mod,
            "uos": os_mod,
            "hashlib": mod(sha256=hashlib.sha256, sha1=hashlib.sha1),
            "binascii": binascii,
            "json": json,
            "errno": errno,
            "struct": struct,
            "sys": mod(
                stdout=self._stdout,
                platform="rp2",
                byteorder="little",
                maxsize=2**31 - 1,
                path=["", ".frozen", "/lib"],
                implementation=mod(name="micropython", version=(1, 27, 0, ""), _mpy=0x0A06),
                exit=_sys_exit,
            ),
            "machine": mod(
                soft_reset=_raise(_SoftReset),
                reset=_raise(_HardReset),
                bootloader=_raise(_Bootloader),
            ),
            "time": mod(
                sleep=time.sleep,
                sleep_ms=lambda ms: time.sleep(ms / 1000),
                ticks_ms=lambda: ticks() // 1000000 & 0x3FFFFFFF,
                ticks_diff=lambda a, b: ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000,
                time=lambda: int(time.time()),
            ),
            "gc": mod(collect=lambda: None, mem_free=lambda: 180000, mem_alloc=lambda: 20000),
            "micropython": mod(const=lambda x: x, kbd_intr=lambda c: None),
        }

    # --- the board's filesystem, jailed to root ---

    def _host(self, path):
        """The host path of a board path; refused if it would leave `root`."""
        path = str(path)
        board = path if path.startswith("/") else posixpath.join(self.cwd, path)
        parts = []
        for part in board.split("/"):
            if part == "..":
                if not parts:
                    raise OSError(errno.EACCES, "path leaves the board's flash: %s" % path)
                parts.pop()
            elif part not in ("", "."):
                parts.append(part)
        host = os.path.join(self.root, *parts)
        real = os.path.realpath(host)
        if os.path.commonpath([self.root, real]) != self.root:
            raise OSError(errno.EACCES, "path leaves the board's flash: %s" % path)
        return host

    def _open(self, path, mode="r", *args, **kwargs):
        if "b" not in mode:
            kwargs.setdefault("encoding", "utf-8")
        f = open(self._host(path), mode, *args, **kwargs)  # noqa: SIM115  (closed by the code)
        self.files.append(f)
        return f

    def _stat(self, path):
        st = os.stat(self._host(path))
        directory = os.path.isdir(self._host(path))
        size = 0 if directory else st.st_size
        t = int(st.st_mtime)
        return (S_IFDIR if directory else S_IFREG, 0, 0, 0, 0, 0, size, t, t, t)

    def _ilistdir(self, path=""):
        host = self._host(path or self.cwd)
        for name in sorted(os.listdir(host)):
            full = os.path.join(host, name)
            if os.path.isdir(full):
                yield (name, S_IFDIR, 0, 0)
            else:
                yield (name, S_IFREG, 0, os.path.getsize(full))

    def _remove(self, path):
        # littlefs removes an empty directory with remove() too
        host = self._host(path)
        if os.path.isdir(host):
            os.rmdir(host)
        else:
            os.remove(host)

    def _chdir(self, path):
        host = self._host(path)
        if not os.path.isdir(host):
            raise OSError(errno.ENOENT, path)
        rel = os.path.relpath(host, self.root)
        self.cwd = "/" if rel == "." else "/" + rel.replace(os.sep, "/")

    def _statvfs(self, path):
        blocks = 1024 * 1024 // 4096  # the Pico's 1 MB filesystem in 4 KB blocks
        used = sum(
            (os.path.getsize(os.path.join(d, f)) + 4095) // 4096
            for d, _, files in os.walk(self.root)
            for f in files
        )
        free = max(blocks - used, 0)
        return (4096, 4096, blocks, free, free, 0, 0, 0, 0, 255)


def _sys_exit(code=None):
    raise SystemExit(code)


def _raise(kind):
    def call(*args):
        raise kind()

    return call


def _text(s):
    return s.decode("utf-8", "replace") if isinstance(s, (bytes, bytearray)) else str(s)


def _cooked(text):
    """Text as the USB stdout sends it: UTF-8, each \\n as \\r\\n."""
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


def _traceback(exc):
    """The traceback as MicroPython prints it: <stdin> frames only, then the exception."""
    lines = ["Traceback (most recent call last):\n"]
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == "<stdin>":
            lines.append('  File "<stdin>", line %d, in %s\n' % (tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    if isinstance(exc, OSError) and isinstance(exc.errno, int):
        name = errno.errorcode.get(exc.errno, str(exc.errno))
        lines.append("OSError: [Errno %d] %s\n" % (exc.errno, name))
    elif isinstance(exc, OSError):
        lines.append("OSError: %s\n" % exc)
    else:
        lines.append("%s: %s\n" % (type(exc).__name__, exc))
    return "".join(lines)


def serve(twin, port, stop, poll_s=0.01):
    """Pump `twin` on `port` (a PtyPort) until `stop` (a threading.Event) is set.

    When the twin's cable is pulled the port is closed, as a board unplugged mid-copy: the
    host's next read or write fails and the device path goes away.
    """
    while not stop.is_set():
        ready, _, _ = select.select([port.master], [], [], poll_s)
        data = port.read() if ready else b""
        out = twin.feed(data) if data else b""
        out += twin.take_output()
        if twin.cut:
            port.close()
            return
        if out:
            port.write(out)


def start(twin, port):
    """Serve `twin` on `port` from a daemon thread; returns (thread, stop event)."""
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(twin, port, stop), daemon=True)
    thread.start()
    return thread, stop
