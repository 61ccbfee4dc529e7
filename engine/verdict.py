"""What the engine says about a placement: legal or not, why, and what each run scores.

Reason codes are stable, machine-readable strings (the list is in README.md and
GAME_RECORD.md); `run` names the offending run by its end squares so the board can light it.
"""

# The documented reason codes. Placement shape:
NO_CHIPS = "no_chips"
OFF_BOARD = "off_board"
DUPLICATE_SQUARE = "duplicate_square"
OCCUPIED = "occupied"
NOT_IN_LINE = "not_in_line"
GAP = "gap"
FIRST_MOVE_OFF_START = "first_move_off_start"
NOT_CONNECTED = "not_connected"
NO_CALCULATION = "no_calculation"
# Chips:
BAD_FACE = "bad_face"
JOKER_AS_MULTIPLICATION = "joker_as_multiplication"
TOO_MANY_CHIPS = "too_many_chips"
CHIP_UNAVAILABLE = "chip_unavailable"
NOT_ON_RACK = "not_on_rack"
# Runs:
MALFORMED = "malformed"
TWO_MULTIPLICATIONS = "two_multiplications"
DIVISION_BY_ZERO = "division_by_zero"
NOT_INTEGER = "not_integer"
NOT_POSITIVE = "not_positive"
PREMIUM_INVALID = "premium_invalid"
# Turn state:
GAME_OVER = "game_over"
SWAP_NOT_ALLOWED = "swap_not_allowed"


class Reason:
    """One reason a placement is illegal.

    `run` and `square` are names (or None) for people and records; `where` holds the same
    places as board indices, for the board to light.
    """

    def __init__(self, code, run=None, square=None, where=()):
        self.code = code
        self.run = run
        self.square = square
        self.where = where

    def to_dict(self):
        d = {"code": self.code}
        if self.run is not None:
            d["run"] = self.run
        if self.square is not None:
            d["square"] = self.square
        return d

    def __eq__(self, other):
        return isinstance(other, Reason) and self.to_dict() == other.to_dict()

    def __repr__(self):
        return "Reason(%r)" % (self.to_dict(),)


class RunScore:
    """One run's scoring breakdown.

    Only numbers are computed while validating; the run's name, squares and text are
    derived when asked for (the board's live preview needs scores, not strings).
    """

    def __init__(self, run, codes, face_value, premium_value, multiplier):
        self.run = run
        self.codes = codes  # the run's cell codes, copied when scored
        self.face_value = face_value
        self.premium_value = premium_value
        self.multiplier = multiplier
        self.score = premium_value * multiplier

    @property
    def name(self):
        return self.run.name

    @property
    def squares(self):
        return self.run.square_names()

    @property
    def text(self):
        from engine import faces

        return "".join(faces.display(chr(c & 0x7F)) for c in self.codes)

    def to_dict(self):
        return {
            "run": self.name,
            "squares": self.squares,
            "text": self.text,
            "face_value": self.face_value,
            "premium_value": self.premium_value,
            "multiplier": self.multiplier,
            "score": self.score,
        }


class Verdict:
    """Legal or illegal, with reasons, per-run scores and the move total."""

    def __init__(self, reasons=None, runs=None, score=0, bonus=0):
        self.reasons = reasons or []
        self.runs = runs or []
        self.bonus = bonus  # ruleset bonus points (Cal-Q-Able's +50), included in score
        self.score = score + bonus if not self.reasons else 0
        self.legal = not self.reasons
        self.forfeited = False  # illegal, and the turn was lost for it (the strict option)

    def codes(self):
        return [r.code for r in self.reasons]

    def __repr__(self):
        if self.legal:
            return "Verdict(legal, score=%d)" % self.score
        return "Verdict(illegal, %r)" % (self.codes(),)
