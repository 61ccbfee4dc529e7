"""Tiny test runner that works on MicroPython as well as CPython.

`run_module("tests.engine.test_x")` imports the module, calls each top-level function whose name
starts with `test_` (alphabetical order; MicroPython's module dict keeps no definition order)
with no arguments, and prints two lines per test, before and after it runs:

    MPYUNIT-START {"test": "test_name"}
    MPYUNIT {"test": "test_name", "ok": true, "error": null, "traceback": null}

`error` is "Type: message" when the test raised. After the last test it prints

    MPYUNIT-DONE {"module": "tests.engine.test_x", "tests": 3, "failed": 0}

so a host can tell a finished run from one that died part way (and in which test). Tests
named in `run_module(..., skip=names)` are not run (the host accounts for them). If
importing the module fails, the exception propagates (on MicroPython: exit code 1 and a
traceback on stderr).

From a shell, on CPython: `python -m tests.mpyunit tests.engine.test_x [...]`; it exits with
status 1 if any test failed. Only language features MicroPython >= 1.22 supports are used here.
"""

import json
import sys

MARK = "MPYUNIT"
START_MARK = "MPYUNIT-START"
DONE_MARK = "MPYUNIT-DONE"
PREFIX = "test_"


def _plain():
    return None


def _closure():
    value = None

    def inner():
        return value

    return inner


# MicroPython gives functions that capture variables a type of their own ("closure").
_FUNCTION_TYPES = (type(_plain), type(_closure()))


def import_module(modname):
    """Import a module by dotted name and return it (not its top-level package)."""
    __import__(modname)
    return sys.modules[modname]


def collect(module):
    """Names of the test functions of `module`, sorted."""
    names = []
    for name in dir(module):
        if name.startswith(PREFIX) and type(getattr(module, name)) in _FUNCTION_TYPES:
            names.append(name)
    names.sort()
    return names


def describe(exc):
    """'Type: message', or just 'Type' when the message is empty."""
    name = type(exc).__name__
    message = str(exc)
    if message:
        return name + ": " + message
    return name


def format_traceback(exc):
    """The traceback of `exc` as text, on either runtime."""
    if hasattr(sys, "print_exception"):  # MicroPython
        import io

        buf = io.StringIO()
        sys.print_exception(exc, buf)
        return buf.getvalue()
    import traceback

    return "".join(traceback.format_exception(exc))


def run_test(name, fn):
    """Call one test function; return its record (a dict)."""
    try:
        fn()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a test may raise anything
        return {
            "test": name,
            "ok": False,
            "error": describe(exc),
            "traceback": format_traceback(exc),
        }
    return {"test": name, "ok": True, "error": None, "traceback": None}


def emit(mark, record):
    """Print one machine-readable line."""
    print(mark + " " + json.dumps(record))


def run_module(modname, skip=()):
    """Run every test of module `modname` but those named in `skip`, print the results;
    return the number failed."""
    module = import_module(modname)
    names = [name for name in collect(module) if name not in skip]
    failed = 0
    for name in names:
        if sys.platform == "rp2":
            # The Pico (tools/rp2emu): each test starts with the last one's board freed, as a
            # board has one App at a time. Not under WASI, whose collector traps.
            import gc

            gc.collect()
        emit(START_MARK, {"test": name})
        record = run_test(name, getattr(module, name))
        if not record["ok"]:
            failed += 1
        emit(MARK, record)
        record = None  # not kept through the next test, among its data
    emit(DONE_MARK, {"module": modname, "tests": len(names), "failed": failed})
    return failed


def main(modnames):
    """Run the tests of each named module; return 0 if all passed, else 1."""
    failed = 0
    for modname in modnames:
        failed += run_module(modname)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
