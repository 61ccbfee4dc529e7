"""Simulated pins and I2C bus with the call shapes of MicroPython's `machine.Pin` / `machine.I2C`.

`SimPin` records its level and tells listeners about every change (a twin watching a latch
or chip-select line). An input pin's level is set by the test or a twin via `drive`.

`SimI2C` routes transfers to twin devices by 7-bit address. As on the rp2 port, a transfer
to an address nobody acknowledges raises `OSError(ENODEV)`; a device may raise
`OSError(ETIMEDOUT)` itself (clock stretching gone wrong). Only the methods the drivers use
exist, so a driver calling anything else fails loudly instead of silently succeeding.
"""

ENODEV = 19
ETIMEDOUT = 110


class SimPin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, name="", value=1):
        self.name = name
        self._value = value
        self.listeners = []
        self.writes = 0

    def value(self, v=None):
        if v is None:
            return self._value
        v = 1 if v else 0
        self.writes += 1
        if v != self._value:
            self._value = v
            for listener in self.listeners:
                listener(self, v)
        return None

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def __call__(self, v=None):
        return self.value(v)

    def drive(self, v):
        """The outside world sets an input's level (a button, a sensor)."""
        self._value = 1 if v else 0


class SimI2C:
    def __init__(self):
        self.devices = {}
        self.transfers = 0

    def attach(self, addr, device):
        """`device` has `write(data)` and `read(n) -> bytes` (one I2C transaction each)."""
        self.devices[addr] = device

    def detach(self, addr):
        self.devices.pop(addr, None)

    def _device(self, addr):
        self.transfers += 1
        dev = self.devices.get(addr)
        if dev is None:
            raise OSError(ENODEV)
        return dev

    def scan(self):
        return sorted(self.devices)

    def writeto(self, addr, buf, stop=True):
        self._device(addr).write(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = b"".join(bytes(v) for v in vector)
        self._device(addr).write(data)
        return len(data)

    def readfrom_into(self, addr, buf, stop=True):
        data = self._device(addr).read(len(buf))
        for k in range(len(buf)):
            buf[k] = data[k]

    def readfrom(self, addr, n, stop=True):
        return bytes(self._device(addr).read(n))
