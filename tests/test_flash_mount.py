"""The board's flash is remounted as the rp2 port mounts it: littlefs with 256-byte prog pages.

`FlashFS.remount` (firmware/fsio.py, used by firmware/backend_rp2.py) runs here unchanged,
given twins of the port's `vfs` module and of `rp2.Flash()` (tests/flashsim.py: littlefs-python
on a flash whose `VfsLfs2` refuses a prog size that is not whole 256-byte pages, as the
RP2040's flash programs only whole pages). CPython only: littlefs-python.
"""

import errno

import pytest

pytest.importorskip("littlefs")

from firmware.fsio import PROG_SIZE, FlashFS
from firmware.journal import Journal, JournalError
from tests.flashsim import CutFlash, Rp2Vfs, VfsLfs2, mount


class BoardFlash(FlashFS):
    """FlashFS whose file calls land on what the `vfs` twin has mounted at "/", as the
    firmware's `open` and `os` calls do on the board; `remount` is FlashFS's own."""

    def read(self, path):
        return self.vfs.files().read(path)

    def write(self, path, data):
        self.vfs.files().write(path, data)

    def rename(self, old, new):
        self.vfs.files().rename(old, new)

    def remove(self, path):
        self.vfs.files().remove(path)

    def exists(self, path):
        return self.vfs.files().exists(path)


def booted(flash):
    """The `vfs` twin after the port's _boot.py: littlefs on the flash at "/"."""
    vfs = Rp2Vfs()
    vfs.mount(VfsLfs2(flash, progsize=256), "/")
    return vfs


def test_the_flash_twin_refuses_a_prog_size_below_a_page():
    flash = CutFlash()
    mount(flash, fresh=True)
    err = pytest.raises(OSError, VfsLfs2, flash).value  # MicroPython's default: progsize=32
    assert err.errno == errno.EINVAL
    assert "256-byte pages" in str(err)
    with pytest.raises(OSError):
        VfsLfs2(flash, progsize=128)
    assert VfsLfs2(flash, progsize=256).progsize == 256


def test_remount_mounts_littlefs_with_the_flash_page_as_prog_size():
    flash = CutFlash()
    mount(flash, fresh=True)
    vfs = booted(flash)
    vfs.files().write("game.dat", b"kept")
    fs = FlashFS("", vfs, flash)
    fs.remount()
    assert vfs.umounts == 1
    assert vfs.mounted["/"].progsize == PROG_SIZE == 256
    assert vfs.files().read("game.dat") == b"kept"
    fs.remount()  # and again: the previous mount is the one unmounted
    assert vfs.umounts == 2
    assert vfs.files().read("game.dat") == b"kept"


def test_a_failed_save_remounts_and_the_next_save_lands():
    """The flash refuses a block write but stays on: `Journal.save` raises JournalError and
    remounts the flash through FlashFS.remount; the next save then lands and is read back."""
    flash = CutFlash(survive=True)
    mount(flash, fresh=True)
    vfs = booted(flash)
    fs = BoardFlash("", vfs, flash)
    journal = Journal(fs)
    journal.save(b"turn 1")
    flash.arm(1)  # the next block write fails
    with pytest.raises(JournalError):
        journal.save(b"turn 2")
    assert vfs.umounts == 1
    assert vfs.mounted["/"].progsize == 256
    journal.save(b"turn 2")
    assert journal.load() == (b"turn 2", None)
    # What is on the flash: a fresh mount, as after a power cycle, reads the same.
    assert Journal(BoardFlash("", booted(flash), flash)).load() == (b"turn 2", None)
