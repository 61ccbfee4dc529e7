"""Anytime move search, for the chip: the best move found so far when the budget runs out.

    from engine import search
    s = search.Search(game, rack, steps=4000)            # or expired=a callable
    move, score = s.run()                                # (None, None): no legal move found
    s.complete                                           # True if every move was seen

On the board the budget is time (`expired()` reads the clock, engine/compat.py ticks); in
tests and benchmarks it is a count of search steps, which gives the same move on CPython and
MicroPython, or wasm fuel (tools/hintbench.py). The search is engine/movegen.py's, driven
part by part in an order that finds good moves early:
1. the moves of one chip (cheap: a legal move comes almost at once whenever one exists);
2. the rows and columns, the most promising first (the lines with the most run-premium
   factor on empty squares within reach of the board), in passes of growing size: windows
   of at most 2 new chips, then 4, then 6 (`quick`), then the whole rack; each size first
   without the jokers (each joker multiplies the choices on every square by up to ten),
   then with them. A pass finds again the moves of the smaller ones, but the floor (below)
   cuts most of that work; the sizes were chosen on the benchmark set
   (tools/hintbench.py): a single short pass found the best move within 400 M fuel on
   about half as many positions.
A chooser receives every move found (`offer(move, score)`); its `floor()` tells the search
which scores cannot change its choice, so that those moves are not even built and whole
branches that cannot beat it are cut (engine/movegen.py's bound). The default
chooser keeps the best score (engine/players.py has the levels). Memory stays small: the
search holds one move at a time, besides the chooser's own.

Cal-Q-Able's generator (engine/movegen_calqable.py) is a stream of moves: the budget is
checked between two moves there, so a step budget does not apply to it; time does.
"""

from engine import movegen
from engine.faces import JOKER
from engine.profile import RUN

QUICK = (2, 4, 6)  # the most new chips a window may hold in the first passes


class _Stop(Exception):
    """The budget ran out (raised from the search's step hook, caught by Search.run)."""


class BestScore:
    """A chooser: the highest score, the first found on a tie."""

    def __init__(self):
        self.move = None
        self.score = -1

    def offer(self, move, score):
        if score > self.score:
            self.move = move
            self.score = score

    def floor(self):
        """Moves scoring this or less cannot change the choice."""
        return self.score

    def choice(self):
        if self.move is None:
            return None, None
        return self.move, self.score


class Search:
    """One anytime search for the player to move holding `rack` (default: their known
    rack). `steps`: a budget in search steps; `expired`: a callable, True once the time (or
    fuel) is out, asked every movegen.STEP_CHECK steps. With neither, the search is whole."""

    def __init__(self, game, rack=None, chooser=None, steps=None, expired=None, quick=QUICK):
        self.game = game
        self.rack = rack
        self.chooser = BestScore() if chooser is None else chooser
        self.steps = steps
        self.expired = expired
        self.quick = quick
        self.complete = False
        self.found = 0  # moves offered to the chooser
        self.spent = 0  # search steps taken

    def run(self):
        """Search until done or out of budget; the chooser's choice, (move, score)."""
        chooser = self.chooser
        floor = [chooser.floor()]
        gen = movegen.generation(self.game, self.rack, floor)
        try:
            if gen is None:
                self._stream(floor)
            else:
                self._drive(gen, floor)
            self.complete = True
        except _Stop:
            pass
        if gen is not None:
            self.spent = gen.steps
        return chooser.choice()

    def _offer(self, floor, move, score):
        self.found += 1
        self.chooser.offer(move, score)
        floor[0] = self.chooser.floor()

    def _out(self, steps):
        return (self.steps is not None and steps >= self.steps) or (
            self.expired is not None and self.expired()
        )

    def _drive(self, gen, floor):
        gen.emit = lambda move, score: self._offer(floor, move, score)

        def check():
            if self._out(gen.steps):
                raise _Stop()

        gen.steps_done = check
        parts = gen.parts()
        lines = [part for part in parts if part[0] == "line"]
        for part in parts:
            if part[0] == "lone":
                gen.run(part)
        counts = gen.counts
        jokers = counts.get(JOKER, 0)
        limit = gen.limit
        # Without the jokers first (they multiply the choices on every square), then with.
        lines = _promising_first(gen, lines)
        passes = []
        for quick in self.quick + (limit,):
            for n_jokers in (0, jokers) if jokers else (0,):
                if quick <= limit:
                    passes.append((quick, n_jokers))
        for gen.limit, counts[JOKER] in passes:
            for part in lines:
                gen.run(part)
                check()

    def _stream(self, floor):
        for move, score in movegen.scored(self.game, self.rack):
            self._offer(floor, move, score)
            if self._out(0):
                raise _Stop()


def _promising_first(gen, lines):
    """The lines, those with the most run-premium factor on empty squares near chips on the
    board (or the start square) first; ties keep the board's order (rows, then columns)."""
    cells = gen.cells
    prem = gen.prem
    kinds = gen.kinds
    factors = gen.factors
    reach = gen.limit
    keyed = []
    for n, part in enumerate(lines):
        line = part[1]
        anchors = [
            k
            for k in range(len(line))
            if cells[line[k]] or (gen.first_move and line[k] == gen.start_sq)
        ]
        worth = 0
        for k in range(len(line)):
            p = prem[line[k]]
            if p and not cells[line[k]] and kinds[p] == RUN:
                for c in anchors:
                    if -reach <= k - c <= reach:
                        worth += factors[p]
                        break
        keyed.append((-worth, n, part))
    keyed.sort()
    return [item[2] for item in keyed]
