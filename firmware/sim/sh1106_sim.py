"""Twin of an SH1106 (132x64 RAM) on a 1.3-inch 128x64 OLED module, on I2C, from its datasheet.

Attach it as the SSD1306 twin: `bus.attach(0x3C, SimSH1106())`. What the two controllers
share comes from SimSSD1306 (firmware/sim/ssd1306_sim.py): the I2C framing (control bytes
with the Co and D/C# bits), a command waiting for its argument across transactions, the COM
wiring of the glass, display start line, offset, multiplex ratio, segment remap, COM scan
direction, contrast, inverse and entire-on, and `text_lines()`. What differs, as the SH1106
datasheet has it (hardware/README.md, source S39):
  - the RAM is 8 pages of 132 columns (`ram`, 132 bytes a page), with noise at power-up;
  - page addressing only. B0-B7 set the page, 00-0F and 10-18 the low and high nibbles of
    the column (0-131). Each data byte goes to (page, column), then the column counts up
    until it is past 131: later bytes are lost, and the page never changes;
  - the module's 128-pixel panel is wired to segments 2-129, right to left: with segment
    remap (A1) glass column x shows RAM column x + 2, without it RAM column 129 - x;
  - its own commands: pump voltage (30-33), DC-DC control (AD, then 8B on or 8A off; on at
    reset), read-modify-write (E0, until EE puts the column back) and NOP (E3). A byte that
    is none of its commands, such as the SSD1306's addressing commands 0x20, 0x21 and 0x22,
    its charge pump 0x8D and its scrolling, is listed in `unknown` and ignored; the bytes
    sent as its arguments are then taken as commands of their own, as the chip would (the
    SSD1306's column window 21 00 7F sets the column's low nibble to 0, then the display
    start line to 63);
  - lit (`on`) with the display on (AF) and the DC-DC converter enabled.
So an SSD1306 driver on this twin gives a garbled glass, and an SH1106 driver the picture.
"""

from firmware.sim.ssd1306_sim import SimSSD1306

# Arguments each two-byte command takes; every other command is one byte.
_ARGS = {
    0x81: 1,  # contrast
    0xA8: 1,  # multiplex ratio
    0xAD: 1,  # DC-DC control
    0xD3: 1,  # display offset
    0xD5: 1,  # display clock divide ratio / oscillator frequency
    0xD9: 1,  # discharge / pre-charge period
    0xDA: 1,  # COM pads hardware configuration
    0xDB: 1,  # VCOM deselect level
}
_ONE_BYTE = (0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE0, 0xE3, 0xEE)
_COLUMNS = 132


class SimSH1106(SimSSD1306):
    COLUMNS = _COLUMNS
    LEFT = 2
    RIGHT = 129
    ARGS = _ARGS

    def __init__(self):
        super().__init__()
        self.col_end = _COLUMNS - 1
        self.dcdc = True
        self.pump = 0x32
        self._rmw = None  # the column saved by read-modify-write (E0), until EE

    @property
    def on(self):
        """Lit: display on and the DC-DC converter enabled."""
        return self.display_on and self.dcdc

    def _single(self, b):
        if b <= 0x18 or 0x30 <= b <= 0x33:  # column address, pump voltage
            return True
        return 0x40 <= b < 0x80 or 0xB0 <= b <= 0xB7 or b in _ONE_BYTE

    def _run(self, c, a):
        if c < 0x10:
            self.col = (self.col & 0xF0) | c
        elif c < 0x20:
            self.col = (self.col & 0x0F) | (c & 0x0F) << 4
        elif c < 0x34:
            self.pump = c
        elif c == 0xAD:
            if a[0] & 0xFE != 0x8A:
                self.unknown.append(c)
            else:
                self.dcdc = bool(a[0] & 1)
        elif c == 0xA8:
            self.mux = a[0] & 0x3F
        elif c == 0xDA:
            if a[0] & 0xEF != 0x02:
                self.unknown.append(c)
            else:
                self.com_pins = a[0]
        elif c == 0xE0:
            self._rmw = self.col
        elif c == 0xEE:
            if self._rmw is not None:
                self.col = self._rmw
            self._rmw = None
        else:  # what the SSD1306 twin decodes the same way
            super()._run(c, a)

    def _data(self, b):
        col = self.col
        if col < _COLUMNS:
            self.ram[self.page * _COLUMNS + col] = b
            self.col = col + 1
