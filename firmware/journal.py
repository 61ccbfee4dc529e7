"""The game journal: after every committed turn the game's snapshot goes to flash atomically.

A record is a 12-byte header, then the payload (engine.snapshot's bytes):
  b"CQJ1"  payload length (u32)  CRC-32 of the payload (u32), integers big-endian.

`save` writes the whole record to NAME.new, then renames it over NAME.dat. On littlefs (the
rp2 port's filesystem) closing a file commits its data, and a rename that replaces a file
is one atomic metadata commit. So after a power cut at any instant NAME.dat is whole: the
previous record, or the new one if the rename landed. A cut loses at most the turn being
saved. Any OSError raises JournalError; NAME.dat is then untouched, so the firmware can
say "could not save" and play on.

`load` trusts NAME.dat. A leftover NAME.new means a cut before its rename landed: that turn
never finished saving, so it is removed and never preferred to NAME.dat, even when NAME.dat
is damaged. Can NAME.dat be missing while NAME.new is whole? Not through rename-over on
littlefs, which never leaves a moment without NAME.dat once one exists. It happens only
when no record existed yet (the first save after a new game or `clear`) and the cut came
after NAME.new was closed but before the rename landed. `clear` removes NAME.new first, so
a stale NAME.new cannot outlive a cleared NAME.dat. (On FAT, MicroPython's rename-over is
remove-then-rename, which opens the same window.) In every such case NAME.new holds the
turn being saved, never an older state, so `load` returns it when it verifies and renames
it into place; an unverified one is removed and there is no game to resume.

`load` returns (payload, None), (None, None) when there is no journal, or (None, problem)
when there is one but it is damaged: problem is one of the short messages below.

CRC-32 is binascii.crc32 where the build has it (MicroPython ports differ), else
`crc32_small`: a 16-entry table, a nibble at a time, on two 16-bit halves so that every
intermediate value stays a small int on MicroPython (no heap allocation per byte).
"""

MAGIC = b"CQJ1"
HEADER = 12

SHORT = "journal too short"
BAD_MAGIC = "not a journal"
BAD_LENGTH = "journal length wrong"
BAD_CRC = "journal checksum wrong"
UNREADABLE = "journal unreadable"

# CRC-32 (reflected polynomial 0xEDB88320) of one nibble, split into high and low halves.
_HI = (0x0000, 0x1DB7, 0x3B6E, 0x26D9, 0x76DC, 0x6B6B, 0x4DB2, 0x5005,
       0xEDB8, 0xF00F, 0xD6D6, 0xCB61, 0x9B64, 0x86D3, 0xA00A, 0xBDBD)  # fmt: skip
_LO = (0x0000, 0x1064, 0x20C8, 0x30AC, 0x4190, 0x51F4, 0x6158, 0x713C,
       0x8320, 0x9344, 0xA3E8, 0xB38C, 0xC2B0, 0xD2D4, 0xE278, 0xF21C)  # fmt: skip


def crc32_small(data, crc=0):
    """CRC-32 as zlib and binascii compute it, without a 1 KB table or big ints."""
    hi = (crc >> 16) ^ 0xFFFF
    lo = (crc & 0xFFFF) ^ 0xFFFF
    for b in data:
        lo ^= b
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ _LO[i]
        hi = (hi >> 4) ^ _HI[i]
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ _LO[i]
        hi = (hi >> 4) ^ _HI[i]
    return ((hi ^ 0xFFFF) << 16) | (lo ^ 0xFFFF)


try:
    from binascii import crc32
except ImportError:
    crc32 = crc32_small


class JournalError(Exception):
    """The journal could not be written; the previous record is still intact."""


def _u32(n):
    return bytes(((n >> 24) & 0xFF, (n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF))


def _get32(data, pos):
    return (data[pos] << 24) | (data[pos + 1] << 16) | (data[pos + 2] << 8) | data[pos + 3]


def record(payload):
    """The bytes `save` writes for `payload`."""
    return MAGIC + _u32(len(payload)) + _u32(crc32(payload)) + bytes(payload)


def verify(data):
    """(payload, None) if `data` is a whole record, else (None, problem)."""
    if len(data) < HEADER:
        return None, SHORT
    if data[:4] != MAGIC:
        return None, BAD_MAGIC
    size = _get32(data, 4)
    if len(data) != HEADER + size:
        return None, SHORT if len(data) < HEADER + size else BAD_LENGTH
    payload = bytes(data[HEADER:])
    if crc32(payload) != _get32(data, 8):
        return None, BAD_CRC
    return payload, None


class Journal:
    def __init__(self, fs, name="game"):
        self.fs = fs
        self.dat = name + ".dat"
        self.new = name + ".new"

    def save(self, payload):
        """Journal `payload`; JournalError if the flash refused (the old record stays).

        After a failed write the filesystem must be remounted before it is written again:
        littlefs can be left with a dirty program cache, and its next write then trips an
        assertion (littlefs issue #760; MicroPython builds it without asserts). So a
        filesystem object with a `remount()` method gets it called here.
        """
        try:
            self.fs.write(self.new, record(payload))
            self.fs.rename(self.new, self.dat)
        except OSError as exc:
            # NAME.new may be left behind: `load` removes it. Nothing more is written here;
            # the filesystem is remounted (if it can be) so the next save starts clean.
            remount = getattr(self.fs, "remount", None)
            if remount is not None:
                try:
                    remount()
                except OSError:
                    pass
            raise JournalError("could not save the game (%s)" % (exc,))

    def load(self):
        """(payload, None), (None, None) when there is no journal, or (None, problem)."""
        try:
            data = self.fs.read(self.dat)
            if data is not None:
                if self.fs.exists(self.new):
                    self._drop(self.new)
                return verify(data)
            data = self.fs.read(self.new)
        except OSError:
            return None, UNREADABLE
        if data is None:
            return None, None
        payload, problem = verify(data)
        if problem is not None:
            self._drop(self.new)
            return None, None
        try:
            self.fs.rename(self.new, self.dat)
        except OSError:
            pass  # still readable as NAME.new next time
        return payload, None

    def clear(self):
        """Forget the journal (NAME.new first: see the module docstring)."""
        try:
            self.fs.remove(self.new)
            self.fs.remove(self.dat)
        except OSError as exc:
            raise JournalError("could not clear the saved game (%s)" % (exc,))

    def set_aside(self, path):
        """Keep the saved game under another name (`path`), so a new game's first save
        never overwrites it; OSError if the flash refused."""
        self._drop(path)
        self.fs.rename(self.dat, path)

    def _drop(self, path):
        try:
            self.fs.remove(path)
        except OSError:
            pass
