"""The SH1106 driver against its datasheet twin, the SSD1306 driver on an SH1106, and a whole
board whose pin map names an SH1106 display.

Plain test functions (no pytest imports) so the module also runs on MicroPython. What is
checked is what the panel shows (the twin's glass) and what goes on the bus.
"""

import json

from firmware import font, pinmap
from firmware.drivers.sh1106 import SH1106
from firmware.drivers.ssd1306 import SSD1306, DisplayError
from firmware.sim.bus import SimI2C
from firmware.sim.memfs import MemFS
from firmware.sim.sh1106_sim import SimSH1106
from firmware.sim.simboard import SimBoard
from firmware.sim.ssd1306_sim import SimSSD1306
from tests.engine.checks import eq, raises
from tests.engine.fixtures import REPO
from tests.fw.test_ssd1306 import CountingBus, allocated

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.config",)

MPY_FUEL = 25_000_000_000

LINES = [
    "> Ana      0:42",
    ">Ana     12 Ben     7",
    "Bag 59   18 points",
    "",
    "",
    "Pontuação",
    "6 × 7 = 42",
    "Égalité!",
]


def _setup(driver=SH1106):
    bus = SimI2C()
    sim = SimSH1106()
    bus.attach(0x3C, sim)
    display = driver(bus, font=font)
    display.init()
    return bus, sim, display


def _screen(display, lines):
    display.fill(0)
    for k in range(len(lines)):
        display.text(lines[k], 0, 8 * k)
    display.show()


def test_sh1106_driver_shows_the_picture():
    _, sim, display = _setup()
    eq(sim.on, True)
    eq(sim.text_lines(), [""] * 8)  # the power-up noise on the panel's columns was cleared
    _screen(display, LINES)
    eq(sim.text_lines(), LINES)
    eq(sim.unknown, [])
    # RAM columns 0-1 and 130-131 are off the panel: the driver never writes them.
    noise = SimSH1106().ram
    for page in range(8):
        for col in (0, 1, 130, 131):
            eq(sim.ram[page * 132 + col], noise[page * 132 + col])


def test_ssd1306_driver_on_an_sh1106_is_garbled():
    """The SSD1306's horizontal addressing and window commands are not the SH1106's: the
    frame lands on one page, from the wrong column, and the rest of the glass is noise."""
    _, sim, display = _setup(SSD1306)
    _screen(display, LINES)
    eq(sim.text_lines() != LINES, True)
    eq(sim.text_lines()[2] == LINES[2], False)
    for c in (0x8D, 0x20, 0x21, 0x22):
        eq(c in sim.unknown, True, "%02x" % c)
    eq(sim.start_line, 63)  # the window's argument 0x7F taken as "start line 63"


def test_a_redraw_is_eight_page_writes_from_the_frame_buffer():
    bus, sim, display = _setup()
    log = []
    write = bus.writeto

    def logged(addr, buf, stop=True):
        log.append((bytes(buf), buf))
        return write(addr, buf, stop)

    bus.writeto = logged
    _screen(display, LINES)
    eq(len(log), 16)
    for page in range(8):
        cmd, _ = log[2 * page]
        data = log[2 * page + 1][0]
        eq(cmd, bytes((0x00, 0xB0 + page, 0x02, 0x10)), "page %d" % page)
        eq(len(data), 129)
        eq(data[0], 0x40)
        eq(data[1:], bytes(display.buf[page * 128 : (page + 1) * 128]))
    first = [buf for _, buf in log[1::2]]
    del log[:]
    display.show()
    eq([buf for _, buf in log[1::2]] == first, True)
    for k in range(8):
        eq(log[2 * k + 1][1] is first[k], True, "page %d from the same buffer" % k)
    eq(bus.copies, 0)
    eq(sim.text_lines(), LINES)


def test_sh1106_redraws_allocate_nothing():
    bus = CountingBus()
    display = SH1106(bus, font=font)
    display.show()
    display.show(2, 3)
    bus.writes = bus.sent = 0
    eq(allocated(display.show) in (None, 0), True)
    eq(allocated(lambda: display.show(5, 5)) in (None, 0), True)
    eq((bus.writes, bus.sent), (18, 9 * (4 + 129)))


def test_show_of_a_band_writes_only_its_pages():
    bus, sim, display = _setup()
    _screen(display, LINES)
    display.clear_page(6)
    display.text("7 × 6 = 42", 0, 48)
    display.fill(1)  # drawn but not shown: the other pages must not reach the panel
    display.clear_page(6)
    display.text("7 × 6 = 42", 0, 48)
    transfers = bus.transfers
    display.show(6, 6)
    eq(bus.transfers - transfers, 2)
    eq(sim.text_lines(), LINES[:6] + ["7 × 6 = 42", LINES[7]])
    eq(display.buf[6 * 128 - 1], 0xFF)  # the byte lent to the control byte is back


def test_power_contrast_invert_on_the_sh1106():
    _, sim, display = _setup()
    _screen(display, ["on"])
    display.power(False)
    eq((sim.on, sim.display_on, sim.dcdc), (False, False, False))
    eq(sim.text_lines(), [""] * 8)
    display.power(True)
    eq(sim.on, True)
    eq(sim.text_lines()[0], "on")
    display.contrast(0x20)
    eq(sim.contrast, 0x20)
    display.invert(True)
    eq(sim.glass(127, 63), 1)
    display.invert(False)
    eq(sim.glass(127, 63), 0)
    eq(sim.unknown, [])


def test_detached_sh1106_raises_display_error():
    bus, _, display = _setup()
    bus.detach(0x3C)
    err = raises(DisplayError, display.show)
    eq("not answering" in str(err), True)


def test_twin_page_addressing_and_the_132_columns():
    bus, sim, _ = _setup()
    bus.writeto(0x3C, b"\x00\xb3\x01\x18")  # page 3, column 0x81 = 129
    bus.writeto(0x3C, b"\x40\x11\x22\x33\x44")  # columns 129-131, then past the end: lost
    eq(bytes(sim.ram[3 * 132 + 129 : 3 * 132 + 132]), b"\x11\x22\x33")
    eq(sim.page, 3)  # the page never moves on
    eq(sim.ram[4 * 132], SimSH1106().ram[4 * 132])
    eq(sim.glass(127, 24), 1)  # RAM column 129 is the panel's last with segment remap
    bus.writeto(0x3C, b"\x80\xa0")  # no remap: column 129 - x
    eq(sim.glass(0, 24), 1)
    bus.writeto(0x3C, b"\x00\xb5\x04\x10\xe0")  # read-modify-write from column 4
    bus.writeto(0x3C, b"\x40\xaa\xbb")
    bus.writeto(0x3C, b"\x00\xee\x40")  # end: the column is 4 again
    bus.writeto(0x3C, b"\x40\xcc")
    eq(bytes(sim.ram[5 * 132 + 4 : 5 * 132 + 6]), b"\xcc\xbb")
    eq(sim.unknown, [])


def test_twin_flags_what_the_sh1106_lacks():
    bus, sim, _ = _setup()
    bus.writeto(0x3C, b"\x00\x20\x00\x21\x00\x7f\x22\x00\x07\x8d\x14\x2e\x19")
    eq(sim.unknown, [0x20, 0x21, 0x22, 0x8D, 0x2E, 0x19])
    eq(sim.start_line, 63)
    eq(sim.col, 0x47)  # the arguments were taken as column nibbles: 0x07 low, then 0x14 high
    eq(sim.mode, 2)  # page addressing, always


def test_pin_map_display_kind():
    with open(REPO + "/hardware/pins/pico.json") as f:
        pins = json.loads(f.read())
    eq(pinmap.check(pins), [])
    pins["display"]["kind"] = "sh1106"
    eq(pinmap.check(pins), [])
    del pins["display"]["kind"]
    eq(pinmap.check(pins), [])  # an SSD1306, as the maps before SH1106 support meant
    pins["display"]["kind"] = "ssd1309"
    says = "display.kind must be ssd1306 or sh1106 (a 1.3-inch module is often an sh1106)"
    eq(pinmap.check(pins), [says])


def _flash(kind):
    """A board's flash as the flash tool lays it out, with pins/pico.json naming `kind`."""
    fs = MemFS()
    for name in ("pins/pico.json", "profiles/calculissimo.json"):
        with open(REPO + "/hardware/" + name) as f:
            text = f.read()
        if name.startswith("pins/"):
            pins = json.loads(text)
            pins["display"]["kind"] = kind
            text = json.dumps(pins)
        fs.files[name] = text.encode()
    fs.files["settings.json"] = b'{"turn_seconds": 0}'
    return fs


def _booted(kind):
    board = SimBoard(None, fs=_flash(kind))
    board.boot()
    board.run(50)
    return board


def test_a_board_with_an_sh1106_pin_map_shows_what_an_ssd1306_board_shows():
    ssd = _booted("ssd1306")
    eq(isinstance(ssd.oled, SimSSD1306) and not isinstance(ssd.oled, SimSH1106), True)
    shown, copies = ssd.screen(), ssd.i2c.copies
    ssd = None  # one board at a time, as on a Pico (whose heap holds one)
    sh = _booted("sh1106")
    eq(isinstance(sh.oled, SimSH1106), True)
    eq(isinstance(sh.app.hw.display, SH1106), True)
    eq(sh.screen(), shown)
    eq(" ".join(sh.screen()[5:]).strip() != "", True)
    eq(sh.oled.unknown, [])
    eq((sh.i2c.copies, copies), (0, 0))
