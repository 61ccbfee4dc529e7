"""What reaches the simulated board (host_tools/live.py): the players' hands, and its USB port.

A button pressed or a chip laid on the web page must reach the firmware even when the board's
clock lags behind real time (a busy PC): `LiveBoard` queues every input and plays them in
order in the board's own time, each one held or left long enough for the firmware to sense
it. The tests queue inputs back to back while the board's stepping is starved (the loop not
stepping at all between them, or stepping slower than real time) and read the board's event
lines: every "button", "placed" and "lifted" must be there, once each, in order.

The loopback socket that stands for the USB port where there are no pseudo-terminals must
never take commands from a web page: a connection that does not start with a JSON line (an
HTTP request) is closed and nothing it sent reaches the board.
"""

import json
import socket
import time
from pathlib import Path

import pytest

from host_tools.live import LiveBoard

# Back to back, as fast as a player clicks: the same button twice, a chip laid and lifted at
# once, a chip on the same square again, a lift right before a press.
INPUTS = [
    ("press", "back"),  # the menu opens (nothing laid)
    ("press", "back"),  # and closes again
    ("place", "H8", "7"),
    ("lift", "H8"),
    ("place", "H8", "2"),
    ("place", "G8", "+"),
    ("press", "right"),
    ("press", "right"),
    ("lift", "G8"),
    ("press", "left"),
    ("lift", "H8"),
    ("press", "back"),
    ("press", "back"),
]


def give(live, item):
    kind, args = item[0], item[1:]
    getattr(live, kind)(*args)


def played(live):
    """The presses and chips the firmware saw, from its event lines, as INPUTS writes them."""
    out = []
    for line in live.lines:
        ev = json.loads(line)
        if ev["ev"] == "button":
            out.append(("press", ev["name"]))
        elif ev["ev"] == "placed":
            out.append(("place", ev["square"], ev["face"]))
        elif ev["ev"] == "lifted":
            out.append(("lift", ev["square"]))
    return out


@pytest.fixture
def live(tmp_path):
    live = LiveBoard(tmp_path / "flash")
    live.run(100)
    yield live
    live.stop()


def test_inputs_queued_while_the_board_stands_still_all_arrive_in_order(live):
    """Every input given before the board runs one more step: none may be merged or lost."""
    for item in INPUTS:
        give(live, item)
    live.run(len(INPUTS) * 500)  # ample board time; what matters is what the firmware saw
    assert played(live) == INPUTS


def test_inputs_reach_a_board_that_lags_behind_real_time(live, monkeypatch):
    """The loop thread runs, but every step costs 15 ms of the PC's time for 10 ms of the
    board's: the board falls behind while the inputs come as fast as clicks."""
    tick = live.tick

    def slow_tick():
        time.sleep(0.015)
        tick()

    monkeypatch.setattr(live, "tick", slow_tick)
    live.start()
    for item in INPUTS:
        give(live, item)
        time.sleep(0.005)
    deadline = time.monotonic() + 60
    while len(played(live)) < len(INPUTS) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # nothing more comes (no input twice)
    assert played(live) == INPUTS


def until_idle(live, limit_ms=20_000):
    """Run the board, in its own time, until every input has been played and sensed."""
    for _ in range(limit_ms // 10):
        if live.idle():
            return
        live.run(10)
    raise AssertionError("inputs still waiting after %d ms of board time" % limit_ms)


def test_a_press_is_held_past_the_debounce_and_released_before_the_next(live):
    """The buttons' levels as each step of the firmware reads them: one button down at a
    time, for as long as the debounce asks, however short the hold asked for; then up for at
    least a step before the next press."""
    app = live.board.app
    seen = []  # (ticks, buttons down) as each step starts
    step = app.step

    def watched():
        down = tuple(name for name, pin in live.board.pins.items() if not pin.value())
        seen.append((live.board.clock.ticks_ms(), down))
        step()

    app.step = watched
    presses = ["back", "back", "left", "right", "right", "left"]
    for name in presses:
        live.press(name, hold=1)
    until_idle(live)
    runs = []  # [button, first ticks, last ticks] of each stretch held down
    for ticks, down in seen:
        assert len(down) <= 1, down  # never two buttons at once
        if not down:
            runs.append(None)
        elif runs and runs[-1] is not None and runs[-1][0] == down[0]:
            runs[-1][2] = ticks
        else:
            runs.append([down[0], ticks, ticks])
    held = [r for r in runs if r is not None]
    assert [r[0] for r in held] == presses  # a step with none down between any two
    for _, first, last in held:
        assert last - first >= app.buttons.debounce_ms
    assert played(live) == [("press", name) for name in presses]


def test_the_chips_are_where_the_hands_put_them_before_the_board_senses_them(live):
    box = live.state()["box"]
    live.place("H8", "7")
    s = live.state()
    assert s["chips"] == {"H8": "7"} and s["box"]["7"] == box["7"] - 1 and s["inputs"] == 1
    assert live.board.on_board == {}  # nothing has reached the twins yet
    with pytest.raises(ValueError, match="H8 already holds a chip"):
        live.place("H8", "2")
    live.lift("H8")
    live.place("H8", "2")  # the 7 is back in the box, H8 is free again
    with pytest.raises(ValueError, match="no chip there"):
        live.lift("G8")
    live.place("A1", "0")
    live.place("A2", "0")
    with pytest.raises(ValueError, match="no 0 chip left"):
        live.place("A3", "0")  # the set has two
    with pytest.raises(ValueError, match="no button"):
        live.press("fire")
    s = live.state()
    assert s["chips"] == {"H8": "2", "A1": "0", "A2": "0"} and s["box"]["7"] == box["7"]
    until_idle(live)
    assert live.state()["inputs"] == 0
    assert played(live) == [
        ("place", "H8", "7"),
        ("lift", "H8"),
        ("place", "H8", "2"),
        ("place", "A1", "0"),
        ("place", "A2", "0"),
    ]


def test_a_move_laid_at_once_and_confirmed_at_once_is_scored(live):
    """The five chips and OK given together: OK waits until the firmware has them all."""
    for square, face in [("D8", "9"), ("E8", "+"), ("F8", "6"), ("G8", "÷"), ("H8", "2")]:
        live.place(square, face)
    live.press("ok")
    until_idle(live)
    live.run(100)
    assert live.state()["totals"] == [48, 0]


def test_inputs_under_way_when_the_firmware_restarts_still_arrive_in_order(live):
    live.place("H8", "7")
    live.press("back")
    live.place("G8", "+")
    live.run(100)  # the 7 is on the board, not settled yet
    live.board.app.running = False  # as after the PC's `restart`
    live.board.app.restart = True
    until_idle(live)
    assert live.boots == 2
    booted = max(k for k, line in enumerate(live.lines) if '"ev": "boot"' in line)
    live.lines[:booted] = []  # what the new firmware saw
    assert played(live) == [("place", "H8", "7"), ("press", "back"), ("place", "G8", "+")]


# ----- the USB port as a loopback socket ---------------------------------------------------

BODY = (
    b'{"cmd": "restart", "id": 1}\n'
    b'{"cmd": "put", "path": "settings.json", "text": "{\\"game\\": \\"calqable\\"}", "id": 2}\n'
)


def http(method, body=BODY):
    return (
        b"%s / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (method, len(body), body)
    )


OPENINGS = {
    "POST": http(b"POST"),
    "PUT": http(b"PUT"),
    "GET": b"GET /?" + BODY.replace(b"\n", b"") + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "OPTIONS": http(b"OPTIONS"),
    "HEAD": b"HEAD / HTTP/1.0\r\n\r\n" + BODY,
    "a header first": b"Content-Type: text/plain\r\n\r\n" + BODY,
    "blank lines then a request": b"\r\n\r\nPOST / HTTP/1.1\r\n\r\n" + BODY,
    "a text line": b"hello board\n" + BODY,
    "a JSON array": b"[1, 2]\n" + BODY,
    "a JSON string": b'"cmd"\n' + BODY,
    "Ctrl-C and the REPL": b"\r\x03\r\x01print('hi')\x04\n" + BODY,
}


@pytest.fixture
def socket_board(tmp_path):
    live = LiveBoard(tmp_path / "flash")
    url = live.serial(kind="socket")
    host, port = url[len("socket://") :].rsplit(":", 1)
    live.run(100)
    yield live, (host, int(port))
    live.stop()


def refused(live, sock, ms=1000):
    """Run the board until it has closed `sock`; True if it did within `ms` of board time."""
    sock.settimeout(0)
    for _ in range(ms // 10):
        live.run(10)
        try:
            while True:
                if sock.recv(4096) == b"":  # (event lines may come before the close)
                    return True
        except BlockingIOError:
            continue
        except OSError:  # reset: the board closed it with the request unread
            return True
    return False


@pytest.mark.parametrize("opening", OPENINGS.values(), ids=list(OPENINGS))
def test_a_connection_not_speaking_the_line_protocol_never_reaches_the_board(
    socket_board, opening
):
    live, address = socket_board
    settings = Path(live.root) / "settings.json"
    before = settings.read_text()
    with socket.create_connection(address) as sock:
        sock.sendall(opening)
        live.run(10)  # one step: closed at once
        assert live.port.refused == 1 and live.port.new is None
        assert refused(live, sock)
    live.run(500)
    assert live.boots == 1 and live.repl is None  # no restart
    assert settings.read_text() == before  # no put
    assert not any('"reply"' in line for line in live.lines)  # no command at all
    assert live.board.usb_in == bytearray()


def test_a_request_line_is_refused_before_it_ends(socket_board):
    live, address = socket_board
    with socket.create_connection(address) as sock:
        sock.sendall(b"PO")
        assert refused(live, sock, ms=30)
    assert live.port.refused == 1


def test_the_first_line_decides():
    from host_tools.ptyport import first_line

    assert first_line(b"") is None and first_line(b"\r\n\n") is None
    assert first_line(b'\n{"cmd": "hel') is None  # not a whole line yet
    assert first_line(b'\n{"cmd": "hello", "id": 3}\n') is True
    assert first_line(b'{"cmd": "hello"}\r\nPOST / HTTP/1.1\r\n') is True  # a line each
    for bad in (b"G", b"POST / HTTP/1.1\r\n", b"Host: x\r\n", b"{nope}\n", b"[]\n", b"\xff\n"):
        assert first_line(bad) is False, bad
    assert first_line(b"{" + b" " * 2000) is False  # no line end in sight


def test_the_host_tools_link_works_and_a_page_cannot_take_its_port(socket_board):
    from host_tools.link import Link

    live, address = socket_board
    live.start()
    with Link(live.port.path) as link:
        assert link.request("hello")["game"] == "calculissimo"
        with socket.create_connection(address) as sock:  # a page POSTs a restart meanwhile
            sock.sendall(http(b"POST"))
            deadline = time.monotonic() + 10
            while live.port.refused == 0 and time.monotonic() < deadline:
                time.sleep(0.02)
        assert live.port.refused == 1
        assert link.request("hello")["game"] == "calculissimo"  # still the link's port
        link.send("restart")  # the link's own commands do reach the board
        deadline = time.monotonic() + 10
        while live.boots == 1 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert live.boots == 2


def test_a_tool_that_only_listens_hears_the_board(socket_board):
    """`watch --json` opens the port, sends a line end, and reads: the event lines reach it
    before it has said anything."""
    live, address = socket_board
    with socket.create_connection(address) as sock:
        sock.sendall(b"\n")
        live.run(20)
        live.press("ok")
        until_idle(live)
        live.run(50)
        sock.settimeout(2)
        got = b""
        while b'"button"' not in got:
            got += sock.recv(4096)
    assert b'"name": "ok"' in got and live.port.refused == 0
