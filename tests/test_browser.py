"""The web simulator in a real browser: headless Chromium, driven through playwright.

The rulebook's first two moves are played by clicking, as a family would: a square, then
the chip's face in the picker, for each chip, then the board's OK button. The board runs in
real time on its own thread, as under `make sim`. A screenshot of the page after the second
move is kept as build/artifacts/websim.png. A game against the board (issue 13) is played
in the page too: a new game with the board in a seat, its rack shown and its move laid with
one click each, and a hint through the board's menu (build/artifacts/websim-computer.png).

The test waits only for what the page shows (a chip drawn, LEDs green, a total, the mode's
hint), never for a fixed time, and the waits are long: on a busy PC (two cores, another
test's MicroPython busy on both) the board's clock lags behind real time, and the page,
the server and the board all crawl. The board plays the page's inputs in its own time, so
nothing clicked or pressed is lost meanwhile (host_tools/live.py).

Without Debian's chromium (/usr/bin/chromium) the test is skipped, except on CI (the CI
variable set), where .ci/run installs it and its absence is a failure.
"""

import base64
import contextlib
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest

from host_tools import websim
from host_tools.live import LiveBoard

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "build" / "artifacts"
ARTIFACT = ARTIFACTS / "websim.png"  # desktop, after the rulebook's first two moves
PHONE = ARTIFACTS / "websim-phone.png"  # 390 x 844, a phone
TALLY = ARTIFACTS / "websim-tally.png"  # the end tally
DEUTERANOPIA = ARTIFACTS / "websim-deuteranopia.png"  # the desktop shot as a deuteranope sees it
COMPUTER = ARTIFACTS / "websim-computer.png"  # a game against the board: its move to lay
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MOVE_1 = [("D8", "9"), ("E8", "+"), ("F8", "6"), ("G8", "÷"), ("H8", "2")]
MOVE_2 = [("H6", "4"), ("H7", "-"), ("H9", "+"), ("H10", "3")]
WAIT = 90_000  # ms to wait for what the page should show: a limit, not a delay


def _need(ok, why):
    if ok:
        return
    if os.environ.get("CI"):
        pytest.fail(why + " (CI is set: .ci/run should have installed it)")
    pytest.skip(why)


@pytest.fixture
def page(tmp_path):
    with _open(tmp_path, {"width": 1280, "height": 900}) as tab:
        yield tab


@pytest.fixture
def phone(tmp_path):
    with _open(tmp_path, {"width": 390, "height": 844}, is_mobile=True, has_touch=True) as tab:
        yield tab


@contextlib.contextmanager
def _open(tmp_path, viewport, **kw):
    _need(os.path.exists(CHROMIUM), "Debian's chromium is not installed at " + CHROMIUM)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need(False, "playwright is not installed in this Python")

    live = LiveBoard(tmp_path / "flash").start()
    live.serial()  # as `make sim` does: the page shows the USB port
    server = websim.make_server(live, 0)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    errors = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            tab = browser.new_page(viewport=viewport, **kw)
            tab.set_default_timeout(WAIT)
            tab.on("pageerror", lambda err: errors.append(str(err)))
            tab.goto("http://127.0.0.1:%d/" % server.server_port)
            tab.wait_for_selector('#board [data-square="O15"]')
            tab.live = live
            yield tab
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
        live.stop()
    assert errors == []  # no script error in the page


def lay(tab, square, face):
    tab.click('[data-square="%s"]' % square)
    tab.click('#picker [data-face="%s"]' % face)
    tab.wait_for_selector('[data-square="%s"] [data-chip="%s"]' % (square, face))


def led(tab, square):
    """(r, g, b) the LED sends, and the colour the page draws it in."""
    el = tab.locator('[data-square="%s"]' % square)
    raw = tuple(int(v) for v in el.get_attribute("data-led").split(","))
    drawn = el.evaluate("e => getComputedStyle(e).getPropertyValue('--rgb').trim()")
    return raw, drawn


def wait_all_green(tab, squares):
    """Until this turn's chips are green: the board sensed them and the move is legal."""
    tab.wait_for_function(
        """names => names.every(n => {
             const v = document.querySelector(`[data-square="${n}"]`).dataset.led || "";
             const [r, g, b] = v.split(",").map(Number);
             return g > 20 && r === 0 && b === 0;
           })""",
        arg=[sq for sq, _ in squares],
        timeout=WAIT,
    )


def totals(tab):
    return tab.locator("#totals .total").all_inner_texts()


def wait_totals(tab, want):
    tab.wait_for_function(
        """want => [...document.querySelectorAll('#totals .total')]
                     .map(e => e.textContent).join() === want.join()""",
        arg=want,
        timeout=WAIT,
    )


def wait_mode(tab, menu):
    """Until the hint under the display says the board is in its menu, or is not."""
    tab.wait_for_function(
        "menu => /Menu/.test(document.getElementById('mode-hint').textContent) === menu",
        arg=menu,
    )


def buttons(live):
    """The buttons the firmware has seen pressed, from its event lines."""
    with live.lock:
        lines = list(live.lines)
    return [ev["name"] for ev in map(json.loads, lines) if ev["ev"] == "button"]


def oled(tab):
    """The canvas's size, its lit pixels as a string of 0/1 (row by row), and the hex the page
    drew it from."""
    return tab.evaluate(
        """() => {
             const c = document.getElementById('oled');
             const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
             let bits = "";
             for (let i = 3; i < px.length; i += 4) bits += px[i] > 0 ? "1" : "0";
             return [c.width, c.height, bits, view.oled];
           }"""
    )


def unpack(hexed):
    """The state's OLED hex as 0/1 per pixel, row by row: 16 bytes a row, MSB leftmost."""
    return "".join(format(byte, "08b") for byte in bytes.fromhex(hexed))


def test_rulebook_moves_played_by_clicking(page):
    tab = page
    assert totals(tab) == ["0", "0"]
    for square, face in MOVE_1:
        lay(tab, square, face)
    wait_all_green(tab, MOVE_1)
    for square, _ in MOVE_1:  # green before OK, on the wire and on the page
        (r, g, b), drawn = led(tab, square)
        assert g > 20 and r == b == 0 and drawn == "0, 255, 0", (square, r, g, b, drawn)
    tab.click("#btn-ok")
    wait_totals(tab, ["48", "0"])
    assert tab.locator("#totals .to-move .name").inner_text() == "P2"

    # a wrong chip, picked up again by clicking it; the picker counts the box
    tab.click('[data-square="H10"]')
    assert tab.locator('#picker [data-face="9"] .count').inner_text() == "5"
    tab.click('#picker [data-face="5"]')
    tab.wait_for_selector('[data-square="H10"] [data-chip="5"]')
    tab.click('[data-square="H10"]')
    tab.wait_for_selector('[data-square="H10"] .chip', state="detached")
    for square, face in MOVE_2:
        lay(tab, square, face)
    wait_all_green(tab, MOVE_2)
    tab.click("#btn-ok")
    wait_totals(tab, ["48", "12"])
    assert tab.locator("#totals [data-player]").count() == 2
    assert tab.locator("#totals .to-move .name").inner_text() == "P1"
    assert tab.live.state()["totals"] == [48, 12]

    width, height, bits, hexed = oled(tab)
    assert (width, height) == (128, 64) and 300 < bits.count("1") < 4000
    assert bits == unpack(hexed)  # drawn pixel for pixel, leftmost pixel first
    assert "P2 scores 12" in tab.locator("#events").inner_text()
    assert tab.locator("#serial").inner_text() == tab.live.state()["serial"]
    # the new total's little bump is over
    tab.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    tab.click("summary")  # the lights' legend, in the firmware's colours
    shot = tab.screenshot(path=str(ARTIFACT), full_page=True)
    seen_by_a_deuteranope(tab, shot)

    # the keyboard: Backspace is BACK (the menu opens with nothing laid), Escape leaves it
    assert buttons(tab.live) == ["ok", "ok"]
    tab.keyboard.press("Backspace")
    wait_mode(tab, True)
    assert tab.live.state()["mode"] == "menu"
    tab.keyboard.press("Escape")  # while the board may still hold BACK down from Backspace
    wait_mode(tab, False)
    assert tab.live.state()["mode"] == "play"
    # and both at once, as fast as a player's fingers: the board sees each, in order
    tab.keyboard.press("Backspace")
    tab.keyboard.press("Escape")
    deadline = time.monotonic() + WAIT / 1000
    while len(buttons(tab.live)) < 6 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert buttons(tab.live) == ["ok", "ok", "back", "back", "back", "back"]
    count = tab.live.state()["count"]  # the page has drawn every event line up to here
    tab.wait_for_function("count => view.since >= count", arg=count)
    assert tab.locator("#events li").first.inner_text().endswith("BACK pressed")
    assert "Menu" not in tab.locator("#mode-hint").inner_text()
    assert tab.live.state()["mode"] == "play"

    # A PC tool talks to the board (host_tools diag): the log says it in words, and the
    # hint under the buttons follows the board into the sensor test and back.
    pc(tab, cmd="hello", id=205781825)
    pc(tab, cmd="diag", on=True, id=205781826)
    tab.wait_for_function(
        "() => /Sensor test/.test(document.getElementById('mode-hint').textContent)"
    )
    tab.click('[data-square="A1"]')
    tab.click('#picker [data-face="7"]')
    tab.wait_for_function("() => /Sensor test: chip 7 read on A1/.test($('events').textContent)")
    pc(tab, cmd="diag", on=False, id=205781827)
    tab.wait_for_function(
        "() => /Back to the game/.test(document.getElementById('events').textContent)"
    )
    tab.wait_for_function(
        "() => /^Lay chips/.test(document.getElementById('mode-hint').textContent)"
    )
    log = tab.locator("#events").inner_text()
    # each entry's board time (`0:04`) is no raw protocol, but holds a UID byte's digits
    words = re.sub(r"\b\d+:\d\d\b", "", log)
    for raw in ("reply", "205781825", "true", "sensor A1", "04", "placed 7", "_"):
        assert raw not in words, (raw, log)


def pc(tab, **cmd):
    """A command line from the PC on the board's USB port, as host_tools sends it."""
    with tab.live.lock:
        tab.live.board.usb_in.extend((json.dumps(cmd) + "\n").encode())


def seen_by_a_deuteranope(tab, shot):
    """The screenshot through the Machado (2009) deuteranopia matrix: saved as an artifact,
    and the colours of the players' dots and the lights' legend read off it. They are the
    firmware's colours, and their distances are those tests/test_websim.py computes and
    reports (build/artifacts/colour-distances.json)."""
    from tests import test_websim as W

    spots = tab.evaluate(
        """() => [...document.querySelectorAll('#totals .dot, #lights i[data-colour]')]
             .map(e => { const r = e.getBoundingClientRect();
                         return [e.closest('[data-player]') ? 'P' + e.closest('[data-player]')
                                 .dataset.player : e.dataset.colour,
                                 Math.round(r.x + r.width / 2 + scrollX),
                                 Math.round(r.y + r.height / 2 + scrollY)]; })"""
    )
    picked = tab.evaluate(
        """async ([png, matrix, spots]) => {
             const img = new Image();
             img.src = 'data:image/png;base64,' + png;
             await img.decode();
             const c = document.createElement('canvas');
             c.width = img.width; c.height = img.height;
             const ctx = c.getContext('2d');
             ctx.drawImage(img, 0, 0);
             const picked = spots.map(([name, x, y]) =>
               [name, [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)]]);
             const data = ctx.getImageData(0, 0, c.width, c.height);
             const lin = v => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
             const enc = v => 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);
             const px = data.data;
             for (let i = 0; i < px.length; i += 4) {
               const l = [lin(px[i]), lin(px[i + 1]), lin(px[i + 2])];
               for (let k = 0; k < 3; k++) {
                 const m = matrix[k];
                 const v = m[0] * l[0] + m[1] * l[1] + m[2] * l[2];
                 px[i + k] = enc(Math.min(1, Math.max(0, v)));
               }
             }
             ctx.putImageData(data, 0, 0);
             return [picked, c.toDataURL('image/png').split(',')[1]];
           }""",
        [base64.b64encode(shot).decode(), W.DEUTERANOPIA, spots],
    )
    colours, simulated = picked
    DEUTERANOPIA.write_bytes(base64.b64decode(simulated))
    seen = {name: tuple(rgb) for name, rgb in colours}
    board = tab.live.state()  # the firmware's colours, as the server sends them
    from host_tools.websim import board_info

    want = board_info(tab.live)["colours"]
    for k in range(len(board["names"])):
        assert seen["P%d" % (k + 1)] == tuple(want["players"][k])  # the LEDs' own colours
    signals = {name: seen[name] for name in W.SIGNALS}
    players = [seen["P%d" % (k + 1)] for k in range(len(board["names"]))]
    distances = W.colour_distances(players, signals)
    (ARTIFACTS / "colour-distances.json").write_text(
        json.dumps({"normal_and_deuteranopia_delta_e": distances}, indent=1)
    )


def test_a_phone_plays_the_whole_board(phone):
    """390 x 844: every square on screen and big enough to tap, the picker within reach,
    the board's buttons reachable by scrolling, nothing wider than the screen."""
    tab = phone
    width = tab.evaluate("innerWidth")
    assert width == 390
    assert tab.evaluate("document.documentElement.scrollWidth") <= width
    for name in ("A1", "O1", "A15", "O15"):
        box = tab.locator('[data-square="%s"]' % name).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
        assert box["width"] >= 20, box  # a fingertip's square
    for square, face in MOVE_1:
        tab.tap('[data-square="%s"]' % square)
        picker = tab.locator("#picker").bounding_box()
        assert picker["x"] >= 0 and picker["x"] + picker["width"] <= width
        assert picker["y"] + picker["height"] <= 844  # the sheet at the foot of the screen
        tab.tap('#picker [data-face="%s"]' % face)
        tab.wait_for_selector('[data-square="%s"] [data-chip="%s"]' % (square, face))
    wait_all_green(tab, MOVE_1)
    ok = tab.locator("#btn-ok")
    ok.scroll_into_view_if_needed()
    box = ok.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844 and box["x"] + box["width"] <= width
    ok.tap()
    wait_totals(tab, ["48", "0"])
    tab.evaluate("scrollTo(0, 0)")
    tab.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    PHONE.parent.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(PHONE))  # the first screenful, as the phone shows it


def test_the_end_tally_and_clearing_the_board(page):
    """After the last turn: the tally card says who counts and what OK enters, a chip is
    entered from the card or laid on the board; then the final scores name no one "to
    play", and one click clears the board for the next game."""
    tab = page
    live = tab.live
    for square, face in MOVE_1:
        live.place(square, face)
    for button in ("ok", "ok", "ok", "ok", "ok"):  # the move; then P2 and P1 pass
        live.press(button)
    tab.wait_for_selector("#tally:not([hidden])")
    assert tab.locator("#tally-ok").inner_text() == "0"
    assert tab.locator("#tally-who").inner_text() == "P1: 7 chips left to count."
    assert tab.locator('#totals [data-player="1"] .turn').inner_text() == "counting"
    assert tab.locator('#totals [data-player="2"] .turn').inner_text() == ""
    assert "OK on the board enters 0" in tab.locator("#mode-hint").inner_text()
    tab.click('#tally-faces [data-face="7"]')  # entered with the board's buttons
    tab.wait_for_function(
        "() => /^P1: 7$/.test(document.getElementById('tally-racks').textContent.split(' · ')[0])"
    )
    assert tab.locator("#tally-ok").inner_text() == "7"
    lay(tab, "A1", "3")  # or laid on the board, as before
    tab.wait_for_function(
        "() => document.getElementById('tally-who').textContent.startsWith('P1: 5 chips')"
    )
    assert "OK enters 7" in live.state()["screen"][3]
    tab.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    TALLY.parent.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(TALLY), full_page=True)
    for face in "01245":
        tab.click('#tally-faces [data-face="%s"]' % face)
    tab.wait_for_function(
        "() => document.getElementById('tally-who').textContent.startsWith('P2: 7')"
    )
    for _ in range(7):
        tab.click("#btn-ok")  # P2 enters whatever OK offers
    tab.wait_for_function(
        "() => /Every chip is counted/.test(document.getElementById('tally-who').textContent)"
    )
    tab.click("#btn-ok")
    tab.wait_for_selector("#tally", state="hidden")
    wait_status(tab, 1, "wins")
    assert "to play" not in tab.locator("#totals").inner_text()
    assert tab.locator("#totals .to-move").count() == 0
    # clearing the board: one click, every chip lifted as hands would
    tab.click("#clear")
    tab.wait_for_function("() => !document.querySelector('#board .chip')")
    tab.wait_for_selector("#clear", state="hidden")
    tab.click("#btn-ok")  # a new game on the clear board
    wait_totals(tab, ["0", "0"])
    wait_status(tab, 1, "to play")
    assert live.state()["mode"] == "play"


def wait_status(tab, player, status):
    """Until the scores card says `status` ("to play", "counting", "wins") for `player`."""
    tab.wait_for_function(
        """([p, want]) => document.querySelector(`#totals [data-player="${p}"]`)
                            .dataset.status === want""",
        arg=[player, status],
    )


def blinks(tab, square, want):
    """Until the square's LED shows `want` ("green": g only; "yellow": r and g, no b) in
    its lit phase: alerts blink at 2 Hz, and the page polls faster than that."""
    tab.wait_for_function(
        """([n, want]) => {
             const v = document.querySelector(`[data-square="${n}"]`).dataset.led || "";
             const [r, g, b] = v.split(",").map(Number);
             return want === "green" ? g > 20 && r === 0 && b === 0 : r > 20 && g > 20 && b === 0;
           }""",
        arg=[square, want],
    )


def test_a_game_against_the_board_and_a_hint(page):
    """The new-game form puts the board in P2's seat; P1 plays by clicking; the board's rack
    (dealt by the PC) is laid with one click, its move with another, each OK on the board's
    own button; then P1 asks a hint through the board's menu and shows their rack."""
    tab = page
    live = tab.live
    tab.click("#setup summary")
    tab.select_option('#setup-seats select[data-seat="1"]', "3")
    assert tab.locator("#setup-hints").is_checked()  # hints are on by default
    tab.click("#setup-start")
    tab.wait_for_function(
        """() => document.querySelector('#totals [data-player="2"] .seat')
                   ?.textContent === 'board, level 3'"""
    )
    assert live.state()["table"]["seats"] == [0, 3]
    assert not tab.locator("#ask-hint").is_hidden()  # P1, a person, may ask a hint
    for square, face in MOVE_1:
        lay(tab, square, face)
    wait_all_green(tab, MOVE_1)
    tab.click("#btn-ok")
    wait_totals(tab, ["48", "0"])

    # the board asks for its rack: the PC deals it, and one click lays it on free squares
    tab.wait_for_selector("#show-rack:not([hidden]):not([disabled])")
    assert "asks for the rack of P2" in tab.locator("#table-say").inner_text()
    assert tab.locator('#racks [data-player="2"] .rack-chip').count() == 7
    tab.click("#show-rack")
    tab.wait_for_function("() => document.querySelectorAll('#board .sq.shown .chip').length === 7")
    blinks(tab, "A15", "yellow")
    tab.click("#btn-ok")
    tab.wait_for_selector("#follow:not([hidden])")
    guide = live.state()["table"]["guide"]
    say = tab.locator("#table-say").inner_text()
    assert say.startswith("P2 (board, level 3) plays %s for %d" % (guide["move"], guide["score"]))
    blinks(tab, guide["chips"][0][0], "green")  # where its first chip goes
    assert "(the board, level 3) plays" in tab.locator("#events").inner_text()
    tab.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    tab.wait_for_selector("#toast", state="hidden")  # "A new game: the board restarts"
    log = tab.locator("#events").inner_text()
    assert "shown on G15" in log and "laid on G15" not in log  # a rack chip: one line
    COMPUTER.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(10):  # in the blink's lit phase, the move's squares green
        blinks(tab, guide["chips"][0][0], "green")
        tab.screenshot(path=str(COMPUTER), full_page=True)
        if led(tab, guide["chips"][0][0])[0][1] > 20:
            break

    # one click moves every chip to its square and lifts the rest; OK plays it
    tab.click("#follow")
    tab.wait_for_function(
        """chips => chips.every(([n, f]) =>
             document.querySelector(`[data-square="${n}"] [data-chip="${f}"]`))
           && !document.querySelector('#board .sq.shown')""",
        arg=guide["chips"],
    )
    tab.click("#btn-ok")
    wait_totals(tab, ["48", str(guide["score"])])
    assert tab.locator("#totals .to-move .name").inner_text() == "P1"

    # a hint: the board's menu, with its own buttons; P1's rack is dealt and shown too
    tab.click("#ask-hint")
    tab.wait_for_selector("#show-rack:not([hidden]):not([disabled])")
    assert tab.locator("#table-say").inner_text().startswith("A hint for P1")
    tab.click("#show-rack")
    tab.wait_for_function("() => document.querySelectorAll('#board .sq.shown .chip').length === 7")
    tab.click("#btn-ok")
    tab.wait_for_function("() => /^Hint: /.test(document.getElementById('table-say').textContent)")
    hint = live.state()["table"]["hint_move"]
    assert hint is not None and hint["player"] == 1
    blinks(tab, hint["move"].split()[0].split(":")[0], "green")
    assert "Hint for P1" in tab.locator("#events").inner_text()
    tab.click("#btn-back")  # back to the move; the rack shown comes off with one click
    tab.wait_for_selector("#take-rack:not([hidden])")
    tab.click("#take-rack")
    tab.wait_for_function("() => !document.querySelector('#board .sq.shown')")
    tab.wait_for_function(
        "() => /^Lay chips/.test(document.getElementById('mode-hint').textContent)"
    )
    assert live.state()["mode"] == "play"
