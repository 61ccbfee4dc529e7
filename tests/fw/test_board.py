"""The whole firmware on simulated hardware: sensor events and buttons in, scores, LED frames
and display text out (runs on CPython and on MicroPython)."""

from firmware import leds as L
from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK, RULEBOOK_SCORES
from tests.fw.board import events, lay, new_board, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.i18n_fr",)

GREEN = (0, 255, 0)


def _lit(colour):
    return colour != (0, 0, 0)


def test_rulebook_game_through_sensors_and_buttons():
    board = new_board()
    for k in range(5):
        lay(board, RULEBOOK[k])
        board.press("ok")
        moves = events(board, "move")
        eq(len(moves), k + 1)
        eq(moves[-1]["score"], RULEBOOK_SCORES[k])
    eq(board.app.referee.game.totals(), [48 + 19, 12, 33, 38])  # 4 players: P1 moves twice


def test_scores_and_turn_on_the_display():
    board = new_board({"names": ["Ana", "Bob", "Cy", "Di"]})
    lay(board, RULEBOOK[0])
    text = board.screen()
    eq("Move 48 pts" in text[3], True)
    board.press("ok")
    text = board.screen()
    eq(text[0].startswith("Bob to play"), True)
    eq(text[1], " Ana    48  Bob     0")  # line 0 says whose turn
    eq("Ana +48" in text[5], True)


def test_pending_chips_green_when_legal_red_when_not():
    board = new_board()
    board.place(sq("D8"), "9")
    board.place(sq("E8"), "+")
    board.place(sq("F8"), "6")
    # The run D8-F8 misses the start square H8: illegal; not a run reason, so no chip is red.
    eq(board.app.referee.verdict.legal, False)
    amber = board.app.leds.colours[L.AMBER]
    eq([board.app.leds.colour_of(sq(n)) for n in ("D8", "E8", "F8")], [amber] * 3)
    scale = board.app.leds.scale
    eq(board.led(sq("D8")), (255 * scale >> 8, 150 * scale >> 8, 0))
    board.place(sq("G8"), "÷")
    board.place(sq("H8"), "2")
    eq(board.app.referee.verdict.legal, True)
    scale = board.app.leds.scale
    want = (0, 255 * scale >> 8, 0)
    for name in ("D8", "E8", "F8", "G8", "H8"):
        eq(board.led(sq(name)), want)

    board.press("ok")
    board.place(sq("I8"), "+")  # 9+6÷2+ : the run D8-I8 is malformed
    eq(board.app.referee.verdict.codes(), ["malformed"])
    eq(board.app.leds.colour_of(sq("I8")), board.app.leds.colours[L.RED])


def test_premium_squares_glow_when_empty():
    board = new_board()
    board.run(L.RAIL_RISE_MS)  # the LED rail, switched on at the end of boot, has risen
    eq(_lit(board.led(sq("D8"))), True)  # green premium
    eq(_lit(board.led(sq("A1"))), True)  # a corner: the player to move's colour
    eq(board.led(sq("C3")), (0, 0, 0))  # plain square


def test_slid_chip_counts_only_where_it_stops():
    board = new_board()
    path = [sq(n) for n in ("A8", "B8", "C8", "D8")]
    board.slide(path, "9", ms_per_square=150)
    placed = events(board, "placed")
    eq([p["square"] for p in placed], ["D8"])
    eq(board.app.referee.game.pending, [(sq("D8"), ord("9"))])


def test_flickering_sensor_is_ignored():
    board = new_board()
    flicker = {sq("C3"): 0}

    def noise(square):
        if square in flicker:
            flicker[square] += 1
            return flicker[square] % 2 == 1  # every other scan reads a magnet
        return False

    board.chain.noise = noise
    board.run(2000)
    eq(events(board, "placed"), [])
    board.chain.noise = None


def test_unknown_tag_is_reported_and_blocks_confirm():
    board = new_board()
    board.put(sq("H8"), uid=b"\xde\xad\xbe\xef")
    board.run(400)
    eq(events(board, "unknown_chip")[0]["uid"], "deadbeef")
    eq("Unknown chip H8" in " ".join(board.screen()), True)
    board.press("ok")
    eq(events(board, "move"), [])
    board.lift(sq("H8"))
    eq(board.app.referee.unknown, {})


def test_reader_failure_is_a_message_and_recovers():
    board = new_board()
    board.nfc.powered = False
    board.place(sq("H8"), "2")
    eq(len(events(board, "reader_down")), 1)
    eq("NFC reader silent" in " ".join(board.screen()), True)
    board.nfc.powered = True
    board.run(700)
    eq(board.app.referee.game.pending, [(sq("H8"), ord("2"))])
    eq(board.app.referee.unknown, {})


def test_lifted_committed_chip_must_be_put_back():
    board = new_board()
    lay(board, RULEBOOK[0])
    board.press("ok")
    board.lift(sq("F8"))
    eq(events(board, "missing")[0]["square"], "F8")
    eq("Put back F8" in " ".join(board.screen()), True)
    lay(board, "H6:4 H7:- H9:+ H10:3")
    board.press("ok")
    eq(len(events(board, "move")), 1)  # refused while F8 is missing
    board.place(sq("F8"), "7")  # the wrong chip
    eq(events(board, "wrong_chip")[0]["want"], "6")
    board.lift(sq("F8"))
    board.place(sq("F8"), "6")
    eq(events(board, "restored")[0]["square"], "F8")
    board.press("ok")
    eq(events(board, "move")[-1]["score"], 12)


def test_joker_value_chosen_on_the_display():
    board = new_board()
    lay(board, "E8:+ F8:6 G8:÷ H8:2")
    board.place(sq("D8"), "?")
    eq(board.app.referee.mode, "pick")
    eq("Joker D8 = 0 ?" in " ".join(board.screen()), True)
    for _ in range(4):
        board.press("left")  # 0, ÷, -, +, 9
    eq("Joker D8 = 9 ?" in " ".join(board.screen()), True)
    board.press("ok")
    board.press("ok")
    move = events(board, "move")[0]
    eq(move["move"], "D8:?9 E8:+ F8:6 G8:÷ H8:2")
    eq(move["score"], 30)  # (9 + 12 ÷ 2) x 2: the joker on green is not doubled (rule 13)


def test_pass_and_swap_from_the_menu():
    board = new_board()
    board.press("ok")  # nothing laid: the menu, on "Pass"
    board.press("ok")
    eq(events(board, "pass")[0]["player"], 1)
    board.press("back")  # the menu again
    board.press("right")  # "Swap"
    board.press("ok")
    board.press("right")
    board.press("right")  # 3 chips
    board.press("ok")
    eq(events(board, "swap")[0]["count"], 3)
    eq(board.app.referee.game.to_move, 2)


def test_bonus_turn_after_seven_chips():
    board = new_board({"players": 2})
    lay(board, "B8:9 C8:+ D8:6 E8:- F8:1 G8:× H8:2")
    board.press("ok")
    eq(events(board, "bonus_turn")[0]["player"], 1)
    eq(board.app.referee.game.to_move, 0)


def test_strict_illegal_move_loses_the_turn_until_chips_are_taken_back():
    board = new_board({"strict": True})
    lay(board, "D8:9 E8:+ F8:6")
    board.press("ok")
    eq(events(board, "illegal")[0]["codes"], ["first_move_off_start"])
    eq(board.app.referee.mode, "take_back")
    for name in ("D8", "E8", "F8"):
        board.lift(sq(name))
    eq(board.app.referee.mode, "play")
    eq(board.app.referee.game.to_move, 1)


def test_turn_clock_runs_out():
    board = new_board({"turn_seconds": 5})
    eq(board.screen()[0].endswith("0:05"), True)
    board.run(5100)
    eq(events(board, "timeout")[0]["player"], 1)
    eq(board.app.referee.game.to_move, 1)


def test_settings_problem_is_reported_and_defaults_kept():
    board = new_board({"language": "de", "players": 4})
    eq(board.app.settings["language"], "en")
    eq(len(events(board, "settings_problem")), 1)


def test_french_display():
    board = new_board({"language": "fr", "names": ["Léa", "Paul"], "players": 2})
    lay(board, RULEBOOK[0])
    eq("Coup 48 pts" in board.screen()[3], True)
    board.press("ok")
    eq("Léa +48" in " ".join(board.screen()), True)


def test_hall_only_board_asks_each_face():
    board = new_board(nfc=False)
    board.place(sq("H8"))
    eq(board.app.referee.mode, "pick")
    eq("Chip H8 = 0 ?" in " ".join(board.screen()), True)
    board.press("right")
    board.press("right")
    board.press("ok")
    eq(board.app.referee.game.pending, [(sq("H8"), ord("2"))])
