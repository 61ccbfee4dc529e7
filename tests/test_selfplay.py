"""tools/selfplay.py: two games a pair of levels, the table and the tallies it prints;
tools/learn_leave.py: a table fitted from two games, and fitted again from their saved samples.
"""

import re

from engine import leave
from tools import learn_leave, selfplay


def test_two_games_a_pair_print_the_table_and_the_tallies(capsys):
    selfplay.main(["--games", "2", "--quiet"])
    out = capsys.readouterr().out
    assert "2 games a pair, seeds 1-1, both seat orders" in out
    header = "| level | vs 1 | vs 2 | vs 3 | vs 4 |"
    assert header in out
    rows = {}
    for level in range(1, 5):
        line = re.search(r"^\| %d \| (.*) \|$" % level, out, re.MULTILINE).group(1)
        rows[level] = [c.strip() for c in line.split("|")]
        assert rows[level][level - 1] == "-"
    for a in range(1, 5):
        for b in range(1, 5):
            if a != b:  # a's share and b's share of the same games add up to 100%
                share = int(rows[a][b - 1].rstrip("%")) + int(rows[b][a - 1].rstrip("%"))
                assert share == 100, (a, b, rows)
    pairs = re.findall(r"^\| (\d) vs (\d) \| (\d+) \| (\d+)-(\d+)-(\d+) \|", out, re.MULTILINE)
    assert sorted((int(a), int(b)) for a, b, *_ in pairs) == [
        (2, 1),
        (3, 1),
        (3, 2),
        (4, 1),
        (4, 2),
        (4, 3),
    ]
    for _, _, games, w, d, l in pairs:
        assert int(games) == 2 == int(w) + int(d) + int(l)
    assert re.search(r"Equity \(level 4\) vs best score \(level 3\): [\d.]+% .* over 2 games", out)
    assert "12 games in" in out


def test_a_game_ends_with_the_penalties_applied_and_both_seats_are_played():
    profile = selfplay.load_profile()
    seen = []
    game = selfplay.play_game(profile, [3, 1], 5, watch=lambda g, p, r, b, res: seen.append(p))
    assert game.over and game.penalties is not None
    assert set(seen) == {0, 1}
    tally = selfplay.match(profile, 3, 1, 2, 5)
    # the same deal from both seats: level 3 plays seat 0 in game 0 and seat 1 in game 1
    assert tally.games == 2 and tally.points_a > tally.points_b
    assert tally.points_a == game.totals()[0] + selfplay.play_game(profile, [1, 3], 5).totals()[1]


def table_of(text, game="calculissimo"):
    """The weights printed between the table's markers, as a list of ints."""
    _, _, name, begin, end = learn_leave.GAMES[game]
    block = text.split(begin)[1].split(end)[0]
    body = block.split(name + " = (")[1]
    values = []
    for line in body.splitlines():
        line = line.split("#")[0].strip().rstrip(",")
        if line and line[0] in "-0123456789" and not line.startswith('"'):
            values += [int(v) for v in line.split(",")]
    return values[1:]  # the rack size comes first


def test_learn_leave_fits_a_table_and_refits_the_saved_samples(tmp_path, capsys):
    saved = tmp_path / "samples.jsonl"
    learn_leave.main(["--games", "2", "--rounds", "1", "--save", str(saved)])
    first = capsys.readouterr().out
    assert "round 0 (level 3, seeds 100001-100002)" in first
    weights = table_of(first)
    assert len(weights) == leave.size(*learn_leave.GAMES["calculissimo"][:2])
    assert any(weights)
    learn_leave.main(["--load", str(saved), "--rounds", "0"])
    again = capsys.readouterr().out
    assert "loaded round 0: level 3, seeds 100001-100002" in again
    assert table_of(again) == weights


def test_learn_leave_fits_a_calqable_table(capsys):
    learn_leave.main(["--game", "calqable", "--games", "1", "--rounds", "1"])
    out = capsys.readouterr().out
    assert "round 0 (level 3, seeds 100001-100001)" in out
    weights = table_of(out, "calqable")
    assert len(weights) == leave.size("0123456789+-*:/", 9)
    assert any(weights)
