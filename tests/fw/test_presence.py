"""Debouncing presence: N agreeing scans to change, flicker ignored; and the 74HC165 chain
read over SPI in the mode the firmware configures, against the twin that samples QH on the
edge that mode says (both runtimes)."""

from firmware.drivers import hc165
from firmware.drivers.hc165 import ShiftChain
from firmware.presence import Presence, squares
from firmware.sim.bus import SimPin, SimSPI
from firmware.sim.hc165_sim import SimShiftChain
from tests.engine.checks import eq, raises


def _changes(p, raw):
    """The scan's changes as (square, present) pairs."""
    out = []
    for entry in p.scan(raw):
        out += squares(entry)
    return out


def _raw(present, squares=225):
    """Raw chain bytes (active low) with magnets on the squares in `present`."""
    buf = bytearray(b"\xff" * ((squares + 7) // 8))
    for sq in present:
        buf[sq >> 3] &= ~(1 << (sq & 7)) & 0xFF
    return buf


def test_change_needs_n_agreeing_scans():
    p = Presence(225, 3)
    eq(_changes(p, _raw([7])), [])
    eq(_changes(p, _raw([7])), [])
    eq(_changes(p, _raw([7])), [(7, True)])
    eq(p.is_present(7), True)
    eq(_changes(p, _raw([7])), [])
    p.scan(_raw([]))
    p.scan(_raw([]))
    eq(_changes(p, _raw([])), [(7, False)])


def test_one_agreeing_scan_restarts_the_count():
    p = Presence(225, 3)
    seen = []
    for k in range(40):  # on, on, off, on, on, off, ...: never 3 in a row
        seen += _changes(p, _raw([100] if k % 3 != 2 else []))
    eq(seen, [])
    eq(p.is_present(100), False)


def test_every_square_and_the_padding_bits():
    p = Presence(225, 2)
    everything = list(range(225))
    p.scan(_raw(everything))
    changes = _changes(p, _raw(everything))
    eq(len(changes), 225)
    eq(sorted(sq for sq, on in changes if on), everything)
    buf = _raw(everything)
    buf[-1] = 0  # the unused inputs of the last chip read low too: never squares
    eq(p.scan(buf), [])


def test_single_scan_debounce_and_active_high():
    p = Presence(16, 1, active_low=False)
    eq(_changes(p, bytearray([1, 0])), [(0, True)])
    eq(_changes(p, bytearray([0, 0x80])), [(0, False), (15, True)])
    raises(ValueError, Presence, 16, 0)


def test_independent_squares_in_one_byte():
    p = Presence(225, 3)
    p.scan(_raw([8]))
    p.scan(_raw([8, 9]))
    eq(_changes(p, _raw([8, 9])), [(8, True)])
    eq(_changes(p, _raw([8, 9])), [(9, True)])


# ----- the chain on SPI: the mode decides which edge QH is sampled on --------------------------

SPOTS = (0, 6, 7, 8, 15, 112, 200, 224)  # A1 (U0.A), U0.G, U0.H, U1.A, U1.H, H8, ..., O15


def _read_chain(polarity, phase, present, loads=1):
    """The bytes the ShiftChain driver reads from a 29-chip twin with magnets on `present`,
    over a simulated SPI0 in the given mode."""
    latch = SimPin("latch")
    twin = SimShiftChain(latch, 29)
    for sq in present:
        twin.set(sq, True)
    spi = SimSPI(0, baudrate=1000000, polarity=polarity, phase=phase)
    spi.attach(twin)
    chain = ShiftChain(spi, latch, 29)
    raw = None
    for _ in range(loads):
        raw = bytes(chain.read())
    return raw


def _sensed(raw):
    """The squares a debounce of one scan reports present in `raw`."""
    p = Presence(225, 1)
    out = []
    for entry in p.scan(bytearray(raw)):
        out += [sq for sq, on in squares(entry) if on]
    return sorted(out)


def test_the_firmware_spi_mode_reads_every_square_where_it_lies():
    eq((hc165.SPI_POLARITY, hc165.SPI_PHASE), (1, 0))  # mode 2: sample on the falling edge
    raw = _read_chain(hc165.SPI_POLARITY, hc165.SPI_PHASE, SPOTS, loads=2)
    eq(raw, bytes(_raw(SPOTS)))  # every bit where it belongs, read after read
    eq(_sensed(raw), list(SPOTS))
    everything = list(range(225))
    eq(_sensed(_read_chain(hc165.SPI_POLARITY, hc165.SPI_PHASE, everything)), everything)


def test_sampling_on_the_shifting_edge_reads_every_bit_one_place_late():
    """Modes 0 and 3 sample QH on the rising edge, the one the '165 shifts on, and the twin
    (the datasheet's worst case: no clock-to-output delay) then reads the next bit each time;
    mode 1 samples on the falling edge, after a rising edge has shifted: the same.
    So input H of the first chip (square 7) is never seen, every other input is read one
    letter up (G, square 6, as H, square 7; A1 as B1), each chip's H is read as the previous
    chip's A (square 15 as square 0), and the last chip's A (O15) falls into the padding."""
    for polarity, phase in ((1, 1), (0, 0), (0, 1)):
        raw = _read_chain(polarity, phase, SPOTS)
        late = bytearray(_raw(SPOTS))
        for k in range(len(late)):  # the whole chain one bit earlier, a 1 shifted in at the end
            nxt = late[k + 1] >> 7 if k + 1 < len(late) else 1
            late[k] = (late[k] << 1 | nxt) & 0xFF
        eq(raw, bytes(late), "mode %d" % (polarity * 2 + phase))
        eq(_sensed(raw), [0, 1, 7, 9, 113, 201], "mode %d" % (polarity * 2 + phase))
    eq(_sensed(_read_chain(1, 1, [7])), [])  # a chip on the first bit out: never sensed


def test_while_loading_the_clock_does_nothing_and_qh_follows_input_h():
    latch = SimPin("latch")
    twin = SimShiftChain(latch, 2)
    spi = SimSPI(0, polarity=hc165.SPI_POLARITY, phase=hc165.SPI_PHASE)
    spi.attach(twin)
    twin.set(7, True)
    latch.value(0)  # SH/LD held low: a parallel load, clocks ignored
    buf = bytearray(2)
    spi.readinto(buf, 0xFF)
    eq(bytes(buf), b"\x00\x00")  # QH is input H of the first chip, low: a magnet
    twin.set(7, False)
    spi.readinto(buf, 0xFF)
    eq(bytes(buf), b"\xff\xff")
    twin.set(6, True)
    latch.value(1)  # the registers keep the inputs as they are when SH/LD rises
    spi.readinto(buf, 0xFF)  # shifting now: the loaded bytes (G low), then the ones from SER
    eq(bytes(buf), b"\xbf\xff")
    spi.readinto(buf, 0xFF)
    eq(bytes(buf), b"\xff\xff")


def test_the_simulated_board_configures_spi0_as_the_rp2_backend_does():
    from tests.fw.board import new_board, sq

    spi0 = new_board().spi  # NFC board: the 74HC595s share it
    eq((spi0.polarity, spi0.phase), (hc165.SPI_POLARITY, hc165.SPI_PHASE))
    board = new_board(nfc=False)  # SPI0 is the presence chain's alone
    eq((board.spi.polarity, board.spi.phase), (hc165.SPI_POLARITY, hc165.SPI_PHASE))
    board.put(sq("H8"))
    board.run(400)
    eq(sq("H8") in board.app.sensing.placed, True)
    board.spi.init(polarity=1, phase=1)  # the old mode 3, with no propagation delay to save it
    board.run(400)
    presence = board.app.presence
    eq((presence.is_present(sq("H8")), presence.is_present(sq("I8"))), (False, True))
