"""Cost readings from inside a MicroPython run (benchmarks only): wasm fuel or Pico cycles.

Under tools/mpyrun (the WASI build) `fuel()` asks the host for the wasm fuel left. On the
emulated Pico (tools/rp2emu) there is no host module: `fuel()` then counts down emulated
clock cycles, read from `time.ticks_us()` (the emulator advances its timer with the cycles it
executes, 125 a microsecond at 125 MHz; `ticks_cpu` is the same microsecond counter on the
rp2 port), so the same probes measure cycles there, to 125 cycles.

`cost(fn)` is the fuel (or cycles) `fn()` uses, less the cost of taking the readings themselves
(measured right after, in the same run). Fuel is deterministic, so a figure is exact for this
binary and this heap state; cycles also include any collection that falls inside `fn()`.
"""

import json

try:
    import host  # the WASI build's host calls (tools/mpyrun.py)
except ImportError:
    host = None

CYCLES_PER_US = 125

if host is None:
    from time import ticks_diff, ticks_us

    _T0 = ticks_us()

    def fuel():
        """Emulated cycles since import, negated: like fuel, it goes down as work is done."""
        return -ticks_diff(ticks_us(), _T0) * CYCLES_PER_US

    UNIT = "cycles"
else:

    def fuel():
        return json.loads(host.call("fuel", "{}"))["value"]

    UNIT = "fuel"


def cost(fn):
    """(fuel used by fn(), fn's result)."""
    a = fuel()
    result = fn()
    b = fuel()
    c = fuel()
    d = fuel()
    return (a - b) - (c - d), result
