"""A board for heap measurements: the firmware's App on the real drivers where they need no
part to answer, and on small stand-ins at the drivers' interface where they would.

firmware/sim/simboard.py runs the firmware on twins of every part, written against the
datasheets: the tests' board. Those twins hold 40-60 KB of code and state in the heap, and
on the Pico's own firmware (tools/rp2emu.py) that is more than the room the board's search
for its move leaves: the heap such a game measures is not the board's. This board keeps what
a board keeps and little more:

- the 74HC165 chain: firmware/drivers/hc165.py's `ShiftChain` itself, on an SPI bus that
  answers with the levels the chips on the board make (square i: bit i & 7 of byte i >> 3,
  low under a magnet, as that driver's docstring says);
- the display: the SSD1306 driver itself, on an I2C bus that takes every write and keeps
  none (the driver builds and sends every frame as on a board);
- the LEDs: the WS2812 driver itself, writing to nothing;
- the NFC reader and the antenna matrix: stand-ins with the drivers' interface (`select`,
  `off`; `field_on`, `rf_field`, `read_uid`). Their drivers' modules are imported, so that
  their code takes its room in the heap as on a board;
- the flash: `Flash`, firmware/sim/memfs.py's files kept in one buffer made at the start
  (FLASH_BYTES), as a board keeps them in flash, outside its heap: files written anywhere in
  the heap, as MemFS writes them, would lie among the game's data and splinter the heap, which
  a board's files never do. The buffer itself takes FLASH_BYTES of the heap, a board none;
- what only a board's build needs (firmware/assemble.py's BOOT_ONLY) is forgotten once the
  App is made, as the backends do.

`place`, `lift`, `press` and `run` are SimBoard's, on an injected SimClock. The tags are one
UID a chip, all enrolled.
"""

from engine import faces
from engine.compat import collect, forget
from firmware.app import App, Hardware
from firmware.drivers import antenna as _antenna  # noqa: F401  (its code, as on a board)
from firmware.drivers.hc165 import ShiftChain
from firmware.drivers.pn532 import ReaderError
from firmware.drivers.ssd1306 import DisplayError
from firmware.drivers.ws2812 import WS2812
from firmware.registry import Registry
from firmware.sim.clock import SimClock
from firmware.sim.memfs import ENOSPC, MemFS

BUTTONS = ("left", "right", "ok", "back")
FLASH_BYTES = 8192  # the files of a whole game and its archive: under 3 KB (tools/picoplay.py)


class Flash(MemFS):
    """MemFS with every file's bytes in one buffer: `files` maps a path to (offset, length)."""

    def __init__(self, size=FLASH_BYTES):
        MemFS.__init__(self)
        self.store = bytearray(size)
        self.end = 0  # the store is used up to here

    def read(self, path):
        at = self.files.get(path)
        return None if at is None else bytes(self.store[at[0] : at[0] + at[1]])

    def write(self, path, data):
        if self.fail_writes:
            raise OSError(ENOSPC)
        self.files.pop(path, None)
        n = len(data)
        if self.end + n > len(self.store):
            self._compact()
            if self.end + n > len(self.store):
                raise OSError(ENOSPC)
        self.store[self.end : self.end + n] = data
        self.files[path] = (self.end, n)
        self.end += n
        self.writes += 1

    def _compact(self):
        """Move the files down over the space of those written over or removed."""
        end = 0
        for path in sorted(self.files, key=lambda p: self.files[p][0]):
            at, n = self.files[path]
            if at != end:
                self.store[end : end + n] = self.store[at : at + n]
                self.files[path] = (end, n)
            end += n
        self.end = end

    def size(self, path):
        at = self.files.get(path)
        return None if at is None else at[1]


class Pin:
    """A pin with a level: `value()` reads it, `value(v)` drives it."""

    def __init__(self, level=1):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v
        return None


class Levels:
    """The presence chain's SPI bus: `readinto` gives the inputs' levels (high: no magnet)."""

    def __init__(self, squares):
        self.levels = bytearray(b"\xff" * ((squares + 7) // 8))

    def set(self, square, magnet):
        bit = 1 << (square & 7)
        if magnet:
            self.levels[square >> 3] &= ~bit & 0xFF
        else:
            self.levels[square >> 3] |= bit

    def readinto(self, buf, _write=0xFF):
        buf[:] = self.levels


class Sink:
    """An I2C bus that takes every write."""

    def writeto(self, addr, data, stop=True):
        return len(data)


class Field:
    """The antenna matrix and the reader behind it: the tag on the selected square."""

    def __init__(self):
        self.tags = {}  # square -> UID
        self.square = None
        self.field_on = False

    # the antenna matrix's interface (firmware/drivers/antenna.py)
    def select(self, square, width=15):
        self.square = square

    def off(self):
        self.square = None
        self.field_on = False

    # the reader's (firmware/drivers/pn532.py)
    def rf_field(self, on):
        self.field_on = on

    def read_uid(self):
        self.field_on = True
        return self.tags.get(self.square)


class LeanBoard:
    def __init__(self, profile, settings):
        # (imported here and forgotten once the App is made, as a board's backend does:
        # firmware/assemble.py, BOOT_ONLY)
        from firmware import settings as S
        from firmware.assemble import BOOT_ONLY, display_driver

        collect()  # the board is built on a collected heap, as after a restart
        self.settings, problems = S.validate(dict(settings))
        self.profile = profile
        n = profile.width * profile.height
        self.clock = SimClock()
        self.fs = Flash()
        self.chain = Levels(n)
        display = display_driver(Sink(), {"kind": "ssd1306", "addr": 0x3C})
        display.init()
        self.pins = {}
        for name in BUTTONS:
            self.pins[name] = Pin(1)
        self.lines = []
        self.field = Field()
        self.tags = {}  # face text -> UIDs of its chips in the box
        registry = Registry()
        serial = 0
        for face in sorted(profile.chips):
            text = "?" if face == faces.JOKER else faces.text(face)
            uids = []
            for _ in range(profile.chips[face]):
                serial += 1
                uid = bytes((0x04, serial >> 8, serial & 0xFF, 0x80))
                registry.enrol(uid, text)
                uids.append(uid)
            self.tags[text] = uids
        self.on_board = {}  # square -> (face, UID)
        self.hw = Hardware(
            self.clock,
            ShiftChain(self.chain, Pin(1), (n + 7) // 8),
            WS2812(self._pixels, n),
            display,
            self.pins,
            self.fs,
            self.lines.append,
            self.field,
            self.field,
            ReaderError,
            DisplayError,
            led_power=Pin(0),
            vsys=self._vsys,
        )
        self.app = App(self.hw, profile, self.settings, problems, registry)
        forget(BOOT_ONLY)

    def _pixels(self, buf):
        pass

    def _vsys(self):
        return 5000

    def boot(self):
        self.app.boot()

    def run(self, ms):
        """Run the main loop for `ms` of virtual time; a fault the supervisor caught is
        raised again (a measurement must not pass over one)."""
        elapsed = 0
        while elapsed < ms:
            app = self.app
            faults = app.fault_count
            app.tick()
            if app.fault_count != faults:
                raise app.last_fault  # type: ignore[misc]  # set with fault_count
            self.clock.advance(app.period_ms)
            elapsed += app.period_ms

    def place(self, square, face, settle=400):
        uid = self.tags[face].pop()
        self.field.tags[square] = uid
        self.on_board[square] = (face, uid)
        self.chain.set(square, True)
        self.run(settle)

    def lift(self, square, settle=100):
        self.chain.set(square, False)
        face, uid = self.on_board.pop(square)
        del self.field.tags[square]
        self.tags[face].append(uid)
        self.run(settle)

    def press(self, name, hold=40, after=40):
        pin = self.pins[name]
        pin.level = 0
        self.run(hold)
        pin.level = 1
        self.run(after)
