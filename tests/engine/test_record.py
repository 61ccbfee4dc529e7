"""engine/record.py: reading, replaying and writing game records (GAME_RECORD.md).

Plain functions, `assert` and tests/engine/checks.py only: they run on MicroPython too.
"""

from engine import record
from engine.errors import RecordError
from engine.game import Game
from engine.profile import load
from tests.engine.checks import eq, raises
from tests.engine.fixtures import profile_path

RULEBOOK = [
    [["D8", "9"], ["E8", "+"], ["F8", "6"], ["G8", "÷"], ["H8", "2"]],
    [["H6", "4"], ["H7", "-"], ["H9", "+"], ["H10", "3"]],
    [["F6", "3"], ["G6", "×"], ["I6", "-"], ["J6", "1"]],
    [["D10", "6"], ["E10", "+"], ["F10", "4"], ["G10", "-"], ["I10", "+"], ["J10", "5"]],
    [["J7", "×"], ["J8", "7"], ["J9", "+"]],
]
# After the rulebook's third move, row 6 reads 3×4-1 (F6-J6): a second × there is illegal.
SECOND_MUL = [["K6", "×"], ["L6", "2"]]

_PROFILE = []


def profile():
    if not _PROFILE:
        _PROFILE.append(load(profile_path()))
    return _PROFILE[0]


def data(turns, players=4, **extra):
    d = {"game": "calculissimo", "players": players, "turns": turns}
    d.update(extra)
    return d


def places(moves):
    return [{"place": m} for m in moves]


def run(d):
    return list(record.replay(record.read(d), profile()))


def path_of(d):
    return raises(RecordError, record.read, d).path


# ----- read ------------------------------------------------------------------------------


def test_read_fields_and_defaults():
    r = record.read(data(places(RULEBOOK)))
    eq(
        (r.game, r.players, r.options, r.profile, r.end_racks),
        ("calculissimo", 4, {}, "default", None),
    )
    eq(len(r.turns), 5)
    eq(r.turns[0].kind, "place")
    eq(str(r.turns[0].move), "D8:9 E8:+ F8:6 G8:÷ H8:2")


def test_read_the_boards_seats_and_hints():
    # added keys (issue 13): each seat's level the board played (0 a person), hints asked
    r = record.read(data(places(RULEBOOK), players=2, computer=[0, 3], hints=[2, 0]))
    eq((r.computer, r.hints), ([0, 3], [2, 0]))
    eq(record.read(data(places(RULEBOOK))).computer, None)
    eq(path_of(data([], players=2, computer=[0, 5])), ("computer",))
    eq(path_of(data([], players=2, computer=[0, 1, 2])), ("computer",))
    eq(path_of(data([], players=2, hints=[-1])), ("hints",))
    eq(path_of(data([], players=2, hints=[True])), ("hints",))


def test_read_turn_kinds_and_aliases():
    turns = [
        {"pass": True},
        {"pass": True, "timeout": True, "note": "extra keys are kept"},
        {"swap": 3},
        {"place": [["h8", "*"], ["i8", ":"], ["J8", "?7"]]},
    ]
    r = record.read(data(turns, options={"strict": True}, profile="mine"))
    eq([t.kind for t in r.turns], ["pass", "timeout", "swap", "place"])
    eq(r.turns[2].count, 3)
    eq(str(r.turns[3].move), "H8:× I8:÷ J8:?7")
    eq((r.options, r.profile), ({"strict": True}, "mine"))


def test_read_top_level_errors():
    eq(path_of([1, 2]), ())
    eq(path_of(data([], game="chess")), ("game",))
    for bad in (1, 5, True, "4"):
        eq(path_of(data([], players=bad)), ("players",))
    eq(path_of(data([], options=[])), ("options",))
    eq(path_of(data([], profile=3)), ("profile",))
    eq(path_of({"game": "calculissimo", "players": 2}), ("turns",))


def test_read_turn_errors():
    eq(path_of(data([{"pass": True}, 7])), ("turns", 1))
    eq(path_of(data([{}])), ("turns", 0))
    eq(path_of(data([{"pass": True, "swap": 2}])), ("turns", 0))
    eq(path_of(data([{"pass": False}])), ("turns", 0, "pass"))
    eq(path_of(data([{"pass": True, "timeout": 1}])), ("turns", 0, "timeout"))
    for bad in (0, -1, True, "2"):
        eq(path_of(data([{"swap": bad}])), ("turns", 0, "swap"))
    eq(path_of(data([{"place": "H8:2"}])), ("turns", 0, "place"))
    eq(path_of(data([{"place": [["H8", "2", "x"]]}])), ("turns", 0, "place", 0))


def test_read_bad_square_and_face_paths():
    turns = places(RULEBOOK[:3]) + [{"place": [["D8", "9"], ["Z99", "1"]]}]
    eq(path_of(data(turns)), ("turns", 3, "place", 1, 0))
    eq(path_of(data([{"place": [["P1", "1"]]}])), ("turns", 0, "place", 0, 0))
    eq(path_of(data([{"place": [["H8", "%"]]}])), ("turns", 0, "place", 0, 1))
    eq(path_of(data([{"place": [["H8", 7]]}])), ("turns", 0, "place", 0, 1))
    eq(path_of(data([{"place": [["H8", "?"]]}])), ("turns", 0, "place", 0, 1))


def test_read_end_racks():
    r = record.read(data([], end={"racks": [["5", "*"], [], ["?"], ["9", "−"]]}))
    eq(r.end_racks, [["5", "×"], [], ["?"], ["9", "-"]])
    eq(path_of(data([], end=[])), ("end",))
    eq(path_of(data([], end={})), ("end",))
    eq(path_of(data([], end={"racks": [[], []]})), ("end", "racks"))
    eq(path_of(data([], end={"racks": [[], [], "5", []]})), ("end", "racks", 2))
    eq(path_of(data([], end={"racks": [[], [], ["5", "%"], []]})), ("end", "racks", 2, 1))
    eq(path_of(data([], end={"racks": [["?7"], [], [], []]})), ("end", "racks", 0, 0))


def test_read_error_message():
    exc = raises(RecordError, record.read, data([{"place": [["Z99", "1"]]}]))
    assert "Z99" in exc.message, exc.message


# ----- replay ----------------------------------------------------------------------------


def test_replay_rulebook():
    lines = run(data(places(RULEBOOK)))
    eq(len(lines), 6)
    eq([ln["score"] for ln in lines[:5]], [48, 12, 33, 38, 19])
    eq([ln["player"] for ln in lines[:5]], [1, 2, 3, 4, 1])
    eq([ln["turn"] for ln in lines[:5]], [1, 2, 3, 4, 5])
    eq(lines[0]["totals"], [48, 0, 0, 0])
    eq(lines[0]["action"], "place")
    assert lines[0]["legal"]
    eq(lines[0]["runs"][0]["run"], "D8-H8")
    eq(lines[0]["runs"][0]["multiplier"], 2)
    eq(lines[5], {"final": True, "totals": [67, 12, 33, 38], "penalties": [0, 0, 0, 0]})


def test_replay_illegal_retry_by_same_player():
    moves = places(RULEBOOK[:3]) + places([SECOND_MUL, RULEBOOK[3]])
    lines = run(data(moves))
    bad = lines[3]
    eq((bad["turn"], bad["player"], bad["legal"], bad["score"]), (4, 4, False, 0))
    eq(bad["reasons"], [{"code": "two_multiplications", "run": "F6-L6"}])
    assert "runs" not in bad
    eq(bad["totals"], [48, 12, 33, 0])
    eq((lines[4]["player"], lines[4]["score"]), (4, 38))


def test_replay_strict_loses_the_turn():
    moves = places(RULEBOOK[:3]) + places([SECOND_MUL, RULEBOOK[3]])
    lines = run(data(moves, options={"strict": True}))
    eq((lines[3]["player"], lines[3]["legal"]), (4, False))
    eq((lines[4]["player"], lines[4]["score"]), (1, 38))
    eq(lines[5]["totals"], [86, 12, 33, 0])


def test_replay_pass_swap_timeout():
    turns = [{"pass": True}, {"swap": 3}, {"pass": True, "timeout": True}]
    lines = run(data(turns + places(RULEBOOK[:1])))
    eq([ln["action"] for ln in lines[:4]], ["pass", "swap", "timeout", "place"])
    eq([ln["player"] for ln in lines[:4]], [1, 2, 3, 4])
    eq([ln["legal"] for ln in lines[:4]], [True, True, True, True])
    assert "runs" not in lines[0] and "reasons" not in lines[0]
    eq(lines[3]["totals"], [0, 0, 0, 48])


def test_replay_swap_refused():
    turns = [{"swap": 8}, {"swap": 2}]
    lines = run(data(turns, options={"swap_min_bag": 99}))
    eq(lines[0]["reasons"], [{"code": "swap_not_allowed"}])
    eq([ln["player"] for ln in lines[:2]], [1, 1])
    lines = run(data(turns, options={"strict": True}))
    eq(lines[0]["reasons"], [{"code": "swap_not_allowed"}])
    eq((lines[1]["player"], lines[1]["legal"]), (2, True))


def test_replay_after_game_over():
    lines = run(data([{"pass": True}, {"pass": True}, {"place": RULEBOOK[0]}], players=2))
    eq(lines[2]["reasons"], [{"code": "game_over"}])
    eq((lines[2]["legal"], lines[2]["score"], lines[2]["totals"]), (False, 0, [0, 0]))


def test_replay_end_penalties():
    racks = [["5", "+", "?", "1", "2", "3", "4"], ["9"] * 7, ["×"] * 7, ["0"] * 7]
    lines = run(data(places(RULEBOOK), end={"racks": racks}))
    eq(lines[-1], {"final": True, "totals": [32, -51, -37, 38], "penalties": [35, 63, 70, 0]})


def test_replay_end_racks_disagree():
    lines = run(data(places(RULEBOOK), end={"racks": [["5", "+"], [], ["?"], ["9"]]}))
    final = lines[-1]
    eq(final["penalties"], [15, 0, 10, 9])
    eq(final["totals"], [52, 12, 23, 29])
    eq(len(final["warnings"]), 1)
    assert "player 1" in final["warnings"][0], final["warnings"]


def test_replay_setup_errors():
    r = record.read(data([], game="calqable"))
    eq(raises(RecordError, record.replay, r, profile()).path, ("game",))
    r = record.read(data([], options={"precedence": "left"}))
    eq(raises(RecordError, record.replay, r, profile()).path, ("options", "precedence"))
    r = record.read(data([], options={"colour": "red"}))
    eq(raises(RecordError, record.replay, r, profile()).path, ("options", "colour"))


# ----- write -----------------------------------------------------------------------------


def test_write_round_trip_referee():
    g = Game(profile(), 4, {"strict": True})
    for pairs in RULEBOOK[:3]:
        g.play(g.move(" ".join(sq + ":" + face for sq, face in pairs)))
    g.pass_turn()
    g.swap(2)
    g.timeout()
    g.play(g.move("K6:× L6:2"))  # illegal under strict: a forfeit
    d = record.write(g, [None, {"ms": 1200}])
    eq(
        d["turns"][3:],
        [
            {"pass": True},
            {"swap": 2},
            {"pass": True, "timeout": True},
            {"pass": True, "forfeit": True},
        ],
    )
    eq(d["turns"][1], {"place": RULEBOOK[1], "ms": 1200})
    eq((d["game"], d["players"], d["profile"], "end" in d), ("calculissimo", 4, "default", False))
    lines = run(d)
    eq(lines[-1]["totals"], g.totals())
    eq([ln["legal"] for ln in lines[:-1]], [True] * 7)


def test_write_round_trip_with_end():
    g = Game(profile(), 2)
    g.play(g.move("D8:9 E8:+ F8:6 G8:÷ H8:2"))
    racks = [["1"] * 7, ["+"] * 7]
    g.finish(racks)
    lines = run(record.write(g, racks=racks))
    eq(lines[-1], {"final": True, "totals": [41, -70], "penalties": [7, 70]})


def test_write_known_racks():
    g = Game(profile(), 2, seed=7)
    g.swap(list(g.racks[0][:3]))
    eq(record.write(g)["turns"], [{"swap": 3}])
    g.pass_turn()  # two idle turns in a row: the game is over
    g.finish()
    d = record.write(g)
    eq([len(r) for r in d["end"]["racks"]], [7, 7])
    eq(run(d)[-1]["totals"], g.totals())


def test_first_player_key():
    data = {"game": "calculissimo", "players": 3, "first": 2, "turns": [{"pass": True}]}
    rec = record.read(data)
    eq(rec.first, 1)
    lines = list(record.replay(rec, profile()))
    eq(lines[0]["player"], 2)
    data["first"] = 4
    raises(RecordError, record.read, data)
    g = Game(profile(), 3, first=2)
    g.pass_turn()
    eq(record.write(g)["first"], 3)
    eq("first" in record.write(Game(profile(), 3)), False)


# ----- racks per turn (an added key) -------------------------------------------------------


def test_read_turn_rack():
    turns = [
        {"place": RULEBOOK[0], "rack": ["9", "+", "6", ":", "2", "*", "?"]},
        {"pass": True},
        {"swap": 2, "rack": ["1", "−"]},
    ]
    r = record.read(data(turns))
    eq(r.turns[0].rack, ["9", "+", "6", "÷", "2", "×", "?"])
    eq((r.turns[1].rack, r.turns[2].rack), (None, ["1", "-"]))
    eq(r.turns[0].data["rack"], turns[0]["rack"])  # the raw object is kept as it was
    eq(run(data(turns))[0]["score"], 48)  # the key changes nothing in the replay
    eq(path_of(data([{"pass": True, "rack": "96+"}])), ("turns", 0, "rack"))
    eq(path_of(data([{"pass": True, "rack": ["9", "%"]}])), ("turns", 0, "rack", 1))
    eq(path_of(data([{"pass": True, "rack": ["?7"]}])), ("turns", 0, "rack", 0))


def test_write_turn_racks_of_a_known_game():
    from engine import autoplay, faces

    g = Game(profile(), 2, seed=11)
    before = []  # each turn's mover's rack, as record texts, sorted
    for k in range(6):
        before.append(sorted(faces.text(ch, ch == faces.JOKER) for ch in g.racks[g.to_move]))
        if k == 2:
            g.swap(list(g.racks[g.to_move][:3]))
        elif k == 4:
            g.pass_turn()
        else:
            autoplay.play_turn(g)
    eq("rack" in record.write(g)["turns"][0], False)  # only when asked for
    d = record.write(g, turn_racks=True)
    eq([sorted(t["rack"]) for t in d["turns"]], before)
    r = record.read(d)
    eq([sorted(t.rack) for t in r.turns], before)
    eq(run(d)[-1]["totals"], g.totals())


def test_write_turn_rack_from_meta():
    g = Game(profile(), 2)
    g.play(g.move(" ".join(sq + ":" + face for sq, face in RULEBOOK[0])))
    g.pass_turn()
    d = record.write(g, [{"rack": ["9", "+", "6", "÷", "2", "1", "1"]}], turn_racks=True)
    eq(d["turns"][0]["rack"], ["9", "+", "6", "÷", "2", "1", "1"])
    eq("rack" in d["turns"][1], False)  # a refereed game knows no racks
    eq(record.read(d).turns[0].rack, ["9", "+", "6", "÷", "2", "1", "1"])
