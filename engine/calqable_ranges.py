"""Ranges of the values a Cal-Q-Able side can still end with (engine/movegen_calqable.py).

A long side is built towards the values of the other kind's short sides, and a branch is
cut as soon as the range its value can still end in holds none of them. Ranges are
integers: values times `_SCALE`, rounded down, and bounds rounded outwards, so that a value
within a bound stays within it (no floats: the RP2040's are single precision).
- `_bounds`: from a parse state, the squares left and the faces that may still come;
- `_digits_step`, `_term_range`, `_plus`: the ranges of an operand, a term and a sum, for
  engine/calqable_walk.py's `reachable`, which at the start of a number follows where the
  operators still to come may go;
- `_meets`: whether a lookup (engine/calqable_targets.py) holds a value within a range.

Names with a leading underscore belong to the Cal-Q-Able generator and are shared by its
modules (engine/movegen_calqable.py and engine/calqable_*.py); nothing else should use them.
"""

from engine.calqable_parse import _BAR, _DIV, _MINUS, _MUL, _PLUS, _ZERO

# Bounds and the values they are held against are integers: the value times _SCALE,
# rounded down (a value) or outwards (a bound), so a value within a bound stays within it.
_SCALE = 4096


def _down(n, d):
    return (n * _SCALE) // d


def _up(n, d):
    return -((-n * _SCALE) // d)


def _bounds(st, q, exact, flags):
    """Bounds (times _SCALE) around every value a side in parse state `st` can end with,
    after q more squares (exactly q if `exact`, else at most q) in which only the faces in
    `flags` (`_PLUS`...) besides digits 1-9 may come: (lo, hi, zero), a bound None when
    there is none, `zero` None or (lo, hi) around the values once the current term is
    multiplied by 0; None when the side cannot end validly at all.

    Every operand is >= 0, so a term is too. Any number made of squares still to come is
    below 10^q; after an operator, whatever follows (one term or several, a factor or
    several) is below 10^(q-1), and a factor other than 0 is above 10^(1-q).
    """
    tn, td, sg, an, ad, dv, ph, num, den = st
    more = q >= 2 and flags & 15  # an operator and an operand can still come
    solid = exact and not more  # the current operand takes every square left
    bar = q >= 2 and flags & _BAR
    p = 10**q
    # X, the current operand once complete: from xn/xd to yn/yd.
    if ph == 0:
        if q == 0:
            return None
        xd = 1
        if flags & _ZERO:
            xn = 0
        elif bar and q >= 3:
            xn, xd = 1, p // 100  # 1 over a number of q - 2 digits at most
        elif solid and q > 1:
            xn = p // 10
        else:
            xn = 1
        yn = p - 1
        yd = 1
    elif ph == 1:
        if num == 0:  # `0` takes no more digits: 0, or 0 over something
            if solid and q and not bar:
                return None
            xn = yn = 0
            xd = yd = 1
        else:
            if bar:
                xn, xd = num, p // 10  # over a denominator of q - 1 digits at most
            elif solid:
                xn, xd = num * p, 1
            else:
                xn, xd = num, 1
            yn = (num + 1) * p - 1
            yd = 1
    elif ph == 2:
        if q == 0:
            return None
        xn, xd = num, p - 1
        yn = num
        yd = p // 10 if solid and q > 1 else 1
    else:
        if den == 0:
            return None  # `0` over nothing more, or a leading zero
        xn, xd = num, (den + 1) * p - 1
        yn = num
        yd = den * p if solid else den
    # G, the current term once complete: from gn/gd to hn/hd (hn None: unbounded).
    if dv:
        if yn == 0:
            return None  # divides by zero
        gn, gd = an * yd, ad * yn
        if xn == 0:
            hn, hd = None, 1
        else:
            hn, hd = an * xd, ad * xn
    else:
        gn, gd, hn, hd = an * xn, ad * xd, an * yn, ad * yd
    lo_add = 0
    hi_add = 0
    zero = False
    if more:
        m = p // 10
        if flags & (_MUL | _DIV):
            zero = flags & _MUL and flags & _ZERO  # × 0
            if flags & _DIV or bar:
                gd *= m  # ÷ a number, or × a fraction
            if hn is not None and (flags & _MUL or bar):
                hn *= m  # × a number, or ÷ a fraction
        if flags & _PLUS:
            hi_add = m * _SCALE
        if flags & _MINUS:
            lo_add = -m * _SCALE
    t_lo = _down(tn, td) + lo_add
    t_hi = _up(tn, td) + hi_add
    if sg > 0:
        lo = t_lo + _down(gn, gd)
        hi = None if hn is None else t_hi + _up(hn, hd)
    else:
        lo = None if hn is None else t_lo - _up(hn, hd)
        hi = t_hi - _down(gn, gd)
    return lo, hi, (t_lo, t_hi) if zero else None


def _at(floors, lo):
    """The first index in the sorted list `floors` whose scaled floor is >= lo."""
    i = 0
    j = len(floors)
    while i < j:
        mid = (i + j) // 2
        if floors[mid] < lo:
            i = mid + 1
        else:
            j = mid
    return i


try:  # the same, quicker: in C (not on MicroPython)
    from bisect import bisect_left as _at  # type: ignore[import-not-found,no-redef]
except ImportError:
    pass


def _meets(look, floors, lo, hi):
    """Whether a lookup (a mask of indexes into `floors`, see _Targets) holds a scaled floor
    from lo to hi (None: open)."""
    i = 0 if lo is None else _at(floors, lo)
    if hi is None:
        return look >> i != 0
    j = _at(floors, hi + 1)
    return j > i and (look >> i) & ((1 << (j - i)) - 1) != 0


_FRESH = (0, 0, 0, True, 0, 0, True)  # `reachable`: no operand started


def _digits_step(nums, a, b):
    """`reachable`: an operand's ranges (see there) once a digit from a to b follows, or
    None if it cannot."""
    ph, nlo, nhi, n1, dlo, dhi, d1 = nums
    if ph == 0:
        return (1, a, b, True, 0, 0, True)
    if ph == 1:
        if nhi == 0:
            return None  # `0` takes no more digits
        if n1:
            nlo = max(nlo, 1)
        return (1, nlo * 10 + a, nhi * 10 + b, False, 0, 0, True)
    if ph == 2:
        return (3, nlo, nhi, n1, a, b, True)
    if dhi == 0:
        return None
    if d1:
        dlo = max(dlo, 1)
    return (3, nlo, nhi, n1, dlo * 10 + a, dhi * 10 + b, False)


def _term_range(alo, ahi, dv, nums):
    """`reachable`: the scaled range (lo, hi) of the current term (factors from alo to
    ahi, scaled; ahi None: unbounded) once its operand (ranges `nums`) is complete; None
    if it cannot be."""
    S = _SCALE
    ph, nlo, nhi, _, dlo, dhi, _ = nums
    if ph == 1:
        xlo = nlo * S
        xhi = nhi * S
        tiny = S  # the least operand other than 0
    elif ph == 3 and dhi > 0:
        xlo = (nlo * S) // dhi
        xhi = -((-nhi * S) // max(dlo, 1))
        tiny = S // dhi
    else:
        return None
    if dv:
        if xhi == 0:
            return None  # divides by zero
        xlo = max(xlo, tiny)
        lo = (alo * S) // xhi
        hi = None if ahi is None or xlo == 0 else -((-ahi * S) // xlo)
    else:
        lo = (alo * xlo) // S
        hi = None if ahi is None else -((-ahi * xhi) // S)
    return lo, hi


def _plus(tlo, thi, sg, term):
    """`reachable`: the range of the terms before (tlo to thi) plus or minus (sg) the
    term's; None stands for no bound."""
    lo, hi = term
    if sg > 0:
        return (None if tlo is None else tlo + lo), (
            None if thi is None or hi is None else thi + hi
        )
    return (None if tlo is None or hi is None else tlo - hi), (None if thi is None else thi - lo)
