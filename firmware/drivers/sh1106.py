"""SH1106 OLED controller on I2C (the 1.3-inch modules often sold as SSD1306), from its datasheet.

The SH1106 takes the SSD1306's control bytes, framebuffer layout and most of its commands,
so `SH1106` is the SSD1306 driver (drivers/ssd1306.py) with what differs:
  - its RAM is 132 columns wide, and a 128-pixel panel is wired to columns 2-129, so a
    128-pixel frame is written from column 2 ((132 - width) // 2 in general);
  - it has only page addressing: no horizontal mode and no 0x20/0x21/0x22 window commands.
    `show()` writes each page on its own: the commands B0+page, then the column address
    (low nibble 0x02, high nibble 0x10), then that page's bytes as one data transfer, lent
    from the framebuffer as the SSD1306 driver does (no buffer allocated per redraw);
  - a DC-DC converter (0xAD, 0x8B on, 0x8A off) stands for the SSD1306's charge pump.
A full frame is 8 x (4 + 129) bytes, about 24 ms at 400 kHz, as long as the SSD1306's.
"""

from firmware.drivers.ssd1306 import SSD1306

_RAM_COLUMNS = 132


class SH1106(SSD1306):
    # The DC-DC control command, and its arguments that switch the converter on and off.
    PUMP = (0xAD, 0x8B, 0x8A)

    def __init__(self, i2c, addr=0x3C, width=128, height=64, font=None):
        super().__init__(i2c, addr, width, height, font)
        col = (_RAM_COLUMNS - width) // 2  # 2 for a 128-pixel panel
        # Control byte, page address (B0 + page), column address low and high nibbles.
        self._page = bytearray((0x00, 0xB0, col & 0x0F, 0x10 | col >> 4))

    def _setup(self):
        h = self.height
        return bytes(
            (
                0x00,  # control byte: commands
                0xAE,  # display off
                0xD5,  # display clock: divide ratio 1, oscillator frequency +0 % (reset value)
                0x50,
                0xA8,  # multiplex ratio: one COM line per row
                h - 1,
                0xD3,  # display offset: none
                0x00,
                0x40,  # display start line 0
                0xAD,  # DC-DC converter on once the display is on (reset value)
                0x8B,
                0xA1,  # segment remap: column 2 is at the left of the module
                0xC8,  # COM scan from COM[N-1] to COM0: row 0 is at the top
                0xDA,  # COM pads: alternative for 64 rows, sequential for 32
                0x12 if h == 64 else 0x02,
                0x81,  # contrast
                0xCF,
                0xD9,  # discharge and pre-charge: two clocks each (reset value)
                0x22,
                0xDB,  # VCOM deselect level (reset value)
                0x35,
                0xA4,  # output follows RAM content
                0xA6,  # normal (not inverse) display
            )
        )

    def show(self, first=0, last=None):
        """Send pages `first`..`last` (all by default), each as its address commands and
        then one data transfer of its `width` bytes."""
        if last is None:
            last = self.pages - 1
        cmd = self._page
        for page in range(first, last + 1):
            cmd[1] = 0xB0 | page
            self._write(cmd)
            self._send(page, page)
