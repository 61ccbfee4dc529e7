"""Cal-Q-Able rule 5, generated: every legal replacement for a rack, with its score.

    from engine import calqable_replace
    for move, score in calqable_replace.replacements(game):   # the mover's known rack
        game.replace(move)                                     # (one of them)

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
"""

from engine import faces
from engine import replacement as R
from engine.movegen_calqable import _Calq

_EQUALS_CODE = ord(faces.EQUALS)


def replacements(game, rack=None, floor=None):
    """Yield (move, score) for every legal rule-5 replacement of the player to move holding
    `rack` (default: their known rack), each once; nothing in a game without rule 5. With
    `floor` (a score), replacements scoring no more than it may be left out."""
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
