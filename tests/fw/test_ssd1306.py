"""The SSD1306 driver against its datasheet twin, and the font's glyphs.

Plain test functions (no pytest imports) so the module also runs on MicroPython. What is
checked is what the panel shows (the twin's glass) and what goes on the bus.
"""

from firmware import font
from firmware.drivers.ssd1306 import SSD1306, DisplayError
from firmware.sim.bus import SimI2C
from firmware.sim.ssd1306_sim import SimSSD1306
from tests.engine.checks import eq, raises
from tests.engine.fixtures import REPO

MPY_FUEL = 20_000_000_000


class CountingBus:
    """An I2C bus with `writeto` only (a driver calling `writevto` fails): it counts the
    transfers and their bytes and keeps the last buffer object, allocating nothing itself."""

    def __init__(self):
        self.writes = 0
        self.sent = 0
        self.last = None

    def writeto(self, addr, buf, stop=True):
        self.writes += 1
        self.sent += len(buf)
        self.last = buf
        return len(buf)


class BlockFont:
    """A font of solid 5 x 7 blocks, and a one-row bar for every character past ASCII."""

    FONT = b"\x7f" * (95 * 5)

    def glyph(self, ch):
        return b"\x01\x01\x01\x01\x01\x00"


def allocated(fn):
    """Heap bytes `fn()` allocates on MicroPython (whose test runs have the collector off);
    None on CPython, which cannot tell."""
    try:
        from gc import mem_alloc
    except ImportError:
        fn()
        return None
    before = mem_alloc()
    fn()
    return mem_alloc() - before


def _setup():
    bus = SimI2C()
    sim = SimSSD1306()
    bus.attach(0x3C, sim)
    display = SSD1306(bus, font=font)
    display.init()
    return bus, sim, display


def _screen(display, lines):
    display.fill(0)
    for k in range(len(lines)):
        display.text(lines[k], 0, 8 * k)
    display.show()


def _expect(lines):
    return list(lines) + [""] * (8 - len(lines))


def test_init_leaves_display_on_and_blank():
    _, sim, _ = _setup()
    eq(sim.on, True)
    eq(sim.unknown, [])
    eq(sim.mode, 0)  # horizontal addressing
    eq(sim.mux, 63)
    eq(sim.text_lines(), [""] * 8)  # the power-up noise in GDDRAM was overwritten


def test_ascii_round_trip():
    _, sim, display = _setup()
    ascii_chars = "".join(chr(c) for c in range(33, 127))
    lines = [ascii_chars[k : k + 21] for k in range(0, len(ascii_chars), 21)]
    lines.append(" leading and trailing")
    lines.append("0123456789 +-=()<>")
    _screen(display, lines)
    eq(sim.text_lines(), _expect(lines))
    eq(sim.unknown, [])


def test_operators_round_trip():
    _, sim, display = _setup()
    lines = ["6 × 7 = 42", "84 ÷ 2 − 40 = 2", "9 - 3 x 2"]
    _screen(display, lines)
    eq(sim.text_lines(), _expect(lines))


def test_french_and_portuguese_round_trip():
    _, sim, display = _setup()
    lines = [
        "Joueur 2 à jouer",
        "Vez do jogador 3",
        "Pontuação",
        "Égalité",
        "àáâãçéèêëíîïóôõúùûü",
        "ÀÁÂÃÇÉÈÊÍÓÔÕÚ",
        "Ça déçoit? Não!",
        "Fin: Ève 12 ÷ 3",
    ]
    _screen(display, lines)
    eq(sim.text_lines(), lines)


def test_unknown_character_draws_box():
    _, sim, display = _setup()
    _screen(display, ["a€b\tc"])
    eq(sim.text_lines()[0], "a\ufffdb\ufffdc")


def test_every_glyph_is_distinct():
    chars = font.charset()
    seen = {bytes(font.glyph("\ufffd")): "box"}
    for ch in chars:
        g = bytes(font.glyph(ch))
        eq(len(g), font.CELL_W)
        eq(g[5], 0, "gap column of %r" % ch)
        other = seen.get(g)
        eq(other, None, "%r looks like %r" % (ch, other))
        seen[g] = ch
    eq(len(seen), len(chars) + 1)


def test_glyph_rows():
    for ch in "aceou":  # i keeps its dot; the accented i drops it
        for col in font.glyph(ch):
            eq(col & 0x03, 0, "top rows of %r are free for an accent" % ch)
    for col in font.glyph("A"):
        eq(col & 0x80, 0)
    eq(bytes(font.glyph("−")) != bytes(font.glyph("-")), True)


def test_show_is_one_data_transfer_of_the_whole_buffer():
    bus, sim, display = _setup()
    transfers, data, frames, nbytes = bus.transfers, sim.data_transfers, sim.frames, sim.data_bytes
    display.show()
    eq(bus.transfers - transfers, 2)  # the address window, then the data
    eq(sim.data_transfers - data, 1)
    eq(sim.data_bytes - nbytes, 1024)
    eq(sim.frames - frames, 1)
    eq(len(display.buf), 1024)


def test_page_mode_writes_land_at_page_and_column():
    bus, sim, _ = _setup()
    # Page addressing, page 3, column 0x25 (low nibble 5, high nibble 2), then 3 data bytes.
    bus.writeto(0x3C, b"\x00\x20\x02\xb3\x05\x12")
    bus.writeto(0x3C, b"\x40\x01\x02\x04")
    eq(bytes(sim.ram[3 * 128 + 37 : 3 * 128 + 40]), b"\x01\x02\x04")
    eq(sim.glass(37, 24), 1)
    eq(sim.glass(38, 25), 1)
    eq(sim.glass(39, 26), 1)
    eq(sim.glass(39, 25), 0)
    # Single commands (0x80) and single data bytes (0xC0); the column wraps on the same page.
    bus.writeto(0x3C, b"\x80\xb6\x80\x0e\x80\x17\xc0\xaa\xc0\xbb\x40\xcc")
    eq(sim.ram[6 * 128 + 126], 0xAA)
    eq(sim.ram[6 * 128 + 127], 0xBB)
    eq(sim.ram[6 * 128 + 0], 0xCC)
    eq(sim.page, 6)
    eq(sim.unknown, [])


def test_twin_horizontal_and_vertical_windows():
    bus, sim, _ = _setup()
    bus.writeto(0x3C, b"\x00\x20\x00\x21\x0a\x0b\x22\x02\x03")  # columns 10-11, pages 2-3
    bus.writeto(0x3C, b"\x40\x01\x02\x03\x04\x05")
    eq(bytes(sim.ram[2 * 128 + 10 : 2 * 128 + 12]), b"\x05\x02")  # wrapped after 4 bytes
    eq(bytes(sim.ram[3 * 128 + 10 : 3 * 128 + 12]), b"\x03\x04")
    bus.writeto(0x3C, b"\x00\x20\x01\x21\x14\x15\x22\x06\x07")  # vertical, columns 20-21
    bus.writeto(0x3C, b"\x40\x11\x22\x33\x44")
    eq(sim.ram[6 * 128 + 20], 0x11)
    eq(sim.ram[7 * 128 + 20], 0x22)
    eq(sim.ram[6 * 128 + 21], 0x33)
    eq(sim.ram[7 * 128 + 21], 0x44)
    eq(sim.unknown, [])


def test_twin_flags_unknown_commands():
    bus, sim, _ = _setup()
    bus.writeto(0x3C, b"\x00\x30\xff\xb8\x20\x03")
    eq(sim.unknown, [0x30, 0xFF, 0xB8, 0x20])


def test_wrong_orientation_is_visible_on_the_glass():
    bus, sim, display = _setup()
    _screen(display, ["Hi"])
    bus.writeto(0x3C, b"\x00\xa0")  # no segment remap: the image is mirrored
    eq(sim.text_lines()[0] == "Hi", False)
    bus.writeto(0x3C, b"\x00\xa1\xc0")  # COM scan from COM0: upside down
    eq(sim.text_lines()[0], "")
    bus.writeto(0x3C, b"\x00\xc8")
    eq(sim.text_lines()[0], "Hi")


def test_detached_display_raises_display_error():
    bus, _, display = _setup()
    bus.detach(0x3C)
    err = raises(DisplayError, display.show)
    eq("not answering" in str(err), True)
    raises(DisplayError, display.init)
    raises(DisplayError, display.contrast, 10)
    eq(isinstance(err, OSError), False)


def test_power_contrast_invert():
    _, sim, display = _setup()
    _screen(display, ["on"])
    display.power(False)
    eq(sim.on, False)
    eq(sim.text_lines(), [""] * 8)
    display.power(True)
    eq(sim.on, True)
    eq(sim.text_lines()[0], "on")
    display.contrast(0x20)
    eq(sim.contrast, 0x20)
    display.contrast(300)
    eq(sim.contrast, 255)
    display.invert(True)
    eq(sim.inverse, True)
    eq(sim.glass(127, 63), 1)
    display.invert(False)
    eq(sim.glass(127, 63), 0)
    eq(sim.unknown, [])


def test_pixel_fill_and_unaligned_text():
    _, sim, display = _setup()
    display.fill(1)
    eq(bytes(display.buf), b"\xff" * 1024)
    display.fill(0)
    eq(bytes(display.buf), bytes(1024))
    display.pixel(5, 9, 1)
    eq(display.buf[128 + 5], 0x02)
    eq(display.pixel(5, 9), 1)
    display.pixel(5, 9, 0)
    eq(display.pixel(5, 9), 0)
    display.pixel(500, 9, 1)  # off screen: ignored
    display.text("|", 0, 3)  # straddles pages 0 and 1
    eq(display.buf[2], 0x7F << 3 & 0xFF)
    eq(display.buf[128 + 2], 0x7F >> 5)
    display.text("|", 0, 3, 0)
    eq(bytes(display.buf), bytes(1024))
    display.text("ABC", -6, 60)  # clipped left and bottom
    eq(display.pixel(0, 60), 1)  # the B's stem
    display.text("é", 125, -2)
    display.show()
    eq(sim.glass(0, 60), 1)
    eq(sim.unknown, [])


def test_clear_page_clears_one_text_line_only():
    _, sim, d = _setup()
    d.fill(1)
    d.clear_page(2)
    eq([d.pixel(x, 16 + y) for x in (0, 64, 127) for y in (0, 7)], [0] * 6)
    eq([d.pixel(x, y) for x, y in ((0, 15), (127, 24), (5, 0), (5, 63))], [1, 1, 1, 1])
    d.text("Bag 59", 0, 16)
    d.show()
    eq(sim.text_lines()[2], "Bag 59")


def test_a_redraw_is_one_writeto_of_one_buffer_allocated_once():
    """The control byte and the frame go out as one buffer, the same object every redraw:
    no writevto, whose two-buffer vector the rp2 port copies into 1,025 new bytes."""
    bus, sim, display = _setup()
    _screen(display, ["Score 12"])
    data = bus.last_buffer
    eq(len(data), 1025)
    eq(data[0], 0x40)
    eq(bytes(data[1:]), bytes(display.buf))
    transfers = bus.transfers
    display.text("Bag 59", 0, 16)
    display.show()
    eq(bus.transfers - transfers, 2)  # the address window, then the data
    eq(bus.last_buffer is data, True)
    eq(bus.copies, 0)
    eq(sim.text_lines()[:3], ["Score 12", "", "Bag 59"])


def test_a_band_of_pages_goes_out_of_the_same_buffer():
    bus, sim, display = _setup()
    display.fill(1)
    display.show()
    display.clear_page(2)
    display.clear_page(3)
    display.text("Bag 59", 0, 16)
    data, nbytes = sim.data_transfers, sim.data_bytes
    display.show(2, 3)
    eq((sim.data_transfers - data, sim.data_bytes - nbytes), (1, 256))  # 0x40, then the band
    band = bus.last_buffer
    eq(len(band), 1 + 2 * 128)
    eq(bytes(band[1:]), bytes(display.buf[256:512]))
    eq(display.buf[255], 0xFF)  # lent to the control byte for the transfer, then given back
    eq(sim.text_lines()[2], "Bag 59")
    eq([sim.glass(127, 15), sim.glass(0, 32), sim.glass(127, 63)], [1, 1, 1])
    display.show(2, 3)
    eq(bus.last_buffer is band, True)
    display.show()
    eq(sim.glass(127, 15), 1)
    eq(bus.copies, 0)


def test_redraws_allocate_nothing():
    bus = CountingBus()
    display = SSD1306(bus, font=font)
    display.show()
    display.show(2, 3)  # a band's view of the buffer is made the first time it is sent
    bus.writes = bus.sent = 0
    eq(allocated(display.show) in (None, 0), True)
    eq(allocated(lambda: display.show(2, 3)) in (None, 0), True)
    eq((bus.writes, bus.sent), (4, 7 + 1025 + 7 + 257))


def test_text_is_drawn_in_the_font_the_caller_gives():
    bus = SimI2C()
    sim = SimSSD1306()
    bus.attach(0x3C, sim)
    display = SSD1306(bus, font=BlockFont())
    display.init()
    display.text("ab", 0, 0)
    display.text("é", 0, 8)
    display.show()
    eq([sim.glass(x, 3) for x in range(12)], [1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0])
    eq([sim.glass(2, y) for y in range(10)], [1, 1, 1, 1, 1, 1, 1, 0, 1, 0])
    bare = SSD1306(bus)
    err = raises(ValueError, bare.text, "a", 0, 0)
    eq("font" in str(err), True)


def test_drivers_import_nothing_from_the_game():
    """As micropython-lib's: a display driver needs only MicroPython (and the SSD1306 one)."""
    for name in ("ssd1306", "sh1106"):
        with open(REPO + "/firmware/drivers/" + name + ".py") as f:
            for line in f.read().split("\n"):
                words = line.split()
                if words and words[0] == "import" or words[2:3] == ["import"]:
                    eq(words[1] in ("micropython", "firmware.drivers.ssd1306"), True, line)
