"""Ship the ROMFS firmware that `make firmware BOARD_VARIANT=ROMFS` built: copy it into
deploy/firmware/ with a record of what it was built from.

    python3 deploy/ship.py MICROPY_DIR        (the Makefile's `make ship-firmware`)

The ROMFS image is MicroPython with this project's board definition and an empty ROMFS
partition: the device code is not in it (`host_tools flash` puts it in the partition),
so it changes only when the board definition or MicroPython does, and one build serves every
version of the code. Shipping it spares a maker the ARM compiler, the MicroPython checkout and
its submodules: `python -m host_tools firmware` copies it onto a Pico in BOOTSEL mode.

deploy/firmware/ then holds the .uf2, BUILT.json (the image's sha256 and size; the sha256 of
each file of the board definition it was built from, which tests/test_shipped_firmware.py
compares with the folder as it is; the commits of MicroPython and of the submodules built
into it; the compiler) and licenses/ (the licence of each of those sources, which the
image's users are owed). Standard library only, like deploy/layout.py.
"""

import argparse
import datetime
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BOARD = "SMARTBOARD_PICO"
VARIANT = "ROMFS"
NAME = "%s-%s.uf2" % (BOARD, VARIANT)
OUT = HERE / "firmware"
BUILT = OUT / "BUILT.json"
BOARD_DIR = HERE / "boards" / BOARD
# (name in BUILT.json, folder in the MicroPython checkout, its licence file): what the rp2
# port links into the image (mbedtls: hashlib; micropython-lib: the port's frozen drivers).
SOURCES = (
    ("micropython", ".", "LICENSE"),
    ("pico-sdk", "lib/pico-sdk", "LICENSE.TXT"),
    ("tinyusb", "lib/tinyusb", "LICENSE"),
    ("mbedtls", "lib/mbedtls", "LICENSE"),
    ("micropython-lib", "lib/micropython-lib", "LICENSE"),
)


def board_files(board_dir=BOARD_DIR):
    """{file name: sha256} of the board definition's files."""
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(Path(board_dir).iterdir())
        if path.is_file()
    }


def _git(folder, *args):
    return subprocess.run(
        ["git", "-C", str(folder), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def _compiler():
    try:
        out = subprocess.run(
            ["arm-none-eabi-gcc", "--version"], check=True, capture_output=True, text=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.splitlines()[0] if out else "unknown"


def ship(micropy_dir, image=None, out=OUT):
    """Copy the built image and the licences into `out` and write BUILT.json; returns it."""
    micropy_dir = Path(micropy_dir)
    image = Path(image or REPO / "build" / "firmware" / NAME)
    if not image.is_file():
        raise SystemExit(
            "ship: no %s: build it first (make firmware MICROPY_DIR=%s BOARD_VARIANT=%s)"
            % (image, micropy_dir, VARIANT)
        )
    data = image.read_bytes()
    sources = {}
    (out / "licenses").mkdir(parents=True, exist_ok=True)
    for name, folder, licence in SOURCES:
        where = micropy_dir / folder
        sources[name] = {
            "commit": _git(where, "rev-parse", "HEAD"),
            "describe": _git(where, "describe", "--tags", "--always"),
        }
        shutil.copyfile(where / licence, out / "licenses" / (name + ".txt"))
    built = {
        "image": NAME,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "board": BOARD,
        "variant": VARIANT,
        "board_files": board_files(),
        "sources": sources,
        "compiler": _compiler(),
        "built": datetime.date.today().isoformat(),
        "how": "make firmware MICROPY_DIR=... BOARD_VARIANT=ROMFS, then make ship-firmware"
        " MICROPY_DIR=... (deploy/README.md)",
    }
    shutil.copyfile(image, out / NAME)
    (out / BUILT.name).write_text(json.dumps(built, indent=2) + "\n", encoding="utf-8")
    return built


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("micropy_dir", help="the MicroPython checkout the image was built in")
    ap.add_argument("--image", help="the .uf2 (default: build/firmware/%s)" % NAME)
    args = ap.parse_args(argv)
    built = ship(args.micropy_dir, args.image)
    print(
        "shipped deploy/firmware/%s (%d bytes, MicroPython %s)"
        % (NAME, built["bytes"], built["sources"]["micropython"]["describe"])
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
