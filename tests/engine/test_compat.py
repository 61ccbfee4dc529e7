"""The runtime shims behave alike on MicroPython (native time.ticks_*) and CPython."""

from engine.compat import IS_MICROPYTHON, const, gcd, ticks_add, ticks_diff, ticks_ms
from tests.engine.checks import eq


def test_ticks_wrap_around():
    now = ticks_ms()
    for start in (now, ticks_add(now, -1), ticks_add(0, -3)):  # the last is just before wrap
        for delta in (-1000, -1, 0, 5, 120000, 10**6):
            eq(ticks_diff(ticks_add(start, delta), start), delta)


def test_gcd():
    eq([gcd(12, 18), gcd(-12, 18), gcd(0, 5), gcd(7, 0), gcd(0, 0)], [6, 6, 5, 7, 0])


def test_const_and_runtime_flag():
    eq(const(42), 42)
    import sys

    eq(IS_MICROPYTHON, sys.implementation.name == "micropython")
