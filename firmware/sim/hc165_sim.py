"""Twin of a 74HC165 chain on an SPI bus, from the 74HC165 datasheet's function table.

- SH/LD low: the registers follow the parallel inputs A..H (asynchronous load); clocking
  has no effect, and QH shows input H of the first chip.
- SH/LD high: each rising CLK edge shifts every register one place towards QH; a chip's SER
  feeds its A stage from the next chip's QH, and the last chip's SER is tied high.

`readinto(buf, write)` stands for `machine.SPI.readinto`: 8 clocks a byte, MSB first, each bit
sampled from QH before the edge that shifts it out (the backend uses SPI mode 3: the clock
idles high while SH/LD rises, as the datasheet asks; the bit order is the same in mode 0).
A test sets the Hall switches with `set(i, present)`: an input reads low when a magnet is
present. `noise` may be a callable `(square) -> bool` that flips a sensor's reading for one
load, to model flicker.
"""


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
        self._shifted = 0  # bits shifted since the last load

    def set(self, square, present):
        k, bit = square >> 3, 1 << (square & 7)
        if present:
            self.inputs[k] &= ~bit & 0xFF
        else:
            self.inputs[k] |= bit

    def present(self, square):
        return not (self.inputs[square >> 3] >> (square & 7)) & 1

    def _latch_changed(self, pin, level):
        if level == 0:
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

    def _shift_byte(self):
        """Shift 8 bits out of QH; returns them MSB first (first chip's H, G, ... A)."""
        out = self.regs[0]
        regs = self.regs
        for k in range(self.chips - 1):
            regs[k] = regs[k + 1]
        regs[self.chips - 1] = 0xFF  # SER of the last chip is tied high
        self._shifted += 8
        return out

    def readinto(self, buf, write=0):
        self.reads += 1
        if self.latch.value() == 0:
            # Still loading: QH is input H of the first chip, clocks do nothing.
            level = 0xFF if self.inputs[0] & 0x80 else 0
            for k in range(len(buf)):
                buf[k] = level
            return
        for k in range(len(buf)):
            buf[k] = self._shift_byte()
