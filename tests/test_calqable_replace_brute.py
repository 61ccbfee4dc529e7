"""engine/calqable_replace.py against its brute force on the benchmark set's boards (CPython).

The hundred Cal-Q-Able positions of tests/data/movegen_positions.json (tools/benchset.py),
each with three racks cut from its nine tiles: tiles 1-3, 4-8 and 8-9 (RACKS). The oracle (tests/engine/test_calqable_replace.py `brute`) is exponential in
the rack, so a whole nine-tile rack is checked the other way only: every replacement the
generator gives is legal with Game.check_replace's score, and none comes twice. Then
REPLACE_POSITIONS (default 10) positions of seeded play (tests/engine/test_movegen.py
`position`), racks of four or five tiles; a thousand is a run of its own:

    REPLACE_POSITIONS=1000 .venv/bin/python -m pytest -q tests/test_calqable_replace_brute.py
"""

import os

from engine import calqable_replace
from tests.engine.checks import eq
from tests.engine.test_calqable_replace import agree, brute, generated
from tests.engine.test_movegen import position
from tools import benchset

RACKS = ((0, 3), (3, 8), (7, 9))  # slices of each position's nine tiles
COUNT = int(os.environ.get("REPLACE_POSITIONS", "10"))


def test_agrees_with_brute_force_on_the_benchmark_boards():
    positions = benchset.games("calqable")
    assert len(positions) == 100
    pairs = 0
    found = 0
    for game, entry in positions:
        for a, b in RACKS:
            rack = list(entry["rack"][a:b])
            got = generated(game, rack)
            want = brute(game, rack)
            eq(got, want, "position %d, rack %s" % (entry["seed"], "".join(rack)))
            pairs += 1
            found += len(want)
    eq(pairs, 300)
    assert found > 100  # (144 when written)


def test_whole_racks_are_legal_with_the_judges_score():
    found = 0
    for game, _ in benchset.games("calqable"):
        for move, score in calqable_replace.replacements(game):
            verdict, _ = game.check_replace(move)
            assert verdict.legal, str(move)
            eq(score, verdict.score, str(move))
            found += 1
        eq(len(generated(game)), len(list(calqable_replace.replacements(game))))
    assert found > 1000


def test_agrees_with_brute_force_after_seeded_play():
    found = 0
    for seed in range(1, COUNT + 1):
        found += agree(position("calqable", seed, 2 + seed % 9, 4 + seed % 2))
    assert COUNT < 10 or found > 0
