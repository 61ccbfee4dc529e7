"""Simulated twins of the board's parts, written against their datasheets.

Each twin stands where the real part's bus or pin object would be handed to a driver, so the
unchanged drivers and game logic run on CPython and on MicroPython in tests. Twins take an
injected clock (`sim.clock.SimClock`) wherever the part has timing.
"""
