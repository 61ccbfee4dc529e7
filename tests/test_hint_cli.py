"""`python -m host_tools hint` and `analyse` (CPython): what they print, checked against the
engine (Game.check, engine/movegen.py) on positions built here move by move."""

import json
import re
from pathlib import Path

from engine import autoplay, calqable_replace, movegen, record
from engine.game import Game
from engine.profile import load
from host_tools.__main__ import main

REPO = Path(__file__).resolve().parent.parent
RULEBOOK = REPO / "tests" / "data" / "rulebook.json"
CALQABLE = REPO / "tests" / "data" / "calqable.json"
RACK = "9 6 + ÷ 2 ? 5"
RACK_KEYS = ["9", "6", "+", ":", "2", "?", "5"]


def cli(capsys, *args):
    """(exit status, stdout lines, stderr) of the command run in this process."""
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def position(path, turns=None):
    """The game after the record file's first `turns` turns (all by default), played here
    with Game.play / Game.replace."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    profile = load(str(REPO / "hardware" / "profiles" / (data["game"] + ".json")))
    game = Game(profile, data["players"], data.get("options"))
    for turn in data["turns"][:turns]:
        kind = "place" if "place" in turn else "replace"
        (game.play if kind == "place" else game.replace)(game.move(_text(turn[kind])))
    return game


def _text(pairs):
    return " ".join(sq + ":" + face for sq, face in pairs)


def write(tmp_path, data, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def rows(out):
    """The table rows of the text output: (rank, score, move text, calculation)."""
    found = []
    for line in out:
        m = re.match(r"^ *(\d+) +(\d+)  (\S.*?)  +(\S.*)$", line)
        if m:
            found.append((int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)))
    return found


def json_moves(out, replace=False):
    """The (move, score) of `--json` lines: the moves', or with `replace` the rule-5
    replacements' (those lines alone add `"replace": true`)."""
    lines = [json.loads(line) for line in out]
    for d in lines:
        assert sorted(d) in (["move", "score"], ["move", "replace", "score"]), d
        assert d.get("replace", True) is True, d
    return [(d["move"], d["score"]) for d in lines if d.get("replace", False) == replace]


# ----- hint -------------------------------------------------------------------------------


def test_hint_table_is_best_first_and_agrees_with_check(capsys):
    game = position(RULEBOOK)
    everything = list(movegen.scored(game, RACK_KEYS))
    status, out, err = cli(capsys, "hint", RULEBOOK, "--rack", RACK)
    assert (status, err) == (0, "")
    assert "player 2 to move after 5 turns" in out[0]
    assert "the 10 best moves" in out[0]  # not counted: the rest were not all built
    status, out_all, _ = cli(capsys, "hint", RULEBOOK, "--rack", RACK, "--all")
    assert "%d legal moves" % len(everything) in out_all[0]
    assert rows(out_all)[:10] == rows(out)
    table = rows(out)
    assert [r[0] for r in table] == list(range(1, 11))
    scores = [r[1] for r in table]
    assert scores == sorted(scores, reverse=True)
    assert scores[0] == max(s for _, s in everything)
    for _, score, text, calc in table:
        verdict = game.check(game.move(text))
        assert verdict.legal and verdict.score == score, (text, verdict)
        left, value = calc.split(" (")[0].rsplit(" = ", 1)
        runs = {(r.text, r.face_value) for r in verdict.runs}
        assert (left.replace(" ", ""), int(value)) in runs, (calc, runs)


def test_hint_all_json_lists_every_legal_move_once(capsys):
    game = position(RULEBOOK)  # the record's 5 turns
    expected = {str(m): s for m, s in movegen.scored(game, RACK_KEYS)}
    status, out, _ = cli(capsys, "hint", RULEBOOK, "--rack", RACK, "--all", "--json")
    assert status == 0
    full = json_moves(out)
    assert len(full) == len(expected) > 1000
    assert len({m for m, _ in full}) == len(full)
    assert dict(full) == expected
    assert full == sorted(full, key=lambda ms: (-ms[1], ms[0]))
    status, out, _ = cli(capsys, "hint", RULEBOOK, "--rack", RACK, "--top", 3, "--json")
    assert json_moves(out) == full[:3]
    status, out, _ = cli(capsys, "hint", RULEBOOK, "--rack", RACK, "--json")
    assert json_moves(out) == full[:10]
    assert out[0] == json.dumps({"move": full[0][0], "score": full[0][1]}, ensure_ascii=False)


def test_hint_rack_spellings(capsys):
    seen = []
    for rack in ("9 + 6 ÷ 2 ? x", "96+:2?*", "9,6,+,/,2,?,×", "9 6 + ÷ 2 ? X"):
        status, out, err = cli(capsys, "hint", RULEBOOK, "--rack", rack, "--all", "--json")
        assert (status, err) == (0, "")
        seen.append(out)
    assert seen[0] and all(s == seen[0] for s in seen)
    game = position(RULEBOOK)
    assert len(seen[0]) == len(list(movegen.scored(game, ["9", "+", "6", ":", "2", "?", "*"])))


def test_hint_bad_racks(capsys):
    game = position(RULEBOOK)
    rare = min((n, ch) for ch, n in game.unseen.items() if n < 7)
    face = {"*": "×", ":": "÷"}.get(rare[1], rare[1])
    cases = [
        ("9 % 2", "'%' is no chip face"),
        ("1 = 1", "'=' is no calculissimo chip"),
        (face * (rare[0] + 1), "only %d" % rare[0]),
        ("1234 5678", "8 chips, but player 2 holds 7"),
        ("", "no chips"),
    ]
    for rack, says in cases:
        status, out, err = cli(capsys, "hint", RULEBOOK, "--rack", rack)
        assert (status, out) == (2, []), rack
        assert err.count("\n") == 1 and err.startswith("hint: %s: rack: " % RULEBOOK), err
        assert says in err, (rack, err)


def test_hint_cal_q_able(capsys, tmp_path):
    data = json.loads(CALQABLE.read_text(encoding="utf-8"))
    data["turns"] = data["turns"][:1]
    path = write(tmp_path, data)
    game = position(path)
    status, out, err = cli(capsys, "hint", path, "--rack", "1 + 2", "--all")
    assert (status, err) == (0, "")
    table = rows(out)
    assert len(table) == len(list(movegen.scored(game, ["1", "+", "2"]))) > 0
    replaced = 0
    for _, score, text, calc in table:
        if text.startswith("rule 5: "):
            verdict = game.check_replace(game.move(text[8:]))[0]
            replaced += 1
        else:
            verdict = game.check(game.move(text))
        assert verdict.legal and verdict.score == score
        assert calc.split(" (")[0].replace(" ", "") in [r.text for r in verdict.runs]
    assert replaced == len(list(calqable_replace.replacements(game, ["1", "+", "2"])))
    # a nine-tile rack later in the game: the best ten, found without building every move,
    # are the first ten of every move
    turns = json.loads(CALQABLE.read_text(encoding="utf-8"))["turns"][:3]
    later = write(tmp_path, dict(data, turns=turns), "later.json")
    nine = "1 2 3 4 5 6 7 + ×"
    status, out, _ = cli(capsys, "hint", later, "--rack", nine, "--json")
    status_all, out_all, _ = cli(capsys, "hint", later, "--rack", nine, "--all", "--json")
    assert (status, status_all) == (0, 0)
    assert out == out_all[:10] and len(out_all) > 10
    game = position(later)
    rack = list("1234567+*")
    assert sorted(json_moves(out_all)) == sorted(
        (str(m), s) for m, s in movegen.scored(game, rack)
    )
    replaced = sorted((str(m), s) for m, s in calqable_replace.replacements(game, rack))
    assert sorted(json_moves(out_all, replace=True)) == replaced and replaced
    for rack, says in (("1 ?", "'?' is no calqable chip"), ("1 =", "open supply")):
        status, out, err = cli(capsys, "hint", path, "--rack", rack)
        assert (status, out) == (2, []) and says in err, err


def test_rule_5_in_hint_and_analyse(capsys, tmp_path):
    # 3 + 4 = 7 on row 8; the second player holds 7 and 0: laying the 7 on J8 in place of
    # 3 + 4 (7 = 7, +20) scores 29, more than any move of theirs (27)
    first = [["H8", "3"], ["I8", "+"], ["J8", "4"], ["K8", "="], ["L8", "7"]]
    data = {"game": "calqable", "players": 2, "turns": [{"place": first}]}
    path = write(tmp_path, data)
    game = position(path)
    move = game.move("J8:7")
    verdict = game.check_replace(move)[0]
    assert verdict.legal and verdict.score == 29 > movegen.best(game, ["7", "0"])[1]
    status, out, err = cli(capsys, "hint", path, "--rack", "7 0", "--json")
    assert (status, err) == (0, "")
    assert out[0] == json.dumps({"move": "J8:7", "score": 29, "replace": True})
    status, out, _ = cli(capsys, "hint", path, "--rack", "7 0")
    assert rows(out)[0] == (1, 29, "rule 5: J8:7", "7 = 7")
    # analyse: the second player, holding 7 and 0, passed (and lost 29), or replaced
    for second, lost in (({"pass": True}, 29), ({"replace": [["J8", "7"]]}, 0)):
        data["turns"] = data["turns"][:1] + [dict(second, rack=["7", "0"])]
        status, out, err = cli(capsys, "analyse", write(tmp_path, data), "--json")
        assert (status, err) == (0, "")
        line = json.loads(out[1])
        assert (line["best"], line["best_score"], line["lost"]) == ("J8:7", 29, lost), line
        assert line["best_replace"] is True
        status, out, _ = cli(capsys, "analyse", write(tmp_path, data))
        assert "rule 5: J8:7     29  %4d" % lost in out[2], out


def test_hint_bad_records_and_a_finished_game(capsys, tmp_path):
    status, out, err = cli(capsys, "hint", tmp_path / "none.json", "--rack", "1")
    assert (status, out) == (2, []) and "none.json" in err and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "calculissimo",\n "players": 9, "turns": []}', encoding="utf-8")
    status, out, err = cli(capsys, "hint", bad, "--rack", "1")
    assert (status, out) == (2, []) and "bad.json line 2: 'players'" in err, err
    over = write(tmp_path, {"game": "calculissimo", "players": 2, "turns": [{"pass": True}] * 2})
    status, out, err = cli(capsys, "hint", over, "--rack", "1 + 2")
    assert (status, out) == (1, []) and "game is over" in err and "Traceback" not in err
    status, out, err = cli(capsys, "hint", RULEBOOK, "--rack", "1", "--top", 0)
    assert status == 2 and "--top" in err


def test_hint_no_move_fits(capsys, tmp_path):
    empty = write(tmp_path, {"game": "calculissimo", "players": 2, "turns": []})
    status, out, err = cli(capsys, "hint", empty, "--rack", "+ - ×")
    assert (status, err) == (0, "")
    assert "0 legal moves" in out[0] and "no move fits" in out[1] and rows(out) == []
    status, out, _ = cli(capsys, "hint", empty, "--rack", "+ - ×", "--json")
    assert (status, out) == (0, [])


# ----- analyse ----------------------------------------------------------------------------


def self_play(seed, turns):
    """A seeded two-player known-rack game: odd turns play the generator's best move, even
    ones the greedy autoplay's. Returns (game, what each turn lost: best - played)."""
    profile = load(str(REPO / "hardware" / "profiles" / "calculissimo.json"))
    game = Game(profile, 2, seed=seed)
    lost = []
    for k in range(turns):
        _, best = movegen.best(game)
        if k % 2:
            move, score = movegen.best(game)
            game.push(move)
        else:
            action, verdict = autoplay.play_turn(game)
            score = verdict.score if action == "place" else 0
        lost.append((best or 0) - score)
    return game, lost


def test_analyse_self_play(capsys, tmp_path):
    game, lost = self_play(3, 8)
    assert any(n > 0 for n in lost), lost  # the greedy player misses something
    data = record.write(game, turn_racks=True)
    del data["turns"][4]["rack"]
    path = write(tmp_path, data)
    status, out, err = cli(capsys, "analyse", path, "--json")
    assert (status, err) == (0, "")
    lines = [json.loads(line) for line in out]
    assert len(lines) == 9 and lines[-1]["final"] is True
    for k, line in enumerate(lines[:-1]):
        assert (line["turn"], line["player"]) == (k + 1, k % 2 + 1)
        if k == 4:
            assert line["rack"] is None and "lost" not in line
            continue
        assert line["lost"] == lost[k], (k, line)
        assert line["best_score"] - line["score"] == lost[k]
        if k % 2:
            assert line["lost"] == 0 and line["best"] == line["move"]
    judged = [k for k in range(8) if k != 4]
    final = lines[-1]
    assert final["lost"] == [sum(lost[k] for k in judged if k % 2 == p) for p in (0, 1)]
    assert final["judged"] == [3, 4]
    status, out, _ = cli(capsys, "analyse", path)
    assert status == 0
    assert "no rack" in out[5] and out[5].split()[0] == "5"
    assert out[1].split()[-1] == str(lost[0])
    assert out[-2].split()[-1] == str(final["lost"][0])
    assert out[-1].split()[-1] == str(final["lost"][1])


def test_analyse_errors(capsys, tmp_path):
    game, _ = self_play(3, 2)
    data = record.write(game, turn_racks=True)
    data["turns"][0]["rack"] = ["1"] * 7  # it cannot hold the move played
    status, out, err = cli(capsys, "analyse", write(tmp_path, data))
    assert (status, out) == (2, []) and "turn 1: " in err and err.count("\n") == 1, err
    data["turns"][0]["rack"] = ["1", "%"]
    status, out, err = cli(capsys, "analyse", write(tmp_path, data))
    assert status == 2 and "game.json line" in err and "Traceback" not in err, err
