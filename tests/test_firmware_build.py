"""`make firmware` and the board definition it builds, as far as a machine without a MicroPython
checkout or an ARM compiler can check them: the manifest against the tree, the board's flash
layout, the ROMFS image against its partition, and the Makefile target against a stand-in
checkout whose make files record how they are called (deploy/README.md has the real steps)."""

import os
import shutil
import subprocess

import pytest

from deploy import layout
from host_tools import flash
from tests.test_manifest import device_files, listed
from tools.mpyrun import REPO_ROOT

BOARD = REPO_ROOT / "deploy" / "boards" / "SMARTBOARD_PICO"
KB = 1024


def test_the_manifest_freezes_exactly_the_device_files_flash_compiles():
    frozen = listed()
    assert sorted(set(frozen)) == sorted(frozen), "a file is listed twice"
    assert set(frozen) == device_files() | {"main.py"}
    for path in frozen:
        source = REPO_ROOT / ("deploy/main.py" if path == "main.py" else path)
        assert source.is_file(), path
    # host_tools flash reads the same manifest: what it compiles is what is frozen.
    modules = flash.manifest_modules(REPO_ROOT)
    assert [path for _, path in modules] == frozen


def test_the_board_definition_is_the_picos_with_the_stock_filesystem():
    names = {p.name for p in BOARD.iterdir()}
    assert {"mpconfigboard.h", "mpconfigboard.cmake", "mpconfigvariant_ROMFS.cmake"} <= names
    cmake = (BOARD / "mpconfigboard.cmake").read_text()
    assert 'set(PICO_BOARD "pico")' in cmake and 'set(PICO_PLATFORM "rp2040")' in cmake
    frozen = layout.layout(BOARD)
    romfs = layout.layout(BOARD, "ROMFS")
    # The filesystem is RPI_PICO's (../shared/rp2/README.md: 352 blocks of 4 KB from 0xA0000)
    # in both images, so a board keeps its files whichever firmware it runs.
    assert frozen["filesystem"] == romfs["filesystem"] == (0xA0000, 1408 * KB)
    assert frozen["romfs"][1] == 0 and frozen["firmware"] == (0, 640 * KB)
    assert romfs["romfs"] == (0x68000, 224 * KB) and romfs["firmware"] == (0, 416 * KB)
    assert layout.board_defines(BOARD, "ROMFS")["MICROPY_HW_BOARD_NAME"].endswith('ROMFS"')
    assert layout.describe(BOARD, "ROMFS").splitlines() == [
        "firmware   0x000000-0x068000   416 KB",
        "romfs      0x068000-0x0A0000   224 KB",
        "filesystem 0x0A0000-0x200000  1408 KB",
    ]


def test_the_romfs_image_of_the_device_code_fits_its_partition_with_room(tmp_path):
    items = flash.build(REPO_ROOT, tmp_path)
    image = flash.romfs_image(items, tmp_path)
    code = sum(item.size for item in items if flash.is_code(item))
    partition = layout.layout(BOARD, "ROMFS")["romfs"][1]
    assert code < len(image) < code + 4 * KB  # names and record headers only
    assert len(image) < 0.75 * partition, "the ROMFS partition is nearly full: make it larger"
    print("ROMFS image %d bytes in a %d-byte partition" % (len(image), partition))


def test_the_stock_image_fits_below_the_romfs_partition(tmp_path):
    # The stock v1.27.0 RPI_PICO image (../shared/rp2) is the ROMFS variant less a few bytes.
    stock = REPO_ROOT.parent / "shared" / "rp2" / "micropython-v1.27.0-RPI_PICO.bin"
    if not stock.is_file():
        pytest.skip("../shared/rp2 is not beside the checkout")
    size, left = layout.check_image(stock, BOARD, "ROMFS")
    assert left > 64 * KB, (size, left)


def test_layout_refuses_an_image_too_big_and_a_bad_board(tmp_path):
    big = tmp_path / "firmware.bin"
    big.write_bytes(b"\0" * (416 * KB + 1))
    with pytest.raises(layout.LayoutError, match="1 more than the 425,984 bytes below the ROMFS"):
        layout.check_image(big, BOARD, "ROMFS")
    assert layout.check_image(big, BOARD) == (416 * KB + 1, 224 * KB - 1)
    board = tmp_path / "board"
    board.mkdir()
    (board / "mpconfigboard.h").write_text(
        "#if FOO\n#define MICROPY_HW_FLASH_STORAGE_BYTES (1000)\n#else\n"
        "#define MICROPY_HW_FLASH_STORAGE_BYTES (SIZE * 1024) // as C: expanded when used\n"
        "#endif\n#define SIZE 1024\n"
    )
    assert layout.layout(board)["filesystem"] == (1024 * KB, 1024 * KB)
    (board / "mpconfigboard.h").write_text("#define MICROPY_HW_FLASH_STORAGE_BYTES (N * 4096)\n")
    with pytest.raises(layout.LayoutError, match="cannot work out"):
        layout.layout(board)
    (board / "mpconfigboard.h").write_text("#define MICROPY_HW_FLASH_STORAGE_BYTES (1000)\n")
    with pytest.raises(layout.LayoutError, match="not a multiple of 4 KB"):
        layout.layout(board)
    with pytest.raises(layout.LayoutError, match="no variant NOPE"):
        layout.layout(BOARD, "NOPE")
    status = layout.main(["--variant", "ROMFS", "--check", str(big), str(BOARD)])
    assert status == 1


# --- the Makefile's firmware target ---


def make(*args, cwd=REPO_ROOT):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="no make")


@needs_make
def test_make_firmware_without_a_micropython_checkout_says_what_it_needs(tmp_path):
    for args in ((), ("MICROPY_DIR=",)):
        proc = make("-n", "firmware", *args)
        assert proc.returncode == 2
        assert "make firmware needs MICROPY_DIR=/path/to/micropython" in proc.stderr
        assert proc.stdout == ""
    proc = make("-n", "firmware", "MICROPY_DIR=%s" % tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "MICROPY_DIR=%s is not a MicroPython checkout" % tmp_path in proc.stderr
    checkout = fake_checkout(tmp_path / "micropython")
    proc = make("-n", "firmware", "MICROPY_DIR=%s" % checkout, "BOARD=NOPE")
    assert proc.returncode == 2
    assert "there is no board definition deploy/boards/NOPE/mpconfigboard.h" in proc.stderr


# Stand-ins for MicroPython's mpy-cross/Makefile and ports/rp2/Makefile: each call is logged
# with the variables the rp2 port's Makefile reads, and the build writes what a build writes.
FAKE_MPY_CROSS = """\
all:
\t@echo "mpy-cross BUILD=$(BUILD)" >> ../calls.log
"""
FAKE_RP2 = """\
BOARD ?= RPI_PICO
BUILD ?= build-$(BOARD)
all:
\t@echo "rp2 all BOARD=$(BOARD) BOARD_DIR=$(BOARD_DIR) BOARD_VARIANT=$(BOARD_VARIANT)\
 FROZEN_MANIFEST=$(FROZEN_MANIFEST) BUILD=$(BUILD)" >> ../../calls.log
\t@mkdir -p $(BUILD)
\t@head -c $(SIZE) /dev/zero > $(BUILD)/firmware.bin
\t@echo uf2 > $(BUILD)/firmware.uf2
submodules:
\t@echo "rp2 submodules BOARD_DIR=$(BOARD_DIR) BUILD=$(BUILD)" >> ../../calls.log
"""


def fake_checkout(root, size=400 * KB):
    (root / "mpy-cross").mkdir(parents=True)
    (root / "ports" / "rp2").mkdir(parents=True)
    (root / "mpy-cross" / "Makefile").write_text(FAKE_MPY_CROSS)
    (root / "ports" / "rp2" / "Makefile").write_text(FAKE_RP2.replace("$(SIZE)", str(size)))
    return root


@needs_make
@pytest.mark.parametrize("variant", ["", "ROMFS"], ids=["frozen", "romfs"])
def test_make_firmware_builds_the_board_in_the_checkout_and_copies_the_image(tmp_path, variant):
    checkout = fake_checkout(tmp_path / "micropython")
    out = tmp_path / "out"
    args = ["firmware", "MICROPY_DIR=%s" % checkout, "BUILD=%s" % out]
    if variant:
        args.append("BOARD_VARIANT=ROMFS")
    proc = make(*args)
    assert proc.returncode == 0, proc.stderr
    name = "SMARTBOARD_PICO" + ("-ROMFS" if variant else "")
    manifest = "" if variant else str(REPO_ROOT / "deploy" / "manifest.py")
    assert (checkout / "calls.log").read_text().splitlines() == [
        "mpy-cross BUILD=build",
        "rp2 submodules BOARD_DIR=%s BUILD=build-%s" % (BOARD, name),
        "rp2 all BOARD=SMARTBOARD_PICO BOARD_DIR=%s BOARD_VARIANT=%s FROZEN_MANIFEST=%s"
        " BUILD=build-%s" % (BOARD, variant, manifest, name),
    ]
    assert (out / "firmware" / (name + ".uf2")).read_text() == "uf2\n"
    assert (out / "firmware" / (name + ".bin")).stat().st_size == 400 * KB
    spare = (640 if not variant else 416) * KB - 400 * KB
    assert "firmware.bin: 409,600 bytes, %s bytes to spare" % f"{spare:,}" in proc.stdout
    assert "built %s/firmware/%s.uf2" % (out, name) in proc.stdout


@needs_make
def test_make_firmware_refuses_an_image_that_runs_into_the_romfs_partition(tmp_path):
    checkout = fake_checkout(tmp_path / "micropython", size=500 * KB)
    out = tmp_path / "out"
    proc = make("firmware", "MICROPY_DIR=%s" % checkout, "BOARD_VARIANT=ROMFS", "BUILD=%s" % out)
    assert proc.returncode == 2
    assert "layout: " in proc.stderr and "below the ROMFS partition" in proc.stderr
    assert not (out / "firmware").exists()
