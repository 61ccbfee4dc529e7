"""The board's sensor test: every magnet and tag it senses lights its square.

The board goes into its sensor test mode (firmware/service.py): a square lights white the
moment its Hall switch sees a magnet, then shows what the NFC reader found there: green a
known chip, magenta an unknown tag, amber a magnet with no tag, yellow a tag whose magnet
went, red a reader that does not answer. The PC prints each reading and, at the end, a map
of the squares that worked, so a maker can walk a chip over every square of a new board and
see at once which sensors or coils do not.

  diag                   until Ctrl-C (or BACK on the board)
  diag --seconds 60      stop after 60 s
"""

import sys

HELP = "the board's sensor test: every magnet or tag lights its square"

_WHAT = {
    "placed": "chip",
    "unknown": "unknown tag",
    "no_tag": "magnet, no tag",
    "tag_only": "tag, no magnet",
    "reader_down": "reader silent",
}


def add_arguments(cmd):
    cmd.add_argument("--port", help="the board's serial port (default: the one plugged in)")
    cmd.add_argument("--seconds", type=float, help="stop after this many seconds")


# A square works when its magnet was sensed and a tag read there, known or not yet enrolled.
# A tag that outlives its magnet is a chip lifted slowly, not a fault.
WORKS = ("placed", "unknown")
FAULTS = ("no_tag", "reader_down")


def note(seen, name, kind):
    """Record what a square sensed; once it has worked, it stays working."""
    if kind in WORKS:
        seen[name] = "works"
    elif kind in FAULTS and seen.get(name) != "works":
        seen[name] = kind


def summary(seen, width, height):
    """The squares that worked (#) or only showed a fault (!) during the test, as text."""
    from engine import squares

    marks = {}
    for name, kind in seen.items():
        marks[squares.parse(name, width, height)] = "#" if kind == "works" else "!"
    out = ["    " + "".join(chr(65 + c) for c in range(width))]
    for r in range(height):
        out.append(
            "%3d %s" % (r + 1, "".join(marks.get(r * width + c, ".") for c in range(width)))
        )
    return out


def run(args):
    from host_tools.link import Link, LinkError

    seen = {}  # square -> "works", or the fault it showed
    try:
        with Link(args.port) as link:
            free = link.request("hello").get("free")
            prof = link.profile()
            link.request("diag", on=True)
            if free is not None:  # a real board; its boot and every turn log it too
                print("free heap on the board: %d bytes" % free)
            print("Sensor test: lay chips or magnets on the board; Ctrl-C ends it.")
            try:
                for ev in link.events(args.seconds):
                    if ev["ev"] == "sensor":
                        kind = ev["kind"]
                        note(seen, ev["square"], kind)
                        what = _WHAT.get(kind, kind)
                        if kind == "placed" and ev.get("face"):
                            what = "chip %s" % ev["face"]
                        uid = " (tag %s)" % ev["uid"] if ev.get("uid") else ""
                        print("%-4s %s%s" % (ev["square"], what, uid), flush=True)
                    elif ev["ev"] == "service" and ev.get("name") is None:
                        print("ended on the board")
                        break
            except KeyboardInterrupt:
                pass
            link.request("diag", on=False)
    except LinkError as err:
        print("diag: %s" % err, file=sys.stderr)
        return 2
    good = sum(1 for k in seen.values() if k == "works")
    print("%d squares sensed a chip and read its tag, %d only a fault:" % (good, len(seen) - good))
    print("\n".join(summary(seen, prof.width, prof.height)))
    return 0
