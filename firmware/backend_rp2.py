"""The rp2 (Raspberry Pi Pico) backend: real pins and buses from the pin map, then the App.

This is the only firmware module that imports `machine`. It makes the buses and pins;
firmware/assemble.py makes the rest, as for every backend, and hands it all to `App` through
`app.Hardware`, so the rest of the firmware runs unchanged on the twins.
Files on the board's flash: settings.json, chips.json (the registry), pins/<name>.json,
profiles/<game>.json, and game.dat (the journal).
"""

import time

import machine

from engine.compat import forget
from firmware.drivers.hc165 import SPI_PHASE, SPI_POLARITY
from firmware.drivers.ws2812 import TIMING, WS2812
from firmware.fsio import FlashFS  # the flash, remounted as the port mounts it at boot


def usb_reader(limit=256):
    """`read()` for the PC's commands: the bytes waiting on USB serial, without blocking.

    stdin is the USB CDC port; Ctrl-C on it still interrupts the program (mpremote relies
    on that to reach the REPL for flashing). At most `limit` bytes a call, so a long upload
    never holds up a scan."""
    import select
    import sys

    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin = sys.stdin.buffer
    buf = bytearray(limit)  # allocated once: a quiet scan allocates nothing

    def waiting():
        for _ in poller.ipoll(0):  # ipoll: no list allocated, unlike poll
            return True
        return False

    def read():
        n = 0
        while n < limit and waiting():
            b = stdin.read(1)
            if not b:
                break
            buf[n] = b[0]
            n += 1
        return bytes(buf[:n]) if n else b""

    return read


WDT_MS = 8000  # the RP2040 watchdog's longest timeout is 8,388 ms
_WATCHDOG_CTRL_CLR = 0x40058000 + 0x3000  # WATCHDOG CTRL, atomic-clear alias (RP2040 §2.1.2)
_WATCHDOG_ENABLE = 1 << 30  # CTRL.ENABLE (RP2040 datasheet §4.7.6)


class Watchdog:
    """The RP2040 watchdog: it resets a board whose main loop stops ticking for WDT_MS."""

    def __init__(self):
        self.wdt = machine.WDT(timeout=WDT_MS)

    def feed(self):
        self.wdt.feed()


def stop_watchdog():
    """Stop the watchdog, which machine.WDT cannot: before the REPL (Ctrl-C, as mpremote
    flashes) or a restart whose boot may wait, it would otherwise reset the board."""
    machine.mem32[_WATCHDOG_CTRL_CLR] = _WATCHDOG_ENABLE


def restart():
    """Restart the firmware (the PC asked, or faults kept coming): main.py runs again."""
    stop_watchdog()
    machine.soft_reset()


def vsys_reader():
    """`vsys()`: VSYS in millivolts. On the Pico, ADC3 (GPIO29) reads VSYS through a 3:1
    divider (Pico datasheet, "Powering Pico"); the ADC's full scale is the 3.3 V rail."""
    adc = machine.ADC(29)

    def vsys():
        return adc.read_u16() * 3 * 3300 // 65535

    return vsys


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        time.sleep_ms(ms)


def build(root=""):
    # (imported here, and forgotten once the App is made: firmware/assemble.py, BOOT_ONLY)
    from firmware import config
    from firmware.assemble import BOOT_ONLY, assemble

    fs = FlashFS(root)
    cfg = config.load(fs)
    pins = cfg.pins
    clock = Clock()
    pr = pins["presence"]
    # Mode 2 (firmware/drivers/hc165.py): the clock idles high, as the 74HC165 wants it
    # while SH/LD rises, and QH is sampled on the falling edge, half a period after the
    # rising edge that shifts it. Every pin is named: left out, the rp2 port would take its
    # defaults (GP19 is the ok button).
    spi = machine.SPI(
        pr["spi"],
        baudrate=pr["baudrate"],
        polarity=SPI_POLARITY,
        phase=SPI_PHASE,
        sck=machine.Pin(pr["sck"]),
        mosi=machine.Pin(pr["mosi"]),
        miso=machine.Pin(pr["miso"]),
    )
    latch = machine.Pin(pr["latch"], machine.Pin.OUT, value=1)
    bus = pins["i2c"]
    i2c = machine.I2C(
        bus["id"], sda=machine.Pin(bus["sda"]), scl=machine.Pin(bus["scl"]), freq=bus["freq"]
    )
    px = pins["pixels"]
    led_pin = machine.Pin(px["pin"], machine.Pin.OUT)

    def write(buf):
        machine.bitstream(led_pin, 0, TIMING, buf)

    def out_pin(gp, level):
        return machine.Pin(gp, machine.Pin.OUT, value=level)

    def in_pin(gp):
        return machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP)

    pixels = WS2812(write, px["count"], px.get("order", "GRB"))
    app = assemble(
        cfg, fs, clock, spi, latch, i2c, pixels, out_pin, in_pin, usb_reader(), vsys_reader()
    )
    forget(BOOT_ONLY)
    return app
