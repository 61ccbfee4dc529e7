"""Test suite: pytest on CPython, plus runs of tests/engine on MicroPython."""
