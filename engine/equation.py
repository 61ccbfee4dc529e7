"""Cal-Q-Able: judging one run as an equation (RULES.md, "An equation").

A run is a `str` (or its `bytes`) of internal face characters (engine/faces.py): digits,
`+ - * :` for `+ − × ÷`, `/` for the fraction bar and `=`. It is a true equation when it
holds exactly one `=` and both sides follow the grammar below and have the same exact
rational value.

    side     = operand (op operand)*          op in `+ - * :`, no unary minus
    operand  = number | number "/" number     a fraction literal, tighter than any op
    number   = digit+                         adjacent digits, no leading zero (`0` is fine)

`×` and `÷` bind tighter than `+` and `−`, left to right as met. Fractions need not be in
lowest terms. When a run breaks several rules, the reason reported is the first of:
no_equals, two_equals, malformed, leading_zero, division_by_zero, not_equal.
"""

from engine.arith import evaluate

NO_EQUALS = "no_equals"
TWO_EQUALS = "two_equals"
MALFORMED = "malformed"
LEADING_ZERO = "leading_zero"
DIVISION_BY_ZERO = "division_by_zero"
NOT_EQUAL = "not_equal"

_ZERO = 48  # the codes of `0`, `9`, `/` and `=`
_NINE = 57
_BAR = 47
_EQUALS = b"="


def _op(c):
    """The operator character of code c (`+ - * :`), or None."""
    if c == 43 or c == 45 or c == 42 or c == 58:
        return chr(c)
    return None


def _side(text, start, end):
    """The value (n, d) of text[start:end] (bytes), or the reason code string why it has
    none.

    One left-to-right scan: a malformed side is reported as soon as it is seen; a leading
    zero or a fraction literal over 0 is noted and reported once the side has been read.
    The characters are read as codes (ints): the board's live preview judges its main
    equation at every tile laid, and that is cheaper than one-character strings.
    """
    nums = []
    dens = []
    ops = []
    leading_zero = False
    zero_den = False
    i = start
    while True:
        # An operand: whole number, then optionally `/` and a whole denominator.
        j = i
        n = 0
        while j < end:
            c = text[j]
            if c < _ZERO or c > _NINE:
                break
            n = n * 10 + c - _ZERO
            j += 1
        if j == i:
            return MALFORMED  # empty side, operator at the start or after an operator, `/`...
        if j - i > 1 and text[i] == _ZERO:
            leading_zero = True
        d = 1
        if j < end and text[j] == _BAR:
            j += 1
            i = j
            d = 0
            while j < end:
                c = text[j]
                if c < _ZERO or c > _NINE:
                    break
                d = d * 10 + c - _ZERO
                j += 1
            if j == i:
                return MALFORMED  # `/` at the end or before an operator or another `/`
            if j - i > 1 and text[i] == _ZERO:
                leading_zero = True
            if d == 0:
                zero_den = True
        nums.append(n)
        dens.append(d)
        if j == end:
            break
        op = _op(text[j])
        if op is None:
            return MALFORMED  # `a/b/c`, or a character that is no face
        ops.append(op)
        i = j + 1
    if leading_zero:
        return LEADING_ZERO
    if zero_den:
        return DIVISION_BY_ZERO
    return evaluate(nums, ops, False, dens)


def _judge(text):
    """Both sides' values ((n, d), (n, d)), or (reason code, None) for a structural fault.
    `text` is bytes."""
    eq = text.find(_EQUALS)
    if eq < 0:
        return (NO_EQUALS, None)
    if text.find(_EQUALS, eq + 1) >= 0:
        return (TWO_EQUALS, None)
    left = _side(text, 0, eq)
    if left is MALFORMED:
        return (MALFORMED, None)
    right = _side(text, eq + 1, len(text))
    if right is MALFORMED:
        return (MALFORMED, None)
    if left is LEADING_ZERO or right is LEADING_ZERO:
        return (LEADING_ZERO, None)
    if left is DIVISION_BY_ZERO or right is DIVISION_BY_ZERO or left[1] == 0 or right[1] == 0:
        return (DIVISION_BY_ZERO, None)  # a literal over 0, or `÷` by a value that is 0
    return (left, right)


def value(codes):
    """The exact value (n, d) of one side (bytes, no `=`), or None if it is not a
    well-formed side (malformed, a leading zero) or it divides by 0."""
    v = _side(codes, 0, len(codes))
    if isinstance(v, str) or v[1] == 0:
        return None
    return v


def _codes(text):
    return text.encode() if isinstance(text, str) else text


def check(text):
    """None if the run is a true equation, else its reason code (see the module docstring).
    `text` is a str, or the bytes of the board's cell codes (jokers' bit cleared)."""
    left, right = _judge(_codes(text))
    if right is None:
        return left
    if left[0] * right[1] != right[0] * left[1]:
        return NOT_EQUAL
    return None


def sides(text):
    """The exact values ((n, d), (n, d)) of the two sides, each in lowest terms, d > 0.

    Raises ValueError with the reason code as its message if the run is not a well-formed
    equation; a well-formed but false one (not_equal) is returned like any other.
    """
    r = _judge(_codes(text))
    if r[1] is None:
        raise ValueError(r[0])
    return r
