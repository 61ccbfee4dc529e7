"""Well-known positions for tests and benchmarks; runs on MicroPython and CPython.

- RULEBOOK: the rulebook's five-move example (RULES.md), which scores 48, 12, 33, 38, 19.
- DENSE: a late-game position on the default board where one seven-chip move lays six
  operators and a number across row 2, forming the main run A2-M2 and six cross runs
  (columns B, D, F, H, J, L, rows 1-5). The new operators on B2 (purple) and H2 (yellow)
  each lie on two runs, so the shared-premium assignment is searched.
- WORST_ROW2: the same move on a layout that puts a premium under all six operators.
"""

RULEBOOK = (
    "D8:9 E8:+ F8:6 G8:÷ H8:2",
    "H6:4 H7:- H9:+ H10:3",
    "F6:3 G6:× I6:- J6:1",
    "D10:6 E10:+ F10:4 G10:- I10:+ J10:5",
    "J7:× J8:7 J9:+",
)
RULEBOOK_SCORES = (48, 12, 33, 38, 19)

# Chips already on the board. Row 2 numbers on odd columns; rows 1, 3 and 5 numbers and
# row 4 operators on even columns, so each even column holds "n _ n op n" around row 2.
DENSE_BOARD = {
    "A2": "9", "C2": "8", "E2": "7", "G2": "6", "I2": "5", "K2": "4",
    "B1": "1", "D1": "2", "F1": "9", "H1": "3", "J1": "5", "L1": "8",
    "B3": "2", "D3": "3", "F3": "2", "H3": "4", "J3": "1", "L3": "2",
    "B4": "+", "D4": "+", "F4": "-", "H4": "×", "J4": "+", "L4": "-",
    "B5": "3", "D5": "1", "F5": "1", "H5": "2", "J5": "6", "L5": "1",
}  # fmt: skip
DENSE_MOVE = "B2:+ D2:× F2:- H2:+ J2:+ L2:- M2:3"

# The worst case for the premium search: a maker's layout with a run premium under every
# one of DENSE_MOVE's six operators, each shared by the main run and a cross run (64
# assignments). Row 2 of the default layout is replaced by this one.
WORST_ROW2 = ".p.y.p.y.p.y..."


def worst_profile(data):
    """The Profile for WORST_ROW2, from the default profile's JSON data (a dict)."""
    from engine.profile import Profile

    data = dict(data)
    data["layout"] = [data["layout"][0], WORST_ROW2] + data["layout"][2:]
    return Profile(data)


def lay_out(game, layout):
    """Put chips straight onto a game's board, {"H8": "2", "I8": "?+"}, as if played earlier
    (no turn is logged); the chips are taken from the unseen counts. Returns the game."""
    from engine import faces, squares
    from engine.game import chip_key

    p = game.profile
    for name, text in layout.items():
        ch, joker = faces.parse(text)
        code = faces.cell_code(ch, joker)
        game.board.cells[squares.parse(name, p.width, p.height)] = code
        game.unseen[chip_key(code)] -= 1
    return game


def dense_game(game):
    """Lay DENSE_BOARD straight onto a fresh referee-mode game and return it."""
    return lay_out(game, DENSE_BOARD)
