"""`python -m host_tools flash --romfs`, and flash on a firmware with the device code frozen.

The ROMFS image is built from the tree with mpremote's own romfs code (host_tools.flash
.romfs_image), then read back three ways: by `read_romfs` below, which follows the format as
extmod/vfs_rom.c reads it; by MicroPython 1.27 itself (the WASI build, whose `vfs.VfsRom`
mounts it at /rom and imports the engine from it, bytecode in place); and after mpremote's
`romfs deploy` code has written it into a board's partition.

The board is tests/repl_harness.py's REPL twin with what the rp2 port adds on a firmware built
with MICROPY_HW_ROMFS_BYTES (ports/rp2/rp2_flash.c, extmod/modvfs.c): `vfs.rom_ioctl` whose
segment 0 is an `rp2.Flash` object over the partition (ioctl 4 and 5: block count and size,
6: erase a block; writeblocks; readable through the buffer protocol). On a stock firmware
`vfs` has no `rom_ioctl`; a frozen firmware finds `engine` with '.frozen' alone on sys.path.
The harness's boot finds firmware/main.mpy as MicroPython's import does with sys.path
['', '.frozen', '/rom', ...] (py/runtime.c, extmod/vfs.c): the filesystem first.
"""

import ast
import contextlib
import hashlib
import io
import re
import shutil
import types

import pytest

from host_tools import flash
from host_tools.__main__ import main
from host_tools.repl_twin import ReplTwin
from tests import repl_harness
from tests.repl_harness import Board
from tools.mpyrun import REPO_ROOT

KB = 1024
ROMFS_BYTES = 224 * KB  # deploy/boards/SMARTBOARD_PICO, variant ROMFS
RECORD_FILESYSTEM, RECORD_VERBATIM, RECORD_POINTER, RECORD_DIR, RECORD_FILE = (
    0x14A6B1,
    2,
    3,
    4,
    5,
)


def read_romfs(data):
    """{path: bytes} of every file of a ROMFS image, read as extmod/vfs_rom.c reads it:
    varuints big-endian 7 bits a byte; records of (kind, length, payload); the filesystem
    record 0x14A6B1 around directories (4) and files (5), whose data is verbatim (2) or a
    pointer (3: size, offset from the start of the filesystem's payload); other kinds skipped."""
    data = bytes(data)

    def uint(pos, end):
        value = 0
        while True:
            if pos >= end:
                raise ValueError("a varuint runs past its record at %d" % pos)
            byte = data[pos]
            pos += 1
            value = value << 7 | byte & 0x7F
            if not byte & 0x80:
                return value, pos

    def record(pos, end):
        kind, pos = uint(pos, end)
        length, pos = uint(pos, end)
        if pos + length > end:
            raise ValueError("a record runs past its parent at %d" % pos)
        return kind, pos, pos + length

    kind, top, end = record(0, len(data))
    if kind != RECORD_FILESYSTEM:
        raise ValueError("not a ROMFS image")
    files = {}

    def file_data(pos, end):
        while pos < end:
            kind, start, pos = record(pos, end)
            if kind == RECORD_VERBATIM:
                return data[start:pos]
            if kind == RECORD_POINTER:
                size, at = uint(start, pos)
                offset, _ = uint(at, pos)
                return data[top + offset : top + offset + size]
        raise ValueError("a file without data")

    def folder(pos, end, prefix):
        while pos < end:
            kind, start, pos = record(pos, end)
            if kind in (RECORD_DIR, RECORD_FILE):
                size, at = uint(start, pos)
                name = data[at : at + size].decode("ascii")
                if kind == RECORD_DIR:
                    folder(at + size, pos, prefix + name + "/")
                else:
                    files[prefix + name] = file_data(at + size, pos)

    folder(top, end, "")
    return files, end


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(build folder, items, ROMFS image) of the tree, built once."""
    build_dir = tmp_path_factory.mktemp("build")
    items = flash.build(REPO_ROOT, build_dir)
    return build_dir, items, flash.romfs_image(items, build_dir)


def test_the_romfs_image_holds_every_compiled_module_as_built(built):
    build_dir, items, image = built
    assert image[:3] == b"\xd2\xcd\x31"  # "RM1" with the first two high bits set
    assert (build_dir / flash.ROMFS_IMAGE).read_bytes() == image
    files, end = read_romfs(image)
    assert end == len(image) and len(image) % 2 == 0  # vfs_rom.c: the record's size is even
    code = {item.path: item.data for item in items if flash.is_code(item)}
    assert files == code  # every module, its bytes as mpy-cross made them (MPY_CROSS_FLAGS)
    assert {path[:-4] + ".py" for path in files} == {
        path for path in (p for _, p in flash.manifest_modules(REPO_ROOT)) if path != "main.py"
    }
    assert all(data[:2] == b"M\x06" for data in files.values())


def test_every_import_of_the_device_code_resolves_in_the_image(built):
    """Each module a device file imports from engine/ or firmware/ is in the image, as a module
    or a package; a name imported from a package is a module of it or defined in __init__."""
    image = built[2]
    files, _ = read_romfs(image)
    modules = {path[:-4].replace("/", ".").removesuffix(".__init__") for path in files}
    packages = {p for p in modules if any(m.startswith(p + ".") for m in modules)}
    checked = 0
    for source, _ in flash.manifest_modules(REPO_ROOT):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
                if node.module in packages:
                    names += [node.module + "." + a.name for a in node.names]
            for name in names:
                if name.split(".")[0] not in ("engine", "firmware"):
                    continue
                checked += 1
                defined = name.rpartition(".")[0] in packages and _defined_in_init(
                    files, name.rpartition(".")[0], name.rpartition(".")[2]
                )
                assert name in modules or defined, (source.name, name)
    assert checked > 50


def _defined_in_init(files, package, name):
    init = REPO_ROOT / (package.replace(".", "/") + "/__init__.py")
    return init.is_file() and re.search(r"\b%s\b" % re.escape(name), init.read_text())


def test_micropython_mounts_the_image_and_runs_the_engine_from_it(built, tmp_path):
    """MicroPython 1.27's own VfsRom reads the image: every file with its size, and the engine
    imported from /rom scores the rulebook's first move."""
    from tools import mpyrun

    _, items, image = built
    (tmp_path / "romfs.img").write_bytes(image)
    shutil.copy(REPO_ROOT / "hardware/profiles/calculissimo.json", tmp_path / "calc.json")
    code = mpyrun.prelude() + (
        "import os, sys, vfs\n"
        "vfs.mount(vfs.VfsRom(open('/input/romfs.img', 'rb').read()), '/rom')\n"
        "def walk(folder):\n"
        "    for name, kind, *_ in os.ilistdir(folder):\n"
        "        path = folder + '/' + name\n"
        "        if kind == 0x4000:\n"
        "            walk(path)\n"
        "        else:\n"
        "            print('FILE', path, os.stat(path)[6])\n"
        "walk('/rom')\n"
        "sys.path[:] = ['/rom']\n"
        "import engine.game, engine.profile, json\n"
        "print('FROM', engine.game.__file__)\n"
        "p = engine.profile.Profile(json.load(open('/input/calc.json')))\n"
        "g = engine.game.Game(p, 4)\n"
        "print('SCORE', g.play(g.move('D8:9 E8:+ F8:6 G8:÷ H8:2')).score)\n"
    )
    result = mpyrun.run(code, mount=tmp_path, heap="8M")
    assert result.ok, result.describe()
    lines = result.stdout.splitlines()
    listed = {line.split()[1]: int(line.split()[2]) for line in lines if line.startswith("FILE")}
    code_sizes = {"/rom/" + item.path: item.size for item in items if flash.is_code(item)}
    assert listed == code_sizes
    assert "FROM /rom/engine/game.mpy" in lines and "SCORE 48" in lines


# --- flash --romfs on a board ---


class Partition(bytearray):
    """ROMFS partition 0 as ports/rp2/rp2_flash.c gives it: an rp2.Flash object."""

    def __init__(self, size):
        super().__init__(b"\xff" * size)
        self.erased = 0

    def ioctl(self, op, arg):
        if op == 4:  # MP_BLOCKDEV_IOCTL_BLOCK_COUNT
            return len(self) // 4096
        if op == 5:  # MP_BLOCKDEV_IOCTL_BLOCK_SIZE
            return 4096
        if op == 6:  # MP_BLOCKDEV_IOCTL_BLOCK_ERASE
            self[arg * 4096 : (arg + 1) * 4096] = b"\xff" * 4096
            self.erased += 1
            return 0
        return None

    def writeblocks(self, block, buf, offset=None):
        if offset is None:  # three arguments: erase first
            self.ioctl(6, block)
        start = block * 4096 + (offset or 0)
        old = self[start : start + len(buf)]
        self[start : start + len(buf)] = bytes(a & b for a, b in zip(old, buf))  # NOR flash


def twin_class(romfs_bytes=ROMFS_BYTES, frozen=False):
    class Rp2Twin(ReplTwin):
        def __init__(self, root, **options):
            self.partition = Partition(romfs_bytes) if romfs_bytes else None
            self.frozen = frozen
            self.umounts = 0
            super().__init__(root, **options)

        def _modules(self):
            modules = super()._modules()
            vfs = types.SimpleNamespace(umount=self._umount)
            if self.partition is not None:
                vfs.rom_ioctl = self._rom_ioctl
            modules["vfs"] = vfs
            return modules

        def _umount(self, path):
            self.umounts += 1

        def _rom_ioctl(self, op, *args):
            if op == 1:
                return 1
            if op == 2 and args == (0,):
                return self.partition
            return -22  # -MP_EINVAL

        def _import(self, name, globals=None, locals=None, fromlist=(), level=0):
            if name == "engine" and self.frozen and self.modules["sys"].path == [".frozen"]:
                return types.SimpleNamespace(__file__=".frozen/engine/__init__.py")
            return super()._import(name, globals, locals, fromlist, level)

    return Rp2Twin


class Rp2Board(Board):
    """The harness's board; firmware/main.mpy is found on the filesystem, frozen or in /rom."""

    def _firmware_main(self):
        if (self.root / "firmware").exists() or not (self.twin.frozen or self.twin.partition):
            return super()._firmware_main()
        if not self.twin.frozen:
            files, _ = read_romfs(self.twin.partition)
            if files.get("firmware/main.mpy", b"")[:2] != b"M\x06":
                raise ImportError("no module named 'firmware.main'")
        return types.SimpleNamespace(main=self._firmware)


@pytest.fixture
def rp2_board(monkeypatch):
    def make(root, romfs_bytes=ROMFS_BYTES, frozen=False, **options):
        monkeypatch.setattr(repl_harness, "ReplTwin", twin_class(romfs_bytes, frozen))
        return Rp2Board(root, **options)

    return make


def cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def board_files(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def data_files(items):
    return sorted(item.path for item in items if not flash.is_code(item))


def test_romfs_flash_deploys_the_image_and_copies_only_the_other_files(built, rp2_board, tmp_path):
    build_dir, items, image = built
    root = tmp_path / "board"
    with rp2_board(root) as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--romfs", "--build-dir", str(build_dir)
        )
        twin = board.twin
    assert status == 0, err
    # mpremote's romfs deploy wrote the image, erased first, after unmounting /rom.
    assert bytes(twin.partition[: len(image)]) == image
    assert twin.partition.erased == -(-len(image) // 4096) and twin.umounts == 1
    assert set(twin.partition[len(image) : -(-len(image) // 4096) * 4096]) <= {0}  # padding
    assert board_files(root) == data_files(items)  # no code on the filesystem, no marker
    assert "deploy romfs.img (%s bytes) to /rom" % f"{len(image):,}" in err
    assert (
        "deployed the ROMFS image: %s bytes in the 229,376-byte partition, mounted at /rom"
        % f"{len(image):,}"
    ) in out
    assert "checked %d files, copied %d" % ((len(data_files(items)),) * 2) in out
    assert board.started == 1 and "board booted: game calculissimo, sensor nfc" in out

    # Again: the partition holds the image, nothing to do.
    with rp2_board(root) as board:
        board.twin.partition[:] = twin.partition
        status, out, err = cli(
            "flash", "--port", board.path, "--romfs", "--build-dir", str(build_dir)
        )
        assert board.twin.partition.erased == 0 and board.twin.writes == 0
    assert status == 0, err
    assert "the board's ROMFS partition holds this image already" in out
    assert "copied 0 (0 bytes)" in out and "board booted" in out


def test_romfs_flash_takes_the_code_a_plain_flash_left_off_the_filesystem(
    built, rp2_board, tmp_path
):
    build_dir, items, image = built
    root = tmp_path / "board"
    with rp2_board(root) as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--files", "--build-dir", str(build_dir)
        )
        assert status == 0, err
        assert "--files: the code goes on the filesystem" in out
        assert flash.STOCK_NOTE not in out
        assert board.twin.partition.erased == 0
    code = sorted(item.path for item in items if flash.is_code(item))
    assert set(code) <= set(board_files(root))
    (root / "firmware" / "stale.py").write_text("")
    before = {p: (root / p).read_bytes() for p in board_files(root)}

    with rp2_board(root) as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--romfs", "--dry-run", "--build-dir", str(build_dir)
        )
        assert board.started == 0 and board.twin.partition.erased == 0  # not restarted
    assert status == 0, err
    lines = out.splitlines()
    assert "would remove engine/game.mpy (it would hide /rom)" in lines
    assert "would remove firmware/stale.py (it would hide /rom)" in lines
    assert lines.count("would remove folder firmware") == 1
    assert lines.index("would remove folder firmware/drivers") < lines.index(
        "would remove folder firmware"
    )
    assert "would deploy the ROMFS image: %s bytes" % f"{len(image):,}" in out
    assert lines[-2:] == [
        "dry run: checked %d files, would copy 0 (0 bytes)" % len(data_files(items)),
        "the board is left at its REPL, not restarted: a reset starts its program",
    ]
    assert {p: (root / p).read_bytes() for p in board_files(root)} == before

    with rp2_board(root) as board:  # a plain flash now: the partition is the default
        status, out, err = cli("flash", "--port", board.path, "--build-dir", str(build_dir))
    assert status == 0, err
    assert "the firmware has a ROMFS partition: the code goes there, run from flash" in out
    assert "deployed the ROMFS image" in out
    assert "removed %d code files (it would hide /rom)" % (len(code) + 1) in out
    assert board_files(root) == data_files(items)
    assert not (root / "engine").exists() and not (root / "firmware").exists()
    assert "board booted: game calculissimo, sensor nfc" in out


def test_romfs_flash_refuses_a_firmware_without_a_romfs_partition(built, rp2_board, tmp_path):
    build_dir, _, _ = built
    with rp2_board(tmp_path / "board", romfs_bytes=0) as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--romfs", "--build-dir", str(build_dir)
        )
        assert board.twin.writes == 0 and board.started == 0
    assert status == 2 and out == ""
    assert err.startswith("flash: the firmware on the board has no ROMFS partition")
    assert "make firmware MICROPY_DIR=... BOARD_VARIANT=ROMFS" in err
    assert "`python -m host_tools firmware`" in err
    assert board_files(tmp_path / "board") == []


def test_romfs_flash_refuses_an_image_bigger_than_the_partition(built, rp2_board, tmp_path):
    build_dir, _, image = built
    with rp2_board(tmp_path / "board", romfs_bytes=64 * KB) as board:
        status, _, err = cli(
            "flash", "--port", board.path, "--romfs", "--build-dir", str(build_dir)
        )
    assert status == 2
    assert (
        "the ROMFS image is %s bytes, more than the board's 65,536-byte" % f"{len(image):,}" in err
    )
    with rp2_board(tmp_path / "board", romfs_bytes=64 * KB) as board:
        status, _, err = cli("flash", "--port", board.path, "--build-dir", str(build_dir))
        assert board.twin.writes == 0 and board.started == 0
    assert status == 2 and "flash --files copies the .mpy files instead" in err


def test_romfs_and_files_together_are_refused_before_the_board_is_asked():
    status, out, err = cli("flash", "--port", "/dev/null-none", "--romfs", "--files")
    assert status == 2 and out == ""
    assert err == "flash: --romfs and --files contradict each other: give one\n"


def test_a_frozen_firmware_gets_only_the_other_files_and_refuses_romfs(built, rp2_board, tmp_path):
    build_dir, items, _ = built
    root = tmp_path / "board"
    (root / "engine").mkdir(parents=True)
    (root / "engine" / "game.mpy").write_bytes(b"M\x06old")
    with rp2_board(root, romfs_bytes=0, frozen=True) as board:
        status, out, err = cli("flash", "--port", board.path, "--build-dir", str(build_dir))
        assert board.started == 1
    assert status == 0, err
    assert "the firmware has the device code frozen in it: only the other files are copied" in out
    assert flash.STOCK_NOTE not in out
    assert "removed 1 code files (it would hide the frozen modules)" in out
    assert board_files(root) == data_files(items)
    with rp2_board(root, frozen=True) as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--romfs", "--build-dir", str(build_dir)
        )
    assert status == 2
    assert "has the device code frozen in it, and frozen modules come before /rom" in err


def test_a_code_folder_holding_other_files_is_not_emptied_blindly(built, rp2_board, tmp_path):
    build_dir, _, _ = built
    root = tmp_path / "board"
    (root / "firmware").mkdir(parents=True)
    (root / "firmware" / "notes.txt").write_text("mine")
    with rp2_board(root) as board:
        status, _, err = cli(
            "flash", "--port", board.path, "--romfs", "--build-dir", str(build_dir)
        )
    assert status == 2
    assert "folder firmware holds notes.txt besides device code" in err
    assert board_files(root) == ["firmware/notes.txt"]


def test_the_probe_runs_on_micropython(tmp_path):
    """The firmware question flash asks, on MicroPython 1.27 (WASI: no frozen engine, and a
    `vfs` without rom_ioctl, as on a stock rp2 firmware); sys.path is left as it was."""
    from tools import mpyrun

    code = mpyrun.prelude() + (
        "import sys\nbefore = list(sys.path)\n"
        + flash.PROBE % 1000
        + "print(sys.path == before, 'engine' in sys.modules)\n"
    )
    result = mpyrun.run(code, mount=tmp_path, heap="8M")
    assert result.ok, result.describe()
    assert result.stdout.splitlines() == ["[0, 0, '']", "True False"]


def test_the_probe_reads_a_partition_hash(tmp_path):
    twin = twin_class()(str(tmp_path))
    twin.partition[:4] = b"\xd2\xcd\x31\x00"
    twin.feed(b"\x01")
    reply = twin.feed((flash.PROBE % 4).encode() + b"\x04")
    digest = hashlib.sha256(b"\xd2\xcd\x31\x00").hexdigest()
    assert reply == b"OK[0, 229376, '%s']\r\n\x04\x04>" % digest.encode()
