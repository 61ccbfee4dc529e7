"""The first hour with the PC tools, through the real commands (issue 11): what a newcomer
types, from any folder, and what they read back."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SMARTBOARD = Path(sys.executable).parent / "smartboard"


def tool(*args, cwd=None, **kw):
    """`python -m host_tools ARGS` with this interpreter, from `cwd` (the repository's parent
    by default: the tools must not need to be run from the checkout)."""
    return subprocess.run(
        [sys.executable, "-m", "host_tools", *args],
        cwd=cwd or REPO.parent,
        check=False,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        **kw,
    )


def test_the_tools_run_from_any_folder(tmp_path):
    result = tool("--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "replay" in result.stdout


def test_smartboard_is_installed_beside_the_interpreter(tmp_path):
    # `make venv` installs the project (editable): the script runs from anywhere
    if not SMARTBOARD.is_file():  # a Python without the project installed (not `make venv`)
        import pytest

        pytest.skip("the project is not installed into this Python (make venv does it)")
    result = subprocess.run(
        [str(SMARTBOARD), "replay", str(REPO / "tests/data/rulebook.json")],
        cwd=tmp_path,
        check=False,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "48" in result.stdout


def test_replay_into_a_closed_pipe_ends_quietly():
    # `replay FILE | head -1`: the reader has gone before the replay writes
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "replay", str(REPO / "tests/data/rulebook.json")],
        cwd=REPO.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    proc.stderr.close()
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert proc.returncode == 0


def test_the_product_does_not_import_the_developer_tools():
    for path in sorted((REPO / "host_tools").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "from tools" not in text and "import tools" not in text, path.name


def run_cli(capsys, *argv):
    from host_tools.__main__ import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_config_validate_says_one_thing_with_the_file_and_line(capsys, tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{\n  "players": 9,\n  "colour": 1\n}\n', encoding="utf-8")
    status, out, _ = run_cli(capsys, "config", "validate", str(path))
    assert status == 1
    assert out.splitlines() == [
        "%s line 2: players must be 1 to 4" % path,
        "%s line 3: unknown setting colour" % path,
    ]
    assert "ignored" not in out and "default" not in out  # refused whole, not half used


def test_a_malformed_settings_file_is_named_with_its_line(capsys, tmp_path):
    path = tmp_path / "mine.json"
    path.write_text('{\n  "players": 3,\n  "names": ["Ana" "Rui"]\n}\n', encoding="utf-8")
    status, out, _ = run_cli(capsys, "config", "validate", str(path))
    assert status == 1
    assert out.strip() == "%s line 3 column 19: not valid JSON (Expecting ',' delimiter)" % path


def test_config_set_of_an_unknown_setting_is_one_refusal(capsys, tmp_path):
    from host_tools.live import LiveBoard

    live = LiveBoard(tmp_path, speed=4)
    live.serial()
    live.run(100)
    live.start()
    try:
        status, _, err = run_cli(capsys, "config", "set", "foo=1", "--port", live.port.path)
    finally:
        live.stop()
    assert status == 1
    assert err.strip() == "refused: unknown setting foo"


def test_a_second_watch_on_a_held_port_says_it_is_busy(capsys, tmp_path):
    from host_tools.link import Link
    from host_tools.live import LiveBoard

    live = LiveBoard(tmp_path, speed=4)
    path = live.serial()
    live.run(100)
    live.start()
    try:
        with Link(path):  # the first program holding the port
            status, _out, err = run_cli(capsys, "watch", "--port", path, "--seconds", "1")
    finally:
        live.stop()
    assert status == 2
    assert err.strip() == (
        "watch: %s is busy: another program has it open (another watch, mpremote, a serial"
        " terminal); close that one and try again" % path
    )
    assert "flash" not in err  # not sent off to reflash a board that is running


def test_a_sim_script_says_what_each_bad_line_is_and_fails():
    script = "place H8 Q\nfrob 1\nplace H8 9\nplace H8 7\nplace Z99 1\nlift A1\nwait x\nshow\n"
    result = tool("sim", "--text", "--script", "-", input=script)
    assert result.returncode == 1
    errors = [line for line in result.stdout.splitlines() if line.startswith('{"error"')]
    assert errors == [
        '{"error": "unknown chip face Q (the set has × + - 0 1 2 3 4 5 6 7 8 9 ÷ ?)", "line": 1}',
        (
            '{"error": "unknown command frob (commands: place, lift, press, wait, show, events)",'
            ' "line": 2}'
        ),
        '{"error": "H8 already has a chip: lift it first", "line": 4}',
        '{"error": "no square Z99 on this board", "line": 5}',
        '{"error": "A1 has no chip to lift", "line": 6}',
        '{"error": "usage: wait MS", "line": 7}',
    ]
    assert "|" in result.stdout  # the good lines still ran: `show` drew the display


def test_a_good_sim_script_exits_0():
    result = tool("sim", "--text", "--script", "-", input="place H8 9\nevents\n")
    assert result.returncode == 0, result.stdout
    assert '"ev": "placed"' in result.stdout


def test_enrol_keeps_the_pcs_copy_in_the_data_folder(capsys, tmp_path, monkeypatch):
    import threading
    import time

    from host_tools.live import LiveBoard

    home = tmp_path / "home"
    monkeypatch.setenv("SMARTBOARD_HOME", str(home))
    work = tmp_path / "work"  # where the newcomer typed the command
    work.mkdir()
    monkeypatch.chdir(work)
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "chips.json").write_text('{"chips": {}}')  # a new board: nothing enrolled
    live = LiveBoard(flash, speed=4)
    port = live.serial()
    live.start()
    laid = []

    def player():  # lays the chip the board asks for
        deadline = time.monotonic() + 20
        while not laid and time.monotonic() < deadline:
            if getattr(live.board.app.service, "face", None) == "7":
                live.place("A1", "7")
                laid.append("A1")
            time.sleep(0.05)

    t = threading.Thread(target=player)
    t.start()
    try:
        status, out, err = run_cli(
            capsys, "enrol", "--faces", "7", "--timeout", "10", "--port", port
        )
    finally:
        t.join()
    assert status == 0, err
    saved = home / "chips-calculissimo.json"
    assert ("%s holds a copy" % saved) in out
    assert list(work.iterdir()) == []  # nothing left in the current folder
    # and --restore without a FILE takes that copy back to the board
    (flash / "chips.json").write_text('{"chips": {}}')
    try:
        status, out, err = run_cli(capsys, "enrol", "--restore", "--port", port)
    finally:
        live.stop()
    assert status == 0, err
    assert "1 chip written to the board" in out


def test_watch_speaks_in_words_with_the_players_names(capsys, tmp_path):
    import json
    import threading
    import time

    from host_tools.live import LiveBoard

    settings = {"game": "calculissimo", "current_ma": 500, "names": ["Ana", "Rui"]}
    (tmp_path / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    live = LiveBoard(tmp_path, speed=4)  # a new board, booted with the names
    port = live.serial()
    live.start()

    def players():
        time.sleep(0.8)
        live.place("A1", "9")  # off the star, not touching anything: not legal
        time.sleep(0.6)
        live.press("ok")
        time.sleep(0.4)
        live.lift("A1")
        time.sleep(0.4)
        live.place("F8", "9")
        live.place("G8", "+")
        live.place("H8", "6")
        time.sleep(0.6)
        live.press("ok")

    t = threading.Thread(target=players)
    t.start()
    try:
        status, out, _ = run_cli(capsys, "watch", "--seconds", "4", "--port", port)
    finally:
        t.join()
        live.stop()
    assert status == 0
    assert "OK pressed" in out
    assert "not legal: cover the" in out  # the display's own words for first_move_off_start
    assert "first_move_off_start" not in out and 'name "ok"' not in out
    assert "Ana: not legal (cover the" in out
    assert "Ana plays F8:9 G8:+ H8:6: 48 points, totals 48 / 0" in out


def test_games_export_is_compact_and_names_the_players(capsys, tmp_path):
    import json

    from engine.rulebook import RULEBOOK
    from host_tools.live import LiveBoard

    settings = {"game": "calculissimo", "current_ma": 500, "names": ["Ana", "Rui"]}
    (tmp_path / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    live = LiveBoard(tmp_path, speed=4)
    live.serial()
    live.run(100)

    def press(name):
        live.press(name)
        live.run(150)

    for move in RULEBOOK[:2]:
        for pair in move.split():
            square, face = pair.split(":")
            live.place(square, face)
            live.run(400)
        press("ok")
    for _ in range(2):  # a round of passes ends it
        press("ok")
        press("ok")
    for _ in range(15):  # the leftover chips, entered with the buttons
        press("ok")
    assert live.board.app.referee.mode == "over"
    live.start()
    try:
        status, out, err = run_cli(capsys, "games", "export", "1", "--port", live.port.path)
    finally:
        live.stop()
    assert status == 0, err
    lines = out.splitlines()
    data = json.loads(out)
    assert data["names"] == ["Ana", "Rui"]
    assert '  "names": ["Ana", "Rui"],' in lines
    # one turn a line: the header, 6 turns, the end
    assert len(lines) < 20, out
    assert (
        '    {"place": [["D8", "9"], ["E8", "+"], ["F8", "6"], ["G8", "÷"], ["H8", "2"]]},'
        in lines
    )
    # and the score sheet of the exported record names them too
    record = tmp_path / "rec.json"
    record.write_text(out, encoding="utf-8")
    status, out, _ = run_cli(capsys, "replay", str(record))
    assert status == 0
    assert " Ana  Rui" in out and "Winner: Ana with" in out
