"""A game in progress: board, scores, turn order, racks and bag, history (RULES.md turns).

Two modes:
- referee (the board's main mode): the board cannot see racks, so the game tracks only
  how many chips each rack holds, how many are in the bag, and which faces are not on
  the board yet (the chip set minus the board), refereeing from placements alone;
- known racks (`seed=` given): a seeded bag and real racks, for self-play and tests. The
  shuffle uses engine.prng, so a seed gives the same game on MicroPython and CPython.

The history is one bytearray, `log`, appended a turn at a time in the journal's format
(see `_append`): about 17 bytes a turn, so a whole game's state stays a few kilobytes.
`history` decodes it into tuples for tools.

Actions: `play(move)` (refuses an illegal move, or forfeits the turn under `strict`),
`push(move)` (raises IllegalMoveError), `pass_turn()`, `swap(...)`, `timeout()`,
`finish(racks)` for the end penalties, and `pop()` to take back the last committed turn.
The chips of the turn being laid are `pending` (`lay`, `lift`, `undo_lay`, `preview`,
`commit`): they are not part of the game until committed.
"""

from engine import faces
from engine import replacement as R
from engine import verdict as V
from engine.board import Board
from engine.errors import GameStateError, IllegalMoveError, OptionError
from engine.move import Move
from engine.prng import Prng
from engine.rules import ruleset_for

# History entry kinds, and their code in the log.
PLACE = "place"
PASS = "pass"
SWAP = "swap"
TIMEOUT = "timeout"
FORFEIT = "forfeit"  # an illegal move under strict: the turn is lost
REPLACE = "replace"  # Cal-Q-Able rule 5: an equation's left side laid anew
KINDS = (PLACE, PASS, SWAP, TIMEOUT, FORFEIT, REPLACE)


def draw_for_first(profile, players, prng):
    """Run the setup draw (RULES.md): each player draws a chip; the highest number starts.

    Operators and jokers are no number: that player draws again, and so do players tied
    for the highest; every chip goes back before the game. Returns (first, draws) with
    `first` 0-based and `draws` the faces each player drew, in order.
    """
    bag = full_bag(profile)
    draws = [[] for _ in range(players)]  # type: list[list[str]]
    contenders = list(range(players))
    while True:
        prng.shuffle(bag)
        best = -1
        winners = []
        for k in range(len(contenders)):
            p = contenders[k]
            ch = bag[k]
            draws[p].append(ch)
            value = ord(ch) - 48 if faces.is_digit(ch) else -1
            if value > best:
                best = value
                winners = [p]
            elif value == best:
                winners.append(p)
        if best >= 0 and len(winners) == 1:
            return winners[0], draws
        contenders = winners


def full_bag(profile, chips=None, rules=None):
    """Every chip of the set that goes in the bag, as a list of faces in a fixed order.

    `chips` defaults to the profile's set; with `rules`, faces its game keeps out of the bag
    (Cal-Q-Able's `=`, taken face up as needed) are left out."""
    chips = profile.chips if chips is None else chips
    bag = []
    for ch in sorted(chips):
        if rules is None or rules.from_rack(ch):
            bag.extend([ch] * chips[ch])
    return bag


def chip_key(code):
    """The chip-set key a board cell's chip was taken from: its face, or '?' for a joker."""
    return faces.JOKER if code & faces.JOKER_BIT else chr(code & faces.FACE_MASK)


class Game:
    """One game on one board profile; `seed` selects known-rack (self-play) mode."""

    def __init__(self, profile, players, options=None, seed=None, first=0):
        self.profile = profile
        self.rules = ruleset_for(profile, options)
        self.options = self.rules.options
        if not isinstance(players, int) or not (
            profile.min_players <= players <= profile.max_players
        ):
            raise OptionError(
                "players must be %d to %d" % (profile.min_players, profile.max_players)
            )
        if not isinstance(first, int) or not 0 <= first < players:
            raise OptionError("the first player must be 1 to %d" % players)
        self.players = players
        self.board = Board(profile.width, profile.height)
        self.scores = [0] * players
        self.penalties = None  # points each player lost at the end (rack penalties)
        self.bonuses = None  # points each player gained at the end (Cal-Q-Able rule 13)
        self.first = first  # who opened the game (0-based): the winner of the draw
        self.to_move = first
        self.idle = 0  # turns in a row without a move (pass, swap, timeout, forfeit)
        self.over = False
        self.log = bytearray()
        self.turns = 0  # entries in the log
        self.pending = []  # [(index, code)] laid this turn, in the order laid
        self._previewed = None  # (version, pending, verdict) of the last preview
        self._rack_chips = None  # (move, chips from the rack) last counted
        self.version = 0  # counts every change to the committed game
        chips = self.rules.chips()
        self.unseen = dict(chips)  # chips not on the board: bag + racks (+ open supply)
        rack = self.rules.rack_size()
        self.rack_size = rack
        self.known = seed is not None
        self.known_undo = []  # known racks only: what each logged turn drew or swapped
        if self.known:
            self.prng = Prng(seed)
            bag = full_bag(profile, chips, self.rules)
            self.prng.shuffle(bag)
            self.bag = bag
            self.racks = self.rules.deal(bag, players)  # type: list  # or counts, below
        else:
            in_bag = 0
            for ch in chips:
                if self.rules.from_rack(ch):
                    in_bag += chips[ch]
            self.bag = in_bag - rack * players
            self.racks = [rack] * players

    # ----- state queries -------------------------------------------------------------------

    def bag_count(self):
        return len(self.bag) if self.known else self.bag

    def rack_count(self, player):
        return len(self.racks[player]) if self.known else self.racks[player]

    def is_first_move(self):
        return self.board.is_empty()

    def can_swap(self):
        return not self.over and self.bag_count() >= self.options["swap_min_bag"]

    def totals(self):
        return list(self.scores)

    def leaders(self):
        """0-based indices of the players with the highest total."""
        best = max(self.scores)
        return [p for p in range(self.players) if self.scores[p] == best]

    def move(self, text):
        """Parse the compact text form of a move on this game's board."""
        return Move.parse(text, self.profile.width, self.profile.height)

    # ----- judging a placement -------------------------------------------------------------

    def check(self, move):
        """The Verdict on laying `move` now; changes nothing."""
        if self.over:
            return V.Verdict([V.Reason(V.GAME_OVER)])
        reasons = self.rules.face_reasons(move)
        if reasons:
            return V.Verdict(reasons)
        board = self.board
        reasons, step = board.shape_reasons(move, self.is_first_move(), self.profile.start)
        if reasons:
            return V.Verdict(reasons)
        reasons = self._supply_reasons(move)
        if reasons:
            return V.Verdict(reasons)
        new = {i for i, _ in move.placements}
        board.put(move)
        try:
            runs = board.runs_of(move, step)
            if not runs:
                return V.Verdict([V.Reason(V.NO_CALCULATION)])
            reasons, scores, total = self.rules.score_runs(board, runs, new)
        finally:
            board.remove(move)
        if reasons:
            return V.Verdict(reasons)
        bonus = self.rules.bonus_points(move, self)
        return V.Verdict([], scores, total, bonus)

    # ----- Cal-Q-Able rule 5: replacing an equation's left side -----------------------------

    def check_replace(self, move):
        """(Verdict, tiles taken away) for laying `move` as a rule-5 replacement."""
        if self.over:
            return V.Verdict([V.Reason(V.GAME_OVER)]), None
        if not self.rules.replacement_bonus:
            return V.Verdict([V.Reason(R.NOT_IN_GAME)]), None
        found = R.equals_after(self.board, move)
        if found is None:
            return V.Verdict([V.Reason(R.NOT_BEFORE_EQUALS)]), None
        equals, step = found
        removed = R.left_side(self.board, equals, step)
        reasons = R.crossed(self.board, removed, step)
        if reasons:
            return V.Verdict(reasons), removed
        self.board.remove(removed)
        try:
            verdict = self.check(move)
        finally:
            self.board.put(removed)
        if verdict.legal:
            verdict.score += self.rules.replacement_bonus
            verdict.bonus += self.rules.replacement_bonus
        return verdict, removed

    def replace(self, move):
        """Play `move` as a rule-5 replacement if legal (the strict option applies)."""
        verdict, removed = self.check_replace(move)
        if not verdict.legal:
            if self.options["strict"] and not self.over:
                self.forfeit()
                verdict.forfeited = True
            return verdict
        p = self.to_move
        self.board.remove(removed)
        for _, code in removed.placements:
            self.unseen[chip_key(code)] += 1
        if self.known:
            before = (list(self.racks[p]), list(self.bag))
            for _, code in removed.placements:
                key = chip_key(code)
                if self.rules.from_rack(key):
                    self.bag.append(key)
            self.prng.shuffle(self.bag)
            self._replace_undo = before
        else:
            self.bag += self.rack_chips(removed)
        self._commit(move, verdict, REPLACE, removed)
        return verdict

    def _supply_reasons(self, move):
        """Whether the mover can hold these chips: rack size, chip set, or the known rack."""
        p = self.to_move
        need = {}  # type: dict[str, int]
        for _, code in move.placements:  # (chip_key inlined: the live preview runs this)
            key = faces.JOKER if code & faces.JOKER_BIT else chr(code & faces.FACE_MASK)
            need[key] = need.get(key, 0) + 1
        open_faces = self.rules.open_faces
        from_rack = 0
        for key, n in need.items():
            if key not in open_faces:
                from_rack += n
        self._rack_chips = (move, from_rack)  # for the bonus, asked next (rack_chips)
        if from_rack > self.rack_count(p):
            return [V.Reason(V.TOO_MANY_CHIPS)]
        reasons = []
        for key, n in need.items():
            if self.known and self.rules.from_rack(key):
                if self.racks[p].count(key) < n:
                    reasons.append(V.Reason(V.NOT_ON_RACK))
            elif self.unseen.get(key, 0) < n:
                reasons.append(V.Reason(V.CHIP_UNAVAILABLE))
        return reasons

    def rack_chips(self, move):
        """How many of the move's chips come from the rack (not from an open supply)."""
        seen = self._rack_chips
        if seen is not None and seen[0] is move:  # counted a moment ago by _supply_reasons
            return seen[1]
        open_faces = self.rules.open_faces
        n = len(move)
        if open_faces:
            for _, code in move.placements:  # (chip_key inlined: the live preview runs this)
                if not code & faces.JOKER_BIT and chr(code & faces.FACE_MASK) in open_faces:
                    n -= 1
        return n

    # ----- committed actions ---------------------------------------------------------------

    def play(self, move, verdict=None):
        """Lay `move` if legal; if not, refuse it (or forfeit the turn under `strict`).

        `verdict`, if given, is `check(move)` already computed in this same state."""
        if verdict is None:
            verdict = self.check(move)
        if verdict.legal:
            self._commit(move, verdict)
        elif self.options["strict"] and not self.over:
            self.forfeit()
            verdict.forfeited = True
        return verdict

    def push(self, move):
        """Lay `move`, raising IllegalMoveError (and changing nothing) if it is illegal."""
        verdict = self.check(move)
        if not verdict.legal:
            raise IllegalMoveError(verdict)
        self._commit(move, verdict)
        return verdict

    def _commit(self, move, verdict, kind=PLACE, removed=None):
        p = self.to_move
        prev = (self.to_move, self.idle)
        n = self.rack_chips(move)  # the chips that leave the rack (and are drawn again)
        self.board.put(move)
        self.scores[p] += verdict.score
        for _, code in move.placements:
            key = chip_key(code)
            self.unseen[key] -= 1
            if self.known and self.rules.from_rack(key):
                self.racks[p].remove(key)
        drawn = self._draw(p, n)  # known racks: (chips drawn, where in the bag they were)
        if not self.known:
            self.racks[p] -= n
        elif kind == REPLACE:
            drawn = (drawn[0],) + self._replace_undo  # (drawn, rack before, bag before)
        self.idle = 0
        extra = removed.to_bytes() if removed is not None else None
        self._append(kind, p, prev, verdict.score, drawn, move.to_bytes(), extra)
        self.pending = []
        if self.bag_count() == 0 and self.rack_count(p) == 0:
            self.over = True
        elif not self.rules.bonus_turn(n, self.rack_size):
            self._advance()

    def _draw(self, p, n):
        """Draw up to n chips for player p. Returns the count drawn (referee mode), or the
        chips drawn and the bag index each came from (known racks: the ruleset chooses which
        chip, as Cal-Q-Able keeps 7 fawn and 2 white tiles on a rack)."""
        if self.known:
            got = []
            at = []
            rack = self.racks[p]
            while n and self.bag:
                k = self.rules.draw_at(self.bag, rack)
                if k < 0:
                    break
                chip = self.bag.pop(k)
                rack.append(chip)
                got.append(chip)
                at.append(k)
                n -= 1
            return got, at
        got = min(self.bag, n)
        self.bag -= got
        self.racks[p] += got
        return got

    def pass_turn(self):
        self._idle_turn(PASS, None)

    def timeout(self):
        """The turn clock ran out: the turn is lost, as a pass."""
        self._idle_turn(TIMEOUT, None)

    def forfeit(self):
        """An illegal action under `strict`: the player loses the turn."""
        self._idle_turn(FORFEIT, None)

    def swap(self, chips):
        """Swap chips with the bag: a count (referee mode) or a list of faces (known racks).

        The history keeps the count (referee) or (count, rack before, bag before). Where the
        game swaps whole racks (Cal-Q-Able rule 4: "return all tiles to the pool and draw
        anew"), anything else is refused.
        """
        if self.over:
            raise GameStateError("the game is over")
        if not self.can_swap():
            raise GameStateError(
                "swapping needs at least %d chips in the bag" % self.options["swap_min_bag"]
            )
        p = self.to_move
        if self.known:
            if not chips:
                raise GameStateError("swap at least one chip")
            rack = list(self.racks[p])
            for ch in chips:
                if ch not in rack:
                    raise GameStateError("chip %r is not on the rack" % (ch,))
                rack.remove(ch)
            if rack and self.rules.whole_swap:
                raise GameStateError(self._whole_swap_text(len(self.racks[p])))
            # before the swap
            undo = (len(chips), list(self.racks[p]), list(self.bag))  # type: tuple | int
            self.bag.extend(chips)
            self.prng.shuffle(self.bag)
            self.racks[p] = rack
            self._draw(p, len(chips))
        else:
            if not isinstance(chips, int) or not 1 <= chips <= self.racks[p]:
                raise GameStateError("swap 1 to %d chips" % self.racks[p])
            if chips != self.racks[p] and self.rules.whole_swap:
                raise GameStateError(self._whole_swap_text(self.racks[p]))
            undo = chips
        self._idle_turn(SWAP, undo)

    def _whole_swap_text(self, count):
        return "this game swaps the whole rack: all %d chips" % count

    def swap_range(self):
        """(fewest, most) chips the player to move may swap: 1 to the rack's count, or only
        the whole rack where the rules say so."""
        most = self.rack_count(self.to_move)
        return (most if self.rules.whole_swap else 1), most

    def _idle_turn(self, kind, undo):
        if self.over:
            raise GameStateError("the game is over")
        self._append(kind, self.to_move, (self.to_move, self.idle), 0, undo, b"")
        self.pending = []
        self.idle += 1
        self._advance()
        if self.idle >= self.players:
            self.over = True

    def _advance(self):
        self.to_move = (self.to_move + 1) % self.players

    # ----- the log ---------------------------------------------------------------------------
    #
    # One entry a turn: kind, player, previous to_move, previous idle count (1 byte each),
    # score (3 bytes), undo (1 byte: chips drawn after a move, or chips swapped), chip
    # count, 3 bytes a chip (Move.to_bytes), and last the entry's own length, so that `pop`
    # can find the last entry's start.

    def _append(self, kind, player, prev, score, undo, packed, removed=None):
        """One log entry: kind, player, previous to_move and idle, score (3 bytes), undo
        count, chip count and chips (Move.to_bytes); a replacement (REPLACE) then has the
        count and chips it removed; last the entry's own length."""
        self.version += 1
        if undo is None or isinstance(undo, int):
            count = undo or 0
        else:  # known racks: (drawn, bag indices) of a move, (drawn, rack, bag) of a
            # replacement, (count, rack, bag) of a swap
            count = undo[0] if kind == SWAP else len(undo[0])
            self.known_undo.append(undo)
        log = self.log
        log += bytes([KINDS.index(kind), player, prev[0], prev[1]])
        log += bytes([(score >> 16) & 0xFF, (score >> 8) & 0xFF, score & 0xFF])
        log += bytes([count, len(packed) // 3])
        log += packed
        length = 10 + len(packed)
        if kind == REPLACE:
            log.append(len(removed) // 3)
            log += removed
            length += 1 + len(removed)
        log.append(length)
        self.turns += 1

    def _length(self, start):
        """The length of the log entry at `start`."""
        log = self.log
        length = 10 + 3 * log[start + 8]
        if KINDS[log[start]] == REPLACE:
            length += 1 + 3 * log[start + length - 1]
        return length

    def removed_at(self, start):
        """The chips a REPLACE entry at `start` took off the board, as a Move."""
        log = self.log
        at = start + 9 + 3 * log[start + 8]
        m = log[at]
        return Move.from_bytes(bytes(log[at + 1 : at + 1 + 3 * m]), self.profile.width)

    def _entry(self, start):
        """(kind, player, packed move or None, score, (to_move, idle) before, undo count)."""
        log = self.log
        n = log[start + 8]
        packed = bytes(log[start + 9 : start + 9 + 3 * n]) if n else None
        score = (log[start + 4] << 16) | (log[start + 5] << 8) | log[start + 6]
        prev = (log[start + 2], log[start + 3])
        return (KINDS[log[start]], log[start + 1], packed, score, prev, log[start + 7])

    def entries(self):
        """The log's turns, oldest first, as `_entry` tuples."""
        start = 0
        while start < len(self.log):
            yield self._entry(start)
            start += self._length(start)

    @property
    def history(self):
        """The committed turns as tuples (see `_entry`); known-rack undo data included."""
        out = list(self.entries())
        if self.known:
            k = 0
            for i in range(len(out)):
                e = out[i]
                if e[0] in (PLACE, SWAP, REPLACE):
                    out[i] = e[:5] + (self.known_undo[k],)
                    k += 1
        return out

    def pop(self):
        """Take back the last committed turn; returns its history entry."""
        if not self.turns:
            raise GameStateError("no turn to take back")
        if self.penalties is not None:
            raise GameStateError("the end penalties are applied")
        self.version += 1
        start = len(self.log) - self.log[-1]
        entry = self._entry(start)
        removed = self.removed_at(start) if entry[0] == REPLACE else None
        self.log = bytearray(self.log[:start])  # MicroPython cannot `del` a bytearray slice
        self.turns -= 1
        kind, p, packed, score, prev, undo = entry
        if self.known and kind in (PLACE, SWAP, REPLACE):
            undo = self.known_undo.pop()
        self.to_move, self.idle = prev
        self.over = False
        self.pending = []
        if kind in (PLACE, REPLACE):
            move = Move.from_bytes(packed, self.profile.width)
            self.board.remove(move)
            self.scores[p] -= score
            if self.known and kind == REPLACE:
                self.racks[p], self.bag = undo[1], undo[2]  # as they were before
            elif self.known:
                got, at = undo  # put back where they were drawn from, the last first
                for k in range(len(got) - 1, -1, -1):
                    self.racks[p].remove(got[k])
                    self.bag.insert(at[k], got[k])
            else:
                self.racks[p] += self.rack_chips(move) - undo
                self.bag += undo
            for _, code in move.placements:
                key = chip_key(code)
                self.unseen[key] += 1
                if self.known and kind == PLACE and self.rules.from_rack(key):
                    self.racks[p].append(key)
            if removed is not None:
                self.board.put(removed)
                for _, code in removed.placements:
                    self.unseen[chip_key(code)] -= 1
                if not self.known:
                    self.bag -= self.rack_chips(removed)
        elif kind == SWAP and self.known:
            self.racks[p], self.bag = undo[1], undo[2]
        return entry

    # ----- the end -------------------------------------------------------------------------

    def rack_penalty(self, rack):
        """What a list of faces (`"5"`, `"+"`, `"?"`) left on a rack costs."""
        total = 0
        for text in rack:
            ch, joker = faces.parse(text)
            total += self.rules.chip_penalty(ch, joker)
        return total

    def last_mover(self):
        """The player who laid tiles last (0-based), or None if nobody has."""
        last = None
        for kind, p, _, _, _, _ in self.entries():
            if kind in (PLACE, REPLACE):
                last = p
        return last

    def finish(self, racks=None):
        """End the game: subtract each rack's penalty (Calculissimo rule 15), add any end
        bonus (Cal-Q-Able rule 13: see the ruleset); returns the penalties.

        In referee mode `racks` lists each player's leftover faces as read at the end; a
        count that differs from the tracked rack size raises GameStateError.
        """
        if self.penalties is not None:
            raise GameStateError("the game is already finished")
        self.version += 1
        if racks is None:
            if not self.known:
                raise GameStateError("the racks are needed to finish a refereed game")
            racks = [[faces.text(ch) if ch != faces.JOKER else ch for ch in r] for r in self.racks]
        if len(racks) != self.players:
            raise GameStateError("racks for %d players expected" % self.players)
        for p in range(self.players):
            if len(racks[p]) != self.rack_count(p):
                raise GameStateError(
                    "player %d should hold %d chips, not %d"
                    % (p + 1, self.rack_count(p), len(racks[p]))
                )
        self.penalties = [self.rack_penalty(r) for r in racks]
        self.bonuses = self.rules.end_bonuses(self, racks)
        for p in range(self.players):
            self.scores[p] += self.bonuses[p] - self.penalties[p]
        self.over = True
        self.pending = []
        return self.penalties

    def unfinish(self):
        """Take back `finish`: the end penalties and bonuses come off the scores again."""
        if self.penalties is None:
            raise GameStateError("the game is not finished")
        self.version += 1
        for p in range(self.players):
            bonus = self.bonuses[p] if self.bonuses else 0
            self.scores[p] -= bonus - self.penalties[p]
        self.penalties = None
        self.bonuses = None

    # ----- the turn being laid (uncommitted) -----------------------------------------------

    def lay(self, index, ch, joker=False):
        """A chip is put down this turn (replacing any pending chip on that square)."""
        self.lift(index)
        self.pending.append((index, faces.cell_code(ch, joker)))

    def lift(self, index):
        """A pending chip is taken back; returns True if there was one."""
        for k in range(len(self.pending)):
            if self.pending[k][0] == index:
                del self.pending[k]
                return True
        return False

    def undo_lay(self):
        """Take back the chip laid last this turn; returns its (index, code) or None."""
        return self.pending.pop() if self.pending else None

    def clear_pending(self):
        self.pending = []

    def pending_move(self):
        return Move(self.pending, self.profile.width)

    def preview(self):
        """The Verdict on the pending chips (live preview while laying)."""
        verdict = self.check(self.pending_move())
        self._previewed = (self.version, tuple(self.pending), verdict)
        return verdict

    def commit(self):
        """The player confirms: play the pending chips.

        The last preview's verdict is reused when nothing has changed since (same turn, same
        chips), so confirming does not judge the move a second time."""
        seen = self._previewed
        verdict = None
        if seen is not None and seen[0] == self.version and seen[1] == tuple(self.pending):
            verdict = seen[2]
        return self.play(self.pending_move(), verdict)
