"""Twin of an SSD1306 128x64 OLED module on I2C, modelled from the SSD1306 datasheet.

Attach it with `bus.attach(0x3C, SimSSD1306())`; detach it to make the display stop answering.
Each `write(data)` is one I2C write transaction: control bytes (Co and D/C# bits) select
commands or display data. 0x00 starts a command stream and 0x40 a data stream, each running
to the end of the transaction. 0x80 and 0xC0 carry one command or data byte, then another
control byte follows. A command waiting for its arguments keeps waiting across transactions.

GDDRAM is `ram` (8 pages of 128 bytes, bit 0 on top). Data goes to the address pointer, which
moves as in the datasheet. Page addressing (the reset default) wraps the column within the
column window and keeps the page. Horizontal and vertical addressing run through the
column x page window and wrap back to its start. RAM starts with arbitrary content (fixed
noise), as on a real chip.

What the glass shows, `glass(x, y)`, is modelled on the common 128x64 module. Its segments
are wired right to left and its rows to alternate COM pins. So it is upright only with
segment remap (0xA1), COM scan from COM[N-1] (0xC8) and the alternative COM pin
configuration (0xDA 0x12). Other settings mirror the image or interleave its rows, as on the
real module. The display start line and the display offset shift the rows; rows beyond the
multiplex ratio stay dark. Scrolling, fading and zoom are accepted but not drawn.

Counters: `data_transfers` and `data_bytes` count transactions carrying display data and their
bytes. `frames` counts data transactions that ended exactly at the end of the window in
horizontal or vertical mode, so the pointer wrapped to its start (a whole window was sent).
`unknown` lists command bytes the SSD1306 does not have, invalid arguments (as the command
byte) and control bytes with reserved bits set; a correct driver leaves it empty.

The SH1106 twin (sh1106_sim.py) is this class with its own RAM width (`COLUMNS`), panel
columns (`LEFT`, `RIGHT`), command table (`ARGS`, `_single`, `_run`) and address counter
(`_data`).
"""

from firmware import font

# Arguments each multi-byte command takes; every other command is one byte.
_ARGS = {
    0x81: 1,  # contrast
    0x8D: 1,  # charge pump
    0x20: 1,  # memory addressing mode
    0x21: 2,  # column address window
    0x22: 2,  # page address window
    0xA8: 1,  # multiplex ratio
    0xD3: 1,  # display offset
    0xD5: 1,  # display clock divide ratio / oscillator frequency
    0xD9: 1,  # pre-charge period
    0xDA: 1,  # COM pins hardware configuration
    0xDB: 1,  # VCOMH deselect level
    0xA3: 2,  # vertical scroll area
    0x26: 6,  # continuous horizontal scroll set-up (right, left)
    0x27: 6,
    0x29: 5,  # continuous vertical and horizontal scroll set-up
    0x2A: 5,
    0x2C: 6,  # one-column content scroll set-up
    0x2D: 6,
    0x23: 1,  # fade out / blinking
    0xD6: 1,  # zoom in
}
_ONE_BYTE = (0x2E, 0x2F, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3)
_PAGE_MODE = 2


def _build_decoder():
    table = {bytes(font.glyph("\ufffd")): "\ufffd"}  # the box drawn for unknown characters
    for ch in font.charset():
        table[bytes(font.glyph(ch))] = ch
    return table


# Glyph bytes -> character. Built at import, not on first use: a table built in the middle of
# a test would be a long-lived block among a board's short-lived ones, splintering the heap
# of a Pico running the tests (tests/test_pico.py).
_decoder = _build_decoder()


def _decode_table():
    return _decoder


def _alt_com(row):
    """COM pin that shows row counter `row` with the alternative configuration and no remap."""
    return row // 2 if row % 2 == 0 else 32 + row // 2


class SimSSD1306:
    COLUMNS = 128  # RAM columns a page
    # RAM column shown at glass column x: LEFT + x with segment remap, RIGHT - x without.
    LEFT = 0
    RIGHT = 127
    ARGS = _ARGS

    def __init__(self):
        n = self.COLUMNS * 8
        self.ram = bytearray(n)
        seed = 0x2545
        for i in range(n):  # power-up GDDRAM is not cleared
            seed = (seed * 1103 + 12345) & 0xFFFF
            self.ram[i] = seed >> 8
        self.mode = _PAGE_MODE
        self.col = 0
        self.page = 0
        self.col_start, self.col_end = 0, 127
        self.page_start, self.page_end = 0, 7
        self.display_on = False
        self.charge_pump = False
        self.contrast = 0x7F
        self.inverse = False
        self.entire_on = False
        self.seg_remap = False
        self.com_remap = False
        self.mux = 63
        self.offset = 0
        self.start_line = 0
        self.com_pins = 0x12
        self.settings = {}  # last arguments of the other commands (clock, pre-charge...)
        self.scrolling = False
        self.unknown = []
        self.data_transfers = 0
        self.data_bytes = 0
        self.frames = 0
        self._cmd = bytearray(7)
        self._have = 0  # bytes of the pending command received
        self._need = 0  # bytes the pending command needs in all
        self._wrapped = False
        self._rows = None  # glass row -> RAM row (-1: dark), rebuilt after commands

    @property
    def on(self):
        """Lit: display on and the charge pump enabled (this module has no external VCC)."""
        return self.display_on and self.charge_pump

    # -- I2C ----------------------------------------------------------------------------------

    def write(self, data):
        n = len(data)
        i = 0
        sent = 0
        while i < n:
            ctrl = data[i]
            i += 1
            if ctrl & 0x3F:
                self.unknown.append(ctrl)
            end = min(i + 1, n) if ctrl & 0x80 else n
            if ctrl & 0x40:
                for k in range(i, end):
                    self._data(data[k])
                sent += end - i
            else:
                for k in range(i, end):
                    self._command(data[k])
            i = end
        if sent:
            self.data_transfers += 1
            self.data_bytes += sent
            if self._wrapped:
                self.frames += 1

    def read(self, n):
        """Status byte: bit 6 set while the display is off."""
        return bytes([0x00 if self.display_on else 0x40] * n)

    # -- commands -----------------------------------------------------------------------------

    def _command(self, b):
        self._rows = None
        if self._need:
            self._cmd[self._have] = b
            self._have += 1
            if self._have == self._need:
                self._need = 0
                self._run(self._cmd[0], self._cmd[1 : self._have])
            return
        n = self.ARGS.get(b)
        if n is not None:
            self._cmd[0] = b
            self._have = 1
            self._need = n + 1
        elif self._single(b):
            self._run(b, b"")
        else:
            self.unknown.append(b)

    def _single(self, b):
        """Whether `b` is a one-byte command of this controller."""
        return b < 0x20 or 0x40 <= b < 0x80 or 0xB0 <= b <= 0xB7 or b in _ONE_BYTE

    def _run(self, c, a):
        if c < 0x10:
            if self.mode == _PAGE_MODE:
                self.col = (self.col & 0xF0) | c
        elif c < 0x20:
            if self.mode == _PAGE_MODE:
                self.col = (self.col & 0x0F) | (c & 0x07) << 4
        elif 0x40 <= c < 0x80:
            self.start_line = c & 0x3F
        elif 0xB0 <= c <= 0xB7:
            if self.mode == _PAGE_MODE:
                self.page = c & 0x07
        elif c == 0x20:
            if a[0] & 3 == 3:
                self.unknown.append(c)
            else:
                self.mode = a[0] & 3
        elif c == 0x21:
            self.col_start, self.col_end = a[0] & 0x7F, a[1] & 0x7F
            self.col = self.col_start
        elif c == 0x22:
            self.page_start, self.page_end = a[0] & 0x07, a[1] & 0x07
            self.page = self.page_start
        elif c == 0x81:
            self.contrast = a[0]
        elif c == 0x8D:
            self.charge_pump = bool(a[0] & 0x04)
        elif c == 0xA8:
            if a[0] & 0x3F < 15:
                self.unknown.append(c)
            else:
                self.mux = a[0] & 0x3F
        elif c == 0xD3:
            self.offset = a[0] & 0x3F
        elif c == 0xDA:
            self.com_pins = a[0]
        elif c in (0xAE, 0xAF):
            self.display_on = c == 0xAF
        elif c in (0xA6, 0xA7):
            self.inverse = c == 0xA7
        elif c in (0xA4, 0xA5):
            self.entire_on = c == 0xA5
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xC0, 0xC8):
            self.com_remap = c == 0xC8
        elif c in (0x2E, 0x2F):
            self.scrolling = c == 0x2F
        elif c != 0xE3:  # the rest is remembered only
            self.settings[c] = bytes(a)

    # -- display data -------------------------------------------------------------------------

    def _data(self, b):
        self.ram[self.page * 128 + self.col] = b
        self._wrapped = False
        if self.mode == _PAGE_MODE:
            self.col = self.col_start if self.col >= self.col_end else self.col + 1
        elif self.mode == 0:  # horizontal: along the page, then the next page
            if self.col >= self.col_end:
                self.col = self.col_start
                if self.page >= self.page_end:
                    self.page = self.page_start
                    self._wrapped = True
                else:
                    self.page += 1
            else:
                self.col += 1
        elif self.page >= self.page_end:  # vertical: down the column, then the next column
            self.page = self.page_start
            if self.col >= self.col_end:
                self.col = self.col_start
                self._wrapped = True
            else:
                self.col += 1
        else:
            self.page += 1

    # -- the glass ----------------------------------------------------------------------------

    def _row_table(self):
        if self._rows is None:
            rows = []
            for y in range(64):
                pin = 63 - _alt_com(y)  # the COM pin wired to glass row y
                if self.com_remap:
                    pin = 63 - pin
                if self.com_pins & 0x20:  # COM left/right remap
                    pin ^= 32
                if self.com_pins & 0x10:
                    r = 2 * pin if pin < 32 else 2 * (pin - 32) + 1
                else:
                    r = pin
                rows.append((r + self.start_line + self.offset) % 64 if r <= self.mux else -1)
            self._rows = rows
        return self._rows

    def glass(self, x, y):
        """1 if the pixel at column x, row y of the glass (origin top left) is lit."""
        if not self.on:
            return 0
        row = self._row_table()[y]
        if row < 0:
            return 0
        if self.entire_on:
            return 1
        col = self.LEFT + x if self.seg_remap else self.RIGHT - x
        bit = self.ram[(row >> 3) * self.COLUMNS + col] >> (row & 7) & 1
        return bit ^ 1 if self.inverse else bit

    def text_lines(self):
        """The glass read as 8 lines of 21 font cells; "\ufffd" where no glyph matches."""
        table = _decode_table()
        cell = bytearray(font.CELL_W)
        lines = []
        for line in range(8):
            chars = []
            for x0 in range(0, 126, font.CELL_W):
                for k in range(font.CELL_W):
                    b = 0
                    for dy in range(8):
                        b |= self.glass(x0 + k, line * 8 + dy) << dy
                    cell[k] = b
                chars.append(table.get(bytes(cell), "\ufffd"))
            lines.append("".join(chars).rstrip(" "))
        return lines
