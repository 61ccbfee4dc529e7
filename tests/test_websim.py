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


def test_sim_command_serves_the_board_until_ctrl_c(tmp_path):
    root = tmp_path / "flash"
    proc = subprocess.Popen(
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
