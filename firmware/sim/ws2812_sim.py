"""Twin of a WS2812B chain, fed through a stand-in for `machine.bitstream`.

Checks what the datasheet requires of the host: encoding 0 (high/low pulse pairs) with bit
times within +/-150 ns of T0H 0.4 us, T0L 0.85 us, T1H 0.8 us, T1L 0.45 us, and whole 24-bit
pixels. Then each LED in turn takes the first 3 bytes (G, R, B) and passes the rest along,
so a short frame changes only the first LEDs. `colour(i)` is LED i's (r, g, b) once latched.
"""

_NOMINAL = (400, 850, 800, 450)
_TOLERANCE = 150


class BitstreamError(Exception):
    pass


class SimWS2812:
    def __init__(self, count):
        self.count = count
        self.grb = bytearray(3 * count)
        self.frames = 0

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
        n = min(len(buf), len(self.grb))
        self.grb[:n] = buf[:n]
        self.frames += 1

    def write(self, buf):
        """The rp2 backend's call, as `machine.bitstream(pin, 0, TIMING, buf)`."""
        from firmware.drivers.ws2812 import TIMING

        self.bitstream(None, 0, TIMING, buf)

    def colour(self, i):
        g, r, b = self.grb[3 * i], self.grb[3 * i + 1], self.grb[3 * i + 2]
        return (r, g, b)
