"""Presence inputs through a chain of 74HC165 parallel-in shift registers, read over SPI.

Wiring (hardware/README.md): SH/LD on `latch`, CLK on SPI SCK, QH of the chip nearest the
RP2040 on SPI MISO; each chip's SER takes QH of the next one, the last SER is tied high and
CLK INH low. Pulling SH/LD low loads every chip's A..H inputs at once; with SH/LD high each
clock shifts the chain one bit towards the RP2040, so the first byte read is the nearest chip,
input H first (bit 7) down to A (bit 0). Square `i` is therefore bit `i & 7` of byte `i >> 3`.

The Hall switches pull their input low when a magnet is near (active low); `read` returns
the raw levels and the caller inverts.
"""


class ShiftChain:
    def __init__(self, spi, latch, chips):
        self.spi = spi
        self.latch = latch
        self.buf = bytearray(chips)  # allocated once; `read` returns this buffer
        latch.value(1)

    def read(self):
        """Load every input and clock them all in: one SPI transfer of `chips` bytes."""
        latch = self.latch
        latch.value(0)  # parallel load (SH/LD low: inputs copied into the registers)
        latch.value(1)  # back to shift mode; QH already shows the first chip's H
        self.spi.readinto(self.buf, 0xFF)
        return self.buf
