"""The whole board in simulation: the real drivers and firmware on every part's twin.

`SimBoard(profile)` wires an `App` exactly as the rp2 backend does, but on twins: the 74HC165
chain, the PN532 behind the antenna matrix (74HC595s on the presence chain's SPI bus,
firmware/sim/hc595_sim.py), the WS2812B chain, the SSD1306 (or the
SH1106 a pin map names) on a shared I2C bus, four buttons, an in-memory flash, and a
`SimClock`. Every chip of the profile's set
gets an NFC tag, enrolled in the registry, so `place(square, face)` puts a real tagged chip
with a magnet on a square, as a player would.

`run(ms)` advances virtual time one main-loop period at a time, calling `App.tick()` (the
supervised step) each period as firmware/main.py does on the board. A fault the supervisor
caught is raised again here while `strict` holds, so no test passes over a hidden exception;
tests of the supervisor itself set `strict = False`. When the firmware stops to restart,
the board restarts as a backend does: a new App on the same parts, chips where they lie.

SPI0 (`spi`) is configured as backend_rp2 configures it, in the mode firmware/drivers/hc165.py
names, and the 74HC165 twin is sampled on the edges that mode says. The LEDs sit behind a
twin of the LED rail's load switch (`rail`, its ON pin `rail_pin`): dark until the firmware
switches it on; `vsys_mv` is what the firmware reads as VSYS (5000 until a test lowers it).
"""

from engine import faces
from engine.compat import collect
from firmware import settings as S
from firmware.app import App, Hardware
from firmware.assemble import display_driver
from firmware.drivers.antenna import AntennaMatrix
from firmware.drivers.hc165 import SPI_PHASE, SPI_POLARITY, ShiftChain
from firmware.drivers.pn532 import PN532, ReaderError
from firmware.drivers.ssd1306 import DisplayError
from firmware.drivers.ws2812 import WS2812
from firmware.registry import Registry
from firmware.sim.bus import SimI2C, SimPin, SimSPI
from firmware.sim.clock import SimClock
from firmware.sim.hc165_sim import SimShiftChain
from firmware.sim.hc595_sim import SimAntennaMatrix
from firmware.sim.memfs import MemFS
from firmware.sim.pn532_sim import SimPN532
from firmware.sim.sh1106_sim import SimSH1106
from firmware.sim.ssd1306_sim import SimSSD1306
from firmware.sim.ws2812_sim import SimRail, SimWS2812

BUTTONS = ("left", "right", "ok", "back")


def chip_tags(profile):
    """A tag UID for every chip of the set: face text -> list of UIDs (4-byte NXP-style).
    The two games' sets get different UIDs, so one registry can hold both."""
    tags = {}
    serial = 0x4000 if profile.game == "calqable" else 0
    for face in sorted(profile.chips):
        text = "?" if face == faces.JOKER else faces.text(face)
        uids = []
        for _ in range(profile.chips[face]):
            serial += 1
            uids.append(bytes([0x04, (serial >> 8) & 0xFF, serial & 0xFF, 0x80 | serial % 97]))
        tags[text] = uids
    return tags


# The last chip set's tags and enrolled registry, made once and copied for each board: every
# whole-board test builds boards, and building a registry tag by tag makes a great deal of
# short-lived garbage among the keys it keeps (a splintered heap on a Pico, tests/test_pico.py).
_SET = []  # type: list  # [key, tags, registry]


def _chip_set(profile):
    """(face -> list of UIDs, a registry with every one enrolled), both the board's own."""
    key = (profile.game, sorted(profile.chips.items()))
    if not _SET or _SET[0] != key:
        tags = chip_tags(profile)
        registry = Registry()
        for face, uids in tags.items():
            for uid in uids:
                registry.enrol(uid, face)
        _SET[:] = [key, tags, registry]
    registry = Registry()
    registry.chips = _SET[2].chips.copy()  # one table, the same key and face strings
    return {face: list(uids) for face, uids in _SET[1].items()}, registry


def warm(profile):
    """Make what every board of this chip set shares (see `_chip_set`) now, before boards
    come and go around it."""
    _chip_set(profile)


class SimBoard:
    def __init__(
        self, profile, settings=None, fs=None, nfc=True, clock=None, out=None, enrolled=True
    ):
        """`settings` is a dict to validate, or None to boot from the files on `fs` as the
        backends do (firmware/config.py: settings.json, pins/, profiles/, chips.json).
        `enrolled`: every chip's tag is enrolled; False uses the registry in chips.json on
        `fs` (empty if there is none), as a real board would."""
        # On a Pico (tests/test_pico.py) the board is built on a collected heap, as after a
        # restart: its parts then fill the holes the last board left, not lie among garbage.
        collect()
        self.fs = fs if fs is not None else MemFS()
        self.from_files = settings is None  # a restart reads the files again (`restart`)
        registry = None
        screen = {"kind": "ssd1306", "addr": 0x3C}  # the pin map's display section
        if settings is None:
            from firmware import config

            cfg = config.load(self.fs)
            screen = cfg.pins["display"]
            self.settings, problems, profile = cfg.settings, cfg.problems, cfg.profile
            nfc = self.settings["sensor"] == "nfc"
            registry = cfg.chips
        else:
            data = dict(settings)
            if not nfc:
                data["sensor"] = "hall"
            self.settings, problems = S.validate(data)
        self.profile = profile
        n = profile.width * profile.height
        self.clock = clock or SimClock()
        clock = self.clock
        latch = SimPin("latch")
        chips = (n + 7) // 8
        self.chain = SimShiftChain(latch, chips)
        i2c = SimI2C()
        self.i2c = i2c
        # The module the pin map names (an SH1106 module answers at 0x3C too).
        self.oled = SimSH1106() if screen.get("kind") == "sh1106" else SimSSD1306()
        i2c.attach(0x3C, self.oled)
        display = display_driver(i2c, screen)
        display.init()
        # The LED rail's load switch, its ON pin pulled down: the LEDs stay unpowered until
        # the firmware switches them on. VSYS reads `vsys_mv`, which a test may lower.
        self.rail_pin = SimPin("led_power", 0)
        self.rail = SimRail(self.rail_pin, clock)
        self.vsys_mv = 5000
        self.strip = SimWS2812(n, self.rail)
        pixels = WS2812(self.strip.write, n)
        self.pins = {}
        for name in BUTTONS:
            self.pins[name] = SimPin(name, 1)
        self.lines = out if out is not None else []
        reader = antenna = None
        self.tags = {}
        self.on_board = {}  # square -> UID of the chip lying there
        self.usb_in = bytearray()  # what the PC sent and the firmware has not read yet
        # SPI0 as backend_rp2 configures it (the mode from firmware/drivers/hc165.py): the
        # presence chain alone on a Hall-only board, with the antenna matrix on an NFC board.
        mode = {"baudrate": 1000000, "polarity": SPI_POLARITY, "phase": SPI_PHASE}
        self.spi = SimSPI(0, **mode)
        self.spi.attach(self.chain)
        if nfc:
            # The pin map's nfc part: RCLK and OE-bar of the 74HC595s, the PN532's RSTPDN.
            rclk = SimPin("rclk", 0)
            enable = SimPin("ant_oe", 1)
            reset = SimPin("rstpdn", 1)
            self.field = SimAntennaMatrix(rclk, enable, profile.width, profile.height)
            self.nfc = SimPN532(clock, self.field.field, reset).attach(i2c)
            self.field.reader = self.nfc
            self.spi.attach(self.field)  # the 74HC595s: SER on MOSI, SRCLK on SCK
            reader = PN532(i2c, clock, reset=reset)
            reader.begin()
            antenna = AntennaMatrix(
                self.spi,
                rclk,
                enable,
                reader,
                profile.height,
                profile.width,
                (SPI_POLARITY, SPI_PHASE),
            )
            self.tags, every = _chip_set(profile)
            if enrolled:
                registry = every
            elif registry is None:
                registry = Registry()
        self.hw = Hardware(
            clock,
            ShiftChain(self.spi, latch, chips),
            pixels,
            display,
            self.pins,
            self.fs,
            self.lines.append,
            reader,
            antenna,
            ReaderError,
            DisplayError,
            read=self._usb_read,
            led_power=self.rail_pin,
            vsys=self._vsys,
        )
        self.problems = problems
        self.registry = registry
        self.strict = True
        self.restarts = 0
        self.app = App(self.hw, profile, self.settings, problems, registry)

    def _vsys(self):
        return self.vsys_mv

    def _usb_read(self):
        if not self.usb_in:
            return b""
        data = bytes(self.usb_in)
        self.usb_in = bytearray()
        return data

    # ----- the world acting on the board -----------------------------------------------------

    def boot(self):
        self.app.boot()

    def run(self, ms):
        """Run the main loop for `ms` of virtual time."""
        elapsed = 0
        while elapsed < ms:
            app = self.app
            faults = app.fault_count
            app.tick()
            if self.strict and app.fault_count != faults:
                raise app.last_fault  # type: ignore[misc]  # set with fault_count
            period = app.period_ms
            if not app.running:
                del app  # gone before the new one is made (`restart`)
                self.restart()
            self.clock.advance(period)
            elapsed += period

    def restart(self):
        """The board restarts (the PC asked, or the supervisor gave up): a new App on the
        same parts and flash, booted; the chips stay where they lie. A board booted from its
        files reads them again, as a backend does, so settings the PC wrote take effect."""
        self.restarts += 1
        # The old App goes first, as on a board, where a restart frees the whole heap: on a
        # Pico (tests/test_pico.py) two Apps at once may not find room.
        self.app = None  # type: ignore[assignment]  # until the new one is made, below
        collect()
        if self.from_files:
            from firmware import config

            cfg = config.load(self.fs)
            self.settings, self.problems, self.profile = cfg.settings, cfg.problems, cfg.profile
        self.app = App(self.hw, self.profile, self.settings, self.problems, self.registry)
        self.app.boot()

    def put(self, square, face=None, uid=None):
        """A chip is set down (magnet and tag), without running the loop."""
        if self.tags and uid is None:
            pool = self.tags[face]
            if not pool:
                raise ValueError("no %s chip left in the box" % face)
            uid = pool.pop()
        if uid is not None:
            self.field.tags[square] = uid
            self.on_board[square] = (face, uid)
        self.chain.set(square, True)

    def take(self, square):
        """A chip is picked up, without running the loop; it goes back in the box."""
        self.chain.set(square, False)
        if square in self.on_board:
            face, uid = self.on_board.pop(square)
            self.field.tags.pop(square, None)
            if face in self.tags:
                self.tags[face].append(uid)

    def place(self, square, face=None, settle=400):
        self.put(square, face)
        self.run(settle)

    def lift(self, square, settle=100):
        self.take(square)
        self.run(settle)

    def press(self, name, hold=40, after=40):
        pin = self.pins[name]
        pin.drive(0)
        self.run(hold)
        pin.drive(1)
        self.run(after)

    def slide(self, path, face, ms_per_square=120, settle=400):
        """A chip slid across `path` (square indices), ending on the last one."""
        uid = self.tags[face].pop() if self.tags else None
        for k in range(len(path)):
            sq = path[k]
            self.put(sq, face, uid)
            if k < len(path) - 1:
                self.run(ms_per_square)
                self.chain.set(sq, False)
                self.on_board.pop(sq, None)
                if self.tags:
                    self.field.tags.pop(sq, None)
        self.run(settle)

    # ----- what the board shows ----------------------------------------------------------------

    def screen(self):
        return self.oled.text_lines()

    def led(self, square):
        return self.strip.colour(self.app.leds.chain[square])

    def nfc_violations(self):
        """Every breach of the RF field's rules the twins saw (firmware/sim/pn532_sim.py and
        hc595_sim.py): antennas switched under RF, reads with the field off, unsettled or
        left on. Empty on a Hall-only board."""
        if not self.tags:
            return []
        return self.field.violations + self.nfc.violations
