"""engine/players.py: the computer players' choices (CPython and MicroPython).

Positions are the rulebook's example (engine/rulebook.py) after a few of its moves, with
a rack given here; their moves are engine/movegen.py's, collected once per position and
fed to the choosers in several orders. Expected choices are worked out here from the list
of moves.
"""

import engine.calqable  # noqa: F401  (registers the ruleset)
from engine import calqable_replace, faces, movegen, players, search
from engine import leave as leaves
from engine.game import Game, chip_key
from engine.prng import Prng
from engine.profile import Profile
from engine.rulebook import RULEBOOK
from tests.engine.checks import eq
from tests.engine.fixtures import default_profile, profile_data

# About 2.5e10 wasm fuel on MicroPython (the default budget is 5e10).
MPY_FUEL = 80_000_000_000

# rulebook moves laid, the mover's rack: 450 to 750 moves each (the last with a joker)
_RACKS = {1: (3, "-475*2-"), 2: (5, ":684--*"), 3: (2, "0*-8:2*"), 4: (4, "?:68-")}
_POSITIONS = {}


def moves_at(key):
    """(game, [(move, score)]) of position `key` (see _RACKS), a Calculissimo game in
    progress with chips in the bag."""
    if key not in _POSITIONS:
        laid, rack = _RACKS[key]
        game = Game(default_profile(), 2, seed=key)
        for text in RULEBOOK[:laid]:
            game.racks[game.to_move] = [faces.parse(t.split(":")[1])[0] for t in text.split()]
            game.push(game.move(text))
        game.racks[game.to_move] = list(rack)
        _POSITIONS[key] = (game, list(movegen.scored(game)))
    return _POSITIONS[key]


def choose(game, level, pairs, seed=1, leave=None):
    chooser = players.Chooser(game, level, Prng(seed), leave)
    for move, score in pairs:
        chooser.offer(move, score)
    return chooser


def leave_value(game, move, table):
    """What the chips `move` leaves on the mover's rack are worth, counted here, with the
    turn a move of all seven chips earns (rule 15)."""
    rest = list(game.racks[game.to_move])
    for _, code in move.placements:
        rest.remove(chip_key(code))
    counts = [rest.count(ch) for ch in table[0]]
    return leaves.value(table, counts, len(move) == 7)


def shuffled(pairs, seed):
    out = list(pairs)
    Prng(seed).shuffle(out)
    return out


def test_every_level_plays_a_legal_move_with_its_score():
    for key in (1, 4):
        game, pairs = moves_at(key)
        assert pairs
        for level in players.LEVELS:
            move, score = choose(game, level, pairs, key).choice()
            verdict = game.check(move)
            assert verdict.legal, (level, str(move))
            eq(score, verdict.score, "level %d %s" % (level, move))


def test_level_3_takes_the_best_score_first_found():
    for key in (1, 2, 3):
        game, pairs = moves_at(key)
        best = max(s for _, s in pairs)
        first = next(m for m, s in pairs if s == best)
        eq(choose(game, 3, pairs).choice(), (first, best))
        eq(movegen.best(game)[1], best)


def test_level_4_ranks_by_score_and_leave():
    table = leaves.table_for("calculissimo")
    for key in (2, 4):
        game, pairs = moves_at(key)
        assert game.bag_count() > 0
        equity = [10 * s + leave_value(game, m, table) for m, s in pairs]
        top = max(equity)
        want = pairs[equity.index(top)]
        chooser = choose(game, 4, pairs)
        eq(chooser.choice(), want)
        eq(chooser.equity, top)


def test_level_4_prefers_the_better_leave_on_equal_scores():
    # a table that values only a kept ×: of two moves scoring alike, the one keeping it wins
    shape = "0123456789+-*:?"
    table = (shape, 7, tuple(50 if i == 12 else 0 for i in range(leaves.size(shape, 7))))
    game = Game(Profile(profile_data()), 2, seed=3)
    game.racks[0] = ["2", "+", "2", "*", "5", "5", "-"]
    a = game.move("G8:2 H8:+ I8:2")  # keeps the ×
    b = game.move("G8:2 H8:* I8:2")  # lays it
    eq(game.check(a).score, game.check(b).score)
    for pairs in ([(a, 8), (b, 8)], [(b, 8), (a, 8)]):
        eq(choose(game, 4, pairs, leave=table).choice()[0], a)
        eq(choose(game, 3, pairs).choice()[0], pairs[0][0])  # level 3: the first found


def test_a_leave_is_worth_the_sum_of_its_terms():
    table = leaves.table_for("calculissimo")
    weights = table[2]
    eq(len(weights), leaves.size(table[0], table[1]))
    prng = Prng(3)
    for _ in range(50):
        counts = [0] * len(table[0])
        for _ in range(prng.below(8)):
            counts[prng.below(len(counts))] += 1
        bonus = prng.below(2) == 1
        total = 0
        for i, m in leaves.terms(table, counts, bonus):
            total += weights[i] * m
        eq(leaves.value(table, counts, bonus), total, repr(counts))


def test_levels_3_and_4_choose_alike_in_any_order():
    for key in (3, 4):
        game, pairs = moves_at(key)
        table = leaves.table_for("calculissimo")
        for level in (3, 4):
            want = choose(game, level, pairs)
            equity = [
                10 * s + (leave_value(game, m, table) if level == 4 else 0) for m, s in pairs
            ]
            unique = equity.count(want.equity) == 1
            for order in (list(reversed(pairs)), shuffled(pairs, key), shuffled(pairs, 7)):
                got = choose(game, level, order)
                eq(got.equity, want.equity)
                if unique:
                    eq(got.choice(), want.choice())


def test_levels_1_and_2_are_the_seeded_draws():
    # Each draw keeps the last move k (1-based) whose own prng number below(k) was 0; the
    # numbers are taken move by move, draw by draw.
    game, pairs = moves_at(1)
    for level, draws in ((1, 2), (2, 3)):
        for seed in (5, 6, 7):
            prng = Prng(seed)
            kept = [0] * draws
            for k in range(1, len(pairs) + 1):
                for d in range(draws):
                    if prng.below(k) == 0:
                        kept[d] = k - 1
            scores = [pairs[k][1] for k in kept]
            pick = min(scores) if level == 1 else max(scores)
            want = pairs[kept[scores.index(pick)]]
            eq(choose(game, level, pairs, seed).choice(), want, "level %d" % level)


def test_levels_rise_in_score():
    game, pairs = moves_at(3)
    below = sorted(s for _, s in pairs)
    n = len(below)
    ranks = [0, 0, 0]  # over 20 seeds, the rank of each level's choice among the scores
    for seed in range(1, 21):
        for level in (1, 2, 3):
            score = choose(game, level, pairs, seed).choice()[1]
            ranks[level - 1] += below.index(score)
    assert ranks[0] < ranks[1] < ranks[2], ranks
    assert ranks[0] < 20 * n // 2 < ranks[1], (ranks, n)  # below and above the median


def test_floor_never_hides_a_better_choice():
    for key in (1, 2):
        game, pairs = moves_at(key)
        for level in (3, 4):
            chooser = players.Chooser(game, level)
            for move, score in pairs:
                floor = chooser.floor()
                before = chooser.choice()
                chooser.offer(move, score)
                if score <= floor:
                    eq(chooser.choice(), before, str(move))


def test_a_whole_search_feeding_the_chooser_finds_its_choice():
    # engine/search.py builds only the moves that can beat the chooser's floor()
    for key in (1, 2):
        game, pairs = moves_at(key)
        for level in (3, 4):
            want = choose(game, level, pairs)
            chooser = players.Chooser(game, level)
            got = search.Search(game, chooser=chooser).run()
            eq(chooser.equity, want.equity, "level %d" % level)
            eq(got[1], want.choice()[1])


def test_no_move_means_no_choice():
    game, _ = moves_at(1)
    for level in players.LEVELS:
        eq(choose(game, level, []).choice(), (None, None))


def test_level_4_swaps_a_rack_without_a_move():
    for level in (3, 4):
        game = Game(Profile(profile_data()), 2, seed=4)
        game.racks[0] = ["+", "+", "-", ":", ":", "*", "-"]  # no number: no first move
        kind, chips, _ = players.play_turn(game, level, Prng(1))
        eq(kind, "swap")
        eq(len(game.racks[0]), 7)
        if level == 3:
            eq(sorted(chips), sorted(["+", "+", "-", ":", ":", "*", "-"]))
        else:
            assert chips, chips


def test_level_4_swaps_when_keeping_is_worth_more_than_any_move():
    # a table where each 5 kept is worth 500 points: every first move lays two of the three
    shape = "0123456789+-*:?"
    table = (shape, 7, tuple(5000 if i == 5 else 0 for i in range(leaves.size(shape, 7))))
    rack = ["5", "+", "5", "-", "*", ":", "5"]
    game = Game(Profile(profile_data()), 2, seed=5)
    game.racks[0] = list(rack)
    kind, chips, _ = players.play_turn(game, 4, Prng(1), table)
    eq((kind, sorted(chips)), ("swap", ["*", "+", "-", ":"]))
    assert game.racks[0].count("5") >= 3, game.racks[0]
    # the other player's swap now would end the game (both idle): it moves instead
    game.racks[1] = list(rack)
    eq(players.play_turn(game, 4, Prng(1), table)[0], "place")
    eq(game.over, False)


def test_calqable_level_4_weighs_the_tiles_kept_and_swaps_the_whole_rack():
    game = Game(Profile(profile_data("calqable")), 2, seed=1)
    game.racks[0] = ["1", "+", "1", "2", "3", "-"]  # 1+1=2, 3-1=2, ... (the `=` lies open)
    pairs = list(movegen.scored(game))
    assert pairs
    table = leaves.table_for("calqable")
    assert table is not None and len(table[2]) == leaves.size(table[0], table[1])
    move, score = choose(game, 4, pairs).choice()
    # the best equity: ten times the score plus what the tiles kept are worth (an `=` laid
    # comes from the open supply, not the rack)
    keeper = leaves.Keeper(table, game.racks[0])
    best = max(10 * s + keeper.after(m.placements) for m, s in pairs)
    eq(10 * score + keeper.after(move.placements), best)
    # with no move to play, level 4 gives back the whole rack (rule 4), not the worst part
    eq(sorted(players.swap_plan(choose(game, 4, []))), sorted(game.racks[0]))


def test_a_seeded_game_level_3_against_4_ends_with_legal_moves():
    data = profile_data()
    data["chips"] = {"1": 6, "2": 5, "3": 5, "5": 4, "+": 8, "-": 6, "×": 3, "÷": 3, "?": 2}
    game = Game(Profile(data), 2, seed=11)
    prngs = [Prng(1), Prng(2)]
    turns = 0
    placed = 0
    while not game.over and turns < 200:
        p = game.to_move
        before = list(game.scores)
        kind, detail, score = players.play_turn(game, 3 + p, prngs[p])
        if kind == "place":
            placed += 1
            for square, code in detail.placements:
                eq(game.board.cells[square], code)
            eq(game.scores[p] - before[p], score)
            eq(game.history[-1][3], score)
        else:
            eq(game.scores, before)
        turns += 1
    assert game.over and placed > 5, (turns, placed)
    eq(game.bag_count(), 0)
    game.finish()


def _rule_5_position():
    """Cal-Q-Able, `3+4=7` on row 8, the second player holding 7 and 0: laying the 7 on J8
    in place of 3 + 4 (rule 5: 7 = 7, +20) scores 29, more than any of their moves (27)."""
    from tools.positions import lay_out

    game = Game(Profile(profile_data("calqable")), 2, seed=5)
    lay_out(game, {"H8": "3", "I8": "+", "J8": "4", "K8": "=", "L8": "7"})
    game.racks[game.to_move] = ["7", "0"]
    return game


def test_level_3_plays_a_rule_5_replacement_that_scores_most():
    game = _rule_5_position()
    p = game.to_move
    bag = game.bag_count()
    kind, move, score = players.play_turn(game, 3, Prng(1))
    eq((kind, str(move), score), ("replace", "J8:7", 29))
    cells = game.board.cells
    eq([cells[game.profile.width * 7 + x] for x in range(7, 12)], [0, 0, ord("7"), 61, 55])
    eq(game.scores[p], 29)
    # 3, + and 4 went back to the bag, and the rack drew one tile for the 7
    eq(game.bag_count(), bag + 3 - 1)
    eq(len(game.racks[p]), 2)


def test_a_chosen_replacement_is_played_as_one():
    replace = "J8:7"
    for level in (1, 2, 3):
        for offered, kind in ((replace, "replace"), ("L6:7 L7:=", "place")):
            game = _rule_5_position()
            chooser = players.Chooser(game, level, Prng(3))
            move = game.move(offered)
            chooser.offer(move, 29)
            eq(players.act(game, chooser, [game.move(replace)]), (kind, move, 29))
            eq(game.history[-1][0], kind)


def test_a_computer_replaces_a_left_side_once_at_most():
    game = _rule_5_position()
    players.play_turn(game, 3, Prng(1))  # 7 on J8 in place of 3 + 4 (above)
    game.racks[game.to_move] = ["7", "0"]
    again = dict(calqable_replace.replacements(game))
    top = max(again.values())
    assert top > movegen.best(game)[1], again  # rule 5 allows it, and it would score most
    eq(
        calqable_replace.replaced(game), [(game.profile.width * 7 + 10, 1)]
    )  # the `=` on K8, across
    eq(players.play_turn(game, 3, Prng(1))[0], "place")
