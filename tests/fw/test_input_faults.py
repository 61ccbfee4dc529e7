"""What the PC can send that must never stop the board: uploads the next boot would refuse,
JSON nested past the parser, ids no JSON parser reads, paths out of the board's files (runs
on CPython and on MicroPython)."""

import json

from firmware import config
from firmware.events import EventStream
from firmware.sim.clock import SimClock
from firmware.sim.memfs import MemFS
from firmware.sim.simboard import SimBoard
from tests.engine.checks import eq, raises
from tests.engine.fixtures import REPO
from tests.fw.board import cmd, events, new_board

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.commands",)


def deep():
    """JSON nested 7,000 deep (made when a test needs it: 14 KB of text)."""
    return "[" * 7000 + "]" * 7000


def _read(path):
    with open(REPO + "/" + path) as f:
        return f.read()


def pico():
    return json.loads(_read("hardware/pins/pico.json"))


def lay_out(pins=None):
    """A board's flash as the flash tool lays it out, `pins` as pins/pico.json."""
    fs = MemFS()
    fs.files["pins/pico.json"] = json.dumps(pins or pico()).encode()
    fs.files["pins/hall-only.json"] = _read("hardware/pins/hall-only.json").encode()
    fs.files["profiles/calculissimo.json"] = _read("hardware/profiles/calculissimo.json").encode()
    fs.files["settings.json"] = b'{"turn_seconds": 0}'
    return fs


def flashed():
    """A board booted from its files."""
    board = SimBoard(None, fs=lay_out())
    board.boot()
    board.run(50)
    return board


def raw_reply(board, text):
    """The board's reply line to one line from the PC, as text, and parsed."""
    before = len(board.lines)
    board.usb_in.extend(text.encode() + b"\n")
    board.run(20)
    for line in board.lines[before:]:
        if '"ev": "reply"' in line:
            return line, json.loads(line)
    raise AssertionError("no reply to %s" % text[:60])


def put_parts(board, path, text, size=400):
    """Upload `text` in parts as the PC does; the last reply."""
    r = None
    for k in range(0, len(text), size):
        more = k + size < len(text)
        r = cmd(board, "put", path=path, text=text[k : k + size], offset=k, more=more)
    return r


def without(section, key=None):
    """pico.json without `section` (or only without its `key`)."""
    pins = pico()
    if key is None:
        del pins[section]
    else:
        del pins[section][key]
    return pins


# ----- Fault 4: put checks what boot will do with the file ----------------------------------


def test_put_refuses_settings_the_next_boot_would_refuse():
    board = flashed()
    before = board.fs.read("settings.json")
    r = cmd(board, "put", path="settings.json", text='{"pins": "nothere.json"}')
    eq(r["ok"], False)
    eq(
        r["error"],
        "the board would not start with this settings.json: pins/nothere.json is missing",
    )
    eq(board.fs.read("settings.json"), before)
    r = cmd(board, "put", path="settings.json", text='{"pins": "hall-only.json", "players": 3}')
    eq((r["ok"], r["restart"]), (True, True))
    eq(config.load(board.fs).settings["players"], 3)  # and the next boot takes it


def test_put_refuses_a_pin_map_the_next_boot_would_refuse():
    board = flashed()
    fs = board.fs
    before = fs.read("pins/pico.json")
    pins = pico()
    pins["pixels"]["count"] = 100
    r = cmd(board, "put", path="pins/pico.json", text=json.dumps(pins))
    eq(r["ok"], False)
    eq(
        r["error"],
        "the board would not start with this pins/pico.json: "
        "pins/pico.json: pixels.count must be 225, one LED a square",
    )
    eq(fs.read("pins/pico.json"), before)
    # a map the settings do not name yet is checked as it will be once they do
    r = cmd(board, "put", path="pins/mine.json", text=json.dumps(pins))
    eq("pixels.count must be 225" in r["error"], True)
    eq(fs.exists("pins/mine.json"), False)
    for pins, says in (
        (without("display"), "display is missing"),
        (without("presence", "spi"), "presence.spi must be a whole number 0 to 1"),
        (without("i2c", "freq"), "i2c.freq must be a whole number"),
        (without("nfc", "addr"), "nfc.addr must be a whole number 0 to 127"),
    ):
        r = cmd(board, "put", path="pins/pico.json", text=json.dumps(pins))
        eq(r["ok"], False, says)
        eq(r["error"].startswith("pins/pico.json: "), True, r["error"])
        eq(says in r["error"], True, r["error"])
        eq(fs.read("pins/pico.json"), before)
    r = cmd(board, "put", path="pins/mine.json", text=json.dumps(pico()))
    eq(r["ok"], True)
    eq(fs.read("pins/mine.json"), json.dumps(pico()).encode())


def test_a_pin_map_missing_any_key_the_boot_reads_is_named_not_a_crash():
    cases = (
        (without("display"), "display is missing"),
        (without("display", "addr"), "display.addr must be"),
        (without("presence", "spi"), "presence.spi must be"),
        (without("presence", "baudrate"), "presence.baudrate must be"),
        (without("presence", "chips"), "presence.chips must give at least 225 inputs"),
        (without("i2c", "id"), "i2c.id must be"),
        (without("i2c", "freq"), "i2c.freq must be"),
        (without("nfc", "addr"), "nfc.addr must be"),
        (without("pixels", "count"), "pixels.count must be 225"),
        (without("buttons", "ok"), "buttons.ok must be a GPIO"),
    )
    for pins, says in cases:
        err = raises(config.ConfigError, config.load, lay_out(pins))
        eq(str(err).startswith("pins/pico.json: "), True, str(err))
        eq(says in str(err), True, str(err))
    pins = pico()
    pins["pixels"]["order"] = ["G", "R", "B"]
    pins["buttons"]["menu"] = "x"
    err = str(raises(config.ConfigError, config.load, lay_out(pins)))
    eq("pixels.order must be one of BRG, GRB, RGB" in err, True, err)
    eq("buttons.menu: the buttons are left, right, ok, back" in err, True, err)


# ----- Fault 12: deep JSON and numbers JSON cannot carry --------------------------------------


def test_a_command_nested_past_the_parser_is_answered_and_the_board_goes_on():
    board = new_board()
    for line in ("[" * 1000, "[" * 500 + "]" * 500, '{"cmd": "hello", "x": ' + "[" * 990):
        _, r = raw_reply(board, line)
        eq((r["id"], r["ok"]), (None, False))
    eq(cmd(board, "hello", 9)["ok"], True)


def test_an_id_is_a_32_bit_whole_number_or_a_short_string():
    board = new_board()
    for ident in ("1e400", "-1e400", "NaN", "Infinity", "2147483648", "1.5", "true", "[1]"):
        line, r = raw_reply(board, '{"cmd": "hello", "id": %s}' % ident)
        for word in ("NaN", "Infinity", "inf", "nan"):
            eq(word in line, False, line)
        eq((r["id"], r["ok"]), (None, False), ident)
    r = cmd(board, "hello", "x" * 65)
    eq(r["id"], None)
    eq(r["error"].startswith("id must be a whole number -2147483648 to 2147483647"), True)
    for ident in (-2147483648, 2147483647, "x" * 64, None):
        r = cmd(board, "hello", ident)
        eq((r["id"], r["ok"]), (ident, True))
    # a command with a bad id is not carried out
    r = cmd(board, "put", 1.5, path="settings.json", text='{"players": 3}')
    eq(r["ok"], False)
    eq(board.fs.read("settings.json"), None)


def test_event_lines_never_hold_nan_or_infinity():
    lines = []
    ev = EventStream(lines.append, SimClock())
    nested = []
    for _ in range(7000):
        nested = [nested]
    inf = float("1e400")
    ev.emit("x", "a", inf, "b", [1.5, -inf], "c", {"k": inf - inf}, "d", nested, "e", 2)
    ev.flush()
    want = (
        '{"t": 0, "ev": "x", "a": null, "b": [1.5, null], "c": {"k": null}, "d": null, "e": 2}\n'
    )
    eq(lines, [want])


def test_deep_or_bad_boot_files_are_named_problems():
    board = flashed()
    fs = board.fs
    deep_file = deep().encode()
    fs.files["settings.json"] = deep_file
    fs.files["chips.json"] = deep_file
    cfg = config.load(fs)
    eq(cfg.settings["players"], 2)  # defaults used
    eq(len(cfg.problems), 2)
    eq(cfg.problems[0].startswith("settings"), True, cfg.problems[0])
    eq("chip registry" in cfg.problems[1], True, cfg.problems[1])
    eq(len(cfg.chips), 0)
    again = SimBoard(None, fs=fs)  # the board boots and says what it could not read
    again.boot()
    again.run(50)
    eq(len(events(again, "settings_problem")) >= 1, True)
    fs.files["pins/pico.json"] = deep_file
    err = str(raises(config.ConfigError, config.load, fs))
    eq(err.startswith("pins/pico.json"), True, err)
    for text in ('{"chips": {"04a1b2c3": 5}}', "{"):
        fs.files["chips.json"] = text.encode()
        fs.files["pins/pico.json"] = json.dumps(pico()).encode()
        eq(len(config.load(fs).chips), 0)


def test_put_refuses_deep_files_and_leaves_the_old_ones():
    board = flashed()
    fs = board.fs
    before = dict(fs.files)
    for path in ("settings.json", "chips.json", "pins/pico.json"):
        r = put_parts(board, path, deep())
        eq(r["ok"], False, path)
        eq(r["error"] != "", True)
    eq(fs.files, before)
    eq(cmd(board, "hello")["ok"], True)


# ----- Fault 14: paths --------------------------------------------------------------------------


def test_paths_outside_the_boards_files_are_refused():
    board = flashed()
    fs = board.fs
    before = dict(fs.files)
    for path in (
        "pins/..\\..\\evil.json",
        "pins\\evil.json",
        "pins/../evil.json",
        "../settings.json",
        "/settings.json",
        "C:settings.json",
        "pins/C:evil.json",
        "pins/evil json.json",
        "pins/.evil.json",
        "pins/a/evil.json",
        "pins/\u00e9vil.json",
        "pins/",
    ):
        r = cmd(board, "put", path=path, text=json.dumps(pico()))
        eq(r["ok"], False, path)
        eq(r["error"].startswith(path + " is not a board file name"), True, r["error"])
        eq(cmd(board, "get", path=path)["ok"], False, path)
    eq(fs.files, before)
    r = cmd(board, "put", path="settings.json", text='{"pins": "..\\\\pico.json"}')
    eq(r["error"], "pins must name a file in hardware/pins, like pico.json")
    eq(cmd(board, "get", path="pins/pico.json")["ok"], True)
