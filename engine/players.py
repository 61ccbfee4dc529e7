"""Computer players, levels 1 to 4 (issue 12): a chooser fed a stream of (move, score) pairs.

    chooser = players.Chooser(game, level, prng)       # the player to move, their rack
    for move, score in movegen.scored(game):          # or a budgeted search (engine/search.py)
        chooser.offer(move, score)
    move, score = chooser.choice()                    # the choice so far; (None, None): none
    players.play_turn(game, level, prng)              # self-play: choose and play a turn

In Cal-Q-Able play_turn also offers the chooser the rule-5 replacements, each left side once
at most (engine/calqable_replace.py `offer`), and `act` plays one chosen with Game.replace.
The board's think (firmware/computer.py) offers none yet: its search runs the moves only,
and on a stock board every byte of this module's code is taken from the search's room.

The levels:
1. weak on purpose: the lower-scoring of two moves drawn at random (so on average a move
   a third of the way up the scores);
2. middling: the best of three moves drawn at random (three quarters of the way up);
3. the best score, the first found on a tie;
4. the best equity: ten times the score plus the value of the chips kept and of the turn
   a move of the whole rack earns (engine/leave.py, in tenths of a point), the first found
   on a tie. While the bag can refill the rack it also swaps instead of moving when keeping
   the best part of the rack and swapping the rest is worth more than the best move, unless
   the swap would end the game (the opponents have all just passed or swapped); in
   Cal-Q-Able a swap gives back the whole rack. A game without a leave table, or an empty
   bag, leaves it the score alone: level 3.

Whatever order the moves come in, the chooser holds only its choice (levels 3 and 4) or a
few random draws (levels 1 and 2: reservoir sampling, each draw replaced by the k-th move
offered with chance 1/k, the same engine/prng.py draws on every runtime), so the choice is
ready at any moment of a search and memory stays small. `floor()` tells a search which
scores could not change the choice, so it need not build those moves.
"""

from engine import movegen

LEVELS = (1, 2, 3, 4)
_DRAWS = (0, 2, 3)  # moves drawn at random by levels 1 and 2


class Chooser:
    """Keeps the choice of one level among the moves offered to it.

    `rack` defaults to the mover's known rack; `leave` is a leave table (default: the
    game's, engine/leave.py); `prng` (engine/prng.py) is needed by levels 1 and 2."""

    def __init__(self, game, level, prng=None, leave=None, rack=None):
        if level not in LEVELS:
            raise ValueError("level must be 1 to 4, not %r" % (level,))
        self.level = level
        self.prng = prng
        self.move = None
        self.score = -1
        self.equity = 0  # ten times the score, plus the leave's value at level 4
        self.table = None
        self.top = 0  # the most what a move keeps can be worth (0 without a table)
        if level <= 2:
            if prng is None:
                raise ValueError("levels 1 and 2 draw moves at random: give a prng")
            self.seen = 0
            self.moves = [None] * _DRAWS[level]
            self.scores = [0] * _DRAWS[level]
            return
        if level < 4:
            return
        # (imported here: levels 1 to 3 and the board's hints need no leave table, and on a
        # stock board its code would be taken from the search's room at every think)
        from engine import leave as leaves

        table = leaves.table_for(game.rules.name) if leave is None else leave
        if table is None or game.bag_count() == 0:
            return  # no leave table, or no refill: the score alone
        if rack is None:
            if not game.known:
                raise ValueError("referee mode: the rack must be given")
            rack = game.racks[game.to_move]
        self.table = table
        self.game = game
        # a move laying every chip of the rack earns a turn at once if the rules say so
        full = len(rack) if game.rules.bonus_turn(len(rack), game.rack_size) else -1
        self.keeper = leaves.Keeper(table, rack, full)
        self.counts = self.keeper.counts
        # the best part of the rack to keep (what a swap would keep), worked out once; a
        # game whose swap gives back the whole rack keeps nothing
        if game.rules.whole_swap:
            self.kept = [0] * len(self.counts)
            self.kept_value = leaves.value(table, self.kept)
        else:
            self.kept_value, self.kept = best_leave(table, self.counts)
        top = self.kept_value
        empty = leaves.value(table, [0] * len(self.counts), True)  # the whole rack laid
        self.top = empty if top is None or top < empty else top

    def offer(self, move, score):
        """One legal move and its score."""
        if self.level <= 2:
            self.seen += 1
            for k in range(len(self.moves)):
                if self.prng.below(self.seen) == 0:
                    self.moves[k] = move
                    self.scores[k] = score
            return
        equity = 10 * score
        if self.table is not None:
            equity += self.keeper.after(move.placements)
        if self.move is None or equity > self.equity:
            self.move = move
            self.score = score
            self.equity = equity

    def floor(self):
        """Moves scoring this or less cannot change the choice (-1: every move may)."""
        if self.level <= 2 or self.move is None:
            return -1
        return (self.equity - self.top) // 10

    def choice(self):
        """(move, score) chosen among the moves offered so far, or (None, None)."""
        if self.level > 2:
            if self.move is None:
                return None, None
            return self.move, self.score
        pick = -1  # level 1: the lowest score drawn; level 2: the highest (first on ties)
        scores = self.scores
        for k in range(len(self.moves)):
            if self.moves[k] is None:
                continue
            if pick < 0 or (
                scores[k] < scores[pick] if self.level == 1 else scores[k] > scores[pick]
            ):
                pick = k
        if pick < 0:
            return None, None
        return self.moves[pick], self.scores[pick]


def best_leave(table, counts):
    """(value, kept counts) of the best part of the rack `counts` to keep, the whole rack
    left out (a move or a swap gives back at least one chip); (None, None) if none."""
    from engine import leave as leaves

    n = len(counts)
    kept = [0] * n
    best = None
    best_kept = None
    while True:
        if kept != counts:
            v = leaves.value(table, kept)
            if best is None or v > best:
                best = v
                best_kept = list(kept)
        # the next part: count up in the mixed radix (counts[i] + 1 for digit i)
        i = 0
        while i < n and kept[i] == counts[i]:
            kept[i] = 0
            i += 1
        if i == n:
            return best, best_kept
        kept[i] += 1


def swap_plan(chooser):
    """The chips a level-4 chooser would swap rather than play its choice, or None."""
    table = chooser.table
    if table is None:
        return None
    game = chooser.game
    if game.idle + 1 >= game.players:
        return None  # every other player has just passed or swapped: this would end the game
    value, kept = chooser.kept_value, chooser.kept
    if kept is None or (chooser.move is not None and value <= chooser.equity):
        return None
    chips = []
    faces = table[0]
    for i in range(len(faces)):
        chips.extend([faces[i]] * (chooser.counts[i] - kept[i]))
    return chips


def act(game, chooser, replacing=()):
    """Play the chooser's choice for the player to move: its move (with Game.replace if it
    is one of the rule-5 replacements `replacing`), else a swap (the whole rack, or at level
    4 the chips not worth keeping) if the bag allows, else a pass. Returns ("place", move,
    score), ("replace", move, score), ("swap", chips, 0) or ("pass", None, 0)."""
    move, score = chooser.choice()
    chips = swap_plan(chooser) if game.can_swap() else None
    if chips:
        game.swap(chips)
        return "swap", chips, 0
    if move is not None:
        # (a replacement is never also a move: engine/calqable_replace.py)
        if move in replacing:
            game.replace(move)
            return "replace", move, score
        game.push(move)
        return "place", move, score
    if game.can_swap():
        chips = list(game.racks[game.to_move])
        game.swap(chips)
        return "swap", chips, 0
    game.pass_turn()
    return "pass", None, 0


def play_turn(game, level, prng, leave=None):
    """Choose among every legal move of the player to move (known racks) at `level`, and
    the rule-5 replacements (Cal-Q-Able), and play the turn (see `act`, which gives the
    result). The generator is told the chooser's floor as it rises, so it need not build the
    moves that could not change the choice (the choice is the same: those could not beat
    it, and a tie keeps the first found)."""
    chooser = Chooser(game, level, prng, leave)
    floor = [chooser.floor()]
    for move, score in movegen.floored(game, floor):
        chooser.offer(move, score)
        floor[0] = chooser.floor()
    replacing = ()
    if game.rules.replacement_bonus:
        from engine import calqable_replace  # (host self-play only: see above)

        replacing = calqable_replace.offer(game, chooser)
    return act(game, chooser, replacing)
