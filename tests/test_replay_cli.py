"""`python -m host_tools replay` end to end: JSON lines, score sheet, unreadable records."""

import json
import subprocess
import sys
from pathlib import Path

from engine import record
from engine.game import Game
from engine.move import Move
from engine.profile import load
from host_tools import jsonpos
from host_tools.__main__ import main

REPO = Path(__file__).resolve().parent.parent
RULEBOOK = REPO / "tests" / "data" / "rulebook.json"
PROFILE = REPO / "hardware" / "profiles" / "calculissimo.json"
MOVES = json.loads(RULEBOOK.read_text(encoding="utf-8"))["turns"]
SECOND_MUL = {"place": [["K6", "×"], ["L6", "2"]]}  # row 6 would read 3×4-1×2


def cli(*args, stdin=None):
    """(exit status, stdout lines, stderr) of the command run as a separate process."""
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", *map(str, args)],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        encoding="utf-8",
        check=False,
    )
    return proc.returncode, proc.stdout.splitlines(), proc.stderr


def write(tmp_path, obj, name="game.json"):
    path = tmp_path / name
    text = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, indent=1)
    path.write_text(text, encoding="utf-8")
    return path


def replay(tmp_path, turns, **extra):
    data = {"game": "calculissimo", "players": 4, "turns": turns, **extra}
    status, out, err = cli("replay", write(tmp_path, data), "--json")
    assert status == 0, err
    return [json.loads(line) for line in out]


def test_rulebook_json_lines_exact():
    status, out, err = cli("replay", RULEBOOK, "--json")
    assert status == 0 and err == ""
    assert len(out) == 6
    assert out[0] == (
        '{"turn": 1, "player": 1, "legal": true, "score": 48, "totals": [48, 0, 0, 0], '
        '"runs": [{"run": "D8-H8", "squares": ["D8", "E8", "F8", "G8", "H8"], '
        '"text": "9+6÷2", "face_value": 12, "premium_value": 24, "multiplier": 2, '
        '"score": 48}], "action": "place"}'
    )
    assert out[4] == (
        '{"turn": 5, "player": 1, "legal": true, "score": 19, "totals": [67, 12, 33, 38], '
        '"runs": [{"run": "J6-J10", "squares": ["J6", "J7", "J8", "J9", "J10"], '
        '"text": "1×7+5", "face_value": 12, "premium_value": 19, "multiplier": 1, '
        '"score": 19}], "action": "place"}'
    )
    assert out[5] == '{"final": true, "totals": [67, 12, 33, 38], "penalties": [0, 0, 0, 0]}'
    lines = [json.loads(line) for line in out]
    assert [ln["score"] for ln in lines[:5]] == [48, 12, 33, 38, 19]
    assert [ln["player"] for ln in lines[:5]] == [1, 2, 3, 4, 1]
    assert [ln["totals"] for ln in lines[:4]] == [
        [48, 0, 0, 0],
        [48, 12, 0, 0],
        [48, 12, 33, 0],
        [48, 12, 33, 38],
    ]
    assert [list(ln) for ln in lines[:2]] == [
        ["turn", "player", "legal", "score", "totals", "runs", "action"]
    ] * 2


def test_rulebook_score_sheet_and_sim():
    status, out, _ = cli("replay", RULEBOOK)
    assert status == 0
    assert out[2].split()[:3] == ["1", "P1", "D8:9"]
    assert "D8-H8 9+6÷2 = 12 -> 24 x2 = 48" in out[2]
    assert out[6].split()[5:10] == ["19", "67", "12", "33", "38"]
    assert out[-1] == "Winner: P1 with 67"


def test_sim_plays_the_rulebook_game_on_the_simulated_board():
    status, out, err = cli("sim", "--text")
    assert (status, err) == (0, "")
    moves = [json.loads(line) for line in out if '"ev": "move"' in line]
    assert [m["score"] for m in moves] == [48, 12, 33, 38, 19]
    assert "| P1     67  P2     12|" in out  # the display, read back from the OLED's pixels
    assert "|P2 to play           |" in out
    assert " 8 .a.#####.W.g.a." in out  # the LEDs: move 5 marked white on column J


def test_sim_script_from_stdin_reports_bad_commands():
    script = "place H8 2\nfly away\nplace Z99 3\nevents\n"
    status, out, _ = cli("sim", "--script", "-", stdin=script)
    assert status == 1  # a script with lines that could not be done fails
    assert json.loads(out[0]) == {
        "error": "unknown command fly (commands: place, lift, press, wait, show, events)",
        "line": 2,
    }
    assert json.loads(out[1]) == {"error": "no square Z99 on this board", "line": 3}
    assert any('"ev": "placed", "square": "H8"' in line for line in out)


def test_illegal_then_retry_by_same_player(tmp_path):
    lines = replay(tmp_path, MOVES[:3] + [SECOND_MUL, MOVES[3]])
    assert lines[3] == {
        "turn": 4,
        "player": 4,
        "legal": False,
        "score": 0,
        "totals": [48, 12, 33, 0],
        "reasons": [{"code": "two_multiplications", "run": "F6-L6"}],
        "action": "place",
    }
    assert (lines[4]["player"], lines[4]["score"]) == (4, 38)
    assert lines[-1]["totals"] == [48, 12, 33, 38]


def test_strict_loses_the_turn(tmp_path):
    turns = MOVES[:3] + [SECOND_MUL, MOVES[3]]
    lines = replay(tmp_path, turns, options={"strict": True})
    assert (lines[3]["player"], lines[3]["legal"]) == (4, False)
    assert (lines[4]["player"], lines[4]["totals"]) == (1, [86, 12, 33, 0])


def test_pass_swap_timeout(tmp_path):
    turns = [MOVES[0], {"pass": True}, {"swap": 3}, {"pass": True, "timeout": True}, MOVES[1]]
    lines = replay(tmp_path, turns)
    assert [ln["action"] for ln in lines[:5]] == ["place", "pass", "swap", "timeout", "place"]
    assert lines[2] == {
        "turn": 3,
        "player": 3,
        "legal": True,
        "score": 0,
        "totals": [48, 0, 0, 0],
        "action": "swap",
    }
    assert (lines[4]["player"], lines[4]["totals"]) == (1, [60, 0, 0, 0])


def test_swap_refused(tmp_path):
    lines = replay(tmp_path, [{"swap": 9}, MOVES[0]])
    assert lines[0]["reasons"] == [{"code": "swap_not_allowed"}]
    assert (lines[1]["player"], lines[1]["score"]) == (1, 48)


def test_end_racks_penalties(tmp_path):
    racks = [["5", "+", "?", "1", "2", "3", "4"], ["9"] * 7, ["×", "÷", "-"] + ["0"] * 4, []]
    racks[3] = ["1"] * 7
    lines = replay(tmp_path, MOVES, end={"racks": racks})
    assert lines[-1] == {
        "final": True,
        "totals": [32, -51, 3, 31],
        "penalties": [35, 63, 30, 7],
    }


def test_end_racks_disagree_warns(tmp_path):
    lines = replay(tmp_path, MOVES, end={"racks": [["5", "+"], [], ["?"], ["9"]]})
    assert lines[-1]["totals"] == [52, 12, 23, 29]
    assert lines[-1]["penalties"] == [15, 0, 10, 9]
    assert lines[-1]["warnings"] == ["player 1 should hold 7 chips, not 2"]
    status, out, _ = cli("replay", tmp_path / "game.json")
    assert status == 0 and out[-1] == "warning: player 1 should hold 7 chips, not 2"


def error_of(*args):
    status, out, err = cli("replay", *args)
    assert status == 2, (out, err)
    assert len(out) == 1, out
    return json.loads(out[0])


def test_bad_json_line(tmp_path):
    text = RULEBOOK.read_text(encoding="utf-8").replace('["H9", "+"]', '["H9" "+"]')
    got = error_of(write(tmp_path, text))
    assert got["line"] == 8 and got["error"].startswith("bad JSON")
    assert list(got) == ["error", "line"]


def test_unknown_square_line(tmp_path):
    text = RULEBOOK.read_text(encoding="utf-8").replace('["F6", "3"]', '["Z99", "3"]')
    got = error_of(write(tmp_path, text))
    assert got["line"] == 9 and "Z99" in got["error"]


def test_unknown_face_line(tmp_path):
    data = {"game": "calculissimo", "players": 2, "turns": MOVES[:2]}
    data["turns"][1] = {"place": [["H6", "4"], ["H7", "%"]]}
    got = error_of(write(tmp_path, data))
    lines = (tmp_path / "game.json").read_text(encoding="utf-8").splitlines()
    assert '"%"' in lines[got["line"] - 1]


def test_structure_and_setup_errors(tmp_path):
    got = error_of(write(tmp_path, '{"game": "calculissimo",\n "players": 7,\n "turns": []}'))
    assert got["line"] == 2
    got = error_of(write(tmp_path, '{"game": "calculissimo",\n "players": 2}'))
    assert got["line"] == 1
    text = (
        '{"game": "calculissimo", "players": 2,\n "options": {\n  "precedence": "x"},\n'
        '"turns": []}'
    )
    assert error_of(write(tmp_path, text))["line"] == 3


def test_missing_file():
    got = error_of(REPO / "no" / "such.json")
    assert got["line"] == 0 and "cannot read" in got["error"]


def test_profile_option(tmp_path):
    data = json.loads(PROFILE.read_text(encoding="utf-8"))
    data["layout"] = ["." * 15] * 15
    data["start"] = "H8"
    status, out, _ = cli(
        "replay", RULEBOOK, "--json", "--profile", write(tmp_path, data, "p.json")
    )
    assert status == 0 and json.loads(out[0])["score"] == 12
    status, out, _ = cli("replay", RULEBOOK, "--profile", tmp_path / "none.json")
    assert status == 2 and len(out) == 1 and "profile" in json.loads(out[0])["error"]


def test_main_in_process(capsys):
    assert main(["replay", str(RULEBOOK), "--json"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith('{"final": true')


def test_jsonpos_paths():
    text = '{"a": [1,\n  {"b": "x\\"y"}],\n "c":\n 3}'
    lines = jsonpos.value_lines(text)
    assert lines[()] == 1 and lines[("a", 1, "b")] == 2 and lines[("c",)] == 4
    assert jsonpos.line_of(text, ("a", 1, "zz", 4)) == 2


def test_write_read_replay_round_trip(tmp_path):
    profile = load(str(PROFILE))
    game = Game(profile, 3, {"strict": True})
    game.play(Move.from_pairs(MOVES[0]["place"], 15, 15))
    game.swap(4)
    game.play(Move.from_pairs(MOVES[1]["place"], 15, 15))
    game.timeout()
    game.play(game.move("K6:× L6:2"))  # not connected: a forfeit under strict
    game.play(Move.from_pairs(MOVES[2]["place"], 15, 15))
    game.pass_turn()
    racks = [["1"] * game.rack_count(p) for p in range(3)]
    game.finish(racks)
    data = record.write(game, racks=racks)
    lines = replay_file(write(tmp_path, data))
    assert lines[-1]["totals"] == game.totals()
    assert lines[-1]["penalties"] == game.penalties
    assert [ln.get("action") for ln in lines[:-1]] == [
        "place",
        "swap",
        "place",
        "timeout",
        "pass",
        "place",
        "pass",
    ]


def replay_file(path):
    status, out, err = cli("replay", path, "--json")
    assert status == 0, err
    return [json.loads(line) for line in out]


def test_sim_plays_a_cal_q_able_record_on_the_board_as_the_engine_replays_it():
    status, out, err = cli("sim", "--text", "--game", "calqable")
    assert (status, err) == (0, "")
    events = [json.loads(line) for line in out if line.startswith('{"t"')]
    played = [(e["ev"], e["score"]) for e in events if e["ev"] in ("move", "replace")]
    assert played == [("move", 13), ("move", 135), ("move", 13), ("replace", 29)]
    over = [e for e in events if e["ev"] == "game_over"]
    _, replayed, _ = cli("replay", REPO / "tests" / "data" / "calqable.json", "--json")
    assert over[0]["totals"] == json.loads(replayed[-1])["totals"] == [26, 181]
