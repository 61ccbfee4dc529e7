"""Cal-Q-Able rule 5: take away every tile before an equation's `=` and lay new ones there.

"A player may remove from the board all the tiles in front of an equals sign and replace
with other tiles from his rack but the answer to the equation so altered must be the same."
The move given is the new tiles. They lie in one line and end on the square just before an
`=` already on the board, read left to right or top to bottom. That fixes the equation: the
run through that `=` along the move's line. Its tiles before the `=` are the ones taken
away, and the move may be shorter or longer than them.

A tile taken away must not also belong to an equation across it, because that equation
would be broken (rule 6: no tile moves except as rule 5 allows). The rest is the ordinary
judgement of a move on the board without the old left side: one line, no gap, every run
through a new tile a true equation. The right side is untouched, so a true equation has
the same answer. The game adds the bonus (RULES.md: +20).
"""

from engine import faces
from engine import verdict as V
from engine.move import Move

NOT_IN_GAME = "replace_not_in_game"  # the game has no rule 5 (Calculissimo)
NOT_BEFORE_EQUALS = "replace_not_before_equals"
CROSSED = "replace_crossed"


def equals_after(board, move):
    """(the `=` square, step) that the move's last tile stands just before, or None."""
    if not len(move):
        return None
    w = board.width
    squares = [i for i, _ in move.placements]
    for i in squares:
        if not 0 <= i < len(board.cells):
            return None  # off the board: no equation to replace
    first, last = squares[0], squares[-1]
    steps = []
    if first // w == last // w:
        steps.append(1)
    if first % w == last % w:
        steps.append(w)
    for step in steps:
        e = last + step
        if step == 1 and e % w == 0:
            continue  # past the row's end
        if e < len(board.cells) and board.cells[e] & faces.FACE_MASK == ord(faces.EQUALS):
            return e, step
    return None


def left_side(board, equals, step):
    """The tiles before `equals` in its run along `step`, as a Move (nearest last)."""
    w = board.width
    cells = board.cells
    out = []
    i = equals - step
    while i >= 0 and cells[i] and (step != 1 or i % w != w - 1 or i == equals - 1):
        if step == 1 and i // w != equals // w:
            break
        out.append((i, cells[i]))
        i -= step
    return Move(out, w)


def crossed(board, removed, step):
    """Reasons for taken-away tiles that also belong to a run across the equation."""
    other = board.width if step == 1 else 1
    reasons = []
    for i, _ in removed.placements:
        run = board.run_through(i, other)
        if run is not None:
            reasons.append(V.Reason(CROSSED, run=run.name, where=run.indices()))
    return reasons
