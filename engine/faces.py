"""Chip faces: parsing the accepted spellings, and the one-byte codes the board stores.

A face is held internally as one ASCII character: the digits, `+`, `-`, `*` (×), `:` (÷),
`/` (Cal-Q-Able's fraction bar) and `=`. A board cell holds that character's code, with
bit 7 set for a joker standing for the face, and 0 for an empty square. Text shown to
people or written to game records uses the display forms `×` and `÷`.
"""

from engine.compat import const
from engine.errors import FaceError

JOKER_BIT = const(0x80)
FACE_MASK = const(0x7F)
JOKER = "?"

MUL = "*"
DIV = ":"
PLUS = "+"
MINUS = "-"
BAR = "/"
EQUALS = "="
OPERATORS = "+-*:"

# Every accepted spelling -> internal character (GAME_RECORD.md's aliases included).
_ALIASES = {
    "+": PLUS,
    "-": MINUS,
    "\u2212": MINUS,  # − minus sign
    "\u2013": MINUS,  # – en dash, as printed in the rulebooks
    "×": MUL,
    "*": MUL,
    "x": MUL,
    "X": MUL,
    "÷": DIV,
    ":": DIV,
    "/": BAR,
    "=": EQUALS,
}
_DISPLAY = {MUL: "×", DIV: "÷"}


def parse_char(text):
    """The internal character for one face spelling (no joker prefix); FaceError if unknown."""
    if len(text) == 1 and "0" <= text <= "9":
        return text
    ch = _ALIASES.get(text)
    if ch is None:
        raise FaceError("unknown chip face %r" % (text,))
    return ch


def parse(text):
    """Parse a face as written in records: `"7"`, `"÷"`, `"?7"` -> (char, is_joker).

    A bare `"?"` (an unplayed joker, as in `end.racks`) parses to ("?", True).
    """
    if not isinstance(text, str) or not text:
        raise FaceError("a chip face must be a non-empty string, not %r" % (text,))
    if text[0] == JOKER:
        if len(text) == 1:
            return JOKER, True
        return parse_char(text[1:]), True
    return parse_char(text), False


def display(ch):
    """The face as shown to people: `×` and `÷` for the internal `*` and `:`."""
    return _DISPLAY.get(ch, ch)


def text(ch, joker=False):
    """The record spelling of a face: `"7"`, `"×"`, or `"?7"` for a joker standing for 7."""
    if joker:
        return JOKER if ch == JOKER else JOKER + display(ch)
    return display(ch)


def is_digit(ch):
    return "0" <= ch <= "9"


def cell_code(ch, joker=False):
    """The byte stored in a board cell for a chip."""
    return ord(ch) | JOKER_BIT if joker else ord(ch)


def cell_text(code):
    return text(chr(code & FACE_MASK), bool(code & JOKER_BIT))
