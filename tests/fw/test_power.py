"""The LED rail and the supply (hardware/README.md, "USB power"): the LEDs are switched on only
when `current_ma` covers the board with every LED dark and VSYS is high enough, and otherwise
the display and the event stream say why, until the cause goes (runs on CPython and on
MicroPython)."""

import json

from firmware import leds as L
from firmware import settings as S
from firmware.sim.memfs import MemFS
from firmware.sim.simboard import SimBoard
from tests.engine.checks import eq
from tests.engine.fixtures import REPO, RULEBOOK, default_profile
from tests.fw.board import after_power_cut, cmd, events, lay, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.commands", "firmware.i18n_fr", "firmware.i18n_pt")

PLAIN = "C3"  # a square with no premium: dark on an empty board
GLOW = "D8"  # a premium square: it glows on an empty board


def _flash():
    """A board's flash as the flash tool lays it out, with settings.json naming no current."""
    fs = MemFS()
    for path in ("pins/pico.json", "profiles/calculissimo.json"):
        with open(REPO + "/hardware/" + path) as f:
            fs.files[path] = f.read().encode()
    fs.files["settings.json"] = b'{"turn_seconds": 0}'
    return fs


def _board(settings=None, nfc=True, vsys=5000):
    """A booted board with these settings (the defaults otherwise: `current_ma` 250), VSYS at
    `vsys` millivolts from power-up."""
    opts = {"players": 2, "turn_seconds": 0}
    if settings:
        opts.update(settings)
    board = SimBoard(default_profile(), opts, nfc=nfc)
    board.vsys_mv = vsys
    board.boot()
    board.run(200)
    return board


def _dark(board):
    n = board.profile.width * board.profile.height
    return all(board.led(i) == (0, 0, 0) for i in range(n))


def _lit(board):
    return board.led(sq(GLOW)) != (0, 0, 0) and board.rail_pin.value() == 1


def test_stock_usb_keeps_the_leds_off_and_says_why():
    eq(S.DEFAULTS["current_ma"], 250)  # what stock MicroPython declares to the USB host
    board = _board()  # current_ma left at its default
    eq(board.app.leds.need_ma(), L.BOARD_MA_NFC + 225 * L.LED_IDLE_UA // 1000)
    eq(board.app.leds.need_ma(), 410)
    eq((board.rail_pin.value(), board.rail.switched), (0, 0))  # never switched on
    eq(_dark(board), True)
    eq((board.strip.frames, board.strip.lost), (0, 0))  # no data into unpowered LEDs
    eq(board.app.leds.milliamps, 0)
    eq(board.screen()[4], "LEDs off: 250<410 mA")
    said = events(board, "power")
    eq([ev["leds"] for ev in said], [False])
    eq("current_ma is 250" in said[0]["text"] and "410 mA" in said[0]["text"], True)
    eq("5 V supply" in said[0]["text"], True)
    lay(board, RULEBOOK[0])  # the game is played from the display all the same
    board.press("ok")
    eq([ev["score"] for ev in events(board, "move")], [48])
    eq(_dark(board), True)
    eq(board.screen()[4], "LEDs off: 250<410 mA")  # for as long as the cause holds
    eq(len(events(board, "power")), 1)  # said once, not every second


def test_a_resumed_game_asks_with_the_reason_shown():
    fs = _board().fs  # a game saved by a board on the stock 250 mA
    board = after_power_cut(fs, [], {"current_ma": 250})
    eq(board.app.referee.mode, "resume")
    eq(board.screen()[4:6], ["LEDs off: 250<410 mA", "Resume game?"])


def test_raising_current_ma_from_the_pc_lights_the_board():
    board = SimBoard(None, fs=_flash())  # booted from its files: settings.json, no current_ma
    board.boot()
    board.run(200)
    eq((_dark(board), board.screen()[4]), (True, "LEDs off: 250<410 mA"))
    text = '{"turn_seconds": 0, "current_ma": 500}'
    r = cmd(board, "put", path="settings.json", text=text)
    eq((r["ok"], r["restart"]), (True, True))  # new settings count from the next start
    eq(_dark(board), True)
    eq(cmd(board, "restart")["ok"], True)
    board.run(200)
    eq(board.restarts, 1)
    eq(board.app.settings["current_ma"], 500)
    eq(_lit(board), True)
    eq(board.led(sq(PLAIN)), (0, 0, 0))
    eq(board.screen()[4], "")  # the message went with its cause
    eq(board.strip.lost, 0)
    eq(json.loads(board.fs.read("settings.json"))["current_ma"], 500)


def test_leds_wait_for_the_end_of_boot_and_for_the_rail_to_rise():
    board = SimBoard(default_profile(), {"players": 2, "current_ma": 500})
    eq(board.rail_pin.value(), 0)  # the App is made, the board not booted: still off
    board.boot()
    eq(board.rail_pin.value(), 1)  # switched on once boot is over
    board.run(L.RAIL_RISE_MS - 20)
    eq((board.strip.frames, _dark(board)), (0, True))  # nothing sent while the rail rises
    board.run(40)
    eq(_lit(board), True)
    eq((board.strip.lost, len(events(board, "power"))), (0, 0))  # on at once: nothing to say


def test_low_vsys_keeps_the_rail_off_until_it_recovers():
    board = _board({"current_ma": 500}, vsys=4000)
    eq((board.rail_pin.value(), _dark(board)), (0, True))
    eq(board.screen()[4], "LEDs off: VSYS 4.0 V")
    said = events(board, "power")
    eq([ev["leds"] for ev in said], [False])
    eq("VSYS is 4.0 V, below 4.2 V" in said[0]["text"], True)
    board.vsys_mv = 4150  # better, but not enough to switch on
    board.run(1500)
    eq((board.rail_pin.value(), len(events(board, "power"))), (0, 1))
    board.vsys_mv = 4900
    board.run(L.POWER_CHECK_MS + L.RAIL_RISE_MS + 50)
    eq(_lit(board), True)
    eq(board.screen()[4], "")
    eq([(ev["leds"], ev["text"]) for ev in events(board, "power")][1:], [(True, None)])


def test_vsys_sagging_under_the_leds_turns_them_off_for_a_while():
    board = _board({"current_ma": 500})
    eq(_lit(board), True)
    board.vsys_mv = 4150  # the LEDs' own load: within the hysteresis, they stay on
    board.run(2 * L.POWER_CHECK_MS)
    eq(_lit(board), True)
    board.vsys_mv = 4050
    board.run(L.POWER_CHECK_MS + 10)
    eq((board.rail_pin.value(), _dark(board)), (0, True))
    eq(board.screen()[4], "LEDs off: VSYS 4.0 V")
    board.vsys_mv = 5000  # the sag went with the LEDs: no second try at once
    board.run(L.VSYS_RETRY_MS // 2)
    eq(board.rail_pin.value(), 0)
    board.run(L.VSYS_RETRY_MS // 2 + L.POWER_CHECK_MS + L.RAIL_RISE_MS)
    eq(_lit(board), True)
    eq(board.screen()[4], "")
    eq([ev["leds"] for ev in events(board, "power")], [False, True])
    eq(board.strip.lost, 0)


def test_hall_only_board_needs_less():
    board = _board({"current_ma": 300}, nfc=False)  # 70 mA own + 225 mA of dark LEDs
    eq((board.rail_pin.value(), board.strip.lit(), board.screen()[4]), (1, True, ""))
    board = _board({"current_ma": 290}, nfc=False)
    eq(_dark(board), True)
    eq(board.screen()[4], "LEDs off: 290<295 mA")


def test_the_reason_in_french_and_portuguese():
    eq(_board({"language": "fr"}).screen()[4], "LED coupées 250<410mA")
    eq(_board({"language": "pt"}).screen()[4], "Sem LEDs: 250<410 mA")
    low = {"current_ma": 500}
    low["language"] = "fr"
    eq(_board(low, vsys=3900).screen()[4], "LED coupées : 3,9 V")
    low["language"] = "pt"
    eq(_board(low, vsys=3900).screen()[4], "Sem LEDs: VSYS 3,9 V")


def test_a_board_without_the_rail_switch_gets_dark_frames():
    """A pin map without `pixels.power`: the LEDs are powered all along, so the firmware
    keeps them dark with all-dark frames instead, and says why all the same."""
    board = SimBoard(default_profile(), {"players": 2, "turn_seconds": 0})
    board.app.leds.rail = None  # as assemble.py leaves it: no switch to drive
    board.strip.rail = None  # and the chain is powered from the start
    board.strip.grb[:] = b"\x40" * len(board.strip.grb)  # whatever they showed before
    board.boot()
    board.run(50)
    eq(board.strip.frames > 0 and _dark(board), True)
    eq(board.app.leds.milliamps, 225)  # the dark LEDs' own current, which the supply pays
    eq(board.screen()[4], "LEDs off: 250<410 mA")
    eq([ev["leds"] for ev in events(board, "power")], [False])
