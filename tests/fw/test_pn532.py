"""The PN532 driver against its twin, with the antenna matrix, in virtual time.

The RF field is on only while a tag is read, and the twin fails a read whose field was off,
unsettled or left on (firmware/sim/pn532_sim.py). Plain test functions: they run under
pytest and on MicroPython (tests/mpyunit.py).
"""

from firmware.drivers.antenna import AntennaMatrix, FieldOnError
from firmware.drivers.pn532 import PASSIVE_RETRIES, PN532, SETTLE_MS, ReaderError
from firmware.sim.bus import SimI2C, SimPin, SimSPI
from firmware.sim.clock import SimClock
from firmware.sim.hc595_sim import SimAntennaMatrix
from firmware.sim.pn532_sim import ACK, TAG_MS, TRY_MS, SimPN532, frame
from tests.engine.checks import eq, raises

UID4 = b"\x04\xa1\xb2\xc3"
UID7 = b"\x04\x11\x22\x33\x44\x55\x66"
UID10 = b"\x04\x10\x20\x30\x40\x50\x60\x70\x80\x90"


class HookClock(SimClock):
    """A SimClock that calls `hook(ms)` at every sleep: a fault injected mid-read."""

    def __init__(self, start=0):
        SimClock.__init__(self, start)
        self.hook = None

    def sleep_ms(self, ms):
        SimClock.sleep_ms(self, ms)
        if self.hook is not None:
            self.hook(ms)


class HungPN532(SimPN532):
    """A reader that, once `hung`, takes no command at all (its field stays as it was)."""

    hung = False

    def _command(self, code, params):
        if not self.hung:
            SimPN532._command(self, code, params)


class Rig:
    """One board's reader chain: driver and matrix on the twins, tags on some squares."""

    def __init__(self, start=0, reset=False, chip=SimPN532):
        self.clock = HookClock(start)
        self.bus = SimI2C()
        self.spi = SimSPI(0, polarity=1, phase=1)
        rclk, oe = SimPin("rclk", 0), SimPin("oe", 1)
        self.reset = SimPin("rstpdn", 1) if reset else None
        self.antennas = self.spi.attach(SimAntennaMatrix(rclk, oe))
        self.antennas.tags.update({0: UID4, 112: UID7, 224: UID10, 16: b"\xde\xad\xbe\xef"})
        self.chip = chip(self.clock, self.antennas.field, self.reset).attach(self.bus)
        self.antennas.reader = self.chip
        self.reader = PN532(self.bus, self.clock, reset=self.reset)
        self.matrix = AntennaMatrix(self.spi, rclk, oe, self.reader)

    def read_at(self, index, **kw):
        """What sensing does: the antenna selected, the tag read, the antenna off."""
        self.matrix.select(index)
        try:
            return self.reader.read_uid(**kw)
        finally:
            self.matrix.off()

    def timed(self, fn, *args, **kw):
        """(what fn returned or raised, virtual ms it took)."""
        t0 = self.clock.ticks_ms()
        try:
            out = fn(*args, **kw)
        except ReaderError as exc:
            out = exc
        return out, self.clock.since(t0)

    def clean(self):
        """No breach of the field's rules anywhere, and the field off in fact and in mind."""
        eq(self.antennas.violations + self.chip.violations, [])
        eq((self.chip.rf_on, self.reader.field_on), (False, False))


def ready_rig(start=0, reset=False, chip=SimPN532):
    rig = Rig(start, reset, chip)
    rig.reader.begin()
    return rig


def test_begin_checks_firmware_sets_max_retries_and_switches_the_field_off():
    rig = Rig()
    eq(rig.chip.max_retries, (0xFF, 0x01, 0xFF))  # power-on value: activation never gives up
    eq(rig.reader.field_on, True)  # unknown until the reader says otherwise
    eq(rig.reader.begin()[0], 0x32)
    eq(rig.chip.max_retries, (0xFF, 0x01, PASSIVE_RETRIES))
    eq(PASSIVE_RETRIES, 0)  # one activation try: the Hall switch already saw a chip
    eq(rig.chip.sam_mode, 1)
    eq(rig.chip.commands, {0x02: 1, 0x14: 1, 0x32: 2})  # MaxRetries, then the field off
    eq(rig.reader.firmware_version(), (0x32, 1, 6, 7))
    eq(rig.chip.errors, [])
    rig.clean()


def test_read_uid_of_the_selected_square():
    rig = ready_rig()
    eq(rig.read_at(0), UID4)
    eq(rig.read_at(112), UID7)  # H8
    eq(rig.read_at(224), UID10)
    eq(rig.chip.commands[0x4A], 3)
    eq(rig.chip.commands[0x32], 2 + 3 * 2)  # each read: field on, field off
    eq(rig.chip.errors, [])
    rig.clean()


def test_selecting_another_square_changes_the_uid():
    rig = ready_rig()
    eq(
        [rig.read_at(i) for i in (16, 0, 16, 112)],
        [b"\xde\xad\xbe\xef", UID4, b"\xde\xad\xbe\xef", UID7],
    )
    eq(rig.antennas.connected(), ())
    eq(rig.reader.read_uid(), None)  # no coil connected: no tag
    eq(rig.chip.errors, [])
    rig.clean()


def test_no_tag_gives_none_in_bounded_time():
    rig = ready_rig()
    uid, ms = rig.timed(rig.read_at, 1)
    eq(uid, None)
    least = SETTLE_MS + (PASSIVE_RETRIES + 1) * TRY_MS
    eq(least <= ms <= least + 6, True, "took %d ms" % ms)
    rig.clean()


def test_tag_read_takes_the_settle_time_and_survives_tick_wrap():
    rig = ready_rig(start=(1 << 30) - 3)  # the tick counter wraps during the exchange
    uid, ms = rig.timed(rig.read_at, 0)
    eq(uid, UID4)
    # field on (2), settle, InListPassiveTarget, field off (2), each polled to the ms
    least = 2 + SETTLE_MS + TAG_MS + 2
    eq(least <= ms <= least + 2, True, "took %d ms" % ms)
    rig.clean()


def test_the_field_is_on_only_during_the_read():
    rig = ready_rig()
    seen = []

    def watch(ms):
        seen.append((ms, rig.chip.rf_on, rig.reader.field_on, rig.antennas.selected()))

    rig.clock.hook = watch
    eq(rig.read_at(112), UID7)
    eq((SETTLE_MS, True, True, 112) in seen, True, str(seen))  # the settle: on, at H8
    rig.clock.hook = None
    rig.clean()


def test_settle_time_is_enforced_by_the_twin():
    rig = ready_rig()
    err = raises(ReaderError, rig.read_at, 0, settle_ms=0)  # the tag is not powered up yet
    eq("error frame" in str(err), True, str(err))
    eq(len(rig.chip.violations), 1)
    eq("after the field came on" in rig.chip.violations[0], True, rig.chip.violations[0])
    eq((rig.chip.rf_on, rig.reader.field_on), (False, False))  # off all the same


def test_unpowered_reader_fails_fast_then_comes_back():
    rig = ready_rig()
    rig.chip.powered = False
    err, ms = rig.timed(rig.read_at, 0)
    eq(type(err), ReaderError)
    eq(ms <= 1, True, "took %d ms" % ms)
    eq(rig.reader.field_on, True)  # not confirmed off (it is off: no power, no field)
    raises(FieldOnError, rig.matrix.select, 16)  # so no antenna may switch
    eq(type(rig.timed(rig.reader.begin)[0]), ReaderError)
    rig.chip.powered = True  # back with power-on settings: MaxRetries 0xFF again
    rig.reader.rf_field(False)  # what sensing does before it selects again
    eq(rig.read_at(1), None)  # the driver set it up again, so this answers
    eq(rig.chip.max_retries[2], PASSIVE_RETRIES)
    eq(rig.read_at(0), UID4)
    rig.clean()


def test_stuck_reader_times_out_then_recovers():
    rig = ready_rig()
    rig.chip.stuck = True
    err, ms = rig.timed(rig.read_at, 0)
    eq(type(err), ReaderError)
    eq(60 <= ms <= 62, True, "took %d ms" % ms)  # field on, then field off: 30 ms each
    eq(rig.chip.aborts, 2)  # the driver aborted each command with an ACK frame
    eq(rig.reader.field_on, True)  # the reader never confirmed the field off
    eq(rig.matrix.selected, 0)  # so the coil stays connected: off() may not switch under RF
    eq(rig.matrix.off(), False)
    rig.chip.stuck = False
    rig.reader.rf_field(False)
    eq(rig.matrix.off(), True)
    eq(rig.read_at(0), UID4)
    rig.clean()


def test_reset_line_forces_the_field_off_when_the_reader_hangs():
    rig = ready_rig(reset=True, chip=HungPN532)
    eq(rig.chip.resets, 1)  # begin's hard reset
    rig.matrix.select(0)
    rig.reader.rf_field(True)
    rig.chip.hung = True  # it takes no command now: its field stays on
    raises(ReaderError, rig.reader.read_uid)
    eq(rig.chip.resets, 2)  # held in hard power-down: the field is off for certain
    eq((rig.chip.rf_on, rig.reader.field_on), (False, False))
    eq(rig.matrix.off(), True)
    rig.chip.hung = False
    eq(rig.read_at(112), UID7)  # the next read wakes it and sets it up again
    eq(rig.chip.max_retries[2], PASSIVE_RETRIES)
    rig.clean()


def test_the_field_is_off_after_an_error_mid_read():
    rig = ready_rig()

    def corrupt(ms):
        if ms == SETTLE_MS:  # the field is on: the InListPassiveTarget answer is spoiled
            rig.chip.corrupt_next = True

    rig.clock.hook = corrupt
    err = raises(ReaderError, rig.read_at, 112)
    eq("DCS" in str(err), True, str(err))
    rig.clock.hook = None
    eq(rig.matrix.selected, None)  # the field went off, so off() could disconnect
    rig.clean()
    eq(rig.read_at(112), UID7)


def test_endless_activation_is_bounded_by_the_timeout():
    rig = ready_rig()
    rig.chip.max_retries = (0xFF, 0x01, 0xFF)  # as if the reader had been reset behind our back
    err, ms = rig.timed(rig.read_at, 1, timeout_ms=50)
    eq(type(err), ReaderError)
    least = 2 + SETTLE_MS + 50 + 2
    eq(least <= ms <= least + 2, True, "took %d ms" % ms)
    eq(rig.read_at(1), None)
    eq(rig.chip.errors, [])
    rig.clean()


def test_corrupt_frame_then_next_read_works():
    rig = ready_rig()
    rig.chip.corrupt_next = True  # the field-on command's answer
    err = raises(ReaderError, rig.read_at, 0)
    eq("DCS" in str(err), True, str(err))
    eq(rig.read_at(0), UID4)
    eq(rig.chip.errors, [])
    rig.clean()


def test_error_frame_is_a_reader_error():
    rig = ready_rig()
    err = raises(ReaderError, rig.reader._exchange, 0x7E, b"", 30)  # no such command
    eq("error frame" in str(err), True, str(err))
    eq(rig.read_at(16), b"\xde\xad\xbe\xef")


def test_wrong_ic_is_refused():
    rig = Rig()
    rig.chip._execute = lambda code, params: (b"\x31\x01\x06\x07", 2)
    raises(ReaderError, rig.reader.begin)


def test_twin_ignores_host_frames_with_bad_checksums():
    rig = Rig()
    good = b"\x00\x00\xff\x02\xfe\xd4\x02\x2a\x00"  # GetFirmwareVersion
    rig.chip.write(good[:4] + b"\xff" + good[5:])  # bad LCS
    rig.chip.write(good[:7] + b"\x2b\x00")  # bad DCS
    eq(len(rig.chip.errors), 2)
    rig.clock.advance(10)
    eq(rig.chip.read(7), bytes(7))  # nothing to read: no ACK
    rig.chip.write(good)
    eq(rig.chip.read(1), b"\x00")  # processing
    rig.clock.advance(1)
    eq(rig.chip.read(7), b"\x01" + ACK)
    rig.clock.advance(5)
    eq(rig.chip.read(16), b"\x01" + frame(b"\xd5\x03\x32\x01\x06\x07") + b"\x00\x00")
    eq(rig.chip.read(1), b"\x00")  # the response was delivered once


def test_twin_takes_the_field_from_rfconfiguration_frames():
    rig = Rig()
    on = b"\x00\x00\xff\x04\xfc\xd4\x32\x01\x01\xf8\x00"  # hardware/README.md, step 3
    off = b"\x00\x00\xff\x04\xfc\xd4\x32\x01\x00\xf9\x00"  # step 1
    rig.chip.write(on)
    eq(rig.chip.rf_on, True)
    rig.clock.advance(2)
    eq(rig.chip.read(7), b"\x01" + ACK)
    eq(rig.chip.read(10), b"\x01\x00\x00\xff\x02\xfe\xd5\x33\xf8\x00")
    rig.chip.write(off)
    eq(rig.chip.rf_on, False)
    rig.chip.write(on)
    rig.chip.powered = False  # no power, no field
    eq(rig.chip.rf_on, False)
    eq(rig.chip.errors, [])


class SizedI2C(SimI2C):
    """A SimI2C that notes the size of every read."""

    def __init__(self):
        SimI2C.__init__(self)
        self.reads = []

    def readfrom_into(self, addr, buf, stop=True):
        self.reads.append(len(buf))
        SimI2C.readfrom_into(self, addr, buf, stop)


def test_field_commands_read_their_answer_to_its_length():
    rig = ready_rig()
    bus = SizedI2C()
    bus.attach(0x24, rig.chip)
    rig.reader._i2c = bus
    eq(rig.read_at(0), UID4)
    frames = [n for n in bus.reads if n > 7]  # not the status polls (1) or ACKs (7)
    eq(frames, [12, 65, 12])  # field on, InListPassiveTarget (any tag), field off
    rig.clean()


def test_the_driver_stands_alone():
    from tests.engine.fixtures import REPO

    with open(REPO + "/firmware/drivers/pn532.py") as f:
        source = f.read()
    for line in source.split("\n"):
        words = line.split()
        if words and words[0] in ("import", "from"):
            eq(words[1] in ("micropython", "time"), True, line)
