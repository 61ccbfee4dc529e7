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
   factor on empty squares within reach of the board, then those with the most chips on
   the board), in three phases (plan()): windows of at most 4 new chips (`quick`); then
   the whole rack; then the whole rack again with the jokers standing for every face.
   Before that last phase a joker is only a `9` or a `+` (JOKER_FIRST): each joker
   multiplies the choices on every square by up to thirteen, and those two faces are what
   it is in most best moves of the benchmark set.
   A phase takes the lines one by one and runs all its passes on a line before the next,
   so each line is prepared (its cross checks and bound tables) once a phase. A pass finds
   again the moves of the smaller ones, but the floor (below) cuts most of that work.
   The plan was chosen on the benchmark set (tools/hintbench.py, WASI fuel): passes of
   sizes 2, 4, 6 and the whole rack, each over every line, first without and then with
   the jokers, held 66 % of the best score at 80 M fuel and found the best within 400 M
   on 75 of 85 positions; a first phase of two passes, 2 then 4, held 82 % and found it
   on 79 (80 % and 78 once the windows grew on a stack of their own, engine/movegen.py:
   slower a step, but safe on the rp2 port's C stack; 79.6 % on 2026-11-28). The pass of
   2 was there for an early legal move, which the moves of one chip give already; without
   it (2026-11-28): 81.5 % at 80 M and 78 of 85, the first legal move at most 66.4 M fuel
   (73.1 M with it), and a higher share at every budget from 40 M to 400 M (at 20 M 32.1 %
   against 32.8 %). A first phase of 3 held 65.8 % at 80 M, of 5 71.5 %, of 4 then 6
   65.3 %: the quick phase takes 60-370 M fuel, so at 80 M the search is still in it and
   its size sets what it has seen by then. So the order of the lines matters most: in the
   board's order 70.1 % at 80 M; the most run premium first 81.5 %; and on a tie the line
   with more chips on the board first 83.4 % and 79 of 85 (the chip premiums counted in
   too: 79.6 %).
A chooser receives every move found (`offer(move, score)`); its `floor()` tells the search
which scores cannot change its choice, so that those moves are not even built and whole
branches that cannot beat it are cut (engine/movegen.py's bound). The default
chooser keeps the best score (engine/players.py has the levels). Memory stays small: the
search holds one move at a time, besides the chooser's own.

Cal-Q-Able's generator (engine/movegen_calqable.py) is a stream of moves; with a floor it
takes the squares of `=` in the order of their score bound (engine/calqable_bounds.py) and
stops where the bound meets the floor. The search runs it in passes of growing size
(CALQ_SIZES rack tiles at most, then the whole rack), so that a legal move comes before the
whole rack's search. The first pass goes in the board's order, and with a budget the moves
of one tile come after the lines' in every pass: its first legal move comes at a median of
6.5 M fuel and at most 66.0 M, within 80 M on all 82 mid-game positions of the set
(tools/hintbench.py; 18.8 M and 73.3 M with the moves of one tile first, whose cross checks
of every square next to a tile came before any line's move; 36 M and 3 late while the cross
checks judged the whole equation rather than the side of `=` the new tile is on, and a
line's set-up and each square of `=` cost more). Ranking the lines by their bounds costs
more than that pass (then 53.8 M and 25 late, though 36.8 % of the best score at 400 M
against 33.8 %); the lines with the most tiles first left 4 late (median 19.3 M). Each
line's bounds are worked out once a pass. Each pass starts with the floor of the passes
before it, and in a square of `=` the walk of a long side stops where it cannot beat the
floor (movegen_calqable `_Calq.bound`): 37.1 % of the best score at 400 M against 34.4 %
without, on 24 positions.
The moves of long sides come to the chooser as they are built (`gen.emit`), so the floor
rises inside a square's walks: 42.2 % at 400 M against 37.1 % when they came once a walk
was done, the best within 400 M on 7 of 82 against 4. A short side's walk stops too where
no move it can make beats the floor, the other kind's squares taken at their best
(movegen_calqable `_Calq.short_bounds`): 47.2 % and 10 of 82 against 42.2 % and 7.
The passes, measured so: (2, 4) held 47.2 % at 400 M and found the best on 10 of 82; (2,)
47.0 % and 13; (3,) 46.3 % and 11, 4 positions late to a legal move; (2, 5), (2, 6) and
(2, 4, 6) 46.2 %, 44.0 % and 41.3 %. On the emulated Pico's 12 positions (2,) held 65.5 %
of the best at 5 s against 61.4 % for (2, 4): CALQ_SIZES is (2,).
With a budget, that first pass stops at its first move (since 2026-11-28; the move is not
offered again): it sets up every line of the board, which took a median of 115 M fuel (at
most 199 M) where its first move came at 19 M, so at 80 M the whole rack's pass had not
begun on most positions. Stopped so, WASI: 11.7 % of the best at 80 M (16.3 % before; the
rest of that pass's moves were what it held), but 22.4 / 36.8 / 53.3 % at 120 / 200 /
400 M against 18.1 / 26.2 / 49.3 %, and the best within 400 M on 17 of 82 against 14; on
the emulated Pico's 12 positions 28.0 % at 1 s and 68.6 % at 5 s against 21.3 % and
66.0 % (the board thinks for 1 to 5 s). Stopping it after some steps instead changed
nothing: its cost is the lines' set-up, which steps do not count.
With a budget (the board's searches), a square of `=` with more than CALQ_SIDES short
sides is passed over at first (`skipped`; a whole search passes over none): their lists and
dicts want blocks of 2 to 4 KB, which the Pico's heap, in pieces mid-search, often lacks
(on the emulated Pico the heap ran out on 3 of 12 positions without the cap, on none with
it). A square whose sides still run the heap out is given up (`short_of_memory`; so is
one whose walk would run the stack out, which the walks keep well within). Either
way the search goes on with the next square, the rack whole again. Once every other square
is done, it comes back to those it passed over, the highest bound first, two thirds of
CALQ_SIDES short left sides at a time (movegen_calqable `passed_over`; until the evening of
2026-11-28 with all their sides at once: 46,736 B of the emulated Pico's heap on the one
position of 12 that came back to them within 5 s, 33,232 B by lots of CALQ_SIDES; once the
lookups were not kept, 25,584 B by lots of CALQ_SIDES and 21,952 B by lots of two thirds).
Until that morning it did not come back, and a search with all the time it wanted found the
best move on 45 of the 82 positions
(87.9 % of the best score on average; now 82 of 82). Squares held back so are searched
last, so a lower cap loses nothing for good: WASI, 400 M fuel, cap 200 / 100 / 60 / 40 held 47.0 /
48.4 / 49.4 / 50.8 % of the best and found it on 13 / 14 / 14 / 16 of 82; on the emulated Pico's 12
positions, 5 s, 200 and 60 held 66.7 % and 66.0 % (one position better, one worse), and 60 keeps
fewer sides at once (those runs came before a square searched again stopped offering its moves
twice, which moved 60's 49.4 % to 49.3 %). CALQ_SIDES was 60 until the sides learnt to stop
short of a run holding another `=` (engine/movegen_calqable.py, 2026-11-28): the search then
got further in 5 s on the emulated Pico, and one of its 12 positions held 25,984 B at its
peak (24,256 B before); 50 held 25,328 B, 40 holds 22,608 B. CALQ_SIDES is 40.
On the chip Cal-Q-Able stays far from the hint's other goals (tools/hintbench.py, last run
of 2026-11-28, with the moves of one tile after the lines' and the lines' rough bounds in
half the fuel): 23.1 % of the best score at 80 M fuel (56.9 % at 400 M), the best within
400 M on 19 of 82; before those two changes 18.0 % (56.0 %) and 18 of 82 (the moves of one
tile last in the whole rack's pass only: 19.1 %; the cheaper bounds alone: 20.6 %). On the
emulated Pico (12 positions) 35.2 % at 1 s, 68.6 % at 5 s, the best within 5 s on 4, and
the heap never ran out: live heap at most 33,232 B (46,864 B before the squares passed over
came back by lots and movegen_calqable held less, 71,328 B before the heap changes).
The whole rack's search of one square of `=` most often costs 20-60 ms on CPython, and
`movegen.best` took 39-80 M WASI fuel a CPython millisecond: one to three G fuel on the
chip, against the 400 M budget. With the generator of that morning, pass sizes (2, 3), (3),
(2, 3, 4), (2, 3, 5), (2, 4, 5), (2, 5) and (2, 4, 6) held 13-14 % at 80 M and 22-35 % at
400 M. The budget (steps: calls of its side builder; or time) is checked every
movegen.STEP_CHECK steps inside it and after each move.
"""

from engine import movegen
from engine.faces import JOKER, JOKER_BIT
from engine.profile import RUN

QUICK = (4,)  # the most new chips a window may take in the first phase
JOKER_FIRST = "9+"  # the faces a joker may stand for before the last phase
CALQ_SIZES = (2,)  # Cal-Q-Able: the rack tiles of each pass before the whole rack
CALQ_SIDES = 40  # Cal-Q-Able: the most short sides a square of `=` keeps at first (above)


class _Stop(Exception):
    """The budget ran out (raised from the search's step hook, caught by Search.run)."""


class _Cut(Exception):
    """A Cal-Q-Able search's first pass has its move (raised from Search._offer)."""


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

    def __init__(
        self,
        game,
        rack=None,
        chooser=None,
        steps=None,
        expired=None,
        quick=QUICK,
        plan=None,
        between=None,
    ):
        self.game = game
        self.rack = rack
        self.chooser = BestScore() if chooser is None else chooser
        self.steps = steps
        self.expired = expired
        self.quick = quick
        self.plan = plan
        # Called with no argument between two lines (Calculissimo) or two moves (Cal-Q-Able),
        # where the stack is shallow: the board redraws its progress line there, not from
        # `expired`, which runs at the bottom of the generator's recursion (the rp2 port
        # allows about 30 nested Python calls).
        self.between = between
        self.complete = False
        # the heap ran out: the search stopped there, or (Cal-Q-Able) it gave up a square
        # of `=` whose sides did not fit and went on with the next
        self.short_of_memory = False
        self.skipped = 0  # Cal-Q-Able: squares of `=` passed over at first, too many sides
        self.found = 0  # moves offered to the chooser
        self.line_best = -1  # the best score offered on the current line (Calculissimo)
        self.spent = 0  # search steps taken
        self.earlier = None  # the passes run on the line before the current one
        self.floor = [-1]  # [the chooser's floor], shared with the generator
        self.gen = None  # the generation being driven
        self.counted = None  # a callable: the chips of a move a pass counts (None: all)
        self.cut = False  # Cal-Q-Able: stop the pass at the move offered (raise _Cut)
        self.once = None  # Cal-Q-Able: the move of a cut first pass, not to offer again

    def run(self):
        """Search until done or out of budget; the chooser's choice, (move, score).

        Out of memory is out of budget too: the chooser's choice so far stands
        (`short_of_memory` says so). A Cal-Q-Able search keeps the short sides of one square
        of `=` at a time: with a budget, a square with more than CALQ_SIDES of them is passed
        over (`skipped`) until every other square is done, then searched with all its sides;
        one whose sides do not fit in the heap is given up, and the search goes on with the
        next (it is then not complete)."""
        chooser = self.chooser
        floor = self.floor = [chooser.floor()]
        gen = None
        try:
            gen = movegen.generation(self.game, self.rack, floor)  # its set-up may fill the heap
            if gen is None:
                self._stream(floor)
            else:
                self._drive(gen)
            self.complete = not self.short_of_memory
        except _Stop:
            pass
        except MemoryError:
            self.short_of_memory = True
        if gen is not None:
            self.spent = gen.steps
        return chooser.choice()

    def _offer(self, move, score):
        # (the generator's `emit`: a bound method, no frame in between)
        if self.earlier and _seen(move, self.earlier, self.counted):
            return
        if self.once is not None and move == self.once:
            return
        self.found += 1
        self.line_best = max(self.line_best, score)
        self.chooser.offer(move, score)
        self.floor[0] = self.chooser.floor()
        if self.cut:
            self.once = move
            raise _Cut()

    def _check(self, steps):
        """Raise _Stop once the budget is out (`steps` taken so far)."""
        if (self.steps is not None and steps >= self.steps) or (
            self.expired is not None and self.expired()
        ):
            raise _Stop()

    def _steps_done(self):
        # (the generator's `steps_done` hook, every STEP_CHECK steps: one frame only)
        steps = self.gen.steps  # type: ignore[union-attr]  # set before the generator runs
        if (self.steps is not None and steps >= self.steps) or (
            self.expired is not None and self.expired()
        ):
            raise _Stop()

    def _drive(self, gen):
        self.gen = gen
        gen.emit = self._offer
        gen.steps_done = self._steps_done
        between = self.between
        parts = gen.parts()
        lines = [part for part in parts if part[0] == "line"]
        for part in parts:
            if part[0] == "lone":
                gen.run(part)
        jokers = gen.counts.get(JOKER, 0)
        limit = gen.limit
        lines = _promising_first(gen, lines)
        phases = self.plan if self.plan is not None else plan(self.quick, limit, jokers)
        # Phase by phase, line by line: a line is prepared once (movegen's prepare()) for
        # all the passes of a phase, which costs as much as a short pass itself.
        # A pass finds again the moves of the passes before it on the line (`earlier`):
        # those are not offered twice (levels 1 and 2 draw among the moves offered).
        # After a phase, the lines whose moves raised the floor go first in the next, the
        # best of them first (the rest keep their order): where windows of 4 chips scored
        # well, the whole rack often does too. WASI, 85 positions: the best within 400 M
        # fuel on 80 against 79, 98.8 % of the best at 300 M against 97.3 % (at 80 M the
        # search is still in the first phase: 83.4 % either way).
        done = []  # type: list
        for phase in phases:
            ranked = []
            for k in range(len(lines)):
                part = lines[k]
                self.line_best = -1
                prep = gen.prepare(part)
                for n in range(len(phase)):
                    size, faces = phase[n]
                    self.earlier = done + phase[:n]
                    gen.limit = size
                    if jokers:
                        gen.joker_faces(faces)
                    gen.run_line(prep)
                ranked.append((-self.line_best, k))
                self._check(gen.steps)
                if between is not None:
                    between()
            done = done + phase
            ranked.sort()
            lines = [lines[k] for _, k in ranked]
        self.earlier = None

    def _stream(self, floor):
        from engine import movegen_calqable

        gen = self.gen = movegen_calqable.generation(self.game, self.rack, floor)
        between = self.between
        gen.steps_done = self._steps_done
        gen.emit = self._offer  # the moves of long sides, as they are built
        limit = gen.limit
        self.counted = gen.from_rack  # a move's tiles that count against the pass's size
        gen.give_up = True
        no_cap = gen.most_sides
        # a whole search passes over no square; nor does a short pass (its sides are few)
        capped = self.steps is not None or self.expired is not None
        if capped:
            gen.keep_lookups = False  # the chip's search: its heap, wherever it runs
        done = []  # type: list
        try:
            sizes = [size for size in CALQ_SIZES if size < limit] + [limit]
            for size in sizes:
                self.earlier = done
                gen.limit = size
                # the first pass in the board's order: ranking the lines by their bounds
                # costs more fuel than a small pass itself (tools/hintbench.py)
                gen.ordered = len(sizes) == 1 or size != sizes[0]
                # the moves of one tile: in the first pass, or in the whole one if the
                # first was cut short
                gen.lone = size == sizes[0] or (size == limit and self.once is not None)
                # With a budget they come after the lines' moves: their cross checks of
                # every square next to a tile held back the first pass's first move (WASI,
                # 82 positions: at a median of 18.8 M fuel with them first, 6.5 M after)
                # and the whole rack's first square, for moves that score little
                gen.lone_last = capped
                gen.most_sides = CALQ_SIDES if capped and size == limit else no_cap
                # With a budget, a pass short of the whole rack stops at its first move: it
                # is there for a legal move early, and it sets up every line, which took a
                # median of 115 M fuel where the first move came at 19 M (see above).
                self.cut = capped and size < limit
                try:
                    for move, score in gen.scored():
                        self._offer(move, score)
                        self._check(gen.steps)
                        if between is not None:
                            between()
                except _Cut:
                    gen.refill()  # the tiles the walk held
                    self._check(gen.steps)
                else:
                    done = done + [(size, None)]
                self.cut = False
            # Last, the squares the last pass passed over, with all their sides (the moves
            # it had found there are not offered again: see passed_over())
            self.earlier = done[:-1]
            for move, score in gen.passed_over():
                self._offer(move, score)
                self._check(gen.steps)
                if between is not None:
                    between()
        finally:
            self.cut = False
            self.once = None
            gen.limit = limit
            gen.most_sides = no_cap
            gen.ordered = True
            gen.lone = True
            gen.lone_last = False
            if gen.given_up:
                self.short_of_memory = True
            self.skipped = gen.skipped
            self.spent = gen.steps
            self.earlier = None


def _seen(move, passes, counted=None):
    """True if one of `passes` (see plan()) also finds `move`: a pass finds every move of
    at most its size (chips counted by `counted(move)`, default all) whose jokers stand for
    faces it allows."""
    n = len(move.placements) if counted is None else counted(move)
    for size, faces in passes:
        if n > size:
            continue
        if faces is None:
            return True
        for _, code in move.placements:
            if code & JOKER_BIT and chr(code & 0x7F) not in faces:
                break
        else:
            return True
    return False


def plan(quick, limit, jokers):
    """The search's phases for a rack of `limit` chips holding `jokers`: lists of passes
    (the most new chips a window may take, the faces a joker may stand for, None: all)."""
    out = [
        [(size, JOKER_FIRST) for size in quick if size < limit],
        [(limit, JOKER_FIRST)],
    ]  # type: list[list[tuple[int, str | None]]]
    if jokers:
        out.append([(limit, None)])
    return [phase for phase in out if phase]


def _promising_first(gen, lines):
    """The lines, those with the most run-premium factor on empty squares near chips on the
    board (or the start square) first; on a tie, those with more chips on the board (or the
    start square), then the board's order (rows, then columns)."""
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
        # ties: the line with more chips on the board first (more places a window can
        # join and run through; WASI, 85 positions: 83.4 % of the best at 80 M fuel
        # against 81.5 % in the board's order)
        keyed.append((-worth, -len(anchors), n, part))
    keyed.sort()
    return [item[3] for item in keyed]
