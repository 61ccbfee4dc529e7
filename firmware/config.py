"""The files a board boots from, read and checked in one place for every backend.

On the board's filesystem: `settings.json` (firmware/settings.py), `pins/<name>.json` (the pin
map named by the `pins` setting), `profiles/<game>.json` (the board profile) and `chips.json`
(the chip registry). A bad setting or registry is a *problem*: reported, defaults kept, the
board plays on. A missing or bad pin map or profile is fatal, since the board cannot know
its pins or its squares: `ConfigError` says which file and why.
"""

import json

from engine import profile as P
from firmware import pinmap, registry, settings


class ConfigError(ValueError):
    pass


class Config:
    def __init__(self, settings, problems, pins, profile, chips):
        self.settings = settings
        self.problems = problems
        self.pins = pins
        self.profile = profile
        self.chips = chips

    def parts(self):
        """(settings, problems, pins, profile, chips), for a backend to unpack."""
        return self.settings, self.problems, self.pins, self.profile, self.chips


def _json(fs, path):
    text = fs.read(path)
    if text is None:
        raise ConfigError("%s is missing" % path)
    try:
        return json.loads(text)
    except ValueError:
        raise ConfigError("%s is not valid JSON" % path)


def load(fs):
    conf, problems = settings.load(fs.read("settings.json"))
    pins_file = name = "pins/" + conf["pins"]
    pins = _json(fs, name)
    bad = pinmap.check(pins)
    if bad:
        raise ConfigError("%s: %s" % (name, "; ".join(bad)))
    name = "profiles/" + conf["game"] + ".json"
    try:
        board = P.Profile(_json(fs, name))
    except P.ProfileError as err:
        raise ConfigError("%s: %s" % (name, err))
    squares = board.width * board.height
    if pins["pixels"].get("count") != squares:
        raise ConfigError("%s: pixels.count must be %d, one LED a square" % (pins_file, squares))
    if (
        not isinstance(pins["presence"].get("chips"), int)
        or pins["presence"]["chips"] * 8 < squares
    ):
        raise ConfigError("%s: presence.chips must give at least %d inputs" % (pins_file, squares))
    try:
        chips = registry.loads(fs.read("chips.json") or '{"chips": {}}')
    except registry.RegistryError as err:
        problems.append(str(err))
        chips = registry.Registry()
    if conf["sensor"] == "nfc" and not pins.get("nfc"):
        problems.append("sensor nfc needs an nfc section in %s; hall used" % conf["pins"])
        conf["sensor"] = "hall"
    return Config(conf, problems, pins, board, chips)
