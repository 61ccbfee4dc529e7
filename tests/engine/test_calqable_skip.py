"""A square of `=` the chip's search passes over leaves the rest of the generation whole,
and the search comes back to it once every other square is done.

On the chip engine/search.py caps the short sides one square of `=` may keep
(search.CALQ_SIDES), and a square whose sides run the heap out is given up: either way the
generator (engine/movegen_calqable.py) leaves that square in the middle of building its
sides, tiles taken off its count of the rack. Every other square must still find every one
of its moves: here the moves found with a small cap, grouped by the square of their `=`, are
all the moves of each square they come from (checked against the generation without a cap).
"""

from engine import movegen, movegen_calqable, search
from engine.faces import EQUALS
from tests.engine.checks import eq
from tests.engine.test_movegen import position

# (seed, turns, rack tiles) of the positions; small racks, so that the test also runs on the
# WASI MicroPython (tests/test_micropython.py) within its fuel
CASES = ((7, 3, 5), (4, 4, 6), (2, 4, 6), (3, 3, 6))
CAP = 15  # short sides: some squares of these positions have more, others fewer
# the WASI MicroPython's fuel for the module: the first test alone took most of the default
# 50 G, the three together did not fit in it; the four took 77.5 G, and 91.5 G once the
# squares passed over were searched again by lots (2026-11-28)
MPY_FUEL = 120_000_000_000


def _square(game, move):
    """The square of the `=` of a move of two or more tiles (in its main equation)."""
    w = game.board.width
    cells = list(game.board.cells)
    for sq, code in move.placements:
        cells[sq] = code
    squares = sorted(sq for sq, _ in move.placements)
    step = 1 if squares[0] // w == squares[-1] // w else w
    s = squares[0]
    while s - step >= 0 and cells[s - step] and (step == w or (s - step) // w == s // w):
        s -= step
    while chr(cells[s] & 0x7F) != EQUALS:
        s += step
    return (step, s)


def _add(out, game, move, score):
    # per square: [moves, the sum of their hashes] (not the moves: the test also runs on
    # the emulated Pico, whose heap would not hold them)
    if len(move.placements) >= 2:
        got = out.setdefault(_square(game, move), [0, 0])
        got[0] += 1
        got[1] += hash((str(move), score))


def _by_square(game, stream):
    out = {}  # type: dict
    for move, score in stream:
        _add(out, game, move, score)
    return out


def _capped(game, cap):
    """(the moves by square with at most `cap` short sides a square, squares passed over,
    squares whose moves came after the first one passed over)."""
    gen = movegen_calqable.generation(game)
    gen.most_sides = cap
    out = {}  # type: dict
    after = 0
    for move, score in gen.scored():
        if len(move.placements) >= 2 and _square(game, move) not in out and gen.skipped:
            after += 1
        _add(out, game, move, score)
    return out, gen.skipped, after


def test_the_squares_searched_after_one_passed_over_find_all_their_moves():
    skipped = 0
    after = 0  # squares with moves found after the first one passed over
    for seed, turns, tiles in CASES:
        game = position("calqable", seed, turns, tiles)
        whole = _by_square(game, movegen_calqable.scored(game))
        capped, n_skipped, n_after = _capped(game, CAP)
        skipped += n_skipped
        after += n_after
        for sq, moves in capped.items():
            eq(moves, whole[sq], "seed %d, square %r: moves, hash" % (seed, sq))
        # with the cap, squares are missing, none is new
        eq(set(capped) - set(whole), set(), "seed %d" % seed)
    # the check above can fail only if squares were passed over and others searched after
    assert skipped >= 3, skipped
    assert after >= 3, after


def _search_capped(game, chooser=None):
    """A search of `game` with all the time it wants, under the test's cap: (the search,
    its choice)."""
    kept = search.CALQ_SIDES
    search.CALQ_SIDES = CAP
    try:
        s = search.Search(game, chooser=chooser, steps=1 << 29)
        return s, s.run()
    finally:
        search.CALQ_SIDES = kept


def test_a_search_with_time_left_goes_back_to_the_squares_it_passed_over():
    # The squares passed over hold the most sides, and often the best move: a search given
    # enough time must find what the whole search finds. (Two positions: the WASI
    # MicroPython's fuel. On the second, a square had handed out moves, so the floor, before
    # it was passed over; the moves held back when it is searched again must be those.)
    for case in (CASES[1], (23, 3, 5)):
        game = position("calqable", *case)
        _, best = movegen.best(game)
        s, (_, score) = _search_capped(game)
        assert s.skipped >= 3, s.skipped  # (else the squares passed over were not tested)
        eq(score, best, "seed %d: the best score" % case[0])
        eq(s.complete, True, "seed %d: complete" % case[0])


class _Every:
    """A chooser without a floor (as levels 1 and 2): keeps every move offered."""

    def __init__(self):
        self.offered = []
        self.moves = []

    def offer(self, move, score):
        self.offered.append((str(move), score))
        self.moves.append(move)

    def floor(self):
        return -1

    def choice(self):
        return None, None


def test_a_search_without_a_floor_offers_every_move_once_squares_passed_over_too():
    # levels 1 and 2 draw among the moves offered: a move the last pass handed out before
    # it passed over its square must not come again when the search goes back to it
    game = position("calqable", *CASES[0])
    every = sorted((str(m), sc) for m, sc in movegen.scored(game))
    chooser = _Every()
    s, _ = _search_capped(game, chooser)
    assert s.skipped >= 3, s.skipped
    eq(len(chooser.offered), len(every), "moves offered")
    eq(sorted(chooser.offered), every, "the moves")


def test_a_search_with_a_budget_stops_its_first_pass_at_a_move_and_offers_it_once():
    # The first pass (at most 2 rack tiles) is there for a legal move early; with a budget
    # it stops at its first move, and the whole rack's pass finds that move again.
    game = position("calqable", *CASES[1])
    gen = movegen_calqable.generation(game)
    moves = list(movegen.scored(game))  # (56 moves)
    every = sorted((str(m), sc) for m, sc in moves)
    small = [m for m, _ in moves if gen.from_rack(m) <= 2]
    assert len(small) >= 2, len(small)
    chooser = _Every()
    _search_capped(game, chooser)
    sizes = [gen.from_rack(m) for m in chooser.moves]
    assert sizes[0] <= 2, sizes[:3]  # the first pass's move first
    lead = 0
    while sizes[lead] <= 2:
        lead += 1
    # (a whole first pass offers all its moves before the first of more rack tiles)
    assert lead < len(small), (lead, len(small))
    eq(sorted(chooser.offered), every, "the moves, each once")
