"""Board profiles: board size, start square, premium layout, chip set, rack size, options.

A profile is data (a JSON object, see `hardware/profiles/`), so a board maker describes
their own board without touching code. `Profile(data)` checks everything and raises
ProfileError with the offending key; the engine never sees a half-valid profile.

Premium squares are kept in one bytearray, one byte a square: 0 for a plain square,
otherwise the 1-based index of its legend entry; `kinds[p]` and `factors[p]` give that
entry's kind and factor. Kind CHIP multiplies the chip on the square (green, blue), kind
RUN the whole run (yellow, purple, the logo). Two entries may share kind and factor (the
logo and yellow are both "run ×2") yet differ in colour.
"""

from engine import faces, squares
from engine.compat import const
from engine.errors import EngineError, ProfileError

CHIP = const(1)
RUN = const(2)
_KINDS = {"chip": CHIP, "run": RUN}

# The options every game has, with their defaults and a checker; a ruleset may add more.
OPTION_CHOICES = {
    "precedence": ("standard", "mul_first"),
    "strict": (False, True),
}
OPTION_DEFAULTS = {
    "precedence": "standard",
    "strict": False,
    "turn_seconds": 120,
    "swap_min_bag": 7,
}


def _need(data, key, kind):
    if key not in data:
        raise ProfileError("profile: missing %r" % key)
    value = data[key]
    if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise ProfileError("profile: %r must be a whole number" % key)
    if kind is not int and not isinstance(value, kind):
        raise ProfileError("profile: %r has the wrong type" % key)
    return value


class Premium:
    """One legend entry: what a layout letter means."""

    def __init__(self, letter, kind, factor, colour, label):
        self.letter = letter
        self.kind = kind
        self.factor = factor
        self.colour = colour
        self.label = label


class Profile:
    """A validated board profile. Attributes are plain values; see the module docstring."""

    def __init__(self, data):
        if not isinstance(data, dict):
            raise ProfileError("profile: must be a JSON object")
        self.name = _need(data, "name", str)
        self.game = _need(data, "game", str)
        self.width = _need(data, "width", int)
        self.height = _need(data, "height", int)
        if not (2 <= self.width <= 26 and 2 <= self.height <= 99):
            raise ProfileError("profile: board must be 2..26 columns and 2..99 rows")
        try:
            self.start = squares.parse(_need(data, "start", str), self.width, self.height)
        except EngineError as exc:
            raise ProfileError("profile: start: " + str(exc))
        self.legend = self._read_legend(_need(data, "legend", dict))
        self.letters = "." + "".join(sorted(self.legend))
        self.kinds = bytes([0] + [self.legend[k].kind for k in self.letters[1:]])
        self.factors = bytes([1] + [self.legend[k].factor for k in self.letters[1:]])
        self.premiums = self._read_layout(_need(data, "layout", list))
        self.chips = self._read_chips(_need(data, "chips", dict))
        self.rack_size = _need(data, "rack_size", int)
        players = _need(data, "players", list)
        if len(players) != 2 or not all(isinstance(p, int) for p in players):
            raise ProfileError("profile: 'players' must be [min, max]")
        self.min_players, self.max_players = players
        if not (1 <= self.min_players <= self.max_players <= 8):
            raise ProfileError("profile: bad player range %r" % (players,))
        # At most 16: a move then forms at most 17 runs, and the premium search stays small.
        if not 1 <= self.rack_size <= 16:
            raise ProfileError("profile: rack_size must be 1..16")
        if self.rack_size * self.max_players > sum(self.chips.values()):
            raise ProfileError("profile: the chip set cannot fill every rack")
        self.penalties = self._read_penalties(data.get("penalties", {}))
        opts = data.get("options", {})
        if not isinstance(opts, dict):
            raise ProfileError("profile: 'options' must be an object")
        self.options = dict(OPTION_DEFAULTS)
        self.options.update(opts)
        self.extra = data  # ruleset-specific keys (tile values, ...) are read by the ruleset

    def _read_legend(self, legend):
        out = {}
        for letter, entry in legend.items():
            if len(letter) != 1 or letter == ".":
                raise ProfileError("profile: legend keys are single letters, not %r" % letter)
            if not isinstance(entry, dict):
                raise ProfileError("profile: legend %r must be an object" % letter)
            kind = entry.get("kind")
            kind = _KINDS.get(kind) if isinstance(kind, str) else None  # a list: unhashable
            factor = entry.get("factor")
            if kind is None:
                raise ProfileError("profile: legend %r: kind must be 'chip' or 'run'" % letter)
            if not isinstance(factor, int) or not 2 <= factor <= 15:
                raise ProfileError("profile: legend %r: factor must be 2..15" % letter)
            colour = entry.get("colour", [255, 255, 255])
            if not (isinstance(colour, list) and len(colour) == 3):
                raise ProfileError("profile: legend %r: colour must be [r, g, b]" % letter)
            out[letter] = Premium(letter, kind, factor, colour, entry.get("label", letter))
        return out

    def _read_layout(self, rows):
        if len(rows) != self.height:
            raise ProfileError(
                "profile: layout has %d rows, board has %d" % (len(rows), self.height)
            )
        cells = bytearray(self.width * self.height)
        for r, row in enumerate(rows):
            if not isinstance(row, str) or len(row) != self.width:
                raise ProfileError(
                    "profile: layout row %d must be %d characters" % (r + 1, self.width)
                )
            for c, letter in enumerate(row):
                if letter == ".":
                    continue
                entry = self.legend.get(letter)
                if entry is None:
                    raise ProfileError(
                        "profile: layout row %d: %r is not in the legend" % (r + 1, letter)
                    )
                cells[r * self.width + c] = self.letters.find(letter)
        return cells

    def _read_chips(self, chips):
        out = {}  # type: dict[str, int]
        for spelling, count in chips.items():
            try:
                ch, joker = faces.parse(spelling)
            except EngineError as exc:
                raise ProfileError("profile: chips: " + str(exc))
            if joker and ch != faces.JOKER:
                raise ProfileError("profile: chips: jokers are listed as a bare '?'")
            if not isinstance(count, int) or count < 0:
                raise ProfileError("profile: chips: count of %r must be >= 0" % spelling)
            out[ch] = out.get(ch, 0) + count
        return out

    def _read_penalties(self, pen):
        if not isinstance(pen, dict):
            raise ProfileError("profile: 'penalties' must be an object")
        out = {"operator": 10, "joker": 10}
        for key, value in pen.items():
            if key not in out or not isinstance(value, int):
                raise ProfileError("profile: penalties: bad entry %r" % key)
            out[key] = value
        return out

    def premium_letter(self, index):
        """The legend letter of a square's premium, or "" for a plain square."""
        p = self.premiums[index]
        return self.letters[p] if p else ""


def load(path):
    """Read and validate a profile JSON file."""
    import json

    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as exc:
        raise ProfileError("profile: cannot read %s: %s" % (path, exc))
    except ValueError as exc:
        raise ProfileError("profile: %s is not valid JSON: %s" % (path, exc))
    return Profile(data)
