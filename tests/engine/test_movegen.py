"""engine/movegen.py: the move generator agrees with Game.check (CPython and MicroPython).

The positions come from seeded play (`position`): a few turns of greedy self-play
(engine/autoplay.py) mixed with random legal moves, then a rack drawn from the chips not on
the board, with a chosen number of jokers. tests/test_movegen_brute.py (CPython only)
compares the generator with the brute-force oracle tests/movegen_brute.py on a thousand such
positions per game; here a handful are checked against a small brute force written for
this file, so the agreement is also seen on MicroPython.
"""

import engine.calqable  # noqa: F401  (registers the ruleset)
from engine import autoplay, faces, movegen
from engine.game import Game
from engine.move import Move
from engine.prng import Prng
from engine.profile import Profile
from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK, default_profile, profile_data

MPY_FUEL = 400_000_000_000

_PROFILES = {}


def profile_for(name):
    """The default profile of a game ("calculissimo" or "calqable"), loaded once."""
    if name not in _PROFILES:
        if name == "calculissimo":
            _PROFILES[name] = default_profile()
        else:
            _PROFILES[name] = Profile(profile_data(name))
    return _PROFILES[name]


def draw_rack(game, prng, size, jokers=0):
    """A rack of `size` chips drawn at random from the chips not on the board (the bag and
    every rack), `jokers` of them jokers when the game has that many left; it becomes the
    mover's rack and is returned. In Cal-Q-Able the rack keeps the game's mix: at most
    two white tiles (operators and the fraction bar)."""
    pool = []
    for key in sorted(game.unseen):
        if key != faces.JOKER and game.rules.from_rack(key):
            pool.extend([key] * game.unseen[key])
    rack = [faces.JOKER] * min(jokers, game.unseen.get(faces.JOKER, 0))
    whites = 0
    calqable = game.rules.name == "calqable"
    while len(rack) < size and pool:
        key = pool.pop(prng.below(len(pool)))
        if calqable and not faces.is_digit(key):
            if whites >= 2:
                continue
            whites += 1
        rack.append(key)
    game.racks[game.to_move] = rack
    return rack


def random_turn(game, prng, rack=None):
    """Play one turn: a random legal move (from the generator, with `rack`, part of the
    mover's), else a swap or a pass."""
    count = 0
    for _ in movegen.moves(game, rack):
        count += 1
    if count:
        k = prng.below(count)
        for move in movegen.moves(game, rack):
            if not k:
                game.push(move)
                return
            k -= 1
    if game.can_swap():
        game.swap(list(game.racks[game.to_move]))
    else:
        game.pass_turn()


def position(name, seed, turns, size, jokers=0, quick=False):
    """A known-rack game of `name` after up to `turns` seeded turns, with a fresh rack of
    `size` chips (`jokers` jokers) for the player to move. Calculissimo turns are greedy
    (autoplay) or random legal moves, the latter with five chips and no joker if `quick`."""
    game = Game(profile_for(name), 2, seed=seed)
    prng = Prng(seed * 7919 + 13)
    for _ in range(turns):
        if game.over:
            break
        if name == "calculissimo" and prng.below(2):
            autoplay.play_turn(game)
        elif name == "calculissimo" and quick:  # five chips, no joker
            rack = [c for c in game.racks[game.to_move] if c != faces.JOKER]
            random_turn(game, prng, rack[:5])
        elif name == "calculissimo":
            random_turn(game, prng)
        else:  # six of the nine tiles keep Cal-Q-Able's play quick
            random_turn(game, prng, game.racks[game.to_move][3:])
    if game.over:
        game = Game(profile_for(name), 2, seed=seed)
    draw_rack(game, prng, size, jokers)
    return game


def small_brute(game):
    """{move: score} by brute force for a small rack: every line, every window of empty
    squares, every ordered choice of rack faces (a joker as every face), judged by
    Game.check. Exponential: racks of three or four chips only."""
    # one tile of each open-supply face: a run holds at most one `=`
    rack = list(game.racks[game.to_move]) + list(game.rules.open_faces)
    w = game.board.width
    cells = game.board.cells
    found = {}
    for step in (1, w):
        for first in range(len(cells)):
            if cells[first]:
                continue
            squares = []
            i = first
            while len(squares) < len(rack):
                if step == 1 and i // w != first // w or i >= len(cells):
                    break
                if not cells[i]:
                    squares.append(i)
                    if _reaches(game, squares):
                        _fill(game, rack, squares, [], found)
                i += step
    return found


def _reaches(game, squares):
    """Whether chips on these squares could be connected (shape rules): one of them touches
    a chip, or on the first move covers the start square."""
    cells = game.board.cells
    w = game.board.width
    if game.board.is_empty():
        return game.profile.start in squares
    for i in squares:
        for j in (i - w, i + w):
            if 0 <= j < len(cells) and cells[j]:
                return True
        if (i % w and cells[i - 1]) or (i % w < w - 1 and cells[i + 1]):
            return True
    return False


def _fill(game, rack, squares, placed, found, judge=None):
    """Every ordered filling of `squares` from `rack` (a joker as every face) judged by
    `judge(move)` (default Game.check) into `found`, {move: score} of the legal ones."""
    if len(placed) == len(squares):
        move = Move(placed, game.board.width)
        if move not in found:
            verdict = game.check(move) if judge is None else judge(move)
            if verdict.legal:
                found[move] = verdict.score
        return
    seen = ""
    for k in range(len(rack)):
        key = rack[k]
        if key in seen:
            continue
        seen += key
        rest = rack[:k] + rack[k + 1 :]
        options = game.rules.alphabet if key == faces.JOKER else key
        for ch in options:
            code = faces.cell_code(ch, key == faces.JOKER)
            _fill(game, rest, squares, placed + [(squares[len(placed)], code)], found, judge)


def agree(game):
    """Check the generator against small_brute on `game`; returns the number of moves."""
    got = {}
    for move, score in movegen.scored(game):
        assert move not in got, "generated twice: " + str(move)
        got[move] = score
    want = small_brute(game)
    for move in want:
        eq(got.get(move), want[move], "missed or misscored: " + str(move))
    for move, score in got.items():
        eq(want.get(move), score, "not legal: " + str(move))
    return len(got)


def scores_match_check(game, rack=None):
    """Every generated move is legal with Game.check's score; returns the count."""
    n = 0
    for move, score in movegen.scored(game, rack):
        verdict = game.check(move)
        assert verdict.legal, str(move) + " " + repr(verdict)
        eq(score, verdict.score, str(move))
        n += 1
    return n


# ----- Calculissimo -------------------------------------------------------------------------


def test_first_move_on_the_start_square():
    game = Game(profile_for("calculissimo"), 2, seed=1)
    game.racks[0] = ["9", "+", "6"]
    got = dict(movegen.scored(game))
    move = game.move("F8:9 G8:+ H8:6")
    assert move in got
    eq(got[move], game.check(move).score)
    for move in got:
        assert any(i == game.profile.start for i, _ in move.placements), str(move)


def test_rulebook_move_found_with_its_score():
    game = Game(profile_for("calculissimo"), 2, seed=1)
    for text in RULEBOOK[:4]:
        game.racks[game.to_move] = [
            faces.parse(t.split(":")[1])[0] for t in text.split()
        ]  # exactly the chips of the move
        move = game.move(text)
        got = dict(movegen.scored(game))
        eq(got.get(move), game.check(move).score, text)
        game.push(move)


def test_best_is_the_highest_score():
    game = position("calculissimo", 5, 6, 7, 0, True)
    pairs = list(movegen.scored(game))
    move, score = movegen.best(game)
    eq(score, max(s for _, s in pairs))
    eq(game.check(move).score, score)


def test_no_moves_without_chips_or_after_the_end():
    game = position("calculissimo", 3, 4, 7, 0, True)
    eq(list(movegen.scored(game, [])), [])
    game.over = True
    eq(list(movegen.scored(game)), [])


def test_joker_moves_are_written_with_the_face():
    game = Game(profile_for("calculissimo"), 2, seed=2)
    game.racks[0] = ["4", "?", "2"]
    texts = [str(m) for m in movegen.moves(game)]
    assert "F8:4 G8:?+ H8:2" in texts
    assert "F8:4 G8:?× H8:2" not in texts  # a joker is never ×
    assert "F8:4 G8:?- H8:2" in texts
    for move in movegen.moves(game):
        for _, code in move.placements:
            assert not (code & faces.JOKER_BIT and chr(code & 0x7F) == faces.MUL)


def test_calculissimo_agrees_with_brute_force():
    n = 0
    for seed in range(1, 4):
        game = position("calculissimo", seed, seed * 4, 3, seed // 2, True)
        n += agree(game)
    assert n > 0


def test_calculissimo_scores_match_check_full_racks():
    for seed in range(20, 22):
        game = position("calculissimo", seed, 8, 7, 0, True)
        assert scores_match_check(game) >= 0


# ----- Cal-Q-Able ---------------------------------------------------------------------------


def test_calqable_agrees_with_brute_force():
    n = 0
    for seed in range(1, 4):
        game = position("calqable", seed, seed, 3)
        n += agree(game)
    assert n > 0


def test_calqable_scores_match_check_full_racks():
    for seed in range(30, 31):
        game = position("calqable", seed, 3, 5)
        assert scores_match_check(game) >= 0
