"""Finished games kept on the board's flash, for the host tools to list and pull.

When a game ends, its final snapshot (engine/snapshot.py) and what the snapshot does not
say go to `games/NNN.dat`, numbered up from 001, as a journal record (firmware/journal.py:
magic, length, CRC-32), written to a `.new` file and renamed into place. The payload is:
  snapshot length (u16, big-endian)  snapshot bytes  JSON text:
  {"game": "calculissimo", "profile": "...", "racks": [["5", "+"], []], "names": ["Ana", "Rui"]}
(`names` only when the settings name the players.)
The racks are needed to write a game record whose replay gives the same penalties
(GAME_RECORD.md `end.racks`); the snapshot keeps only the points. The oldest games are
removed beyond `keep`, so the flash never fills with old games.

`add` is idempotent: the same final snapshot as the newest archived game is not archived
twice (the end counted again after a power cut), and a `.new` file left by a cut is removed.
"""

import json

from firmware.journal import record, verify

FOLDER = "games"


def encode(snapshot, about):
    n = len(snapshot)
    return bytes(((n >> 8) & 0xFF, n & 0xFF)) + snapshot + json.dumps(about).encode()


def decode(payload):
    """(snapshot, about) from an archived payload; ValueError if it does not hold them."""
    if len(payload) < 2:
        raise ValueError("archived game too short")
    n = (payload[0] << 8) | payload[1]
    if len(payload) < 2 + n:
        raise ValueError("archived game cut short")
    about = json.loads(bytes(payload[2 + n :]).decode())
    if not isinstance(about, dict) or not isinstance(about.get("racks"), list):
        raise ValueError("archived game has no racks")  # noqa: TRY004  (one error kind)
    return bytes(payload[2 : 2 + n]), about


def _number(name):
    """The game number of `NNN.dat`, or 0 for any other file."""
    if len(name) != 7 or not name.endswith(".dat"):
        return 0
    digits = name[:3]
    for c in digits:
        if c not in "0123456789":
            return 0
    return int(digits)


class Archive:
    def __init__(self, fs, keep=20):
        self.fs = fs
        self.keep = keep

    def names(self):
        """The archived games' file names, oldest first (`games/001.dat`, ...)."""
        try:
            found = self.fs.listdir(FOLDER)
        except OSError:
            return []
        numbers = sorted(n for n in (_number(name) for name in found) if n)
        return ["%s/%03d.dat" % (FOLDER, n) for n in numbers]

    def newest(self):
        """(path, snapshot) of the newest readable archived game, or (None, None)."""
        names = self.names()
        for path in reversed(names):
            try:
                return path, self.read(path)[0]
            except ValueError:
                continue
        return None, None

    def has(self, snapshot):
        """Whether `snapshot` is the newest archived game."""
        return self.newest()[1] == snapshot

    def add(self, snapshot, about):
        """Archive a finished game; returns its path. OSError if the flash refused."""
        path, newest = self.newest()
        if newest == snapshot:
            return path
        try:
            found = self.fs.listdir(FOLDER)
        except OSError:
            found = []
        for name in found:
            if name.endswith(".new"):  # a cut before its rename: never a whole game
                self.fs.remove("%s/%s" % (FOLDER, name))
        names = self.names()
        last = _number(names[-1][len(FOLDER) + 1 :]) if names else 0
        self.fs.mkdir(FOLDER)
        if last == 999:  # numbers run out: the kept games become 001, 002, ... in order
            for k in range(len(names)):
                self.fs.rename(names[k], "%s/%03d.dat" % (FOLDER, k + 1))
            names = self.names()
            last = len(names)
        path = "%s/%03d.dat" % (FOLDER, last + 1)
        self.fs.write(path + ".new", record(encode(snapshot, about)))
        self.fs.rename(path + ".new", path)
        for old in names[: max(0, len(names) + 1 - self.keep)]:
            self.fs.remove(old)
        return path

    def read(self, path):
        """(snapshot, about) of an archived game; ValueError naming what is wrong."""
        data = self.fs.read(path)
        if data is None:
            raise ValueError("%s: no such game" % path)
        payload, problem = verify(data)
        if problem is not None:
            raise ValueError("%s: %s" % (path, problem))
        return decode(payload)
