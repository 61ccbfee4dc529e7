"""A side of a Cal-Q-Able equation as it is read, face by face (engine/movegen_calqable.py).

A side is read from left to right with its exact value (engine/equation.py's grammar:
numbers of several digits without leading zeros, the fraction bar binding tightest, `×` and
`÷` before `+` and `−`). Its parse state is one flat tuple (`_START`), so that a walk holds
one small tuple a square. `_step` adds a face, `_end` gives the value where a side may end;
`_solve` and `_value_of` go the other way, between a value and the number that a run of
digits must be for the side to end with it. The faces that may still come in a side are
also counted as bits (`_FLAGS`), for engine/calqable_ranges.py.

Names with a leading underscore belong to the Cal-Q-Able generator and are shared by its
modules (engine/movegen_calqable.py and engine/calqable_*.py); nothing else should use them.
"""

from engine.arith import add_term
from engine.compat import gcd

# Faces that may still come in a side, as bits (`_bounds`).
_PLUS = 1
_MINUS = 2
_MUL = 4
_DIV = 8
_BAR = 16
_ZERO = 32  # the digit 0
_WHITE = _PLUS | _MINUS | _MUL | _DIV | _BAR
_FLAGS = {"+": _PLUS, "-": _MINUS, "*": _MUL, ":": _DIV, "/": _BAR, "0": _ZERO}


# A side's parse state is flat: total n, total d (the terms before the current one), sign of
# the current term, its product so far n, d, whether the current operand divides it (`÷`
# before it), phase (0: an operand must start; 1: in a number; 2: after `/`; 3: in a
# denominator), number, denominator. A number or denominator of 0 in phase 1 or 3 is the
# single digit `0`, which takes no more digits.
_START = (0, 1, 1, 1, 1, False, 0, 0, 0)

# What a face does to a side: digit, fraction bar, `×`, `÷`, `+`, `−`.
_DIGIT = 0
_SLASH = 1
_TIMES = 2
_OVER = 3
_ADD = 4
_SUB = 5
_EQUALS = 6  # no side holds one
_KINDS = {"/": _SLASH, "*": _TIMES, ":": _OVER, "+": _ADD, "-": _SUB}


def _kind(ch):
    if "0" <= ch <= "9":
        return _DIGIT
    return _KINDS.get(ch, _EQUALS)


def _step(st, kind, d):
    """The parse state after one more face (`kind`, digit d), or None if no side can go on
    like this: a leading zero, a misplaced operator or bar, a division by zero."""
    tn, td, sg, an, ad, dv, ph, num, den = st
    if kind == _DIGIT:
        if ph == 0:
            return (tn, td, sg, an, ad, dv, 1, d, 0)
        if ph == 1:
            if num == 0:
                return None
            return (tn, td, sg, an, ad, dv, 1, num * 10 + d, 0)
        if ph == 2:
            return (tn, td, sg, an, ad, dv, 3, num, d)
        if den == 0:
            return None
        return (tn, td, sg, an, ad, dv, 3, num, den * 10 + d)
    if kind == _SLASH:
        if ph != 1:
            return None
        return (tn, td, sg, an, ad, dv, 2, num, 0)
    if kind == _EQUALS:
        return None
    term = _term(an, ad, dv, ph, num, den)
    if term is None:
        return None
    an, ad = term
    if kind == _TIMES or kind == _OVER:
        return (tn, td, sg, an, ad, kind == _OVER, 0, 0, 0)
    tn, td = add_term(tn, td, sg, an, ad)
    return (tn, td, 1 if kind == _ADD else -1, 1, 1, False, 0, 0, 0)


def _term(an, ad, dv, ph, num, den):
    """The current term once its operand is complete, as (n, d); None if the operand is
    not complete or the term divides by zero."""
    if ph == 1:
        xd = 1
    elif ph == 3 and den:
        xd = den
    else:
        return None
    if dv:
        an *= xd
        ad *= num
        if ad == 0:
            return None
    else:
        an *= num
        ad *= xd
    return an, ad


def _end(st):
    """The exact value (n, d) in lowest terms of a side in parse state `st` if it may end
    here, else None. (It takes the tuple, not its items: on MicroPython a call `f(*st)`
    copies them into a fresh heap block.)"""
    tn, td, sg, an, ad, dv, ph, num, den = st
    term = _term(an, ad, dv, ph, num, den)
    if term is None:
        return None
    an, ad = term
    n = tn * ad + sg * an * td
    d = td * ad
    g = gcd(n, d)
    return (n // g, d // g)


def _zero(st):
    """At the start of a run of digits in parse state `st`: 1 if no side goes on from
    here (÷ 0/…), 2 if the run cannot change the value (× 0, × 0/…), else 0."""
    if st[6] == 2 and st[7] == 0:
        return 1 if st[5] else 2
    return 2 if st[3] == 0 else 0


def _solve(st, value, over):
    """The number N, a whole number >= 0, that makes a side in parse state `st` (at the
    start of a run of digits: after an operator, or after `/` if `over`) end with `value`
    as N; None if there is none."""
    tn, td, sg, an, ad, dv, _, num, _ = st
    t_n, t_d = value
    # the value is T + sg * term: the term must be gn / gd
    gn = sg * (t_n * td - tn * t_d)
    gd = t_d * td
    # the term is A × X (or A ÷ X): X
    if dv:
        xn, xd = an * gd, ad * gn
    else:
        xn, xd = gn * ad, gd * an
    if over:  # X = num / N
        xn, xd = num * xd, xn
    return _whole(xn, xd)


def _whole(n, d):
    """n / d if it is a whole number >= 0, else None."""
    if d < 0:
        n, d = -n, -d
    if d == 0 or n < 0 or n % d:
        return None
    return n // d


def _value_of(st, n1):
    """The value (n, d), d > 0, of a side in parse state `st` (at the start of a run of
    digits) that ends with the number n1 there; None if it divides by zero."""
    tn, td, sg, an, ad, dv, ph, num, _ = st
    if ph == 0:
        xn, xd = n1, 1
    else:
        xn, xd = num, n1
    if dv:
        xn, xd = xd, xn
    gn = an * xn
    gd = ad * xd
    if gd == 0:
        return None
    return tn * gd + sg * gn * td, td * gd
