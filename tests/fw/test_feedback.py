"""What the board shows: LED colours, the current cap, the display in each language, and
odd sensor readings (runs on CPython and on MicroPython)."""

from firmware import leds as L
from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK
from tests.fw.board import events, lay, new_board, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.i18n_pt",)


def _estimate_ma(board):
    """The current model of hardware/README.md applied to what the LED chain really got."""
    total = 0
    n = board.profile.width * board.profile.height
    for i in range(n):
        r, g, b = board.strip.colour(i)
        total += r + g + b
    return (n * L.LED_IDLE_UA + total * L.CHANNEL_FULL_UA // 255) // 1000


def test_rulebook_moves_leave_the_last_move_marked_and_the_display_right():
    board = new_board({"names": ["Ana", "Bob", "Cy", "Di"]})
    white = board.app.leds.colours[L.WHITE]
    for k in range(3):
        lay(board, RULEBOOK[k])
        laid = [sq(p.split(":")[0]) for p in RULEBOOK[k].split()]
        for s in laid:
            eq(board.app.leds.colour_of(s), board.app.leds.colours[L.GREEN])
        board.press("ok")
        for s in laid:
            eq(board.app.leds.colour_of(s), white)
            eq(board.led(s) != (0, 0, 0), True)
    text = board.screen()
    eq(text[0], "Di to play")  # said once: no score line is marked too
    eq(text[1], " Ana    48  Bob    12")
    eq(text[2], " Cy     33  Di      0")
    eq(text[3], "Bag 59")  # 100 - 4 x 7 - 13 laid
    eq(text[5], "Cy +33")


def test_current_cap_holds_the_budget_on_usb():
    board = new_board({"brightness": 100, "current_ma": 500})
    lay(board, "D8:9 E8:+ F8:6 G8:÷ H8:2")  # five full-green chips, premiums glowing
    leds = board.app.leds
    budget_ma = 500 - L.BOARD_MA_NFC
    eq(leds.scale < 256, True)  # full brightness would not fit
    eq(_estimate_ma(board) <= budget_ma, True)
    eq(leds.milliamps <= budget_ma, True)


def test_more_current_allows_more_light():
    low = new_board({"brightness": 100, "current_ma": 500})
    high = new_board({"brightness": 100, "current_ma": 3600})
    for board in (low, high):
        lay(board, "D8:9 E8:+ F8:6 G8:÷ H8:2")
    eq(high.led(sq("D8")), (0, 255, 0))  # no cap needed on a 4 A supply
    eq(low.led(sq("D8"))[1] < 255, True)


def test_brightness_setting_scales_the_leds():
    dim = new_board({"brightness": 10, "current_ma": 3600})
    lay(dim, "D8:9 E8:+ F8:6 G8:÷ H8:2")
    eq(dim.app.leds.scale, 10 * 256 // 100)
    eq(dim.led(sq("D8")), (0, 255 * 25 >> 8, 0))


def test_portuguese_display():
    board = new_board({"language": "pt", "players": 2, "names": ["João", "Inês"]})
    lay(board, RULEBOOK[0])
    eq(board.screen()[3], "Saco 86 Jogada 48 pts")
    board.press("ok")
    eq(board.screen()[0], "Vez de Inês")
    eq(board.screen()[5], "João +48")


def test_tag_without_magnet_keeps_the_chip():
    board = new_board()
    board.place(sq("H8"), "2")
    board.chain.set(sq("H8"), False)  # the magnet reads gone, the tag still answers
    board.run(200)
    eq(events(board, "tag_only")[0]["square"], "H8")
    eq(board.app.referee.game.pending, [(sq("H8"), ord("2"))])
    eq("H8: no magnet?" in " ".join(board.screen()), True)


def test_magnet_without_tag_blocks_until_lifted():
    board = new_board()
    board.chain.set(sq("H8"), True)  # a magnet (or a chip with a dead tag), nothing to read
    board.run(400)
    eq(events(board, "no_tag")[0]["square"], "H8")
    board.press("ok")
    eq(board.app.referee.mode, "play")
    eq(events(board, "move"), [])
    board.chain.set(sq("H8"), False)
    board.run(100)
    eq(board.app.referee.unknown, {})


def test_missing_chip_blinks():
    board = new_board()
    lay(board, RULEBOOK[0])
    board.press("ok")
    board.lift(sq("D8"))
    seen = set()
    for _ in range(6):
        board.run(130)
        seen.add(board.app.leds.colour_of(sq("D8")))
    eq(sorted(seen), [(0, 0, 0), (255, 0, 0)])
