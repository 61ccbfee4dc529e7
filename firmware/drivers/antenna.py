"""The antenna matrix: connects the one NFC reader to one square's coil, through four 74HC595.

Wiring (hardware/wiring.md, "NFC antenna matrix"): the 32 outputs of four chained 74HC595
drive the gate lines of the antenna switches, bits 0-14 the row switches R0-R14 and bits
16-30 the column switches C0-C14. Square (r, c) is connected only when row line r and column
line c are both high, so a selection is one row bit and one column bit. The chain's SER and
SRCLK are the presence chain's SPI bus (SPI0 TX and SCK); `latch` is RCLK, whose rising edge
copies the shift stage to the outputs; `enable` is OE-bar: high puts the outputs in high
impedance and the gate pull-downs turn every switch off (a 10 kOhm pull-up holds it high at
boot). Four bytes sent MSB first land with the first byte in the last chip, so byte k holds
bits 8k..8k+7 (row lines, then column lines).

The 74HC165 reads clock this chain's shift stage too. That is harmless: the outputs change
only on RCLK, and every selection writes all 32 bits before its RCLK pulse. The '595 takes SER
on the rising SCK edge, so the bytes go out in SPI mode 3 (polarity 1, phase 1: MOSI changes
on the falling edge, half a period before); in the '165's mode 2 MOSI would change on the very
edge that shifts it in. Given `bus_mode` (the bus's (polarity, phase) for its other user), the
matrix switches the bus to mode 3 for its write and back after; the clock idles high in both,
so no stray edge reaches either chain.

The RF field must be off whenever the antennas change (hardware/README.md, "Firmware
implications"). Given the `reader`, `select` refuses while `reader.field_on` holds, raising
FieldOnError, and `off` leaves a connected coil connected (and returns False): `off` runs in
`finally` blocks, where raising would hide the reader's own error. The gates settle in about
30 us; the reader's field-on command that follows a selection takes longer than that just to
cross the I2C bus, so no wait is needed here.
"""

_BYTES = 4  # four 74HC595: 16 row lines, then 16 column lines


class FieldOnError(Exception):
    """An antenna switch was asked for while the reader's RF field may be on."""


class AntennaMatrix:
    def __init__(self, spi, latch, enable, reader=None, rows=15, cols=15, bus_mode=None):
        if not (0 < rows <= 16 and 0 < cols <= 16):
            raise ValueError("the 74HC595 chain switches at most 16 rows and 16 columns")
        self._spi = spi
        self._bus_mode = bus_mode
        self._latch = latch
        self._enable = enable
        self._reader = reader
        self.rows = rows
        self.cols = cols
        self._buf = bytearray(_BYTES)  # allocated once: a selection allocates nothing
        self.selected = None
        latch.value(0)
        self.off()

    def _field_on(self):
        reader = self._reader
        return reader is not None and reader.field_on

    def _load(self, row_bits, col_bits):
        """Shift the 32 gate-line bits in and latch them (RCLK rising edge)."""
        buf = self._buf
        buf[0] = row_bits & 0xFF
        buf[1] = row_bits >> 8
        buf[2] = col_bits & 0xFF
        buf[3] = col_bits >> 8
        spi, mode = self._spi, self._bus_mode
        if mode is None:
            spi.write(buf)
        else:
            spi.init(polarity=1, phase=1)
            try:
                spi.write(buf)
            finally:
                spi.init(polarity=mode[0], phase=mode[1])
        latch = self._latch
        latch.value(1)
        latch.value(0)

    def select(self, square, width=15):
        """Connect the coil of square `square` (row-major, `width` squares a row)."""
        if square < 0:
            raise ValueError("no antenna for square %d" % square)
        row = square // width
        col = square - row * width
        if row >= self.rows or col >= self.cols:
            raise ValueError("no antenna for square %d" % square)
        if self._field_on():
            raise FieldOnError("antenna switch refused: the RF field is on")
        self._enable.value(1)  # every switch off while the new bits go in
        self._load(1 << row, 1 << col)
        self._enable.value(0)
        self.selected = square

    def off(self):
        """Disconnect every coil: OE-bar high, then zeros latched. While the field may be on,
        a connected coil stays connected, and this returns False."""
        if self.selected is not None and self._field_on():
            return False
        self._enable.value(1)
        self._load(0, 0)
        self.selected = None
        return True
