"""Runtime shims so one source runs on MicroPython (rp2) and CPython.

Everything that differs between the two runtimes goes through here: `const`, the
millisecond tick clock, integer helpers that MicroPython lacks (`math.gcd`), whether the
code runs on a board (`ON_BOARD`: there the heap is small, elsewhere memory may buy speed),
and forgetting modules a board no longer needs (`forget`).
"""

import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"

try:
    from micropython import const
except ImportError:

    def const(value):  # type: ignore[misc]  # CPython stand-in; the stub's is generic
        return value


try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:
    import time as _time

    _TICKS_PERIOD = 1 << 30
    _TICKS_HALF = _TICKS_PERIOD // 2

    def ticks_ms():
        # CPython only: MicroPython's time has ticks_ms and no monotonic.
        return int(_time.monotonic() * 1000) & (_TICKS_PERIOD - 1)  # type: ignore[attr-defined]

    def ticks_add(ticks, delta):  # type: ignore[misc]  # CPython stand-in; the stub's is generic
        return (ticks + delta) & (_TICKS_PERIOD - 1)

    def ticks_diff(end, start):  # type: ignore[no-redef]  # CPython stand-in for the stub's
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


# Where the free heap means something: the rp2 port and CircuitPython on an RP2040. Not
# CPython, nor the WASI MicroPython of the tests (a 128 MB heap, its collector off).
ON_BOARD = sys.platform in ("rp2", "RP2040")


def mem_free():
    """Free heap in bytes on a board, or None where the figure would mean nothing."""
    if not ON_BOARD:
        return None
    import gc

    return gc.mem_free()


def collect():
    """A full collection on a board (the rp2 port, CircuitPython); nothing elsewhere: CPython
    needs none, and the WASI MicroPython of the tests must never collect (its collector
    traps). For a known point where much has just become garbage (tests/test_pico.py)."""
    if not ON_BOARD:
        return
    import gc

    gc.collect()


def forget(names):
    """Forget the modules `names` (those loaded): out of sys.modules and out of their
    package, so that the collector can free their code once nothing else holds it (a stock
    board copies each module's code into its heap). Only on a board: elsewhere a module
    imported again would be a second copy beside the one the tests hold."""
    if not ON_BOARD:
        return
    for name in names:
        if sys.modules.pop(name, None) is None:
            continue
        package, _, leaf = name.rpartition(".")
        if package in sys.modules:
            try:
                delattr(sys.modules[package], leaf)
            except AttributeError:
                pass
