"""Calculissimo: runs are calculations `number op number ... number` (RULES.md).

Validity of a run: numbers and operators alternate, starting and ending on a number; at
most one `×`; exact value a positive integer, with face values and with premiums.

Scoring (rules 9-14): a run scores its value computed with chip premiums (green, blue)
under this turn's non-joker number chips, times every run premium (yellow, purple, logo)
under this turn's chips. A premium square covered this turn that lies on two of the move's
runs applies to one of them only: of all such assignments, the engine takes the one with
the largest total among those where every run stays a positive integer (ties: the lowest
assignment mask, bit j set when shared square j goes to its cross run; when none is
valid, the lowest mask with the fewest invalid runs names them).

The choice is solved on numbers, each run's value computed once. Every shared square lies
on the move's main run (runs[0], along the line) and on the cross run through it, which
holds no other new chip. A run premium only multiplies, so with the main run worth W and a
cross run worth c_j before the choice, giving square j (factor f_j) to the main run gains
W × P × (f_j - 1) (P: the main run's factors so far) and costs c_j × (f_j - 1). Hence in
every best assignment the squares given to the main run are exactly those whose cross run
is worth less than W × P (P the product of that assignment): they are the squares of the
smallest cross runs, and only the k + 1 cuts of the cross runs sorted by worth need be
scored (`_share`). A chip premium changes a run's value, and possibly its validity: the
shared ones are tried both ways, each run's value memoised per set of chip premiums. In
legal play a shared square is always under an operator (a run never ends on an operator,
so a new number can have no valid cross run), so there is one such try.

A move judged a chip at a time (the board's live preview) meets the same runs again: one
more chip changes the main run and adds a cross run, no other. A run with the same squares
and chips as in the ruleset's last call is neither parsed nor evaluated again, and keeps its
RunScore when it scores the same (`_parse_runs`).
"""

from engine import faces
from engine import verdict as V
from engine.arith import evaluate
from engine.profile import RUN
from engine.rules import Ruleset, register

_OPS = {43: "+", 45: "-", 42: "*", 58: ":"}  # an operator chip's code -> its character


def _parse(codes):
    """(nums, ops, reason) for a run's cell codes; reason is None when well formed."""
    n = len(codes)
    if n % 2 == 0:
        return None, None, V.MALFORMED
    nums = []
    ops = []
    muls = 0
    k = 0
    while True:  # integer work only: a character a chip costs several times more
        digit = (codes[k] & 0x7F) - 48
        if digit < 0 or digit > 9:
            return None, None, V.MALFORMED
        nums.append(digit)
        k += 1
        if k == n:
            break
        op = _OPS.get(codes[k] & 0x7F)
        if op is None:
            return None, None, V.MALFORMED
        if op == "*":
            muls += 1
        ops.append(op)
        k += 1
    if muls > 1:
        return None, None, V.TWO_MULTIPLICATIONS
    return nums, ops, None


def _problem(value):
    """Reason code for a run value (n, d) that is not a positive integer, else None."""
    n, d = value
    if d == 0:
        return V.DIVISION_BY_ZERO
    if d != 1:
        return V.NOT_INTEGER
    if n <= 0:
        return V.NOT_POSITIVE
    return None


class _Values:
    """Each run's value under an assignment of the shared chip premiums, memoised. One is
    made with the ruleset and set up anew for each move (`start`): no allocation of its own
    a move but the memo's entries."""

    def __init__(self):
        self.mul_first = False
        self.parsed = []  # type: list  # per run: [nums, ops, face value, ...] (_parse_runs)
        self.fixed_chip = {}  # type: dict  # run -> [(k, factor)] chip premiums it always has
        self.fixed_mult = []  # type: list[int]  # per run: its fixed run premiums' product
        self.shared = []  # type: list  # (factor, is a run premium, (r, k), (r, k))
        self.bits = []  # type: list[int]  # per run: the shared chip premiums it gets (bit j)
        self.memo = {}  # type: dict[int, int | None]  # bits << 5 | run -> value

    def start(self, parsed, fixed_chip, fixed_mult, shared, mul_first):
        self.mul_first = mul_first
        self.parsed = parsed
        self.fixed_chip = fixed_chip
        self.fixed_mult = fixed_mult
        self.shared = shared
        self.bits = [0] * len(parsed)
        self.memo.clear()

    def weights(self, mask):
        """Each run's value times its fixed run premiums when the shared chip premiums go
        as `mask` says; None if some run is then not a positive integer."""
        bits = self.bits
        shared = self.shared
        for r in range(len(bits)):
            bits[r] = 0
        for j in range(len(shared)):
            _, is_run, a, b = shared[j]
            if not is_run:
                bits[b[0] if (mask >> j) & 1 else a[0]] |= 1 << j
        weights = []  # type: list[int] | None
        for r in range(len(bits)):
            value = self.value(r)
            if value is None:
                weights = None  # every run is still evaluated: the caller counts the bad
            elif weights is not None:
                weights.append(value * self.fixed_mult[r])
        return weights

    def value(self, r):
        """Run r's value with its chip premiums (fixed, and the shared ones in bits[r]);
        None if that is not a positive integer."""
        bits = self.bits[r]
        fixed = self.fixed_chip.get(r)
        entry = self.parsed[r]
        if fixed is None and not bits:
            return entry[2][0]  # no chip premium applies: the face value stands
        key = bits << 5 | r  # an int key, no tuple: <= 17 runs a move
        memo = self.memo
        if key in memo:
            return memo[key]
        nums = list(entry[0])
        for k, factor in fixed or ():
            nums[k // 2] *= factor
        for j in range(len(self.shared)):
            if (bits >> j) & 1:
                factor, _, a, b = self.shared[j]
                k = a[1] if a[0] == r else b[1]
                nums[k // 2] *= factor
        v = evaluate(nums, entry[1], self.mul_first)
        value = None if _problem(v) is not None else v[0]
        memo[key] = value
        return value


def _share(shared, weights):
    """(total, mask) of the best placing of the shared run premiums, every run's worth
    `weights` (value times fixed run premiums): the highest total, then the lowest mask
    (bit j: square j goes to its cross run). See the module docstring for why only cuts
    of the cross runs sorted by worth are tried."""
    total = 0
    for w in weights:
        total += w
    items = []
    hub = 0  # the main run: the first side of every shared square
    for j in range(len(shared)):
        factor, is_run, a, b = shared[j]
        if is_run:
            hub = a[0]
            items.append((weights[b[0]], factor, j))
    if not items:
        return total, 0
    items.sort()
    main = weights[hub]
    rest = total - main  # the other runs, every shared run premium on its cross run
    mask = 0
    for c, factor, j in items:
        rest += c * (factor - 1)
        mask |= 1 << j
    best, best_mask = rest + main, mask
    for c, factor, j in items:
        # A cut between cross runs of equal worth is never the best: trying it costs less
        # than skipping it.
        main *= factor
        rest -= c * (factor - 1)
        mask ^= 1 << j
        if rest + main > best or (rest + main == best and mask < best_mask):
            best, best_mask = rest + main, mask
    return best, best_mask


@register
class Calculissimo(Ruleset):
    name = "calculissimo"
    alphabet = "0123456789+-*:"

    def __init__(self, profile, options=None):
        Ruleset.__init__(self, profile, options)
        # The runs of the last move judged, parsed: a move laid a chip at a time (the
        # board's live preview) meets most of them again (see _parse_runs).
        self._seen = {}  # type: dict[int, list]
        self._values = _Values()

    def face_reasons(self, move):
        reasons = []
        for _, code in move.placements:
            c = code & 0x7F
            if 48 <= c <= 57:
                continue  # a digit
            op = _OPS.get(c)
            if op is None:
                reasons.append(V.Reason(V.BAD_FACE))
            elif op == faces.MUL and code & faces.JOKER_BIT:
                reasons.append(V.Reason(V.JOKER_AS_MULTIPLICATION))
        return reasons

    def bonus_turn(self, placed, rack_size):
        return placed == rack_size

    def _parse_runs(self, cells, runs, mul_first):
        """(entries, reasons): per run [nums, ops, face value, codes, problem, RunScore of
        its last breakdown or None], and why runs are not calculations with face values.

        A run met in the last call with the same chips is not parsed nor evaluated again:
        laying one more chip changes the main run and adds a cross run, no other."""
        seen = self._seen
        now = {}
        entries = []
        reasons = []
        for run in runs:
            start = run.start
            if run.step == 1:
                codes = bytes(cells[start : start + run.length])
            else:
                codes = bytes([cells[i] for i in run.indices()])
            key = ((start << 8 | run.length) << 1 | (run.step == 1)) << 1 | mul_first
            entry = seen.get(key)
            if entry is None or entry[3] != codes:
                nums, ops, problem = _parse(codes)
                face = None
                if problem is None:
                    face = evaluate(nums, ops, mul_first)
                    problem = _problem(face)
                entry = [nums, ops, face, codes, problem, None]
            now[key] = entry
            entries.append(entry)
            if entry[4] is not None:
                reasons.append(V.Reason(entry[4], run=run.name, where=run.indices()))
        self._seen = now
        return entries, reasons

    def score_runs(self, board, runs, new):
        cells = board.cells
        profile = self.profile
        prem = profile.premiums
        kinds = profile.kinds
        mul_first = self.options["precedence"] == "mul_first"
        parsed, reasons = self._parse_runs(cells, runs, mul_first)
        if reasons:
            return reasons, [], 0

        # Which runs each effective premium square of this turn lies on, filled run by run
        # and square by square along each (the order of `shared` below, and so of a tie).
        owners = {}  # type: dict[int, list[tuple[int, int]]]
        covered = [i for i in new if prem[i]]  # this turn's premium squares, in order
        covered.sort()
        for r in range(len(runs)):
            run = runs[r]
            start = run.start
            step = run.step
            end = start + step * run.length
            for i in covered:
                if i < start or i >= end or (i - start) % step:
                    continue  # not on this run
                k = (i - start) // step
                p = prem[i]
                # A chip premium works only under a number chip that is not a joker (rule 13).
                if kinds[p] == RUN or (k % 2 == 0 and not cells[i] & faces.JOKER_BIT):
                    if i in owners:
                        owners[i].append((r, k))
                    else:
                        owners[i] = [(r, k)]
        # Premiums under one run are fixed; a square on two runs is a choice (rule 14).
        factors = profile.factors
        fixed_mult = [1] * len(runs)  # product of the fixed run premiums of each run
        fixed_chip = {}  # type: dict[int, list[tuple[int, int]]]  # run -> [(k, factor)]
        shared = []  # (factor, is a run premium, (r, k) one side, (r, k) other side)
        for i, lst in owners.items():
            p = prem[i]
            if len(lst) == 1:
                r, k = lst[0]
                if kinds[p] == RUN:
                    fixed_mult[r] *= factors[p]
                elif r in fixed_chip:
                    fixed_chip[r].append((k, factors[p]))
                else:
                    fixed_chip[r] = [(k, factors[p])]
            else:
                shared.append((factors[p], kinds[p] == RUN, lst[0], lst[1]))

        # Rule 14's choice, solved on numbers (see the module docstring): each way the
        # shared chip premiums can go (one in legal play), then _share for the run premiums.
        values = self._values
        values.start(parsed, fixed_chip, fixed_mult, shared, mul_first)
        chips = [j for j in range(len(shared)) if not shared[j][1]]
        best = None  # type: tuple | None  # (total, mask) of the best valid assignment
        fewest = None  # type: tuple | None  # (bad runs, mask) while none is valid
        for choice in range(1 << len(chips)):
            mask = 0
            for t in range(len(chips)):
                if (choice >> t) & 1:
                    mask |= 1 << chips[t]
            weights = values.weights(mask)
            if weights is None:
                bad = 0
                for r in range(len(runs)):
                    if values.value(r) is None:
                        bad += 1
                if fewest is None or bad < fewest[0] or (bad == fewest[0] and mask < fewest[1]):
                    fewest = (bad, mask)
                continue
            total, given = _share(shared, weights)
            mask |= given
            if best is None or total > best[0] or (total == best[0] and mask < best[1]):
                best = (total, mask)
        if best is None:
            values.weights(fewest[1])  # type: ignore[index]  # set: no assignment was valid
            return (
                [
                    V.Reason(V.PREMIUM_INVALID, run=runs[r].name, where=runs[r].indices())
                    for r in range(len(runs))
                    if values.value(r) is None
                ],
                [],
                0,
            )

        # The breakdown of the best assignment.
        total, mask = best
        if chips:
            values.weights(mask)  # (with no shared chip premium, its only try is the last)
        mult = list(fixed_mult)
        for j in range(len(shared)):
            factor, is_run, a, b = shared[j]
            if is_run:
                mult[b[0] if (mask >> j) & 1 else a[0]] *= factor
        scores = []
        for r in range(len(runs)):
            entry = parsed[r]
            value = values.value(r)
            score = entry[5]
            # The same run scoring the same as in the last breakdown: the same RunScore.
            if score is None or score.premium_value != value or score.multiplier != mult[r]:
                score = entry[5] = V.RunScore(runs[r], entry[3], entry[2][0], value, mult[r])
            scores.append(score)
        return [], scores, total
