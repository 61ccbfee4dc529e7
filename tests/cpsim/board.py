"""Simulated CircuitPython `board` for the Raspberry Pi Pico: GP0..GP29, the LED on GP25, and
VOLTAGE_MONITOR (GP29, VSYS / 3).

Each name is the `microcontroller.pin.GPIOn` object, as on the real board. There is no
`NEOPIXEL` (the Pico has none), so `neopixel.NeoPixel` skips its power-pin handling.
"""

from microcontroller import pin as _pin

GP0 = _pin.GPIO0
GP1 = _pin.GPIO1
GP2 = _pin.GPIO2
GP3 = _pin.GPIO3
GP4 = _pin.GPIO4
GP5 = _pin.GPIO5
GP6 = _pin.GPIO6
GP7 = _pin.GPIO7
GP8 = _pin.GPIO8
GP9 = _pin.GPIO9
GP10 = _pin.GPIO10
GP11 = _pin.GPIO11
GP12 = _pin.GPIO12
GP13 = _pin.GPIO13
GP14 = _pin.GPIO14
GP15 = _pin.GPIO15
GP16 = _pin.GPIO16
GP17 = _pin.GPIO17
GP18 = _pin.GPIO18
GP19 = _pin.GPIO19
GP20 = _pin.GPIO20
GP21 = _pin.GPIO21
GP22 = _pin.GPIO22
GP23 = _pin.GPIO23
GP24 = _pin.GPIO24
GP25 = _pin.GPIO25
GP26 = _pin.GPIO26
GP27 = _pin.GPIO27
GP28 = _pin.GPIO28
GP29 = _pin.GPIO29

LED = GP25
A0 = GP26
A1 = GP27
A2 = GP28
A3 = GP29
VOLTAGE_MONITOR = GP29  # VSYS through the Pico's 3:1 divider (tests/cpsim/analogio.py)
