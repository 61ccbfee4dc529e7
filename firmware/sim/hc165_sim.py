"""Twin of a 74HC165 chain on an SPI bus, clock edge by clock edge, from the datasheet.

From the 74HC165 function table:
- SH/LD low: the registers follow the parallel inputs A..H (asynchronous load); clocking
  has no effect, and QH shows input H of the first chip. They keep the inputs' levels of the
  moment SH/LD goes high again.
- SH/LD high: each rising (LOW-to-HIGH) CLK edge shifts every register one place towards
  QH; a chip's SER feeds its A stage from the next chip's QH, and the last chip's SER is
  tied high. Falling edges do nothing. So right after a load, before any clock, QH already
  shows the first chip's H.

The chain is a device on a `firmware.sim.bus.SimSPI` (or on tests/cpsim's busio.SPI): each
transfer calls `spi_transfer(spi, out, into)`, and the chain plays the SCK edges of every bit
in the bus's mode (`spi.polarity`, `spi.phase`; `bus.spi_edges`): it shifts on each rising
edge, and the controller samples QH on the edge the mode names. A write to another device on
the shared bus clocks the chain too.

When the sampling edge is the shifting edge (the rising edge: SPI modes 0 and 3), the
controller samples QH just as it changes, and what it reads depends on the '165's
clock-to-output delay against the RP2040's input hold time. The datasheet gives that delay
no minimum, so nothing guarantees the margin: the twin models the worst case, zero delay,
and samples the level after the shift. In those modes it reads every bit one place late,
where a real chain would read right only thanks to its propagation delay. Mode 1 samples on
the falling edge, but after a rising edge has already shifted H out: one place late on any
chain. Mode 2 (the firmware's, firmware/drivers/hc165.py) samples on the falling edge, half a
period after each shift and before the first, and reads right.

A test sets the Hall switches with `set(i, present)`: an input reads low when a magnet is
present. `noise` may be a callable `(square) -> bool` that flips a sensor's reading for one
load, to model flicker. `loads` counts parallel loads and `reads` transfers.
"""

from firmware.sim.bus import spi_edges


class SimShiftChain:
    def __init__(self, latch, chips):
        self.chips = chips
        self.inputs = bytearray(b"\xff" * chips)  # pulled-up inputs: no magnet anywhere
        self.regs = bytearray(chips)
        self.loads = 0
        self.reads = 0
        self.noise = None
        self.latch = latch
        latch.listeners.append(self._latch_changed)
        self._shifted = 0  # rising CLK edges since the last load: QH shows that bit

    def set(self, square, present):
        k, bit = square >> 3, 1 << (square & 7)
        if present:
            self.inputs[k] &= ~bit & 0xFF
        else:
            self.inputs[k] |= bit

    def present(self, square):
        return not (self.inputs[square >> 3] >> (square & 7)) & 1

    def _latch_changed(self, pin, level):
        if level == 1:  # the end of the load: the registers keep what the inputs are now
            self._load()

    def _load(self):
        self.loads += 1
        self.regs[:] = self.inputs
        noise = self.noise
        if noise is not None:
            for square in range(self.chips * 8):
                if noise(square):
                    self.regs[square >> 3] ^= 1 << (square & 7)
        self._shifted = 0

    def qh(self):
        """The level on QH of the first chip (the chain's serial output) now."""
        if self.latch.value() == 0:
            return self.inputs[0] >> 7  # loading: QH follows input H of the first chip
        s = self._shifted
        if s >= self.chips * 8:
            return 1  # the ones shifted in from the last chip's SER
        return self.regs[s >> 3] >> (7 - (s & 7)) & 1

    def spi_transfer(self, spi, out, into):
        """Clock 8 bits a byte in `spi`'s mode; fill `into` (if given) with QH as sampled.
        (`qh` inlined: this runs on every scan of every simulated board.)"""
        self.reads += 1
        edges = spi_edges(spi.polarity, spi.phase)
        loading = self.latch.value() == 0  # with SH/LD low, clocks have no effect
        first_h = self.inputs[0] >> 7
        regs = self.regs
        nbits = self.chips * 8
        s = self._shifted
        for k in range(len(out)):
            byte = 0
            for _ in range(8):
                for rising, sampled in edges:
                    if rising and not loading:
                        s += 1  # shift first: zero clock-to-output delay (the worst case)
                    if sampled:
                        if loading:
                            bit = first_h
                        elif s < nbits:
                            bit = regs[s >> 3] >> (7 - (s & 7)) & 1
                        else:
                            bit = 1
                        byte = byte << 1 | bit
            if into is not None:
                into[k] = byte
        self._shifted = s
