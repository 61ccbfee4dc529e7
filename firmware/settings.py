"""The board's settings file (`settings.json`): defaults, and validation at boot.

`validate(data)` never raises: every bad or unknown key is reported in `problems` (English
text naming the key) and the default is kept for it, so a bad file costs only the bad
settings. `load(text)` adds the JSON syntax check. The host tools (`host_tools config`) use
this same code, so a file the PC accepts is one the board accepts. `safe_name` is the rule
for every file name the board takes from outside (the `pins` setting, the PC's paths).
"""

import json

LANGUAGES = ("en", "fr", "pt")
SENSORS = ("nfc", "hall")
PRECEDENCES = ("standard", "mul_first")

DEFAULTS = {
    "game": "calculissimo",
    "players": 2,
    "names": [],
    "language": "en",
    "brightness": 40,  # percent of full LED scale, before the current cap
    "current_ma": 250,  # what the supply may give the whole board (USB: what stock
    # MicroPython declares; hardware/README.md "Power budget")
    "strict": False,
    "turn_seconds": 120,
    "precedence": "standard",
    "debounce_scans": 3,
    "settle_ms": 300,
    "scan_ms": 10,
    "sensor": "nfc",
    "pins": "pico.json",
    "computer": [],  # each seat's level: 0 a person, 1-4 the board plays it (issue 13)
    "hints": True,  # a person may ask the board for a hint (the turn menu)
    "think_seconds": 5,  # the most the board thinks for its move or a hint
}

_NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."
NAME_MAX = 32


def safe_name(name):
    """Is `name` a plain file name: 1 to NAME_MAX letters, digits, '_', '-' or '.', not
    starting with '.'? (So no folder, drive, backslash or "..", on any filesystem.)"""
    if not isinstance(name, str) or not 0 < len(name) <= NAME_MAX or name[0] == ".":
        return False
    for c in name:
        if c not in _NAME_CHARS:
            return False
    return ".." not in name


# key -> (kind, low, high) for numbers, or a tuple of allowed strings
_RULES = {
    "game": ("calculissimo", "calqable"),
    "players": (int, 1, 4),
    "language": LANGUAGES,
    "brightness": (int, 1, 100),
    "current_ma": (int, 100, 10000),
    "strict": (bool, 0, 1),
    "turn_seconds": (int, 0, 3600),
    "precedence": PRECEDENCES,
    "debounce_scans": (int, 1, 20),
    "settle_ms": (int, 0, 3000),
    "scan_ms": (int, 2, 100),
    "sensor": SENSORS,
    "hints": (bool, 0, 1),
    "think_seconds": (int, 1, 60),
}  # type: dict[str, tuple]


def _check(key, value):
    """Why `value` is not acceptable for `key`, or None."""
    if key == "names":
        if not isinstance(value, list) or len(value) > 4:
            return "names must be a list of up to 4 names"
        for name in value:
            if not isinstance(name, str) or not 1 <= len(name) <= 10:
                return "each name must be 1 to 10 characters"
        return None
    if key == "computer":
        if not isinstance(value, list) or len(value) > 4:
            return "computer must be a list of up to 4 levels"
        for level in value:
            if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 4:
                return "each computer level must be 0 (a person) to 4"
        return None
    if key == "pins":
        if not safe_name(value) or not value.endswith(".json"):
            return "pins must name a file in hardware/pins, like pico.json"
        return None
    rule = _RULES[key]
    if rule[0] is bool:
        return None if isinstance(value, bool) else "%s must be true or false" % key
    if rule[0] is int:
        if not isinstance(value, int) or isinstance(value, bool):
            return "%s must be a whole number" % key
        if not rule[1] <= value <= rule[2]:
            return "%s must be %d to %d" % (key, rule[1], rule[2])
        return None
    if value not in rule:
        return "%s must be one of %s" % (key, ", ".join(rule))
    return None


def validate(data):
    """(settings, problems): the defaults overlaid with every acceptable value of `data`."""
    settings = dict(DEFAULTS)
    problems = []
    if not isinstance(data, dict):
        return settings, ["settings must be a JSON object; defaults used"]
    for key in sorted(data):
        if key not in DEFAULTS:
            problems.append("unknown setting %s ignored" % key)
            continue
        why = _check(key, data[key])
        if why is None:
            settings[key] = data[key]
        else:
            problems.append(why + "; default kept")
    return settings, problems


def load(text):
    """Settings from the file's text; None (no file) gives the defaults without a problem."""
    if text is None:
        return dict(DEFAULTS), []
    try:
        data = json.loads(text)
    except ValueError:
        return dict(DEFAULTS), ["settings.json is not valid JSON; defaults used"]
    except RuntimeError:  # nested past the parser's depth (CPython's RecursionError)
        return dict(DEFAULTS), ["settings.json is nested too deeply; defaults used"]
    return validate(data)
