"""Presence inputs through a chain of 74HC165 parallel-in shift registers, read over SPI.

Wiring (hardware/README.md): SH/LD on `latch`, CLK on SPI SCK, QH of the chip nearest the
RP2040 on SPI MISO; each chip's SER takes QH of the next one, the last SER is tied high and
CLK INH low. Pulling SH/LD low loads every chip's A..H inputs at once; with SH/LD high each
clock shifts the chain one bit towards the RP2040, so the first byte read is the nearest chip,
input H first (bit 7) down to A (bit 0). Square `i` is therefore bit `i & 7` of byte `i >> 3`.

The SPI mode. The '165 shifts on the rising (LOW-to-HIGH) edge of CLK, and QH already shows
input H of the first chip as soon as SH/LD is high, before any clock. So the controller must
sample QH on the falling edge, the first one before any rising edge: SPI mode 2
(`SPI_POLARITY` 1: the clock idles high, as the datasheet wants it while SH/LD rises;
`SPI_PHASE` 0: sample on the leading, falling edge; QH changes on the trailing, rising edge,
half a clock period before the next sample). Modes 0 and 3 sample on the rising edge, the
one that shifts: they read QH before or after the shift depending on whether the '165's
clock-to-output delay outlasts the RP2040's input hold time, which no datasheet promises.
Mode 1 samples on the falling edge but shifts first, so it always reads a bit late.
(firmware/sim/hc165_sim.py reads all three a bit late.) Every backend configures its SPI bus
from these two constants.

The Hall switches pull their input low when a magnet is near (active low); `read` returns
the raw levels and the caller inverts.
"""

from engine.compat import const

SPI_POLARITY = const(1)  # CPOL: the clock idles high (CLK high while SH/LD rises)
SPI_PHASE = const(0)  # CPHA: sample on the leading (falling) edge; the '165 shifts on rising


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
