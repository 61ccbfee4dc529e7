"""The antenna matrix (four 74HC595 on SPI0, shared with the presence chain) and the RF field.

The driver against the twins (firmware/sim/hc595_sim.py, pn532_sim.py), then whole turns on
the simulated board: the twins count every antenna switched under RF and every read whose
field was off, unsettled or left on, and a deliberately wrong driver is caught. Plain test
functions: they run under pytest and on MicroPython (tests/mpyunit.py).
"""

from firmware.drivers.antenna import AntennaMatrix, FieldOnError
from firmware.drivers.hc165 import SPI_PHASE, SPI_POLARITY, ShiftChain
from firmware.drivers.pn532 import PN532, ReaderError
from firmware.sim.bus import SimI2C, SimPin, SimSPI
from firmware.sim.clock import SimClock
from firmware.sim.hc165_sim import SimShiftChain
from firmware.sim.hc595_sim import SimAntennaMatrix
from firmware.sim.pn532_sim import SimPN532
from tests.engine.checks import eq, raises
from tests.engine.fixtures import RULEBOOK
from tests.fw.board import events, lay, new_board, pass_turn, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.config",)

BUS_MODE = (SPI_POLARITY, SPI_PHASE)  # the presence chain's mode (firmware/drivers/hc165.py)
UID = b"\x04\xa1\xb2\xc3"


class Field:
    """A stand-in reader for the driver's guard: only `field_on`."""

    field_on = False


class Bench:
    """SPI0 in the presence chain's mode with both chains on it; the matrix driver on the
    '595 twin, and the reader's driver on its twin when `reader` (else a `Field`)."""

    def __init__(self, reader=False, guard=True, bus_mode=BUS_MODE):
        self.clock = SimClock()
        self.spi = SimSPI(0, polarity=BUS_MODE[0], phase=BUS_MODE[1])
        self.load = SimPin("sh_ld", 1)
        self.presence = self.spi.attach(SimShiftChain(self.load, 29))
        self.chain = ShiftChain(self.spi, self.load, 29)
        self.rclk, self.oe = SimPin("rclk", 0), SimPin("oe", 1)
        self.twin = self.spi.attach(SimAntennaMatrix(self.rclk, self.oe))
        if reader:
            self.i2c = SimI2C()
            self.chip = SimPN532(self.clock, self.twin.field).attach(self.i2c)
            self.twin.reader = self.chip
            self.reader = PN532(self.i2c, self.clock)
            self.reader.begin()
        else:
            self.reader = Field()
        guarded = self.reader if guard else None  # without: a driver that never checks
        self.matrix = AntennaMatrix(self.spi, self.rclk, self.oe, guarded, bus_mode=bus_mode)

    def violations(self):
        chip = getattr(self, "chip", None)
        return self.twin.violations + (chip.violations if chip is not None else [])


def test_select_latches_one_row_line_and_one_column_line():
    bench = Bench()
    eq((bench.oe.value(), bench.twin.connected()), (1, ()))  # starts with every coil off
    bench.matrix.select(7 * 15 + 9)  # row 7, column 9 (J8)
    eq(bytes(bench.twin.chain.storage), b"\x80\x00\x00\x02")  # bits 7 and 16 + 9
    eq(bench.oe.value(), 0)
    eq((bench.twin.connected(), bench.matrix.selected), ((114,), 114))
    bench.matrix.select(224)  # O15: the last row and column lines, bits 14 and 30
    eq(bytes(bench.twin.chain.storage), b"\x00\x40\x00\x40")
    eq(bench.twin.selected(), 224)
    eq(bench.matrix.off(), True)
    eq((bench.oe.value(), bytes(bench.twin.chain.storage)), (1, bytes(4)))
    eq((bench.twin.connected(), bench.matrix.selected), ((), None))
    raises(ValueError, bench.matrix.select, -1)
    raises(ValueError, bench.matrix.select, 15 * 15)
    raises(ValueError, AntennaMatrix, bench.spi, bench.rclk, bench.oe, None, 17, 15)
    eq(bench.violations(), [])


def test_each_switch_is_break_before_make():
    bench = Bench()
    seen = []
    bench.twin.chain.listeners.append(lambda what: seen.append((what, bench.twin.connected())))
    bench.matrix.select(0)
    bench.matrix.select(16)
    # OE-bar was high already before the first: no edge. Never two coils, never a coil
    # connected while the bits change.
    want = [("RCLK", ()), ("OE-bar low", (0,))]
    want += [("OE-bar high", ()), ("RCLK", ()), ("OE-bar low", (16,))]
    eq(seen, want)


def test_presence_reads_clock_the_shift_stage_but_not_the_outputs():
    bench = Bench()
    bench.presence.set(sq("H8"), True)
    bench.matrix.select(112)
    latched = bytes(bench.twin.chain.storage)
    raw = bench.chain.read()  # 29 bytes of 0xFF on MOSI, through the '595s' shift stage
    eq(raw[112 >> 3] >> (112 & 7) & 1, 0)  # the magnet on H8, read right
    eq(bytes(bench.twin.chain.shift), b"\xff" * 4)
    eq(bytes(bench.twin.chain.storage), latched)  # the outputs never moved
    eq(bench.twin.selected(), 112)
    bench.matrix.select(0)  # every selection writes all 32 bits again
    eq(bench.twin.connected(), (0,))
    eq(bench.violations(), [])


def test_the_matrix_writes_in_mode_3_and_gives_the_bus_back():
    bench = Bench()
    bench.matrix.select(112)
    eq((bench.spi.polarity, bench.spi.phase), BUS_MODE)
    eq(bench.violations(), [])
    eq(BUS_MODE[0] != BUS_MODE[1], True)  # mode 2: the '595 must not be written in it
    # A driver that writes in the bus's mode 2: MOSI changes on the edge that shifts it in.
    wrong = Bench(bus_mode=None)
    wrong.matrix.select(112)
    eq(wrong.twin.selected() == 112, False)  # the worst case: every bit one place early
    eq("SPI mode 1 or 2" in " ".join(wrong.violations()), True, str(wrong.violations()))


def test_select_refuses_while_the_field_may_be_on():
    bench = Bench()
    bench.matrix.select(3)
    bench.reader.field_on = True
    err = raises(FieldOnError, bench.matrix.select, 4)
    eq("field" in str(err), True, str(err))
    eq(bench.matrix.off(), False)  # off() runs in finally blocks: it refuses without raising
    eq((bench.twin.selected(), bench.matrix.selected), (3, 3))
    bench.reader.field_on = False
    eq(bench.matrix.off(), True)
    eq(bench.twin.connected(), ())


def test_a_switch_under_rf_is_caught_by_the_twins():
    bench = Bench(reader=True, guard=False)  # a driver that never asks about the field
    bench.matrix.select(0)
    bench.twin.tags[0] = bench.twin.tags[1] = UID
    bench.reader.rf_field(True)
    bench.matrix.select(1)  # under RF: square 0 disconnected, then square 1 connected
    eq(len(bench.twin.violations), 2)
    eq("RF field on (OE-bar high: [0] -> [])" in bench.twin.violations[0], True)
    eq("RF field on (OE-bar low: [] -> [1])" in bench.twin.violations[1], True)
    bench.clock.sleep_ms(10)
    raises(ReaderError, bench.reader._exchange, 0x4A, b"\x01\x00", 60)  # the read fails
    eq("antenna switch under RF" in bench.chip.violations[0], True, str(bench.chip.violations))
    bench.matrix.off()  # under RF again
    eq(len(bench.twin.violations), 3)


def test_a_field_left_on_between_reads_is_caught():
    bench = Bench(reader=True, guard=False)
    bench.twin.tags[0] = UID
    bench.matrix.select(0)
    bench.reader.rf_field(True)
    bench.clock.sleep_ms(6)
    eq(bench.reader._target(bench.reader._exchange(0x4A, b"\x01\x00", 60)), UID)
    eq(bench.violations(), [])  # one read per field: fine
    raises(ReaderError, bench.reader._exchange, 0x4A, b"\x01\x00", 60)  # no field-off since
    eq("left on" in bench.chip.violations[0], True, str(bench.chip.violations))


def test_a_read_with_the_field_off_is_caught():
    bench = Bench(reader=True)
    bench.twin.tags[0] = UID
    bench.matrix.select(0)
    raises(ReaderError, bench.reader._exchange, 0x4A, b"\x01\x00", 60)
    eq(bench.chip.violations, ["InListPassiveTarget with the RF field off"])
    eq(bench.reader.read_uid(), UID)  # the driver's own sequence


def test_the_driver_stands_alone():
    from tests.engine.fixtures import REPO

    with open(REPO + "/firmware/drivers/antenna.py") as f:
        source = f.read()
    for line in source.split("\n"):
        words = line.split()
        if words and words[0] in ("import", "from"):
            eq(True, False, "drivers/antenna.py imports: " + line)


# ----- the pin map's nfc part ------------------------------------------------------------------


def _pins(name="pico.json"):
    import json

    from tests.engine.fixtures import REPO

    with open(REPO + "/hardware/pins/" + name) as f:
        return json.load(f)


def test_the_pin_map_names_the_595_chain_and_refuses_the_old_multiplexers():
    from firmware import pinmap

    eq(pinmap.check(_pins()), [])
    nfc = _pins()["nfc"]
    eq((nfc["select"], nfc["antenna_enable"]), ({"kind": "74hc595", "rclk": 8}, 22))
    pins = _pins()
    pins["nfc"]["antenna_row"] = [8, 9, 10, 11]
    pins["nfc"]["antenna_col"] = [12, 13, 14, 15]
    gone = ": the antenna multiplexers are gone; the antennas are switched by a 74HC595 chain"
    eq(
        pinmap.check(pins),
        ["nfc.antenna_row" + gone + ", nfc.select", "nfc.antenna_col" + gone + ", nfc.select"],
    )
    cases = (
        (("select", None), 'nfc.select must be {"kind": "74hc595", "rclk": GPIO}'),
        (("select", {"kind": "4067", "rclk": 8}), "nfc.select must be"),
        (("select", {"kind": "74hc595"}), "nfc.select.rclk must be a GPIO number 0-29"),
        (("select", {"kind": "74hc595", "rclk": 16}), "nfc.select.rclk: GPIO 16 is already"),
        (("antenna_enable", None), "nfc.antenna_enable must be a GPIO number"),
        (("irq", 19), "nfc.irq: GPIO 19 is already"),
    )
    for (key, value), says in cases:
        pins = _pins()
        if value is None:
            del pins["nfc"][key]
        else:
            pins["nfc"][key] = value
        problems = pinmap.check(pins)
        eq(len(problems), 1, str(problems))
        eq(problems[0].startswith(says), True, problems[0])
    pins = _pins()
    pins["nfc"]["reset"] = None  # a module that brings out only RSTO
    pins["nfc"]["irq"] = 6  # optional, reserved
    eq(pinmap.check(pins), [])


def test_a_board_wider_than_the_matrix_falls_back_to_hall_sensing():
    import json

    from firmware import config
    from firmware.sim.memfs import MemFS
    from tests.engine.fixtures import REPO

    with open(REPO + "/hardware/profiles/calculissimo.json") as f:
        profile = json.load(f)
    profile["width"] = 17
    profile["layout"] = [row + ".." for row in profile["layout"]]
    pins = _pins()
    pins["pixels"]["count"] = 17 * 15
    pins["presence"]["chips"] = 32
    fs = MemFS()
    fs.files["pins/pico.json"] = json.dumps(pins).encode()
    fs.files["profiles/calculissimo.json"] = json.dumps(profile).encode()
    cfg = config.load(fs)
    eq(cfg.settings["sensor"], "hall")
    eq(cfg.problems, ["the NFC antennas reach 16 x 16 squares at most; hall used"])
    profile["width"] = 16
    profile["layout"] = [row[:16] for row in profile["layout"]]
    pins["pixels"]["count"] = 16 * 15
    fs.files["pins/pico.json"] = json.dumps(pins).encode()
    fs.files["profiles/calculissimo.json"] = json.dumps(profile).encode()
    eq(config.load(fs).settings["sensor"], "nfc")


# ----- whole turns on the simulated board -----------------------------------------------------


def test_whole_turns_switch_no_antenna_under_rf():
    board = new_board()
    lay(board, RULEBOOK[0])
    board.press("ok")
    lay(board, RULEBOOK[1])
    board.press("ok")
    pass_turn(board)
    board.lift(sq("H8"))  # a committed chip lifted and put back: read again
    board.place(sq("H8"), "×")
    eq(len(events(board, "move")), 2)
    eq(board.nfc_violations(), [])
    eq(board.nfc.commands[0x4A] >= 9, True, str(board.nfc.commands))
    eq(board.field.switches >= 18, True, str(board.field.switches))  # on and off per read
    eq((board.nfc.rf_on, board.app.hw.reader.field_on), (False, False))


def _faults_during_turns(reset):
    board = new_board()
    if not reset:  # a module whose RSTPDN is not wired ("reset": null in the pin map)
        board.app.hw.reader._reset = None
    nfc = board.nfc
    lay(board, RULEBOOK[0])
    nfc.stuck = True  # the reader hangs while a chip is laid
    board.place(sq("H9"), "7")
    eq(len(events(board, "reader_down")) >= 1, True)
    nfc.stuck = False
    board.run(1000)  # read again every 500 ms
    nfc.powered = False
    board.place(sq("H10"), "1")
    nfc.powered = True
    board.run(1000)
    nfc.corrupt_next = True
    board.place(sq("H11"), "2")
    board.run(1000)
    placed = [ev["square"] for ev in events(board, "placed")]
    for name in ("H9", "H10", "H11"):
        eq(name in placed, True, name)
    eq(board.nfc_violations(), [])
    eq(nfc.rf_on, False)
    return board


def test_reader_faults_during_turns_switch_no_antenna_under_rf():
    board = _faults_during_turns(True)
    eq(board.nfc.resets > 1, True)  # the hung reader was held in power-down, field off


def test_without_a_reset_line_the_field_is_confirmed_off_before_a_switch():
    board = _faults_during_turns(False)
    eq(board.nfc.resets, 1)  # begin's only: the field was confirmed off by command


def test_a_driver_leaving_the_field_on_is_caught_on_the_board():
    board = new_board()
    reader = board.app.hw.reader

    def leaky(settle_ms=6, timeout_ms=60):
        """A broken read_uid: field on, read, and the field left on (and forgotten)."""
        reader.rf_field(True)
        board.clock.sleep_ms(settle_ms)
        uid = reader._target(reader._exchange(0x4A, b"\x01\x00", timeout_ms))
        reader.field_on = False
        return uid

    reader.read_uid = leaky
    board.strict = False  # the board may fault: the point is what the twins saw
    lay(board, RULEBOOK[0])
    found = board.nfc_violations()
    eq(len(found) > 0, True)
    eq("antenna switched with the RF field on" in " ".join(found), True, str(found))
