"""The CircuitPython backend (RP2040): the same App as backend_rp2, on CircuitPython's modules.

`build(root="/")` reads the same files as backend_rp2 (settings.json, chips.json,
pins/<name>.json, profiles/<game>.json, game.dat) and wires the same drivers, through small
adapters that give them the call shapes of MicroPython's `machine` (this module never imports
`machine`):
  - pins: `digitalio.DigitalInOut` on `board.GPn` behind `Pin.value(v=None)`; buttons are
    inputs with `Pull.UP`;
  - the 74HC165 chain: `busio.SPI(clock, MOSI, MISO)` configured once in the mode
    firmware/drivers/hc165.py names (mode 2: polarity 1, phase 0), behind
    `SPIBus.readinto(buf, write)`; the antenna matrix's 74HC595s share it
    (`SPIBus.write(buf)`); the pin map's `spi` id is unused, as
    CircuitPython picks the SPI block from the pins;
  - the display and the NFC reader: `busio.I2C(scl, sda, frequency=...)` behind `I2CBus`
    (`writeto`, `writevto`, `readfrom_into`). The drivers send each transfer as one buffer
    (the display's frame with its control byte in front); CircuitPython has no `writevto`, so
    for a vector of parts the adapter copies them into one buffer it keeps, grown once to the
    longest, and sends that in one `writeto`. Each transfer takes the bus lock (`try_lock`)
    and gives it back;
  - the LED rail switch (the pin map's `pixels.power`, if any) is an output pin like the
    others; VSYS is read from `board.VOLTAGE_MONITOR` (the Pico's GPIO29: VSYS / 3) through
    `analogio`, where the board has it;
  - the LEDs: `NeoPixelSink` over the `neopixel` library (PyPI adafruit-circuitpython-neopixel;
    `neopixel.mpy` in the CircuitPython bundle, which the board's lib/ folder must hold);
  - time: `Clock`, from `supervisor.ticks_ms()`, which wraps at 2**29 ms (and first wraps about
    65 s after power-on). The firmware's `engine.compat.ticks_diff` assumes MicroPython's
    2**30 period, so `Clock.ticks_ms()` extends the count to 30 bits: it notices each wrap and
    flips bit 29. That needs a call at least every 2**29 ms (six days); the main loop calls
    it every few milliseconds.

The filesystem: CircuitPython's `open` and `os` work as firmware/fsio.DeviceFS expects; a
rename over an existing file is remove-then-rename on FAT (firmware/journal.py covers that
window). The CIRCUITPY drive is read-only to code while the PC may write it, so the journal
needs a boot.py that calls `storage.remount("/", readonly=False)`; after that the PC can no
longer write the drive (settings, pin maps and chips.json are then changed from the REPL, or
by a boot.py that skips the remount, e.g. while a button is held at reset). Without the
remount every save fails (OSError EROFS) and the board plays on without a journal. With
`root="/"` files are named relative to the current directory, which is the drive's root when
code.py runs.

A code.py of `from firmware.backend_circuitpython import main` then `main()` runs the board.
"""

import sys
import time

import board
import busio
import digitalio
import neopixel
import supervisor

from engine.compat import forget
from firmware.drivers.hc165 import SPI_PHASE, SPI_POLARITY
from firmware.fsio import DeviceFS

_WRAP = 1 << 29  # supervisor.ticks_ms() counts modulo this
_LOCK_TRIES = 100
_EBUSY = 16
_ENODEV = 19


class Clock:
    """`ticks_ms()` in MicroPython's tick domain (modulo 2**30), and `sleep_ms(ms)`."""

    def __init__(self):
        self._last = supervisor.ticks_ms()
        self._high = 0  # 0 or 2**29: the bit supervisor.ticks_ms() does not have

    def ticks_ms(self):
        now = supervisor.ticks_ms()
        if now < self._last:  # supervisor's count wrapped at 2**29
            self._high ^= _WRAP
        self._last = now
        return now | self._high

    def sleep_ms(self, ms):
        if ms > 0:
            time.sleep(ms / 1000)


def _gp(n):
    return getattr(board, "GP%d" % n)


class Pin:
    """A `digitalio.DigitalInOut` with machine.Pin's `value(v=None)` (levels 0 and 1)."""

    def __init__(self, io):
        self.io = io

    def value(self, v=None):
        if v is None:
            return 1 if self.io.value else 0
        self.io.value = bool(v)
        return None


def _out(gp, level=0):
    io = digitalio.DigitalInOut(_gp(gp))
    io.switch_to_output(value=bool(level))
    return Pin(io)


def _in_pulled_up(gp):
    io = digitalio.DigitalInOut(_gp(gp))
    io.switch_to_input(pull=digitalio.Pull.UP)
    return Pin(io)


def _locked(bus, call, *args, **kw):
    """`call(*args, **kw)` holding the busio lock of `bus`; OSError(EBUSY) if something else
    holds it."""
    for _ in range(_LOCK_TRIES):
        if bus.try_lock():
            try:
                return call(*args, **kw)
            finally:
                bus.unlock()
    raise OSError(_EBUSY)


class SPIBus:
    """`busio.SPI` with machine.SPI's `readinto(buf, write)` (the ShiftChain driver's call),
    and `write(buf)` and `init(polarity=, phase=)` (the antenna matrix's: its 74HC595s share
    the bus, and are written in their own mode)."""

    def __init__(self, spi, baudrate, polarity=SPI_POLARITY, phase=SPI_PHASE):
        self.spi = spi
        self.baudrate = baudrate
        # The firmware is this bus's only user, so the settings stay between transfers.
        _locked(spi, spi.configure, baudrate=baudrate, polarity=polarity, phase=phase, bits=8)

    def init(self, polarity, phase):
        _locked(
            self.spi,
            self.spi.configure,
            baudrate=self.baudrate,
            polarity=polarity,
            phase=phase,
            bits=8,
        )

    def readinto(self, buf, write=0):
        _locked(self.spi, self.spi.readinto, buf, write_value=write)

    def write(self, buf):
        _locked(self.spi, self.spi.write, buf)


class I2CBus:
    """`busio.I2C` with the machine.I2C calls the drivers make.

    `writevto` copies its parts into `self.buf` (grown only if a vector is longer than
    `size`) and sends them in one transaction, as machine.I2C.writevto does.
    """

    def __init__(self, i2c, size=0):
        self.i2c = i2c
        self.buf = bytearray(size)

    def writeto(self, addr, buf, stop=True):
        _locked(self.i2c, self.i2c.writeto, addr, buf)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        n = 0
        for part in vector:
            n += len(part)
        buf = self.buf
        if len(buf) < n:
            buf = self.buf = bytearray(n)
        k = 0
        for part in vector:
            m = len(part)
            buf[k : k + m] = part
            k += m
        _locked(self.i2c, self.i2c.writeto, addr, buf, end=n)
        return n

    def readfrom_into(self, addr, buf, stop=True):
        _locked(self.i2c, self.i2c.readfrom_into, addr, buf)


class NoBus:
    """Stands for an I2C bus CircuitPython refused to make: every transfer fails as unanswered,
    so the display and the reader report themselves missing instead of stopping the boot."""

    def writeto(self, addr, buf, stop=True):
        raise OSError(_ENODEV)

    writevto = writeto

    def readfrom_into(self, addr, buf, stop=True):
        raise OSError(_ENODEV)


class NeoPixelSink:
    """The WS2812 driver's calls (`order`, `put`, `frame`, `patch`, `show`) over
    `neopixel.NeoPixel`.

    `order` names where red, green and blue sit in a wire pixel, as firmware/drivers/ws2812
    does: (1, 0, 2) for GRB. The NeoPixel object runs at brightness 1.0 (firmware/leds.py
    scales the palette) and writes only on `show()`.
    """

    def __init__(self, pin, count, order="GRB"):
        if len(order) != 3 or sorted(order) != ["B", "G", "R"]:
            raise ValueError("pixel order must be R, G and B in some order, like GRB")
        self.count = count
        self.order = (order.index("R"), order.index("G"), order.index("B"))
        self.pixels = neopixel.NeoPixel(
            pin, count, brightness=1.0, auto_write=False, pixel_order=order
        )
        self._rgb = []  # the palette as (r, g, b) tuples, rebuilt per frame

    def put(self, i, r, g, b):
        self.pixels[i] = (r, g, b)

    def frame(self, indices, palette):
        """LED j shows `palette[indices[j]]`; palette entries are in wire order."""
        r, g, b = self.order
        rgb = self._rgb
        rgb.clear()
        for p in palette:  # one tuple per palette entry, not per pixel
            rgb.append((p[r], p[g], p[b]))
        px = self.pixels
        for j in range(len(indices)):
            px[j] = rgb[indices[j]]

    def patch(self, indices, palette, leds):
        """Only the LEDs in `leds`, as `frame`."""
        r, g, b = self.order
        px = self.pixels
        for j in leds:
            p = palette[indices[j]]
            px[j] = (p[r], p[g], p[b])

    def show(self):
        self.pixels.show()


def usb_read(limit=256):
    """What the PC sent on the USB console, without blocking. The supervisor counts the
    bytes waiting, but sys.stdin reads characters, and a character such as × is two bytes:
    so one character at a time, while bytes remain, never waiting for more."""
    runtime = supervisor.runtime
    if not runtime.serial_bytes_available:
        return b""
    out = []
    n = 0
    while n < limit and runtime.serial_bytes_available:
        c = sys.stdin.read(1).encode()
        out.append(c)
        n += len(c)
    return b"".join(out)


def vsys_reader():
    """`vsys()`: VSYS in millivolts from `board.VOLTAGE_MONITOR` (on the Pico, GPIO29 reads
    VSYS through a 3:1 divider), or None where the board or the port has no such input."""
    try:
        import analogio

        pin = board.VOLTAGE_MONITOR
    except (ImportError, AttributeError):
        return None
    adc = analogio.AnalogIn(pin)

    def vsys():
        return adc.value * 3 * 3300 // 65535

    return vsys


def build(root="/"):
    # (imported here, and forgotten once the App is made: firmware/assemble.py, BOOT_ONLY)
    from firmware import config
    from firmware.assemble import BOOT_ONLY, assemble

    base = root.rstrip("/")  # "/" -> "": names relative to the current directory
    fs = DeviceFS(base)
    cfg = config.load(fs)
    pins, problems = cfg.pins, cfg.problems
    clock = Clock()
    pr = pins["presence"]
    # Mode 2 (firmware/drivers/hc165.py): the clock idles high, as the 74HC165 wants it while
    # SH/LD rises, and QH is sampled on the falling edge, away from the shifting rising edge.
    spi = SPIBus(busio.SPI(_gp(pr["sck"]), _gp(pr["mosi"]), _gp(pr["miso"])), pr["baudrate"])
    latch = _out(pr["latch"], 1)
    bus = pins["i2c"]
    try:
        i2c = I2CBus(busio.I2C(_gp(bus["scl"]), _gp(bus["sda"]), frequency=bus["freq"]))
    except RuntimeError as err:  # e.g. "No pull up found on SDA or SCL"
        problems.append("I2C bus: %s" % err)
        i2c = NoBus()
    px = pins["pixels"]
    pixels = NeoPixelSink(_gp(px["pin"]), px["count"], px.get("order", "GRB"))
    app = assemble(
        cfg, fs, clock, spi, latch, i2c, pixels, _out, _in_pulled_up, usb_read, vsys_reader()
    )
    forget(BOOT_ONLY)
    return app


def main(root="/"):
    """Build, boot and run the board: one supervised `App.tick()` every `scan_ms`, forever.

    A board that cannot start says why every 5 s instead of stopping; one whose loop stops
    (faults kept coming, or the PC asked) restarts cleanly."""
    import json

    try:
        app = build(root)
        app.boot()
    except Exception as err:  # noqa: BLE001  (a bad file or a missing part: say it, never stop)
        line = '{"ev": "cannot_start", "text": %s}\n' % json.dumps(str(err))
        while True:
            sys.stdout.write(line)
            time.sleep(5)
    clock = app.clock
    while app.running:
        app.tick()
        clock.sleep_ms(app.period_ms)
    supervisor.reload()  # code.py runs again: a clean restart, never the REPL
