"""Flash that can lose power at any block write, under littlefs v2 (CPython tests only).

The rp2 port mounts littlefs v2 on the RP2040's flash; here littlefs-python runs the same
filesystem with the rp2 port's settings (4096-byte blocks, prog size 256, read size 32,
cache 1024, lookahead 32, block_cycles 100) on `CutFlash`, a block device that counts its
block writes (prog and erase) and loses power at the k-th. `LfsFS` gives the firmware its
fsio interface on it.

`Rp2Vfs` is the rp2 port's `vfs` module as firmware/fsio.FlashFS.remount uses it (`VfsLfs2`,
`mount`, `umount`), on such a flash. Its `VfsLfs2` takes MicroPython's defaults (read size
32, prog size 32, lookahead 32) and refuses a prog size that is not whole 256-byte pages
(OSError EINVAL): the RP2040's flash programs only whole pages (the SDK's
flash_range_program takes page-aligned whole pages), which is why the port's _boot.py mounts
with `progsize=256`.
"""

import errno

import littlefs

LittleFSError = littlefs.LittleFSError
lfs = littlefs.lfs
IO = LittleFSError.Error.LFS_ERR_IO

BLOCK = 4096
BLOCKS = 24  # 96 KB
PAGE = 256  # the flash programs whole pages
RP2 = {"read_size": 32, "prog_size": 256, "cache_size": 1024, "lookahead_size": 32,
       "block_cycles": 100}  # fmt: skip


class CutFlash(littlefs.UserContext):
    """Flash that counts block writes (prog, erase) and, once armed with `arm(k)`, loses
    power at the k-th: that write is dropped (or, if `torn`, half done) and every later one
    fails. With `survive`, write k fails (LFS_ERR_IO) but the power stays on."""

    def __init__(self, image=None, torn=False, survive=False):
        super().__init__(buffsize=BLOCK * BLOCKS, buffer=image)
        self.torn = torn
        self.survive = survive
        self.cut_at = None
        self.progs = 0
        self.erases = 0
        self.dead = False

    @property
    def writes(self):
        return self.progs + self.erases

    def arm(self, cut_at):
        """Count writes from zero, and fail write `cut_at` (None: never)."""
        self.progs = self.erases = 0
        self.cut_at = cut_at

    def _fails(self):
        """None if this write happens, else "cut" (the armed write) or "off" (after it)."""
        if self.dead:
            return "off"
        if self.writes + 1 != self.cut_at:
            return None
        self.cut_at = None
        self.dead = not self.survive
        return "cut"

    def prog(self, cfg, block, off, data):
        fails = self._fails()
        if fails is None:
            self.progs += 1
            return super().prog(cfg, block, off, data)
        if fails == "cut" and self.torn:
            super().prog(cfg, block, off, data[: len(data) // 2])
        return IO

    def erase(self, cfg, block):
        fails = self._fails()
        if fails is None:
            self.erases += 1
            return super().erase(cfg, block)
        if fails == "cut" and self.torn:
            start = block * cfg.block_size
            self.buffer[start : start + cfg.block_size // 2] = b"\xff" * (cfg.block_size // 2)
        return IO


class PowerLost(BaseException):
    """The board's power went: nothing runs after this (no firmware handler may catch it)."""


class LfsFS:
    """The firmware's fsio interface on a littlefs-python filesystem on `flash`. As with
    MicroPython's VFS, littlefs errors are OSError(errno). Once the flash has lost power no
    more code runs: every call raises PowerLost."""

    def __init__(self, fs, flash):
        self.lfs = fs
        self.fs = fs.fs
        self.flash = flash

    def _do(self, fn, *args):
        if self.flash.dead:
            raise PowerLost()
        try:
            result = fn(*args)
        except LittleFSError as exc:
            if self.flash.dead:
                raise PowerLost() from exc
            raise OSError(-exc.code, exc.name) from exc
        if self.flash.dead:
            raise PowerLost()
        return result

    def read(self, path):
        try:
            fh = self._do(lfs.file_open, self.fs, path, "rb")
        except OSError as exc:
            if exc.errno == errno.ENOENT:
                return None
            raise
        try:
            return self._do(lfs.file_read, self.fs, fh, self._do(lfs.file_size, self.fs, fh))
        finally:
            self._do(lfs.file_close, self.fs, fh)

    def write(self, path, data):
        fh = self._do(lfs.file_open, self.fs, path, "wb")
        try:
            self._do(lfs.file_write, self.fs, fh, bytes(data))
        finally:
            self._do(lfs.file_close, self.fs, fh)

    def rename(self, old, new):
        self._do(lfs.rename, self.fs, old, new)

    def remove(self, path):
        try:
            self._do(lfs.remove, self.fs, path)
        except OSError as exc:
            if exc.errno != errno.ENOENT:
                raise

    def exists(self, path):
        try:
            self._do(lfs.stat, self.fs, path)
        except OSError:
            return False
        return True

    def listdir(self, path=""):
        return self._do(lambda: self.lfs.listdir(path or "/"))

    def mkdir(self, path):
        try:
            self._do(lfs.mkdir, self.fs, path)
        except OSError as exc:
            if exc.errno != errno.EEXIST:
                raise


def mount(flash, fresh=False):
    """littlefs on `flash`, formatted first if `fresh`; a failed mount is an error (never
    silently reformatted, which would hide a lost journal)."""
    fs = littlefs.LittleFS(flash, mount=False, block_size=BLOCK, block_count=BLOCKS, **RP2)
    if fresh:
        fs.format()
    fs.mount()
    return fs


class VfsLfs2:
    """`vfs.VfsLfs2(bdev, readsize=32, progsize=32, lookahead=32, mtime=True)` on a CutFlash:
    littlefs v2 mounted with these sizes and the cache MicroPython derives from them (four
    times the larger, at most a block). OSError EINVAL for a prog size that is not whole
    flash pages; OSError(errno) if littlefs cannot mount."""

    def __init__(self, bdev, readsize=32, progsize=32, lookahead=32, mtime=True):
        if progsize % PAGE:
            raise OSError(
                errno.EINVAL,
                "progsize %d: the flash programs whole %d-byte pages" % (progsize, PAGE),
            )
        self.progsize = progsize
        self.flash = bdev
        cache = min(BLOCK, 4 * max(readsize, progsize))
        self.lfs = littlefs.LittleFS(
            bdev, mount=False, block_size=BLOCK, block_count=BLOCKS, read_size=readsize,
            prog_size=progsize, cache_size=cache, lookahead_size=lookahead, block_cycles=100,
        )  # fmt: skip
        try:
            self.lfs.mount()
        except LittleFSError as exc:
            raise OSError(-exc.code, exc.name) from exc


class Rp2Vfs:
    """The `vfs` module's mount table: `mount(fs, path)`, `umount(path)` (OSError EPERM for a
    path already mounted, EINVAL for one that is not), `mounted` (path -> VfsLfs2), and
    `files()`, the firmware's fsio interface on what is mounted at "/", where the firmware's
    `open` and `os` calls would land."""

    VfsLfs2 = VfsLfs2

    def __init__(self):
        self.mounted = {}
        self.umounts = 0

    def mount(self, fs, path):
        if path in self.mounted:
            raise OSError(errno.EPERM)
        self.mounted[path] = fs

    def umount(self, path):
        fs = self.mounted.pop(path, None)
        if fs is None:
            raise OSError(errno.EINVAL)
        self.umounts += 1
        fs.lfs.unmount()

    def files(self):
        fs = self.mounted.get("/")
        if fs is None:
            raise OSError(errno.ENODEV)
        return LfsFS(fs.lfs, fs.flash)
