"""tests/data/movegen_positions.json (issue 12's benchmark set, tools/benchset.py) still
holds: the generator finds every position's move count and best score, the search's whole
run finds the same best score, and the set has what the issue asks of it."""

import pytest

from engine import calqable_bounds, movegen, movegen_calqable, search
from tools import benchset

ENTRIES = benchset.games()


def test_the_set_has_a_hundred_positions_a_game_and_racks_with_jokers():
    for name in benchset.RACK:
        entries = [e for _, e in ENTRIES if e["game"] == name]
        assert len(entries) == benchset.PER_GAME, name
        # full racks, but where the bag ran short of what a rack may hold (Cal-Q-Able: at
        # most two white tiles)
        sizes = [len(e["rack"]) for e in entries]
        assert max(sizes) == benchset.RACK[name] and sizes.count(benchset.RACK[name]) >= 95
    jokers = {e["rack"].count("?") for _, e in ENTRIES if e["game"] == "calculissimo"}
    assert jokers == {0, 1, 2}


@pytest.mark.parametrize(
    "k",
    range(len(ENTRIES)),
    ids=lambda k: "%s-%d" % (ENTRIES[k][1]["game"], ENTRIES[k][1]["seed"]),
)
def test_generator_finds_the_counts_and_best_scores(k):
    game, entry = ENTRIES[k]
    if entry["game"] == "calqable" and k % 10:
        pytest.skip("every tenth Cal-Q-Able position: nine-tile racks take longer")
    count = 0
    best = None
    for _, score in movegen.scored(game):
        count += 1
        best = score if best is None else max(best, score)
    assert (count, best) == (entry["moves"], entry["best"])
    if entry["game"] == "calculissimo":
        assert search.Search(game).run()[1] == entry["best"]


CALQABLE = [k for k in range(len(ENTRIES)) if ENTRIES[k][1]["game"] == "calqable"]


@pytest.mark.parametrize("k", CALQABLE, ids=lambda k: "calqable-%d" % ENTRIES[k][1]["seed"])
def test_calqable_best_first_finds_the_best_score(k):
    # best() goes best first by the bound of each square of `=` (engine/calqable_bounds.py)
    # and stops where the bound meets the best so far; the chip's search (every fifth
    # position) runs passes of growing size first
    game, entry = ENTRIES[k]
    move, score = movegen.best(game)
    assert score == entry["best"]
    if move is not None:
        assert game.check(move).score == score
    if k % 5 == 0:
        assert search.Search(game).run()[1] == entry["best"]


def test_calqable_rough_line_bounds_hold_their_squares_bounds():
    # The best-first generation ranks the lines by calqable_bounds.rough() before working
    # out their squares' bounds; a line whose rough bound were below one of them could be
    # left out while it holds the best move.
    lines_checked = 0
    for k in CALQABLE:
        gen = movegen_calqable.generation(ENTRIES[k][0], None, [-1])
        w = gen.w
        h = gen.h
        lines = [(list(range(r * w, r * w + w)), w) for r in range(h)]
        lines += [(list(range(c, c + w * h, w)), 1) for c in range(w)]
        for n in range(len(lines)):
            ranked = gen.ranked(lines, n)
            if ranked:
                top = calqable_bounds.rough(gen, lines[n][0], lines[n][1])
                assert ranked[0][3] <= top, (ENTRIES[k][1]["seed"], n, ranked[0][3], top)
                lines_checked += 1
    assert lines_checked > 2000, lines_checked
