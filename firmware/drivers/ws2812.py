"""WS2812B NeoPixel chain: colours in, the chip's GRB bit stream out.

`write(buf)` sends the bytes: on the rp2 port that is `machine.bitstream(pin, 0, TIMING, buf)`,
in tests the twin. Each LED takes the first 24 bits it sees (green, red, blue, MSB first) and
passes the rest on; a low gap of at least 280 us (newer WS2812B; 50 us on the original part)
latches the colours. TIMING gives the high and low times of a 0 bit and a 1 bit in
nanoseconds, from the WS2812B datasheet (T0H 0.4 us, T0L 0.85 us, T1H 0.8 us, T1L 0.45 us,
each within +/-150 ns).

The CircuitPython backend offers the same calls (`order`, `frame`, `patch`, `show`) over
`adafruit_neopixel`.
"""

TIMING = (400, 850, 800, 450)
_ORDERS = {"GRB": (1, 0, 2), "RGB": (0, 1, 2), "BRG": (1, 2, 0)}


class WS2812:
    def __init__(self, write, count, order="GRB"):
        if order not in _ORDERS:
            raise ValueError("pixel order must be one of " + ", ".join(sorted(_ORDERS)))
        self._write = write
        self.count = count
        self.order = _ORDERS[order]  # byte offsets of red, green and blue in a pixel
        self.buf = bytearray(3 * count)  # the wire bytes, allocated once

    def frame(self, indices, palette):
        """Fill the whole chain from a palette: LED j shows `palette[indices[j]]`.

        Each palette entry is already 3 bytes in this chain's wire order (see `order`).
        Nothing is allocated: a `b"".join` would halve the cost, but its 900-byte list and
        675 bytes failed to find room on the emulated Pico's fragmented heap."""
        buf = self.buf
        k = 0
        for i in indices:
            buf[k : k + 3] = palette[i]
            k += 3

    def patch(self, indices, palette, leds):
        """Rewrite only the LEDs in `leds` (the others keep their bytes), as `frame`."""
        buf = self.buf
        for j in leds:
            k = 3 * j
            buf[k : k + 3] = palette[indices[j]]

    def show(self):
        self._write(self.buf)
