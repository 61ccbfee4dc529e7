"""Booting from the board's files: settings.json, the pin map, the profile, chips.json
(runs on CPython and on MicroPython)."""

import json

from firmware import config
from firmware.sim.memfs import MemFS
from firmware.sim.simboard import SimBoard
from tests.engine.checks import eq, raises
from tests.engine.fixtures import REPO, RULEBOOK
from tests.fw.board import events, lay


def _read(path):
    with open(REPO + "/" + path) as f:
        return f.read()


def _flash(settings=None, pins="pico.json", chips=None):
    """A board's filesystem as the flash tool lays it out."""
    fs = MemFS()
    fs.files["pins/" + pins] = _read("hardware/pins/" + pins).encode()
    fs.files["profiles/calculissimo.json"] = _read("hardware/profiles/calculissimo.json").encode()
    if settings is not None:
        fs.files["settings.json"] = (
            settings if isinstance(settings, bytes) else json.dumps(settings).encode()
        )
    if chips is not None:
        fs.files["chips.json"] = chips
    return fs


def test_no_settings_file_gives_the_defaults_silently():
    cfg = config.load(_flash())
    eq(cfg.problems, [])
    eq(cfg.settings["players"], 2)
    eq(cfg.profile.width, 15)
    eq(len(cfg.chips), 0)


def test_bad_settings_keep_defaults_and_say_which_key():
    cfg = config.load(_flash({"players": 9, "language": "fr", "colour": "blue"}))
    eq(cfg.settings["players"], 2)
    eq(cfg.settings["language"], "fr")
    eq(cfg.problems, ["unknown setting colour ignored", "players must be 1 to 4; default kept"])


def test_settings_file_that_is_not_json():
    cfg = config.load(_flash(b"{players: 3"))
    eq(cfg.problems, ["settings.json is not valid JSON; defaults used"])
    eq(cfg.settings["players"], 2)


def test_bad_chip_registry_is_a_problem_not_a_stop():
    cfg = config.load(_flash(chips=b'{"chips": {"04a1": "7"}}'))
    eq(len(cfg.problems), 1)
    eq("UID" in cfg.problems[0], True)
    eq(len(cfg.chips), 0)


def test_missing_or_bad_pin_map_is_fatal_and_named():
    err = raises(config.ConfigError, config.load, _flash({"pins": "other.json"}))
    eq(str(err), "pins/other.json is missing")
    fs = _flash()
    pins = json.loads(fs.files["pins/pico.json"])
    pins["buttons"]["ok"] = 16  # the LED data pin
    fs.files["pins/pico.json"] = json.dumps(pins).encode()
    err = raises(config.ConfigError, config.load, fs)
    eq("buttons.ok: GPIO 16 is already pixels.pin" in str(err), True)


def test_hall_only_pin_map_turns_the_nfc_setting_off():
    cfg = config.load(_flash({"pins": "hall-only.json"}, pins="hall-only.json"))
    eq(cfg.settings["sensor"], "hall")
    eq(len(cfg.problems), 1)


def test_board_boots_from_its_files_and_reports_problems():
    fs = _flash({"players": 2, "turn_seconds": 0, "brightness": 500})
    board = SimBoard(None, fs=fs)
    board.boot()
    board.run(50)
    eq(events(board, "settings_problem")[0]["text"], "brightness must be 1 to 100; default kept")
    eq("Settings error" in " ".join(board.screen()), True)
    lay(board, RULEBOOK[0])
    board.press("ok")
    eq(events(board, "move")[0]["score"], 48)
