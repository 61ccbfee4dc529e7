"""Read a UF2 file (the format the RP2040's boot ROM takes on its USB drive) into flash bytes.

A UF2 file is a run of 512-byte blocks, each standing alone: a 32-byte header (two start
magics, flags, the flash address, the payload size, the block's number, the count of blocks
and, with flag 0x2000, the chip family's ID), up to 476 bytes of payload and an end magic.
The RP2040's boot ROM writes blocks of 256 bytes to addresses from 0x10000000 (the start of
its XIP flash) and takes only those of the RP2040 family; every other block it ignores.

`image(data)` checks every block the way the project wants a firmware for the Pico to be
(the RP2040's family, 256-byte payloads at 256-byte steps from the flash's start, every block
numbered and counted) and gives the bytes that land in flash from offset 0: what the
emulator (tools/rp2emu.py) loads, and what deploy/layout.py checks against the partitions.
"""

import struct

BLOCK = 512
MAGIC_START0 = 0x0A324655  # "UF2\n"
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FAMILY_ID = 0x00002000
RP2040_FAMILY = 0xE48BFF56
FLASH_BASE = 0x10000000  # the RP2040's XIP flash, as its boot ROM addresses it
PAYLOAD = 256  # what the RP2040's boot ROM writes a block
_HEADER = struct.Struct("<8I")


class Uf2Error(ValueError):
    """A file that is not a firmware the Pico's boot ROM would take whole."""


def image(data, family=RP2040_FAMILY):
    """The flash bytes from offset 0 that the blocks of `data` write; Uf2Error for a file the
    boot ROM would not take whole (with the block's number in the message)."""
    if not data or len(data) % BLOCK:
        raise Uf2Error(
            "%d bytes: a UF2 file is a whole number of %d-byte blocks" % (len(data), BLOCK)
        )
    count = len(data) // BLOCK
    out = bytearray()
    for i in range(count):
        block = data[i * BLOCK : (i + 1) * BLOCK]
        start0, start1, flags, addr, size, number, total, fam = _HEADER.unpack_from(block)
        (end,) = struct.unpack_from("<I", block, BLOCK - 4)
        if (start0, start1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise Uf2Error("block %d: not a UF2 block (its magic numbers are wrong)" % i)
        if flags & FLAG_NOT_MAIN_FLASH:
            raise Uf2Error("block %d: marked as not for the main flash" % i)
        if not flags & FLAG_FAMILY_ID or fam != family:
            raise Uf2Error(
                "block %d: for chip family 0x%08x, not the RP2040's (0x%08x)"
                % (i, fam if flags & FLAG_FAMILY_ID else 0, family)
            )
        if (number, total) != (i, count):
            raise Uf2Error(
                "block %d: numbered %d of %d, in a file of %d blocks" % (i, number, total, count)
            )
        if size != PAYLOAD or addr != FLASH_BASE + i * PAYLOAD:
            raise Uf2Error(
                "block %d: %d bytes at 0x%08x, where the next %d bytes of flash from 0x%08x"
                " were due" % (i, size, addr, PAYLOAD, FLASH_BASE + i * PAYLOAD)
            )
        out += block[32 : 32 + PAYLOAD]
    return bytes(out)
