"""Engine tests: plain `test_*` functions that run on CPython (pytest) and on MicroPython.

Use `assert` and the helpers in tests/engine/checks.py only; tests/test_micropython.py runs
every `test_*.py` module here on MicroPython too and checks that the same tests ran.
Each module gets 5e10 fuel there (~8 s of wall time); a heavier module may set its own
budget with a top-level constant, e.g. `MPY_FUEL = 200_000_000_000`.
"""
