"""The Calculissimo move generator (engine/movegen.py is both games' front; issue 12).

How it works:
- a move's chips lie in one line, and with the chips there they make one maximal run, its
  *window*. For every row and column and every start square whose left (upper) neighbour
  is empty, the run is extended square by square: a chip on the board is taken as it is,
  an empty square gets each rack face that fits, and wherever the next square is empty the
  window may end. Numbers stand at even offsets and operators at odd ones, so a square's
  kind is fixed; a second `×` or a division by zero cuts the branch;
- the value is kept exactly as the run grows (the same left-to-right chain as
  engine/arith.py), once with face values and once with this turn's chip premiums;
- each empty square has a *cross check*, computed once: the faces that leave the run
  across the line (its neighbours, if any, and the new chip) a valid calculation, each
  with that run's value. A branch that can no longer reach a chip on the board (or the
  start square) with the chips left is cut;
- moves of one chip are found apart, square by square, so none is found twice;
- the score is the main run's premium value times its run premiums plus the cross runs'
  values (a cross run holds one new chip, whose premium is then shared). When a new chip on
  a premium square lies on two runs (rule 14's choice), the move is handed to `Game.check`,
  which searches the assignment; in legal play that is rare (a new operator bridging two
  numbers across the line on a premium square).
Everything is integers. The windows grow depth first on a stack of the generator's own, not
by recursion: the rp2 port's C stack takes about 30 nested Python calls (extend()).
"""

from engine import faces
from engine.arith import add_term
from engine.move import Move
from engine.movegen import STEP_CHECK, Generation, _nothing
from engine.profile import CHIP, RUN

_CALC_JOKER = "0123456789+-:"  # a Calculissimo joker stands for any chip but ×

# ----- exact chains, as engine/arith.py evaluates them -------------------------------------
#
# A chain state is (total n, total d, sign, term n, term d, in the first ÷ group). Numbers
# are whole (chips 0-9, times a premium), so only the term's denominator can become 0, and
# then it stays 0: the run divides by zero whatever follows.


def _start(n):
    return (0, 1, 1, n, 1, True)


def _step(s, op, n, mul_first):
    """The chain `s` followed by `op n`; None once it divides by zero."""
    tn, td, sign, an, ad, first = s
    if op == "*":
        if mul_first and not first:
            ad *= n  # x ÷ a × b is x ÷ (a × b) under mul_first
        else:
            an *= n
    elif op == ":":
        ad *= n
        first = False
    else:
        tn, td = add_term(tn, td, sign, an, ad)
        sign = 1 if op == "+" else -1
        an = n
        ad = 1
        first = True
    if ad == 0:
        return None
    return (tn, td, sign, an, ad, first)


def _final(s):
    """The chain's value if it is a positive integer, else None."""
    tn, td, sign, an, ad, _ = s
    num = tn * ad + sign * an * td
    den = td * ad
    if num <= 0 or num % den:
        return None
    return num // den


def _feed(chain, op, muls, chars, at, mul_first):
    """(chain, pending operator, `×` count) after the faces `chars`, the first at offset
    `at` in its run; None once the run cannot be a calculation (a face of the wrong kind,
    a second `×`, a division by zero)."""
    for ch in chars:
        if at % 2 == 0:
            if not ("0" <= ch <= "9"):
                return None
            v = ord(ch) - 48
            if chain is None:
                chain = _start(v)
            else:
                chain = _step(chain, op, v, mul_first)
                if chain is None:
                    return None
        else:
            if ch not in faces.OPERATORS:
                return None
            if ch == faces.MUL:
                muls += 1
                if muls > 1:
                    return None
            op = ch
        at += 1
    return chain, op, muls


def faces_of(codes):
    """Cell codes as a str of internal faces (the joker bit dropped)."""
    return "".join([chr(c & 0x7F) for c in codes])


class _Calc(Generation):
    """One Calculissimo generation."""

    def __init__(self, game, rack, floor=None):
        Generation.__init__(self, game, rack, floor)
        self.mul_first = game.options["precedence"] == "mul_first"
        counts = self.counts
        # Choices for a number square and an operator square: (key, char, code).
        nums = []  # type: list[tuple[str, str, int]]
        ops = []  # type: list[tuple[str, str, int]]
        for key in sorted(counts):
            if counts[key] <= 0:
                continue
            if key == faces.JOKER:
                for ch in _CALC_JOKER:
                    out = nums if "0" <= ch <= "9" else ops
                    out.append((key, ch, faces.cell_code(ch, True)))
            elif "0" <= key <= "9":
                nums.append((key, key, ord(key)))
            elif key in faces.OPERATORS:
                ops.append((key, key, ord(key)))
        # The highest numbers first: the search (engine/search.py) meets the larger values,
        # the better moves, sooner.
        nums.sort(key=lambda c: -ord(c[1]))
        self.nums = nums
        self.ops = ops
        chars = ""
        for c in nums + ops:
            if c[1] not in chars:
                chars += c[1]
        self.chars = chars  # every face some choice lays
        # The rack's numbers, largest first (a joker as 9): tops[m] is the most m new
        # numbers can add up to (the bound in extend()).
        digits = []
        for key in counts:
            if key == faces.JOKER or "0" <= key <= "9":
                v = 9 if key == faces.JOKER else ord(key) - 48
                digits.extend([v] * counts[key])
        digits.sort(reverse=True)
        tops = [0]
        for v in digits:
            tops.append(tops[-1] + v)
        self.tops = tops
        self.dmax = digits[0] if digits else 0
        self.rack_mul = counts.get(faces.MUL, 0) > 0  # a `×` the window may take from the rack
        self.all_choices = (nums, ops)
        self.modes = {}  # type: dict  # joker_faces()'s choices, by the joker's faces
        self.joker_faces(None)
        self.found = []  # type: list  # the moves of the part being searched
        self.emit = self.keep  # called with each move found (engine/search.py sets its own)
        self.steps_done = _nothing  # called every STEP_CHECK steps (engine/search.py's check)
        self.steps = 0  # calls of extend(), the search's unit of work
        self.next_check = STEP_CHECK

    def joker_faces(self, chars):
        """Let a joker stand only for the faces in `chars` from now on (None: for every
        face it may). engine/search.py's first passes try the faces that most often make
        the best move (`9`, `+`) before all thirteen."""
        # Each set of faces keeps its own choices, so the search may switch back and forth.
        mode = self.modes.get(chars)
        if mode is None:
            nums, ops = self.all_choices
            if chars is not None:
                nums = [c for c in nums if c[0] != faces.JOKER or c[1] in chars]
                ops = [c for c in ops if c[0] != faces.JOKER or c[1] in chars]
            self.nums = nums
            self.ops = ops
            self.choice_cache = {}  # type: dict
            # The choices on a square with no run across: [operators, numbers].
            self.free = [self.choices(-1, 1, 0, None), self.choices(-1, 1, 1, None)]
            mode = self.modes[chars] = (nums, ops, self.choice_cache, self.free)
        self.nums, self.ops, self.choice_cache, self.free = mode

    # -- cross checks ------------------------------------------------------------------------

    def cross(self, i, b, a):
        """The cross check of Generation.seg: a dict face -> value of the faces that make
        the run through empty square i a valid calculation (`b`, `a`: the codes around
        it), by face value."""
        before = faces_of(b)
        after = faces_of(a)
        out = {}  # type: dict[str, int]
        n = len(before) + 1 + len(after)
        if n % 2 == 0:
            return out  # a run ends on numbers at both ends: nothing fits
        # The chip on i is a number at even offsets; the run before it is read once.
        want_num = len(before) % 2 == 0
        mul_first = self.mul_first
        head = _feed(None, "", 0, before, 0, mul_first)
        if head is None:
            return out
        for ch in self.chars:
            if ("0" <= ch <= "9") != want_num:
                continue
            state = _feed(head[0], head[1], head[2], ch, len(before), mul_first)
            if state is not None and after:
                state = _feed(state[0], state[1], state[2], after, len(before) + 1, mul_first)
            if state is not None and state[0] is not None:
                value = _final(state[0])
                if value is not None:
                    out[ch] = value
        return out

    def premium(self, i, ch, joker):
        """(kind, factor) of the premium under a new chip on i, or (0, 1) if none applies
        (a chip premium works only under a number that is not a joker)."""
        p = self.prem[i]
        if not p:
            return 0, 1
        kind = self.kinds[p]
        if kind == CHIP and (joker or not ("0" <= ch <= "9")):
            return 0, 1
        return kind, self.factors[p]

    # -- the generation ------------------------------------------------------------------------
    #
    # The search calls `self.emit(move, score)` for each move it finds (a callback, no
    # generator a level: MicroPython makes a heap object for each generator). `scored()`
    # hands out each part's moves as soon as the part is done; engine/search.py gives its
    # own `emit`, the order of the parts and a budget (`steps`, `check`).

    def parts(self):
        """The generation's parts, in order: ("lone", None, 0, 0) for the moves of one chip,
        then ("line", squares, step, cross step) for every row, then every column."""
        out = []  # type: list[tuple]
        if self.limit <= 0 or not (self.nums or self.ops):
            return out
        w = self.w
        h = self.h
        if not self.first_move:
            out.append(("lone", None, 0, 0))
        if self.limit >= 2:
            for r in range(h):
                out.append(("line", list(range(r * w, r * w + w)), 1, w))
            for c in range(w):
                out.append(("line", list(range(c, c + w * h, w)), w, 1))
        return out

    def run(self, part):
        """Emit every move of one part (see parts())."""
        if part[0] == "lone":
            self.singles()
        else:
            self.line_moves(part[1], part[2], part[3])

    def scored(self):
        found = self.found
        for part in self.parts():
            self.run(part)
            yield from found
            found.clear()

    def keep(self, move, score):
        """The default `emit`: keep the move for scored() to hand out."""
        self.found.append((move, score))

    def singles(self):
        """Moves of one chip: the run across and the run down through it (either may be
        missing, not both)."""
        game = self.game
        counts = self.counts
        w = self.w
        emit = self.emit
        for i, across, down in self.lone_squares():
            for key, ch, code in self.nums + self.ops:
                if counts[key] <= 0:
                    continue
                if (across is not None and ch not in across) or (
                    down is not None and ch not in down
                ):
                    continue
                move = Move([(i, code)], w)
                kind, factor = self.premium(i, ch, code & faces.JOKER_BIT)
                if kind == RUN and across is None and down is not None:
                    emit(move, down[ch] * factor)
                elif kind == RUN and down is None and across is not None:
                    emit(move, across[ch] * factor)
                elif kind:
                    verdict = game.check(move)  # a chip premium, or shared by two runs
                    if verdict.legal:
                        emit(move, verdict.score)
                else:
                    score = 0
                    if across is not None:
                        score += across[ch]
                    if down is not None:
                        score += down[ch]
                    emit(move, score)

    def line_moves(self, line, step, cross_step):
        """Moves of two or more chips along one row (step 1) or column (step width)."""
        self.run_line(self.prepare(("line", line, step, cross_step)))

    def prepare(self, part):
        """What the search of one line needs of the position, worked out once: it holds
        whatever the rack and the most chips a window may take (`limit`), so
        engine/search.py runs one line in several passes on it (run_line). None for a line
        no move may lie on (the first move, off the start square)."""
        _, line, _, cross_step = part
        cells = self.cells
        n = len(line)
        codes = bytes([cells[i] for i in line])
        start_pos = -1
        if self.first_move:
            if self.start_sq not in line:
                return None
            start_pos = line.index(self.start_sq)
        # The run across each empty square (Generation.seg), None where there is none.
        crosses = [None if codes[k] else self.seg(line[k], cross_step) for k in range(n)]
        # need[k]: how many chips it takes, from k on, to reach a square that connects a
        # window to the board (a chip, or an empty square with a neighbour across the
        # line); on the first move, to cover the start square.
        need = [0] * (n + 1)
        far = 1000
        need[n] = far
        for k in range(n - 1, -1, -1):
            if self.first_move:
                need[k] = start_pos - k + 1 if k <= start_pos else 0
            elif codes[k]:
                need[k] = 0
            elif crosses[k] is not None:
                need[k] = 1
            else:
                nxt = need[k + 1]
                need[k] = far if nxt >= far else nxt + 1
        # With a floor, what a window can reach (the bound in extend()).
        reach = self.reach(line, codes, crosses) if self.floor is not None else None
        return (line, codes, need, crosses, cross_step, start_pos, reach)

    def run_line(self, prep):
        """Emit the moves of one prepared line (prepare()) within the current limit."""
        if prep is None:
            return
        line, codes, need, crosses, cross_step, start_pos, reach = prep
        limit = self.limit
        for a in range(len(line)):
            if a > 0 and codes[a - 1]:
                continue
            if need[a] > limit or (start_pos >= 0 and a > start_pos):
                continue
            ctx = (line, codes, a, need, crosses, cross_step, start_pos, reach)
            self.extend(ctx, a, None, None, "", 0, 1, 0, False, False, [])

    def extend(self, ctx, k, fs, ps, op, muls, mult, cross_sum, touched, shared, placed):
        """Grow every window from position k (see enter() for the arguments), depth first
        over the choices of each square. With a stack of its own rather than recursion:
        the rp2 port's C stack takes about 30 nested Python calls, and a window may lay
        seven chips (measured on the emulated Pico: the board's think failed with
        "maximum recursion depth exceeded" when extend() called itself for each chip)."""
        counts = self.counts
        mul_first = self.mul_first
        node = self.enter(ctx, k, fs, ps, op, muls, mult, cross_sum, touched, shared, placed)
        if node is None:
            return
        stack = [node]
        while stack:
            node = stack[-1]
            pick = node[0]
            at = node[1]
            # fmt: off
            (k, fs, ps, op, muls, mult, cross_sum, shared, c_touched, i, cross, is_num,
             sq_kind, factor) = node[3]
            # fmt: on
            child = None
            while at < len(pick):
                key, ch, code, v, joker, c_val = pick[at]
                at += 1
                if counts[key] <= 0:
                    continue
                kind = 0 if joker and sq_kind == CHIP else sq_kind
                c_sum = cross_sum
                c_shared = shared
                c_mult = mult
                if cross is not None:
                    c_sum += c_val
                    if kind:
                        c_shared = True  # rule 14: the premium goes to one of two runs
                    kind = 0
                elif kind == RUN:
                    c_mult *= factor
                c_muls = muls
                if is_num:
                    if fs is None:
                        nfs = _start(v)
                        nps = _start(v * factor) if kind == CHIP else None
                    else:
                        nfs = _step(fs, op, v, mul_first)
                        if nfs is None:
                            continue
                        if kind == CHIP:
                            nps = _step(fs if ps is None else ps, op, v * factor, mul_first)
                        elif ps is not None:
                            nps = _step(ps, op, v, mul_first)
                        else:
                            nps = None
                    c_op = op
                else:
                    nfs = fs
                    nps = ps
                    c_op = ch
                    if v:  # ×
                        c_muls += 1
                        if c_muls > 1:
                            continue
                counts[key] -= 1
                placed.append((i, code))
                child = self.enter(
                    ctx, k + 1, nfs, nps, c_op, c_muls, c_mult, c_sum, c_touched, c_shared, placed
                )
                if child is not None:
                    child[2] = key
                    break
                placed.pop()
                counts[key] += 1
            node[1] = at
            if child is not None:
                stack.append(child)  # its choices next; then back to this node's
                continue
            stack.pop()
            key = node[2]
            if key is not None:  # take back the chip laid to get here
                counts[key] += 1
                placed.pop()

    def enter(self, ctx, k, fs, ps, op, muls, mult, cross_sum, touched, shared, placed):
        """A window reaches position k: fs/ps the face and premium chains so far (ps None
        while equal to fs), `op` the pending operator, `placed` the new chips. Take the
        chips on the board from k on, emit the move if the window may end there, and
        return the node extend() grows it from (None when it cannot grow: cut by the
        board's reach or the bound)."""
        self.steps += 1
        if self.steps >= self.next_check:
            self.next_check += STEP_CHECK
            self.steps_done()
        line, codes, a, need, crosses, cross_step, start_pos, reach = ctx
        n = len(line)
        mul_first = self.mul_first
        # Take the chips already on the board as they are.
        j = k
        while j < n and codes[j]:
            j += 1
        if j > k:
            chars = faces_of(codes[k:j])
            if ps is not None:
                got = _feed(ps, op, muls, chars, k - a, mul_first)
                if got is None:
                    return None
                ps = got[0]
            got = _feed(fs, op, muls, chars, k - a, mul_first)
            if got is None:
                return None
            fs, op, muls = got
            touched = True
            k = j
        left = self.limit - len(placed)
        # The window may end here (the next square is empty or off the board).
        # (On the first move the window covers the start square: start_pos < k.)
        if (
            len(placed) >= 2
            and (k - a) % 2 == 1
            and (touched or self.first_move)
            and k > start_pos
        ):
            self.finish(fs, ps, mult, cross_sum, shared, placed)
        if k >= n or left <= 0:
            return None
        if not touched and need[k] > left:
            return None  # the board (or the start square) is out of reach
        if reach is not None and not shared:
            # Branch and bound: no window grown from here can score more than this.
            # What the next `left` empty squares hold (reach()): e0, e1 their span in
            # the empty squares' prefix tables, `end` the line position after them and
            # the chips on the board that follow.
            empty_at, empties, p_mul, p_cross, p_board, p_times, by_par, nmax = reach
            e0 = empty_at[k]
            e1 = e0 + left
            if e1 >= len(empties):
                e1 = len(empties)
                end = n
            else:
                end = empties[e1]
            p_num, p_fsum, f_top = by_par[a & 1]  # the window's number squares
            m_ub = p_mul[e1] // p_mul[e0]
            c_ub = p_cross[e1] - p_cross[e0]
            # The value: what the chain holds (its total, and its last term, which a `×`
            # may still multiply), plus every number it may take in (on the board, and
            # new: at most the rack's largest digits, times chip premiums), plus one
            # product of two of them if a `×` may come.
            # (A `×` before a number square multiplies the last term by the next number.)
            chain = fs if ps is None else ps
            tops = self.tops
            m = p_num[e1] - p_num[e0]
            v_ub = p_board[end] - p_board[k]
            v_ub += min(
                self.dmax * (p_fsum[e1] - p_fsum[e0]),
                tops[m if m < len(tops) else -1] * f_top,
            )
            pending = op == faces.MUL and (k - a) % 2 == 0
            mul_may = muls == 0 and (p_times[end] > p_times[k] or self.rack_mul)
            if mul_may:
                v_ub += nmax * nmax
            if chain is not None:
                tn, td, _, an, ad, _ = chain
                term = -(-(an if an > 0 else -an) // ad)
                v_ub += -(-tn // td) + (term * nmax if mul_may or pending else term)
            if v_ub * mult * m_ub + cross_sum + c_ub <= self.floor[0]:
                return None
        i = line[k]
        cross = crosses[k]
        is_num = 1 - (k - a) % 2  # 1: a number stands on i, 0: an operator
        # The premium under square i: a run premium for any chip, a chip premium for a
        # number that is not a joker.
        p = self.prem[i]
        sq_kind = self.kinds[p] if p else 0
        factor = self.factors[p] if p else 1
        if sq_kind == CHIP and not is_num:
            sq_kind = 0
        c_touched = touched or cross is not None
        if cross is None:
            pick = self.free[is_num]  # the same for every square with no run across
        else:
            pick = self.choice_cache.get((i * 2 + (0 if cross_step == 1 else 1)) * 2 + is_num)
            if pick is None:
                pick = self.choices(i, cross_step, is_num, cross)
        # [choices, the next to try, the rack key laid to get here (extend() sets it), the
        #  node's state: k, fs, ps, op, muls, mult, cross_sum, shared, touched once a chip
        #  lies on i, i, cross, is_num, sq_kind, factor]
        # fmt: off
        return [pick, 0, None, (k, fs, ps, op, muls, mult, cross_sum, shared, c_touched, i,
                                cross, is_num, sq_kind, factor)]
        # fmt: on

    def reach(self, line, codes, crosses):
        """Prefix tables of one line for extend()'s bound, so that what a window can gain
        over any span of squares is a few subtractions:
        (empty_at: line position -> index of the first empty square from there,
         empties: the empty squares' line positions, then over the empty squares:
         p_mul: products of run premium factors, p_cross: sums of the most each run across
         may add; over line positions: p_board: sums of the numbers on the board,
         p_times: counts of `×` on the board; by_par: for number squares on even and on
         odd line positions, (counts of empty squares, sums of their chip premium factors,
         the largest factor); nmax: the largest number a square of the line can hold)."""
        prem = self.prem
        kinds = self.kinds
        factors = self.factors
        n = len(line)
        empties = []  # type: list[int]
        p_mul = [1]
        p_cross = [0]
        p_board = [0]
        p_times = [0]
        counts = ([0], [0])
        f_sums = ([0], [0])
        f_top = [1, 1]
        empty_at = [0] * (n + 1)
        for j in range(n):
            code = codes[j]
            empty_at[j] = len(empties)
            board = 0
            times = 0
            if code:
                ch = chr(code & 0x7F)
                if "0" <= ch <= "9":
                    board = ord(ch) - 48
                elif ch == faces.MUL:
                    times = 1
            else:
                empties.append(j)
                p = prem[line[j]]
                f = factors[p] if p else 1
                run = p and kinds[p] == RUN
                p_mul.append(p_mul[-1] * (f if run else 1))
                cross = crosses[j]
                best = 0
                if cross:
                    # Rule 14 may give this square's premium to the run across: a run
                    # premium multiplies it; a chip premium multiplies the new number,
                    # which adds at most (f - 1) x 9 x 9 (one `×` with a 9 beside it).
                    best = max(cross.values())
                    if run:
                        best *= f
                    elif p:
                        best += (f - 1) * 81
                p_cross.append(p_cross[-1] + best)
                par = j & 1
                chip = f if p and not run else 1
                for q in (0, 1):
                    counts[q].append(counts[q][-1] + (1 if q == par else 0))
                    f_sums[q].append(f_sums[q][-1] + (chip if q == par else 0))
                f_top[par] = max(f_top[par], chip)
            p_board.append(p_board[-1] + board)
            p_times.append(p_times[-1] + times)
        empty_at[n] = len(empties)
        nmax = 9 * max(f_top[0], f_top[1])
        by_par = ((counts[0], f_sums[0], f_top[0]), (counts[1], f_sums[1], f_top[1]))
        return empty_at, empties, p_mul, p_cross, p_board, p_times, by_par, nmax

    def choices(self, i, cross_step, is_num, cross):
        """The chips that may stand on empty square i, a window's number (is_num) or
        operator: (key, face, code, number value or 1 for `×`, joker, value of the run
        across), those the run across allows (cached by square and direction)."""
        out = []
        for k, ch, code in self.nums if is_num else self.ops:
            if cross is None or ch in cross:
                v = ord(ch) - 48 if is_num else (1 if ch == faces.MUL else 0)
                c_val = cross[ch] if cross is not None else 0
                out.append((k, ch, code, v, code & faces.JOKER_BIT, c_val))
        if cross is not None:
            self.choice_cache[(i * 2 + (0 if cross_step == 1 else 1)) * 2 + is_num] = out
        return out

    def finish(self, fs, ps, mult, cross_sum, shared, placed):
        """Emit the move of a complete window if it is legal (and, with a floor, scores
        more than it)."""
        if shared:
            move = Move(placed, self.w)
            verdict = self.game.check(move)
            if verdict.legal:
                self.emit(move, verdict.score)
            return
        value = _final(fs)
        if value is None:
            return
        if ps is not None:
            value = _final(ps)
            if value is None:
                return  # premium_invalid
        score = value * mult + cross_sum
        if self.floor is not None and score <= self.floor[0]:
            return
        self.emit(Move(placed, self.w), score)


def generation(game, rack=None, floor=None):
    """A Calculissimo generation (engine/movegen.py's `generation`)."""
    return _Calc(game, rack, floor)
