"""Put the firmware on a board over USB: compile, compare, copy only what changed, restart.

The device files (what deploy/manifest.py freezes) are compiled with mpy-cross into
build/flash/ and copied with the board profiles, the pin maps and main.py. The board's
chips.json, game.dat and games/ are never touched. The code is compiled without its line
numbers (mpy-cross -O3: less of a stock board's heap); `--lines` keeps them, for tracebacks.
On a firmware with the device code frozen in it (`make firmware`) only the other files are
copied. On a firmware with a ROMFS partition (the shipped one, which `python -m host_tools
firmware` puts on a Pico in BOOTSEL mode, or `make firmware BOARD_VARIANT=ROMFS`) the code
goes into the partition, with mpremote's romfs code, and runs from flash; `--romfs` refuses a
firmware without one, `--files` copies the .mpy files to the filesystem even so. A copy cut
short leaves the board saying "firmware copy incomplete" on USB until the next flash
finishes it.

Exit status: 0 done, 1 the board cannot start after the copy, 2 an error (no board, no
answer, a refused settings file, a copy cut off).
"""

import sys

HELP = "compile the firmware and copy what changed onto the board"


def add_arguments(cmd):
    cmd.add_argument("--port", metavar="PORT", help="serial port (default: find the board)")
    cmd.add_argument(
        "--settings", metavar="FILE", help="also copy this settings.json, once it is checked"
    )
    cmd.add_argument(
        "--dry-run", action="store_true", help="list what would be copied; change nothing"
    )
    cmd.add_argument(
        "--romfs",
        action="store_true",
        help="put the code into the board's ROMFS partition, or refuse (the default wherever"
        " the firmware has one)",
    )
    cmd.add_argument(
        "--files",
        action="store_true",
        help="copy the .mpy files to the filesystem even beside a ROMFS partition (run from RAM)",
    )
    cmd.add_argument("--force", action="store_true", help="copy every file, changed or not")
    cmd.add_argument(
        "--lines",
        action="store_true",
        help="keep line numbers in the code, for tracebacks (a stock board has less heap free)",
    )
    cmd.add_argument(
        "--build-dir", metavar="DIR", help="where the .mpy files go (default: build/flash)"
    )


def run(args):
    from host_tools import flash

    try:
        return flash.flash(
            port=args.port,
            settings=args.settings,
            dry_run=args.dry_run,
            force=args.force,
            build_dir=args.build_dir,
            romfs=args.romfs,
            lines=args.lines,
            files=args.files,
        )
    except flash.FlashError as exc:
        sys.stderr.write("flash: %s\n" % exc)
        return exc.status
    except KeyboardInterrupt:
        sys.stderr.write("flash: interrupted\n")
        return 130
