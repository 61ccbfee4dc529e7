"""The web simulator in a real browser: headless Chromium, driven through playwright.

The rulebook's first two moves are played by clicking, as a family would: a square, then
the chip's face in the picker, for each chip, then the board's OK button. The board runs in
real time on its own thread, as under `make sim`. A screenshot of the page after the second
move is kept as build/artifacts/websim.png.

The test waits only for what the page shows (a chip drawn, LEDs green, a total, the mode's
hint), never for a fixed time, and the waits are long: on a busy PC (two cores, another
test's MicroPython busy on both) the board's clock lags behind real time, and the page,
the server and the board all crawl. The board plays the page's inputs in its own time, so
nothing clicked or pressed is lost meanwhile (host_tools/live.py).

Without Debian's chromium (/usr/bin/chromium) the test is skipped, except on CI (the CI
variable set), where .ci/run installs it and its absence is a failure.
"""

import json
import os
import threading
import time
from pathlib import Path

import pytest

from host_tools import websim
from host_tools.live import LiveBoard

REPO = Path(__file__).resolve().parent.parent
ARTIFACT = REPO / "build" / "artifacts" / "websim.png"
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
            tab = browser.new_page(viewport={"width": 1280, "height": 900})
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
    tab.screenshot(path=str(ARTIFACT), full_page=True)

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
