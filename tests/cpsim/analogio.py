"""Simulated CircuitPython `analogio`: `AnalogIn(pin)`, after its documented API.

`AnalogIn(pin)` claims the pin (a second claim raises ValueError); `value` is the voltage on
it as 0-65535 of `reference_voltage` (3.3 V), and any use after `deinit()` raises ValueError.
A test sets a pin's voltage with `set_voltage(pin, volts)`; the Pico's VOLTAGE_MONITOR (GP29)
sits on a 3:1 divider from VSYS, so it reads 5.0 / 3 V until a test says otherwise.
"""

import board

REFERENCE = 3.3
volts = {board.VOLTAGE_MONITOR: 5.0 / 3}  # pin -> the voltage on it


def set_voltage(pin, v):
    volts[pin] = v


class AnalogIn:
    def __init__(self, pin):
        pin.claim(self)
        self._pin = pin
        self.reference_voltage = REFERENCE

    def deinit(self):
        if self._pin is not None:
            self._pin.release(self)
            self._pin = None

    @property
    def value(self):
        if self._pin is None:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        v = min(max(volts.get(self._pin, 0.0), 0.0), REFERENCE)
        return round(v / REFERENCE * 65535)
