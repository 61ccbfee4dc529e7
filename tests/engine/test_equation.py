"""Cal-Q-Able equations (engine/equation.py): RULES.md "An equation", worked by hand.

Runs are written in internal face characters: `*` is ×, `:` is ÷, `/` the fraction bar.
The last two tests cross-check against Python's `fractions` and `re` (CPython only).
"""

import sys

from engine.equation import check, sides, value
from engine.prng import Prng
from tests.engine.checks import eq, raises

TRUE = (
    ("12:5=2+2/5", (12, 5), (12, 5)),  # 12 ÷ 5 = 2 + 2/5, the rulebook's mixed number
    ("2+2/5=12:5", (12, 5), (12, 5)),  # sides swapped
    ("12/5=24/10", (12, 5), (12, 5)),  # fractions need not be in lowest terms
    ("3+4=7", (7, 1), (7, 1)),
    ("2*3+4=10", (10, 1), (10, 1)),  # × before +
    ("4+2*3=10", (10, 1), (10, 1)),
    ("10-2*3=4", (4, 1), (4, 1)),
    ("8:2*2=8", (8, 1), (8, 1)),  # × and ÷ left to right as met
    ("8:2:2=2", (2, 1), (2, 1)),
    ("1/2+1/2=1", (1, 1), (1, 1)),
    ("12+34=46", (46, 1), (46, 1)),  # adjacent digits make one number
    ("100:4=25", (25, 1), (25, 1)),  # `10`, `100`: zeros after the first digit are fine
    ("0+5=5", (5, 1), (5, 1)),  # a lone 0 is a number
    ("3=3", (3, 1), (3, 1)),
    ("0=0", (0, 1), (0, 1)),
    ("0/5=0", (0, 1), (0, 1)),  # 0 over a number is 0
    ("3-5=0-2", (-2, 1), (-2, 1)),  # negative values, no unary minus needed
    ("1:3*3=1", (1, 1), (1, 1)),  # exact: no 0.333...
    ("1/3+1/6=1:2", (1, 2), (1, 2)),
    ("2*3/4=3:2", (3, 2), (3, 2)),  # the fraction literal binds before ×
    ("6:3/4=8", (8, 1), (8, 1)),  # ... and before ÷: 6 ÷ (3/4)
    ("1-1/2-1/2=0", (0, 1), (0, 1)),  # − is left to right too
    ("99999999999*10=999999999990", (999999999990, 1), (999999999990, 1)),  # no overflow
)

FALSE = (
    ("3+4=8", "not_equal"),
    ("2*3+4=14", "not_equal"),  # that would be 2 × (3 + 4)
    ("8:2*2=2", "not_equal"),  # that would be 8 ÷ (2 × 2)
    ("12/5=2", "not_equal"),
    ("1:3=3333/10000", "not_equal"),  # exact, never rounded
    ("3+4", "no_equals"),
    ("7", "no_equals"),
    ("", "no_equals"),
    ("1=1=1", "two_equals"),
    ("3==3", "two_equals"),
    ("+3=3=", "two_equals"),  # rule 9 is reported before the shape
    ("07+1=8", "leading_zero"),
    ("00=0", "leading_zero"),
    ("8=1+07", "leading_zero"),
    ("1/02=1:2", "leading_zero"),  # in a denominator too
    ("07:0=1", "leading_zero"),  # reported before the division by zero
    ("+3=3", "malformed"),  # an operator at either end of a side
    ("3+=3", "malformed"),
    ("3=3+", "malformed"),
    ("3=-3", "malformed"),  # no unary minus
    ("3++4=7", "malformed"),  # two operators in a row
    ("3*:4=1", "malformed"),
    ("=3", "malformed"),  # an empty side
    ("3=", "malformed"),
    ("=", "malformed"),
    ("1/2/3=1", "malformed"),  # a/b/c
    ("1/+2=1", "malformed"),  # a fraction bar next to an operator
    ("1+/2=1", "malformed"),
    ("/2=1:2", "malformed"),
    ("1/=1", "malformed"),
    ("1//2=1", "malformed"),
    ("07+=8", "malformed"),  # the shape is reported before a leading zero
    ("4:0=1+", "malformed"),  # ... and before a division by zero on the other side
    ("3?=3", "malformed"),  # not a face
    ("4:0=1", "division_by_zero"),
    ("4/0=1", "division_by_zero"),  # a fraction literal over 0
    ("0/0=0", "division_by_zero"),
    ("1=4:1/0", "division_by_zero"),  # ÷ by a literal over 0 is not 4 × 0
    ("4:0/5=1", "division_by_zero"),  # ÷ by a value that is 0
    ("1=2+4:0*3", "division_by_zero"),
)


def test_true_equations():
    for text, left, right in TRUE:
        eq(check(text), None, text)
        eq(sides(text), (left, right), text)


def test_false_equations():
    for text, reason in FALSE:
        eq(check(text), reason, text)


def test_sides_raises_the_structural_reason():
    for text, reason in FALSE:
        if reason == "not_equal":
            continue
        exc = raises(ValueError, sides, text)
        eq(str(exc), reason, text)


def test_sides_of_a_false_equation():
    eq(sides("3+4=8"), ((7, 1), (8, 1)))
    eq(sides("2*3+4=14"), ((10, 1), (14, 1)))
    eq(sides("1:3=3333/10000"), ((1, 3), (3333, 10000)))


def test_values_are_in_lowest_terms_with_positive_denominators():
    eq(sides("24/10=6:4"), ((12, 5), (3, 2)))
    eq(sides("1-3/2=0-1:2"), ((-1, 2), (-1, 2)))
    eq(sides("0*7/3=0:5"), ((0, 1), (0, 1)))


def test_value_of_one_side():
    """`value` judges one side alone (the generator's cross checks use it): the same values
    as `sides`, None where a side is malformed, has a leading zero or divides by 0."""
    for text, left, right in TRUE:
        at = text.index("=")
        eq(value(text[:at].encode()), left, text)
        eq(value(text[at + 1 :].encode()), right, text)
    for side in ("", "3+", "+3", "1/2/3", "05", "3/0", "4:0", "4:0/7", "3=3"):
        eq(value(side.encode()), None, side)


def _gen_equation(rng):
    """A random well-formed run and its tokens: ([tokens of left], [tokens of right])."""
    result = []
    for _ in range(2):
        tokens = []
        for k in range(1 + rng.below(4)):
            if k:
                tokens.append("+-*:"[rng.below(4)])
            n = rng.below(13)
            if rng.below(3) == 0:
                tokens.append((n, rng.below(13)))  # a fraction literal, sometimes over 0
            else:
                tokens.append((n, None))
        result.append(tokens)
    return result


def _run_text(tokens):
    out = []
    for t in tokens:
        if isinstance(t, str):
            out.append(t)
        elif t[1] is None:
            out.append(str(t[0]))
        else:
            out.append("%d/%d" % t)
    return "".join(out)


def _fraction_value(tokens):
    """The side's value by Python's own precedence over Fractions; None on division by 0."""
    from fractions import Fraction

    code = []
    for t in tokens:
        if isinstance(t, str):
            code.append({":": "/"}.get(t, t))
        elif t[1] is None:
            code.append("Fraction(%d)" % t[0])
        else:
            code.append("Fraction(%d, %d)" % t)
    try:
        return eval(" ".join(code), {"Fraction": Fraction})
    except ZeroDivisionError:
        return None


def test_sides_match_fractions_on_generated_equations():
    if sys.implementation.name == "micropython":
        return  # no fractions module
    rng = Prng(2024)
    seen = {}
    for _ in range(3000):
        left, right = _gen_equation(rng)
        if rng.below(2):
            # Make it true half the time: the right side becomes the left's value.
            v = _fraction_value(left)
            if v is not None:
                num, den = v.numerator, v.denominator
                right = [(num, den)] if num >= 0 else [(0, None), "-", (-num, den)]
                if den == 1 and rng.below(2):
                    right[-1] = (abs(num), None)
        text = _run_text(left) + "=" + _run_text(right)
        lv = _fraction_value(left)
        rv = _fraction_value(right)
        if lv is None or rv is None:
            want = "division_by_zero"
        else:
            want = None if lv == rv else "not_equal"
            eq(sides(text), ((lv.numerator, lv.denominator), (rv.numerator, rv.denominator)), text)
        eq(check(text), want, text)
        seen[want] = seen.get(want, 0) + 1
    eq(sorted(seen, key=str), [None, "division_by_zero", "not_equal"])
    eq(min(seen.values()) > 100, True, repr(seen))


def test_check_matches_a_reference_on_random_strings():
    if sys.implementation.name == "micropython":
        return  # no fractions module
    import re
    from fractions import Fraction

    num = "(0|[1-9][0-9]*)"
    loose = re.compile(r"[0-9]+(/[0-9]+)?([-+*:][0-9]+(/[0-9]+)?)*\Z")
    strict = re.compile("%s(/%s)?([-+*:]%s(/%s)?)*\\Z" % (num, num, num, num))
    operand = re.compile("[0-9]+(/[0-9]+)?")

    def reference(text):
        if text.count("=") != 1:
            return "no_equals" if "=" not in text else "two_equals"
        parts = text.split("=")
        if not all(loose.match(p) for p in parts):
            return "malformed"
        if not all(strict.match(p) for p in parts):
            return "leading_zero"
        values = []
        for p in parts:
            code = operand.sub(lambda m: "Fraction(%s)" % m.group().replace("/", ", "), p)
            code = code.replace(":", "/")
            try:
                values.append(eval(code, {"Fraction": Fraction}))
            except ZeroDivisionError:
                return "division_by_zero"
        return None if values[0] == values[1] else "not_equal"

    rng = Prng(7)
    alphabet = "0123456789" * 3 + "0000++--**::////=="
    seen = {}
    for _ in range(20000):
        text = "".join(alphabet[rng.below(len(alphabet))] for _ in range(1 + rng.below(9)))
        want = reference(text)
        eq(check(text), want, text)
        seen[want] = seen.get(want, 0) + 1
    eq(len(seen), 7, repr(seen))
