"""An injected millisecond clock: the firmware reads time only through an object like this.

`SimClock` is the tests' clock: time stands still until something advances it. `sleep_ms`
advances it, so a main loop that sleeps between ticks runs at full speed in virtual time.
Tick values wrap like MicroPython's `time.ticks_ms` (30 bits), so wrap-around is testable.
"""

from engine.compat import ticks_add, ticks_diff

_PERIOD = 1 << 30


class SimClock:
    def __init__(self, start=0):
        self.now = start & (_PERIOD - 1)

    def ticks_ms(self):
        return self.now

    def advance(self, ms):
        self.now = ticks_add(self.now, ms)

    def sleep_ms(self, ms):
        self.advance(ms)

    def since(self, then):
        return ticks_diff(self.now, then)
