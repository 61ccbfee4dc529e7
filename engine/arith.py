"""Exact evaluation of a chain `n0 op1 n1 op2 n2 ...` with integers and fractions.

No floats anywhere: MicroPython's are single precision on the RP2040. A value is a pair
(numerator, denominator) in lowest terms with a positive denominator; a denominator of 0
means the chain divides by zero. `×` and `÷` bind tighter than `+` and `−`.

Precedence inside a product (RULES.md option `precedence`):
- standard: `×` and `÷` left to right as met, so `8 ÷ 2 × 2` is 8;
- mul_first: every `×` first, then the divisions, so `8 ÷ 2 × 2` is 8 ÷ 4 = 2.
"""

from engine.compat import gcd

DIV_BY_ZERO = (0, 0)


def add_term(total_n, total_d, sign, term_n, term_d):
    """total + sign × term, as (n, d) with the common factor taken out (d keeps the sign
    of total_d × term_d)."""
    n = total_n * term_d + sign * term_n * total_d
    d = total_d * term_d
    g = gcd(n, d)
    if g > 1:
        n //= g
        d //= g
    return n, d


def evaluate(nums, ops, mul_first=False, dens=None):
    """Value of the chain; `nums` are numerators, `dens` optional denominators (default 1).

    `ops` holds the internal operator characters `+ - * :`, one fewer than `nums`.
    """
    total_n = 0
    total_d = 1
    sign = 1
    term_n = nums[0]
    term_d = 1 if dens is None else dens[0]
    in_first_group = True  # mul_first: still in the factors before the first ÷
    for i in range(len(ops)):
        op = ops[i]
        b_n = nums[i + 1]
        b_d = 1 if dens is None else dens[i + 1]
        if op == "*":
            if mul_first and not in_first_group:
                # x ÷ a × b under mul_first is x ÷ (a × b): b joins the divisor
                term_n *= b_d
                term_d *= b_n
            else:
                term_n *= b_n
                term_d *= b_d
        elif op == ":":
            in_first_group = False
            term_n *= b_d
            term_d *= b_n
        else:
            if term_d == 0:
                return DIV_BY_ZERO
            total_n, total_d = add_term(total_n, total_d, sign, term_n, term_d)
            sign = 1 if op == "+" else -1
            term_n = b_n
            term_d = b_d
            in_first_group = True
    if term_d == 0:
        return DIV_BY_ZERO
    total_n = total_n * term_d + sign * term_n * total_d
    total_d *= term_d
    if total_d < 0:
        total_n = -total_n
        total_d = -total_d
    g = gcd(total_n, total_d)
    if g > 1:
        total_n //= g
        total_d //= g
    return (total_n, total_d)
