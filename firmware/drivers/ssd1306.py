"""SSD1306 OLED controller (128x64) on I2C, written from the SSD1306 datasheet.

The driver stands alone, as micropython-lib's drivers do: it imports nothing from the game.
The caller hands it the font for `text()`: an object with `FONT`, 5 column bytes for each
character from ASCII 32 to 126, and `glyph(ch)`, the column bytes of any other character
(firmware/font.py is one).

The framebuffer `buf` is the controller's GDDRAM layout: one byte is 8 vertical pixels (bit 0
on top), a page is `width` bytes, and pages run top to bottom. Every I2C write starts with a
control byte: 0x00 for a command stream, 0x40 for a data stream. `buf` lives in one transfer
buffer from byte 1 on, after the control byte 0x40, so `show()` sends the whole frame with one
`writeto` of that buffer (1,025 bytes for 128x64), in horizontal addressing mode. `writevto`
with the control byte and the frame as two buffers would be the same transaction, but the rp2
port copies such a vector into a new buffer first (`mp_machine_i2c_transfer_adaptor` in
extmod/machine_i2c.c): 1,025 bytes allocated per redraw. `show(first, last)` sends a band of
pages the same way: the byte before page `first` is lent to the control byte meanwhile.
Every buffer is allocated in the constructor, but for each band's view of the transfer
buffer, made the first time that band is sent: after that a redraw allocates nothing.

A bus error (OSError) becomes `DisplayError`, so the caller can report "display not answering".
`SH1106` (drivers/sh1106.py) is this driver for the SH1106 controller.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):  # type: ignore[misc]  # CPython stand-in; the stub's is generic
        return value


_CMD = const(0x00)  # control byte: the rest of the transfer is commands
_DATA = const(0x40)  # control byte: the rest of the transfer is display data
_SET_CONTRAST = const(0x81)
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_NORMAL = const(0xA6)
_INVERSE = const(0xA7)


class DisplayError(Exception):
    """The display did not take a transfer (absent, unpowered, or the bus is stuck)."""


class SSD1306:
    # The charge pump command, and its arguments that switch the pump on and off.
    PUMP = (0x8D, 0x14, 0x10)

    def __init__(self, i2c, addr=0x3C, width=128, height=64, font=None):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height // 8
        self.font = font
        # The one data transfer: the control byte 0x40, then the framebuffer.
        self._out = bytearray(1 + self.pages * width)
        self._out[0] = _DATA
        self.buf = memoryview(self._out)[1:]
        # The transfers of show(first, last), made the first time each band is sent.
        self._bands = [None] * (self.pages * self.pages)  # type: list[memoryview | None]
        self._cmd1 = bytearray((_CMD, 0))  # control byte and a one-byte command
        self._cmd2 = bytearray((_CMD, 0, 0))  # control byte, command and its argument
        # Column and page ranges; the page range is rewritten by show(first, last).
        self._window = bytearray((_CMD, 0x21, 0, width - 1, 0x22, 0, self.pages - 1))

    # -- bus ----------------------------------------------------------------------------------

    def _write(self, data):
        try:
            self.i2c.writeto(self.addr, data)
        except OSError as exc:
            raise self._error(exc)

    def _error(self, exc):
        return DisplayError("display not answering at 0x%02x (%s)" % (self.addr, exc))

    def _command(self, c, arg=None):
        if arg is None:
            cmd = self._cmd1
        else:
            cmd = self._cmd2
            cmd[2] = arg
        cmd[1] = c
        self._write(cmd)

    def _send(self, first, last):
        """Pages `first`..`last` of the framebuffer as one data transfer, from the transfer
        buffer itself: the byte before page `first` holds the control byte meanwhile."""
        out = self._out
        if first == 0 and last == self.pages - 1:
            self._write(out)
            return
        k = first * self.pages + last
        band = self._bands[k]
        at = first * self.width
        if band is None:
            band = self._bands[k] = memoryview(out)[at : (last + 1) * self.width + 1]
        keep = out[at]
        out[at] = _DATA
        try:
            self._write(band)
        finally:
            out[at] = keep

    # -- control ------------------------------------------------------------------------------

    def _setup(self):
        """The command stream that configures the controller (display off)."""
        h = self.height
        return bytes(
            (
                _CMD,
                _DISPLAY_OFF,
                0xD5,  # display clock: divide ratio 1, oscillator frequency 8 (reset value)
                0x80,
                0xA8,  # multiplex ratio: one COM line per row
                h - 1,
                0xD3,  # display offset: none
                0x00,
                0x40,  # display start line 0
                0x8D,  # charge pump on (modules without an external VCC)
                0x14,
                0x20,  # memory addressing mode: horizontal
                0x00,
                0xA1,  # segment remap: column 0 is at the left of the module
                0xC8,  # COM scan from COM[N-1] to COM0: row 0 is at the top
                0xDA,  # COM pins: alternative for 64 rows, sequential for 32
                0x12 if h == 64 else 0x02,
                _SET_CONTRAST,
                0xCF,
                0xD9,  # pre-charge: phase 1 one clock, phase 2 fifteen (charge pump)
                0xF1,
                0xDB,  # VCOMH deselect level: 0.83 x VCC
                0x30,
                0xA4,  # output follows RAM content
                _NORMAL,
            )
        )

    def init(self):
        """Configure the controller, clear the glass to the framebuffer, and switch it on."""
        self._write(self._setup())
        self.show()
        self._command(_DISPLAY_ON)

    def power(self, on):
        """Switch the panel on (charge pump, then display) or off (the reverse)."""
        pump, pump_on, pump_off = self.PUMP
        if on:
            self._command(pump, pump_on)
            self._command(_DISPLAY_ON)
        else:
            self._command(_DISPLAY_OFF)
            self._command(pump, pump_off)

    def contrast(self, v):
        """Contrast 0..255 (values outside are clamped)."""
        self._command(_SET_CONTRAST, max(0, min(255, v)))

    def invert(self, on):
        """Light the pixels that are 0 (True) or those that are 1 (False)."""
        self._command(_INVERSE if on else _NORMAL)

    def show(self, first=0, last=None):
        """Send pages `first`..`last` (all by default): the address window, then one data
        transfer. A full screen is 1 KB, about 23 ms of I2C at 400 kHz; one text line is
        128 bytes."""
        if last is None:
            last = self.pages - 1
        window = self._window
        window[5] = first
        window[6] = last
        self._write(window)
        self._send(first, last)

    # -- drawing (framebuffer only; nothing reaches the display before show()) ----------------

    def fill(self, v):
        """Set every pixel to v (0 or 1)."""
        mv = self.buf
        n = len(mv)
        mv[0] = 0xFF if v else 0x00
        k = 1
        while k < n:  # doubling copies: a handful of slice moves instead of a 1024-step loop
            m = min(k, n - k)
            mv[k : k + m] = mv[0:m]
            k += m

    def clear_page(self, page):
        """Clear one 8-pixel-high band (a text line at y = 8 * page)."""
        w = self.width
        mv = self.buf
        mv[page * w] = 0
        k = 1
        while k < w:  # doubling copies, as in fill
            m = min(k, w - k)
            mv[page * w + k : page * w + k + m] = mv[page * w : page * w + m]
            k += m

    def pixel(self, x, y, v=None):
        """Set pixel (x, y) to v; with v omitted, return it. Off-screen pixels are ignored (0)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            return 0
        i = (y >> 3) * self.width + x
        bit = 1 << (y & 7)
        if v is None:
            return 1 if self.buf[i] & bit else 0
        if v:
            self.buf[i] |= bit
        else:
            self.buf[i] &= ~bit
        return None

    def text(self, s, x, y, v=1):
        """Draw s with its top-left corner at (x, y) in 6x8 cells, in the font given to the
        constructor (5 columns a glyph, then a gap).

        Only the glyphs' set pixels are drawn, in colour v; the rest is left as it was, as
        with MicroPython's framebuf. Text running off the screen is clipped.
        """
        f = self.font
        if f is None:
            raise ValueError("no font: pass font= to the display driver")
        w = self.width
        shift = y & 7
        page = y >> 3
        top = page * w if 0 <= page < self.pages else -1  # first byte of the upper page
        low = (page + 1) * w if shift and 0 <= page + 1 < self.pages else -1
        if top < 0 and low < 0:
            return
        buf = self.buf
        data = f.FONT
        if v and not shift and x >= 0 and x + 6 * len(s) <= w + 1:
            # The common case: whole glyphs, on one page, all on screen. OR the five column
            # bytes straight from the font.
            i = top + x
            for ch in s:
                c = ord(ch) - 32
                if 0 < c < 95:
                    o = c * 5
                    buf[i] |= data[o]
                    buf[i + 1] |= data[o + 1]
                    buf[i + 2] |= data[o + 2]
                    buf[i + 3] |= data[o + 3]
                    buf[i + 4] |= data[o + 4]
                elif c:  # not a space: a composed letter, a symbol or the box
                    self._columns(f.glyph(ch), top - i, i - top, top, low, 0, 1)
                i += 6
            return
        for ch in s:
            if x >= w:
                break
            if x > -5:
                c = ord(ch) - 32
                if 0 <= c < 95:
                    self._columns(data, c * 5 - x, x, top, low, shift, v)
                else:
                    self._columns(f.glyph(ch), -x, x, top, low, shift, v)
            x += 6

    def _columns(self, g, o, x0, top, low, shift, v):
        # The general case: g[o + x] is the column byte for screen column x. A column spans
        # two pages when y is not a multiple of 8; either page may be off screen.
        buf = self.buf
        up = 8 - shift
        for x in range(max(0, x0), min(self.width, x0 + 5)):
            col = g[o + x]
            if col:
                if top >= 0:
                    m = (col << shift) & 0xFF
                    buf[top + x] = buf[top + x] | m if v else buf[top + x] & ~m
                if low >= 0:
                    m = col >> up
                    buf[low + x] = buf[low + x] | m if v else buf[low + x] & ~m
