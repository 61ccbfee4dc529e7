"""The engine's exception classes: one specific class per kind of failure.

All derive from `EngineError`, so callers that only want "something is wrong with this
input" catch one class, and callers that care (the board, the replay tool) catch the
specific one.
"""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class FaceError(EngineError):
    """A chip face that is not part of the game (`"%"`, `"12"`, a joker as `×`)."""


class SquareError(EngineError):
    """A square name that is malformed or off the board (`"Z99"`)."""


class ProfileError(EngineError):
    """A board profile (board size, premiums, chip set, options) that is not valid."""


class OptionError(EngineError):
    """A game option with an unknown name or an invalid value; `option` names it."""

    def __init__(self, message, option=None):
        super().__init__(message)
        self.option = option


class RecordError(EngineError):
    """A game record that cannot be read; `path` locates the offending JSON value."""

    def __init__(self, message, path=()):
        super().__init__(message)
        self.message = message
        self.path = tuple(path)


class GameStateError(EngineError):
    """An action that is not allowed in the game's present state (game over, no swap)."""


class IllegalMoveError(EngineError):
    """A placement the rules refuse; `verdict` holds the machine-readable reasons."""

    def __init__(self, verdict):
        codes = ", ".join(r.code for r in verdict.reasons)
        super().__init__("illegal move: " + codes)
        self.verdict = verdict
