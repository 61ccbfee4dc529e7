"""The web simulator's HTTP API (host_tools/websim.py), without a browser.

The server runs on a free port in a thread. The board's own loop thread is not started:
each test moves simulated time on with `live.run(ms)`, so what the board shows is fixed
while it is compared. The last test runs `python -m host_tools sim` as a user would.
"""

import http.client
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from host_tools import websim
from host_tools.live import LiveBoard

REPO = Path(__file__).resolve().parent.parent
FIRST_MOVE = [("D8", "9"), ("E8", "+"), ("F8", "6"), ("G8", "÷"), ("H8", "2")]


@pytest.fixture
def site(tmp_path):
    live = LiveBoard(tmp_path / "flash")
    live.run(200)  # booted, and the LED rail has risen (firmware/leds.py RAIL_RISE_MS)
    server = websim.make_server(live, 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield live, server.server_port
    server.shutdown()
    server.server_close()


def call(port, method, path, body=None, headers=None):
    """(status, content type, body bytes); `body` is sent as JSON unless it is bytes."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    head = {"Content-Type": "application/json"}
    head.update(headers or {})
    if body is not None and not isinstance(body, bytes):
        body = json.dumps(body).encode()
    conn.request(method, path, body=body, headers=head)
    reply = conn.getresponse()
    data = reply.read()
    conn.close()
    return reply.status, reply.getheader("Content-Type"), data


def api(port, method, path, body=None, **kw):
    status, ctype, data = call(port, method, path, body, **kw)
    assert ctype == "application/json", (status, data[:200])
    return status, json.loads(data)


def state(port, since=0):
    status, data = api(port, "GET", "/api/state?since=%d" % since)
    assert status == 200
    return data


def test_page_and_its_files(site):
    _, port = site
    status, ctype, page = call(port, "GET", "/")
    assert (status, ctype) == (200, "text/html; charset=utf-8")
    assert b'id="board"' in page and b'src="app.js"' in page and b'id="oled"' in page
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        status, ctype, data = call(port, "GET", "/" + name)
        assert status == 200 and ctype.startswith(kind)
        assert data == (websim.WEB / name).read_bytes()
    for path in ("/nothing.html", "/../websim.py", "/%2e%2e/websim.py", "/web/app.js"):
        status, data = api(port, "GET", path)
        assert status == 404 and data["error"].startswith("no such page")


def test_state_shape(site):
    _, port = site
    s = state(port)
    assert (s["game"], s["width"], s["height"]) == ("calculissimo", 15, 15)
    assert len(s["leds"]) == 225
    assert all(len(rgb) == 3 and all(0 <= v <= 255 for v in rgb) for rgb in s["leds"])
    assert len(s["oled"]) == 2048 and re.fullmatch("[0-9a-f]+", s["oled"])
    assert len(s["screen"]) == 8 and "New game" in s["screen"]
    assert s["box"]["9"] == 6 and s["box"]["?"] == 4 and len(s["box"]) == 15
    assert (s["names"], s["totals"], s["to_move"], s["mode"]) == (["P1", "P2"], [0, 0], 0, "play")
    assert s["chips"] == {} and s["serial"] is None
    assert [json.loads(line)["ev"] for line in s["events"]] == ["boot", "new_game"]
    assert s["count"] == 2 and state(port, since=2)["events"] == []
    board = s["board"]
    assert len(board["layout"]) == 225 and board["layout"][7 * 15 + 7] == "*"
    assert board["start"] == "H8" and board["cap_ma"] == 315
    assert board["legend"]["g"] == {
        "kind": "chip",
        "factor": 2,
        "colour": [0, 160, 60],
        "label": "green: number x2",
    }
    # an empty premium square glows dimly in its legend colour (green, number x2: D8)
    r, g, _ = s["leds"][7 * 15 + 3]
    assert 0 < g < 10 and r == 0


def test_oled_hex_is_the_glass(site):
    live, port = site
    for square, face in FIRST_MOVE:
        assert api(port, "POST", "/api/place", {"square": square, "face": face})[0] == 200
    live.run(600)
    hexed = bytes.fromhex(state(port)["oled"])
    lit = 0
    for y in range(64):
        for x in range(128):
            on = bool(hexed[y * 16 + x // 8] & (0x80 >> (x % 8)))
            assert on == bool(live.board.oled.glass(x, y)), (x, y)
            lit += on
    assert 300 < lit < 4000  # text on a dark screen


def test_a_move_laid_lifted_and_confirmed(site):
    live, port = site
    for square, face in FIRST_MOVE:
        assert api(port, "POST", "/api/place", {"square": square, "face": face}) == (
            200,
            {"ok": True},
        )
    s = state(port)
    assert s["chips"] == dict(FIRST_MOVE) and s["box"]["9"] == 5 and s["box"]["÷"] == 9
    live.run(600)
    s = state(port, since=2)
    assert [json.loads(line)["ev"] for line in s["events"]].count("placed") == 5
    assert json.loads(s["events"][-1])["score"] == 48
    for square in ("D8", "H8"):  # this turn's chips: green while the move is legal
        r, g, b = s["leds"][7 * 15 + "ABCDEFGH".index(square[0])]
        assert g > 40 and r == b == 0
    # a chip picked up goes back in the box, and the move is no longer legal
    assert api(port, "POST", "/api/lift", {"square": "H8"})[0] == 200
    live.run(300)
    s = state(port)
    assert "H8" not in s["chips"] and s["box"]["2"] == 6
    assert api(port, "POST", "/api/place", {"square": "H8", "face": "2"})[0] == 200
    live.run(600)
    assert api(port, "POST", "/api/press", {"button": "ok"}) == (200, {"ok": True})
    live.run(300)
    s = state(port)
    assert (s["totals"], s["to_move"]) == ([48, 0], 1)
    assert any('"ev": "move"' in line and '"score": 48' in line for line in s["events"])
    # BACK with nothing laid opens the menu
    api(port, "POST", "/api/press", {"button": "back"})
    live.run(300)
    assert state(port)["mode"] == "menu"


def test_errors_are_400_with_a_message(site):
    _, port = site
    assert api(port, "POST", "/api/place", {"square": "H8", "face": "2"})[0] == 200
    for square in ("A1", "A2"):  # the set's two 0 chips
        assert api(port, "POST", "/api/place", {"square": square, "face": "0"})[0] == 200
    cases = [
        ("/api/place", b"{", "bad JSON"),
        ("/api/place", b"[1, 2]", "JSON object"),
        ("/api/place", {"square": "Z99", "face": "3"}, "Z99"),
        ("/api/place", {"square": "B2", "face": "%"}, "no chip '%'"),
        ("/api/place", {"square": "B2"}, "face must be"),
        ("/api/place", {"square": 17, "face": "3"}, "square must be"),
        ("/api/place", {"square": "H8", "face": "3"}, "H8 already holds a chip"),
        ("/api/place", {"square": "B2", "face": "0"}, "no 0 chip left"),
        ("/api/lift", {"square": "C3"}, "no chip there"),
        ("/api/press", {"button": "fire"}, "button must be"),
        ("/api/press", {}, "button must be"),
    ]
    for path, body, words in cases:
        status, data = api(port, "POST", path, body)
        assert status == 400 and words in data["error"], (path, body, data)
    status, data = api(
        port, "POST", "/api/press", b'{"button": "ok"}', headers={"Content-Type": "text/plain"}
    )
    assert status == 400 and "Content-Type" in data["error"]
    status, data = api(port, "GET", "/api/state?since=yes")
    assert status == 400 and "since" in data["error"]
    status, data = api(port, "POST", "/api/explode", {})
    assert status == 404 and "explode" in data["error"]
    status, data = api(port, "DELETE", "/api/state")  # no CORS preflight either
    assert status == 501 and "Unsupported method" in data["error"]
    # nothing refused changed the board
    assert state(port)["chips"] == {"H8": "2", "A1": "0", "A2": "0"}


def test_only_this_computer(site):
    _, port = site
    status, data = api(port, "GET", "/api/state", headers={"Host": "evil.example:80"})
    assert status == 403 and "only this computer" in data["error"]
    status, _ = api(port, "GET", "/api/state", headers={"Host": "localhost:%d" % port})
    assert status == 200


def _read_until(fd, words, seconds=5):
    got = b""
    end = time.monotonic() + seconds
    while words not in got and time.monotonic() < end:
        if select.select([fd], [], [], 0.1)[0]:
            got += os.read(fd, 4096)
    return got


def _popen_hearing_ctrl_c(args, **kw):
    """Popen with SIGINT at its default in the child, as a terminal's Ctrl-C finds it.

    Tests started in the background by a non-interactive shell (`make test &`) inherit
    SIGINT ignored, and a child would too (exec keeps an ignored signal ignored, but resets a
    caught one to its default): so SIGINT is caught here while the child starts."""
    was = signal.getsignal(signal.SIGINT)
    if was == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(args, **kw)
    finally:
        if was == signal.SIG_IGN:
            signal.signal(signal.SIGINT, was)


def test_sim_command_serves_the_board_until_ctrl_c(tmp_path):
    root = tmp_path / "flash"
    proc = _popen_hearing_ctrl_c(
        [sys.executable, "-m", "host_tools", "sim", "--no-browser", "--web-port", "0"]
        + ["--root", str(root)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        encoding="utf-8",
    )
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", lines[0])
        assert url, lines
        port = int(url.group(1))
        serial = lines[1].split("--port ")[1].strip()
        assert lines[1].startswith("host tools can talk to the board: ")
        assert " watch --port " in lines[1]
        assert (root / "settings.json").exists() and (root / "pins").is_dir()
        assert state(port)["serial"] == serial
        # the board's USB port carries its event lines, as on a real board
        fd = os.open(serial, os.O_RDWR | os.O_NOCTTY)
        try:
            api(port, "POST", "/api/place", {"square": "H8", "face": "7"})
            assert b'"ev": "placed", "square": "H8", "face": "7"' in _read_until(fd, b'"7"}')
        finally:
            os.close(fd)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0
    assert "Traceback" not in err and err == ""
    assert "switched off" in out


# ----- issue 11, "The first hour": what a newcomer reads on the page and the display -----


def run_until(live, pred, ms=8000, step=100):
    """Run the board until `pred()` holds (at most `ms` of board time)."""
    for _ in range(ms // step):
        if pred():
            return True
        live.run(step)
    return pred()


def to_tally(live, port):
    """The rulebook's first move, then a round of passes: the game is over, the tally on."""
    for square, face in FIRST_MOVE:
        api(port, "POST", "/api/place", {"square": square, "face": face})
    live.run(1500)
    for button in ("ok", "ok", "ok", "ok", "ok"):  # OK the move; then P2, P1 pass (menu, OK)
        api(port, "POST", "/api/press", {"button": button})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "tally")


def finish_tally(live, port):
    """Every leftover chip entered with OK (whatever the board offers), then the scores."""
    for player in (1, 2):
        for _ in range(7):
            api(port, "POST", "/api/press", {"button": "ok"})
        assert run_until(live, lambda: live.idle(), 20000)
        assert state(port)["tally"]["done"] is (player == 2)
    api(port, "POST", "/api/press", {"button": "ok"})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "over", 20000)


def test_the_hint_follows_every_mode():
    from firmware import referee

    # every mode of the referee, and every service mode a PC tool can start, has words
    for mode in referee.MODES:
        assert mode in live_mod().HINTS and live_mod().HINTS[mode], mode
    for name in ("diag", "enrol", "repl", "problem", "tally_done"):
        assert live_mod().HINTS[name]


def live_mod():
    from host_tools import live

    return live


def pc_command(live, **cmd):
    """A command line from the PC, as host_tools sends it over USB."""
    with live.lock:
        live.board.usb_in.extend((json.dumps(cmd) + "\n").encode())
    live.run(200)


def test_the_hint_and_the_display_agree_in_the_pc_service_modes(site):
    live, port = site
    assert state(port)["hint"].startswith("Lay chips on the board")
    pc_command(live, cmd="diag", on=True, id=205781825)
    s = state(port)
    assert s["screen"][0] == "Sensor test" and s["service"] == "diag"
    assert s["hint"].startswith("Sensor test") and "Lay chips on the board" not in s["hint"]
    pc_command(live, cmd="diag", on=False, id=2)
    pc_command(live, cmd="enrol", face="7", id=3)
    s = state(port)
    assert s["screen"][0] == "Enrol chips" and s["hint"].startswith("Enrolling chips")
    pc_command(live, cmd="enrol", stop=True, id=4)
    assert state(port)["hint"].startswith("Lay chips on the board")
    api(port, "POST", "/api/press", {"button": "back"})  # nothing laid: the menu
    live.run(300)
    s = state(port)
    assert s["mode"] == "menu" and s["hint"].startswith("Menu")


def test_the_page_gets_the_boards_own_reason_words(site):
    live, port = site
    from firmware import i18n

    s = state(port)
    assert s["lang"] == "en" and s["reasons"] == i18n.reasons("en")
    api(port, "POST", "/api/place", {"square": "A1", "face": "9"})  # off the centre
    live.run(800)
    s = state(port)
    words = s["reasons"]["first_move_off_start"]
    assert " ".join(s["screen"][5:]).strip() == "Illegal: " + words  # one text, both places
    preview = [json.loads(line) for line in s["events"] if '"preview"' in line][-1]
    assert preview["codes"] == ["first_move_off_start"]


def test_reasons_in_the_boards_language(tmp_path):
    root = tmp_path / "flash"
    live_mod().populate(str(root))  # a freshly flashed board, its language set before boot
    settings = json.loads((root / "settings.json").read_text())
    settings["language"] = "fr"
    (root / "settings.json").write_text(json.dumps(settings))
    live = LiveBoard(root)
    live.run(200)
    live.place("A1", "9")
    live.run(800)
    s = live.state()
    assert s["lang"] == "fr" and s["reasons"]["first_move_off_start"] == "couvrez le centre"
    assert " ".join(s["screen"][5:]).strip() == "Interdit : couvrez le centre"


def test_the_led_budget_is_explained_in_the_state(site):
    live, port = site
    for square, face in FIRST_MOVE:
        api(port, "POST", "/api/place", {"square": square, "face": face})
    live.run(800)
    s = state(port)
    power = s["board"]["power"]
    assert (power["supply_ma"], power["board_ma"], power["dark_ma"]) == (500, 185, 225)
    assert s["board"]["cap_ma"] == power["supply_ma"] - power["board_ma"] == 315
    assert power["on"] and power["why"] is None
    assert s["milliamps"] <= s["board"]["cap_ma"]  # the board keeps within it by dimming


def test_after_the_game_no_one_is_to_play_and_the_tally_says_what_ok_enters(site):
    live, port = site
    to_tally(live, port)
    s = state(port)
    assert s["in_turn"] is False  # no "to play" on the scores card
    assert s["tally"] == {
        "player": 1,
        "name": "P1",
        "left": 7,
        "face": "0",
        "done": False,
        "racks": [[], []],
    }
    assert s["screen"][3] == "OK enters 0" and s["screen"][5] == "P1: 7 chips left"
    assert s["screen"][1].startswith(">P1")  # the player counting is the one marked
    assert "P1 counts the chips left" in s["hint"] and "enters 0" in s["hint"]
    # the page enters leftover chips with the board's own buttons: ▶ ... OK
    assert api(port, "POST", "/api/tally", {"face": "7"}) == (200, {"ok": True})
    assert run_until(live, lambda: live.idle())
    s = state(port)
    assert s["tally"]["racks"] == [["7"], []] and s["tally"]["face"] == "7"
    assert s["screen"][3] == "OK enters 7" and s["screen"][5] == "P1: 6 chips left"
    # or lays them, as before
    api(port, "POST", "/api/place", {"square": "A1", "face": "3"})
    assert run_until(live, lambda: live.idle() and state(port)["tally"]["left"] == 5)
    for face in "01245":
        assert api(port, "POST", "/api/tally", {"face": face})[0] == 200
    assert run_until(live, lambda: live.idle() and state(port)["tally"]["player"] == 2, 20000)
    for face in "999999":
        api(port, "POST", "/api/tally", {"face": face})
    assert run_until(live, lambda: live.idle() and state(port)["tally"]["left"] == 2, 20000)
    s = state(port)
    assert s["screen"][5] == "P2: 2 chips left"
    assert api(port, "POST", "/api/tally", {"face": "9"}) == (
        400,
        {"error": "no 9 chip left to count"},  # the set's six: five counted, one on D8
    )
    for face in "+÷":
        api(port, "POST", "/api/tally", {"face": face})
    assert run_until(live, lambda: live.idle() and state(port)["tally"]["done"], 20000)
    assert state(port)["screen"][5] == "All counted: OK"
    status, data = api(port, "POST", "/api/tally", {"face": "1"})
    assert status == 400 and "press OK" in data["error"]
    api(port, "POST", "/api/press", {"button": "ok"})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "over")
    s = state(port)
    assert s["in_turn"] is False and s["tally"] is None and s["screen"][0] == "Game over"
    assert not any(line.startswith(">") for line in s["screen"][1:3])


def test_clear_the_board_lifts_every_chip_after_the_game(site):
    live, port = site
    api(port, "POST", "/api/place", {"square": "H8", "face": "2"})
    live.run(600)
    s = state(port)
    assert s["can_clear"] is False  # a move being laid: not the moment
    to_play = {"square": "D8", "face": "9"}
    api(port, "POST", "/api/lift", {"square": "H8"})
    live.run(300)
    to_tally(live, port)
    status, data = api(port, "POST", "/api/clear", {})
    assert status == 400 and "game is on" in data["error"]  # its chips stay for the tally
    finish_tally(live, port)
    s = state(port)
    assert s["can_clear"] is True and len(s["chips"]) == 5
    since = s["count"]
    assert api(port, "POST", "/api/clear", {}) == (200, {"ok": True, "lifted": 5})
    assert state(port)["chips"] == {}  # where the hands have put them: at once
    assert run_until(live, live.idle)
    lifted = [json.loads(x) for x in state(port, since)["events"] if '"lifted"' in x]
    assert [ev["square"] for ev in lifted] == ["D8", "E8", "F8", "G8", "H8"]  # one by one
    api(port, "POST", "/api/press", {"button": "ok"})  # a new game on the clear board
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "play")
    s = state(port)
    assert s["totals"] == [0, 0] and s["in_turn"] and s["can_clear"] is False
    assert api(port, "POST", "/api/place", to_play)[0] == 200


def test_a_finished_game_is_not_offered_again_after_a_restart(site):
    live, port = site
    to_tally(live, port)
    finish_tally(live, port)
    with live.lock:
        live.board.app.restart = True  # as `config set ... --restart` does
        live.board.app.running = False
    live.run(600)
    s = state(port)
    assert "Resume game?" not in s["screen"] and s["mode"] != "resume"


# ----- colours apart for the colour-blind too --------------------------------------------

# Machado, Oliveira & Fernandes (2009), deuteranopia at severity 1.0, on linear RGB.
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
# What the board's LEDs say besides the players (firmware/leds.py), as the page draws them.
SIGNALS = ("legal", "bad_run", "other_new", "last_move", "joker", "unknown")
APART = 20  # CIE76 ΔE every player colour keeps from every other colour, seen either way


def _linear(v):
    v /= 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _encoded(v):
    v = min(1.0, max(0.0, v))
    return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def deuteranope(rgb):
    """How a deuteranope sees the sRGB colour `rgb` (Machado 2009)."""
    lin = [_linear(c) for c in rgb]
    return tuple(_encoded(sum(row[k] * lin[k] for k in range(3))) for row in DEUTERANOPIA)


def lab(rgb):
    r, g, b = (_linear(c) for c in rgb)
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a, b):
    return sum((x - y) ** 2 for x, y in zip(lab(a), lab(b))) ** 0.5


def as_drawn(rgb):
    """An LED colour as the page draws it: full hue (app.js ledLook)."""
    peak = max(rgb)
    return tuple(round(v * 255 / peak) for v in rgb) if peak else (0, 0, 0)


def colour_distances(players, signals):
    """(ΔE for normal vision, ΔE for a deuteranope, "P2-other_new") for every player colour
    against every signal colour and every other player's, closest first."""
    out = []
    named = list(signals.items()) + [("P%d" % (k + 1), c) for k, c in enumerate(players)]
    for k, colour in enumerate(players):
        for name, other in named:
            if name == "P%d" % (k + 1) or (name[0] == "P" and int(name[1:]) < k + 1):
                continue
            normal = delta_e(colour, other)
            seen = delta_e(deuteranope(colour), deuteranope(other))
            out.append((round(normal, 1), round(seen, 1), "P%d-%s" % (k + 1, name)))
    return sorted(out, key=lambda d: min(d[0], d[1]))


def test_the_page_gets_the_firmwares_colours(site):
    from firmware import leds as L

    _, port = site
    colours = state(port)["board"]["colours"]
    assert colours["players"] == [list(c) for c in L.COLOURS[L.PLAYER : L.PLAYER + 4]]
    assert colours["other_new"] == list(L.COLOURS[L.AMBER])


def test_the_boards_player_colours_stay_apart_for_deuteranopes():
    from firmware import leds as L

    players = L.COLOURS[L.PLAYER : L.PLAYER + 4]
    signals = {k: as_drawn(L.COLOURS[i]) for k, i in zip(SIGNALS, (2, 3, 4, 1, 6, 5))}
    closest = colour_distances(players, signals)[0]
    assert min(closest[0], closest[1]) >= APART, closest


# ----- issue 13: a game against the board, and hints ---------------------------------------


def events_of(s, kind):
    return [ev for ev in map(json.loads, s["events"]) if ev["ev"] == kind]


def test_a_few_turns_against_the_board_and_a_hint(site):
    live, port = site
    for square, face in FIRST_MOVE[:2]:  # a game under way: the new game replaces it
        api(port, "POST", "/api/place", {"square": square, "face": face})
    body = {"players": 2, "computer": [0, 3], "hints": True}
    assert api(port, "POST", "/api/new_game", body) == (200, {"ok": True})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "play")
    saved = json.loads((Path(live.root) / "settings.json").read_text())
    assert (saved["computer"], saved["hints"], saved["current_ma"]) == ([0, 3], True, 500)
    s = state(port)
    assert s["chips"] == {} and s["totals"] == [0, 0] and "Resume game?" not in s["screen"]
    table = s["table"]
    assert table["seats"] == [0, 3] and table["setup"]["computer"] == [0, 3]
    assert table["asks"] is None and table["racks"] == []
    since = s["count"]

    # P1, a person, plays; then the board asks for its rack, which the PC deals
    for square, face in FIRST_MOVE:
        api(port, "POST", "/api/place", {"square": square, "face": face})
    live.run(1500)
    api(port, "POST", "/api/press", {"button": "ok"})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "show_rack")
    s = state(port)
    assert s["table"]["asks"] == {"player": 2, "hint": False, "count": 7, "level": 3}
    (rack,) = s["table"]["racks"]
    assert rack["player"] == 2 and len(rack["hand"]) == 7 and rack["shown"] == {}
    # the box no longer holds the board's rack: 100 chips, 5 on the board, 7 in the rack
    assert sum(s["box"].values()) == 100 - 5 - 7
    assert "asks for P2's rack" in s["hint"]
    status, data = api(port, "POST", "/api/follow", {})
    assert status == 400 and "no move" in data["error"]

    # one click lays it on free squares; OK, and the board thinks and names its move
    status, data = api(port, "POST", "/api/show_rack", {})
    assert status == 200 and data["squares"] == ["A15", "B15", "C15", "D15", "E15", "F15", "G15"]
    assert run_until(live, live.idle)
    s = state(port, since)
    assert [ev["square"] for ev in events_of(s, "shown")] == data["squares"]
    assert s["table"]["rack_shown"] == data["squares"] and s["table"]["racks"][0]["hand"] == []
    api(port, "POST", "/api/press", {"button": "ok"})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "guide")
    s = state(port, since)
    (said,) = events_of(s, "computer")
    guide = s["table"]["guide"]
    assert (said["player"], said["level"]) == (2, 3)
    assert (guide["move"], guide["score"]) == (said["move"], said["score"])
    first = guide["chips"][0]
    assert " ".join(s["screen"][5:]).strip().startswith("Lay %s on %s" % (first[1], first[0]))

    # one click moves each chip to its square and lifts the rest; OK plays it
    status, data = api(port, "POST", "/api/follow", {})
    assert status == 200 and data["laid"] == len(guide["chips"])
    assert run_until(live, live.idle, 20000)
    s = state(port)
    assert s["screen"][5].startswith("Laid: OK plays %d" % said["score"])
    assert s["table"]["rack_shown"] == []
    for square, face in guide["chips"]:
        assert s["chips"][square] == face
    api(port, "POST", "/api/press", {"button": "ok"})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "play")
    s = state(port, since)
    assert s["totals"] == [48, said["score"]] and s["to_move"] == 0
    assert events_of(s, "move")[-1]["move"] == said["move"]
    left = s["table"]["racks"][0]["hand"]
    assert len(left) == 7 - len(guide["chips"])  # what it did not play stays in its rack

    # P1 asks a hint through the board's menu; the PC deals P1 a rack to show
    assert api(port, "POST", "/api/hint", {}) == (200, {"ok": True})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "show_rack")
    s = state(port)
    assert s["table"]["asks"]["hint"] is True and "A hint" in s["hint"]
    pressed = [ev["name"] for ev in events_of(s, "button")]
    # BACK opens the menu (pass, swap, hint, back), ▶ ▶ from "pass" to "hint", OK
    assert pressed[-4:] == ["back", "right", "right", "ok"]
    api(port, "POST", "/api/show_rack", {})
    assert run_until(live, live.idle)
    api(port, "POST", "/api/press", {"button": "ok"})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "hint")
    s = state(port, since)
    (hint,) = events_of(s, "hint")
    assert (hint["player"], hint["hints"]) == (1, 1)
    assert s["table"]["hint_move"] == {"player": 1, "move": hint["move"], "score": hint["score"]}
    assert " ".join(s["screen"][5:]).startswith("Hint %d pts" % hint["score"])
    api(port, "POST", "/api/press", {"button": "back"})  # back to the move
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "play")
    s = state(port)
    assert s["hint"].startswith("First: Lift the chip on")
    assert api(port, "POST", "/api/take_rack", {}) == (200, {"ok": True, "lifted": 7})
    assert run_until(live, live.idle)
    s = state(port)
    assert s["hint"].startswith("Lay chips on the board") and s["table"]["rack_shown"] == []
    assert len(s["table"]["racks"]) == 2  # P1's rack is kept for the next hint


def test_the_table_refuses_what_the_board_does_not_ask_for(site):
    live, port = site
    cases = [
        ("/api/show_rack", {}, "not asking for a rack"),
        ("/api/follow", {}, "no move to lay"),
        ("/api/take_rack", {}, "no rack is shown"),
        ("/api/new_game", {"computer": [0, 9]}, "computer level"),
        ("/api/new_game", {"players": 7}, "players must be 2 to 4"),
        ("/api/new_game", {"hints": "yes"}, "hints must be true or false"),
        ("/api/new_game", {"computer": 3}, "computer must be a list"),
    ]
    for path, body, words in cases:
        status, data = api(port, "POST", path, body)
        assert status == 400 and words in data["error"], (path, body, data)
    api(port, "POST", "/api/new_game", {"hints": False})
    assert run_until(live, lambda: live.idle() and state(port)["mode"] == "play")
    status, data = api(port, "POST", "/api/hint", {})
    assert status == 400 and "hints are off" in data["error"]
    assert json.loads((Path(live.root) / "settings.json").read_text())["hints"] is False


def test_the_boards_rack_comes_back_when_it_swaps_or_passes(tmp_path):
    """The hands follow the board's events: its rack shown is lifted when it does not move,
    the chips it swapped go back in the bag, and a move's chips leave its player's rack."""
    live = LiveBoard(tmp_path / "flash")
    live.new_game(players=2, computer=[3, 0])
    assert run_until(live, lambda: live.idle() and live.state()["mode"] == "show_rack")
    shown = live.show_rack()
    assert run_until(live, live.idle)
    hand = list(live.hands[0])
    with live.lock:
        live._table(json.dumps({"ev": "computer", "player": 1, "level": 3, "swap": hand[:2]}))
        assert [item[0] for item in live.inputs] == ["take"] * 7  # the rack lifted
        assert live.hands[0] == hand[2:] and live.shown == {}
        live._table(json.dumps({"ev": "move", "player": 1, "move": "%s:%s" % (shown[0], hand[2])}))
        assert live.hands[0] == hand[3:]
