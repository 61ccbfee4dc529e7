"""Twin of the antenna matrix: a 74HC595 chain on the antenna switches' gate lines, on SPI0.

`SimHC595Chain(rclk, oe, chips)`, from the 74HC595 datasheet's function table: each rising
SRCLK edge shifts SER into the first stage and every stage one place on (QH' feeds the next
chip's SER); a rising RCLK edge copies the shift stages into the storage registers; OE-bar
high puts the outputs in high impedance, low drives the storage registers onto them; SRCLR-bar
is tied high. `shift` and `storage` number their bytes as hardware/wiring.md numbers the bits:
byte k holds bits 8k..8k+7, and the first byte sent ends in the last chip, as byte 0.

The chain is a device on SPI0 (firmware/sim/bus.SimSPI, or tests/cpsim's busio.SPI), with the
74HC165 presence chain (firmware/sim/hc165_sim.py): SER on MOSI, SRCLK on SCK. Every transfer
calls `spi_transfer(spi, out, into)`, and the chain shifts in the bytes on MOSI, 8 rising SCK
edges a byte. So a presence read clocks the '595 shift stage too, harmlessly: the outputs
change only on RCLK. The controller changes MOSI on one edge of each bit and samples on the
other (`spi_edges`); in SPI modes 1 and 2 it changes MOSI on the rising edge, the very edge
on which the '595 takes SER, and what the chain gets then depends on hold times nobody
promises. The twin takes the worst case, the neighbouring bit, and marks those bits: latching
them is a breach. The '165's mode 2 is such a mode, so the antenna driver writes in mode 3.

`SimAntennaMatrix(rclk, oe, width, height)`: the chain's outputs on the gate lines, bits 0-15
the row lines and bits 16-31 the column lines. A square's coil is connected when OE-bar is
low and its row and column bits are both high. `connected()` lists the squares connected,
`selected()` gives the one square (None for none or several), `field()` the UID of the tag on
it; tests put tags in `tags` (square -> UID bytes). `reader` is the reader twin
(firmware/sim/pn532_sim.py). At every RCLK or OE-bar edge that changes what is connected, the
matrix asks the reader whether its RF field is on: if it is, the switch is a breach, recorded
in `violations`, and the reader fails its next read. Several coils connected at once (the
selection is one-hot) and bits latched from a skewed transfer are breaches too.
"""


class SimHC595Chain:
    def __init__(self, rclk, oe, chips=4):
        self.chips = chips
        self.shift = bytearray(chips)
        self.storage = bytearray(chips)
        self.skewed = bytearray(chips)  # 1: that shift-stage byte was clocked in SPI mode 1/2
        self.rclk = rclk
        self.oe = oe
        self.latches = 0  # RCLK rising edges
        self.clocked = 0  # bytes shifted in
        self.latched_skewed = False  # the last RCLK latched skewed bits
        self.listeners = []  # listener(what) after every RCLK rising edge or OE-bar edge
        rclk.listeners.append(self._rclk_changed)
        oe.listeners.append(self._oe_changed)

    def spi_transfer(self, spi, out, into):
        """Shift the MOSI bytes `out` in; MISO (`into`) is not the '595's to drive."""
        n = len(out)
        self.clocked += n
        first = n - self.chips if n > self.chips else 0  # the rest falls off the far end
        skew = spi.polarity != spi.phase  # modes 1 and 2: MOSI changes on the rising edge
        shift, skewed = self.shift, self.skewed
        last = self.chips - 1
        for k in range(first, n):
            byte = out[k] if not skew else _skewed_byte(out, k, spi.phase)
            for j in range(last):
                shift[j] = shift[j + 1]
                skewed[j] = skewed[j + 1]
            shift[last] = byte
            skewed[last] = 1 if skew else 0

    def driven(self):
        """The outputs as one number (bit 8k + n: output n of byte k), None while OE-bar is
        high (high impedance)."""
        if self.oe.value():
            return None
        value = 0
        for k in range(self.chips):
            value |= self.storage[k] << (8 * k)
        return value

    def _rclk_changed(self, pin, level):
        if level:
            self.latches += 1
            self.storage[:] = self.shift
            self.latched_skewed = any(self.skewed)
            self._tell("RCLK")

    def _oe_changed(self, pin, level):
        self._tell("OE-bar high" if level else "OE-bar low")

    def _tell(self, what):
        for listener in self.listeners:
            listener(what)


def _skewed_byte(out, k, phase):
    """Byte `k` of `out` as a '595 takes it when MOSI changes on its shifting edge, the worst
    case: each bit is its neighbour on the far side of that edge. Mode 2 (phase 0) changes
    MOSI to the next bit there; mode 1 (phase 1) from the previous one. Past either end the
    line is taken to keep the nearest bit's level."""
    end = 8 * len(out) - 1
    byte = 0
    for j in range(8):
        p = 8 * k + j + (1 if phase == 0 else -1)
        p = max(0, min(p, end))
        byte = byte << 1 | (out[p >> 3] >> (7 - (p & 7)) & 1)
    return byte


class SimAntennaMatrix:
    def __init__(self, rclk, oe, width=15, height=15, reader=None):
        self.chain = SimHC595Chain(rclk, oe, 4)
        self.width = width
        self.height = height
        self.reader = reader
        self.tags = {}  # square index -> UID bytes
        self.violations = []
        self.switches = 0  # changes of what is connected
        self._now = self.connected()
        self.chain.listeners.append(self._edge)

    def spi_transfer(self, spi, out, into):
        self.chain.spi_transfer(spi, out, into)

    def connected(self):
        """The squares whose coil is connected to the reader, as a tuple."""
        bits = self.chain.driven()
        if not bits:
            return ()
        rows, cols = bits & 0xFFFF, bits >> 16
        out = []
        for r in range(self.height):
            if rows >> r & 1:
                for c in range(self.width):
                    if cols >> c & 1:
                        out.append(r * self.width + c)
        return tuple(out)

    def selected(self):
        """The one square whose coil is connected, or None (none, or several)."""
        now = self.connected()
        return now[0] if len(now) == 1 else None

    def field(self):
        """UID of the tag coupled to the reader's antenna, or None."""
        index = self.selected()
        return None if index is None else self.tags.get(index)

    def _edge(self, what):
        if what == "RCLK" and self.chain.latched_skewed:
            self.violations.append(
                "RCLK latched bits clocked in SPI mode 1 or 2 (SER changes on the SCK edge "
                "that shifts it in)"
            )
        now = self.connected()
        before = self._now
        if now == before:
            return
        self._now = now
        self.switches += 1
        change = "%s: %s -> %s" % (what, list(before), list(now))
        if len(now) > 1:
            self.violations.append("%d coils connected at once (%s)" % (len(now), change))
        reader = self.reader
        if reader is not None and reader.antenna_switched(change):
            self.violations.append("antenna switched with the RF field on (%s)" % change)
