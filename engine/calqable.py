"""Cal-Q-Able: every run is a true equation, scored by the tiles' value numbers (RULES.md).

Validity is engine/equation.py: one `=`, multi-digit numbers without leading zeros, the
fraction bar, exact rational equality. A move scores, for every run that contains a new
tile, the sum of its tiles' values, each new tile on a tile premium (orange ×2, yellow ×3)
counted that many times, times every equation premium (blue ×2, green ×3) under the run's
new tiles. A premium square under a new tile that lies on two of the move's runs counts in
both (Cal-Q-Able has no rule like Calculissimo's rule 14; as in the word games it follows).

Tiles come in groups (profile `tiles`): fawn digits, white operators and fraction bars,
grey `=`. A rack holds 7 fawn and 2 white (profile `rack`); the `=` tiles lie face up beside
the board and are taken as needed, so they never go in the bag or on a rack. With the
`advanced` option the rack is `advanced_rack` (the nine plus three grey), and then `=` tiles
are drawn like any other. Option `equals` (rule 14: a shorter game) keeps only that many
`=` tiles in play (0: all of them).

After the first equation, a move's own equation must use a tile already on the board
(rules 1 and 12: it "crosses an existing equation"); an equation laid parallel to others,
touching them only through short cross equations, is refused (`not_crossing`).

Bonuses: +50 for laying every tile of a full rack in one move (rule 8); +20 for a rule-5
replacement (engine/replacement.py). End (rule 13): no penalties; the last player to have
laid tiles gains the value of the tiles left on the other racks.
"""

from engine import equation, faces
from engine import verdict as V
from engine.errors import OptionError, ProfileError
from engine.profile import CHIP
from engine.rules import Ruleset, register

NOT_CROSSING = "not_crossing"  # a later equation that uses no tile already on the board

ALL_RACK_BONUS = 50
REPLACEMENT_BONUS = 20


def _face_key(text):
    ch, joker = faces.parse(text)
    return faces.JOKER if joker else ch


@register
class Calqable(Ruleset):
    name = "calqable"
    alphabet = "0123456789+-*:/="
    option_defaults = (("advanced", False), ("equals", 0))
    replacement_bonus = REPLACEMENT_BONUS
    whole_swap = True  # "return all tiles to the pool and draw anew"

    def __init__(self, profile, options=None):
        Ruleset.__init__(self, profile, options)
        extra = profile.extra
        tiles = extra.get("tiles")
        if not isinstance(tiles, dict):
            raise ProfileError("profile: a Cal-Q-Able profile needs 'tiles'")
        self.values = {}
        self.groups = {}
        for text, entry in tiles.items():
            key = _face_key(text)
            self.values[key] = entry["value"]
            self.groups[key] = entry["group"]
        rack = extra["advanced_rack" if self.options["advanced"] else "rack"]
        self.rack = rack  # group -> tiles of that group on a full rack
        self.open_faces = "" if "grey" in rack else faces.EQUALS  # `=` lies face up
        self._seen = {}  # type: dict[int, list]  # the runs of the last move judged
        # A cell code no tile has: a joker, or a face not in the game (face_reasons).
        self._bad_codes = bytearray(b"\x01" * 256)
        for ch in self.alphabet:
            self._bad_codes[ord(ch)] = 0
        self.values_by_code = bytearray(128)
        for key, value in self.values.items():
            self.values_by_code[ord(key)] = value

    def check_options(self, opts):
        opts = Ruleset.check_options(self, opts)
        if opts.get("advanced") not in (False, True):
            raise OptionError("option 'advanced' must be true or false", "advanced")
        equals = opts.get("equals")
        if not isinstance(equals, int) or isinstance(equals, bool) or not 0 <= equals <= 255:
            raise OptionError("option 'equals' must be a whole number 0-255", "equals")
        return opts

    # ----- the set and the racks ------------------------------------------------------------

    def chips(self):
        chips = dict(self.profile.chips)
        keep = self.options["equals"]
        if keep and chips.get(faces.EQUALS, 0) > keep:
            chips[faces.EQUALS] = keep
        return chips

    def rack_size(self):
        return sum(self.rack.values())

    def deal(self, bag, players):
        """Each rack gets its count of every group, taken from the end of the shuffled bag."""
        racks = []
        for _ in range(players):
            rack = []
            for group in sorted(self.rack):
                for _ in range(self.rack[group]):
                    k = len(bag) - 1
                    while k >= 0 and self.groups.get(bag[k]) != group:
                        k -= 1
                    if k >= 0:
                        rack.append(bag.pop(k))
            racks.append(rack)
        return racks

    def draw_at(self, bag, rack):
        """The last chip in the bag of a group the rack holds fewer of than its count (rule:
        7 fawn and 2 white). When the bag has none of those, its last chip: the rules say
        nothing of a group running out, and a rack kept full agrees with the board's
        referee mode, which counts a rack's chips, not its groups."""
        short = {}
        for group in self.rack:
            short[group] = self.rack[group]
        groups = self.groups
        for key in rack:
            group = groups.get(key)
            if group in short:
                short[group] -= 1
        k = len(bag) - 1
        while k >= 0 and short.get(groups.get(bag[k]), 0) <= 0:
            k -= 1
        return k if k >= 0 else len(bag) - 1

    # ----- judging and scoring --------------------------------------------------------------

    def face_reasons(self, move):
        reasons = []
        bad = self._bad_codes
        for _, code in move.placements:
            if bad[code]:
                reasons.append(V.Reason(V.BAD_FACE))
        return reasons

    def score_runs(self, board, runs, new):
        # Rules 1 and 12: after the first, an equation crosses one on the board, using one of
        # its tiles. Touching it only through cross runs (a parallel equation) is not enough.
        # (The board's chips are counted only when the equation holds no old tile.)
        if len(new) > 1 and runs:
            main = runs[0].indices()
            for i in main:
                if i not in new:
                    break
            else:
                if board.chip_count() > len(new):
                    return [V.Reason(NOT_CROSSING, run=runs[0].name, where=main)], [], 0
        cells = board.cells
        profile = self.profile
        prem = profile.premiums
        kinds = profile.kinds
        factors = profile.factors
        values = self.values_by_code
        covered = [i for i in new if prem[i]]  # this move's premium squares
        # A run met in the last call with the same tiles is not judged again: laying one
        # more tile changes the main equation and adds a cross one, no other (the board's
        # live preview judges the move at every tile).
        seen = self._seen
        now = {}
        reasons = []
        scores = []
        total = 0
        for run in runs:
            start = run.start
            step = run.step
            length = run.length
            if step == 1:
                codes = bytes(cells[start : start + length])
            else:
                codes = bytes([cells[i] for i in range(start, start + step * length, step)])
            key = ((start << 8 | length) << 1) | (step == 1)
            entry = seen.get(key)  # [codes, problem, face value, RunScore or None]
            if entry is None or entry[0] != codes:
                face_sum = 0
                for c in codes:
                    face_sum += values[c & 0x7F]
                text = codes if max(codes) < 0x80 else bytes([c & 0x7F for c in codes])
                entry = [codes, equation.check(text), face_sum, None]
            now[key] = entry
            if entry[1] is not None:
                reasons.append(V.Reason(entry[1], run=run.name, where=run.indices()))
                continue
            face_sum = entry[2]
            sum_ = face_sum
            mult = 1
            end = start + step * length
            for i in covered:
                if i < start or i >= end or (i - start) % step:
                    continue  # not on this run
                p = prem[i]
                if kinds[p] == CHIP:
                    sum_ += values[cells[i] & 0x7F] * (factors[p] - 1)
                else:
                    mult *= factors[p]
            score = entry[3]
            if score is None or score.premium_value != sum_ or score.multiplier != mult:
                score = entry[3] = V.RunScore(run, codes, face_sum, sum_, mult)
            scores.append(score)
            total += sum_ * mult
        self._seen = now
        if reasons:
            return reasons, [], 0
        return [], scores, total

    def bonus_points(self, move, game):
        return ALL_RACK_BONUS if game.rack_chips(move) == self.rack_size() else 0

    # ----- the end (rule 13) ----------------------------------------------------------------

    def chip_penalty(self, ch, joker):
        return 0

    def end_bonuses(self, game, racks):
        out = [0] * game.players
        last = game.last_mover()
        if last is None:
            return out
        for p in range(game.players):
            if p != last:
                for text in racks[p]:
                    out[last] += self.values.get(_face_key(text), 0)
        return out
