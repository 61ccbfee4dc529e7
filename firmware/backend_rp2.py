"""The rp2 (Raspberry Pi Pico) backend: real pins and buses from the pin map, then the App.

This is the only firmware module that imports `machine`. Everything it builds is handed to
`App` through `app.Hardware`, so the rest of the firmware runs unchanged on the twins.
Files on the board's flash: settings.json, chips.json (the registry), pins/<name>.json,
profiles/<game>.json, and game.dat (the journal).
"""

import sys
import time

import machine

from firmware import config
from firmware.app import App, Hardware
from firmware.drivers.antenna import AntennaMux
from firmware.drivers.hc165 import ShiftChain
from firmware.drivers.pn532 import PN532, ReaderError
from firmware.drivers.ssd1306 import SSD1306, DisplayError
from firmware.drivers.ws2812 import TIMING, WS2812
from firmware.fsio import DeviceFS


class FlashFS(DeviceFS):
    """The board's littlefs flash, which can be remounted after a failed write (journal.py)."""

    def remount(self):
        import rp2

        try:
            import vfs  # MicroPython 1.23 and later
        except ImportError:  # 1.22 has the same calls in os
            import os as vfs  # type: ignore[no-redef]

        vfs.umount("/")
        # The stubs declare VfsLfs2 abstract; the port implements it in C.
        vfs.mount(vfs.VfsLfs2(rp2.Flash()), "/")  # type: ignore[abstract]


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        time.sleep_ms(ms)


def build(root=""):
    fs = FlashFS(root)
    conf, problems, pins, board, chips = config.load(fs).parts()
    clock = Clock()
    pr = pins["presence"]
    # Mode 3: the clock idles high, as the 74HC165 wants it while SH/LD rises. Every pin
    # is named: left out, the rp2 port would take its defaults (GP19 is the ok button).
    spi = machine.SPI(
        pr["spi"],
        baudrate=pr["baudrate"],
        polarity=1,
        phase=1,
        sck=machine.Pin(pr["sck"]),
        mosi=machine.Pin(pr["mosi"]),
        miso=machine.Pin(pr["miso"]),
    )
    latch = machine.Pin(pr["latch"], machine.Pin.OUT, value=1)
    bus = pins["i2c"]
    i2c = machine.I2C(
        bus["id"], sda=machine.Pin(bus["sda"]), scl=machine.Pin(bus["scl"]), freq=bus["freq"]
    )
    display = SSD1306(i2c, pins["display"]["addr"])
    try:
        display.init()
    except DisplayError as err:
        problems.append(str(err))
    px = pins["pixels"]
    led_pin = machine.Pin(px["pin"], machine.Pin.OUT)

    def write(buf):
        machine.bitstream(led_pin, 0, TIMING, buf)

    reader = antenna = None
    nfc = pins.get("nfc")
    if nfc and conf["sensor"] == "nfc":

        def out(gp, level=0):
            return machine.Pin(gp, machine.Pin.OUT, value=level)

        reset = out(nfc["reset"], 1) if nfc.get("reset") is not None else None
        reader = PN532(i2c, clock, nfc["addr"], reset)
        try:
            reader.begin()
        except ReaderError as err:
            problems.append(str(err))
        enable = out(nfc["antenna_enable"], 1) if nfc.get("antenna_enable") is not None else None
        antenna = AntennaMux(
            [out(g) for g in nfc["antenna_row"]], [out(g) for g in nfc["antenna_col"]], enable
        )
    buttons = {}
    for name, gp in pins["buttons"].items():
        buttons[name] = machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP)
    hw = Hardware(
        clock,
        ShiftChain(spi, latch, pr["chips"]),
        WS2812(write, px["count"], px.get("order", "GRB")),
        display,
        buttons,
        fs,
        sys.stdout.write,
        reader,
        antenna,
        ReaderError,
        DisplayError,
        px.get("serpentine", True),
        pr.get("active_low", True),
    )
    return App(hw, board, conf, problems, chips)
