"""Twin of a WS2812B chain, fed through a stand-in for `machine.bitstream`.

Checks what the datasheet requires of the host: encoding 0 (high/low pulse pairs) with bit
times within +/-150 ns of T0H 0.4 us, T0L 0.85 us, T1H 0.8 us, T1L 0.45 us, and whole 24-bit
pixels. Then each LED in turn takes the first 3 bytes (G, R, B) and passes the rest along,
so a short frame changes only the first LEDs. `colour(i)` is LED i's (r, g, b) once latched.

`SimRail` is the twin of the LED rail's load switch (TPS22958N, hardware/wiring.md "Power
path"). A chain given a `rail` is powered only while the rail is up: a frame sent into an
unpowered chain is lost (and counted in `lost`: data into unpowered LEDs feeds them through
their input), an unpowered LED shows nothing, and LEDs that lose power come back dark until
the next frame.
"""

from engine.compat import ticks_diff

_NOMINAL = (400, 850, 800, 450)
_TOLERANCE = 150


class BitstreamError(Exception):
    pass


class SimRail:
    """The load switch between the 5 V rail and the LEDs. Its ON input is the pin `on`,
    pulled down on the board (off until the firmware drives it high); its output rises over
    `rise_ms` (set by the CT capacitor: about 100 ms in the reference design) once ON is high,
    and drops when ON goes low. `switched` counts the times it was turned on."""

    def __init__(self, on, clock, rise_ms=100):
        self.clock = clock
        self.rise_ms = rise_ms
        self.switched = 0
        self.since = clock.ticks_ms() if on.value() else None  # when ON last went high
        on.listeners.append(self._changed)

    def _changed(self, pin, level):
        if level:
            self.since = self.clock.ticks_ms()
            self.switched += 1
        else:
            self.since = None

    def up(self):
        """Whether the LEDs have their supply (ON high for at least the rise time)."""
        since = self.since
        return since is not None and ticks_diff(self.clock.ticks_ms(), since) >= self.rise_ms


class SimWS2812:
    def __init__(self, count, rail=None):
        self.count = count
        self.grb = bytearray(3 * count)
        self.frames = 0
        self.rail = rail  # a SimRail, or None: always powered
        self.lost = 0  # frames sent while the chain had no supply
        self._powered = None  # `rail.switched` when the LEDs last took a frame

    def bitstream(self, pin, encoding, timing, buf):
        if encoding != 0:
            raise BitstreamError("WS2812 needs encoding 0 (high/low pulse pairs)")
        if len(timing) != 4:
            raise BitstreamError("timing must be 4 times in ns")
        for k in range(4):
            if abs(timing[k] - _NOMINAL[k]) > _TOLERANCE:
                raise BitstreamError("bit time %d ns outside the datasheet window" % timing[k])
        if len(buf) % 3:
            raise BitstreamError("frame is not whole 24-bit pixels")
        rail = self.rail
        if rail is not None:
            if not rail.up():
                self.lost += 1
                return
            if self._powered != rail.switched:  # powered up since the last frame: all dark
                self._powered = rail.switched
                self.grb[:] = bytes(len(self.grb))
        n = min(len(buf), len(self.grb))
        self.grb[:n] = buf if n == len(buf) else memoryview(buf)[:n]  # no copy of a frame
        self.frames += 1

    def write(self, buf):
        """The rp2 backend's call, as `machine.bitstream(pin, 0, TIMING, buf)`."""
        from firmware.drivers.ws2812 import TIMING

        self.bitstream(None, 0, TIMING, buf)

    def lit(self):
        """Whether the LEDs are powered and hold a frame sent since they were powered."""
        rail = self.rail
        return rail is None or (rail.up() and self._powered == rail.switched)

    def colour(self, i):
        if not self.lit():
            return (0, 0, 0)
        g, r, b = self.grb[3 * i], self.grb[3 * i + 1], self.grb[3 * i + 2]
        return (r, g, b)
