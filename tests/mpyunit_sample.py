"""Fixture module for tests/test_mpyunit.py: known passing and failing tests.

Its file name does not match `test_*.py`, so pytest never collects it on its own; the self-test
runs it through mpyunit on CPython and on MicroPython and checks the exact outcomes.
"""

from tests.engine.checks import eq, ne, raises

# test name -> expected "error" field of its MPYUNIT record (None: the test passes)
EXPECTED = {
    "test_assert_fails": "AssertionError: one is not two",
    "test_bare_assert_fails": "AssertionError",
    "test_closure_passes": None,
    "test_eq_fails": "AssertionError: lists: [1] != [2]",
    "test_eq_passes": None,
    "test_ne_fails": "AssertionError: 3 == 3",
    "test_passes": None,
    "test_raises_nothing_fails": "AssertionError: expected ValueError, nothing was raised",
    "test_raises_other_propagates": "TypeError: not a value error",
    "test_raises_passes": None,
    "test_raises_tuple_passes": None,
    "test_raising_fails": "ValueError: bad value",
}


def helper_not_a_test():
    raise RuntimeError("helpers must not be run")


def _type_error():
    raise TypeError("not a value error")


def _parse(text, base=10):
    return int(text, base)


def _make_closure():
    captured = [1, 2]

    def check():
        eq(sum(captured), 3)

    return check


test_closure_passes = _make_closure()
not_a_test = _make_closure()


def test_passes():
    assert 1 + 1 == 2


def test_assert_fails():
    assert len([1]) == 2, "one is not two"


def test_bare_assert_fails():
    assert False


def test_eq_passes():
    eq({"a": (1, 2)}, {"a": (1, 2)})


def test_eq_fails():
    eq([1], [2], "lists")


def test_ne_fails():
    ne(3, 3)


def test_raises_passes():
    exc = raises(ValueError, int, "x")
    assert isinstance(exc, ValueError)
    exc = raises(ValueError, _parse, "12", base=2)
    assert isinstance(exc, ValueError)


def test_raises_tuple_passes():
    assert isinstance(raises((KeyError, IndexError), [].pop), IndexError)


def test_raises_nothing_fails():
    raises(ValueError, int, "7")


def test_raises_other_propagates():
    raises(ValueError, _type_error)


def test_raising_fails():
    raise ValueError("bad value")
