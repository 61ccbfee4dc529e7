"""Simulated CircuitPython `busio`: `SPI` and `I2C` controllers, after the documented API.

Both claim their pins (a pin already in use raises ValueError) and, as in CircuitPython, every
transfer, `configure` and `scan` needs the bus lock first (`try_lock()`), else RuntimeError
("Function requires lock"). Buffers take the documented `start`/`end` keywords.

Twins plug in at module level, so a test can wire them before the firmware builds its buses:
  - SPI: `attach_spi(clock_pin, twin)`. A twin with `spi_transfer(spi, out, into)` (as
    firmware/sim twins have: see firmware/sim/bus.SimSPI) is clocked in the bus's configured
    mode (`spi.polarity`, `spi.phase`); a simpler twin has `readinto(buf, write)` and
    optionally `write(buf)`. With no twin, MISO reads 0xFF (nothing drives it) and writes go
    nowhere.
  - I2C: `attach(addr, device)` / `detach(addr)`, one registry shared by every `I2C` object
    (like firmware/sim/bus.SimI2C); a device has `write(data)` and `read(n) -> bytes`, one
    transaction each. An address nobody acknowledges raises OSError(ENODEV), as on the RP2040.
"""

import sys

ENODEV = 19

spi_devices = {}  # clock Pin -> twin
devices = {}  # I2C 7-bit address -> twin


def attach_spi(clock, twin):
    spi_devices[clock] = twin


def attach(addr, device):
    devices[addr] = device


def detach(addr):
    devices.pop(addr, None)


def _claim(owner, pins):
    done = []
    try:
        for pin in pins:
            if pin is not None:
                pin.claim(owner)
                done.append(pin)
    except ValueError:
        for pin in done:
            pin.release(owner)
        raise
    return done


def _span(buf, start, end):
    n = len(buf)
    end = min(end, n)
    if not 0 <= start <= end:
        raise ValueError("start/end out of range")
    return memoryview(buf)[start:end]


class _Lockable:
    def __init__(self, pins):
        self._pins = _claim(self, pins)
        self._locked = False
        self._live = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def deinit(self):
        for pin in self._pins:
            pin.release(self)
        self._pins = []
        self._live = False
        self._locked = False

    def deinited(self):
        return not self._live

    def _check(self):
        if not self._live:
            raise ValueError(
                "Object has been deinitialized and can no longer be used. Create a new object."
            )
        if not self._locked:
            raise RuntimeError("Function requires lock")

    def try_lock(self):
        if not self._live:
            raise ValueError("Object has been deinitialized")
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def locked(self):
        """Simulation only: whether the lock is held."""
        return self._locked


class SPI(_Lockable):
    def __init__(self, clock, MOSI=None, MISO=None, half_duplex=False):
        if half_duplex:
            raise NotImplementedError("half_duplex is not supported on the RP2040")
        super().__init__((clock, MOSI, MISO))
        self.clock = clock
        self.mosi = MOSI
        self.miso = MISO
        self.baudrate = 100000
        self.polarity = 0
        self.phase = 0
        self.bits = 8
        self.transfers = 0

    @property
    def frequency(self):
        return self.baudrate

    def configure(self, *, baudrate=100000, polarity=0, phase=0, bits=8):
        self._check()
        if polarity not in (0, 1) or phase not in (0, 1):
            raise ValueError("polarity and phase must be 0 or 1")
        if bits != 8:
            raise ValueError("bits must be 8")
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.bits = bits

    def _twin(self):
        self.transfers += 1
        return spi_devices.get(self.clock)

    def write(self, buffer, *, start=0, end=sys.maxsize):
        self._check()
        if self.mosi is None:
            raise ValueError("No MOSI pin")
        data = _span(buffer, start, end)
        twin = self._twin()
        if twin is not None and hasattr(twin, "spi_transfer"):
            twin.spi_transfer(self, bytes(data), None)
        elif twin is not None and hasattr(twin, "write"):
            twin.write(bytes(data))

    def readinto(self, buffer, *, start=0, end=sys.maxsize, write_value=0):
        self._check()
        if self.miso is None:
            raise ValueError("No MISO pin")
        view = _span(buffer, start, end)
        twin = self._twin()
        if twin is None:
            for k in range(len(view)):
                view[k] = 0xFF
        elif hasattr(twin, "spi_transfer"):
            twin.spi_transfer(self, bytes([write_value]) * len(view), view)
        else:
            twin.readinto(view, write_value)


class I2C(_Lockable):
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        super().__init__((scl, sda))
        self.scl = scl
        self.sda = sda
        self.frequency = frequency
        self.timeout = timeout
        self.transfers = 0

    def _device(self, address):
        self._check()
        if not 0 <= address <= 0x7F:
            raise ValueError("address out of range")
        self.transfers += 1
        dev = devices.get(address)
        if dev is None:
            raise OSError(ENODEV)
        return dev

    def scan(self):
        self._check()
        return sorted(devices)

    def writeto(self, address, buffer, *, start=0, end=sys.maxsize):
        data = _span(buffer, start, end)
        self._device(address).write(bytes(data))

    def readfrom_into(self, address, buffer, *, start=0, end=sys.maxsize):
        view = _span(buffer, start, end)
        if not len(view):
            raise ValueError("Buffer must be at least length 1")
        data = self._device(address).read(len(view))
        for k in range(len(view)):
            view[k] = data[k]

    def writeto_then_readfrom(
        self,
        address,
        out_buffer,
        in_buffer,
        *,
        out_start=0,
        out_end=sys.maxsize,
        in_start=0,
        in_end=sys.maxsize,
    ):
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)
