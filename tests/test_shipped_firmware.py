"""The ROMFS firmware the repository ships (deploy/firmware/, deploy/ship.py) and the command
that puts it on a Pico in BOOTSEL mode (`host_tools firmware`, host_tools/bootsel.py).

The image is checked as the Pico's boot ROM would take it, against its record (BUILT.json)
and against the board definition it was built from; then booted on the emulated RP2040 with
this checkout's code in its ROMFS partition, as `host_tools flash` leaves a board.
The command is tested on folders laid out as the boot ROM's USB drive is (INFO_UF2.TXT)."""

import hashlib
import io
import json
import os
import struct
import types

import pytest

from deploy import layout, ship
from host_tools import bootsel, cmd_firmware, uf2
from tests.test_picoplay import require_pico
from tools import picobench, rp2emu

FOLDER = ship.OUT
# INFO_UF2.TXT as the RP2040's boot ROM (B1, ../shared/rp2/rp2040-bootrom-B1.bin) gives it.
RP2040_INFO = "UF2 Bootloader v2.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"


def built():
    return json.loads((FOLDER / "BUILT.json").read_text(encoding="utf-8"))


def test_the_shipped_image_is_the_one_recorded_and_a_whole_rp2040_firmware(tmp_path):
    record = built()
    data = (FOLDER / record["image"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == record["sha256"]
    assert len(data) == record["bytes"]
    flash = uf2.image(data)
    assert record["board"] == ship.BOARD and record["variant"] == "ROMFS"
    assert record["sources"]["micropython"]["describe"] == "v1.27.0"
    # it fits below the ROMFS partition it leaves for the code (deploy/layout.py's check)
    (tmp_path / "firmware.bin").write_bytes(flash)
    size, room = layout.check_image(tmp_path / "firmware.bin", variant="ROMFS")
    assert size == len(flash) and room > 32 * 1024
    # MicroPython's reset vector table follows the boot stage 2 (256 bytes at the start)
    sp, reset = struct.unpack_from("<II", flash, 0x100)
    assert 0x20000000 < sp <= 0x20042000 and 0x10000100 < reset < 0x10000000 + len(flash)
    for name, _, _ in ship.SOURCES:  # the licence of each source built into it
        assert (FOLDER / "licenses" / (name + ".txt")).stat().st_size > 500, name


def test_the_board_definition_is_the_one_the_image_was_built_from():
    """Change deploy/boards/SMARTBOARD_PICO and this fails until the image is built again:
    make firmware MICROPY_DIR=... BOARD_VARIANT=ROMFS, then make ship-firmware
    (deploy/README.md)."""
    assert ship.board_files() == built()["board_files"], (
        "deploy/boards/%s changed since the shipped firmware was built: build it again"
        " (make firmware MICROPY_DIR=... BOARD_VARIANT=ROMFS; make ship-firmware MICROPY_DIR=...)"
        % ship.BOARD
    )


def test_the_board_boots_on_the_shipped_firmware_with_its_code_in_the_romfs_partition():
    """main.py, firmware/main.py and the rp2 backend's build(), the code read from /rom.
    Measured 2026-11-29: 116,000 B free after the boot against 107,632 B on the stock image
    (the firmware's own modules; the search's code, loaded at a think, is where the two
    differ most: 8.7 KB of heap from ROMFS, 32-43 KB from .mpy files)."""
    require_pico()
    with rp2emu.shipped_pico(with_tests=False) as pico:
        result = pico.run(
            "import sys\nfrom firmware import computer\n"
            "print('MACHINE', sys.implementation._machine)\n"
            "print('FILE', computer.__file__)\n"
        )
        said = pico.boot.get("main_said") or ""
    assert result.ok, result.describe()
    assert "MACHINE Smart game board Pico ROMFS with RP2040" in result.stdout
    assert "FILE /rom/firmware/computer.mpy" in result.stdout
    assert '"game": "calculissimo", "sensor": "nfc"' in said, said
    # the boot event's free heap, beside the stock image's (make bench's figures)
    heap = picobench.board_boot()
    assert heap["romfs"] == picobench.boot_free(said)
    assert heap["romfs"] > heap["firmware"] + 4096, heap


# --- the command ---


def drive(root, name="RPI-RP2", info=RP2040_INFO):
    path = root / name
    path.mkdir(parents=True)
    (path / bootsel.INFO).write_text(info, encoding="ascii")
    return path


def firmware(argv_drive=None, dry_run=False, save=None, roots=(), folder=None, port=None):
    """The command, with no board found on USB unless `port` is given (a test must never
    restart a real Pico that happens to be plugged in)."""
    args = types.SimpleNamespace(drive=argv_drive, dry_run=dry_run, save=save, port=port)
    out, err = io.StringIO(), io.StringIO()
    status = cmd_firmware.run(
        args,
        out=out,
        err=err,
        roots=list(roots),
        folder=folder,
        find_port=lambda: None,
        wait_s=0.5,
        sleep=lambda s: None,
    )
    return status, out.getvalue(), err.getvalue()


def test_the_command_copies_the_image_onto_the_pico_it_finds(tmp_path):
    pico = drive(tmp_path / "media")
    drive(tmp_path / "media", "USBSTICK", info="")  # a drive without a Board-ID line
    (tmp_path / "media" / "photos").mkdir()  # a folder that is no drive
    status, out, err = firmware(roots=[tmp_path / "media"])
    assert (status, err) == (0, "")
    assert (pico / ship.NAME).read_bytes() == (FOLDER / ship.NAME).read_bytes()
    assert out.rstrip().endswith("Next: python -m host_tools flash")


def test_the_command_runs_from_any_folder(tmp_path):
    import subprocess
    import sys

    pico = drive(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "firmware", "--drive", str(pico), "--dry-run"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ship.REPO)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    assert result.stdout.startswith("would copy %s (MicroPython v1.27.0" % ship.NAME)


def test_a_drive_that_vanishes_as_the_copy_ends_is_a_copy_that_took(tmp_path, monkeypatch):
    """The boot ROM restarts once it has the last block; the system may then fail the flush.
    A copy cut before the end, the drive still there, is an error."""
    import shutil

    pico = drive(tmp_path)
    real_fsync = os.fsync

    def vanish(fd):
        real_fsync(fd)
        shutil.rmtree(pico)  # the Pico restarted: its drive is gone
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(bootsel.os, "fsync", vanish)
    status, out, err = firmware(roots=[tmp_path])
    assert (status, err) == (0, "") and out.startswith("copied")
    pico = drive(tmp_path)

    def fail(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(bootsel.os, "fsync", fail)
    status, _, err = firmware(roots=[tmp_path])
    assert status == 2 and "the copy to %s stopped (Input/output error)" % pico in err


def test_a_dry_run_or_a_save_writes_nothing_on_the_drive(tmp_path):
    pico = drive(tmp_path)
    status, out, _ = firmware(dry_run=True, roots=[tmp_path])
    assert status == 0 and out.startswith("would copy %s" % ship.NAME)
    status, out, _ = firmware(save=str(tmp_path / "copy.uf2"), roots=[tmp_path])
    assert status == 0 and "saved" in out
    assert (tmp_path / "copy.uf2").read_bytes() == (FOLDER / ship.NAME).read_bytes()
    assert not (pico / ship.NAME).exists()


def test_without_a_pico_in_bootsel_mode_it_says_how_to_get_one(tmp_path):
    status, out, err = firmware(roots=[tmp_path])
    assert (status, out) == (2, "")
    assert "hold BOOTSEL while plugging it in" in err
    status, _, err = firmware(argv_drive=str(tmp_path), roots=[])
    assert status == 2 and "has no INFO_UF2.TXT" in err


def test_a_pico_running_micropython_is_restarted_into_bootsel_and_given_the_image(tmp_path):
    """On the REPL twin (host_tools/repl_twin.py): machine.bootloader() drops the serial port,
    and the boot ROM's drive appears."""
    from tests.repl_harness import Board

    media = tmp_path / "media"
    media.mkdir()
    with Board(tmp_path / "board", on_bootloader=lambda: drive(media)) as board:
        status, out, err = firmware(roots=[media], port=board.path, dry_run=True)
        assert status == 0 and not board.twin.cut  # a dry run restarts nothing
        assert out.startswith("would restart the board at %s into BOOTSEL mode" % board.path)
        status, out, err = firmware(roots=[media], port=board.path)
        assert board.twin.cut  # its serial port went with the restart
    assert (status, err) == (0, ""), err
    assert out.startswith("restarting the board at %s into BOOTSEL mode\n" % board.path)
    assert (media / "RPI-RP2" / ship.NAME).read_bytes() == (FOLDER / ship.NAME).read_bytes()


def test_a_restart_whose_drive_never_appears_says_to_mount_it(tmp_path):
    from tests.repl_harness import Board

    with Board(tmp_path / "board") as board:
        status, _, err = firmware(roots=[tmp_path / "media"], port=board.path)
    assert status == 2 and "no RPI-RP2 drive appeared within 0.5 s" in err and "--drive" in err
    status, _, err = firmware(roots=[tmp_path / "media"], port=str(tmp_path / "ttyNONE"))
    assert status == 2 and err.startswith("firmware: no board at ")


def test_it_refuses_another_chips_drive_and_asks_which_of_two_picos(tmp_path):
    drive(
        tmp_path,
        "RP2350",
        info="UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n",
    )
    status, _, err = firmware(roots=[tmp_path])
    assert status == 2 and "Board-ID: RP2350" in err and "for the RP2040" in err
    first = drive(tmp_path / "a")
    drive(tmp_path / "b")
    status, _, err = firmware(roots=[tmp_path / "a", tmp_path / "b"])
    assert status == 2 and "2 Picos in BOOTSEL mode" in err and "--drive" in err
    status, _, err = firmware(argv_drive=str(first), roots=[tmp_path / "a", tmp_path / "b"])
    assert (status, err) == (0, "")


@pytest.mark.parametrize(
    "damage, said",
    [
        (lambda b: b[:-512], "in a file of 1333 blocks"),  # a block short
        (lambda b: b"", "0 bytes: a UF2 file is a whole number"),
        (lambda b: b[:512] + b[1024:1536] + b[512:1024] + b[1536:], "block 1: numbered 2"),
    ],
)
def test_a_damaged_image_is_refused_before_anything_is_copied(tmp_path, damage, said):
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    record = built()
    data = damage((FOLDER / ship.NAME).read_bytes())
    (shipped / ship.NAME).write_bytes(data)
    (shipped / "BUILT.json").write_text(json.dumps(record), encoding="utf-8")
    pico = drive(tmp_path)
    status, _, err = firmware(roots=[tmp_path], folder=shipped)
    assert status == 2 and "sha256 differs" in err  # not the recorded image
    assert not (pico / ship.NAME).exists()
    # a record without what the command names the image by
    (shipped / "BUILT.json").write_text(json.dumps({"image": ship.NAME}), encoding="utf-8")
    status, _, err = firmware(roots=[tmp_path], folder=shipped)
    assert status == 2 and "cannot be read" in err
    # recorded as it is, a file that is no whole firmware is still refused, by its blocks
    record["sha256"] = hashlib.sha256(data).hexdigest()
    (shipped / "BUILT.json").write_text(json.dumps(record), encoding="utf-8")
    status, _, err = firmware(roots=[tmp_path], folder=shipped)
    assert status == 2 and said in err
    assert not (pico / ship.NAME).exists()


# --- the UF2 reader ---


def block(number, total, addr=None, family=uf2.RP2040_FAMILY, flags=uf2.FLAG_FAMILY_ID):
    addr = uf2.FLASH_BASE + number * 256 if addr is None else addr
    head = struct.pack(
        "<8I", uf2.MAGIC_START0, uf2.MAGIC_START1, flags, addr, 256, number, total, family
    )
    payload = bytes([number]) * 256
    return head + payload + bytes(476 - 256) + struct.pack("<I", uf2.MAGIC_END)


def test_the_uf2_reader_gives_the_flash_bytes_in_order():
    data = block(0, 2) + block(1, 2)
    assert uf2.image(data) == bytes(256) + bytes([1]) * 256


@pytest.mark.parametrize(
    "data, said",
    [
        (block(0, 1)[:-1], "whole number of 512-byte blocks"),
        (b"X" + block(0, 1)[1:], "not a UF2 block"),
        (block(0, 1, family=0xE48BFF59), "not the RP2040's"),  # the RP2350's ARM family
        (block(0, 1, flags=0), "not the RP2040's"),  # no family at all
        (block(0, 1, flags=uf2.FLAG_FAMILY_ID | 1), "not for the main flash"),
        (block(0, 2) + block(0, 2), "numbered 0 of 2"),
        (block(0, 2) + block(1, 2, addr=uf2.FLASH_BASE + 1024), "were due"),
    ],
)
def test_the_uf2_reader_refuses_what_the_boot_rom_would_not_take_whole(data, said):
    with pytest.raises(uf2.Uf2Error, match=said):
        uf2.image(data)


# --- deploy/ship.py ---


def test_ship_records_what_the_image_was_built_from(tmp_path):
    """Against a stand-in checkout: a git repository for MicroPython and each submodule."""
    import subprocess

    checkout = tmp_path / "micropython"
    commits = {}
    for name, folder, licence in ship.SOURCES:
        where = checkout / folder
        where.mkdir(parents=True, exist_ok=True)
        (where / licence).write_text("%s licence text\n" % name * 40, encoding="utf-8")
        git = ["git", "-C", str(where), "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(git[:3] + ["init", "-q"], check=True)
        subprocess.run(git + ["add", licence], check=True)
        subprocess.run(git + ["commit", "-q", "-m", name], check=True)
        commits[name] = subprocess.run(
            git[:3] + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True
        ).stdout.strip()
    image = tmp_path / ship.NAME
    image.write_bytes(block(0, 1))
    out = tmp_path / "out"
    record = ship.ship(checkout, image, out)
    assert json.loads((out / "BUILT.json").read_text(encoding="utf-8")) == record
    assert (out / ship.NAME).read_bytes() == block(0, 1)
    assert record["sha256"] == hashlib.sha256(block(0, 1)).hexdigest() and record["bytes"] == 512
    assert record["board_files"] == ship.board_files()
    assert {name: s["commit"] for name, s in record["sources"].items()} == commits
    for name, _, _ in ship.SOURCES:
        assert (out / "licenses" / (name + ".txt")).read_text().startswith(name + " licence")
    with pytest.raises(SystemExit, match="build it first"):
        ship.ship(checkout, tmp_path / "missing.uf2", out)
