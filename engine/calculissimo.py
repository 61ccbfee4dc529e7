"""Calculissimo: runs are calculations `number op number ... number` (RULES.md).

Validity of a run: numbers and operators alternate, starting and ending on a number; at
most one `×`; exact value a positive integer, with face values and with premiums.

Scoring (rules 9-14): a run scores its value computed with chip premiums (green, blue)
under this turn's non-joker number chips, times every run premium (yellow, purple, logo)
under this turn's chips. A premium square covered this turn that lies on two of the move's
runs applies to one of them only: of all such assignments, the engine takes the one with
the largest total among those where every run stays a positive integer.

The search is exhaustive but cheap: every shared square lies on the move's main run and
on one cross run, so with k shared squares there are 2**k assignments (k is at most the
rack size). An assignment only updates the runs' multipliers; a run's value is computed
once per distinct set of chip premiums it gets (memoised). In legal play a shared square
is always under an operator (a run never ends on an operator, so a new number can have no
valid cross run), so each run's value is computed once.
"""

from engine import faces
from engine import verdict as V
from engine.arith import evaluate
from engine.profile import RUN
from engine.rules import Ruleset, register


def _parse(codes):
    """(nums, ops, reason) for a run's cell codes; reason is None when well formed."""
    n = len(codes)
    if n % 2 == 0:
        return None, None, V.MALFORMED
    nums = []
    ops = []
    muls = 0
    for k in range(n):
        ch = chr(codes[k] & 0x7F)
        if k % 2 == 0:
            if not ("0" <= ch <= "9"):
                return None, None, V.MALFORMED
            nums.append(ord(ch) - 48)
        else:
            if ch not in "+-*:":
                return None, None, V.MALFORMED
            if ch == "*":
                muls += 1
            ops.append(ch)
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


def _assign(mask, shared, fixed_mult, mult, chip_bits):
    """Fill `mult` and `chip_bits` (per run) for one assignment of the shared squares.

    Bit j of `mask` gives shared square j to its second run instead of its first. A run
    premium multiplies that run's multiplier; a chip premium sets bit j of its chip_bits.
    """
    for r in range(len(mult)):
        mult[r] = fixed_mult[r]
        chip_bits[r] = 0
    for j in range(len(shared)):
        factor, is_run, a, b = shared[j]
        r = b[0] if (mask >> j) & 1 else a[0]
        if is_run:
            mult[r] *= factor
        else:
            chip_bits[r] |= 1 << j


def _value(parsed, fixed_chip, shared, r, bits, mul_first):
    """Run r's value with its chip premiums (fixed, and the shared ones in `bits`);
    None if that is not a positive integer."""
    nums, ops, face, _ = parsed
    if not fixed_chip and not bits:
        return face[0]  # no chip premium applies: the face value stands
    nums = list(nums)
    for k, factor in fixed_chip:
        nums[k // 2] *= factor
    for j in range(len(shared)):
        if (bits >> j) & 1:
            factor, _, a, b = shared[j]
            k = a[1] if a[0] == r else b[1]
            nums[k // 2] *= factor
    value = evaluate(nums, ops, mul_first)
    return None if _problem(value) is not None else value[0]


@register
class Calculissimo(Ruleset):
    name = "calculissimo"
    alphabet = "0123456789+-*:"

    def face_reasons(self, move):
        reasons = []
        for _, code in move.placements:
            ch = chr(code & 0x7F)
            if ch not in self.alphabet:
                reasons.append(V.Reason(V.BAD_FACE))
            elif ch == faces.MUL and code & faces.JOKER_BIT:
                reasons.append(V.Reason(V.JOKER_AS_MULTIPLICATION))
        return reasons

    def bonus_turn(self, placed, rack_size):
        return placed == rack_size

    def score_runs(self, board, runs, new):
        cells = board.cells
        profile = self.profile
        prem = profile.premiums
        kinds = profile.kinds
        mul_first = self.options["precedence"] == "mul_first"
        reasons = []
        parsed = []  # type: list[tuple]  # per run: (nums, ops, face value, codes)
        for run in runs:
            codes = bytes([cells[i] for i in run.indices()])
            nums, ops, problem = _parse(codes)
            face = None
            if problem is None:
                face = evaluate(nums, ops, mul_first)
                problem = _problem(face)
            if problem is not None:
                reasons.append(V.Reason(problem, run=run.name, where=run.indices()))
            parsed.append((nums, ops, face, codes))
        if reasons:
            return reasons, [], 0

        # Which runs each effective premium square of this turn lies on.
        owners = {}  # type: dict[int, list[tuple[int, int]]]
        for r in range(len(runs)):
            for k, i in enumerate(runs[r].indices()):
                p = prem[i]
                # A chip premium works only under a number chip that is not a joker (rule 13).
                if (
                    p
                    and i in new
                    and (kinds[p] == RUN or (k % 2 == 0 and not cells[i] & faces.JOKER_BIT))
                ):
                    if i in owners:
                        owners[i].append((r, k))
                    else:
                        owners[i] = [(r, k)]
        # Premiums under one run are fixed; a square on two runs is a choice (rule 14).
        factors = profile.factors
        fixed_mult = [1] * len(runs)  # product of the fixed run premiums of each run
        # (k, factor): the chip premiums each run always has
        fixed_chip = [[] for _ in runs]  # type: list[list[tuple[int, int]]]
        shared = []  # (factor, is a run premium, (r, k) one side, (r, k) other side)
        for i, lst in owners.items():
            p = prem[i]
            if len(lst) == 1:
                r, k = lst[0]
                if kinds[p] == RUN:
                    fixed_mult[r] *= factors[p]
                else:
                    fixed_chip[r].append((k, factors[p]))
            else:
                shared.append((factors[p], kinds[p] == RUN, lst[0], lst[1]))

        # Try every assignment. A run premium only changes a multiplier; a run's value is
        # evaluated once per distinct set of chip premiums it gets (in Calculissimo a shared
        # square is always under an operator, so each run is evaluated once).
        values = {}  # type: dict[int, int | None]
        mult = list(fixed_mult)  # buffers reused across assignments
        chip_bits = [0] * len(runs)
        best_total = -1
        best_mask = -1
        fewest_bad = None
        for mask in range(1 << len(shared)):
            _assign(mask, shared, fixed_mult, mult, chip_bits)
            total = 0
            bad = None
            for r in range(len(runs)):
                key = chip_bits[r] << 5 | r  # an int key, no tuple: <= 17 runs a move
                if key in values:
                    value = values[key]
                else:
                    value = _value(parsed[r], fixed_chip[r], shared, r, chip_bits[r], mul_first)
                    values[key] = value
                if value is None:
                    bad = [r] if bad is None else bad + [r]
                else:
                    total += value * mult[r]
            if bad is not None:
                if fewest_bad is None or len(bad) < len(fewest_bad):
                    fewest_bad = bad
            elif total > best_total:
                best_total = total
                best_mask = mask
        if best_mask < 0:
            return (
                [
                    V.Reason(V.PREMIUM_INVALID, run=runs[r].name, where=runs[r].indices())
                    for r in fewest_bad  # type: ignore[union-attr]  # set: no mask was valid
                ],
                [],
                0,
            )

        # The breakdown of the best assignment.
        _assign(best_mask, shared, fixed_mult, mult, chip_bits)
        scores = []
        for r in range(len(runs)):
            face, codes = parsed[r][2], parsed[r][3]
            value = values[chip_bits[r] << 5 | r]
            scores.append(V.RunScore(runs[r], codes, face[0], value, mult[r]))
        return [], scores, best_total
