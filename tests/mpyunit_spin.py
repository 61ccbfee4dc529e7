"""Fixture module for tests/test_mpyunit.py: its second test never ends.

Not collected by pytest (the file name does not match `test_*.py`); it is only run on
MicroPython with a small fuel budget, to check that the runner names the test that hung.
"""

MPY_FUEL = 1_000_000_000  # read by mpyhost.module_fuel()


def test_a_passes():
    assert True


def test_b_spins_forever():
    while True:
        pass
