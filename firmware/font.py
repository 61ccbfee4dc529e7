"""Bitmap font for the 128x64 OLED: 5x7 glyphs in 6x8 cells, so 21 characters x 8 lines.

A glyph is column bytes, left to right; bit 0 is the top row. ASCII 32..126 are stored in
`FONT`, 5 bytes each. Capitals and digits use rows 0-6; lowercase letters keep their x-height
in rows 2-6, so an accent fits above them in rows 0-1. Descenders stay within row 6.

Accented letters for French and Portuguese are composed on request: the base letter plus a
mark. Acute, grave, circumflex, tilde and diaeresis go in rows 0-1. On a capital, the letter
is first squeezed to six rows (its row 5 dropped) and moved down to rows 2-7. The cedilla goes
in row 7, under the unchanged letter. Also drawn: the operators × ÷ and − (U+2212, wider than
the hyphen). Other Latin letters with marks (å, ø, ł, š, ý, ...) are drawn as their base
letter, so a player's name always reads. Any other character is drawn as a box.

Every glyph drawn differs from every other, so the screen can be read back unambiguously
(firmware/sim/ssd1306_sim.py does this).
"""

from engine.compat import const

CELL_W = const(6)
CELL_H = const(8)

FIRST = const(32)  # FONT holds ASCII FIRST..LAST
LAST = const(126)

# 5 column bytes per glyph, ASCII 32..126.
FONT = (
    b"\x00\x00\x00\x00\x00\x00\x00\x5f\x00\x00\x00\x07\x00\x07\x00\x14\x7f\x14\x7f\x14"  #   ! " #
    b"\x24\x2a\x7f\x2a\x12\x23\x13\x08\x64\x62\x36\x49\x55\x22\x50\x00\x04\x03\x00\x00"  # $ % & '
    b"\x00\x1c\x22\x41\x00\x00\x41\x22\x1c\x00\x14\x08\x3e\x08\x14\x08\x08\x3e\x08\x08"  # ( ) * +
    b"\x00\x50\x30\x00\x00\x00\x08\x08\x08\x00\x00\x60\x60\x00\x00\x20\x10\x08\x04\x02"  # , - . /
    b"\x3e\x51\x49\x45\x3e\x00\x42\x7f\x40\x00\x42\x61\x51\x49\x46\x21\x41\x45\x4b\x31"  # 0 1 2 3
    b"\x18\x14\x12\x7f\x10\x27\x45\x45\x45\x39\x3c\x4a\x49\x49\x30\x01\x71\x09\x05\x03"  # 4 5 6 7
    b"\x36\x49\x49\x49\x36\x06\x49\x49\x29\x1e\x00\x36\x36\x00\x00\x00\x56\x36\x00\x00"  # 8 9 : ;
    b"\x08\x14\x22\x41\x00\x14\x14\x14\x14\x14\x00\x41\x22\x14\x08\x02\x01\x51\x09\x06"  # < = > ?
    b"\x3e\x41\x5d\x55\x5e\x7e\x09\x09\x09\x7e\x7f\x49\x49\x49\x36\x3e\x41\x41\x41\x22"  # @ A B C
    b"\x7f\x41\x41\x22\x1c\x7f\x49\x49\x49\x41\x7f\x09\x09\x09\x01\x3e\x41\x49\x49\x7a"  # D E F G
    b"\x7f\x08\x08\x08\x7f\x00\x41\x7f\x41\x00\x20\x40\x41\x3f\x01\x7f\x08\x14\x22\x41"  # H I J K
    b"\x7f\x40\x40\x40\x40\x7f\x02\x0c\x02\x7f\x7f\x04\x08\x10\x7f\x3e\x41\x41\x41\x3e"  # L M N O
    b"\x7f\x09\x09\x09\x06\x3e\x41\x51\x21\x5e\x7f\x09\x19\x29\x46\x46\x49\x49\x49\x31"  # P Q R S
    b"\x01\x01\x7f\x01\x01\x3f\x40\x40\x40\x3f\x1f\x20\x40\x20\x1f\x3f\x40\x38\x40\x3f"  # T U V W
    b"\x63\x14\x08\x14\x63\x03\x04\x78\x04\x03\x61\x51\x49\x45\x43\x00\x7f\x41\x41\x00"  # X Y Z [
    b"\x02\x04\x08\x10\x20\x00\x41\x41\x7f\x00\x04\x02\x01\x02\x04\x40\x40\x40\x40\x40"  # \\ ] ^ _
    b"\x00\x01\x02\x00\x00\x20\x54\x54\x54\x78\x7f\x48\x44\x44\x38\x38\x44\x44\x44\x20"  # ` a b c
    b"\x38\x44\x44\x48\x7f\x38\x54\x54\x54\x18\x08\x7e\x09\x01\x02\x0c\x52\x52\x52\x3e"  # d e f g
    b"\x7f\x08\x04\x04\x78\x00\x44\x7d\x40\x00\x20\x40\x44\x3d\x00\x7f\x10\x28\x44\x00"  # h i j k
    b"\x00\x41\x7f\x40\x00\x7c\x04\x38\x04\x78\x7c\x08\x04\x04\x78\x38\x44\x44\x44\x38"  # l m n o
    b"\x7e\x12\x12\x12\x0c\x0c\x12\x12\x12\x7e\x7c\x08\x04\x04\x08\x48\x54\x54\x54\x24"  # p q r s
    b"\x04\x3f\x44\x40\x20\x3c\x40\x40\x20\x7c\x1c\x20\x40\x20\x1c\x3c\x40\x30\x40\x3c"  # t u v w
    b"\x44\x28\x10\x28\x44\x0e\x50\x50\x50\x3e\x44\x64\x54\x4c\x44\x00\x08\x36\x41\x00"  # x y z {
    b"\x00\x00\x7f\x00\x00\x00\x41\x36\x08\x00\x08\x04\x08\x10\x08"  # | } ~
)

# Composed letters: base letter and mark key (' acute, ` grave, ^ circumflex, ~ tilde,
# : diaeresis, , cedilla), position by position.
_COMPOSED = "àáâãçéèêëíîïóôõúùûüÀÁÂÃÇÉÈÊÍÓÔÕÚäìòöñÄËÌÎÏÑÒÖÙÛÜ"
_BASES = "aaaaceeeeiiiooouuuuAAAACEEEIOOOUaioonAEIIINOOUUU"
_MARKS = "`'^~,'`^:'^:'^~'`^:`'^~,'`^''^~':``:~::`^:~`:`^:"

# Letters drawn as their base letter (a name such as "Łucja" or "Søren" still reads).
_PLAIN = "åÅøØæÆßłŁńŃśŚźŹżŻćĆčČšŠžŽřŘěĚůŮňŇťŤďĎľĽőŐűŰğĞşŞıİýÝÿŸœŒ"
_PLAIN_BASES = "aAoOaAslLnNsSzZzZcCcCsSzZrReEuUnNtTdDlLoOuUgGsSiIyYyYoO"
_MARK_KEYS = "'`^~:,"
_MARK_COLS = (
    b"\x00\x00\x02\x01\x00\x00\x01\x02\x00\x00\x00\x02\x01\x02\x00"  # acute grave circumflex
    b"\x02\x01\x01\x02\x01\x00\x01\x00\x01\x00\x00\x00\x80\x80\x00"  # tilde diaeresis cedilla
)
_CEDILLA = const(5)

# Other glyphs: the operators, then the box for unknown characters.
_SYMBOLS = "×÷−"
_SYMBOL_COLS = (
    b"\x22\x14\x08\x14\x22\x08\x08\x2a\x08\x08\x08\x08\x08\x08\x08"  # × ÷ −
    b"\x7f\x41\x41\x41\x7f"  # box
)

_CELL = bytearray(CELL_W)


def glyph(ch):
    """The 6 column bytes of character `ch`; the 6th (the gap) is always 0.

    Returns one shared bytearray, overwritten by the next call: copy it to keep it.
    """
    out = _CELL
    c = ord(ch)
    if FIRST <= c <= LAST:
        o = (c - FIRST) * 5
        for k in range(5):
            out[k] = FONT[o + k]
        return out
    i = _COMPOSED.find(ch)
    if i < 0:
        k = _PLAIN.find(ch)
        if k >= 0:
            return glyph(_PLAIN_BASES[k])
        i = _SYMBOLS.find(ch)
        o = (i if i >= 0 else len(_SYMBOLS)) * 5
        for k in range(5):
            out[k] = _SYMBOL_COLS[o + k]
        return out
    o = (ord(_BASES[i]) - FIRST) * 5
    mark = _MARK_KEYS.find(_MARKS[i])
    m = mark * 5
    lower = _BASES[i] >= "a"
    squeeze = not lower and mark != _CEDILLA
    for k in range(5):
        col = FONT[o + k]
        if squeeze:
            col = (col & 0x1F) << 2 | (col & 0x40) << 1  # rows 0-4 and 6 to rows 2-7
        elif lower:
            col &= 0xFC  # rows 0-1 belong to the mark (this drops the dot of i)
        out[k] = col | _MARK_COLS[m + k]
    return out


def charset():
    """Every character the font draws (the box, for unknown ones, is not among them)."""
    return "".join(chr(c) for c in range(FIRST, LAST + 1)) + _COMPOSED + _SYMBOLS
