"""Upper bounds of Cal-Q-Able move scores by where the `=` stands (engine/movegen_calqable.py).

When only moves above a floor are wanted (the best move, the chip's anytime search), the
generator takes the squares of `=` best bound first and skips every square, and every
line, whose bound the floor has reached. A move is scored (engine/calqable.py) as

    (tile values, tile premiums under new tiles) x (equation premiums under new tiles)
    + (the cross equations' scores) + 50 for a whole rack

and every part only grows when the equation takes one more square, so the bound of a
square `e` is the largest over the longest spans around it: for each first square `a`
within the rack's reach on the left, the span reaching as far right as the tiles left
allow. Empty squares no rack tile may take (their cross equation refuses every face) end
the reach (the one tile that is no rack tile's, the `=`, stands on `e`), and after the
first move a span must hold a tile on the board. In a span, the tiles on the board count
their values; the new tiles count the rack's largest values, the largest of them on the
largest tile premiums (any other pairing adds up to less), times every equation premium on
an empty square, plus each empty square's best cross score. Everything is an integer.

`rough()` bounds a whole line from above without the cross checks (which cost the most of
a line's set-up): the search ranks the lines by it and works a line's bounds out only once
that line comes first. It takes every empty square as open, each cross equation at its
tiles on the board plus the largest value of a rack tile or the `=` (times the square's
premiums), a new `=` and the +50 in every span: each can only raise the bound.
"""

from engine.faces import EQUALS
from engine.profile import CHIP, RUN


def of_line(gen, line, cross_step, spots, rack=None):
    """The bound of each of `spots` (movegen_calqable's (e, new `=` tile or None, rack
    tiles it takes)) for a generation `gen` along the squares `line`. `rack`: rack_of(gen),
    if the caller has it."""
    sums = _Sums(gen, line, cross_step, rack_of(gen) if rack is None else rack)
    return [sums.bound(spot) for spot in spots]


class _Sums:
    """A line's running sums (over line[0:k]) and the rack's largest values."""

    def __init__(self, gen, line, cross_step, rack):
        self.gen = gen
        cells = gen.cells
        prem = gen.prem
        kinds = gen.kinds
        factors = gen.factors
        values = gen.values
        counts = gen.counts
        keys = [key for key in gen.keys if counts[key] > 0]
        n = len(line)
        self.n = n
        # vals: the rack's values, largest first; tops[m]: the most m of them add up to
        self.vals = rack[0]
        self.tops = rack[1]
        self.board = [cells[i] != 0 for i in line]
        empty = [0] * (n + 1)  # empty squares
        held = [0] * (n + 1)  # tiles on the board
        old = [0] * (n + 1)  # their values
        cross_sum = [0] * (n + 1)  # best cross scores
        run = [1] * (n + 1)  # product of the equation premiums on empty squares
        best_cross = [0] * n
        open_ = [True] * n  # False: an empty square no rack tile may take
        chips = []  # type: list[tuple[int, int]]  # (position, factor) of tile premiums > 1
        for k in range(n):
            i = line[k]
            c = cells[i]
            empty[k + 1] = empty[k]
            held[k + 1] = held[k]
            old[k + 1] = old[k]
            cross_sum[k + 1] = cross_sum[k]
            run[k + 1] = run[k]
            if c:
                held[k + 1] += 1
                old[k + 1] += values[c & 0x7F]
                continue
            empty[k + 1] += 1
            p = prem[i]
            if p:
                if kinds[p] == RUN:
                    run[k + 1] *= factors[p]
                elif kinds[p] == CHIP and factors[p] > 1:
                    chips.append((k, factors[p]))
            cross = gen.seg(i, cross_step)
            if cross is not None:
                top = -1
                for key in keys:
                    if key in cross and cross[key] > top:
                        top = cross[key]
                if top < 0:
                    open_[k] = False
                else:
                    best_cross[k] = top
                    cross_sum[k + 1] += top
        self.empty = empty
        self.held = held
        self.old = old
        self.cross_sum = cross_sum
        self.run = run
        self.best_cross = best_cross
        self.open = open_
        self.chips = chips

    def bound(self, spot):
        """The bound of the moves whose `=` stands as `spot` says."""
        gen = self.gen
        e, e_tile, e_rack = spot[0], spot[1], spot[2]
        budget = gen.limit - e_rack
        if budget < 0:
            return 0
        n = self.n
        board = self.board
        open_ = self.open
        empty = self.empty
        held = self.held
        old = self.old
        run = self.run
        cross_sum = self.cross_sum
        tops = self.tops
        vals = self.vals
        nv = len(vals)
        chips = self.chips
        new_eq = e_tile is not None
        # ends[r]: where the span reaching right from e with at most r new tiles ends
        ends = []
        q = e + 1
        used = 0
        for r in range(budget + 1):
            while q < n and open_[q] and (board[q] or used < r):
                if not board[q]:
                    used += 1
                q += 1
            ends.append(q)
        need_old = not gen.first_move  # the equation must hold a tile on the board
        full = gen.rack_size - e_rack  # new tiles besides the `=` that earn the +50
        bonus = gen.bonus(gen.rack_size)
        less = 1 if new_eq else 0
        eq_total = eq_cross = 0
        if new_eq:
            eq_total = e_tile[1]
            eq_cross = e_tile[3] - self.best_cross[e]
        out = 0
        for a in range(e - 1, -1, -1):  # the span's first square
            if not open_[a]:
                break
            kl = empty[e] - empty[a]
            if kl > budget:
                break
            b = ends[budget - kl]
            if need_old and held[b] == held[a]:
                continue
            tiles = empty[b] - empty[a] - less
            m = min(nv, tiles)
            total = old[b] - old[a] + tops[m] + eq_total
            if chips:
                # the largest values on the largest tile premiums
                fs = [f for k, f in chips if a <= k < b and k != e]
                if fs:
                    fs.sort(reverse=True)
                    for j in range(min(len(fs), m)):
                        total += (fs[j] - 1) * vals[j]
            score = total * (run[b] // run[a]) + cross_sum[b] - cross_sum[a] + eq_cross
            if tiles == full:
                score += bonus
            out = max(out, score)
        return out


def rack_of(gen):
    """What rough() needs of the rack (gen.counts) and the generation, worked out once for
    all the lines of a ranking: (the rack's values largest first, top[m] the m largest
    summed, the largest value of a rack tile or the `=`, the +50 if any)."""
    vals = _rack_values(gen)
    top = [0]
    for v in vals:
        top.append(top[-1] + v)
    v_top = max(vals[0] if vals else 0, gen.values[ord(EQUALS)])
    return vals, top, v_top, gen.bonus(gen.rack_size)


def rough(gen, line, cross_step, rack=None):
    """An upper bound of every move along `line` (of of_line()'s bounds too), without the
    cross checks: every empty square taken as open to any rack tile, each cross equation
    at its tiles on the board plus the rack's largest value there, the `=` anywhere.
    `rack`: rack_of(gen), if the caller has it."""
    vals, top, v_top, bonus = rack_of(gen) if rack is None else rack
    values = gen.values
    cells = gen.cells
    prem = gen.prem
    kinds = gen.kinds
    factors = gen.factors
    eq_value = values[ord(EQUALS)]
    n = len(line)
    w = gen.w
    lo = 0  # the squares of the cross equation through i lie in [lo, hi)
    hi = len(cells)
    most = gen.limit + 1  # empty squares a move's span may take: the tiles and a new `=`
    first = gen.first_move
    nv = len(vals)
    # per square: (tile on the board, its value, equation factor, tile factor, cross bound)
    info = []
    for k in range(n):
        i = line[k]
        c = cells[i]
        if c:
            info.append((True, values[c & 0x7F], 1, 1, 0))
            continue
        p = prem[i]
        run_f = tile_f = 1
        if p:
            if kinds[p] == RUN:
                run_f = factors[p]
            elif kinds[p] == CHIP:
                tile_f = factors[p]
        if cross_step == 1:  # (a column: the cross equation lies in i's row)
            lo = i - i % w
            hi = lo + w
        cross = 0
        j = i - cross_step
        if j >= lo and cells[j]:
            while j >= lo and cells[j]:
                cross += values[cells[j] & 0x7F]
                j -= cross_step
            j = i + cross_step
            while j < hi and cells[j]:
                cross += values[cells[j] & 0x7F]
                j += cross_step
            cross = (cross + v_top * tile_f) * run_f
        else:
            j = i + cross_step
            if j < hi and cells[j]:
                while j < hi and cells[j]:
                    cross += values[cells[j] & 0x7F]
                    j += cross_step
                cross = (cross + v_top * tile_f) * run_f
        info.append((False, 0, run_f, tile_f, cross))
    # Every span that starts at a (after an empty square, or the line's start) and goes on
    # over the tiles on the board up to the (most + 1)-th empty square: the spans as one
    # window slid along the line, each square added once and taken off once. (A span built
    # anew from each start, and the rack's values worked out for each line: 14.8-19.9 M
    # WASI fuel for every line of four positions, against 7.2-9.7 M so.)
    out = 0
    empty = 0
    old = 0
    held = 0  # tiles on the board in the span
    run = 1
    crosses = 0
    chips = []  # type: list[int]  # the tile factors above 1 in the span, in its order
    b = 0
    after_tile = False  # square a - 1 holds a tile on the board
    for a in range(n):
        if b < a:  # (the span was empty: no square to take off; square a - 1 is empty)
            b = a
            after_tile = False
        elif a > 0:  # square a - 1 leaves the span
            after_tile, v, run_f, tile_f, cross = info[a - 1]
            if after_tile:
                held -= 1
                old -= v
            else:
                empty -= 1
                run //= run_f
                crosses -= cross
                if tile_f > 1:
                    chips.pop(0)
        while b < n:
            board, v, run_f, tile_f, cross = info[b]
            if board:
                held += 1
                old += v
            else:
                if empty == most:
                    break
                empty += 1
                run *= run_f
                crosses += cross
                if tile_f > 1:
                    chips.append(tile_f)
            b += 1
        if after_tile:
            continue  # (a span starting later in a run of tiles is inside this one's)
        if not held and not first:
            continue
        m = min(nv, empty)
        total = old + top[m]
        if chips:
            ranked = sorted(chips, reverse=True)
            total += eq_value * ranked[0]
            for j in range(min(len(ranked), m)):
                total += (ranked[j] - 1) * vals[j]
        else:
            total += eq_value
        score = total * run + crosses + bonus
        out = max(out, score)
    return out


def _rack_values(gen):
    """The values of the rack's tiles (gen.counts), largest first."""
    counts = gen.counts
    values = gen.values
    out = []  # type: list[int]
    for key in gen.keys:
        if counts[key] > 0:
            out.extend([values[ord(key)]] * counts[key])
    out.sort(reverse=True)
    return out
