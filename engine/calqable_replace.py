"""Cal-Q-Able rule 5, generated: every legal replacement for a rack, with its score.

    from engine import calqable_replace
    for move, score in calqable_replace.replacements(game):   # the mover's known rack
        game.replace(move)                                     # (one of them)
    calqable_replace.offer(game, chooser)     # for a computer player (engine/players.py)

A replacement (engine/replacement.py) takes away every tile before an `=` on the board and
lays rack tiles there, ending on the square just before that `=`, so that the equation
still holds; it scores as a move on the board without the old left side, plus the rule's
bonus (RULES.md: +20). So for each `=` and each direction whose run has a left side that
no equation crosses, that side is lifted off the board for a moment and engine/
movegen_calqable.py's walks run around that one `=`, with right sides of no new tile: the
right side stays as it is, so every left side is built towards its one value. The output
is exactly the set of moves `Game.check_replace` calls legal, each once, with its score
(tests/engine/test_calqable_replace.py checks it against a brute force).

A move of one tile just before two `=` (one across, one down) is judged by
`Game.check_replace` as the replacement of the left side across (engine/replacement.py's
`equals_after`), so it is given only from there.

A replacement is never also a move of engine/movegen.py: it lays a tile on the square just
before its `=`, which holds a tile of the old left side until that side is taken away, so
a move cannot lay one there. Its callers rely on that: a chooser fed both (players.act
plays the choice with Game.replace if it is among the replacements offered) and `hint`'s
ranking (host_tools/cmd_hint.py, ties by text).
"""

from engine import faces
from engine import replacement as R
from engine.game import REPLACE
from engine.move import Move
from engine.movegen_calqable import _Calq

_EQUALS_CODE = ord(faces.EQUALS)


def replacements(game, rack=None, floor=None):
    """Yield (move, score) for every legal rule-5 replacement of the player to move holding
    `rack` (default: their known rack), each once, with `Game.check_replace`'s score;
    nothing in a game without rule 5 or over. With `floor` (a score), replacements scoring no
    more than it may be left out. They are turns of their own (`Game.replace`), not among
    engine/movegen.py's moves."""
    bonus = game.rules.replacement_bonus
    if not bonus or game.over:
        return
    board = game.board
    cells = board.cells
    w = board.width
    for at in range(len(cells)):
        if cells[at] & faces.FACE_MASK != _EQUALS_CODE:
            continue
        for step in (1, w):
            removed = R.left_side(board, at, step)
            if not len(removed) or R.crossed(board, removed, step):
                continue
            # (the moves are kept until the old side is back: a caller may look at the
            # board between two of them)
            for move, score in _around(game, rack, floor, at, step, removed, bonus):
                # a tile just before two `=` replaces the left side the judge picks
                if len(move) > 1 or R.equals_after(board, move) == (at, step):
                    yield move, score


def _around(game, rack, floor, at, step, removed, bonus):
    """The replacements of the left side `removed` of the `=` on square `at` (its run along
    `step`), as a list of (move, score)."""
    board = game.board
    w = board.width
    board.remove(removed)
    try:
        gen = _Calq(game, rack, None if floor is None else [floor - bonus])
        gen.right_new = False
        gen.least_new = 1
        if step == 1:
            first = at - at % w
            line = range(first, first + w)
            cross_step = w  # (a row: its squares' cross equations run down)
            e = at - first
        else:
            line = range(at % w, len(board.cells), w)
            cross_step = 1
            e = at // w
        out = []
        for move, score in gen.line_moves(line, cross_step, [(e, None, 0)]):
            out.append((move, score + bonus))
        return out
    finally:
        board.put(removed)


def offer(game, chooser):
    """Offer a computer player's chooser (engine/players.py) the replacements of the player
    to move (their known rack) that could change its choice, but none of a left side a
    replacement laid earlier in the game (`replaced`); returns those offered, a list of
    moves (players.act plays the chooser's choice with Game.replace if it is one)."""
    done = None
    out = []
    for move, score in replacements(game, None, chooser.floor()):
        if done is None:
            done = replaced(game)
        if R.equals_after(game.board, move) not in done:
            chooser.offer(move, score)
            out.append(move)
    return out


def replaced(game):
    """The `=` whose left side a rule-5 replacement laid earlier in the game, as
    (square, step): a computer player replaces each left side once at most. Rule 5 sets no
    limit, and two best-score players otherwise traded the same left sides back and forth,
    +89 a turn, the tiles taken away going back to the pool: in 12 seeded games of level 3
    against itself, 993 of 1,594 turns were replacements and the scores came to 5,114 and
    9,185 a game on average (once at most: 6 of 137 turns, 1,240 and 1,216; without rule 5,
    115 turns, 1,177 and 1,151). (A `=` never leaves the board: a left side holds none.)

    A replacement of one tile is read on today's board, the left side across first, as the
    judge reads a move (engine/replacement.py's equals_after). An `=` laid later just after
    that tile, across, can make this name the `=` across where the replacement was of the
    one below. That changes no offer: the tile then stands in a run across and in a run
    down, so every replacement of either left side, which would take it away, is crossed
    (replace_crossed), and neither `=` has a replacement to hold back.
    """
    out = []
    w = game.board.width
    for entry in game.entries():
        if entry[0] == REPLACE and entry[2]:
            out.append(R.equals_after(game.board, Move.from_bytes(entry[2], w)))
    return out
