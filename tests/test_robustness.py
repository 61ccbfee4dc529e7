"""Bad input never crashes the engine: it gets a clear, specific error or a verdict.

Fuzzing with hypothesis (CPython): arbitrary JSON as a game record, arbitrary bytes as a
record file (Calculissimo and Cal-Q-Able, rule-5 turns included), arbitrary placements (squares off the board, unknown codes) for `check`,
damaged snapshots, and mutated profiles. The board must say what is wrong and keep its
last good state, so the only exceptions allowed are the engine's own classes.
"""

import json
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record, snapshot
from engine.errors import GameStateError, ProfileError, RecordError
from engine.game import Game
from engine.move import Move
from engine.profile import Profile
from tests.engine.fixtures import RULEBOOK, default_profile, profile_data

SETTINGS = settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
squares = st.sampled_from(["H8", "h9", "A1", "O15", "P1", "Z99", "H0", "", "8H", 7, None])
faces = st.sampled_from(
    ["1", "9", "+", "-", "×", "x", "*", ":", "÷", "−", "?7", "?", "?×", "=", "/", "%", 3]
)
records = st.fixed_dictionaries(
    {
        "game": st.sampled_from(["calculissimo", "calqable", "chess", 1]),
        "players": st.sampled_from([1, 2, 3, 4, 5, "2", True]),
        "turns": st.lists(
            st.one_of(
                st.fixed_dictionaries(
                    {"place": st.lists(st.lists(squares | faces, max_size=3), max_size=5)}
                ),
                st.fixed_dictionaries(
                    {"place": st.lists(st.tuples(squares, faces).map(list), max_size=5)}
                ),
                st.fixed_dictionaries(
                    {"replace": st.lists(st.tuples(squares, faces).map(list), max_size=4)}
                ),
                st.fixed_dictionaries({"pass": st.sampled_from([True, False, 1])}),
                st.fixed_dictionaries({"swap": st.sampled_from([1, 3, 7, 0, -1, "3"])}),
                json_values,
            ),
            max_size=8,
        ),
    },
    optional={
        "options": st.dictionaries(
            st.sampled_from(["precedence", "strict", "turn_seconds", "nope"]),
            st.sampled_from(["standard", "mul_first", True, False, 0, 90, -5, "x"]),
        ),
        "end": st.fixed_dictionaries({"racks": st.lists(st.lists(faces, max_size=3), max_size=5)}),
    },
)


@SETTINGS
@given(json_values)
def test_any_json_is_a_record_or_a_record_error(data):
    try:
        record.read(data)
    except RecordError as exc:
        assert exc.message and isinstance(exc.path, tuple)


@SETTINGS
@given(records)
def test_record_shaped_data_reads_and_replays_or_says_why(data):
    try:
        rec = record.read(data)
    except RecordError:
        return
    if rec.game not in ("calculissimo", "calqable"):
        return
    profile = default_profile() if rec.game == "calculissimo" else _calqable()
    try:
        lines = list(record.replay(rec, profile))
    except RecordError:
        return
    assert lines[-1]["final"] is True
    assert len(lines) == len(rec.turns) + 1


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(st.binary(max_size=200) | records.map(lambda d: json.dumps(d).encode()))
def test_the_replay_command_never_crashes(tmp_path_factory, blob):
    path = tmp_path_factory.mktemp("rec") / "game.json"
    path.write_bytes(blob)
    run = subprocess.run(
        [sys.executable, "-m", "host_tools", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert run.returncode in (0, 2), run.stderr
    assert "Traceback" not in run.stderr
    out = [json.loads(line) for line in run.stdout.splitlines()]
    if run.returncode == 2:
        assert len(out) == 1 and set(out[0]) == {"error", "line"}
    else:
        assert out[-1]["final"] is True


_CALQABLE = []


def _calqable():
    import engine.calqable  # noqa: F401  (registers the ruleset)

    if not _CALQABLE:
        _CALQABLE.append(Profile(profile_data("calqable")))
    return _CALQABLE[0]


def _game_after_rulebook():
    g = Game(default_profile(), 3)
    for t in RULEBOOK[:3]:
        g.play(g.move(t))
    return g


placements = st.lists(st.tuples(st.integers(-3, 230), st.integers(0, 255)), min_size=0, max_size=9)


@SETTINGS
@given(placements)
def test_check_any_placement_gives_a_verdict_and_changes_nothing(chips):
    g = _game_after_rulebook()
    before = (bytes(g.board.cells), list(g.scores), g.to_move, bytes(g.log), dict(g.unseen))
    verdict = g.check(Move(chips, g.profile.width))
    assert verdict.legal or verdict.reasons
    assert (
        bytes(g.board.cells),
        list(g.scores),
        g.to_move,
        bytes(g.log),
        dict(g.unseen),
    ) == before
    verdict = g.play(Move(chips, g.profile.width))
    if not verdict.legal:
        assert (bytes(g.board.cells), list(g.scores), g.to_move) == before[:3]


@SETTINGS
@given(st.data())
def test_damaged_snapshot_is_refused_or_still_valid(data):
    g = _game_after_rulebook()
    g.pass_turn()
    good = bytearray(snapshot.encode(g))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(good) - 1))
        good[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(good)))
    try:
        h = snapshot.decode(default_profile(), bytes(good[:cut]))
    except GameStateError:
        return
    # Whatever was accepted is a usable game: it can be checked and saved again.
    h.check(h.move("H9:+ H10:1"))
    assert snapshot.decode(default_profile(), snapshot.encode(h)).turns == h.turns


keys = st.sampled_from(
    ["width", "height", "start", "legend", "layout", "chips", "rack_size", "players", "options",
     "penalties", "name", "game"]
)  # fmt: skip


@SETTINGS
@given(keys, json_values)
def test_mutated_profile_is_valid_or_a_profile_error(key, value):
    data = profile_data()
    data[key] = value
    try:
        Profile(data)
    except ProfileError as exc:
        assert str(exc).startswith("profile:")


def _calqable_game():
    g = Game(_calqable(), 2)
    g.play(g.move("H4:9 H5:- H6:1 H7:= H8:8"))
    g.play(g.move("F4:3 G4:× I4:= J4:2 K4:7"))
    return g


@SETTINGS
@given(
    st.lists(
        st.tuples(st.integers(-3, 230), st.sampled_from(list(b"0123456789+-*:/=?x") + [0xB7])),
        max_size=9,
    )
)
def test_any_cal_q_able_placement_or_replacement_gives_a_verdict_and_changes_nothing(chips):
    g = _calqable_game()
    before = (bytes(g.board.cells), g.bag_count(), list(g.scores), dict(g.unseen))
    move = Move(chips, g.profile.width)
    verdict = g.check(move)
    replace_verdict, _ = g.check_replace(move)
    assert isinstance(verdict.legal, bool) and isinstance(replace_verdict.legal, bool)
    assert (bytes(g.board.cells), g.bag_count(), list(g.scores), dict(g.unseen)) == before
    if replace_verdict.legal:
        g.replace(move)
        g.pop()
        assert (bytes(g.board.cells), g.bag_count(), list(g.scores), dict(g.unseen)) == before
