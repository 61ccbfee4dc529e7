"""Load a game record file and replay it through the engine (GAME_RECORD.md).

`load(path, profile_path=None)` returns (record, profile) or raises `Unreadable` with the
message and the 1-based line of the offending value, which the command prints as the one
line `{"error": ..., "line": N}` (line 0 when there is no file to point into). A text nested
deeper than Python's parser goes is such an error too, at the line where it is deepest.
"""

import json
from pathlib import Path

from engine import record as rec
from engine.errors import EngineError, RecordError
from engine.profile import load as load_profile
from host_tools.jsonpos import deepest_line, line_of

REPO = Path(__file__).resolve().parent.parent
PROFILES = REPO / "hardware" / "profiles"


class Unreadable(Exception):
    """A record that cannot be replayed at all."""

    def __init__(self, message, line):
        super().__init__(message)
        self.message = message
        self.line = line

    def to_dict(self):
        return {"error": self.message, "line": self.line}


def profile_file(game, name):
    """The profile file for a record's `profile` name: "default" is the game's own."""
    return PROFILES / ((game if name == "default" else name) + ".json")


def _read_text(path):
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise Unreadable("cannot read %s: %s" % (path, exc.strerror or exc), 0) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Unreadable(
            "not UTF-8: %s" % exc.reason, raw.count(b"\n", 0, exc.start) + 1
        ) from None


def load(path, profile_path=None):
    """(record, profile, text) for a record file; Unreadable if it cannot be replayed."""
    text = _read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Unreadable("bad JSON: %s" % exc.msg, exc.lineno) from None
    except RecursionError:
        raise Unreadable("bad JSON: nested too deeply", deepest_line(text)) from None
    try:
        game = data.get("game") if isinstance(data, dict) else None
        name = data.get("profile", "default") if isinstance(data, dict) else "default"
        if profile_path is None and isinstance(name, str) and game in rec.GAMES:
            # A profile is named, not located: letters, digits, '-' and '_' only.
            if not name or not all(c.isalnum() or c in "-_" for c in name):
                raise RecordError("unknown profile %r" % name, ("profile",))
            profile_path = profile_file(game, name)
        profile = None
        if profile_path is not None:
            try:
                profile = load_profile(str(profile_path))
            except EngineError as exc:
                raise RecordError(str(exc), ("profile",)) from None
        width, height = (profile.width, profile.height) if profile else (15, 15)
        record = rec.read(data, width, height)
        return record, profile, text
    except RecordError as exc:
        raise Unreadable(exc.message, line_of(text, exc.path)) from None


def replay(path, profile_path=None):
    """(record, output lines) for a record file; Unreadable if it cannot be replayed."""
    record, profile, text = load(path, profile_path)
    try:
        return record, list(rec.replay(record, profile))
    except RecordError as exc:
        raise Unreadable(exc.message, line_of(text, exc.path)) from None
