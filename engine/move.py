"""A move: the chips laid in one turn, as a hashable value with a text round trip.

`Move.parse("D8:9 E8:+ F8:6 G8:÷ H8:2", 15, 15)` and `str(move)` give the compact form:
square, colon, face; a joker is `?` and the face it stands for (`J8:?7`). Placements are
kept sorted by square, so two moves laying the same chips compare and hash equal whatever
order they were written in.
"""

from engine import faces, squares
from engine.errors import EngineError, FaceError


class Move:
    """Immutable set of (square index, cell code) placements on a board of a given width."""

    def __init__(self, placements, width):
        # placements: iterable of (index, code); code = faces.cell_code(char, joker)
        self.placements = tuple(sorted(placements))
        self.width = width

    @classmethod
    def from_pairs(cls, pairs, width, height):
        """From record pairs `[["D8", "9"], ["J8", "?7"]]`; SquareError or FaceError if bad."""
        out = []
        for pair in pairs:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise FaceError("a placement is [square, face], not %r" % (pair,))
            index = squares.parse(pair[0], width, height)
            ch, joker = faces.parse(pair[1])
            if ch == faces.JOKER:
                raise FaceError("a joker on the board must say what it stands for (?7)")
            out.append((index, faces.cell_code(ch, joker)))
        return cls(out, width)

    @classmethod
    def parse(cls, text, width, height):
        """From the compact text form `"D8:9 E8:+"`."""
        pairs = []
        for token in text.split():
            cut = token.find(":")
            if cut <= 0 or cut == len(token) - 1:
                raise EngineError("bad placement %r: expected SQUARE:FACE" % token)
            pairs.append((token[:cut], token[cut + 1 :]))
        return cls.from_pairs(pairs, width, height)

    def __len__(self):
        return len(self.placements)

    def __iter__(self):
        return iter(self.placements)

    def __eq__(self, other):
        return (
            isinstance(other, Move)
            and self.placements == other.placements
            and self.width == other.width
        )

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self.placements, self.width))

    def pairs(self):
        """The record form: `[["D8", "9"], ...]`."""
        return [[squares.name(i, self.width), faces.cell_text(c)] for i, c in self.placements]

    def __str__(self):
        return " ".join(
            squares.name(i, self.width) + ":" + faces.cell_text(c) for i, c in self.placements
        )

    def __repr__(self):
        return "Move(%r)" % str(self)

    def to_bytes(self):
        """Compact form for history and journals: 3 bytes a chip (index high, low, code)."""
        out = bytearray(3 * len(self.placements))
        k = 0
        for i, code in self.placements:
            out[k] = i >> 8
            out[k + 1] = i & 0xFF
            out[k + 2] = code
            k += 3
        return bytes(out)

    @classmethod
    def from_bytes(cls, data, width):
        return cls(
            [((data[k] << 8) | data[k + 1], data[k + 2]) for k in range(0, len(data), 3)], width
        )
