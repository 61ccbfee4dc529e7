"""The small filesystem interface the firmware uses, over the runtime's own `open` and `os`.

On the board this is MicroPython's littlefs v2 on the RP2040's flash; on a PC it is the host
filesystem. Tests hand the firmware other objects with the same methods: an in-memory fake,
or littlefs-python on a block device that can lose power (tests/test_journal_powercut.py).

Paths are relative to `root` ("" means as given). Errors are OSError, as the VFS raises
them; a missing file has errno ENOENT (2 on rp2 and Linux, 44 on the WASI test build).

`FlashFS` is the board's flash: `DeviceFS` that can also be remounted after a failed write,
with littlefs v2 on `rp2.Flash()` as the rp2 port mounts it at boot (its _boot.py):
`VfsLfs2(bdev, progsize=256)`, since the RP2040's flash programs whole 256-byte pages (the
SDK's flash_range_program takes page-aligned whole pages). With MicroPython's default
progsize, 32, littlefs would program 32-byte pieces: a failed save could then corrupt the
filesystem.
"""

import os

try:
    from errno import ENOENT
except ImportError:
    ENOENT = 2  # type: ignore[misc]  # the stub declares errno.ENOENT Final

# os.replace overwrites the target on every CPython platform; MicroPython has only rename,
# which on littlefs replaces an existing file atomically (os.rename on POSIX does too).
_replace = getattr(os, "replace", os.rename)


def _missing(exc):
    return bool(exc.args) and exc.args[0] == ENOENT


class DeviceFS:
    def __init__(self, root=""):
        self.root = root

    def _p(self, path):
        if not self.root:
            return path or "."
        return self.root + "/" + path if path else self.root

    def read(self, path):
        """The file's bytes, or None if it does not exist."""
        try:
            with open(self._p(path), "rb") as f:
                return f.read()
        except OSError as exc:
            if _missing(exc):
                return None
            raise

    def write(self, path, data):
        with open(self._p(path), "wb") as f:
            f.write(data)

    def rename(self, old, new):
        """Rename `old` to `new`, replacing `new` if it exists."""
        _replace(self._p(old), self._p(new))

    def remove(self, path):
        """Remove a file; no error if it is not there."""
        try:
            os.remove(self._p(path))
        except OSError as exc:
            if not _missing(exc):
                raise

    def size(self, path):
        """A file's size in bytes, or None if it does not exist."""
        try:
            return os.stat(self._p(path))[6]
        except OSError:
            return None

    def exists(self, path):
        try:
            os.stat(self._p(path))
        except OSError:
            return False
        return True

    def listdir(self, path=""):
        return os.listdir(self._p(path))

    def mkdir(self, path):
        """Make a directory; no error if it exists."""
        try:
            os.mkdir(self._p(path))
        except OSError:
            if not self.exists(path):
                raise


PROG_SIZE = 256  # littlefs program size on the RP2040: one flash page


class FlashFS(DeviceFS):
    """The board's littlefs flash, which can be remounted after a failed write (journal.py).

    `vfs` and `flash` are the port's `vfs` module (`os` before MicroPython 1.23) and the block
    device, `rp2.Flash()`; left out, they are found at the first remount. A test passes
    twins of them (tests/flashsim.py)."""

    def __init__(self, root="", vfs=None, flash=None):
        super().__init__(root)
        self.vfs = vfs
        self.flash = flash

    def remount(self):
        """Unmount the flash and mount it again as the port does at boot."""
        mod = self.vfs
        if mod is None:
            try:
                import vfs as mod  # MicroPython 1.23 and later
            except ImportError:  # 1.22 has the same calls in os
                import os as mod
            self.vfs = mod
        if self.flash is None:
            import rp2

            self.flash = rp2.Flash()
        mod.umount("/")
        mod.mount(mod.VfsLfs2(self.flash, progsize=PROG_SIZE), "/")
