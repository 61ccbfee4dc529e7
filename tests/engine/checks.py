"""Assertion helpers for engine tests; they run on MicroPython as well as CPython.

Engine tests are plain functions that use `assert` and these helpers, so the same module runs
under pytest (CPython) and under tests/mpyunit.py (MicroPython). Keep this module within what
MicroPython >= 1.22 supports: no typing, no dataclasses, no f-string `=` specifiers.
"""


def _type_name(exc_type):
    if isinstance(exc_type, tuple):
        return " or ".join(t.__name__ for t in exc_type)
    return exc_type.__name__


def _with_msg(text, msg):
    if msg:
        return msg + ": " + text
    return text


def raises(exc_type, fn, *args, **kw):
    """Call fn(*args, **kw); return the exception if it raised exc_type (or a tuple of types).

    Fails with AssertionError if nothing was raised. Any other exception propagates unchanged.
    """
    try:
        fn(*args, **kw)
    except exc_type as exc:
        return exc
    raise AssertionError("expected " + _type_name(exc_type) + ", nothing was raised")


def eq(a, b, msg=""):
    """Fail with both values shown unless a == b."""
    if not a == b:
        raise AssertionError(_with_msg(repr(a) + " != " + repr(b), msg))


def ne(a, b, msg=""):
    """Fail with both values shown unless a != b."""
    if not a != b:
        raise AssertionError(_with_msg(repr(a) + " == " + repr(b), msg))
