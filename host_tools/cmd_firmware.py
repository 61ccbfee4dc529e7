"""Put the shipped firmware on a Pico: MicroPython with a ROMFS partition for the game's code.

Hold BOOTSEL on the Pico while plugging it in: a drive named RPI-RP2 appears. This command
checks deploy/firmware/SMARTBOARD_PICO-ROMFS.uf2 against deploy/firmware/BUILT.json, finds
that drive (or takes --drive) and copies the image onto it; the Pico writes it to flash and
restarts. Then `python -m host_tools flash` puts the game's code into the partition (as it
does on any firmware with one), where it runs from flash and leaves the board's hints and
moves room in the heap. No compiler
and no MicroPython checkout are needed: the image holds no game code, so the one in the
repository serves every version of it (deploy/README.md says how it was built).

A Pico already running MicroPython need not be unplugged (its BOOTSEL button may be inside
the board's case): when no RPI-RP2 drive is there and a board answers on USB (found as
`flash` finds it, or `--port`), it is asked to restart into BOOTSEL mode
(`machine.bootloader()`) and the command waits up to 10 s for the drive.

`--save FILE` only writes the checked image to FILE, for copying by hand.

Exit status: 0 copied (or saved, or a dry run), 2 an error (no Pico in BOOTSEL mode, another
chip's drive, a damaged image, a copy cut off).
"""

import sys
import time

HELP = "copy the shipped MicroPython firmware (with a ROMFS partition) onto a Pico in BOOTSEL"


def add_arguments(cmd):
    cmd.add_argument("--drive", metavar="DIR", help="the Pico's RPI-RP2 drive (default: find it)")
    cmd.add_argument(
        "--port",
        metavar="PORT",
        help="a board running MicroPython to restart into BOOTSEL mode (default: find it)",
    )
    cmd.add_argument("--dry-run", action="store_true", help="check and find; copy nothing")
    cmd.add_argument("--save", metavar="FILE", help="write the checked image to FILE instead")


def _board_port(find_port):
    """The port of the one board running MicroPython on USB, or None."""
    from host_tools import flash

    try:
        return (find_port or flash.find_port)()
    except flash.FlashError:  # none, or several: then the drive is the user's to give
        return None


def run(
    args,
    out=None,
    err=None,
    roots=None,
    folder=None,
    find_port=None,
    wait_s=10.0,
    sleep=time.sleep,
):
    """The command; `roots` (where drives are looked for), `folder` (the shipped image),
    `find_port`, `wait_s` and `sleep` are the tests' to change."""
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
        found = bootsel.drives(roots)
        if args.drive is None and not bootsel.picos(found):
            port = args.port or _board_port(find_port)
            if port is not None:
                if args.dry_run:
                    out.write(
                        "would restart the board at %s into BOOTSEL mode and copy %s to its"
                        " drive\n" % (port, what)
                    )
                    return 0
                out.write("restarting the board at %s into BOOTSEL mode\n" % port)
                out.flush()
                bootsel.restart_into_bootsel(port)
                found = bootsel.wait_for(roots, wait_s, sleep)
                if not bootsel.picos(found):
                    raise bootsel.BootselError(
                        "the board at %s restarted into BOOTSEL mode, but no RPI-RP2 drive"
                        " appeared within %g s: if this system does not mount it by itself,"
                        " mount it and give it with --drive" % (port, wait_s)
                    )
        drive = bootsel.pick(found, args.drive)
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
        "copied %s to %s: the Pico restarts into it. Next: python -m host_tools flash\n"
        % (what, drive)
    )
    return 0
