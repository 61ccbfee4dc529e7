"""Square names: a column letter then a row number (`H8`), case-insensitive.

Rows are numbered 1.. from the top and columns A.. from the left, as in RULES.md. The
engine stores a square as the index `row * width + column` of the board's cell array.
"""

from engine.errors import SquareError

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def parse(name, width, height):
    """`"H8"` -> index on a width x height board; SquareError if malformed or off the board."""
    if not isinstance(name, str) or len(name) < 2:
        raise SquareError("bad square %r" % (name,))
    col = _LETTERS.find(name[0].upper())
    digits = name[1:]
    if col < 0 or not digits.isdigit() or digits[0] == "0":
        raise SquareError("bad square %r" % (name,))
    row = int(digits) - 1
    if col >= width or row >= height:
        raise SquareError("square %s is off the %dx%d board" % (name, width, height))
    return row * width + col


def name(index, width):
    """Index -> `"H8"`."""
    return _LETTERS[index % width] + str(index // width + 1)


def span(first, last, width):
    """A run's name by its end squares: `"F6-J6"`."""
    return name(first, width) + "-" + name(last, width)
