"""The rulebook's worked example (RULES.md): five moves on the default Calculissimo board.

Host-side data, not flashed to the board (tests/test_manifest.py HOST_ONLY): the simulator's
demo (`sim --text --demo`) plays it, and the tests and benchmarks check its scores. Each move
is in `Move`'s text form, chip by chip ("D8:9 E8:+").
"""

RULEBOOK = (
    "D8:9 E8:+ F8:6 G8:÷ H8:2",
    "H6:4 H7:- H9:+ H10:3",
    "F6:3 G6:× I6:- J6:1",
    "D10:6 E10:+ F10:4 G10:- I10:+ J10:5",
    "J7:× J8:7 J9:+",
)
RULEBOOK_SCORES = (48, 12, 33, 38, 19)
