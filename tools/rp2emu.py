"""Run code on the real Pico firmware: stock MicroPython v1.27.0 on an emulated RP2040.

The chip is emulated by the npm package `rp2040js` (pinned in tools/package.json; set up once
with `npm ci --prefix tools`, Node 18 or later), driven by tools/rp2emu.mjs. It boots the
RP2040's boot ROM and the stock RPI_PICO image from ../shared/rp2/ (beside the checkout; see
its README), with a littlefs image at flash offset 0xA0000 that the firmware mounts at `/`:

- the board's files, exactly as `python -m host_tools flash` leaves a stock board (the device
  modules compiled with the Makefile's `mpy-cross -march=armv6m`, main.py, profiles/, pins/);
- what the tests need besides: the host-side engine modules they use (engine/record,
  engine/autoplay) and the simulated parts (firmware/sim), compiled the same way in their
  packages; and under /input, where tests/engine/fixtures.py expects the repository on
  MicroPython, the test modules and their helpers (compiled too: the tests' own code should
  not take the board's heap to compile) and the files they read (hardware/, tests/data/,
  README.md, two engine files and the drivers' sources, as plain files).

A script runs in the raw REPL after a soft reset, so each starts on a fresh heap with the
collector on: the stock 246,016 B heap, nothing bigger. It should start with `prelude()`,
which puts /input on sys.path (after the flash root, so the board's .mpy files are the ones
imported). Several scripts can share one emulator process (`Pico`); a script that overruns
its budget is stopped and the chip booted afresh for the next.

What it reports: the script's output and traceback, the emulated time it took (in
microseconds, as ticks_us counts them, and in cycles at 125 MHz), and optionally the lowest
free heap seen just after a collection (`heap_watch`, see rp2emu.mjs).

What the emulator does not model: the flash cache (real hardware runs the interpreter from
flash through a 16 KB cache, so it is perhaps 1.3-1.5x slower than the cycle count says), nor
flash writes (writing a file fails with OSError 36: the filesystem is read-only there).

Command line, for developers:

    python -m tools.rp2emu FILE            run a file on the emulated Pico (prelude added)
    python -m tools.rp2emu -c CODE         run a code string
    python -m tools.rp2emu --heap -c CODE  also report the lowest free heap after a collection
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple, Self

from deploy import ship

REPO_ROOT = Path(__file__).resolve().parent.parent
TOOLS = REPO_ROOT / "tools"
SCRIPT = TOOLS / "rp2emu.mjs"
PACKAGE = "rp2040js"
# The checkout's parent folder holds shared/ (CI clones main with shared/ beside it).
SHARED_RP2 = REPO_ROOT.parent / "shared" / "rp2"
FIRMWARE = SHARED_RP2 / "micropython-v1.27.0-RPI_PICO.bin"
# The ROMFS firmware the repository ships (deploy/ship.py), a .uf2 (see flash_file()).
SHIPPED_ROMFS = ship.OUT / ship.NAME
BOOTROM = SHARED_RP2 / "rp2040-bootrom-B1.bin"
BUILD = REPO_ROOT / "build" / "rp2emu"

# The RPI_PICO build's filesystem: the last 1,408 KB of the 2 MB flash, littlefs2.
FS_OFFSET = 0xA0000
FS_BLOCK_SIZE = 4096
FS_BLOCK_COUNT = 352
FS_PROG_SIZE = 256
FS_READ_SIZE = 32
FS_NAME_MAX = 255

HEAP_BYTES = 246_016  # the stock image's GC heap; nothing here may need more
CYCLES_PER_US = 125
TEST_ROOT = "/input"  # where tests/engine/fixtures.py expects the repository on MicroPython
EXTRA_ROOT = TEST_ROOT + "/extra"  # test-only device-package modules beside a frozen firmware
DEFAULT_CYCLES = 3_000_000_000  # 24 s of chip time
DEFAULT_TIMEOUT_S = 120.0

# Besides the board's files: modules the tests import that the board never gets.
EXTRA_MODULES = ("engine/record.py", "engine/autoplay.py", "engine/rulebook.py")
EXTRA_PACKAGES = ("firmware/sim",)
# Under TEST_ROOT, compiled: the test modules and their helpers.
TEST_MODULES = ("tests/__init__.py", "tests/mpyunit.py", "tools/__init__.py", "tools/positions.py")
# ...and the probes of `make bench` (tools/picobench.py).
TEST_MODULES += (
    "tools/fuelprobe.py",
    "tools/fwbench.py",
    "tools/hintprobe.py",
    "tools/thinkprobe.py",
    "tools/playprobe.py",
    "tools/leanboard.py",
)
TEST_PACKAGES = ("tests/engine", "tests/fw")
# Under TEST_ROOT, as they are: files the tests open.
TEST_DATA = ("README.md", "hardware/profiles/*.json", "hardware/pins/*.json", "tests/data/*")
# Tests read the repository: tests/fw/test_journal.py two engine files, the drivers' tests
# their sources. (Only those: with every engine/*.py too, the image outgrew the Pico's
# 352 blocks once the Cal-Q-Able generator became seven modules.)
TEST_DATA += (
    "engine/game.py",
    "engine/snapshot.py",
    "firmware/drivers/*.py",
)


class Rp2emuError(RuntimeError):
    """The emulator could not be set up or run."""


class Result(NamedTuple):
    """What one script did on the emulated Pico."""

    stdout: str
    stderr: str  # the traceback when the script raised, else empty
    stopped: str  # "done", or why it was stopped: "cycles", "timeout", "boot", "reset"
    cycles: int  # emulated clock cycles from sending the script to its end (us * 125)
    us: int  # the same span in emulated microseconds (what ticks_us counts)
    wall_s: float
    heap_low: int | None = None  # lowest free heap seen just after a collection (heap_watch)
    collections: int | None = None  # collections seen (heap_watch)

    @property
    def ok(self) -> bool:
        """True when the script ran to its end without raising."""
        return self.stopped == "done" and not self.stderr

    def describe(self) -> str:
        status = "finished" if self.stopped == "done" else f"stopped ({self.stopped})"
        return (
            f"emulated Pico: {status}, {self.cycles:,} cycles, {self.us:,} us emulated, "
            f"{self.wall_s:.1f} s wall\n"
            f"--- stdout ---\n{self.stdout}\n--- stderr ---\n{self.stderr}"
        )


def prelude(aliases: tuple[str, ...] | list[str] = ()) -> str:
    """Code to start every script with: /input on sys.path, after the flash root.

    With the device code frozen in the firmware, the test-only modules of its packages
    (EXTRA_MODULES, EXTRA_PACKAGES) cannot lie in those packages on the filesystem: a folder
    `firmware/` there would hide the frozen package whole. `build_image(code=False)` puts them
    in EXTRA_ROOT under flat names, and `aliases` lists those the script imports (parents
    first): each is loaded there and entered in sys.modules under its own name, which
    MicroPython's import looks up before any path."""
    code = f"import sys\nsys.path.append({TEST_ROOT!r})\n"
    if aliases:
        code += f"sys.path.append({EXTRA_ROOT!r})\n"
        for name in aliases:
            code += f"sys.modules[{name!r}] = __import__({flat_name(name)!r})\n"
    return code


def flat_name(module: str) -> str:
    """A test-only module's name in EXTRA_ROOT: firmware.sim.clock -> firmware_sim_clock."""
    return module.replace(".", "_")


# --- the flash image ---


def _mpy_cross() -> str:
    from host_tools import flash

    return flash.mpy_cross()


def _compile_all(sources: list[str], out_dir: Path) -> dict[str, bytes]:
    """{relative .py path: .mpy bytes} of the tests' own modules and the test-only modules
    of the device packages (cached): for the RP2040 as host_tools flash compiles, but with
    their line numbers and asserts (flash.LINES_FLAGS; a test's asserts are its checks).
    The device code itself comes from flash.build(), as a board gets it."""
    from host_tools import flash

    command = _mpy_cross()
    flags = flash.LINES_FLAGS

    def one(rel: str) -> bytes:
        src = REPO_ROOT / rel
        data = src.read_bytes()
        key = hashlib.sha256(data + repr(flags).encode()).hexdigest()[:16]
        out = out_dir / (rel[:-3] + "." + key + ".mpy")
        if not out.is_file():
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = out.with_suffix(".tmp")
            cmd = [command, *flags, "-o", str(tmp), rel]
            proc = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
            if proc.returncode != 0:
                raise Rp2emuError(f"mpy-cross rejected {rel}: {proc.stderr.strip()}")
            tmp.replace(out)
        return out.read_bytes()

    with ThreadPoolExecutor(max_workers=max(os.cpu_count() or 1, 2)) as pool:
        return dict(zip(sources, pool.map(one, sources)))


def _py_files(folder: str) -> list[str]:
    return sorted(p.relative_to(REPO_ROOT).as_posix() for p in (REPO_ROOT / folder).glob("*.py"))


def board_files(code: bool = True) -> dict[str, bytes]:
    """The files `host_tools flash` puts on a stock board: {path on the board: bytes}.

    `code=False`: without the device modules, as `flash` leaves a board whose firmware has
    them frozen in (`make firmware`)."""
    from host_tools import flash

    try:
        items = flash.build(REPO_ROOT, BUILD / "flash")
    except flash.FlashError as exc:
        raise Rp2emuError(str(exc)) from None
    return {item.path: item.data for item in items if code or not flash.is_code(item)}


def test_files(code: bool = True) -> dict[str, bytes]:
    """What the tests need besides the board's files: {path on the board: bytes}.

    `code=False` (the device code frozen in the firmware): the test-only modules of the
    device packages go to EXTRA_ROOT under flat names (see `prelude`)."""
    modules = list(EXTRA_MODULES)
    for folder in EXTRA_PACKAGES:
        modules += _py_files(folder)
    tests = list(TEST_MODULES)
    for folder in TEST_PACKAGES:
        tests += _py_files(folder)
    compiled = _compile_all(modules + tests, BUILD / "mpy")
    files = {rel[:-3] + ".mpy": compiled[rel] for rel in modules}
    if not code:
        extra = EXTRA_ROOT.strip("/")
        files = {
            "%s/%s.mpy"
            % (extra, flat_name(rel[:-3].replace("/__init__", "").replace("/", "."))): compiled[
                rel
            ]
            for rel in modules
        }
    root = TEST_ROOT.strip("/")
    files.update({f"{root}/{rel[:-3]}.mpy": compiled[rel] for rel in tests})
    for pattern in TEST_DATA:
        for path in sorted(REPO_ROOT.glob(pattern)):
            files[f"{root}/{path.relative_to(REPO_ROOT).as_posix()}"] = path.read_bytes()
    return files


def make_image(files: dict[str, bytes]) -> bytes:
    """A littlefs2 image of the RPI_PICO filesystem holding `files` ({path: bytes})."""
    from littlefs import LittleFS

    fs = LittleFS(
        block_size=FS_BLOCK_SIZE,
        block_count=FS_BLOCK_COUNT,
        prog_size=FS_PROG_SIZE,
        read_size=FS_READ_SIZE,
        name_max=FS_NAME_MAX,
    )
    for path in sorted(files):
        folder = path.rpartition("/")[0]
        if folder:
            fs.makedirs(folder, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(files[path])
    return bytes(fs.context.buffer)


def romfs_part() -> tuple[Path, int]:
    """The ROMFS image `host_tools flash --romfs` writes, and its partition's offset on this
    project's ROMFS firmware (`make firmware BOARD_VARIANT=ROMFS`; deploy/layout.py)."""
    from deploy import layout
    from host_tools import flash

    build = BUILD / "flash"
    try:
        flash.romfs_image(flash.build(REPO_ROOT, build), build)
    except flash.FlashError as exc:
        raise Rp2emuError(str(exc)) from None
    return build / flash.ROMFS_IMAGE, layout.layout(variant="ROMFS")["romfs"][0]


def flash_file(firmware: Path) -> Path:
    """The file of flash bytes from offset 0 for `firmware`: itself, or for a .uf2 (the
    shipped ROMFS firmware, deploy/firmware/) what its blocks write, in build/rp2emu/."""
    if firmware.suffix.lower() != ".uf2":
        return firmware
    from host_tools import uf2

    try:
        data = uf2.image(firmware.read_bytes())
    except (OSError, uf2.Uf2Error) as exc:
        raise Rp2emuError(f"{firmware}: {exc}") from None
    path = BUILD / (firmware.stem + ".bin")
    if not path.is_file() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    return path


def build_image(with_tests: bool = True, code: bool = True) -> Path:
    """Write the filesystem image to build/rp2emu/ and return its path (`code`: see
    board_files)."""
    files = board_files(code)
    if with_tests:
        clash = set(files) & set(extra := test_files(code))
        if clash:
            raise Rp2emuError(f"test files would replace board files: {sorted(clash)}")
        files.update(extra)
    data = make_image(files)
    path = BUILD / (
        "fs-%s%s.img" % ("tests" if with_tests else "board", "" if code else "-nocode")
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return path


# --- what a module imports ---

_IMPORT = re.compile(r"^(?:from\s+([\w.]+)\s+import\s+(.*)|import\s+(.+))$")
PACKAGES = ("engine", "firmware", "tests", "tools")


def _source(module: str) -> Path | None:
    base = REPO_ROOT / module.replace(".", "/")
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imports(module: str) -> list[str]:
    """The repository modules `module` imports at its top level (not inside functions)."""
    path = _source(module)
    lines = path.read_text(encoding="utf-8").splitlines() if path else []
    found = []
    k = 0
    while k < len(lines):
        match = _IMPORT.match(lines[k])
        k += 1
        if match is None:
            continue
        if match.group(1):
            names = match.group(2)
            while names.startswith("(") and ")" not in names and k < len(lines):
                names += lines[k]
                k += 1
            found.append(match.group(1))
            for part in names.replace("(", " ").replace(")", " ").split(","):
                words = part.split("#")[0].split()
                if words:  # "name" or "name as alias"; a trailing comma leaves nothing
                    found.append(match.group(1) + "." + words[0])
        else:
            found += [name.split()[0] for name in match.group(3).split(",") if name.split()]
    return [m for m in found if m.split(".")[0] in PACKAGES and _source(m) is not None]


def import_order(module: str) -> list[str]:
    """`module` and the repository modules it imports at load time, each after its imports.

    Importing them in this order, with a collection after each, keeps a module's loading
    garbage from being interleaved with the next module's code (tests/test_pico.py).
    """
    order: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        parts = name.split(".")
        for k in range(1, len(parts)):  # a package is imported before its modules
            visit(".".join(parts[:k]))
        for dep in _imports(name):
            visit(dep)
        order.append(name)

    visit(module)
    return order


# --- running ---


def node_command(node: str | None = None) -> str:
    """The node executable, once the firmware, the boot ROM and rp2040js are all there."""
    node = node or shutil.which("node")
    if not node:
        raise Rp2emuError("the emulated Pico needs Node.js (18 or later) on PATH")
    if not (TOOLS / "node_modules" / PACKAGE / "package.json").is_file():
        raise Rp2emuError(f"{PACKAGE} is not installed: run `npm ci --prefix tools`")
    for path in (FIRMWARE, BOOTROM):
        if not path.is_file():
            raise Rp2emuError(f"{path} is missing (shared/ should be beside the checkout)")
    return node


def shipped_pico(with_tests: bool = True, **options) -> Pico:
    """A Pico running the shipped ROMFS firmware with this checkout's device code in its
    partition, as `host_tools flash` leaves a board (`with_tests`: see build_image)."""
    image = build_image(with_tests, code=False)
    return Pico(image, firmware=SHIPPED_ROMFS, romfs=romfs_part(), **options)


class Pico:
    """One emulated Pico (one Node process) that runs scripts one after another.

    `boot` holds the last boot record: emulated time to USB and to the raw REPL, what main.py
    printed before Ctrl-C stopped it, where the heap is (with `heap_watch`). `firmware` is
    another image for flash offset 0 than the stock one (a `make firmware` build or the
    shipped .uf2, say; give it a filesystem image made with `code=False` when the device code
    is frozen in it or in its ROMFS partition). `romfs`
    is (a ROMFS image, its partition's offset in flash) for a firmware built with a ROMFS
    partition. Use as a context manager, or call `close()`.
    """

    def __init__(
        self,
        image: Path | None = None,
        heap_watch: bool = False,
        firmware: Path | None = None,
        romfs: tuple[Path, int] | None = None,
    ) -> None:
        node = node_command()
        image = image or build_image()
        self.boot: dict = {}
        self.boots = 0
        self._index = 0
        self._proc = subprocess.Popen(
            [node, str(SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        config = {
            "bootrom": str(BOOTROM),
            "firmware": str(flash_file(firmware) if firmware else FIRMWARE),
            "image": str(image),
            "fs_offset": FS_OFFSET,
            "heap_watch": heap_watch,
        }
        if romfs:
            config.update({"romfs": str(romfs[0]), "romfs_offset": romfs[1]})
        self._send(config)

    def _send(self, message: dict) -> None:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(message) + "\n")
            self._proc.stdin.flush()
        except OSError:
            raise Rp2emuError(f"rp2emu.mjs is gone: {self._stderr()}") from None

    def _stderr(self) -> str:
        if self._proc.poll() is None or self._proc.stderr is None:
            return ""
        return "\n".join(self._proc.stderr.read().splitlines()[-20:])

    def run(
        self,
        code: str,
        max_cycles: int = DEFAULT_CYCLES,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        gpio: list[tuple[int, int, int]] | None = None,
    ) -> Result:
        """Run `code` (start it with `prelude()`) after a soft reset; wait for its end.
        `gpio`: (microseconds after the code is sent, pin, level) of input pins to set, as
        a button would (see rp2emu.mjs: an input reads low until a level is set)."""
        script: dict = {"code": code, "max_cycles": int(max_cycles), "timeout_s": timeout_s}
        if gpio:
            script["gpio"] = [list(event) for event in gpio]
        self._send(script)
        index = self._index
        self._index += 1
        assert self._proc.stdout is not None
        # rp2emu.mjs stops the script itself at `timeout_s` and then answers: the read ends.
        for line in self._proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = event.get("ev")
            if kind == "boot":
                self.boot = event
                self.boots += 1
            elif kind == "error":
                raise Rp2emuError(event.get("error", "?"))
            elif kind == "result" and event.get("index") == index:
                fields = {k: event.get(k) for k in Result._fields}
                for key, zero in (("cycles", 0), ("us", 0), ("wall_s", 0.0)):
                    fields[key] = fields[key] or zero
                for key in ("stdout", "stderr"):  # the REPL ends its lines with \r\n
                    fields[key] = (fields[key] or "").replace("\r\n", "\n")
                return Result(**fields)
        raise Rp2emuError(f"rp2emu.mjs ended without an answer\n{self._stderr()}")

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.close()
                self._proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def run(
    code: str,
    *,
    max_cycles: int = DEFAULT_CYCLES,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    image: Path | None = None,
    heap_watch: bool = False,
) -> Result:
    """Run one script (start it with `prelude()`) on a freshly booted emulated Pico."""
    with Pico(image, heap_watch) as pico:
        return pico.run(code, max_cycles, timeout_s)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.rp2emu", description="Run code on an emulated Pico."
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", help="Python file to run")
    source.add_argument("-c", dest="code", help="code string to run")
    parser.add_argument("--cycles", type=float, default=DEFAULT_CYCLES, help="cycle budget")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="wall seconds")
    parser.add_argument("--heap", action="store_true", help="watch the lowest free heap")
    args = parser.parse_args(argv)
    code = args.code if args.code is not None else Path(args.file).read_text(encoding="utf-8")
    try:
        with Pico(heap_watch=args.heap) as pico:
            result = pico.run(prelude() + code, int(args.cycles), args.timeout)
            boot = pico.boot
    except Rp2emuError as exc:
        print(f"rp2emu: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    if result.stopped != "done":
        sys.stderr.write(f"[rp2emu] stopped: {result.stopped}\n")
    sys.stderr.write(
        f"[rp2emu] {result.cycles:,} cycles, {result.us:,} us emulated, "
        f"{result.wall_s:.1f} s wall (boot: {boot.get('wall_s', 0):.1f} s)\n"
    )
    if result.heap_low is not None:
        sys.stderr.write(f"[rp2emu] lowest free heap after a collection: {result.heap_low:,} B\n")
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
