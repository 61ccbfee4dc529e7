"""A small greedy player for known-rack games: self-play for tests, demos and benchmarks.

It is no champion: it tries short placements (an operator between two numbers; an
operator and a number that extend a run; a three-chip first calculation through the start
square) and keeps the best-scoring legal one. Candidates that cannot be legal on a valid
board are dropped before the full check, which keeps self-play cheap on MicroPython: a
run never ends on an operator, so a new number may touch no chip across its line, and a
new operator must have numbers on both sides of every axis it touches. When nothing fits
it swaps its whole rack if the bag allows, else passes. Everything is deterministic:
candidate order is fixed and the only chance is the game's seeded bag.
"""

from engine import faces
from engine.move import Move

# Faces a joker is tried as (a joker stands for any chip but ×).
_JOKER_AS = "159+-"


def _options(rack):
    """Distinct (char, joker) chips the rack can lay, in a fixed order."""
    out = []  # type: list[tuple[str, bool]]
    for ch in sorted(set(rack)):
        if ch == faces.JOKER:
            out.extend((j, True) for j in _JOKER_AS)
        else:
            out.append((ch, False))
    return out


def candidates(game):
    """Candidate moves for the player to move (not all legal), each once, in a fixed order.

    Each is made only when asked for (a generator): the caller need not hold them all.
    """
    w = game.profile.width
    size = len(game.board.cells)
    chips = _options(game.racks[game.to_move])
    nums = [c for c in chips if faces.is_digit(c[0])]
    ops = [c for c in chips if not faces.is_digit(c[0])]
    if game.is_first_move():
        s = game.profile.start
        for step in (1, w):
            for first in (s - 2 * step, s - step, s):
                if first < 0 or first + 2 * step >= size:
                    continue
                if step == 1 and first // w != (first + 2) // w:
                    continue
                for a in nums:
                    for op in ops:
                        for b in nums:
                            yield _move(w, (first, a), (first + step, op), (first + 2 * step, b))
        return
    cells = game.board.cells

    def number_at(j):
        return 0 <= j < size and cells[j] and faces.is_digit(chr(cells[j] & faces.FACE_MASK))

    def occupied(j):
        return 0 <= j < size and cells[j]

    def axes(i):
        # (before, after) neighbours of i across (if inside the row) and down
        col = i % w
        return ((i - 1 if col > 0 else -1, i + 1 if col < w - 1 else -1), (i - w, i + w))

    def op_fits(i):
        for a, b in axes(i):
            if (occupied(a) or occupied(b)) and not (number_at(a) and number_at(b)):
                return False
        return True

    def bare_across(i, d):
        # no chip beside i on the axis perpendicular to step d
        for a, b in axes(i):
            if (b - a == 2) == (d in (1, -1)):
                continue
            if occupied(a) or occupied(b):
                return False
        return True

    for i in range(size):
        if cells[i]:
            continue
        if op_fits(i):
            for c in ops:
                yield _move(w, (i, c))
        for d in (1, -1, w, -w):
            j = i - d  # the number this operator would follow
            if not number_at(j) or (d in (1, -1) and j // w != i // w):
                continue
            k = i + d
            if not (0 <= k < size) or cells[k] or (d in (1, -1) and k // w != i // w):
                continue
            if not bare_across(k, d) or not bare_across(i, d) and not op_fits(i):
                continue
            for op in ops:
                for b in nums:
                    yield _move(w, (i, op), (k, b))


def _move(width, *placed):
    return Move([(i, faces.cell_code(ch, joker)) for i, (ch, joker) in placed], width)


def best_move(game):
    """(move, verdict) with the highest score among the candidates, or (None, None).

    Only the best so far is kept: each candidate is garbage once checked. (Keeping every
    candidate, e.g. in a set to skip repeats, ran a Pico out of heap: hundreds of moves held
    among check()'s garbage leave no free block big enough for the set's growing table.
    `candidates` never repeats a move, and a repeat could not change the choice anyway: it
    would score the same, and only a strictly higher score replaces the best.)
    """
    best = None
    best_verdict = None
    for move in candidates(game):
        verdict = game.check(move)
        if verdict.legal and (best_verdict is None or verdict.score > best_verdict.score):
            best = move
            best_verdict = verdict
    return best, best_verdict


def play_turn(game):
    """Play one turn for the player to move.

    Returns ("place", verdict), or ("swap", None) or ("pass", None).
    """
    move, verdict = best_move(game)
    if move is not None:
        game.push(move)
        return "place", verdict
    if game.can_swap():
        game.swap(list(game.racks[game.to_move]))
        return "swap", None
    game.pass_turn()
    return "pass", None


def play_game(game, max_turns=500):
    """Play until the game is over (or max_turns); returns the number of turns played."""
    turns = 0
    while not game.over and turns < max_turns:
        play_turn(game)
        turns += 1
    return turns
