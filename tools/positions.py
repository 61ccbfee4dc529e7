"""Well-known positions for tests and benchmarks; runs on MicroPython and CPython.

- RULEBOOK: the rulebook's five-move example (engine/rulebook.py), scored 48, 12, 33, 38, 19.
- DENSE: a late-game position on the default board where one seven-chip move lays six
  operators and a number across row 2, forming the main run A2-M2 and six cross runs
  (columns B, D, F, H, J, L, rows 1-5). The new operators on B2 (purple) and H2 (yellow)
  each lie on two runs, so the shared-premium assignment is searched.
- WORST_ROW2: the same move on a layout that puts a premium under all six operators.
- ROW_BOARD / ROW_MOVE: a legal move of seven operators across row 8 of a layout whose row 8
  is ROW8, a purple (calculation ×3) under every operator, each also on a cross run: the
  main run A8-O8 and seven cross runs share seven premiums (128 assignments).
- CALQABLE_DENSE_BOARD / CALQABLE_DENSE_MOVE: a late Cal-Q-Able position where a full rack
  and an `=` form a 12-tile main equation and seven cross equations (588 points);
  CALQABLE_REPLACE: a rule-5 replacement on the same board (74 points).
"""

from engine.rulebook import RULEBOOK, RULEBOOK_SCORES  # noqa: F401  (re-exported)

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


def _with_row(data, row, text):
    """The Profile of a profile's JSON data (a dict) with layout row `row` (0-based) made
    `text`."""
    from engine.profile import Profile

    data = dict(data)
    data["layout"] = data["layout"][:row] + [text] + data["layout"][row + 1 :]
    return Profile(data)


def worst_profile(data):
    """The Profile for WORST_ROW2, from the default profile's JSON data (a dict)."""
    return _with_row(data, 1, WORST_ROW2)


# Seven operators laid on row 8 between its eight numbers, each on a purple: every column
# B-N holds "n _ n op n" from row 7 to row 11, so each new operator also makes a cross run
# (1+2+3, 2×3+1, 9-2-1, 3+4×2, 5+1+6, 8-2-1, 4+6+1). The main run 9+8×7-6+5+4-3+2 is
# worth 67 against cross runs of 5 to 12, so every purple goes to it: 67 × 3**7 + 58.
ROW8 = ".p.p.p.p.p.p.p."
ROW_BOARD = {
    "A8": "9", "C8": "8", "E8": "7", "G8": "6", "I8": "5", "K8": "4", "M8": "3", "O8": "2",
    "B7": "1", "D7": "2", "F7": "9", "H7": "3", "J7": "5", "L7": "8", "N7": "4",
    "B9": "2", "D9": "3", "F9": "2", "H9": "4", "J9": "1", "L9": "2", "N9": "6",
    "B10": "+", "D10": "+", "F10": "-", "H10": "×", "J10": "+", "L10": "-", "N10": "+",
    "B11": "3", "D11": "1", "F11": "1", "H11": "2", "J11": "6", "L11": "1", "N11": "1",
}  # fmt: skip
ROW_MOVE = "B8:+ D8:× F8:- H8:+ J8:+ L8:- N8:+"


def row_profile(data):
    """The Profile for ROW8 (as row 8), from the default profile's JSON data (a dict)."""
    return _with_row(data, 7, ROW8)


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


# ----- Cal-Q-Able (default profile hardware/profiles/calqable.json) ---------------------------
#
# CALQABLE_DENSE_BOARD: a late-game board of 55 tiles on which every run is a true equation
# and the start square H8 is covered. CALQABLE_DENSE_MOVE lays a full rack (7 4 5 2 1 3 8,
# / and ×: nine rack tiles, +50) and an `=` from the supply on the squares marked * in row
# 6. The main run C6-N6 is 7452/6 = 9 × 138 through the old 6 on H6 and 9 on J6. Seven new
# tiles also lie on cross runs, each a true equation: D6-D13 45×0=6-6, F6-F13 22×0+6=6,
# G1-G7 3+6=9/1, I5-I7 3=3, K5-K11 1×7+2=9, L1-L6 0=0÷21 and N6-N14 824×0+5=5. It covers
# the green D6 and L6 (equation ×3, and each also under a cross run, so the premium counts
# in both runs) and the yellow F6 and N6 (tile ×3). It scores 588 (tests/engine/
# test_calqable_positions.py has the arithmetic).
#
#      A B C D E F G H I J K L M N O
#  1   . . . . . . 3 . . . . 0 . . .
#  2   . . . . . . + . . . . = . . .
#  3   . . . . . . 6 . . . . 0 . . .
#  4   . . . . . 2 = 2 . 9 . ÷ . . .
#  5   . . . . . . 9 + 3 = 1 2 . . .
#  6   . . * * * * * 6 * 9 * * * * .
#  7   . . . 5 . 2 1 = 3 × 7 . . 2 .
#  8   . . . × . × . 8 . 1 + 3 = 4 .
#  9   . . . 0 . 0 . . . . 2 . . × .
# 10   . . . = . + . . . . = . . 0 .
# 11   . . . 6 = 6 . . . . 9 . . + .
# 12   . . . - . = . . . . . . . 5 .
# 13   . . . 6 . 6 . . . . . . . = .
# 14   . . . . . . . . . . . . . 5 .
CALQABLE_DENSE_BOARD = {
    "G1": "3", "G2": "+", "G3": "6", "G4": "=", "G5": "9", "G7": "1",
    "F4": "2", "H4": "2",
    "H5": "+", "H6": "6", "H7": "=", "H8": "8",
    "I5": "3", "I7": "3",
    "J4": "9", "J5": "=", "J6": "9", "J7": "×", "J8": "1",
    "K5": "1", "L5": "2",
    "L1": "0", "L2": "=", "L3": "0", "L4": "÷",
    "F7": "2",
    "K7": "7", "K8": "+", "K9": "2", "K10": "=", "K11": "9",
    "L8": "3", "M8": "=",
    "N7": "2", "N8": "4", "N9": "×", "N10": "0", "N11": "+", "N12": "5", "N13": "=",
    "N14": "5",
    "F8": "×", "F9": "0", "F10": "+", "F11": "6", "F12": "=", "F13": "6",
    "D7": "5", "D8": "×", "D9": "0", "D10": "=", "D11": "6", "D12": "-", "D13": "6",
    "E11": "=",
}  # fmt: skip
CALQABLE_DENSE_MOVE = "C6:7 D6:4 E6:5 F6:2 G6:/ I6:= K6:× L6:1 M6:3 N6:8"

# A rule-5 replacement on the same board: the tiles 5 × 0 before the `=` on D10 (no run
# crosses them) are taken away and 8 - 2 × 4 is laid on D5-D9, so column D reads
# 8-2×4=6-6, the same answer (0). The `-` lies on the green D6. Scores 74 with the +20.
CALQABLE_REPLACE = (CALQABLE_DENSE_BOARD, "D5:8 D6:- D7:2 D8:× D9:4")


def calqable_dense_game(game):
    """Lay CALQABLE_DENSE_BOARD straight onto a fresh referee-mode Cal-Q-Able game."""
    return lay_out(game, CALQABLE_DENSE_BOARD)
