"""Calculissimo: runs are calculations `number op number ... number` (RULES.md).

Validity of a run: numbers and operators alternate, starting and ending on a number; at
most one `×`; exact value a positive integer, with face values and with premiums.

Scoring (rules 9-14): a run scores its value computed with chip premiums (green, blue)
under this turn's non-joker number chips, times every run premium (yellow, purple, logo)
under this turn's chips. A premium square covered this turn that lies on two of the move's
runs applies to one of them only: of all such assignments, the engine takes the one with
the largest total among those where every run stays a positive integer.

The search is exhaustive but cheap: every shared square lies on the move's main run and
on one cross run, so with k shared squares there are 2**k assignments (k <= 7), and each
run is evaluated once per distinct subset of its own shared squares (memoised).
"""

from engine import faces
from engine import verdict as V
from engine.arith import evaluate
from engine.profile import CHIP, RUN
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
        parsed = []  # per run: (nums, ops, face value, codes)
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
        owners = {}
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
        shared = [i for i in owners if len(owners[i]) > 1]
        # For each run: its fixed premiums, and (bit, side, k) for each shared square it has.
        fixed = [[] for _ in runs]
        choices = [[] for _ in runs]
        for i, lst in owners.items():
            if len(lst) == 1:
                fixed[lst[0][0]].append((i, lst[0][1]))
        for bit in range(len(shared)):
            i = shared[bit]
            for side in range(2):
                r, k = owners[i][side]
                choices[r].append((bit, side, i, k))

        cache = {}
        best_total = -1
        best = None
        fewest_bad = None
        for mask in range(1 << len(shared)):
            total = 0
            picked = []
            bad = []
            for r in range(len(runs)):
                local = 0
                for t in range(len(choices[r])):
                    bit, side, _, _ = choices[r][t]
                    if (mask >> bit) & 1 == side:
                        local |= 1 << t
                key = (r, local)
                res = cache.get(key)
                if res is None:
                    res = self._with_premiums(
                        parsed[r], fixed[r], choices[r], local, prem, profile, mul_first
                    )
                    cache[key] = res
                if res[0] is None:
                    bad.append(r)
                else:
                    total += res[0] * res[1]
                picked.append(res)
            if bad:
                if fewest_bad is None or len(bad) < len(fewest_bad):
                    fewest_bad = bad
            elif total > best_total:
                best_total = total
                best = picked
        if best is None:
            return (
                [
                    V.Reason(V.PREMIUM_INVALID, run=runs[r].name, where=runs[r].indices())
                    for r in fewest_bad
                ],
                [],
                0,
            )

        scores = []
        for r in range(len(runs)):
            nums, ops, face, codes = parsed[r]
            value, mult = best[r]
            scores.append(V.RunScore(runs[r], codes, face[0], value, mult))
        return [], scores, best_total

    @staticmethod
    def _with_premiums(parsed, fixed, choices, local, prem, profile, mul_first):
        """(premium-adjusted value or None if not a positive integer, run multiplier)."""
        nums, ops, face, _ = parsed
        if not fixed and not local:
            return (face[0], 1)  # no premium applies: the face value stands
        nums = list(nums)
        mult = 1
        for t in range(len(choices) + len(fixed)):
            if t < len(fixed):
                i, k = fixed[t]
            else:
                u = t - len(fixed)
                if not (local >> u) & 1:
                    continue
                i, k = choices[u][2], choices[u][3]
            p = prem[i]
            if profile.kinds[p] == CHIP:
                nums[k // 2] *= profile.factors[p]
            else:
                mult *= profile.factors[p]
        value = evaluate(nums, ops, mul_first)
        if _problem(value) is not None:
            return (None, mult)
        return (value[0], mult)
