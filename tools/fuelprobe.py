"""Fuel readings from inside a MicroPython run under tools/mpyrun (benchmarks only).

`fuel()` asks the host for the wasm fuel left; `cost(fn)` is the fuel `fn()` uses, less
the cost of taking the readings themselves (measured right after, in the same run).
Fuel is deterministic, so a figure is exact for this binary and this heap state.
"""

import json

import host


def fuel():
    return json.loads(host.call("fuel", "{}"))["value"]


def cost(fn):
    """(fuel used by fn(), fn's result)."""
    a = fuel()
    result = fn()
    b = fuel()
    c = fuel()
    d = fuel()
    return (a - b) - (c - d), result
