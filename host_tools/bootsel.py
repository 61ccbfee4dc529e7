"""Put the shipped ROMFS firmware on a Pico in BOOTSEL mode: check it, find the drive, copy.

A Pico plugged in with BOOTSEL held shows a USB drive named RPI-RP2 from its boot ROM; a UF2
file copied onto it is written to flash, and the Pico then restarts into it. The drive's
INFO_UF2.TXT names the chip: "Board-ID: RPI-RP2" on the RP2040 (its boot ROM holds that
text), another ID on other chips, such as the RP2350's.

The image is deploy/firmware/SMARTBOARD_PICO-ROMFS.uf2 (deploy/ship.py): MicroPython v1.27.0
for this board with a ROMFS partition, which `host_tools flash` then fills with the device
code. Before it is copied, its sha256 is compared with deploy/firmware/BUILT.json and
every block is read as the boot ROM would take it (host_tools/uf2.py), so a damaged checkout
is refused instead of flashed. Every expected failure is a `BootselError`.

A Pico already running MicroPython need not be unplugged (its BOOTSEL button may sit inside
the board's case): `restart_into_bootsel` asks it over its USB REPL to restart into the boot
ROM (`machine.bootloader()`), and `wait_for` waits for the drive to appear.
"""

import hashlib
import json
import os
import string
import sys
import time
from pathlib import Path

from host_tools import uf2

SHIPPED = Path(__file__).resolve().parent.parent / "deploy" / "firmware"
INFO = "INFO_UF2.TXT"
RP2040_BOARD_ID = "RPI-RP2"


class BootselError(Exception):
    """A failure to report as it is (one line); exit status 2."""


def shipped(folder=SHIPPED):
    """(path of the .uf2, BUILT.json's record) once the image is checked; BootselError if the
    image is missing, differs from its record, or is not a whole RP2040 firmware."""
    folder = Path(folder)
    try:
        built = json.loads((folder / "BUILT.json").read_text(encoding="utf-8"))
        path = folder / built["image"]
        built["sources"]["micropython"]["describe"]  # (what the command names it by)
        data = path.read_bytes()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BootselError("the shipped firmware in %s cannot be read (%s)" % (folder, exc))
    if hashlib.sha256(data).hexdigest() != built.get("sha256"):
        raise BootselError(
            "%s is not the image BUILT.json records (its sha256 differs): check out"
            " deploy/firmware/ again" % path
        )
    try:
        uf2.image(data)
    except uf2.Uf2Error as exc:
        raise BootselError("%s: %s" % (path, exc))
    return path, built


def mount_roots():
    """Where this system mounts USB drives: the folders a BOOTSEL drive is looked for in."""
    if sys.platform == "win32":
        return [Path("%s:\\" % letter) for letter in string.ascii_uppercase[2:]]
    if sys.platform == "darwin":
        return [Path("/Volumes")]
    roots = []
    for base in (Path("/media"), Path("/run/media")):  # /media/USER/RPI-RP2, as desktops mount
        try:
            roots += sorted(p for p in base.iterdir() if p.is_dir())
        except OSError:
            pass
        roots.append(base)
    return roots + [Path("/mnt")]


def board_id(drive):
    """The Board-ID line of a drive's INFO_UF2.TXT, or None when it has none."""
    try:
        text = (Path(drive) / INFO).read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() == "board-id":
            return value.strip()
    return ""


def drives(roots=None):
    """[(drive, board id)] of the UF2 drives under `roots` (each root itself, or a folder in
    it; a drive's own root, such as Windows' D:\\, is not looked into), the RP2040's and
    others alike."""
    found = []
    for root in mount_roots() if roots is None else roots:
        root = Path(root)
        candidates = [root]
        try:
            if root.parent != root and root.is_dir() and not (root / INFO).is_file():
                candidates = sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            continue
        for drive in candidates:
            bid = board_id(drive)
            if bid is not None and drive not in [d for d, _ in found]:
                found.append((drive, bid))
    return found


def picos(found):
    """The RP2040 drives among `found` ((drive, board id) pairs)."""
    return [drive for drive, bid in found if bid == RP2040_BOARD_ID]


def pick(found, asked=None):
    """The one RP2040 drive among `found` (or the `asked` one, checked); BootselError else."""
    if asked is not None:
        bid = board_id(asked)
        if bid is None:
            raise BootselError(
                "%s has no %s: it is not a Pico in BOOTSEL mode (hold BOOTSEL while plugging"
                " it in; a drive named RPI-RP2 appears)" % (asked, INFO)
            )
        found = [(Path(asked), bid)]
    pico = picos(found)
    if not pico:
        others = ["%s (Board-ID: %s)" % (drive, bid or "none") for drive, bid in found]
        if others:
            raise BootselError(
                "no RP2040 in BOOTSEL mode: %s %s another chip's boot drive, and this image"
                " is for the RP2040 (a Raspberry Pi Pico)"
                % (", ".join(others), "is" if len(others) == 1 else "are")
            )
        raise BootselError(
            "no Pico in BOOTSEL mode found: hold BOOTSEL while plugging it in, wait for the"
            " drive RPI-RP2, then run this again (or give the drive with --drive)"
        )
    if len(pico) > 1:
        raise BootselError(
            "%d Picos in BOOTSEL mode (%s): say which with --drive"
            % (len(pico), ", ".join(str(d) for d in pico))
        )
    return pico[0]


def copy(path, drive):
    """Copy the image onto the drive; the Pico writes it to flash and restarts once it has every
    block. Returns the bytes written."""
    data = Path(path).read_bytes()
    target = Path(drive) / Path(path).name
    written = False
    try:
        with open(target, "wb") as f:
            f.write(data)
            written = True
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        if written and board_id(drive) is None:
            # The boot ROM restarts the Pico once it has the last block, and the drive goes
            # with it: some systems then fail the flush or the close. Every byte was handed
            # over and the drive is gone, as after a copy that took.
            return len(data)
        raise BootselError(
            "the copy to %s stopped (%s): unplug the Pico, hold BOOTSEL, plug it in and run"
            " this again" % (drive, exc.strerror or exc)
        )
    return len(data)


# MicroPython's rp2 port restarts into the boot ROM's USB at machine.bootloader(); the short
# sleep lets the raw REPL's reply leave first (the serial port vanishes with the restart).
BOOTLOADER = "import machine, time\ntime.sleep_ms(100)\nmachine.bootloader()\n"


def restart_into_bootsel(port, answer_s=5.0):
    """Restart the MicroPython board at `port` into BOOTSEL mode; BootselError if it does not
    answer its REPL."""
    from mpremote.transport import TransportError

    from host_tools import flash

    try:
        board = flash.connect(port, answer_s)
    except flash.FlashError as exc:
        raise BootselError(str(exc))
    try:
        board.exec_raw_no_follow(BOOTLOADER)
    except (TransportError, OSError):
        pass  # the port went as the board restarted
    finally:
        flash.close(board)


def wait_for(roots=None, wait_s=10.0, sleep=time.sleep, clock=time.monotonic):
    """drives(roots) as soon as an RP2040's drive is among them, or as they are after
    `wait_s` seconds (a restarted Pico's drive takes a moment to be mounted)."""
    end = clock() + wait_s
    while True:
        found = drives(roots)
        if picos(found) or clock() >= end:
            return found
        sleep(0.25)
