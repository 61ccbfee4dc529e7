"""The host tools end to end over a real serial line: the simulated board's pseudo-terminal.

The firmware runs on the simulated hardware in real time (host_tools/live.py) and speaks on
a pty, as the RP2040 does on USB; `config`, `enrol`, `games`, `watch` and `diag` open it
through host_tools/link.py, the same code that opens /dev/ttyACM0 on a real board.
"""

import json
import threading
import time

import pytest

from host_tools.__main__ import main
from host_tools.live import LiveBoard
from tools.positions import RULEBOOK


def lay(live, move):
    for pair in move.split():
        square, face = pair.split(":")
        live.place(square, face)
        live.run(400)


def press(live, name):
    live.press(name)
    live.run(150)


@pytest.fixture
def board(tmp_path):
    """A booted board on a pty, its flash in tmp_path; the loop thread runs only in `live`."""
    live = LiveBoard(tmp_path, speed=4)
    live.serial()
    live.run(100)
    yield live
    live.stop()


def run_cli(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_no_board_is_a_clear_message(capsys):
    for argv in (["config", "show"], ["games", "list"], ["watch"], ["diag"], ["enrol"]):
        status, out, err = run_cli(capsys, *argv, "--port", "/dev/no-such-board")
        assert status == 2
        assert "no board at /dev/no-such-board" in err
        assert "Traceback" not in out + err


def test_a_board_that_does_not_answer_is_named(capsys, board):
    board.repl = object()  # the firmware is stopped (as at the REPL): nothing answers
    from host_tools.link import Link, LinkError

    link = Link(board.port.path, timeout=0.5)
    with pytest.raises(LinkError, match="did not answer 'hello' within 0 s"):
        link.request("hello")
    link.close()


def test_config_show_set_refuse_and_restart(capsys, board):
    board.start()
    port = board.port.path
    status, out, _ = run_cli(capsys, "config", "show", "--port", port)
    assert status == 0 and "players         2   (default)" in out
    status, out, err = run_cli(capsys, "config", "set", "players=9", "--port", port)
    assert status == 1 and "refused: players must be 1 to 4" in err
    with open(board.root + "/settings.json", encoding="utf-8") as f:
        assert json.load(f) == {"game": "calculissimo", "current_ma": 500}  # untouched
    status, out, _ = run_cli(
        capsys, "config", "set", "players=3", "names=Ana,Rui,Eva", "language=fr", "--restart",
        "--port", port,
    )  # fmt: skip
    assert status == 0 and "restarting" in out
    with open(board.root + "/settings.json", encoding="utf-8") as f:
        assert json.load(f) == {
            "game": "calculissimo", "current_ma": 500, "players": 3, "names": ["Ana", "Rui", "Eva"],
            "language": "fr",
        }  # fmt: skip
    deadline = time.monotonic() + 5
    while board.boots < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert board.boots == 2  # the board restarted and read the new file
    status, out, _ = run_cli(capsys, "config", "get", "names", "--port", port)
    assert out.strip() == '["Ana", "Rui", "Eva"]'
    status, out, _ = run_cli(capsys, "config", "pull", "--port", port)
    assert json.loads(out)["language"] == "fr"


def test_config_validate_and_pin_maps(capsys, board, tmp_path):
    good = tmp_path / "good.json"
    good.write_text('{"players": 4, "strict": true}')
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": "four", "sensor": "sonar"}')
    assert run_cli(capsys, "config", "validate", str(good))[0] == 0
    status, out, _ = run_cli(capsys, "config", "validate", str(bad))
    assert status == 1
    assert "players must be a whole number" in out and "sensor must be one of nfc, hall" in out
    board.start()
    pins = tmp_path / "mine.json"
    pins.write_text('{"presence": {"kind": "74hc165"}}')
    status, _, err = run_cli(
        capsys, "config", "pins", "push", str(pins), "--port", board.port.path
    )
    assert status == 1 and "refused" in err
    assert not (tmp_path / "pins" / "mine.json").exists()


def test_enrol_maps_tags_on_the_board_and_on_the_pc(capsys, tmp_path):
    (tmp_path / "chips.json").write_text('{"chips": {}}')  # a new board: nothing enrolled
    live = LiveBoard(tmp_path, speed=4)
    port = live.serial()
    live.start()
    laid = []

    def player():  # lays whatever chip the board asks for, as soon as it asks
        squares = iter(["A1", "B1", "C1"])
        deadline = time.monotonic() + 20
        while len(laid) < 3 and time.monotonic() < deadline:
            service = live.board.app.service
            face = getattr(service, "face", None)
            if face is not None and (
                not laid or laid[-1][1] != face or service.count == len(laid)
            ):
                square = next(squares)
                live.place(square, face)
                laid.append((square, face))
            time.sleep(0.05)

    t = threading.Thread(target=player)
    t.start()
    save = tmp_path / "pc-chips.json"
    try:
        status, out, err = run_cli(
            capsys, "enrol", "--faces", "9,+,9", "--save", str(save), "--timeout", "10",
            "--port", port,
        )  # fmt: skip
    finally:
        t.join()
        live.stop()
    assert status == 0, err
    assert "Lay a 9 (1 of 2)" in out and "Lay a + (1 of 1)" in out and "Lay a 9 (2 of 2)" in out
    on_board = json.loads((tmp_path / "chips.json").read_text())["chips"]
    on_pc = json.loads(save.read_text())["chips"]
    assert on_board == on_pc
    assert sorted(on_board.values()) == ["+", "9", "9"]
    # After a restart the board knows those chips from its chips.json
    live = LiveBoard(tmp_path, speed=4)
    live.run(100)
    live.place("H8", "+")
    live.run(500)
    assert live.board.app.sensing.placed == {live.square("H8"): "+"}


def test_games_list_pull_export_and_replay(capsys, board, tmp_path):
    lay(board, RULEBOOK[0])
    press(board, "ok")
    lay(board, RULEBOOK[1])
    press(board, "ok")
    for _ in range(2):  # a round of passes ends it
        press(board, "ok")
        press(board, "ok")
    for _ in range(14):  # the leftover chips, entered with the buttons
        press(board, "ok")
    press(board, "ok")
    assert board.board.app.referee.mode == "over"
    final = board.board.app.referee.game.totals()
    board.start()
    port = board.port.path
    status, out, _ = run_cli(capsys, "games", "list", "--port", port)
    assert status == 0
    assert "games/001.dat" in out and "calculissimo, 2 players, 4 turns, totals %s" % final in out
    record = tmp_path / "rec.json"
    status, out, err = run_cli(capsys, "games", "export", "1", "-o", str(record), "--port", port)
    assert status == 0, err
    data = json.loads(record.read_text())
    assert data["game"] == "calculissimo" and data["profile"] == "default"
    assert [list(t) for t in data["turns"]][:2] == [["place"], ["place"]]
    assert len(data["end"]["racks"]) == 2 and len(data["end"]["racks"][0]) == 7
    # the exported record replays with the README's replay command to the board's totals
    status, out, _ = run_cli(capsys, "replay", str(record), "--json")
    assert json.loads(out.splitlines()[-1])["totals"] == final
    status, out, _ = run_cli(
        capsys, "games", "pull", "--dir", str(tmp_path / "pulled"), "--port", port
    )
    pulled = tmp_path / "pulled" / "001.dat"
    assert status == 0 and pulled.exists()
    board.stop()  # offline from here: the pulled file alone
    status, out, _ = run_cli(capsys, "games", "replay", str(pulled))
    assert status == 0 and "48" in out and "12" in out
    damaged = tmp_path / "damaged.dat"
    damaged.write_bytes(pulled.read_bytes()[:-3] + b"xyz")
    status, out, err = run_cli(capsys, "games", "export", str(damaged))
    assert status == 2 and "journal checksum wrong" in err


def test_watch_follows_the_game_and_checks_every_score(capsys, board):
    board.start()

    def players():
        time.sleep(0.8)
        for move in RULEBOOK[:2]:
            for pair in move.split():
                square, face = pair.split(":")
                board.place(square, face)
                time.sleep(0.15)
            time.sleep(0.3)
            board.press("ok")
            time.sleep(0.3)

    t = threading.Thread(target=players)
    t.start()
    status, out, _ = run_cli(capsys, "watch", "--seconds", "4.5", "--port", board.port.path)
    t.join()
    assert status == 0
    assert "P1 plays D8:9 E8:+ F8:6 G8:÷ H8:2: 48 points, totals 48 / 0" in out
    assert "checked: the PC scores it 48 too" in out
    assert "checked: the PC scores it 12 too" in out
    assert "2 moves checked, 0 disagreements" in out
    assert "  8 . . . 9 + 6 ÷ 2 . . . . . . ." in out  # the board drawn after the move
    state = board.board.app.referee.game
    assert state.totals() == [48, 12]


def test_watch_reports_a_board_that_mis_scores(capsys, board):
    from host_tools.cmd_watch import Watcher
    from host_tools.link import Link

    board.start()
    lines = []
    with Link(board.port.path) as link:
        w = Watcher(link, lines.append)
        w.sync()
        w.check({"ev": "move", "move": "D8:9 E8:+ F8:6 G8:÷ H8:2", "score": 47})
    assert w.mismatches == 1
    assert lines[-1] == "  !! MISMATCH: the board gave 47, the PC scores 48"


def test_watch_describes_the_boards_own_moves_and_hints():
    """A game against the board (issue 13): its moves, swaps and passes, the racks shown to
    it and the hints, one readable line each (the event lines firmware/referee.py writes)."""
    from host_tools.cmd_watch import describe

    said = [
        {"ev": "shown", "square": "A1", "face": "9"},
        {"ev": "computer", "player": 2, "level": 3, "move": "D6:9 D7:+ D9:?+", "score": 104},
        {"ev": "computer", "player": 2, "level": 4, "swap": ["*", ":", "?"], "score": 0},
        {"ev": "computer", "player": 1, "level": 1, "swap": None, "score": 0},
        {"ev": "hint", "player": 1, "move": "D8:9 E8:+", "score": 15, "hints": 1},
        {"ev": "hint", "player": 2, "move": None, "score": 0, "hints": 3},
        {"ev": "hint", "player": 1, "move": "D8:9", "score": 9, "hints": 2, "early": True},
        {"ev": "computer", "player": 2, "level": 3, "swap": ["0"], "score": 0, "short": True},
        {"ev": "stray", "square": "C3", "face": "7"},
    ]
    assert [describe(ev, ("Ana",)) for ev in said] == [
        "A1 shown: 9",
        "P2 (board, level 3) plays D6:9 D7:+ D9:?+ for 104",
        "P2 (board, level 4) swaps 3 chips: × ÷ ?",
        "Ana (board, level 1) passes",
        "Ana asks a hint: D8:9 E8:+ for 15 (hint 1)",
        "P2 asks a hint: no move found (hint 3)",
        "Ana asks a hint: D8:9 for 9 (hint 2), taken early",
        "P2 (board, level 3) swaps 1 chip: 0, out of memory",
        "C3: not the board's move (7), take it off",
    ]


def test_diag_reports_every_sensor_and_hands_the_chips_to_the_game(capsys, board):
    board.start()

    def maker():
        time.sleep(0.8)
        board.place("A1", "7")
        with board.lock:
            board.board.chain.set(board.square("O15"), True)  # a magnet with no tag

    t = threading.Thread(target=maker)
    t.start()
    status, out, _ = run_cli(capsys, "diag", "--seconds", "2.5", "--port", board.port.path)
    t.join()
    assert status == 0
    assert "A1   chip 7 (tag " in out and "O15  magnet, no tag" in out
    assert "1 squares sensed a chip and read its tag, 1 only a fault:" in out
    assert "  1 #.............." in out and " 15 ..............!" in out
    time.sleep(0.3)
    with board.lock:
        game = board.board.app.referee.game
        assert len(game.pending) == 1  # the 7 laid during the test is now the turn's chip


def test_flash_onto_the_running_simulated_board_then_configure_it(capsys, board, tmp_path):
    """mpremote interrupts the firmware with Ctrl-C, as on the RP2040, and the REPL twin
    (host_tools/repl_twin.py) takes the port; the soft reset boots the flashed files."""
    board.start()
    port = board.port.path
    build = str(tmp_path / "build")
    status, out, err = run_cli(capsys, "flash", "--port", port, "--build-dir", build)
    assert status == 0, err
    assert "board booted: game calculissimo, sensor nfc" in out
    assert board.boots == 2 and board.repl is None
    assert (tmp_path / "main.py").exists() and (tmp_path / "firmware" / "app.mpy").exists()
    # the same port, straight after: the firmware answers commands again
    status, out, _ = run_cli(capsys, "config", "get", "game", "--port", port)
    assert (status, out.strip()) == (0, '"calculissimo"')
    status, out, err = run_cli(capsys, "flash", "--port", port, "--build-dir", build)
    assert status == 0 and "copied 0" in out + err


def test_the_same_link_over_a_loopback_socket(capsys, tmp_path):
    """Where there are no pseudo-terminals the simulated board listens on 127.0.0.1; the
    host tools open `socket://...` with the same code."""
    live = LiveBoard(tmp_path, speed=4)
    url = live.serial(kind="socket")
    assert url.startswith("socket://127.0.0.1:")
    live.start()
    try:
        status, out, err = run_cli(capsys, "config", "set", "strict=true", "--port", url)
        assert status == 0, err
        status, out, _ = run_cli(capsys, "config", "get", "strict", "--port", url)
        assert (status, out.strip()) == (0, "true")
    finally:
        live.stop()


def test_games_list_reads_the_board_even_after_a_pull(capsys, board, tmp_path, monkeypatch):
    lay(board, RULEBOOK[0])
    press(board, "ok")
    for _ in range(2):
        press(board, "ok")
        press(board, "ok")
    for _ in range(15):
        press(board, "ok")
    board.start()
    pc = tmp_path / "pc"  # (tmp_path is the board's flash)
    pc.mkdir()
    monkeypatch.chdir(pc)  # `pull` writes games/001.dat here, the board's own name
    assert run_cli(capsys, "games", "pull", "--port", board.port.path)[0] == 0
    (pc / "games" / "001.dat").write_bytes(b"not the board's")
    status, out, err = run_cli(capsys, "games", "list", "--port", board.port.path)
    assert status == 0, err
    # the leftovers entered as offered: the zeros left in the set, then ones, twos...
    assert "games/001.dat" in out and "totals [43, -14]" in out


def test_the_same_chip_laid_twice_is_asked_for_again(capsys, tmp_path):
    (tmp_path / "chips.json").write_text('{"chips": {}}')
    live = LiveBoard(tmp_path, speed=4)
    port = live.serial()
    live.start()
    asked = []

    def player():  # lays a new 9, then that same 9 again when a + is asked, then another 9
        deadline = time.monotonic() + 20
        first = None
        while len(asked) < 3 and time.monotonic() < deadline:
            service = live.board.app.service
            face = getattr(service, "face", None)
            if face is not None and len(asked) == service.count:
                asked.append(face)
                square = "ABC"[len(asked) - 1] + "1"
                with live.lock:
                    if first is None:
                        live.board.put(live.square(square), face)
                        first = live.board.on_board[live.square(square)]
                    else:
                        if len(asked) == 2:  # the 9 from A1, picked up and laid on B1
                            live.board.take(live.square("A1"))
                            live.board.put(live.square(square), first[0], first[1])
                        else:  # a chip not laid before
                            fresh = live.board.tags[face].pop(0)
                            live.board.put(live.square(square), face, fresh)
            time.sleep(0.05)

    t = threading.Thread(target=player)
    t.start()
    try:
        status, out, err = run_cli(
            capsys, "enrol", "--faces", "9,+", "--save", str(tmp_path / "pc.json"),
            "--timeout", "10", "--port", port,
        )  # fmt: skip
    finally:
        t.join()
        live.stop()
    assert status == 0, out + err
    assert asked == ["9", "+", "9"]
    assert "(this chip was the 9 just before: lay another 9 later)" in out
    assert "2 chips enrolled" in out
    chips = json.loads((tmp_path / "chips.json").read_text())["chips"]
    assert sorted(chips.values()) == ["+", "9"]


def test_a_restart_keeps_the_chips_lying_on_the_simulated_board(board):
    lay(board, "H8:7")
    board.board.app.running = False  # as after the PC's `restart`
    board.board.app.restart = True
    board.run(20)
    assert board.boots == 2
    board.run(600)
    assert board.board.app.sensing.placed == {board.square("H8"): "7"}


def test_the_socket_port_never_hands_the_board_to_the_repl(capsys, tmp_path):
    live = LiveBoard(tmp_path, speed=4)
    url = live.serial(kind="socket")
    live.start()
    try:
        import serial

        s = serial.serial_for_url(url, timeout=0.5)
        s.write(b"\r\x03\r\x01print('hi')\x04")
        time.sleep(0.3)
        s.close()
        assert live.repl is None
        status, out, err = run_cli(capsys, "config", "get", "game", "--port", url)
        assert status == 0, out + err
    finally:
        live.stop()


def test_an_export_marks_the_boards_seats_and_the_hints():
    # issue 13: the archive's "about" holds them; the record keeps them as added keys
    from engine import record
    from engine.game import Game
    from host_tools.cmd_games import to_record
    from tests.engine.fixtures import default_profile

    game = Game(default_profile(), 2)
    about = {"racks": [[], []], "computer": [0, 4], "hints": [3, 0]}
    data = to_record(game, about)
    assert (data["computer"], data["hints"]) == ([0, 4], [3, 0])
    read = record.read(json.loads(json.dumps(data)))
    assert (read.computer, read.hints) == ([0, 4], [3, 0])
