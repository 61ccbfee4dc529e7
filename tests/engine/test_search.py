"""engine/search.py: the anytime search gives legal moves, the generator's best when it
has the time, and never a worse move for more time (CPython and MicroPython).

The positions are mid-game positions of seeded greedy self-play (engine/autoplay.py); the
mover holds the seven chips the bag gave them. tests/test_search_runtimes.py checks that
both runtimes choose the same move for the same seed and budget.
"""

import engine.calculissimo  # noqa: F401  (registers the ruleset)
from engine import autoplay, movegen, search
from engine.game import Game, chip_key
from engine.profile import Profile
from tests.engine.checks import eq
from tests.engine.fixtures import default_profile, profile_data, setup_board

_PROFILE = []
_LAID = {}  # (seed, turns) -> (cells, player to move, their rack)


def position(seed, turns):
    """The game after `turns` greedy turns from a seeded deal (two players): a fresh game
    each call, on a board laid out once (greedy turns are slow on the emulated Pico)."""
    if not _PROFILE:
        _PROFILE.append(default_profile())
    key = (seed, turns)
    if key not in _LAID:
        game = Game(_PROFILE[0], 2, seed=seed)
        for _ in range(turns):
            if game.over:
                break
            autoplay.play_turn(game)
        _LAID[key] = (bytes(game.board.cells), game.to_move, list(game.racks[game.to_move]))
    cells, to_move, rack = _LAID[key]
    game = Game(_PROFILE[0], 2, seed=seed)
    for i in range(len(cells)):
        if cells[i]:
            game.board.cells[i] = cells[i]
            game.unseen[chip_key(cells[i])] -= 1
    game.to_move = to_move
    game.racks[to_move] = list(rack)
    return game


def legal_with_its_score(game, move, score):
    verdict = game.check(move)
    assert verdict.legal, str(move) + " " + repr(verdict)
    eq(score, verdict.score, str(move))


def test_a_short_budget_still_gives_a_legal_move():
    game = position(3, 6)
    s = search.Search(game, steps=64)
    move, score = s.run()
    assert move is not None
    legal_with_its_score(game, move, score)
    assert not s.complete
    assert s.spent >= 64


def test_a_whole_search_finds_the_best_score():
    game = position(10, 3)  # about 900 steps: a whole search is minutes on the emulated Pico
    s = search.Search(game)
    move, score = s.run()
    assert s.complete
    legal_with_its_score(game, move, score)
    eq(score, movegen.best(game)[1])


def test_more_steps_never_find_a_lower_score():
    game = position(11, 8)
    last = -1
    for steps in (64, 256, 640):
        move, score = search.Search(game, steps=steps).run()
        legal_with_its_score(game, move, score)
        assert score >= last, "%d steps: %d after %d" % (steps, score, last)
        last = score


def test_the_clock_stops_the_search():
    game = position(3, 6)
    asked = [0]

    def expired():
        asked[0] += 1
        return asked[0] > 20

    s = search.Search(game, expired=expired)
    move, score = s.run()
    assert not s.complete
    eq(asked[0], 21)
    legal_with_its_score(game, move, score)


def test_no_chips_no_move():
    game = position(3, 6)
    s = search.Search(game, rack=[])
    eq(s.run(), (None, None))
    assert s.complete


def test_first_move_goes_through_the_start_square():
    game = position(5, 0)
    move, score = search.Search(game, steps=512).run()
    legal_with_its_score(game, move, score)
    assert game.profile.start in [i for i, _ in move.placements]


class _Tally:
    """A chooser that takes every move (floor -1, as levels 1 and 2) and notes repeats."""

    def __init__(self):
        self.seen = {}
        self.twice = []

    def offer(self, move, score):
        if move in self.seen:
            self.twice.append(str(move))
        self.seen[move] = score

    def floor(self):
        return -1

    def choice(self):
        return None, None


def test_a_whole_search_offers_every_move_once():
    # Each phase's passes find again the moves of the passes before; the chooser of a
    # random level must see each move once, jokers' faces included.
    game = position(11, 8)
    rack = ["?", "5", "+"]  # 214 moves: the tally holds them all (on the Pico too)
    tally = _Tally()
    s = search.Search(game, rack=rack, chooser=tally)
    s.run()
    assert s.complete
    eq(tally.twice[:3], [])
    # (one pass over the generator, not a second dict of every move: on the emulated Pico
    # that dict's 1,784-B table found no room)
    n = 0
    for move, score in movegen.scored(game, rack):
        eq(tally.seen.get(move), score, str(move))
        n += 1
    eq(len(tally.seen), n)


def test_on_a_tie_the_lines_with_more_chips_come_first():
    # With no run premium anywhere every line ties on premium: the lines with more chips
    # on the board come first (more places for a window to join), then the board's order.
    data = profile_data()
    data["layout"] = ["".join(c if c == "*" else "." for c in row) for row in data["layout"]]
    game = setup_board(
        Game(Profile(data), 2, seed=1),
        {"D8": "9", "E8": "+", "F8": "6", "F9": "-", "F10": "2"},
    )
    gen = movegen.generation(game, ["1", "+", "2"], [-1])
    lines = [part for part in gen.parts() if part[0] == "line"]
    order = [part[1][:2] for part in search._promising_first(gen, lines)]
    w = game.profile.width
    row = [r * w for r in range(w)]  # a row's first square, then its second
    eq(
        order[:6],
        [
            [row[7], row[7] + 1],  # row 8: three chips
            [5, 5 + w],  # column F: three chips
            [row[8], row[8] + 1],  # rows 9 and 10, columns D and E: one each
            [row[9], row[9] + 1],
            [3, 3 + w],
            [4, 4 + w],
        ],
    )


class _Log:
    """A chooser that takes every move (floor -1) and logs them in the order offered."""

    def __init__(self):
        self.log = []

    def offer(self, move, score):
        self.log.append((move, score))

    def floor(self):
        return -1

    def choice(self):
        return None, None


def _line_of(move, w):
    """The row ("r", n) or column ("c", n) a move of two chips or more lies along."""
    rows = {i // w for i, _ in move.placements}
    if len(rows) == 1:
        return ("r", rows.pop())
    return ("c", move.placements[0][0] % w)


def test_after_a_phase_the_lines_that_scored_best_go_first():
    # Two phases: windows of at most 2 chips, then the whole rack. The second takes the
    # lines in the order of the best score the first offered on them, the best first
    # (in the first phase's order, the lines of both positions come out of that order).
    for seed, turns in ((10, 3), (3, 6)):
        game = position(seed, turns)
        w = game.profile.width
        log = _Log()
        plan = [[(2, None)], [(5, None)]]
        s = search.Search(game, rack=["9", "-", "6", "+", "3"], chooser=log, plan=plan)
        s.run()
        assert s.complete
        first = {}  # line -> the best score of the first phase's moves on it
        second = []  # the lines of the second phase's moves, in the order they came
        for move, score in log.log:
            n = len(move.placements)
            if n == 2:
                line = _line_of(move, w)
                first[line] = max(first.get(line, -1), score)
            elif n > 2:
                line = _line_of(move, w)
                if line not in second:
                    second.append(line)
        assert len(second) >= 4, second
        bests = [first.get(line, -1) for line in second]
        eq(bests, sorted(bests, reverse=True), "seed %d: %r" % (seed, second))
