"""A simulated board for host-tool tests: host_tools.repl_twin served on a pseudo-terminal.

`Board(root)` serves a ReplTwin whose flash is the folder `root`; host tools open `board.path`
as they would /dev/ttyACM0. On each soft reboot it runs the board's own main.py (the file a
flash put there) on CPython, as MicroPython runs it at boot, with:
- the twin's `os`, jailed to `root`;
- a `sys.stdout` that goes out on USB (and into `board.lines`);
- a `time.sleep` that ends the run, since the cannot_start loop would repeat every 5 s;
- a stand-in for `firmware.main`: importing it fails as MicroPython's import would when
  firmware/main.mpy is missing or not an .mpy file; its `main()` loads the configuration the
  real firmware loads (firmware.config on the board folder) and sends the `boot` event, or
  `cannot_start` with the ConfigError, as firmware/main.py does.
"""

import builtins
import json
import types
from pathlib import Path

from firmware import config
from firmware.fsio import DeviceFS
from host_tools.ptyport import PtyPort
from host_tools.repl_twin import ReplTwin, start


class _Stop(Exception):
    """Raised by the fake time.sleep: the program has said its first line."""


class Board:
    def __init__(self, root, **twin_options):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.lines = []  # what main.py sent on USB, boot after boot
        self.started = 0  # how many times firmware.main.main() ran
        self.twin = ReplTwin(str(self.root), on_soft_reboot=self._boot, **twin_options)
        self.port = PtyPort()
        self.path = self.port.path
        self.thread, self.stop = start(self.twin, self.port)

    def close(self):
        self.stop.set()
        self.thread.join(5)
        if not self.twin.cut:  # a pulled cable already closed the port (its fds may be reused)
            self.port.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _say(self, text):
        self.lines.append(text)
        self.twin.emit(text.replace("\n", "\r\n"))

    def _boot(self):
        main_py = self.root / "main.py"
        if not main_py.exists():
            return None
        modules = dict(self.twin.modules)
        modules["sys"] = types.SimpleNamespace(stdout=types.SimpleNamespace(write=self._say))
        modules["time"] = types.SimpleNamespace(sleep=_sleep)

        def importer(name, globals=None, locals=None, fromlist=(), level=0):
            if name == "firmware.main":
                return self._firmware_main()
            if name not in modules:
                raise ImportError("no module named '%s'" % name)
            return modules[name]

        names = {"__name__": "__main__", "__builtins__": dict(vars(builtins), __import__=importer)}
        try:
            exec(compile(main_py.read_text(), "main.py", "exec"), names)  # noqa: S102
        except _Stop:
            pass
        return lambda: None  # on a board the program runs on until Ctrl-C

    def _firmware_main(self):
        mpy = self.root / "firmware" / "main.mpy"
        if not mpy.exists():
            raise ImportError("no module named 'firmware.main'")
        if mpy.read_bytes()[:2] != b"M\x06":  # the header MicroPython checks first
            raise ValueError("incompatible .mpy file")
        return types.SimpleNamespace(main=self._firmware)

    def _firmware(self):
        self.started += 1
        try:
            conf = config.load(DeviceFS(str(self.root)))
        except (OSError, ValueError) as err:
            self._say(json.dumps({"ev": "cannot_start", "text": str(err)}) + "\n")
            return
        fields = {"t": 0, "ev": "boot", "game": conf.settings["game"]}
        fields["sensor"] = conf.settings["sensor"]
        self._say(json.dumps(fields) + "\n")


def _sleep(_seconds):
    raise _Stop
