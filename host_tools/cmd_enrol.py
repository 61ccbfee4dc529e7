"""Enrol chips: tell the board which NFC tag is which chip face.

The board goes into its enrolment mode (firmware/service.py). For each chip of the game's
set, in turn, the PC says which face comes next ("Lay a 7 (2 of 6)"); the player lays any
chip with that face on any square, the board reads its tag, enrols it, and saves its
registry (chips.json) at once. The PC keeps its own copy too (`--save FILE`, default
`chips-<game>.json`), written after every chip, so a board whose registry was lost gets it
back with `enrol --restore FILE` instead of enrolling every chip again.

  enrol                      every chip of the board's game, face by face
  enrol --faces 7,7,+        only these chips
  enrol --check              enrol nothing: say what each chip laid is (its tag and face)
  enrol --restore FILE       write the PC's copy back to the board (checked first)

A tag already enrolled as another face is re-enrolled, and the PC says what it was. Chips
can be lifted as soon as they are read; BACK on the board, or Ctrl-C here, stops.
"""

import json
import os
import sys

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
    cmd.add_argument("--restore", metavar="FILE", help="write a saved registry to the board")


def chip_list(profile):
    """Every chip of the set, one face text per chip, in the profile's face order."""
    from engine import faces

    out = []
    for face in sorted(profile.chips):
        text = "?" if face == faces.JOKER else faces.text(face)
        out.extend([text] * profile.chips[face])
    return out


def _profile(link, game):
    from engine import profile as P

    return P.Profile(json.loads(link.read_file("profiles/%s.json" % game)))


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


def _enrol(link, wanted, save, timeout):
    counts = {}
    for face in wanted:
        counts[face] = counts.get(face, 0) + 1
    done = {}
    chips = {}
    if os.path.exists(save):
        with open(save, encoding="utf-8") as f:
            chips = json.load(f).get("chips", {})
    seen = set()
    try:
        for face in wanted:
            done[face] = done.get(face, 0) + 1
            link.request("enrol", face=face)
            print(
                "Lay a %s (%d of %d) ... " % (face, done[face], counts[face]), end="", flush=True
            )
            while True:
                ev = link.wait_for(("enrolled", "service"), timeout)
                if ev is None:
                    print(
                        "\nno chip in %.0f s: stopped; run again with --faces for the rest"
                        % timeout
                    )
                    return 1
                if ev["ev"] == "service":
                    if ev.get("name") is None:
                        print("\nstopped on the board")
                        return 1
                    continue
                break
            uid = ev["uid"]
            note = ""
            if uid in seen:
                note = " (this chip was already enrolled in this run!)"
            elif ev.get("was") not in (None, face):
                note = " (it was a %s)" % ev["was"]
            seen.add(uid)
            chips[uid] = face
            _save(save, chips)
            print("%s, tag %s%s" % (ev["square"], uid, note))
    finally:
        link.request("enrol", stop=True)
    print(
        "%d chips enrolled; the board saved chips.json, and %s holds a copy" % (len(wanted), save)
    )
    return 0


def _restore(link, path):
    from firmware.registry import RegistryError, loads

    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        n = len(loads(text))
    except RegistryError as err:
        print("enrol: %s: %s" % (path, err), file=sys.stderr)
        return 2
    link.write_file("chips.json", text)
    print("%d chips written to the board's chips.json; they count from its next start" % n)
    return 0


def run(args):
    from host_tools.link import Link, LinkError

    try:
        with Link(args.port) as link:
            game = link.request("hello")["game"]
            if args.restore:
                return _restore(link, args.restore)
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
                wanted = chip_list(_profile(link, game))
            save = args.save or "chips-%s.json" % game
            return _enrol(link, wanted, save, args.timeout)
    except LinkError as err:
        print("enrol: %s" % err, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nstopped")
        return 130
