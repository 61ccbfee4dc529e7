"""Debouncing presence: N agreeing scans to change, flicker ignored (both runtimes)."""

from firmware.presence import Presence, squares
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
