"""The game journal (firmware/journal.py) on an in-memory filesystem, and firmware/fsio.py.

Runs on CPython (pytest) and on MicroPython (tests/mpyunit.py), where the repository is a
read-only mount: the journal is exercised on `MemFS`, a hand-written fake with the fsio
interface that can refuse a write or rename, or tear a write part way.
"""

import sys

from engine import snapshot
from firmware import journal
from firmware.fsio import DeviceFS
from firmware.journal import Journal, JournalError
from tests.engine.checks import eq, raises
from tests.engine.fixtures import REPO, RULEBOOK, new_game, play

ENOSPC = 28


class MemFS:
    """Files in a dict. `fail` names one operation ("write" or "rename") that raises
    OSError(ENOSPC); a failing write first stores the first `torn` bytes, if set."""

    def __init__(self):
        self.files = {}
        self.dirs = set()
        self.fail = None
        self.torn = None

    def _check(self, op):
        if self.fail == op:
            raise OSError(ENOSPC)

    def read(self, path):
        return self.files.get(path)

    def write(self, path, data):
        if self.fail == "write" and self.torn is not None:
            self.files[path] = bytes(data[: self.torn])
        self._check("write")
        self.files[path] = bytes(data)

    def rename(self, old, new):
        self._check("rename")
        if old not in self.files:
            raise OSError(2)
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        self.files.pop(path, None)

    def exists(self, path):
        return path in self.files or path in self.dirs

    def listdir(self, path=""):
        prefix = path + "/" if path else ""
        names = set()
        for p in list(self.files) + list(self.dirs):
            if p.startswith(prefix) and p != prefix:
                names.add(p[len(prefix) :].split("/")[0])
        return sorted(names)

    def mkdir(self, path):
        self.dirs.add(path)


def payloads():
    """Snapshots of a refereed game after each of the rulebook's five moves."""
    g = new_game(4)
    out = []
    for text in RULEBOOK:
        play(g, text)
        out.append(snapshot.encode(g))
    return out


def saved(payload=b"payload one"):
    fs = MemFS()
    Journal(fs).save(payload)
    return fs


def test_round_trip():
    fs = MemFS()
    j = Journal(fs)
    eq(j.load(), (None, None))
    for p in payloads():
        j.save(p)
        eq(j.load(), (p, None))
        eq(sorted(fs.files), ["game.dat"])
    eq(Journal(fs, "other").load(), (None, None))
    j.save(b"")
    eq(j.load(), (b"", None))


def test_record_layout():
    rec = journal.record(b"123456789")
    eq(rec[:12], b"CQJ1" + bytes((0, 0, 0, 9)) + bytes((0xCB, 0xF4, 0x39, 0x26)))
    eq(saved(b"123456789").files["game.dat"], rec)


def test_clear():
    fs = saved()
    fs.files["game.new"] = b"partial"
    j = Journal(fs)
    j.clear()
    eq(fs.files, {})
    eq(j.load(), (None, None))
    j.clear()  # nothing to clear is not an error


def test_damaged_payload_is_detected():
    for pos in (12, 20, -1):
        fs = saved()
        rec = bytearray(fs.files["game.dat"])
        rec[pos] ^= 0x01
        fs.files["game.dat"] = bytes(rec)
        eq(Journal(fs).load(), (None, journal.BAD_CRC), "byte %d" % pos)


def test_damaged_checksum_field_is_detected():
    fs = saved()
    rec = bytearray(fs.files["game.dat"])
    rec[9] ^= 0x80
    fs.files["game.dat"] = bytes(rec)
    eq(Journal(fs).load(), (None, journal.BAD_CRC))


def test_short_file_is_detected():
    rec = saved().files["game.dat"]
    for cut in (0, 3, 11, 12, len(rec) - 1):
        fs = MemFS()
        fs.files["game.dat"] = rec[:cut]
        eq(Journal(fs).load(), (None, journal.SHORT), "%d bytes" % cut)
    fs.files["game.dat"] = rec + b"\x00"
    eq(Journal(fs).load(), (None, journal.BAD_LENGTH))


def test_bad_magic_is_detected():
    fs = saved()
    fs.files["game.dat"] = b"CQJ2" + fs.files["game.dat"][4:]
    eq(Journal(fs).load(), (None, journal.BAD_MAGIC))
    fs.files["game.dat"] = b"\xff" * 40  # erased flash
    eq(Journal(fs).load(), (None, journal.BAD_MAGIC))


def test_leftover_new_is_ignored_and_removed():
    for leftover in (b"", b"CQJ1\x00", journal.record(b"the turn being saved")):
        fs = saved(b"committed")
        fs.files["game.new"] = leftover
        eq(Journal(fs).load(), (b"committed", None))
        eq(sorted(fs.files), ["game.dat"])


def test_leftover_new_never_replaces_a_damaged_dat():
    fs = saved(b"committed")
    fs.files["game.dat"] = fs.files["game.dat"][:-1]
    fs.files["game.new"] = journal.record(b"the turn being saved")
    eq(Journal(fs).load(), (None, journal.SHORT))
    eq(sorted(fs.files), ["game.dat"])


def test_whole_new_without_dat_is_promoted():
    fs = MemFS()
    fs.files["game.new"] = journal.record(b"first turn")
    eq(Journal(fs).load(), (b"first turn", None))
    eq(sorted(fs.files), ["game.dat"])
    eq(Journal(fs).load(), (b"first turn", None))


def test_torn_new_without_dat_means_no_game():
    fs = MemFS()
    fs.files["game.new"] = journal.record(b"first turn")[:-3]
    eq(Journal(fs).load(), (None, None))
    eq(fs.files, {})


def test_failing_write_keeps_the_old_record():
    for torn in (None, 0, 5, 30):
        fs = saved(b"turn 1")
        fs.fail = "write"
        fs.torn = torn
        j = Journal(fs)
        exc = raises(JournalError, j.save, b"turn 2, which the flash refuses")
        eq("could not save" in str(exc), True)
        eq(j.load(), (b"turn 1", None))
        eq(sorted(fs.files), ["game.dat"])
        fs.fail = None
        j.save(b"turn 2")
        eq(j.load(), (b"turn 2", None))


def test_failing_rename_keeps_the_old_record():
    fs = saved(b"turn 1")
    fs.fail = "rename"
    j = Journal(fs)
    raises(JournalError, j.save, b"turn 2")
    eq(j.load(), (b"turn 1", None))
    eq(sorted(fs.files), ["game.dat"])


def test_journal_error_is_a_plain_exception():
    eq(issubclass(JournalError, Exception), True)
    eq(issubclass(JournalError, OSError), False)


def test_crc_fallback_equals_binascii():
    samples = [b"", b"a", b"123456789", bytes(range(256)) * 3, b"\xff" * 100] + payloads()
    eq(journal.crc32_small(b"123456789"), 0xCBF43926)
    eq(journal.crc32_small(b""), 0)
    eq(journal.crc32_small(b"The quick brown fox jumps over the lazy dog"), 0x414FA339)
    try:
        from binascii import crc32
    except ImportError:
        crc32 = None  # this build has no binascii.crc32: the journal uses the fallback
    for data in samples:
        small = journal.crc32_small(data)
        eq(journal.crc32(data), small)
        if crc32 is not None:
            eq(crc32(data) & 0xFFFFFFFF, small, "%d bytes" % len(data))
        eq(journal.crc32_small(data[7:], journal.crc32_small(data[:7])), small)


def test_device_fs_reads_the_repository():
    fs = DeviceFS(REPO)
    eq(fs.read("README.md")[:8], b"# Smart ")
    eq(fs.read("no such file"), None)
    eq(fs.exists("engine/game.py"), True)
    eq(fs.exists("no such file"), False)
    eq("snapshot.py" in fs.listdir("engine"), True)


def test_device_fs_journal_on_the_host():
    if sys.implementation.name == "micropython":
        return  # the mount is read-only there; the board itself runs this path
    import tempfile

    root = tempfile.mkdtemp()
    fs = DeviceFS(root)
    fs.mkdir("j")
    fs.mkdir("j")
    j = Journal(fs, "j/game")
    for p in payloads():
        j.save(p)
        eq(j.load(), (p, None))
    eq(fs.listdir("j"), ["game.dat"])
    fs.write("j/game.new", b"left over")
    eq(j.load()[0], p)
    fs.remove("j/game.new")
    j.clear()
    eq(fs.listdir("j"), [])
    eq(sorted(DeviceFS().listdir(root)), ["j"])
    import os

    os.rmdir(root + "/j")
    os.rmdir(root)
