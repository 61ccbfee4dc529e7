"""The virtual board in a web page: `python -m host_tools sim` (and `make sim`).

A `ThreadingHTTPServer` on 127.0.0.1 serves the page (host_tools/web/) and a small JSON API
over a `LiveBoard`, the real firmware running in real time on the simulated hardware:

    GET  /api/state?since=N   what the board shows (LiveBoard.state), plus the premium layout
    POST /api/place           {"square": "H8", "face": "9"}   lay a chip
    POST /api/lift            {"square": "H8"}                pick it up
    POST /api/press           {"button": "ok"}                left, right, ok, back
    POST /api/clear           {}                              lift every chip, one by one
    POST /api/tally           {"face": "7"}                   the end tally: enter a chip
                                                              with the buttons (▶ ... OK)

A game against the board (issue 13; LiveBoard's "table"):

    POST /api/new_game        {"players": 2, "computer": [0, 3], "hints": true}
                              settings.json for a new game (each seat's level: 0 a person,
                              1-4 the board), then the board restarts into it
    POST /api/show_rack       {}   lay the rack the board asks for (the PC's hand for that
                                   seat, drawn from a simulated bag) on free squares
    POST /api/follow          {}   lay the board's move: each shown chip to its square,
                                   the rest lifted (then OK plays it)
    POST /api/take_rack       {}   lift a rack shown (after a hint)
    POST /api/hint            {}   ask a hint through the board's menu (BACK, ◀ ▶, OK)

A chip laid or lifted and a button pressed are queued (so are the chips `clear` lifts, the
presses `tally` and `hint` make, and the chips of the table's actions): the board plays them in order, in
its own time, each held or left until the firmware has sensed it (LiveBoard), so nothing is
lost when the board's clock lags behind a busy PC's. The state shows the chips where the
hands have put them at once; the LEDs and the events, what the firmware has sensed.

A request the board cannot honour (bad JSON, an unknown square or face, a square already
holding a chip, no chip of that face left, counting the queued ones) is answered 400 with
{"error": text}. Only loopback clients are served.
"""

import contextlib
import ipaddress
import json
import os
import sys
import threading
import webbrowser
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from engine import squares
from engine.errors import EngineError

WEB = Path(__file__).resolve().parent / "web"
BUTTONS = ("left", "right", "ok", "back")
# The table's actions with an empty body: LiveBoard method, and what the answer reports.
TABLE = {
    "/api/show_rack": ("show_rack", "squares"),
    "/api/follow": ("follow", "laid"),
    "/api/take_rack": ("take_rack", "lifted"),
    "/api/hint": ("ask_hint", None),
}
ACTIONS = ("/api/place", "/api/lift", "/api/press", "/api/clear", "/api/tally", "/api/new_game")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
# Names this server answers to. A page on another site can make the browser send requests
# to 127.0.0.1 too; checking Host defeats DNS rebinding, and requiring a JSON content type on
# POST forces a CORS preflight, which this server never grants.
HOSTS = ("127.0.0.1", "localhost")
MAX_BODY = 4096


class BadRequest(Exception):
    """Answered 400 with the message."""


def board_info(live):
    """The printed board: premium layout (one letter a square), its legend, the start square,
    the LED current budget, and the firmware's colours. Read on every state, since a reboot
    may change the game or the settings."""
    from firmware import leds as L

    with live.lock:
        board = live.board
        prof = board.profile
        leds = board.app.leds
        legend = {}
        for letter, p in prof.legend.items():
            kind = "chip" if p.kind == 1 else "run"
            legend[letter] = {
                "kind": kind,
                "factor": p.factor,
                "colour": list(p.colour),
                "label": p.label,
            }
        return {
            "layout": "".join(prof.letters[i] for i in prof.premiums),
            "legend": legend,
            "start": squares.name(prof.start, prof.width),
            "cap_ma": leds.budget_ua // 1000,
            # The budget in words (firmware/leds.py): what the supply may give the whole
            # board, what the rest of the board takes, and what 225 dark LEDs draw anyway.
            "power": {
                "supply_ma": leds.current_ma,
                "board_ma": leds.board_ma,
                "dark_ma": leds.n * L.LED_IDLE_UA // 1000,
                "on": leds.on,
                "why": leds.why_text(),
                # the cap is dimming the LEDs below the brightness setting
                "dimmed": leds.lit and leds.scale < leds.brightness * 256 // 100,
            },
            # The firmware's own colours, so the page's colours are the LEDs' colours.
            "colours": {
                "players": [list(c) for c in L.COLOURS[L.PLAYER : L.PLAYER + 4]],
                "legal": list(L.COLOURS[L.GREEN]),
                "bad_run": list(L.COLOURS[L.RED]),
                "other_new": list(L.COLOURS[L.AMBER]),
                "last_move": list(L.COLOURS[L.WHITE]),
                "joker": list(L.COLOURS[L.YELLOW]),
                "unknown": list(L.COLOURS[L.MAGENTA]),
                # blinking: where a chip of the board's move or of a hint goes, and the chips
                # of a rack shown to the board (firmware/modes_computer.py)
                "place": list(L.COLOURS[L.ALERT["place"]]),
                "ask": list(L.COLOURS[L.ALERT["ask"]]),
            },
        }


class Handler(BaseHTTPRequestHandler):
    server_version = "smartboard-sim/1"

    # ----- plumbing ---------------------------------------------------------------------------

    def log_message(self, format, *args):
        pass  # the page polls several times a second: no access log

    def _allowed(self):
        try:
            loopback = ipaddress.ip_address(self.client_address[0]).is_loopback
        except ValueError:
            loopback = False
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]").lower()
        return loopback and host in HOSTS

    def _send(self, status, body, ctype):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_error(self, code, message=None, explain=None):
        """The base class's own refusals (a bad request line, an unknown method) in JSON too."""
        self.close_connection = True
        self._json(code, {"error": message or HTTPStatus(code).phrase})

    def _json(self, status, obj):
        self._send(status, json.dumps(obj).encode(), "application/json")

    def _guarded(self, fn):
        """Run one request; every failure becomes a JSON answer, never a traceback page."""
        if not self._allowed():
            self._json(403, {"error": "only this computer may use the simulated board"})
            return
        try:
            fn()
        except BadRequest as err:
            self._json(400, {"error": str(err)})
        except (ValueError, KeyError, TypeError, EngineError) as err:
            # the board refused: a square off the board, a face not in the game, no chip left
            self._json(400, {"error": str(err).strip("'\"") or type(err).__name__})
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away mid-answer
        except Exception as err:  # noqa: BLE001  (a bug: say so, keep serving)
            print("websim: %s: %s" % (type(err).__name__, err), file=sys.stderr)
            self._json(500, {"error": "internal error: %s" % type(err).__name__})

    # ----- GET: the page, its files, the state ------------------------------------------------

    def do_GET(self):
        self._guarded(self._get)

    do_HEAD = do_GET

    def _get(self):
        url = urlsplit(self.path)
        if url.path == "/api/state":
            query = parse_qs(url.query)
            try:
                since = int(query.get("since", ["0"])[0])
            except ValueError:
                raise BadRequest("since must be a whole number") from None
            live = self.server.live
            state = live.state(max(0, since))
            state["board"] = board_info(live)
            self._json(200, state)
            return
        name = "index.html" if url.path == "/" else url.path[1:]
        # only the files that are in web/ itself: no folders, so no way out of it
        if "/" in name or "\\" in name or name not in os.listdir(WEB):
            self._json(404, {"error": "no such page: %s" % url.path})
            return
        ctype = TYPES.get(os.path.splitext(name)[1], "application/octet-stream")
        self._send(200, (WEB / name).read_bytes(), ctype)

    # ----- POST: the players' hands -----------------------------------------------------------

    def do_POST(self):
        self._guarded(self._post)

    def _body(self):
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise BadRequest("send JSON (Content-Type: application/json)")
        try:
            size = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise BadRequest("bad Content-Length") from None
        if not 0 < size <= MAX_BODY:
            raise BadRequest("the body must be a JSON object of at most %d bytes" % MAX_BODY)
        try:
            data = json.loads(self.rfile.read(size).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise BadRequest("bad JSON: %s" % err) from None
        if not isinstance(data, dict):
            raise BadRequest("the body must be a JSON object")
        return data

    def _post(self):
        live = self.server.live
        path = urlsplit(self.path).path
        if path not in ACTIONS and path not in TABLE:
            self._json(404, {"error": "no such action: %s" % path})
            return
        data = self._body()
        if path in TABLE:
            method, key = TABLE[path]
            done = getattr(live, method)()
            self._json(200, {"ok": True, key: done} if key else {"ok": True})
            return
        if path == "/api/new_game":
            self._new_game(live, data)
            return
        if path == "/api/clear":
            self._json(200, {"ok": True, "lifted": live.clear()})
            return
        if path == "/api/tally":
            face = data.get("face")
            if not isinstance(face, str):
                raise BadRequest("face must be a chip face such as 9, +, × or ?")
            live.enter(face)
            self._json(200, {"ok": True})
            return
        if path == "/api/press":
            button = data.get("button")
            if button not in BUTTONS:
                raise BadRequest("button must be one of %s" % ", ".join(BUTTONS))
            live.press(button)
            self._json(200, {"ok": True})
            return
        square = data.get("square")
        if not isinstance(square, str):
            raise BadRequest("square must be a name such as H8")
        if path == "/api/lift":
            live.lift(square)
        else:
            face = data.get("face")
            if not isinstance(face, str):
                raise BadRequest("face must be a chip face such as 9, +, × or ?")
            live.place(square, face)
        self._json(200, {"ok": True})

    def _new_game(self, live, data):
        players = data.get("players")
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
            raise BadRequest("players must be a whole number")
        computer = data.get("computer")
        if computer is not None and not isinstance(computer, list):
            raise BadRequest("computer must be a list of levels, 0 (a person) to 4")
        hints = data.get("hints")
        if hints is not None and not isinstance(hints, bool):
            raise BadRequest("hints must be true or false")
        live.new_game(players, computer, hints, data.get("think_seconds"))
        self._json(200, {"ok": True})


def make_server(live, port=8765):
    """The HTTP server for `live` on 127.0.0.1:`port` (0: a free port); not yet serving."""
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.live = live
    return server


def _open_browser(url):
    """Open the page in a desktop browser, on a thread, and only where there is a desktop:
    with no display, Python's webbrowser falls back to text browsers (lynx, w3m), which
    would take over this terminal."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return False

    def go():
        with contextlib.suppress(Exception):  # no browser is no problem: the URL is printed
            webbrowser.open(url)

    threading.Thread(target=go, name="browser", daemon=True).start()
    return True


def serve(game="calculissimo", port=8765, open_browser=True, root=None, speed=1.0):
    """Run the simulated board and its page until Ctrl-C; returns the exit status."""
    from host_tools.live import LiveBoard

    live = LiveBoard(root, game, speed=speed)
    try:
        server = make_server(live, port)
    except OSError as err:
        why = err.strerror or err
        print(
            "cannot serve on 127.0.0.1:%d: %s (--web-port 0 takes a free port)" % (port, why),
            file=sys.stderr,
        )
        return 1
    live.start()
    url = "http://127.0.0.1:%d/" % server.server_port
    try:
        # the folder's settings say which game the board plays (`--game` makes a new folder)
        print("The simulated board (%s) is at %s" % (live.board.profile.game, url), flush=True)
        path = live.serial()  # a pseudo-terminal, or a loopback socket where there are none
        from host_tools import command

        print("host tools can talk to the board: %s watch --port %s" % (command(), path))
        if not (open_browser and _open_browser(url)):
            print("Open that address in a web browser.")
        print("Ctrl-C stops the board.", flush=True)
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        print("\nThe board is switched off.", flush=True)
    finally:
        server.server_close()
        live.stop()
    return 0
