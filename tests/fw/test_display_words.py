"""What the display says, read back from the display twin's glass (issue 11, "The first
hour"): plurals in every language, names in letters the font has no glyph of, and the end
tally saying what OK enters. Runs on CPython and on MicroPython."""

from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK
from tests.fw.board import lay, new_board, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.i18n_fr", "firmware.i18n_pt", "firmware.tally")


def _swap_one(settings):
    board = new_board(settings)
    board.press("back")  # nothing laid: the menu
    board.press("right")  # on "Swap"
    board.press("ok")  # how many: one
    return board.screen()[5]


def test_one_chip_to_swap_is_singular_in_every_language():
    eq(_swap_one({"players": 2}), "Swap 1 chip")
    eq(_swap_one({"players": 2, "language": "fr"}), "Échanger 1 jeton")
    eq(_swap_one({"players": 2, "language": "pt"}), "Trocar 1 peça")


def _tally(settings):
    """A 2-player board in the end tally: the rulebook's first move, then a round of passes."""
    board = new_board(settings)
    lay(board, RULEBOOK[0])
    board.press("ok")
    for _ in range(2):
        board.press("ok")  # the menu, on "Pass"
        board.press("ok")
    eq(board.app.referee.mode, "tally")
    return board


def test_one_chip_left_is_singular_in_every_language():
    for lang, six, one in (
        ("en", "P1: 6 chips left", "P1: 1 chip left"),
        ("fr", "P1 : 6 jetons", "P1 : 1 jeton"),
        ("pt", "P1: 6 peças", "P1: 1 peça"),
    ):
        board = _tally({"players": 2, "language": lang})
        board.press("ok")
        eq(board.screen()[5], six)
        for _ in range(5):
            board.press("ok")
        eq(board.screen()[5], one)
        board = None  # one board at a time: a Pico's heap holds one (tests/test_pico.py)


def test_the_tally_shows_what_ok_enters_and_who_counts():
    board = _tally({"players": 2, "names": ["Ana", "Rui"]})
    text = board.screen()
    eq(text[1], ">Ana    48  Rui     0")  # the one counting, not the one who would play
    eq(text[3], "OK enters 0")
    eq(text[5], "Ana: 7 chips left")
    board.press("right")
    eq(board.screen()[3], "OK enters 1")
    eq(board.screen()[5], "Ana: 7 chips left")  # not "Chip Ana = 1 ?"
    board.press("ok")
    eq(board.screen()[5], "Ana: 6 chips left")
    board.place(sq("A1"), "7")  # laid on the board: counted too
    eq(board.screen()[5], "Ana: 5 chips left")
    board = None  # one board at a time
    fr = _tally({"players": 2, "language": "fr"})
    eq(fr.screen()[3], "OK saisit 0")


def test_names_in_letters_the_font_lacks_still_show():
    board = new_board({"players": 4, "names": ["Ñuño", "Çã", "Łucja", "Søren"]})
    text = board.screen()
    eq(text[0], "Ñuño to play")
    eq(text[1], " Ñuño    0  Çã      0")
    eq(text[2], " Lucja   0  Soren   0")  # drawn as their base letters
    eq("\ufffd" in " ".join(text), False)  # no box anywhere
