"""The parts every backend builds the same way, once it has made its buses and pins.

A backend (backend_rp2.py, backend_circuitpython.py) makes what differs between ports: the
clock, the SPI bus and latch of the presence chain, the I2C bus, the LED chain, and two pin
factories. `assemble` makes the rest from the pin map: the display, the NFC reader and its
antenna multiplexer (NFC builds), the buttons, and the `App` itself. A part that does not
answer at boot is a problem reported on the display and the event stream, not a stop.
"""

import sys

from firmware.app import App, Hardware
from firmware.drivers.antenna import AntennaMux
from firmware.drivers.hc165 import ShiftChain
from firmware.drivers.pn532 import PN532, ReaderError
from firmware.drivers.ssd1306 import SSD1306, DisplayError


def assemble(cfg, fs, clock, spi, latch, i2c, pixels, out_pin, in_pin, read=None):
    """The App for config `cfg` (firmware/config.py) on these buses.

    `out_pin(gpio, level)` makes an output pin and `in_pin(gpio)` an input with its pull-up,
    each with a machine.Pin-like `value()`. `read()` gives what the PC sent over USB.
    """
    conf, problems, pins, profile, chips = cfg.parts()
    display = SSD1306(i2c, pins["display"]["addr"])
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
        gp = nfc.get("antenna_enable")
        enable = out_pin(gp, 1) if gp is not None else None
        rows = [out_pin(g, 0) for g in nfc["antenna_row"]]
        antenna = AntennaMux(rows, [out_pin(g, 0) for g in nfc["antenna_col"]], enable)
    buttons = {}
    for name, gp in pins["buttons"].items():
        buttons[name] = in_pin(gp)
    pr = pins["presence"]
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
    )
    return App(hw, profile, conf, problems, chips)
