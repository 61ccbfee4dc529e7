"""Simulated CircuitPython `neopixel_write`: `neopixel_write(digitalinout, buf)`.

On the board this clocks `buf` out of the pin as WS2812 bits. Here every call is recorded in
`writes` as (pin name, bytes), in call order, so tests can read the frames the LEDs got. The
pin must be a live `digitalio.DigitalInOut`; the buffer any bytes-like object.
"""

import digitalio

writes = []


def neopixel_write(digitalinout, buf):
    if not isinstance(digitalinout, digitalio.DigitalInOut):
        raise TypeError("digitalinout must be a digitalio.DigitalInOut")
    pin = digitalinout._live()
    writes.append((pin.name, bytes(memoryview(buf))))


def frames(pin_name):
    """Simulation only: the buffers written on one pin, oldest first."""
    return [data for name, data in writes if name == pin_name]
