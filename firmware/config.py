"""The files a board boots from, read and checked in one place for every backend.

On the board's filesystem: `settings.json` (firmware/settings.py), `pins/<name>.json` (the pin
map named by the `pins` setting), `profiles/<game>.json` (the board profile) and `chips.json`
(the chip registry). A bad setting or registry is a *problem*: reported, defaults kept, the
board plays on. A missing or bad pin map or profile is fatal, since the board cannot know
its pins or its squares: `ConfigError` says which file and why.

`refused(fs, path, text)` runs these same checks on the flash as it will be once the PC has
written a file (firmware/commands.py `put`), so a file the board takes never stops its boot.
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


def parse(text, path):
    """The JSON value of file `path`'s text; ConfigError naming the file if it has none."""
    try:
        return json.loads(text)
    except ValueError:
        raise ConfigError("%s is not valid JSON" % path)
    except RuntimeError:  # deeper than the parser goes (CPython's RecursionError is one)
        raise ConfigError("%s is nested too deeply" % path)


def _json(fs, path):
    text = fs.read(path)
    if text is None:
        raise ConfigError("%s is missing" % path)
    return parse(text, path)


def read_chips(text):
    """(registry, problem or None) from chips.json's text (None or empty: no chips yet). A
    bad file gives an empty registry: nothing half-loaded is used."""
    if not text:
        return registry.Registry(), None
    try:
        return registry.loads(text), None
    except registry.RegistryError as err:
        return registry.Registry(), str(err)
    except RuntimeError:
        return registry.Registry(), "the chip registry is nested too deeply"


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _boot(fs, pins_name=None):
    """(settings, problems, pin map, profile) as boot reads them from `fs`: the pin map
    `pins/<pins_name>` when named, else the settings' own. ConfigError if the board cannot
    start with them."""
    conf, problems = settings.load(fs.read("settings.json"))
    pins_file = "pins/" + (pins_name or conf["pins"])
    pins = _json(fs, pins_file)
    bad = pinmap.check(pins)
    if bad:
        raise ConfigError("%s: %s" % (pins_file, "; ".join(bad)))
    name = "profiles/" + conf["game"] + ".json"
    try:
        board = P.Profile(_json(fs, name))
    except P.ProfileError as err:
        raise ConfigError("%s: %s" % (name, err))
    squares = board.width * board.height
    count = pins["pixels"].get("count")
    if not _whole(count) or count != squares:
        raise ConfigError("%s: pixels.count must be %d, one LED a square" % (pins_file, squares))
    chips = pins["presence"].get("chips")
    if not _whole(chips) or chips * 8 < squares:
        raise ConfigError("%s: presence.chips must give at least %d inputs" % (pins_file, squares))
    return conf, problems, pins, board


def load(fs):
    conf, problems, pins, board = _boot(fs)
    chips, problem = read_chips(fs.read("chips.json"))
    if problem is not None:
        problems.append(problem)
    if conf["sensor"] == "nfc" and not pins.get("nfc"):
        problems.append("sensor nfc needs an nfc section in %s; hall used" % conf["pins"])
        conf["sensor"] = "hall"
    if conf["sensor"] == "nfc" and (board.width > 16 or board.height > 16):
        # drivers/antenna.py: four 74HC595, 16 row lines and 16 column lines
        problems.append("the NFC antennas reach 16 x 16 squares at most; hall used")
        conf["sensor"] = "hall"
    return Config(conf, problems, pins, board, chips)


class _Written:
    """The flash as boot will read it once `text` is written as `path`."""

    def __init__(self, fs, path, text):
        self.fs = fs
        self.path = path
        self.text = text

    def read(self, name):
        return self.text.encode() if name == self.path else self.fs.read(name)


def _fatal(fs, pins_name):
    try:
        _boot(fs, pins_name)
    except ConfigError as err:
        return str(err)
    return None


def refused(fs, path, text):
    """Why the board would not start once `text` is written as `path` on `fs`, else None.

    A pin map is checked as boot checks the one the settings name. A failure the flash has
    without the file too, caused by another file (say a flash not laid out yet), is not the
    new file's doing and is not held against it."""
    name = path[5:] if path.startswith("pins/") else None
    why = _fatal(_Written(fs, path, text), name)
    if why is None or (not why.startswith(path) and why == _fatal(fs, name)):
        return None
    return why
