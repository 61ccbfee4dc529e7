"""Put the shipped firmware on a Pico: MicroPython with a ROMFS partition for the game's code.

Hold BOOTSEL on the Pico while plugging it in: a drive named RPI-RP2 appears. This command
checks deploy/firmware/SMARTBOARD_PICO-ROMFS.uf2 against deploy/firmware/BUILT.json, finds
that drive (or takes --drive) and copies the image onto it; the Pico writes it to flash and
restarts. Then `python -m host_tools flash --romfs` puts the game's code into the partition,
where it runs from flash and leaves the board's hints and moves room in the heap. No compiler
and no MicroPython checkout are needed: the image holds no game code, so the one in the
repository serves every version of it (deploy/README.md says how it was built).

`--save FILE` only writes the checked image to FILE, for copying by hand.

Exit status: 0 copied (or saved, or a dry run), 2 an error (no Pico in BOOTSEL mode, another
chip's drive, a damaged image, a copy cut off).
"""

import sys

HELP = "copy the shipped MicroPython firmware (with a ROMFS partition) onto a Pico in BOOTSEL"


def add_arguments(cmd):
    cmd.add_argument("--drive", metavar="DIR", help="the Pico's RPI-RP2 drive (default: find it)")
    cmd.add_argument("--dry-run", action="store_true", help="check and find; copy nothing")
    cmd.add_argument("--save", metavar="FILE", help="write the checked image to FILE instead")


def run(args, out=None, err=None, roots=None, folder=None):
    from host_tools import bootsel

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        path, built = bootsel.shipped(folder or bootsel.SHIPPED)
        what = "%s (MicroPython %s, %s bytes)" % (
            path.name,
            built["sources"]["micropython"]["describe"],
            format(built["bytes"], ","),
        )
        if args.save:
            with open(args.save, "wb") as f:
                f.write(path.read_bytes())
            out.write("saved %s to %s\n" % (what, args.save))
            return 0
        drive = bootsel.pick(bootsel.drives(roots), args.drive)
        if args.dry_run:
            out.write("would copy %s to %s\n" % (what, drive))
            return 0
        bootsel.copy(path, drive)
    except bootsel.BootselError as exc:
        err.write("firmware: %s\n" % exc)
        return 2
    except OSError as exc:  # --save to a folder that cannot be written
        err.write("firmware: %s\n" % exc)
        return 2
    out.write(
        "copied %s to %s: the Pico restarts into it. Next: python -m host_tools flash --romfs\n"
        % (what, drive)
    )
    return 0
