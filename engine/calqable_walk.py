"""The walk that builds Cal-Q-Able sides square by square (engine/movegen_calqable.py).

`_go` lays the rack's faces on a line from a start square, following each side's parse
state and exact value (engine/calqable_parse.py). Short sides are kept. A long side is built
towards the values of the other kind's short sides (engine/calqable_targets.py): a branch
stops once its value can no longer end within reach of one (engine/calqable_ranges.py, and
`reachable` at the start of a number) and, with a floor, once no move from it can beat the
floor. Where its longest run of digits starts, that run is solved for rather than built
(engine/calqable_solve.py). Each call of `_go` (and of engine/calqable_solve.py's `_grow`)
is a step, the unit of a search's budget.

The walks are module functions given one tuple, not closures or methods: on MicroPython a
call of a closure with many cells, or a frame of more than eleven words, is a heap block
each time (see the comments in `_go`).

Names with a leading underscore belong to the Cal-Q-Able generator and are shared by its
modules (engine/movegen_calqable.py and engine/calqable_*.py); nothing else should use them.
"""

from engine.calqable_line import _TooMany
from engine.calqable_parse import _ADD, _DIGIT, _EQUALS, _OVER, _SLASH, _TIMES, _end, _step
from engine.calqable_ranges import (
    _FRESH,
    _SCALE,
    _bounds,
    _digits_step,
    _down,
    _meets,
    _plus,
    _term_range,
    _up,
)
from engine.calqable_solve import heads, tails
from engine.movegen import STEP_CHECK


def reachable(gen, ln, k, stop, fixed, tiles, st, look, floors):
    """Whether a side in parse state `st` at square k can, with up to `tiles` more rack
    tiles (exactly the squares up to `stop` if `fixed`, else ending where it may), end
    with a value whose scaled floor is in the lookup `look` (of `floors`). Sound, not exact:
    the sides are followed by where their operators and bars go, each number within the range
    its length and the digits left allow (every bound rounded outwards)."""
    # (a plain function and one tuple, not a closure: see _go)
    ctx = (ln.free, ln.opts, ln.digits, ln.whites, gen.counts, stop, fixed, look, floors)
    tn, td, sg, an, ad, dv, ph, num, den = st
    nums = (ph, num, num, num < 10, den, den, den < 10)
    return _reach(
        ctx, k, tiles, _down(tn, td), _up(tn, td), sg, _down(an, ad), _up(an, ad), dv, nums
    )


def _go(ctx, k, st, used, nk, tsum, mult, cross_sum, old, rfl, run):
    """_Calq.walk()'s walk from square k (see there), given its tuple `ctx`: a module
    function, not a closure, as _grow."""
    # (Unpacked seven at a time: one unpacking of all 35 made the frame 35 words deeper, and
    # on MicroPython a frame of more than 11 words is a heap block, one a call in the walk.)
    self, wk, ln, opts, free, board, white_count = ctx[0]
    empties, spots, nspots, n, counts, s0, stop = ctx[1]
    fixed, most, cut, spare, targets, gaps, need_old = ctx[2]
    short, room, white_keys, floors, placed = ctx[3]
    at, bound, bound_short, floor, gain, factor, most_cross = ctx[4]
    while True:
        # run: (first square, tails done, heads done, length of the longest run before,
        # whether that one was solved) of the current run of digits, or None (no
        # targets, or no run yet)
        self.steps += 1
        if self.steps >= self.next_check:
            self.next_check += STEP_CHECK
            self.steps_done()
        ph = st[6]
        # (A side cannot end at a run start, so the ends come first: the checks below
        # then spare a run start that leads nowhere its `tails` and `heads`.)
        if k == stop or (free[k] and not fixed and (ph == 1 or ph == 3)):
            # the side may end here
            keep = nk < cut or run is None
            if not keep:
                # the longest run, the last of them, should have solved this side
                keep = not run[1] if k - run[0] >= run[3] else not run[4]
            if keep and k > s0 and (fixed or old or not need_old):
                value = _end(st)
                if value is not None:
                    pos = s0 if fixed else k - 1
                    if targets is None or (nk < cut and not fixed):
                        if wk.skip:
                            wk.skip -= 1  # (by_chunks: one of the lots before)
                        else:
                            side = (
                                value,
                                used,
                                nk,
                                tsum,
                                mult,
                                cross_sum,
                                old,
                                tuple(placed),
                                pos,
                            )
                            short.append(side)
                            if len(short) > room:
                                raise _TooMany()
                    else:
                        self.meet(wk, value, used, nk, tsum, mult, cross_sum, old, placed, pos)
            if k == stop:
                return
        left = most - nk
        if fixed:
            end = stop
        else:
            end = empties[k] + max(left, 0)
            # (a right side ends by `stop`: the line's end, or a run with another `=` after)
            end = min(spots[end] if end < nspots else n, stop)
        b = bound if nk >= cut else bound_short
        if b is not None:
            # Best first: every move with a side on from here scores at most the squares
            # up to `end` at their best, with the best of the other sides.
            top = tsum + gain[end] - gain[k] + b[0]
            top *= mult * (factor[end] // factor[k]) * b[1]
            if top + cross_sum + most_cross[end] - most_cross[k] + b[2] <= floor[0]:
                return
        if free[k]:
            if left <= 0:
                return
            if gaps is not None and not old and gaps[k] > left:
                return  # this side must reach a tile on the board, and cannot
            if targets is not None and nk + 1 >= cut:
                # Every side on from here has more than `cut` tiles: it must meet a
                # short side of the other kind.
                look = targets.lookup(spare - (most if fixed else nk + 1), used)
                b = _bounds(st, end - k, fixed, rfl | board[k][end])
                if b is None:
                    return
                if not _meets(look, floors, b[0], b[1]):
                    z = b[2]
                    if z is None or not _meets(look, floors, z[0], z[1]):
                        return
        if targets is not None and (ph == 0 or ph == 2):
            if nk >= cut and end - k >= 3:
                # a run starts: can the side still end with a value to meet?
                look = targets.lookup(
                    spare - (most if fixed else nk + (1 if free[k] else 0)), used
                )
                if not reachable(self, ln, k, end, fixed, left, st, look, floors):
                    return
            least = 0 if run is None else run[3]
            done = run is None or run[4]
            tail = tails(self, wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least)
            head = heads(self, wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least)
            run = (k, tail, head, least, done)
        # Digits go on only towards a side not found already: a short one, one the run
        # that should solve it could not, or one whose longest run is still to come
        # (room for an operator and a run at least as long as any before).
        digits = True
        if run is not None and nk + (1 if free[k] else 0) >= cut:
            m = k + 1 - run[0]  # this run's length with a digit here
            if run[1] and run[2] and (run[4] or run[3] <= m):
                digits = k + 2 + max(m, run[3]) <= end
                if digits:
                    whites = white_count[end] - white_count[k + 1]
                    for key in white_keys:
                        whites += counts[key]
                    digits = whites > 0
        for key, place, code, v, f, c_score, kind, d, bit in opts[k]:
            nrun = run
            if kind == _DIGIT:
                if not digits:
                    continue
            elif k + 2 > end:
                continue  # no room for an operand after it
            elif run is not None:
                # the run ends: the longest so far (the last of them) passes on
                m = k - run[0]
                if m >= run[3]:
                    nrun = (k + 1, False, False, m, run[2])
                else:
                    nrun = (k + 1, False, False, run[3], run[4])
            if key is None:  # the tile on the board
                nst = _step(st, kind, d)
                if nst is None:
                    return
                break  # on to square k + 1, below
            c = counts[key]
            if c <= 0:
                continue
            nst = _step(st, kind, d)
            if nst is None:
                continue
            counts[key] = c - 1
            placed.append(at[k] | code)
            _go(
                ctx,
                k + 1,
                nst,
                used + place,
                nk + 1,
                tsum + v,
                mult * f,
                cross_sum + c_score,
                old,
                rfl & ~bit if c == 1 else rfl,
                nrun,
            )
            placed.pop()
            counts[key] = c
        else:
            return
        # The tile on the board: the walk goes on from square k + 1 in this frame, not in a
        # call of its own (a frame of _go is a heap block on MicroPython: one a tile on the
        # board held the heap while the walk ran deep).
        k += 1
        st = nst
        tsum += v
        old = True
        run = nrun


def _reach(ctx, k, tiles, tlo, thi, sg, alo, ahi, dv, nums):
    """reachable()'s walk from square k, given its tuple `ctx` (a module function,
    not a closure, as _go)."""
    free, opts, digits, whites, counts, stop, fixed, look, floors = ctx
    # (tlo, thi): the terms before; sg, (alo, ahi), dv: the current term as in a
    # parse state; nums: its operand, (phase, number lo, hi, of one digit,
    # denominator lo, hi, of one digit) as _digits_step gives them
    ph = nums[0]
    if k == stop or (free[k] and not fixed):
        # the side may end here
        if ph == 1 or ph == 3:
            term = _term_range(alo, ahi, dv, nums)
            if term is not None:
                lo, hi = _plus(tlo, thi, sg, term)
                if _meets(look, floors, lo, hi):
                    return True
        if k == stop:
            return False
    if free[k]:
        if tiles <= 0:
            return False
        tiles -= 1
        ds = digits[k]
        a = -1
        for d, key in ds:
            if counts[key] > 0:
                a = d
                break
        if a >= 0:
            b = a
            for j in range(len(ds) - 1, -1, -1):
                if counts[ds[j][1]] > 0:
                    b = ds[j][0]
                    break
            nxt = _digits_step(nums, a, b)
            if nxt is not None and _reach(ctx, k + 1, tiles, tlo, thi, sg, alo, ahi, dv, nxt):
                return True
        cands = whites[k]
    else:
        o = opts[k][0]
        if o[6] == _DIGIT:
            nxt = _digits_step(nums, o[7], o[7])
            return nxt is not None and _reach(ctx, k + 1, tiles, tlo, thi, sg, alo, ahi, dv, nxt)
        cands = ((o[6], None),)
    for kind, key in cands:
        if key is not None:
            c = counts[key]
            if c <= 0:
                continue
        # the state after it, as _reach's arguments (set one by one: a tuple of them would
        # be one more heap block)
        n_tlo = tlo
        n_thi = thi
        n_sg = sg
        if kind == _SLASH:
            if ph != 1:
                continue
            n_alo = alo
            n_ahi = ahi
            n_dv = dv
            nst = (2, nums[1], nums[2], nums[3], 0, 0, True)
        elif kind == _EQUALS or not (ph == 1 or ph == 3):
            continue
        else:
            term = _term_range(alo, ahi, dv, nums)
            if term is None:
                continue
            nst = _FRESH
            if kind == _TIMES or kind == _OVER:
                n_alo = term[0]
                n_ahi = term[1]
                n_dv = kind == _OVER
            else:
                n_tlo, n_thi = _plus(tlo, thi, sg, term)
                n_sg = 1 if kind == _ADD else -1
                n_alo = n_ahi = _SCALE
                n_dv = False
        if key is not None:
            counts[key] = c - 1
        found = _reach(ctx, k + 1, tiles, n_tlo, n_thi, n_sg, n_alo, n_ahi, n_dv, nst)
        if key is not None:
            counts[key] = c
        if found:
            return True
    return False
