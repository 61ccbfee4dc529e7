"""Runtime shims so one source runs on MicroPython (rp2) and CPython.

Everything that differs between the two runtimes goes through here: `const`, the
millisecond tick clock and integer helpers that MicroPython lacks (`math.gcd`).
"""

import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"

try:
    from micropython import const
except ImportError:

    def const(value):
        return value


try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:
    import time as _time

    _TICKS_PERIOD = 1 << 30
    _TICKS_HALF = _TICKS_PERIOD // 2

    def ticks_ms():
        return int(_time.monotonic() * 1000) & (_TICKS_PERIOD - 1)

    def ticks_add(ticks, delta):
        return (ticks + delta) & (_TICKS_PERIOD - 1)

    def ticks_diff(end, start):
        # Same wrap-around semantics as MicroPython's time.ticks_diff.
        return ((end - start + _TICKS_HALF) & (_TICKS_PERIOD - 1)) - _TICKS_HALF


def gcd(a, b):
    """Greatest common divisor of two integers, always >= 0 (math.gcd is not on MicroPython)."""
    if a < 0:
        a = -a
    if b < 0:
        b = -b
    while b:
        a, b = b, a % b
    return a
