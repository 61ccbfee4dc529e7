"""The ruleset seam: what differs between games that share the board and turn code.

`Game` owns the board, the placement shape rules, turns, racks and the bag; it asks its
`Ruleset` for everything a game defines: which faces exist, whether a run is a valid
calculation or equation, what a move scores, bonus points, end penalties and options.
A new game is a subclass registered in `RULESETS` (see engine/calculissimo.py).
"""

from engine import faces
from engine.errors import OptionError
from engine.profile import OPTION_CHOICES


class Ruleset:
    """Base class; subclasses set `name`, `alphabet` and implement `score_runs`."""

    name = ""
    alphabet = ""  # internal face characters allowed on the board
    option_choices = OPTION_CHOICES
    option_defaults = ()  # type: tuple  # (key, default) pairs: options beyond the profile's

    def __init__(self, profile, options=None):
        self.profile = profile
        opts = dict(self.option_defaults)
        opts.update(profile.options)
        if options:
            for key, value in options.items():
                if key not in opts:
                    raise OptionError("unknown option %r" % (key,), key)
                opts[key] = value
        self.options = self.check_options(opts)

    def check_options(self, opts):
        """Validate option values; return the dict (a subclass may normalise it)."""
        for key, choices in self.option_choices.items():
            if opts.get(key) not in choices:
                raise OptionError("option %r must be one of %r" % (key, choices), key)
        for key in ("turn_seconds", "swap_min_bag"):
            value = opts.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise OptionError("option %r must be a whole number >= 0" % key, key)
        return opts

    def face_reasons(self, move):
        """Reasons some chip of the move cannot be laid in this game (list)."""
        return []

    def score_runs(self, board, runs, new):
        """(reasons, run_scores, total) for the runs a placement forms; `new` is its squares."""
        raise NotImplementedError

    def bonus_points(self, move, game):
        """Points added for laying `move` in `game` now."""
        return 0

    replacement_bonus = 0  # points for a rule-5 replacement; 0: the game has no such move

    def chips(self):
        """The chip set in play, face -> count (a game option may shorten it)."""
        return self.profile.chips

    def rack_size(self):
        """Chips on a full rack."""
        return self.profile.rack_size

    open_faces = ""  # faces taken from an open supply beside the board, never on a rack
    whole_swap = False  # True: a swap gives back the whole rack (Cal-Q-Able rule 4)

    def from_rack(self, key):
        """Whether a chip of this face is held on a rack (else taken from an open supply)."""
        return key not in self.open_faces

    def deal(self, bag, players):
        """Known racks: fill every rack from the shuffled `bag` (taking from its end)."""
        racks = []
        for _ in range(players):
            racks.append([bag.pop() for _ in range(self.rack_size())])
        return racks

    def draw_at(self, bag, rack):
        """Known racks: the index in `bag` of the chip `rack` draws next, or -1 for none.
        Every chip is alike here: the last one."""
        return len(bag) - 1

    def end_bonuses(self, game, racks):
        """Points each player gains when the game ends, given the faces left on the racks."""
        return [0] * game.players

    def bonus_turn(self, placed, rack_size):
        """Whether the mover plays again at once."""
        return False

    def chip_penalty(self, ch, joker):
        """What one chip left on a rack costs at the end."""
        if joker:
            return self.profile.penalties["joker"]
        if faces.is_digit(ch):
            return ord(ch) - 48
        return self.profile.penalties["operator"]


RULESETS = {}  # type: dict[str, type[Ruleset]]


def register(cls):
    RULESETS[cls.name] = cls
    return cls


def ruleset_for(profile, options=None):
    """The ruleset instance for a profile's game."""
    cls = RULESETS.get(profile.game)
    if cls is None:
        # A game's module registers its ruleset when imported: engine.<game>.
        try:
            __import__("engine." + profile.game)
        except ImportError:
            pass
        cls = RULESETS.get(profile.game)
    if cls is None:
        raise OptionError("no ruleset for game %r" % (profile.game,))
    return cls(profile, options)
