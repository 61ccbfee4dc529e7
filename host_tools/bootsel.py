"""Put the shipped ROMFS firmware on a Pico in BOOTSEL mode: check it, find the drive, copy.

A Pico plugged in with BOOTSEL held shows a USB drive named RPI-RP2 from its boot ROM; a UF2
file copied onto it is written to flash, and the Pico then restarts into it. The drive's
INFO_UF2.TXT names the chip: "Board-ID: RPI-RP2" on the RP2040 (its boot ROM holds that
text), another ID on other chips, such as the RP2350's.

The image is deploy/firmware/SMARTBOARD_PICO-ROMFS.uf2 (deploy/ship.py): MicroPython v1.27.0
for this board with a ROMFS partition, which `host_tools flash --romfs` then fills with the
device code. Before it is copied, its sha256 is compared with deploy/firmware/BUILT.json and
every block is read as the boot ROM would take it (host_tools/uf2.py), so a damaged checkout
is refused instead of flashed. Every expected failure is a `BootselError`.
"""

import hashlib
import json
import os
import string
import sys
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
    user = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
    roots = [Path("/media"), Path("/run/media"), Path("/mnt")]
    if user:
        roots[:0] = [Path("/media") / user, Path("/run/media") / user]
    return roots


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
    pico = [drive for drive, bid in found if bid == RP2040_BOARD_ID]
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
    try:
        with open(target, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        raise BootselError(
            "the copy to %s stopped (%s): unplug the Pico, hold BOOTSEL, plug it in and run"
            " this again" % (drive, exc.strerror or exc)
        )
    return len(data)
