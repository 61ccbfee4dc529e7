"""Simulated CircuitPython `microcontroller`: the `Pin` class and the RP2040's `pin` namespace.

In CircuitPython a `microcontroller.Pin` only names a pad; peripherals (`digitalio`, `busio`,
`neopixel_write`) claim it and raise `ValueError("... in use")` for a second claim. Here a
pin also carries the simulated wire, which only tests and twins touch:
  - `level`: what the wire is at now (0 or 1), as a twin would sense it;
  - `listeners`: callables `(pin, level)` told when an output changes level;
  - `drive(v)`: the outside world forces an input (a pressed button: 0); `None` lets go, and
    the pull resistor (or a floating 0) decides again.
"""


class Pin:
    def __init__(self, name):
        self.name = name
        self.owner = None  # the object that claimed the pin (None: free)
        self.level = 0
        self.external = None  # level forced from outside, or None
        self.listeners = []

    def __repr__(self):
        return "board." + self.name

    # -- claims (what CircuitPython's peripherals do) -----------------------------------------

    def claim(self, owner):
        if self.owner is not None:
            raise ValueError("%s in use" % self.name)
        self.owner = owner

    def release(self, owner):
        if self.owner is owner:
            self.owner = None

    # -- the simulated wire -------------------------------------------------------------------

    def set_level(self, v):
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            for listener in self.listeners:
                listener(self, v)

    def drive(self, v):
        self.external = None if v is None else (1 if v else 0)
        owner = self.owner
        if owner is not None and hasattr(owner, "_settle"):
            owner._settle()
        elif self.external is not None:
            self.level = self.external


class _Pins:
    """`microcontroller.pin`: GPIO0..GPIO29 on the RP2040."""

    def __init__(self):
        for n in range(30):
            setattr(self, "GPIO%d" % n, Pin("GP%d" % n))


pin = _Pins()
