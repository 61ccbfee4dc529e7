"""The walk that builds Cal-Q-Able sides square by square (engine/movegen_calqable.py).

`walk` lays the rack's faces on a line from a start square, following each side's parse
state and exact value (engine/calqable_parse.py). Short sides are kept. A long side is built
towards the values of the other kind's short sides (engine/calqable_targets.py): a branch
stops once its value can no longer end within reach of one (engine/calqable_ranges.py, and
`reachable` at the start of a number) and, with a floor, once no move from it can beat the
floor. Where its longest run of digits starts, that run is solved for rather than built
(engine/calqable_solve.py). Each state the walk comes to (a square, with the side so far)
is a step, the unit of a search's budget, as is each of engine/calqable_solve.py's `_grow`.

The walks go depth first on lists of their own, not by recursion: on the rp2 port every
Python call nests on the C stack, and the board's think must stay within it (see walk()).
They are module functions, not closures or methods: on MicroPython a call of a closure
with many cells is a heap block each time.

Names with a leading underscore belong to the Cal-Q-Able generator and are shared by its
modules (engine/movegen_calqable.py and engine/calqable_*.py); nothing else should use them.
"""

from engine.calqable_line import _TooMany
from engine.calqable_parse import (
    _ADD,
    _DIGIT,
    _EQUALS,
    _OVER,
    _SLASH,
    _START,
    _TIMES,
    _end,
    _step,
)
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
    its length and the digits left allow (every bound rounded outwards). Depth first on a
    list of its own, not by recursion (see walk())."""
    free = ln.free
    opts = ln.opts
    digits = ln.digits
    whites = ln.whites
    counts = gen.counts
    tn, td, sg, an, ad, dv, ph, num, den = st
    tlo = _down(tn, td)
    thi = _up(tn, td)
    alo = _down(an, ad)
    ahi = _up(an, ad)
    nums = (ph, num, num, num < 10, den, den, den < 10)
    # (tlo, thi): the terms before; sg, (alo, ahi), dv: the current term as in a
    # parse state; nums: its operand, (phase, number lo, hi, of one digit,
    # denominator lo, hi, of one digit) as _digits_step gives them.
    # `waiting`: the squares gone on from, each with its candidates left to try (an
    # iterator) and the count to put back (key None: none) once the one tried fails.
    waiting = []  # type: list[tuple]
    cands = None  # None: the state at square k is new
    while True:
        if cands is None:
            ph = nums[0]
            if (k == stop or (free[k] and not fixed)) and (ph == 1 or ph == 3):
                # the side may end here
                term = _term_range(alo, ahi, dv, nums)
                if term is not None:
                    lo, hi = _plus(tlo, thi, sg, term)
                    if _meets(look, floors, lo, hi):
                        # the counts as they were (the innermost put back first)
                        for i in range(len(waiting) - 1, -1, -1):
                            w = waiting[i]
                            if w[10] is not None:
                                counts[w[10]] = w[11]
                        return True
            if k == stop:
                pass  # no way on: back to the square before
            elif free[k]:
                if tiles > 0:
                    tiles -= 1
                    cands = iter(whites[k])
                    ds = digits[k]
                    a = -1
                    for d, key in ds:
                        if counts[key] > 0:
                            a = d
                            break
                    if a >= 0:
                        b = a
                        for i in range(len(ds) - 1, -1, -1):
                            if counts[ds[i][1]] > 0:
                                b = ds[i][0]
                                break
                        nxt = _digits_step(nums, a, b)
                        if nxt is not None:
                            # a digit first; the other faces if it leads nowhere
                            waiting.append(
                                (k, tiles, tlo, thi, sg, alo, ahi, dv, nums, cands, None, 0)
                            )
                            k += 1
                            nums = nxt
                            cands = None
                            continue
            else:
                o = opts[k][0]
                if o[6] == _DIGIT:
                    nxt = _digits_step(nums, o[7], o[7])
                    if nxt is not None:
                        k += 1  # (this square's answer is the next one's)
                        nums = nxt
                        continue
                else:
                    cands = iter(((o[6], None),))
        if cands is not None:
            ph = nums[0]
            went = False
            for kind, key in cands:
                c = 0
                if key is not None:
                    c = counts[key]
                    if c <= 0:
                        continue
                # the state after it
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
                waiting.append((k, tiles, tlo, thi, sg, alo, ahi, dv, nums, cands, key, c))
                k += 1
                tlo = n_tlo
                thi = n_thi
                sg = n_sg
                alo = n_alo
                ahi = n_ahi
                dv = n_dv
                nums = nst
                cands = None
                went = True
                break
            if went:
                continue
        # this square leads nowhere: back to the one before, to its next candidate
        if not waiting:
            return False
        k, tiles, tlo, thi, sg, alo, ahi, dv, nums, cands, key, c = waiting.pop()
        if key is not None:
            counts[key] = c


def _score_tables(gen, wk):
    """Best first: (floor, gain, factor, most_cross) for walk()'s score bound (see
    _Line.tables()), or Nones when the walk has no bound."""
    if wk.bound is None and wk.bound_short is None:
        return None, None, None, None
    ln = wk.ln
    return gen.floor, ln.gain, ln.factor, ln.most_cross


def walk(gen, wk):
    """Build the sides of `wk`: its short sides into wk.short, each as (value, used,
    tiles, tile sum, equation factor, cross scores, holds a tile on the board,
    placements, start (a left side) or last square (a right side)); its long sides
    (built towards wk.targets) are paired as they come (meet()) and not kept.

    A long side (of `cut` tiles or more) is not built digit by digit in its longest
    run of digits (the last of the longest, if several): the walk builds it up to that
    run's start, where the run is solved for from the values to meet, the last run by
    `tails` and another by `heads` (which builds what follows it). A run knows (first
    square, whether `tails` and `heads` solved it, the length and whether solved of
    the longest run before it) and passes them on to its squares; the walk keeps a side
    itself only when the run that should have solved it could not (× 0).

    The walk goes depth first on a list of its own (`waiting`), not by recursion: on the
    rp2 port every Python call nests on the C stack, which holds some 35 of them, and the
    board calls the search about eleven deep (main loop, step, think). Walked by recursion
    (one call a rack tile), a side of nine tiles nested nine calls deeper, and the board's
    Cal-Q-Able think ran out of stack ("maximum recursion depth exceeded") on the emulated
    Pico (2026-11-29). The calls it makes (tails, heads, reachable, the pairing) nest a
    fixed depth each, none by recursion."""
    ln = wk.ln
    opts = ln.opts
    free = ln.free
    board = ln.board
    white_count = ln.white_count
    empties = ln.empties
    spots = ln.spots
    nspots = len(spots)
    n = ln.n
    counts = gen.counts
    s0 = wk.s0
    stop = wk.stop
    fixed = wk.fixed
    most = wk.most
    cut = wk.cut
    spare = wk.spare
    targets = wk.targets
    gaps = wk.gaps
    need_old = wk.need_old
    short = wk.short
    room = wk.room
    white_keys = gen.white_keys
    floors = targets.floors if targets is not None else []
    placed = []  # type: list[int]  # (see _placement)
    at = ln.at
    bound = wk.bound
    bound_short = wk.bound_short
    floor, gain, factor, most_cross = _score_tables(gen, wk)
    k = s0
    st = _START
    used = 0
    nk = 0
    tsum = 0
    mult = 1
    cross_sum = 0
    old = False
    rfl = gen.rack_flags()
    run = None
    # run: (first square, tails done, heads done, length of the longest run before,
    # whether that one was solved) of the current run of digits, or None (no targets, or
    # no run yet).
    # `waiting`: the squares gone on from with a rack tile, each with its state, the
    # faces left to try (`here`) and the count of the face laid, put back once the walk
    # from the next square is done. A tile on the board is walked past in place (k + 1,
    # no entry): its square has no other face to try.
    waiting = []  # type: list[tuple]
    here = None  # the faces of square k left to try (an iterator); None: the state is new
    end = 0
    digits = True
    while True:
        while here is None:  # (once: each `break` before the end goes back)
            gen.steps += 1
            if gen.steps >= gen.next_check:
                gen.next_check += STEP_CHECK
                gen.steps_done()
            ph = st[6]
            # (A side cannot end at a run start, so the ends come first: the checks below
            # then spare a run start that leads nowhere its `tails` and `heads`.)
            if k == stop or (free[k] and not fixed and (ph == 1 or ph == 3)):
                # the side may end here
                if nk < cut or run is None:
                    keep = True
                else:
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
                            gen.meet(wk, value, used, nk, tsum, mult, cross_sum, old, placed, pos)
                if k == stop:
                    break
            left = most - nk
            if fixed:
                end = stop
            else:
                end = empties[k] + max(left, 0)
                # (a right side ends by `stop`: the line's end, or a run with another `=`
                # after)
                end = min(spots[end] if end < nspots else n, stop)
            b = bound if nk >= cut else bound_short
            if b is not None:
                # Best first: every move with a side on from here scores at most the
                # squares up to `end` at their best, with the best of the other sides.
                top = tsum + gain[end] - gain[k] + b[0]
                top *= mult * (factor[end] // factor[k]) * b[1]
                if top + cross_sum + most_cross[end] - most_cross[k] + b[2] <= floor[0]:
                    break
            if free[k]:
                if left <= 0:
                    break
                if gaps is not None and not old and gaps[k] > left:
                    break  # this side must reach a tile on the board, and cannot
                if targets is not None and nk + 1 >= cut:
                    # Every side on from here has more than `cut` tiles: it must meet a
                    # short side of the other kind.
                    look = targets.lookup(spare - (most if fixed else nk + 1), used)
                    b = _bounds(st, end - k, fixed, rfl | board[k][end])
                    if b is None:
                        break
                    if not _meets(look, floors, b[0], b[1]):
                        z = b[2]
                        if z is None or not _meets(look, floors, z[0], z[1]):
                            break
            if targets is not None and (ph == 0 or ph == 2):
                if nk >= cut and end - k >= 3:
                    # a run starts: can the side still end with a value to meet?
                    look = targets.lookup(
                        spare - (most if fixed else nk + (1 if free[k] else 0)), used
                    )
                    if not reachable(gen, ln, k, end, fixed, left, st, look, floors):
                        break
                least = 0 if run is None else run[3]
                done = run is None or run[4]
                tail = tails(gen, wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least)
                head = heads(gen, wk, k, st, used, nk, tsum, mult, cross_sum, old, placed, least)
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
            here = iter(opts[k])
        if here is not None:
            went = False
            for key, place, code, v, f, c_score, kind, d, bit in here:
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
                if key is None:  # the tile on the board: on to square k + 1 in place
                    nst = _step(st, kind, d)
                    if nst is not None:
                        k += 1
                        st = nst
                        tsum += v
                        old = True
                        run = nrun
                        here = None
                        went = True
                    break
                c = counts[key]
                if c <= 0:
                    continue
                nst = _step(st, kind, d)
                if nst is None:
                    continue
                counts[key] = c - 1
                placed.append(at[k] | code)
                waiting.append(
                    (here, k, st, used, nk, tsum, mult, cross_sum, old, rfl, run, end, digits,
                     key, c)
                )  # fmt: skip
                k += 1
                st = nst
                used += place
                nk += 1
                tsum += v
                mult *= f
                cross_sum += c_score
                if c == 1:
                    rfl &= ~bit
                run = nrun
                here = None
                went = True
                break
            if went:
                continue
        # the walk from square k is done: back to the square it came from, to its next face
        if not waiting:
            return
        here, k, st, used, nk, tsum, mult, cross_sum, old, rfl, run, end, digits, key, c = (
            waiting.pop()
        )
        placed.pop()
        counts[key] = c
