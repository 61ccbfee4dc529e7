"""A square of `=` passed over (engine/search.py's cap on short sides) is searched again a
lot of short sides at a time, so that on the chip it holds no more of the heap than the
other squares, and still finds every one of its moves once.

(A module of its own: the WASI MicroPython, whose collector is off, runs each module in a
heap of its own, and test_calqable_skip's four fill theirs.)
"""

from engine import movegen, movegen_calqable
from tests.engine.checks import eq
from tests.engine.test_movegen import position

CAP = 15  # as tests/engine/test_calqable_skip.py


class _Held(movegen_calqable._Calq):
    """A generation that notes the most short sides it holds at once (on the chip, its
    heap): those a walk keeps and those it builds towards, and those of a join."""

    def __init__(self, game):
        movegen_calqable._Calq.__init__(self, game, None, None)
        self.walks = 0
        self.joins = 0

    def walk(self, wk):
        movegen_calqable._Calq.walk(self, wk)
        held = len(wk.short) + (0 if wk.targets is None else len(wk.targets.entries))
        self.walks = max(self.walks, held)

    def join(self, eq, lefts, rights):
        held = 0
        for index in (lefts, rights):
            for sides in index[0].values():
                held += len(sides)
        self.joins = max(self.joins, held)
        return movegen_calqable._Calq.join(self, eq, lefts, rights)


def test_a_square_passed_over_is_searched_again_a_lot_of_sides_at_a_time():
    # On the chip a square passed over once held all its short sides when it was searched
    # again (47 KB of the emulated Pico's heap at the peak): now the sides come in lots of
    # the cap, and all its moves still come, each once.
    game = position("calqable", 23, 3, 5)  # (a small one: the WASI MicroPython's heap)
    every = sorted((str(m), sc) for m, sc in movegen.scored(game))
    gen = _Held(game)
    gen.most_sides = CAP
    got = [(str(m), sc) for m, sc in gen.scored()]
    assert gen.skipped >= 3, gen.skipped
    got += [(str(m), sc) for m, sc in gen.passed_over()]
    eq(sorted(got), every, "the moves, each once")
    # a walk holds at most CAP short sides (those it keeps and those it meets); a join the
    # lot of left sides and half a lot of right ones
    # (a square passed over has more than CAP short sides: searched whole, a walk of it
    # would hold them all)
    assert gen.walks <= CAP, gen.walks
    assert gen.joins <= CAP + CAP // 2, gen.joins
