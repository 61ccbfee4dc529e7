"""The antenna multiplexer: connects the one NFC reader to one square's antenna coil.

Two analog multiplexer levels are addressed by binary row and column numbers (pin lists are
least significant bit first). The enable line is active low: high disconnects every antenna.
Switching is break-before-make: disable, set the address, enable, so the reader never sees a
square on the way.
"""


class AntennaMux:
    def __init__(self, row_pins, col_pins, enable=None):
        self._rows = tuple(row_pins)
        self._cols = tuple(col_pins)
        self._enable = enable
        self.selected = None
        self.off()

    def select(self, index, width=15):
        """Connect the antenna of square `index` (row-major, `width` squares a row)."""
        row, col = divmod(index, width)
        if index < 0 or col >= 1 << len(self._cols) or row >= 1 << len(self._rows):
            raise ValueError("no antenna for square %d" % index)
        self.off()
        for bit in range(len(self._rows)):
            self._rows[bit].value((row >> bit) & 1)
        for bit in range(len(self._cols)):
            self._cols[bit].value((col >> bit) & 1)
        if self._enable is not None:
            self._enable.value(0)
        self.selected = index

    def off(self):
        """Disconnect every antenna."""
        if self._enable is not None:
            self._enable.value(1)
        self.selected = None
