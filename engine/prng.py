"""The project's own seeded PRNG, identical on MicroPython and CPython.

`random` differs between the runtimes (and MicroPython's may be absent), so seeded games
use this 32-bit xorshift generator (Marsaglia, "Xorshift RNGs", 2003: shifts 13, 17, 5).
All arithmetic is masked to 32 bits, so both runtimes produce the same sequence.
"""

_MASK = 0xFFFFFFFF


class Prng:
    """xorshift32 with a non-zero state; `below(n)` is unbiased by rejection."""

    def __init__(self, seed):
        state = seed & _MASK
        # A zero state would stay zero for ever; fold the seed into a fixed odd constant.
        self.state = state ^ 0x9E3779B9 if state != 0x9E3779B9 else 1

    def next32(self):
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x
        return x

    def below(self, n):
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        while True:
            x = self.next32()
            if x < limit:
                return x % n

    def shuffle(self, items):
        """Fisher-Yates shuffle of a list, in place."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
