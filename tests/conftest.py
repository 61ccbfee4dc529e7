"""pytest hooks for the whole suite: ending the run without wasmtime's shutdown abort.

The WASI MicroPython (tools/mpyrun.py) runs under wasmtime, whose WASI runtime keeps worker
threads. When the interpreter shuts down after a run that used it, one of those threads can
panic in a function that cannot unwind ("thread caused non-unwinding panic. aborting."), and
the process ends with SIGABRT (exit status 134) after every test passed: seen once in about
ten runs of tests/test_micropython.py with tests/test_movegen_brute.py, 2026-11-27. `make
test`, and so CI, would fail on it. So once pytest has reported, a process that loaded
wasmtime ends at once with pytest's own exit status, skipping the interpreter's shutdown.
"""

import os
import sys

import pytest

_status = [None]


def pytest_sessionfinish(session, exitstatus):
    _status[0] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if "wasmtime" not in sys.modules or _status[0] is None:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_status[0])
