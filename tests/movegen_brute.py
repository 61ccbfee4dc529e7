"""Brute-force move enumeration, the oracle for engine/movegen.py (CPython, tests only).

Written apart from the generator and judged by `Game.check` alone. It is complete because a
legal move is a set of chips on empty squares of one row or column with no empty square
between its first and last chip (the shape rule), taken from the rack:

- every direction, every line, every pair (a, b) of empty squares with a <= b (a one-chip
  move is listed once, across), whose empty squares in [a, b] number at most what can be
  laid (the rack, plus one `=` from an open supply: a run holds at most one `=`);
- every assignment of chips to those squares: a rack chip is taken as each face it can be
  (a joker as every face of the game's alphabet, `×` included: Game.check refuses it),
  each distinct multiset choice once;
- every candidate goes to `Game.check`; the legal ones are the answer, with its score.

Only cuts that no legal move can fail are made before `Game.check`, each checked with the
engine's own judgement or a property every valid run has:
- the window must touch a chip on the board (or, on the first move, cover the start square);
- each new chip's run across the line (its own neighbours only: no other new chip is on
  that line) must be valid by face value, judged by the ruleset (`score_runs` with no new
  squares, so no premium is involved);
- the run along the line, read left to right: in Calculissimo numbers and operators
  alternate from a number (two adjacent numbers or operators are malformed); in Cal-Q-Able
  a run starts with a digit, no two non-digits (`+ - × ÷ / =`) are adjacent, and it holds at
  most one `=`. A one-chip window that is no run along the line is not cut.
"""

from engine import faces
from engine.move import Move


def _faces_of(game, key):
    """The faces a rack chip with this key may be laid as: (char, joker) pairs."""
    if key == faces.JOKER:
        return [(ch, True) for ch in game.rules.alphabet]
    return [(key, False)]


def _pool(game, rack):
    """key -> count of what the mover may take: the rack, plus open-supply faces."""
    pool = {}
    for key in rack:
        pool[key] = pool.get(key, 0) + 1
    for key in game.rules.open_faces:
        pool[key] = game.unseen.get(key, 0)
    return pool


def _cross_ok(game, i, step, ch, joker):
    """Whether a chip on empty square i leaves the run along `step` through it valid."""
    board = game.board
    code = faces.cell_code(ch, joker)
    board.cells[i] = code
    try:
        run = board.run_through(i, step)
        if run is None:
            return True
        reasons, _, _ = game.rules.score_runs(board, [run], set())
        return not reasons
    finally:
        board.cells[i] = 0


def _digit(ch):
    return "0" <= ch <= "9"


def _pair_ok(game_name, prev, ch):
    """Whether `prev` followed by `ch` can stand in a valid run along the line."""
    if game_name == "calculissimo":
        return _digit(prev) != _digit(ch)
    return _digit(prev) or _digit(ch)


def legal_moves(game, rack=None):
    """{move: score} of every legal move of the player to move holding `rack`."""
    if game.over:
        return {}
    if rack is None:
        rack = game.racks[game.to_move]
    name = game.rules.name
    board = game.board
    cells = board.cells
    w, h = board.width, board.height
    empty_board = board.is_empty()
    start = game.profile.start
    pool = _pool(game, rack)
    most = len(rack) + (1 if game.rules.open_faces else 0)
    cross_cache = {}
    found = {}

    def cross_ok(i, step, ch, joker):
        key = (i, step, ch, joker)
        if key not in cross_cache:
            cross_cache[key] = _cross_ok(game, i, step, ch, joker)
        return cross_cache[key]

    def touches(i):
        r, c = divmod(i, w)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and cells[rr * w + cc]:
                return True
        return False

    lines = [([r * w + c for c in range(w)], 1, w) for r in range(h)]
    lines += [([c + r * w for r in range(h)], w, 1) for c in range(w)]
    for line, step, cross in lines:
        n = len(line)
        for a in range(n):
            if cells[line[a]]:
                continue
            for b in range(a, n):
                if cells[line[b]]:
                    continue
                if a == b and step != 1:
                    continue  # one chip: listed once, across
                window = line[a : b + 1]
                new = [i for i in window if not cells[i]]
                if len(new) > most:
                    break
                if empty_board:
                    if start not in window:
                        continue
                elif not any(touches(i) for i in new):
                    continue
                # The maximal run along the line once the window is filled.
                lo, hi = a, b
                while lo > 0 and cells[line[lo - 1]]:
                    lo -= 1
                while hi < n - 1 and cells[line[hi + 1]]:
                    hi += 1
                run = line[lo : hi + 1]
                _assign(game, name, run, cross, pool, cross_ok, found, len(run) >= 2)
    return found


def _assign(game, name, run, cross, pool, cross_ok, found, is_run):
    """Every assignment of pool chips to the empty squares of `run` (in order)."""
    cells = game.board.cells
    w = game.board.width
    chars = []  # the run's faces so far
    placed = []

    def go(k, equals):
        if k == len(run):
            if is_run and not _digit(chars[-1]):
                return
            move = Move(placed, w)
            verdict = game.check(move)
            if verdict.legal:
                assert move not in found or found[move] == verdict.score
                found[move] = verdict.score
            return
        i = run[k]
        if cells[i]:
            options = [(None, chr(cells[i] & 0x7F), bool(cells[i] & faces.JOKER_BIT))]
        else:
            options = []
            for key in sorted(pool):
                if pool[key] > 0:
                    for ch, joker in _faces_of(game, key):
                        options.append((key, ch, joker))
        for key, ch, joker in options:
            if is_run:
                if k == 0 and not _digit(ch):
                    continue
                if k > 0 and not _pair_ok(name, chars[-1], ch):
                    continue
                if name == "calqable" and ch == faces.EQUALS and equals:
                    continue
            if key is not None and not cross_ok(i, cross, ch, joker):
                continue
            chars.append(ch)
            if key is not None:
                pool[key] -= 1
                placed.append((i, faces.cell_code(ch, joker)))
            go(k + 1, equals or ch == faces.EQUALS)
            if key is not None:
                placed.pop()
                pool[key] += 1
            chars.pop()

    go(0, False)
