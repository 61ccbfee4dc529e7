"""Move generation: every legal move for a rack on a position, with its score (issue 12).

    from engine import movegen
    for move, score in movegen.scored(game):      # the player to move, their known rack
        ...
    movegen.moves(game, rack=["3", "+", "?"])    # Move objects only
    movegen.best(game)                           # (move, score), or (None, None)

The output is exactly the set of moves `Game.check` calls legal for the player to move
holding `rack`, each once, with `Game.check`'s score (bonus included). `rack` is a list of
faces as `Game.racks` holds them (`"5"`, `"+"`, `"*"`, `":"`, `"?"` for a joker); it
defaults to the mover's rack in a known-rack game and is needed in referee mode. A joker is
tried as every face it may stand for (Calculissimo: anything but `×`), so `?7` and `7` are
two moves. Faces from an open supply (Cal-Q-Able's `=`) come from the unseen count.

Each game's generator is a module of its own, imported when its game first needs it (a
board playing one game from .mpy files so never holds the other's code in its heap):
engine/movegen_calculissimo.py and engine/movegen_calqable.py. Both build on `Generation`
below.
"""

STEP_CHECK = 64  # steps between two calls of Generation.steps_done()


def supply(game, rack=None):
    """(counts, limit): face key -> chips the mover can lay (`?` for jokers), and the most
    rack chips one move may use.

    Rack faces are counted on `rack` (default: the mover's known rack) and capped by the
    unseen count, as `Game.check` does in referee mode; open-supply faces come from the
    unseen count alone and do not count towards `limit`.
    """
    p = game.to_move
    if rack is None:
        if not game.known:
            raise ValueError("referee mode: the rack must be given")
        rack = game.racks[p]
    rules = game.rules
    counts = {}  # type: dict[str, int]
    n = 0
    for key in rack:
        if rules.from_rack(key):
            counts[key] = counts.get(key, 0) + 1
            n += 1
    for key, n_key in counts.items():
        counts[key] = min(n_key, game.unseen.get(key, 0))
    for key in rules.open_faces:
        counts[key] = game.unseen.get(key, 0)
    return counts, min(n, game.rack_count(p))


def scored(game, rack=None):
    """Yield (move, score) for every legal move of the player to move, each once."""
    return _scored(game, rack, None)


def _scored(game, rack, floor):
    """scored(); with `floor` (a one-item list), moves scoring no more than floor[0] may be
    left out (best() raises it as it goes)."""
    if game.over:
        return
    name = game.rules.name
    if name == "calculissimo":
        from engine import movegen_calculissimo

        gen = movegen_calculissimo.generation(game, rack, floor).scored()
    elif name == "calqable":
        from engine import movegen_calqable

        gen = movegen_calqable.scored(game, rack, floor)
    else:
        raise ValueError("no move generator for game %r" % (name,))
    yield from gen


def floored(game, floor, rack=None):
    """scored(), leaving out moves that score no more than floor[0] (a one-item list the
    caller may raise as moves come: a chooser's floor)."""
    return _scored(game, rack, floor)


def generation(game, rack=None, floor=None):
    """The Calculissimo search object behind scored(), for engine/search.py to drive part by
    part (`parts()`, `run(part)`, its `emit` and `steps_done` hooks); None for a game whose
    generator is only a stream of moves (Cal-Q-Able)."""
    if game.rules.name == "calculissimo":
        from engine import movegen_calculissimo

        return movegen_calculissimo.generation(game, rack, floor)
    return None


def moves(game, rack=None):
    """Yield every legal Move of the player to move, each once."""
    for move, _ in scored(game, rack):
        yield move


def best(game, rack=None):
    """(move, score) of the highest-scoring legal move (the first found on a tie), or
    (None, None) when there is none."""
    best_move = None
    best_score = -1
    floor = [-1]  # the generator builds (and yields) only moves that score more than this
    for move, score in _scored(game, rack, floor):
        if score > best_score:
            best_move = move
            best_score = score
            floor[0] = score
    if best_move is None:
        return None, None
    return best_move, best_score


def _nothing():
    pass


# ----- both games ------------------------------------------------------------------------------


class Generation:
    """What one generation needs of the position, both games: the board, the premiums,
    the supply, and a cache of cross checks (`seg`, by square and direction)."""

    def __init__(self, game, rack, floor=None):
        self.game = game
        self.floor = floor
        board = game.board
        self.cells = board.cells
        self.w = board.width
        self.h = board.height
        profile = game.profile
        self.prem = profile.premiums
        self.kinds = profile.kinds
        self.factors = profile.factors
        self.start_sq = profile.start
        self.first_move = board.is_empty()
        self.counts, self.limit = supply(game, rack)
        # The cross checks `seg` worked out, a dict a row and direction (by square). One dict
        # for the board held a hundred-odd of them late in a game, and growing it took one
        # free block of 776-1,016 B: on a stock board, with its heap splintered by then, the
        # board's search ran out of memory there, in its set-up, with 12-16 KB still free but
        # no block above 752 B (tools/picoplay.py, Cal-Q-Able, 2026-11-29). A row's dict
        # holds 15 at most.
        self.seg_cache = [None] * (2 * self.h)  # type: list

    def neighbours(self, i, step):
        """The chips before and after square i along `step` (1: across, width: down), as
        two lists of cell codes in line order, up to the first empty square either way."""
        cells = self.cells
        w = self.w
        size = len(cells)
        before = []
        j = i - step
        while j >= 0 and (step != 1 or j // w == i // w) and cells[j]:
            before.append(cells[j])
            j -= step
        before.reverse()
        after = []
        j = i + step
        while j < size and (step != 1 or j // w == i // w) and cells[j]:
            after.append(cells[j])
            j += step
        return before, after

    def seg(self, i, step):
        """The run along `step` through empty square i once a chip is laid there: None if i
        has no neighbour along `step`, else `cross()`'s dict face -> value or score of the
        faces that make that run valid."""
        cells = self.cells
        if step == 1:
            x = i % self.w
            near = (x > 0 and cells[i - 1]) or (x < self.w - 1 and cells[i + 1])
        else:
            near = (i >= step and cells[i - step]) or (i + step < len(cells) and cells[i + step])
        if not near:
            return None  # not cached: most squares, and the test is quicker than a look-up
        row = i // self.w * 2 + (0 if step == 1 else 1)
        cache = self.seg_cache[row]
        if cache is None:
            cache = self.seg_cache[row] = {}
        out = cache.get(i)
        if out is None:
            b, a = self.neighbours(i, step)
            out = cache[i] = self.cross(i, b, a)
        return out

    def lone_squares(self):
        """Yield (i, across, down) for every empty square where one new chip would touch
        the board: its cross checks along the row and the column (either may be None)."""
        cells = self.cells
        w = self.w
        for i in range(len(cells)):
            if not cells[i]:
                across = self.seg(i, 1)
                down = self.seg(i, w)
                if across is not None or down is not None:
                    yield i, across, down

    def cross(self, i, b, a):
        raise NotImplementedError  # each game's generation has its own
