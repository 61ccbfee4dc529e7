"""The PC tools on files nested past Python's parser, and on saved games whose checksum is right
but whose content is not: one line saying what is wrong and a non-zero exit, never a
traceback (CPython only)."""

import json

from engine import snapshot
from firmware import archive, journal
from host_tools import jsonpos
from tests.engine.fixtures import new_game
from tests.test_host_tools import run_cli

DEPTH = 5000


def test_replay_of_a_record_nested_past_the_parser_is_the_one_line_error(capsys, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(
        '{"game": "calculissimo", "players": 2,\n "turns": [\n'
        + "[" * DEPTH
        + "]" * DEPTH
        + "]}\n"
    )
    status, out, err = run_cli(capsys, "replay", str(path))
    assert status == 2 and err == ""
    assert out.splitlines() == ['{"error": "bad JSON: nested too deeply", "line": 3}']


def test_a_record_nested_as_deep_as_the_parser_takes_is_placed_by_line(capsys, tmp_path):
    depth = 600  # json.loads takes it; a turn nested inside it is not a turn
    path = tmp_path / "nested.json"
    path.write_text(
        '{"game": "calculissimo", "players": 2,\n "turns": [\n'
        + "[" * depth
        + "]" * depth
        + "]}\n"
    )
    status, out, err = run_cli(capsys, "replay", str(path))
    assert status == 2 and "Traceback" not in out + err
    assert json.loads(out) == {"error": "a turn is an object", "line": 3}


def test_line_of_walks_deeply_nested_text_without_recursion():
    text = '{"a":\n' + "[" * DEPTH + "\n7" + "]" * DEPTH + "}"
    assert jsonpos.line_of(text, ("a",) + (0,) * DEPTH) == 3
    assert jsonpos.line_of(text, ("a", 0, 0, 5)) == 2  # the nearest ancestor found
    assert jsonpos.line_of(text, ("b",)) == 1
    assert jsonpos.deepest_line(text) == 2


def saved_game(tmp_path, name, about=None, tail=None):
    """A games/NNN.dat pulled from a board: a good snapshot, then `about` (or raw `tail`),
    inside a journal record whose checksum is right."""
    snap = snapshot.encode(new_game())
    payload = archive.encode(snap, about or {})
    if tail is not None:
        payload = payload[: 2 + len(snap)] + tail
    path = tmp_path / name
    path.write_bytes(journal.record(payload))
    return str(path)


def test_games_export_says_what_is_wrong_with_a_saved_games_content(capsys, tmp_path):
    good = saved_game(tmp_path, "good.dat", {"game": "calculissimo", "racks": [[], []]})
    status, out, err = run_cli(capsys, "games", "export", good)
    assert status == 0 and json.loads(out)["end"] == {"racks": [[], []]}
    deep = b"[" * DEPTH + b"]" * DEPTH
    cases = (
        (deep, None, "the archived game's details are nested too deeply"),
        (b'{"game": "calculissimo", "racks": ' + deep + b"}", None, "nested too deeply"),
        (None, {"game": "calculissimo", "racks": [5, []]}, "racks are not lists of faces"),
        (None, {"game": "calculissimo", "racks": [[]]}, "'end.racks' needs one rack per player"),
        (None, {"game": "calculissimo", "racks": [["zz"], []]}, "unknown chip face 'zz'"),
        (b'{"game": "calculissimo", "racks": [[NaN], []]}', None, "not nan"),
        (None, {"game": ["calculissimo"], "racks": []}, "unknown game"),
    )
    for k, (tail, about, says) in enumerate(cases):
        path = saved_game(tmp_path, "%d.dat" % k, about, tail)
        status, out, err = run_cli(capsys, "games", "export", path)
        assert status == 2 and out == "", err
        assert err.startswith("games: ") and err.count("\n") == 1, err
        assert says in err, err
