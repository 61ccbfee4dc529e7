"""A long Cal-Q-Able side's longest run of digits, solved for rather than built
(engine/calqable_walk.py).

A long side must end with one of a few values: those of the short sides it can meet.
Where its longest run of digits starts (the last of them, if several are as long), the run
is solved for, one value at a time:
- `tails`: the run ends the side, so its number follows from each value (`_solve`);
- `heads`: the runs after it are shorter, and what follows it is built (`rest`, walked by
  `_grow`) with the run as 1 and as 2, so that the value is a x + b (a / x + b when the
  run divides) and x follows from each value (`solve1`).
`lay` tells whether a number found can be laid (the board, the cross checks, the rack)
before anything is built; the sides so made are paired at once (`_Calq.meet`).

Names with a leading underscore belong to the Cal-Q-Able generator and are shared by its
modules (engine/movegen_calqable.py and engine/calqable_*.py); nothing else should use them.
"""

from engine.calqable_parse import _DIGIT, _EQUALS, _end, _solve, _step, _whole, _zero
from engine.calqable_ranges import _down, _up
from engine.calqable_targets import _candidates
from engine.movegen import STEP_CHECK


def tails(gen, wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least):
    """Add to wk the long sides that end in a run of digits from square k on (a number,
    or a denominator after `/`) of `least` squares or more, solved for from the values
    they must meet rather than built digit by digit. False (nothing done) when that
    does not pay: the run leaves the value as it is (× 0), or there are more values
    than runs to try."""
    zero = _zero(st)
    if zero:
        return zero == 1
    dv = st[5]
    ph = st[6]
    ln = wk.ln
    opts = ln.opts
    free = ln.free
    counts = gen.counts
    fixed = wk.fixed
    stop = wk.stop
    cut = wk.cut
    left = wk.most - nk
    end = wk.end(k, left)
    # Where the run may end: (square after it, new tiles in it, holds a board tile).
    ends = []
    m = 0
    held = old
    p = k
    digit_keys = 0
    for key in gen.digit_keys:
        if counts[key] > 0:
            digit_keys += 1
    walking = 0  # about how many runs building them digit by digit would try
    runs = 1
    while p < end:
        if free[p]:
            m += 1
            if m > left:
                break
            runs *= max(1, digit_keys - m + 1)
        elif opts[p][0][6] != _DIGIT:
            break  # an operator, bar or `=` on the board ends the run
        else:
            held = True
        p += 1
        if p - k < least:
            continue
        if fixed:
            if p == stop:
                ends.append((p, m, held))
                walking += runs
        elif (p == ln.n or free[p]) and nk + m >= cut and (held or not wk.need_old):
            ends.append((p, m, held))
            walking += runs
    if not ends:
        return True
    spare = wk.spare
    targets = wk.targets
    tried = 0
    todo = []
    for p, m, held in ends:
        j = p - k
        top = 10**j
        low = top // 10 if j > 1 else 0
        first = 1 if low == 0 and (ph == 2 or dv) else low  # no ÷ 0, no over 0
        look = targets.lookup(spare - nk - m, used)
        values = _candidates(targets, look, st, first, top - 1)
        tried += len(values)
        todo.append((p, m, held, values, low, top))
    if tried > 4 * walking:
        return False
    for p, m, held, values, low, top in todo:
        for value in values:
            n = _solve(st, value, ph == 2)
            if n is None or n >= top or n < low or (ph == 2 and n == 0):
                continue
            got = lay(gen, ln, k, p, n)
            if got is not None:
                u, t, f, c, at = got
                pos = wk.s0 if fixed else p - 1
                u += used
                t += tsum
                f *= mult
                c += cross_sum
                gen.meet(wk, value, u, nk + m, t, f, c, held, placed + at, pos)
    return True


def heads(gen, wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least):
    """Add to wk the long sides from square k on (where a run of digits starts: a
    number, or a denominator after `/`) whose run 1, from k, is at least `least`
    squares long and longer than every run after it: what follows run 1 is built
    (`rest`) and run 1 solved for. False (nothing done) when run 1 does not change the
    value (× 0 before it)."""
    zero = _zero(st)
    if zero:
        return zero == 1
    left = wk.most - nk
    end = wk.end(k, left)
    ln = wk.ln
    opts = ln.opts
    free = ln.free
    counts = gen.counts
    tn, td, sg, an, ad, dv, ph, num, _ = st
    nonzero = ph == 2 or dv  # run 1 a denominator or divisor: not 0
    over = (ph == 2) != dv  # run 1 divides the term
    m1 = 0  # new tiles in run 1
    held = old
    q = k
    while q < end:
        # run 1 takes square q
        if free[q]:
            m1 += 1
            if m1 > left:
                break
        elif opts[q][0][6] != _DIGIT:
            break
        else:
            held = True
        q += 1
        if q + 2 > end:
            break  # no room for an operator and a run after run 1
        if not free[q] and opts[q][0][6] == _DIGIT:
            continue  # run 1 goes on over the digit on the board
        if q - k < least or q - k < 2:
            if free[q]:
                continue
            break
        run1 = (k, q, nonzero, over)
        # the parse states once run 1 is 1, and once it is 2
        if ph == 0:
            s1 = (tn, td, sg, an, ad, dv, 1, 1, 0)
            s2 = (tn, td, sg, an, ad, dv, 1, 2, 0)
        else:
            s1 = (tn, td, sg, an, ad, dv, 3, num, 1)
            s2 = (tn, td, sg, an, ad, dv, 3, num, 2)
        for o in opts[q]:  # the operators and bars on the rack, or the one on the board
            key = o[0]
            kind = o[6]
            if kind == _DIGIT or kind == _EQUALS:
                continue
            if key is not None and (counts[key] <= 0 or m1 + 1 > left):
                continue
            n1 = _step(s1, kind, 0)
            n2 = _step(s2, kind, 0)
            if n1 is None or n2 is None:
                continue
            if key is None:
                head = [used, tsum + o[3], mult, cross_sum]
                ctx = rest(gen, wk, run1, head, [], nk + m1, placed)
                _grow(ctx, q + 1, n1, n2, 0, 0, True)
                continue
            counts[key] -= 1
            head = [used + o[1], tsum + o[3], mult * o[4], cross_sum + o[5]]
            more = [ln.at[q] | o[2]]
            ctx = rest(gen, wk, run1, head, more, nk + m1 + 1, placed)
            _grow(ctx, q + 1, n1, n2, 0, 0, held)
            counts[key] += 1
        if not free[q]:
            break  # run 1 stops at the operator or bar on the board
    return True


def rest(gen, wk, run1, head, more, nk, placed):
    """heads(): the tuple for `_grow`, which builds every end of a long side from a square
    on (after run 1 and the operator or bar after it) whose runs are all shorter than run
    1, following the parse states with run 1 as 1 and as 2, and at each end solves run 1
    (`solve1`). run1: (its first square, the square after it, whether it must not be 0,
    whether it divides); head: [usage, tile sum, factor, cross scores] so far, `more` the
    placements after run 1. (heads() calls _grow itself, not through here: one nested
    call less, see _grow.)"""
    ln = wk.ln
    fixed = wk.fixed
    bound = wk.bound
    floor = gain = factor = most_cross = None
    gain1 = factor1 = cross1 = 0
    if bound is not None:  # as in walk(), run 1's squares at their best
        floor = gen.floor
        gain = ln.gain
        factor = ln.factor
        most_cross = ln.most_cross
        k, q1 = run1[0], run1[1]
        gain1 = gain[q1] - gain[k] + bound[0]
        factor1 = factor[q1] // factor[k] * bound[1]
        cross1 = most_cross[q1] - most_cross[k] + bound[2]
    # (a plain function and one tuple, not a closure: see _grow)
    # (in tuples of seven, unpacked one by one: a frame of more than 11 words is a heap
    # block on MicroPython)
    ctx = (
        (gen, wk, ln, ln.opts, ln.at, ln.free, gen.counts),
        (fixed, wk.stop, wk.gaps, wk.need_old, wk.cut,
         run1[1] - run1[0] - 1,  # runs after run 1 are at most this long
         wk.most - nk),
        (bound, floor, gain, factor, most_cross, gain1, factor1),
        (cross1, head, more, nk, placed, run1),
    )  # fmt: skip
    return ctx


def solve1(gen, wk, run1, s1, s2, head, more, nk, held, placed, last):
    """rest(): the sides that end on square `last` in parse states s1 (run 1 as 1) and
    s2 (run 1 as 2), run 1 solved for: every run 1 the rack can lay when the value
    does not depend on it (× 0 after it)."""
    v1 = _end(s1)
    v2 = _end(s2)
    if v1 is None or v2 is None:
        return
    k, q, nonzero, over = run1
    targets = wk.targets
    look = targets.lookup(wk.spare - nk, head[0])  # (tiles left for the other kind)
    if not look:
        return
    pos = wk.s0 if wk.fixed else last
    # The value is a x + b (a / x + b if run 1 divides: `over`), all over dd.
    dd = v1[1] * v2[1]
    w1 = v1[0] * v2[1]
    w2 = v2[0] * v1[1]
    if over:
        a = 2 * (w1 - w2)
        b = 2 * w2 - w1
    else:
        a = w2 - w1
        b = 2 * w1 - w2
    if a == 0:
        f = _down(v1[0], v1[1])
        for value in wk.targets.between(look, f, f):
            if value == v1:
                for x in numbers(gen, wk.ln, k, q, nonzero):
                    side1(gen, wk, k, q, x, value, nk, head, more, held, placed, pos)
        return
    top = 10 ** (q - k)
    low = top // 10 if q - k > 1 else 0
    first = 1 if low == 0 and nonzero else low
    # the value over run 1 from `first` to top - 1 (monotonic)
    if over:
        lo = (a + b * first, dd * first)
        hi = (a + b * (top - 1), dd * (top - 1))
    else:
        lo = (a * first + b, dd)
        hi = (a * (top - 1) + b, dd)
    if lo[0] * hi[1] > hi[0] * lo[1]:
        lo, hi = hi, lo
    for value in wk.targets.between(look, _down(lo[0], lo[1]), _up(hi[0], hi[1])):
        tn, td = value
        g = tn * dd - b * td  # (value × dd - b) × td
        if over:
            x = _whole(a * td, g)
        else:
            x = _whole(g, a * td)
        if x is None or x >= top or x < low or (x == 0 and nonzero):
            continue
        side1(gen, wk, k, q, x, value, nk, head, more, held, placed, pos)


def side1(gen, wk, k, q, n1, value, nk, s, more, held, placed, pos):
    """Pair the side with run 1 = n1 on squares k to q - 1 if it can be laid."""
    got = lay(gen, wk.ln, k, q, n1)
    if got is not None:
        u, t, f, c, at = got
        u += s[0]
        t += s[1]
        f *= s[2]
        c += s[3]
        gen.meet(wk, value, u, nk, t, f, c, held, placed + more + at, pos)


def numbers(gen, ln, a, b, nonzero):
    """Every number the rack (counts now) can lay on squares a to b - 1, in the order of
    their digits' faces square by square (depth first on a list, not by recursion: see
    _grow)."""
    out = []
    free = ln.free
    opts = ln.opts
    counts = gen.counts
    waiting = []  # type: list[tuple]  # (square, number so far, faces left, face laid)
    r = a
    n = 0
    here = None  # the faces of square r left to try; None: the number so far is new
    while True:
        if here is None:
            if r == b:
                if n or not nonzero:
                    out.append(n)
            elif r > a and n == 0:
                pass  # leading zero
            elif not free[r]:
                n = n * 10 + opts[r][0][7]  # the digit on the board, in place
                r += 1
                continue
            else:
                here = iter(opts[r])
        if here is not None:
            went = False
            for o in here:
                key = o[0]
                if o[6] == _DIGIT and counts[key] > 0:
                    counts[key] -= 1
                    waiting.append((r, n, here, key))
                    r += 1
                    n = n * 10 + o[7]
                    here = None
                    went = True
                    break
            if went:
                continue
        if not waiting:
            return out
        r, n, here, key = waiting.pop()
        counts[key] += 1


def lay(gen, ln, a, b, n):
    """What laying the number n on squares a to b - 1 (new digits from the rack, the
    others on the board already) adds to a side: (usage, tile sum, factor, cross
    scores, placements), or None if the board, the cross checks or the rack do not let
    it. The rack's counts are left as they were. Most numbers solved for cannot be
    laid: that is found before anything is built (on the chip every new object is a
    search of the heap)."""
    opts = ln.opts
    free = ln.free
    counts = gen.counts
    # Can it be laid? The digits are taken off the counts on the way (a number may
    # want one twice), then put back.
    ok = True
    q = b - 1
    m = n
    while q >= a:
        d = m % 10
        m //= 10
        if not free[q]:
            if opts[q][0][7] != d:
                ok = False
                break
        else:
            for o in opts[q]:
                if o[6] == _DIGIT and o[7] == d:
                    break
            else:
                ok = False
                break
            key = o[0]
            if counts[key] <= 0:
                ok = False
                break
            counts[key] -= 1
        q -= 1
    stop = q
    q = b - 1
    m = n
    while q > stop:
        d = m % 10
        m //= 10
        if free[q]:
            counts[chr(48 + d)] += 1
        q -= 1
    if not ok:
        return None
    u = t = c = 0
    f = 1
    at = []  # type: list[int]
    q = b - 1
    while q >= a:
        d = n % 10
        n //= 10
        if not free[q]:
            t += opts[q][0][3]
        else:
            for o in opts[q]:
                if o[6] == _DIGIT and o[7] == d:
                    break
            u += o[1]
            t += o[3]
            f *= o[4]
            c += o[5]
            at.append(ln.at[q] | o[2])
        q -= 1
    return u, t, f, c, at


def _grow(ctx, r, s1, s2, run, m, held):
    """heads()'s walk, given rest()'s tuple: squares q to r - 1 built, m new tiles;
    `run`: the length of the run of digits they end in. A module function given one tuple `ctx`, not a closure: on
    MicroPython a call of a closure with more than five cells and arguments together copies
    them into a fresh heap block, every call (py/objclosure.c). Depth first on a list of
    its own, not by recursion: on the rp2 port a Python call nests on the C stack, which
    holds some 35 of them (engine/calqable_walk.py's walk())."""
    self, wk, ln, opts, at, free, counts = ctx[0]
    fixed, stop, gaps, need_old, cut, longest, left = ctx[1]
    bound, floor, gain, factor, most_cross, gain1, factor1 = ctx[2]
    cross1, head, more, nk, placed, run1 = ctx[3]
    # `waiting`: the squares gone on from, each with its faces left to try (an iterator)
    # and what the face tried added (taken back once its walk is done); a tile on the
    # board has no faces left (None), only its value to take back.
    waiting = []  # type: list[tuple]
    here = None  # the faces of square r left to try; None: the state at r is new
    while True:
        if here is None:
            self.steps += 1
            if self.steps >= self.next_check:
                self.next_check += STEP_CHECK
                self.steps_done()
            on = True
            if bound is not None:
                end = stop if fixed else ln.reach(r, left - m)
                top = (head[1] + gain[end] - gain[r] + gain1) * head[2]
                top *= factor[end] // factor[r] * factor1
                if top + head[3] + most_cross[end] - most_cross[r] + cross1 <= floor[0]:
                    on = False
            if on:
                if (
                    run
                    and (r == stop or (not fixed and free[r]))
                    and nk + m >= cut
                    and (held or not need_old)
                ):
                    solve1(self, wk, run1, s1, s2, head, more, nk + m, held, placed, r - 1)
                if r >= stop:
                    pass
                elif free[r]:
                    if m < left and (gaps is None or held or gaps[r] <= left - m):
                        here = iter(opts[r])
                else:
                    o = opts[r][0]
                    kind = o[6]
                    if (run < longest) if kind == _DIGIT else (r + 2 <= stop):
                        t1 = _step(s1, kind, o[7])
                        t2 = _step(s2, kind, o[7])
                        if t1 is not None and t2 is not None:
                            head[1] += o[3]
                            waiting.append((None, o[3]))
                            r += 1
                            s1 = t1
                            s2 = t2
                            run = run + 1 if kind == _DIGIT else 0
                            held = True
                            continue
        if here is not None:
            went = False
            for key, place, code, v, f, c_score, kind, d, _ in here:
                if counts[key] <= 0:
                    continue
                if kind == _DIGIT:
                    if run >= longest:
                        continue
                elif r + 2 > stop:
                    continue  # no room for an operand after it
                t1 = _step(s1, kind, d)
                if t1 is None:
                    continue
                t2 = _step(s2, kind, d)
                if t2 is None:
                    continue
                counts[key] -= 1
                head[0] += place
                head[1] += v
                head[2] *= f
                head[3] += c_score
                more.append(at[r] | code)
                waiting.append((here, r, s1, s2, run, m, held, key, place, v, f, c_score))
                r += 1
                s1 = t1
                s2 = t2
                run = run + 1 if kind == _DIGIT else 0
                m += 1
                here = None
                went = True
                break
            if went:
                continue
        # square r is done: back to the square before, to its next face
        while True:
            if not waiting:
                return
            back = waiting.pop()
            if back[0] is None:
                head[1] -= back[1]  # a tile on the board: its square is done too
                continue
            here, r, s1, s2, run, m, held, key, place, v, f, c_score = back
            more.pop()
            head[0] -= place
            head[1] -= v
            head[2] //= f
            head[3] -= c_score
            counts[key] += 1
            break
