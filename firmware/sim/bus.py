"""Simulated pins, I2C and SPI buses with the call shapes of MicroPython's `machine.Pin`,
`machine.I2C` and `machine.SPI`.

`SimPin` records its level and tells listeners about every change (a twin watching a latch
or chip-select line). An input pin's level is set by the test or a twin via `drive`.

`SimI2C` routes transfers to twin devices by 7-bit address. As on the rp2 port, a transfer
to an address nobody acknowledges raises `OSError(ENODEV)`; a device may raise
`OSError(ETIMEDOUT)` itself (clock stretching gone wrong). Only the methods the drivers use
exist, so a driver calling anything else fails loudly instead of silently succeeding.
`last_buffer` is the object the last `writeto` was given, so a test can see that a driver
sends from one buffer allocated once. The rp2 port copies a `writevto` vector of more than
one buffer into a new buffer before the transfer (`mp_machine_i2c_transfer_adaptor`,
extmod/machine_i2c.c): `copies` counts those transfers and `copied_bytes` the bytes the board
would have allocated for them.

`SimSPI` is an SPI controller that carries its mode (polarity, phase) to every device twin
on the bus, so a twin clocks and is sampled on the edges the mode says (`spi_edges`).
"""

ENODEV = 19
ETIMEDOUT = 110


class SimPin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4  # the rp2 port's values (the RP2040's GPIO_IRQ_EDGE_FALL and _RISE)
    IRQ_RISING = 8

    def __init__(self, name="", value=1):
        self.name = name
        self._value = value
        self.listeners = []
        self.writes = 0
        self.reads = []  # levels the next reads give (script)
        self.when = None
        self.handler = None  # irq(): called with the pin at each edge of `trigger`
        self.trigger = 0
        self.edge = False  # inside the handler

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        """As machine.Pin.irq: `handler(pin)` at each edge the trigger names (here at once,
        on the board soon after, between two bytecodes)."""
        self.handler = handler
        self.trigger = trigger

    def _level(self, v):
        if v == self._value:
            return
        self._value = v
        if self.handler is not None and self.trigger & (
            self.IRQ_RISING if v else self.IRQ_FALLING
        ):
            # (a read in the handler gives this level: the script moves on at the next read)
            self.edge = True
            try:
                self.handler(self)
            finally:
                self.edge = False

    def value(self, v=None):
        if v is None:
            if self.reads and not self.edge and (self.when is None or self.when()):
                self._level(self.reads.pop(0))
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
        self._level(1 if v else 0)

    def script(self, levels, when=None):
        """The levels the input's next reads give (those made while `when()` holds, if
        given), one a read, the last one kept: the outside world acting while the firmware
        is inside one step and the simulated clock stands still (a button pressed while the
        board thinks)."""
        self.reads = [1 if v else 0 for v in levels]
        self.when = when


class SimI2C:
    def __init__(self):
        self.devices = {}
        self.transfers = 0
        self.last_buffer = None
        self.copies = 0
        self.copied_bytes = 0

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
        self.last_buffer = buf
        # The buffer itself, not a copy (a device copies what it keeps): a copy of every
        # display frame would be the twin's own 1 KB allocation, splintering a Pico's heap.
        self._device(addr).write(buf)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = b"".join(bytes(v) for v in vector)
        if len(vector) > 1:  # the rp2 port allocates a buffer of them all, and copies
            self.copies += 1
            self.copied_bytes += len(data)
        self._device(addr).write(data)
        return len(data)

    def readfrom_into(self, addr, buf, stop=True):
        data = self._device(addr).read(len(buf))
        for k in range(len(buf)):
            buf[k] = data[k]

    def readfrom(self, addr, n, stop=True):
        return bytes(self._device(addr).read(n))


def spi_edges(polarity, phase):
    """The two SCK edges of one bit cycle, in time order, as (rising, sampled) pairs.

    CPOL (`polarity`) is the clock's idle level: 0 makes the leading edge rising, 1 falling.
    CPHA (`phase`) says on which edge both ends sample their input: 0 the leading edge (each
    end sets its first bit out before the first edge and changes its output on trailing
    edges), 1 the trailing edge (outputs change on leading edges).
    """
    lead_rising = polarity == 0
    return ((lead_rising, phase == 0), (not lead_rising, phase == 1))


class SimSPI:
    """A `machine.SPI` controller on a simulated bus, whose mode travels with every transfer.

    `SimSPI(id, baudrate=, polarity=, phase=, bits=8, firstbit=MSB, sck=, mosi=, miso=)` and
    `init(...)` take machine.SPI's keywords; as on the rp2 port, `init` changes only what it
    is given, and a new bus is mode 0 (polarity 0, phase 0). Frames are 8 bits, MSB first,
    as the RP2040's SPI sends them.

    Devices on the bus are attached with `attach(device)`. Every transfer calls
    `device.spi_transfer(spi, out, into)` on each: `out` holds the bytes the controller
    shifts out on MOSI, `into` the buffer to fill with what it samples on MISO (None for a
    `write`, which clocks the devices all the same). A device reads `spi.polarity` and
    `spi.phase` (see `spi_edges`) to know on which SCK edges it acts and on which edge the
    controller samples. MISO that no device drives reads 1s.
    """

    MSB = 0

    def __init__(self, ident=0, **kw):
        self.id = ident
        self.baudrate = 1000000
        self.polarity = 0
        self.phase = 0
        self.devices = []
        self.transfers = 0
        self._fill = b""  # what `readinto` sends on MOSI, for the last length and byte
        self.init(**kw)

    def init(
        self,
        baudrate=None,
        polarity=None,
        phase=None,
        bits=8,
        firstbit=MSB,
        sck=None,
        mosi=None,
        miso=None,
    ):
        if polarity not in (None, 0, 1) or phase not in (None, 0, 1):
            raise ValueError("polarity and phase must be 0 or 1")
        if bits != 8 or firstbit != self.MSB:
            raise ValueError("the simulated bus sends 8-bit frames, MSB first")
        if baudrate is not None:
            self.baudrate = baudrate
        if polarity is not None:
            self.polarity = polarity
        if phase is not None:
            self.phase = phase

    def attach(self, device):
        self.devices.append(device)
        return device

    def _transfer(self, out, into):
        self.transfers += 1
        if into is not None:
            for k in range(len(into)):
                into[k] = 0xFF
        for device in self.devices:
            device.spi_transfer(self, out, into)

    def readinto(self, buf, write=0):
        out = self._fill
        if len(out) != len(buf) or (out and out[0] != write):  # kept: a scan allocates nothing
            out = self._fill = bytes([write]) * len(buf)
        self._transfer(out, buf)

    def read(self, nbytes, write=0):
        buf = bytearray(nbytes)
        self.readinto(buf, write)
        return bytes(buf)

    def write(self, buf):
        self._transfer(bytes(buf), None)

    def write_readinto(self, write_buf, read_buf):
        self._transfer(bytes(write_buf), read_buf)
