"""Enrol chips: tell the board which NFC tag is which chip face.

The board goes into its enrolment mode (firmware/service.py). For each chip of the game's
set, in turn, the PC says which face comes next ("Lay a 7 (2 of 6)"); the player lays any
chip with that face on any square, the board reads its tag, enrols it, and saves its
registry (chips.json) at once. The PC keeps its own copy too (`--save FILE`, by default
`chips-<game>.json` in the PC's data folder: $SMARTBOARD_HOME, else ~/.local/share/smartboard
on Linux, host_tools.data_dir()), written after every chip, so a board whose registry was lost gets it
back with `enrol --restore FILE` instead of enrolling every chip again.

  enrol                      every chip of the board's game, face by face
  enrol --faces 7,7,+        only these chips
  enrol --check              enrol nothing: say what each chip laid is (its tag and face)
  enrol --restore [FILE]     write the PC's copy back to the board (checked first)

A tag already enrolled as another face is re-enrolled, and the PC says what it was. Chips
can be lifted as soon as they are read; BACK on the board, or Ctrl-C here, stops.
"""

import json
import os
import sys

from host_tools import data_dir, n_chips

HELP = "map chips' NFC tags to their faces (lay them one by one)"


def add_arguments(cmd):
    cmd.add_argument("--port", help="the board's serial port (default: the one plugged in)")
    cmd.add_argument("--faces", help="faces to enrol, comma-separated (default: the whole set)")
    cmd.add_argument("--check", action="store_true", help="only report the chips laid")
    cmd.add_argument("--save", metavar="FILE", help="the PC's copy of the registry")
    cmd.add_argument(
        "--timeout", type=float, default=600, help="seconds to wait for each chip (600)"
    )
    cmd.add_argument("--seconds", type=float, help="with --check: stop after this long")
    cmd.add_argument(
        "--restore",
        metavar="FILE",
        nargs="?",
        const="",
        help="write a saved registry to the board (default: the PC's copy for its game)",
    )


def chip_list(profile):
    """Every chip of the set, one face text per chip, in the profile's face order."""
    from engine import faces

    out = []
    for face in sorted(profile.chips):
        text = "?" if face == faces.JOKER else faces.text(face)
        out.extend([text] * profile.chips[face])
    return out


def _save(path, chips):
    tmp = path + ".new"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"chips": chips}, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def _check(link, seconds):
    link.request("enrol", face=None)
    print("Lay chips to see what they are; Ctrl-C stops.")
    try:
        for ev in link.events(seconds):
            if ev["ev"] == "tag":
                face = ev.get("face")
                what = "a %s" % face if face is not None else "not enrolled"
                print("%s: tag %s, %s" % (ev["square"], ev["uid"], what))
            elif ev["ev"] in ("no_tag", "reader_down"):
                print("%s: %s" % (ev["square"], ev["ev"].replace("_", " ")))
            elif ev["ev"] == "service" and ev.get("name") is None:
                break
    finally:
        link.request("enrol", stop=True)
    return 0


def _next_chip(link, timeout):
    """The next `enrolled` event, or a message saying why none came."""
    while True:
        ev = link.wait_for(("enrolled", "service"), timeout)
        if ev is None:
            return "no chip in %.0f s: stopped; run again with --faces for the rest" % timeout
        if ev["ev"] == "enrolled":
            return ev
        if ev.get("name") is None:
            return "stopped on the board"


def _enrol(link, wanted, save, timeout):
    counts = {}
    for face in wanted:
        counts[face] = counts.get(face, 0) + 1
    done = {}
    chips = {}
    if os.path.exists(save):
        with open(save, encoding="utf-8") as f:
            chips = json.load(f).get("chips", {})
    mine = {}  # uid -> face, the chips enrolled in this run
    queue = list(wanted)
    try:
        while queue:
            face = queue.pop(0)
            done[face] = done.get(face, 0) + 1
            link.request("enrol", face=face)
            print(
                "Lay a %s (%d of %d) ... " % (face, done[face], counts[face]), end="", flush=True
            )
            ev = _next_chip(link, timeout)
            if isinstance(ev, str):
                print("\n" + ev)
                return 1
            uid = ev["uid"]
            note = ""
            if uid in mine:
                # the same chip twice: one chip of its first face is still to enrol
                lost = mine[uid]
                done[lost] -= 1
                queue.append(lost)
                note = " (this chip was the %s just before: lay another %s later)" % (lost, lost)
            elif ev.get("was") not in (None, face):
                note = " (it was a %s)" % ev["was"]
            mine[uid] = face
            chips[uid] = face
            _save(save, chips)
            print("%s, tag %s%s" % (ev["square"], uid, note))
    finally:
        link.request("enrol", stop=True)
    print(
        "%s enrolled; the board saved chips.json, and %s holds a copy" % (n_chips(len(mine)), save)
    )
    return 0


def _restore(link, path):
    from firmware.commands import problems
    from firmware.registry import loads

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as err:
        print("enrol: cannot read %s: %s" % (path, err.strerror or err), file=sys.stderr)
        return 2
    bad = problems("chips.json", text)  # the board's own check
    if bad:
        print("enrol: %s: %s" % (path, "; ".join(bad)), file=sys.stderr)
        return 2
    link.write_file("chips.json", text)
    print("%s written to the board's chips.json, in use at once" % n_chips(len(loads(text))))
    return 0


def run(args):
    from host_tools.link import Link, LinkError

    try:
        with Link(args.port) as link:
            hello = link.request("hello")
            game = hello["game"]
            if hello["sensor"] != "nfc":
                print(
                    "enrol: this board reads no tags (sensor %s)" % hello["sensor"],
                    file=sys.stderr,
                )
                return 2
            if args.restore is not None:  # no FILE: the PC's own copy for this game
                saved = os.path.join(data_dir(), "chips-%s.json" % game)
                return _restore(link, args.restore or saved)
            if args.check:
                return _check(link, args.seconds)
            if args.faces:
                from firmware.registry import RegistryError, face_text

                try:
                    wanted = [face_text(f.strip()) for f in args.faces.split(",") if f.strip()]
                except RegistryError as err:
                    print("enrol: %s" % err, file=sys.stderr)
                    return 2
            else:
                wanted = chip_list(link.profile(game))
            save = args.save or os.path.join(data_dir(), "chips-%s.json" % game)
            return _enrol(link, wanted, save, args.timeout)
    except LinkError as err:
        print("enrol: %s" % err, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nstopped")
        return 130
