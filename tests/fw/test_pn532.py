"""The PN532 driver and the antenna multiplexer against their twins, in virtual time.

Plain test functions: they run under pytest and on MicroPython (tests/mpyunit.py).
"""

from firmware.drivers.antenna import AntennaMux
from firmware.drivers.pn532 import PASSIVE_RETRIES, PN532, ReaderError
from firmware.sim.bus import SimI2C, SimPin
from firmware.sim.clock import SimClock
from firmware.sim.pn532_sim import ACK, TRY_MS, SimAntennaMux, SimPN532, frame
from tests.engine.checks import eq, raises

UID4 = b"\x04\xa1\xb2\xc3"
UID7 = b"\x04\x11\x22\x33\x44\x55\x66"
UID10 = b"\x04\x10\x20\x30\x40\x50\x60\x70\x80\x90"


class Rig:
    """One board's reader chain: driver and multiplexer on the twins, tags on some squares."""

    def __init__(self, start=0):
        self.clock = SimClock(start)
        self.bus = SimI2C()
        rows = [SimPin("row%d" % k, 0) for k in range(4)]
        cols = [SimPin("col%d" % k, 0) for k in range(4)]
        enable = SimPin("enable", 1)
        self.antennas = SimAntennaMux(rows, cols, enable)
        self.antennas.tags.update({0: UID4, 112: UID7, 224: UID10, 16: b"\xde\xad\xbe\xef"})
        self.chip = SimPN532(self.clock, self.antennas.field).attach(self.bus)
        self.reader = PN532(self.bus, self.clock)
        self.mux = AntennaMux(rows, cols, enable)

    def read_at(self, index, **kw):
        self.mux.select(index)
        return self.reader.read_uid(**kw)

    def timed(self, fn, *args, **kw):
        """(what fn returned or raised, virtual ms it took)."""
        t0 = self.clock.ticks_ms()
        try:
            out = fn(*args, **kw)
        except ReaderError as exc:
            out = exc
        return out, self.clock.since(t0)


def ready_rig(start=0):
    rig = Rig(start)
    rig.reader.begin()
    return rig


def test_begin_checks_firmware_and_sets_max_retries():
    rig = Rig()
    eq(rig.chip.max_retries, (0xFF, 0x01, 0xFF))  # power-on value: activation never gives up
    eq(rig.reader.begin()[0], 0x32)
    eq(rig.chip.max_retries, (0xFF, 0x01, PASSIVE_RETRIES))
    eq(rig.chip.sam_mode, 1)
    eq(rig.chip.commands, {0x02: 1, 0x14: 1, 0x32: 1})
    eq(rig.reader.firmware_version(), (0x32, 1, 6, 7))
    eq(rig.chip.errors, [])


def test_read_uid_of_the_selected_square():
    rig = ready_rig()
    eq(rig.read_at(0), UID4)
    eq(rig.read_at(112), UID7)  # H8
    eq(rig.read_at(224), UID10)
    eq(rig.chip.commands[0x4A], 3)
    eq(rig.chip.errors, [])


def test_selecting_another_square_changes_the_uid():
    rig = ready_rig()
    eq(
        [rig.read_at(i) for i in (16, 0, 16, 112)],
        [b"\xde\xad\xbe\xef", UID4, b"\xde\xad\xbe\xef", UID7],
    )
    rig.mux.off()
    eq(rig.reader.read_uid(), None)
    eq(rig.chip.errors, [])


def test_no_tag_gives_none_in_bounded_time():
    rig = ready_rig()
    uid, ms = rig.timed(rig.read_at, 1)
    eq(uid, None)
    tries = (PASSIVE_RETRIES + 1) * TRY_MS
    eq(tries <= ms <= tries + 5, True, "took %d ms" % ms)
    eq(rig.chip.errors, [])


def test_tag_read_takes_a_few_ms_and_survives_tick_wrap():
    rig = ready_rig(start=(1 << 30) - 3)  # the tick counter wraps during the exchange
    uid, ms = rig.timed(rig.read_at, 112)
    eq(uid, UID7)
    eq(2 <= ms <= 10, True, "took %d ms" % ms)


def test_unpowered_reader_fails_fast_then_comes_back():
    rig = ready_rig()
    rig.chip.powered = False
    err, ms = rig.timed(rig.read_at, 0)
    eq(type(err), ReaderError)
    eq(ms <= 1, True, "took %d ms" % ms)
    eq(type(rig.timed(rig.reader.begin)[0]), ReaderError)
    rig.chip.powered = True  # back with power-on settings: MaxRetries 0xFF again
    eq(rig.read_at(1), None)  # the driver set it up again, so this answers
    eq(rig.chip.max_retries[2], PASSIVE_RETRIES)
    eq(rig.read_at(0), UID4)


def test_stuck_reader_times_out_then_recovers():
    rig = ready_rig()
    rig.chip.stuck = True
    err, ms = rig.timed(rig.read_at, 0, timeout_ms=40)
    eq(type(err), ReaderError)
    eq(40 <= ms <= 42, True, "took %d ms" % ms)
    eq(rig.chip.aborts, 1)  # the driver aborted the command with an ACK frame
    rig.chip.stuck = False
    eq(rig.read_at(0), UID4)


def test_endless_activation_is_bounded_by_the_timeout():
    rig = ready_rig()
    rig.chip.max_retries = (0xFF, 0x01, 0xFF)  # as if the reader had been reset behind our back
    err, ms = rig.timed(rig.read_at, 1, timeout_ms=50)
    eq(type(err), ReaderError)
    eq(50 <= ms <= 52, True, "took %d ms" % ms)
    eq(rig.read_at(1), None)
    eq(rig.chip.errors, [])


def test_corrupt_frame_then_next_read_works():
    rig = ready_rig()
    rig.chip.corrupt_next = True
    err = raises(ReaderError, rig.read_at, 0)
    eq("DCS" in str(err), True, str(err))
    eq(rig.read_at(0), UID4)
    eq(rig.chip.errors, [])


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


def test_antenna_mux_sets_address_lines():
    rows = [SimPin("r", 0) for _ in range(4)]
    cols = [SimPin("c", 0) for _ in range(4)]
    enable = SimPin("en", 0)
    mux = AntennaMux(rows, cols, enable)
    eq(enable.value(), 1)  # starts disconnected
    mux.select(7 * 15 + 9)
    eq([p.value() for p in rows], [1, 1, 1, 0])
    eq([p.value() for p in cols], [1, 0, 0, 1])
    eq((enable.value(), mux.selected), (0, 114))
    mux.off()
    eq((enable.value(), mux.selected), (1, None))
    raises(ValueError, mux.select, -1)
    raises(ValueError, mux.select, 16 * 15)
    twin = SimAntennaMux(rows, cols, enable)
    eq(twin.selected(), None)
    mux.select(224)
    eq(twin.selected(), 224)
