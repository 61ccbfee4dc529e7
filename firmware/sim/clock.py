"""An injected millisecond clock: the firmware reads time only through an object like this.

`SimClock` is the tests' clock: time stands still until something advances it (or, with
`busy`, each read moves it on). `sleep_ms` advances it, so a main loop that sleeps between
ticks runs at full speed in virtual time.
Tick values wrap like MicroPython's `time.ticks_ms` (30 bits), so wrap-around is testable.
"""

from engine.compat import ticks_add, ticks_diff

_PERIOD = 1 << 30


class SimClock:
    def __init__(self, start=0):
        self.now = start & (_PERIOD - 1)
        self.per_read = 0  # ms that pass at each read (busy(): a step that takes time)

    def ticks_ms(self):
        if self.per_read:
            self.now = ticks_add(self.now, self.per_read)
        return self.now

    def busy(self, ms_per_read):
        """From now on each read of the clock is `ms_per_read` later than the one before (0:
        time stands still again): a long step, such as the board's think, takes time."""
        self.per_read = ms_per_read

    def advance(self, ms):
        self.now = ticks_add(self.now, ms)

    def sleep_ms(self, ms):
        self.advance(ms)

    def since(self, then):
        return ticks_diff(self.now, then)
