"""The parts every backend builds the same way, once it has made its buses and pins.

A backend (backend_rp2.py, backend_circuitpython.py) makes what differs between ports: the
clock, the SPI bus and latch of the presence chain, the I2C bus, the LED chain, and two pin
factories. `assemble` makes the rest from the pin map: the display, the NFC reader and its
antenna matrix (NFC builds; its 74HC595s on the presence chain's SPI bus), the buttons, and
the `App` itself. A part that does not answer at boot is a problem reported on the display
and the event stream, not a stop.

What only the build needs (`BOOT_ONLY`: reading and checking the files, this module) a
backend forgets once the App is made (engine/compat.py's `forget`), so that a stock board,
which holds its code in the heap, gives that room to the game and the board's thinks
(measured by `make bench`, tools/picobench.py's `board_boot`). No module a running board
keeps may import them (tests/test_boot_only.py), but firmware/commands.py: once the PC first
sends a command, they are back, with the commands' own code.
"""

import sys

from firmware import font
from firmware.app import App, Hardware
from firmware.drivers.antenna import AntennaMatrix
from firmware.drivers.hc165 import SPI_PHASE, SPI_POLARITY, ShiftChain
from firmware.drivers.pn532 import PN532, ReaderError
from firmware.drivers.ssd1306 import SSD1306, DisplayError

BOOT_ONLY = ("firmware.config", "firmware.pinmap", "firmware.settings", "firmware.assemble")


def display_driver(i2c, spec):
    """The driver for the pin map's `display` section (its `kind`, ssd1306 by default, and
    `addr`), drawing text in the firmware's font."""
    kind = SSD1306
    if spec.get("kind") == "sh1106":  # (imported only for a board that has one)
        from firmware.drivers.sh1106 import SH1106 as kind
    return kind(i2c, spec["addr"], font=font)


def assemble(cfg, fs, clock, spi, latch, i2c, pixels, out_pin, in_pin, read=None, vsys=None):
    """The App for config `cfg` (firmware/config.py) on these buses.

    `out_pin(gpio, level)` makes an output pin and `in_pin(gpio)` an input with its pull-up,
    each with a machine.Pin-like `value()`. `read()` gives what the PC sent over USB.
    `vsys()` gives VSYS in millivolts where the backend can read it (firmware/leds.py).
    """
    conf, problems, pins, profile, chips = cfg.parts()
    display = display_driver(i2c, pins["display"])
    try:
        display.init()
    except DisplayError as err:
        problems.append(str(err))
    reader = antenna = None
    nfc = pins.get("nfc")
    if nfc and conf["sensor"] == "nfc":
        reset = out_pin(nfc["reset"], 1) if nfc.get("reset") is not None else None
        reader = PN532(i2c, clock, nfc["addr"], reset)
        try:
            reader.begin()
        except ReaderError as err:
            problems.append(str(err))
        # The 74HC595s share the presence chain's SPI bus; OE-bar high: every antenna off.
        enable = out_pin(nfc["antenna_enable"], 1)
        rclk = out_pin(nfc["select"]["rclk"], 0)
        mode = (SPI_POLARITY, SPI_PHASE)  # the bus's mode for the '165s, restored after a write
        antenna = AntennaMatrix(spi, rclk, enable, reader, profile.height, profile.width, mode)
    buttons = {}
    for name, gp in pins["buttons"].items():
        buttons[name] = in_pin(gp)
    pr = pins["presence"]
    gp = pins["pixels"].get("power")
    led_power = out_pin(gp, 0) if gp is not None else None  # the LED rail: off until allowed
    hw = Hardware(
        clock,
        ShiftChain(spi, latch, pr["chips"]),
        pixels,
        display,
        buttons,
        fs,
        sys.stdout.write,
        reader,
        antenna,
        ReaderError,
        DisplayError,
        pins["pixels"].get("serpentine", True),
        pr.get("active_low", True),
        read,
        led_power=led_power,
        vsys=vsys,
    )
    return App(hw, profile, conf, problems, chips)
