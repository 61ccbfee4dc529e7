"""Move generation: every legal move for a rack on a position, with its score (issue 12).

    from engine import movegen
    for move, score in movegen.scored(game):      # the player to move, their known rack
        ...
    movegen.moves(game, rack=["3", "+", "?"])    # Move objects only
    movegen.best(game)                           # (move, score), or (None, None)

The output is exactly the set of moves `Game.check` calls legal for the player to move
holding `rack`, each once, with `Game.check`'s score (bonus included). `rack` is a list of
faces as `Game.racks` holds them (`"5"`, `"+"`, `"*"`, `":"`, `"?"` for a joker); it
defaults to the mover's rack in a known-rack game and is needed in referee mode. A joker is
tried as every face it may stand for (Calculissimo: anything but `×`), so `?7` and `7` are
two moves. Faces from an open supply (Cal-Q-Able's `=`) come from the unseen count.

How it works (Calculissimo; Cal-Q-Able is engine/movegen_calqable.py, imported on demand):
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
Everything is integers; recursion is one level a new chip (at most the rack size deep).
"""

from engine import faces
from engine.arith import add_term, evaluate
from engine.move import Move
from engine.profile import CHIP, RUN

_DIGITS = "0123456789"
_CALC_JOKER = "0123456789+-:"  # a Calculissimo joker stands for any chip but ×


def supply(game, rack=None):
    """(counts, limit): face key -> chips the mover can lay (`?` for jokers), and the most
    rack chips one move may use.

    Rack faces are counted on `rack` (default: the mover's known rack) and capped by the
    unseen count, as `Game.check` does in referee mode; open-supply faces come from the
    unseen count alone and do not count towards `limit`.
    """
    p = game.to_move
    if rack is None:
        if not game.known:
            raise ValueError("referee mode: the rack must be given")
        rack = game.racks[p]
    rules = game.rules
    counts = {}  # type: dict[str, int]
    n = 0
    for key in rack:
        if rules.from_rack(key):
            counts[key] = counts.get(key, 0) + 1
            n += 1
    for key, n_key in counts.items():
        counts[key] = min(n_key, game.unseen.get(key, 0))
    for key in rules.open_faces:
        counts[key] = game.unseen.get(key, 0)
    return counts, min(n, game.rack_count(p))


def scored(game, rack=None):
    """Yield (move, score) for every legal move of the player to move, each once."""
    return _scored(game, rack, None)


def _scored(game, rack, floor):
    """scored(); with `floor` (a one-item list), moves scoring no more than floor[0] may be
    left out (best() raises it as it goes)."""
    if game.over:
        return
    name = game.rules.name
    if name == "calculissimo":
        gen = _Calc(game, rack, floor).scored()
    elif name == "calqable":
        from engine import movegen_calqable

        gen = movegen_calqable.scored(game, rack, floor)
    else:
        raise ValueError("no move generator for game %r" % (name,))
    yield from gen


def moves(game, rack=None):
    """Yield every legal Move of the player to move, each once."""
    for move, _ in scored(game, rack):
        yield move


def best(game, rack=None):
    """(move, score) of the highest-scoring legal move (the first found on a tie), or
    (None, None) when there is none."""
    best_move = None
    best_score = -1
    floor = [-1]  # the generator builds (and yields) only moves that score more than this
    for move, score in _scored(game, rack, floor):
        if score > best_score:
            best_move = move
            best_score = score
            floor[0] = score
    if best_move is None:
        return None, None
    return best_move, best_score


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


def chain_value(chars, mul_first=False):
    """A Calculissimo run (a str of internal faces) as its value, a positive integer, or
    None if it is no valid calculation (malformed, two `×`, not a positive integer)."""
    n = len(chars)
    if n % 2 == 0:
        return None
    nums = []
    ops = []
    muls = 0
    for k in range(n):
        ch = chars[k]
        if k % 2 == 0:
            if not ("0" <= ch <= "9"):
                return None
            nums.append(ord(ch) - 48)
        else:
            if ch not in faces.OPERATORS:
                return None
            if ch == faces.MUL:
                muls += 1
            ops.append(ch)
    if muls > 1:
        return None
    num, den = evaluate(nums, ops, mul_first)
    if den != 1 or num <= 0:
        return None
    return num


# ----- both games ------------------------------------------------------------------------------


class Generation:
    """What one generation needs of the position, both games: the board, the premiums,
    the supply, and a cache of cross checks (`seg`, by square and direction)."""

    def __init__(self, game, rack, floor=None):
        self.game = game
        self.floor = floor
        board = game.board
        self.cells = board.cells
        self.w = board.width
        self.h = board.height
        profile = game.profile
        self.prem = profile.premiums
        self.kinds = profile.kinds
        self.factors = profile.factors
        self.start_sq = profile.start
        self.first_move = board.is_empty()
        self.counts, self.limit = supply(game, rack)
        self.seg_cache = {}  # type: dict

    def neighbours(self, i, step):
        """The chips before and after square i along `step` (1: across, width: down), as
        two lists of cell codes in line order, up to the first empty square either way."""
        cells = self.cells
        w = self.w
        size = len(cells)
        before = []
        j = i - step
        while j >= 0 and (step != 1 or j // w == i // w) and cells[j]:
            before.append(cells[j])
            j -= step
        before.reverse()
        after = []
        j = i + step
        while j < size and (step != 1 or j // w == i // w) and cells[j]:
            after.append(cells[j])
            j += step
        return before, after

    def seg(self, i, step):
        """The run along `step` through empty square i once a chip is laid there: None if i
        has no neighbour along `step`, else `cross()`'s dict face -> value or score of the
        faces that make that run valid."""
        key = i * 2 + (0 if step == 1 else 1)
        cache = self.seg_cache
        if key in cache:
            return cache[key]
        b, a = self.neighbours(i, step)
        out = self.cross(i, b, a) if b or a else None
        cache[key] = out
        return out

    def lone_squares(self):
        """Yield (i, across, down) for every empty square where one new chip would touch
        the board: its cross checks along the row and the column (either may be None)."""
        cells = self.cells
        w = self.w
        for i in range(len(cells)):
            if not cells[i]:
                across = self.seg(i, 1)
                down = self.seg(i, w)
                if across is not None or down is not None:
                    yield i, across, down

    def cross(self, i, b, a):
        raise NotImplementedError  # each game's generation has its own


def faces_of(codes):
    """Cell codes as a str of internal faces (the joker bit dropped)."""
    return "".join([chr(c & 0x7F) for c in codes])


# ----- Calculissimo --------------------------------------------------------------------------


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
        self.nums = nums
        self.ops = ops
        chars = ""
        for c in nums + ops:
            if c[1] not in chars:
                chars += c[1]
        self.chars = chars  # every face some choice lays

    # -- cross checks ------------------------------------------------------------------------

    def cross(self, i, b, a):
        """The cross check of Generation.seg: a dict face -> value of the faces that make
        the run through empty square i a valid calculation (`b`, `a`: the codes around
        it), by face value."""
        before = faces_of(b)
        after = faces_of(a)
        out = {}
        want = 0  # 1: an operator fits between the neighbours, 2: a number, 3: neither
        for side in (before[-1:], after[:1]):
            if side:
                want |= 1 if "0" <= side <= "9" else 2
        if want != 3:
            mul_first = self.mul_first
            for ch in self.chars:
                if (ch in faces.OPERATORS) == (want == 1):
                    value = chain_value(before + ch + after, mul_first)
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

    def scored(self):
        if self.limit <= 0 or not (self.nums or self.ops):
            return
        w = self.w
        h = self.h
        if not self.first_move:
            for pair in self.singles():
                yield pair
        if self.limit < 2:
            return
        for r in range(h):
            line = list(range(r * w, r * w + w))
            for pair in self.line_moves(line, 1, w):
                yield pair
        for c in range(w):
            line = list(range(c, c + w * h, w))
            for pair in self.line_moves(line, w, 1):
                yield pair

    def singles(self):
        """Moves of one chip: the run across and the run down through it (either may be
        missing, not both)."""
        game = self.game
        counts = self.counts
        w = self.w
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
                    yield move, down[ch] * factor
                elif kind == RUN and down is None and across is not None:
                    yield move, across[ch] * factor
                elif kind:
                    verdict = game.check(move)  # a chip premium, or shared by two runs
                    if verdict.legal:
                        yield move, verdict.score
                else:
                    score = 0
                    if across is not None:
                        score += across[ch]
                    if down is not None:
                        score += down[ch]
                    yield move, score

    def line_moves(self, line, step, cross_step):
        """Moves of two or more chips along one row (step 1) or column (step width)."""
        cells = self.cells
        n = len(line)
        codes = bytes([cells[i] for i in line])
        # touch[k]: how far (in squares) from k the nearest square is that connects a window
        # to the board: a chip, or an empty square with a neighbour across the line.
        # Laying chips up to it takes touch[k] chips (+1 if it is empty).
        need = [0] * (n + 1)
        far = 1000
        need[n] = far
        start_pos = -1
        if self.first_move:
            if self.start_sq in line:
                start_pos = line.index(self.start_sq)
            else:
                return
        for k in range(n - 1, -1, -1):
            if self.first_move:
                need[k] = start_pos - k + 1 if k <= start_pos else 0
            elif codes[k]:
                need[k] = 0
            elif self.seg(line[k], cross_step) is not None:
                need[k] = 1
            else:
                nxt = need[k + 1]
                if nxt >= far:
                    need[k] = far
                else:
                    need[k] = nxt + 1
        for a in range(n):
            if a > 0 and codes[a - 1]:
                continue
            if need[a] > self.limit or (start_pos >= 0 and a > start_pos):
                continue
            ctx = (line, codes, a, need, cross_step, start_pos)
            yield from self.extend(ctx, a, None, None, "", 0, 1, 0, False, False, [])

    def extend(self, ctx, k, fs, ps, op, muls, mult, cross_sum, touched, shared, placed):
        """Grow the window from position k: fs/ps the face and premium chains so far (ps
        None while equal to fs), `op` the pending operator, `placed` the new chips."""
        line, codes, a, need, cross_step, start_pos = ctx
        n = len(line)
        mul_first = self.mul_first
        # Take the chips already on the board as they are.
        while k < n and codes[k]:
            ch = chr(codes[k] & 0x7F)
            if (k - a) % 2 == 0:
                if not ("0" <= ch <= "9"):
                    return
                v = ord(ch) - 48
                if fs is None:
                    fs = _start(v)
                else:
                    fs = _step(fs, op, v, mul_first)
                    if fs is None:
                        return
                    if ps is not None:
                        ps = _step(ps, op, v, mul_first)
            else:
                if ch not in faces.OPERATORS:
                    return
                if ch == faces.MUL:
                    muls += 1
                    if muls > 1:
                        return
                op = ch
            touched = True
            k += 1
        left = self.limit - len(placed)
        # The window may end here (the next square is empty or off the board).
        # (On the first move the window covers the start square: start_pos < k.)
        if (
            len(placed) >= 2
            and (k - a) % 2 == 1
            and (touched or self.first_move)
            and k > start_pos
        ):
            pair = self.finish(fs, ps, mult, cross_sum, shared, placed)
            if pair is not None:
                yield pair
        if k >= n or left <= 0:
            return
        if not touched and need[k] > left:
            return  # the board (or the start square) is out of reach
        i = line[k]
        cross = self.seg(i, cross_step)
        is_num = (k - a) % 2 == 0
        counts = self.counts
        for key, ch, code in self.nums if is_num else self.ops:
            if counts[key] <= 0:
                continue
            joker = code & faces.JOKER_BIT
            kind, factor = self.premium(i, ch, joker)
            c_sum = cross_sum
            c_shared = shared
            c_mult = mult
            if cross is not None:
                if ch not in cross:
                    continue
                c_sum += cross[ch]
                if kind:
                    c_shared = True  # rule 14: the premium goes to one of two runs
                kind = 0
            elif kind == RUN:
                c_mult *= factor
            c_muls = muls
            if is_num:
                v = ord(ch) - 48
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
                if ch == faces.MUL:
                    c_muls += 1
                    if c_muls > 1:
                        continue
            counts[key] -= 1
            placed.append((i, code))
            for pair in self.extend(
                ctx,
                k + 1,
                nfs,
                nps,
                c_op,
                c_muls,
                c_mult,
                c_sum,
                touched or cross is not None,
                c_shared,
                placed,
            ):
                yield pair
            placed.pop()
            counts[key] += 1

    def finish(self, fs, ps, mult, cross_sum, shared, placed):
        """(move, score) for a complete window, or None if it is illegal (or, with a
        floor, scores no more than it)."""
        if shared:
            move = Move(placed, self.w)
            verdict = self.game.check(move)
            return (move, verdict.score) if verdict.legal else None
        value = _final(fs)
        if value is None:
            return None
        if ps is not None:
            value = _final(ps)
            if value is None:
                return None  # premium_invalid
        score = value * mult + cross_sum
        if self.floor is not None and score <= self.floor[0]:
            return None
        return Move(placed, self.w), score
