"""Simulated CircuitPython `supervisor`: `ticks_ms()` and `runtime.serial_bytes_available`.

CircuitPython documents `supervisor.ticks_ms()` as milliseconds from an arbitrary point,
wrapping after 2**29 ms, and starting about 65 s before the first wrap. Here the time comes
from an injectable clock (`set_clock(obj)`, where `obj.ticks_ms()` counts milliseconds, e.g.
firmware/sim/clock.SimClock); by default, the host's monotonic clock.
"""

import time

TICKS_PERIOD = 1 << 29


class _HostClock:
    def __init__(self):
        self.zero = time.monotonic_ns() // 1_000_000 - (TICKS_PERIOD - 65_000)

    def ticks_ms(self):
        return time.monotonic_ns() // 1_000_000 - self.zero


_clock = _HostClock()


def set_clock(clock):
    global _clock
    _clock = clock


def ticks_ms():
    return _clock.ticks_ms() & (TICKS_PERIOD - 1)


class _Runtime:
    """`runtime.serial_bytes_available`: the bytes waiting on the USB console. Tests set
    `console` to an object with `available()` and `read(n)` standing in for sys.stdin."""

    console = None

    @property
    def serial_bytes_available(self):
        return self.console.available() if self.console is not None else 0


runtime = _Runtime()
