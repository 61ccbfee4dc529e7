"""Cal-Q-Able's best-first generation (engine/calqable_bounds.py, engine/movegen_calqable.py
with a floor) and the chip's search in passes of growing size (engine/search.py).

The bound of a square of `=` must hold every move whose `=` stands there, or the best move
could be skipped; a pass of n tiles must find exactly the moves of at most n rack tiles, or
the search's duplicate filter would hide moves. Both are checked against the whole
generation (itself checked against a brute force in tests/engine/test_movegen.py and
tests/test_movegen_brute.py) on seeded positions with racks of four to six tiles, and on the
advanced game, whose `=` tiles come from the rack.
"""

from engine import calqable_bounds, faces, movegen, movegen_calqable, search
from engine.game import Game
from engine.prng import Prng
from tests.engine.checks import eq
from tests.engine.test_movegen import draw_rack, position, profile_for, random_turn

MPY_FUEL = 400_000_000_000
SEEDS = (2, 5, 7)
_POSITIONS = []  # type: list


def positions():
    """The test positions, laid out once."""
    if not _POSITIONS:
        _POSITIONS.extend(_lay_out())
    return _POSITIONS


def _lay_out():
    out = [position("calqable", seed, 2 + seed % 4, 4 + seed % 3) for seed in SEEDS]
    # the advanced game: `=` tiles on the rack
    game = Game(profile_for("calqable"), 2, {"advanced": True}, seed=21)
    prng = Prng(21)
    for _ in range(2):
        rack = game.racks[game.to_move]
        random_turn(game, prng, [k for k in rack if k != "="][:5] + ["="])
    game.racks[game.to_move] = draw_rack(game, prng, 4) + ["="]
    out.append(game)
    return out


def _line_of(gen, move):
    """(line squares, cross step, position of the `=` in the line) of a move of two or more
    tiles."""
    w = gen.w
    squares = [i for i, _ in move.placements]
    if squares[0] // w == squares[-1] // w:
        line = list(range(squares[0] // w * w, squares[0] // w * w + w))
        cross_step = w
    else:
        line = list(range(squares[0] % w, gen.h * w, w))
        cross_step = 1
    codes = {}
    for i, code in move.placements:
        codes[i] = code
    k = line.index(squares[0])
    while k > 0 and (line[k - 1] in codes or gen.cells[line[k - 1]]):
        k -= 1
    while True:
        i = line[k]
        code = codes.get(i, gen.cells[i])
        if chr(code & 0x7F) == faces.EQUALS:
            return line, cross_step, k
        k += 1


def test_every_move_scores_within_its_bound():
    # and within its line's rough bound, which ranks the lines first (its own bound would
    # then be above the rough one too: a best move could be skipped)
    checked = 0
    for seed in (1, 8, 9):  # positions with moves of one tile (racks of five)
        game = position("calqable", seed, 4, 5)
        gen = movegen_calqable.generation(game)
        rough = {}
        for move, score in movegen.scored(game):
            if len(move.placements) < 2:
                continue  # singles() finds these, without a bound
            line, cross_step, e = _line_of(gen, move)
            spots = [s for s in gen.spots(line, cross_step) if s[0] == e]
            eq(len(spots), 1, str(move))
            bound = calqable_bounds.of_line(gen, line, cross_step, spots)[0]
            assert score <= bound, "%s scores %d, above its bound %d" % (move, score, bound)
            key = (line[0], cross_step)
            if key not in rough:
                rough[key] = calqable_bounds.rough(gen, line, cross_step)
            top = rough[key]
            assert bound <= top, "%s: bound %d, above its line's rough %d" % (move, bound, top)
            checked += 1
    assert checked > 50


def test_a_pass_of_n_tiles_finds_the_moves_of_at_most_n_rack_tiles():
    for game in positions():
        gen = movegen_calqable.generation(game)
        every = dict(gen.scored())
        limit = gen.limit
        for size in range(1, limit):
            gen = movegen_calqable.generation(game)
            gen.limit = size
            got = dict(gen.scored())
            want = {}
            for move, score in every.items():
                if gen.from_rack(move) <= size:
                    want[move] = score
            eq(got, want, "a pass of %d of %d tiles" % (size, limit))


def test_best_first_finds_the_best_score():
    for game in positions():
        scores = [score for _, score in movegen.scored(game)]
        top = max(scores) if scores else None
        eq(movegen.best(game)[1], top)
        s = search.Search(game)
        eq(s.run()[1], top)
        assert s.complete


class _Every(search.BestScore):
    """A chooser that keeps every move offered, and whose floor cuts none."""

    def __init__(self):
        search.BestScore.__init__(self)
        self.seen = []

    def offer(self, move, score):
        self.seen.append(move)

    def floor(self):
        return -1


def test_the_search_offers_each_move_once():
    # levels 1 and 2 draw among the moves offered: a move a later pass finds again must not
    # count twice
    for game in positions():
        chooser = _Every()
        search.Search(game, chooser=chooser).run()
        eq(len(chooser.seen), len(set(chooser.seen)))
        eq(set(chooser.seen), set(movegen.moves(game)))


def test_with_a_budget_the_moves_of_one_tile_come_after_the_lines():
    # With a budget each pass goes through its lines before the moves of one tile (they
    # score little, and their cross checks held the first legal move back), and the search
    # still offers every move once. (The first pass stops at its first move, the first
    # offered: a move of one tile if its lines have none.)
    checked = 0
    for seed in (1, 8, 9):  # positions with moves of one tile (racks of five)
        game = position("calqable", seed, 4, 5)
        chooser = _Every()
        s = search.Search(game, chooser=chooser, expired=lambda: False)
        s.run()
        assert s.complete
        seen = chooser.seen
        eq(len(seen), len(set(seen)))
        eq(set(seen), set(movegen.moves(game)))
        ones = [k for k in range(1, len(seen)) if len(seen[k].placements) == 1]
        more = [k for k in range(1, len(seen)) if len(seen[k].placements) > 1]
        if ones and more:
            assert more[0] < ones[0], "a move of one tile came before the lines' moves"
            checked += 1
    eq(checked, 3)


def test_a_budget_stops_the_search_with_a_legal_move():
    game = positions()[0]
    top = movegen.best(game)[1]
    s = search.Search(game, steps=200)
    move, score = s.run()
    assert not s.complete
    assert move is not None and score <= top
    verdict = game.check(move)
    assert verdict.legal, str(move)
    eq(verdict.score, score)


def test_running_out_of_memory_ends_the_search_with_the_moves_found():
    class Tight(search.BestScore):
        # the heap runs out at the third move offered, as a Pico's may mid-search
        def __init__(self):
            search.BestScore.__init__(self)
            self.offers = 0

        def offer(self, move, score):
            self.offers += 1
            if self.offers == 3:
                raise MemoryError("memory allocation failed, allocating 4096 bytes")
            search.BestScore.offer(self, move, score)

    game = positions()[0]  # its search offers more than three moves
    chooser = Tight()
    s = search.Search(game, chooser=chooser)
    move, score = s.run()
    assert chooser.offers >= 3, chooser.offers
    assert s.short_of_memory and not s.complete
    verdict = game.check(move)
    assert verdict.legal, str(move)
    eq(verdict.score, score)


_NO_HEAP = "memory allocation failed, allocating 4096 bytes"
_NO_STACK = "maximum recursion depth exceeded"  # (the rp2 port's RuntimeError)


def _losing_square(gen, lost, error=None):
    """Make `gen` run out of heap (or raise `error`) at the first square of `=` that has a
    move, as a whole rack's sides may on the Pico; its moves go into `lost`."""
    real = gen.around

    def around(*args):
        if not lost:
            moves = [move for move, _ in real(*args)]
            if moves:
                lost.extend(moves)
                raise MemoryError(_NO_HEAP) if error is None else error
        yield from real(*args)

    gen.around = around


def test_a_square_whose_sides_run_the_heap_out_is_given_up():
    game = positions()[0]
    every = dict(movegen_calqable.generation(game).scored())
    gen = movegen_calqable.generation(game)
    lost = []
    _losing_square(gen, lost)
    try:
        dict(gen.scored())
        raise AssertionError("the MemoryError was swallowed")
    except MemoryError:
        pass  # only a search gives squares up
    gen = movegen_calqable.generation(game)
    gen.give_up = True
    lost = []
    _losing_square(gen, lost)
    got = dict(gen.scored())
    assert lost
    eq((gen.given_up, set(got)), (1, set(every) - set(lost)))


def test_a_square_whose_walk_runs_the_stack_out_is_given_up():
    # The walks keep well within the rp2 port's stack (tests/fw/test_think_stack.py); a
    # caller nesting deeper than the board does would meet it there: the square is given up
    # as for the heap. Any other RuntimeError is a bug, and goes on up.
    game = positions()[0]
    every = dict(movegen_calqable.generation(game).scored())
    gen = movegen_calqable.generation(game)
    gen.give_up = True
    lost = []
    _losing_square(gen, lost, RuntimeError(_NO_STACK))
    got = dict(gen.scored())
    assert lost
    eq((gen.given_up, set(got)), (1, set(every) - set(lost)))
    gen = movegen_calqable.generation(game)
    gen.give_up = True
    _losing_square(gen, [], RuntimeError("generator raised StopIteration"))
    try:
        dict(gen.scored())
        raise AssertionError("the RuntimeError was swallowed")
    except RuntimeError as err:
        eq(str(err), "generator raised StopIteration")


def test_the_search_goes_on_past_a_square_given_up():
    game = positions()[0]
    top = movegen.best(game)[1]
    real = movegen_calqable.generation
    lost = []

    def generation(*args):
        gen = real(*args)
        _losing_square(gen, lost)
        return gen

    movegen_calqable.generation = generation
    try:
        s = search.Search(game)
        move, score = s.run()
    finally:
        movegen_calqable.generation = real
    assert lost and s.short_of_memory and not s.complete
    # every other move was seen (a later pass finds the lost ones again, but offers only
    # those of more tiles than the pass that lost them): the best of them is chosen
    gone = set(lost)
    rest = [score for move, score in movegen.scored(game) if move not in gone]
    eq((score, game.check(move).score), (max(rest), score))
    assert score <= top
