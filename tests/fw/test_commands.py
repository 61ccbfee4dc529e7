"""Commands from the PC over USB, the service modes and the game archive, on the whole
simulated board (runs on CPython and on MicroPython)."""

import json

from firmware import archive, journal
from firmware.archive import Archive
from firmware.leds import RAIL_RISE_MS
from firmware.sim.memfs import MemFS
from firmware.sim.simboard import SimBoard
from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK, default_profile
from tests.fw.board import cmd, events, lay, new_board, send, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.commands", "firmware.service")


def test_hello_and_what_is_not_a_command():
    board = new_board()
    r = cmd(board, "hello", 7)
    eq(
        (r["id"], r["ok"], r["game"], r["sensor"], r["mode"]),
        (7, True, "calculissimo", "nfc", "play"),
    )
    eq(send(board, "hello there")["error"], "not a JSON command")
    eq(send(board, "[1, 2]")["id"], None)
    eq(cmd(board, "format")["error"], "unknown command format")
    eq(cmd(board, "get")["ok"], False)  # no path: an error reply, not a crash
    long_line = '{"cmd": "hello", "pad": "' + "x" * 1200 + '"}'
    eq(send(board, long_line)["error"], "line longer than 1024 bytes")
    eq(cmd(board, "hello", 8)["ok"], True)  # and the board still listens


def test_settings_are_checked_by_the_board_before_they_are_written():
    board = new_board()
    fs = board.fs
    r = cmd(board, "put", path="settings.json", text='{"players": 9, "colour": 1}')
    eq(r["ok"], False)
    eq(r["error"], "unknown setting colour ignored; players must be 1 to 4")
    eq(fs.read("settings.json"), None)
    eq(cmd(board, "put", path="settings.json", text="{not json")["ok"], False)
    text = json.dumps({"players": 3, "names": ["Ana", "Rui", "Eva"], "language": "fr"})
    r = cmd(board, "put", path="settings.json", text=text)
    eq((r["ok"], r["restart"]), (True, True))
    eq(fs.read("settings.json"), text.encode())
    eq(fs.exists("settings.json.new"), False)
    eq(json.loads(cmd(board, "get", path="settings.json")["text"])["players"], 3)


def upload(board, path, text, size=400, stop=None):
    """Send `text` in parts as the PC does; the last reply (or the one before part `stop`)."""
    r = None
    for k in range(0, len(text), size):
        if stop is not None and k // size == stop:
            return r
        more = k + size < len(text)
        r = cmd(board, "put", path=path, text=text[k : k + size], offset=k, more=more)
        eq(r["ok"], True, r.get("error", ""))
    return r


def test_a_long_file_comes_in_parts_and_a_cut_upload_can_start_again():
    board = new_board()
    text = json.dumps({"chips": {"04%06x" % k: "7" for k in range(200)}})
    upload(board, "chips.json", text, stop=3)  # the cable came out after three parts
    eq(board.fs.read("chips.json"), None)
    eq(upload(board, "chips.json", text)["restart"], False)  # sent again from the start
    eq(board.fs.read("chips.json"), text.encode())
    eq(len(board.app.sensing.registry), 200)  # and in use at once
    r = cmd(board, "put", path="chips.json", text='{"chips": {"zz": "7"}}')
    eq(r["ok"], False)
    r = cmd(board, "put", path="chips.json", text="{", offset=5, more=True)
    eq(r["error"], "chips.json: part at 5 out of order; send the file again from its start")
    r = cmd(board, "put", path="chips.json", text='{"chips": {}}', more="false")
    eq(r.get("more"), None)  # only true means more: this was the whole file
    eq(board.fs.read("chips.json"), b'{"chips": {}}')


def test_only_the_boards_data_files_can_be_read_or_written():
    board = new_board()
    board.fs.write("main.py", b"print(1)")
    for path in ("main.py", "../settings.json", "/game.dat", "games/../main.py", "pins"):
        eq(cmd(board, "get", path=path)["error"], "%s: no such file" % path)
    eq(
        cmd(board, "put", path="game.dat", text="x")["error"],
        "game.dat cannot be written from the PC",
    )
    bad_pins = cmd(board, "put", path="pins/mine.json", text='{"presence": {}}')
    eq(bad_pins["ok"], False)


def test_state_and_journal_give_the_game_as_the_board_holds_it():
    from engine.snapshot import decode

    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    lay(board, "H6:4")
    state = cmd(board, "state")
    eq((state["mode"], state["pending"]), ("play", "H6:4"))
    game = decode(default_profile(), bytes.fromhex(state["snapshot"]))
    eq(game.totals(), [48, 0])
    saved = cmd(board, "get", path="game.dat")["hex"]
    payload, problem = journal.verify(bytes.fromhex(saved))
    eq(problem, None)
    eq(decode(default_profile(), payload).totals(), [48, 0])
    names = [f[0] for f in cmd(board, "ls")["files"]]
    eq("game.dat" in names, True)


def test_enrolment_maps_each_new_tag_to_the_face_the_pc_names():
    fs = MemFS()
    board = SimBoard(default_profile(), {"players": 2, "turn_seconds": 0}, fs=fs, enrolled=False)
    board.boot()
    board.run(50)
    eq(cmd(board, "enrol", face="A")["error"], "unknown chip face 'A'")
    r = cmd(board, "enrol", face="9")
    eq((r["ok"], r["service"], r["face"]), (True, "enrol", "9"))
    eq(board.screen()[2], "Lay a 9")
    board.place(sq("A1"), "9")
    got = events(board, "enrolled")
    eq(len(got), 1)
    uid = got[0]["uid"]
    eq((got[0]["square"], got[0]["face"], got[0]["was"]), ("A1", "9", None))
    eq(json.loads(fs.read("chips.json"))["chips"], {uid: "9"})
    board.place(sq("B1"), "9")  # no face armed: only reported
    eq(events(board, "tag")[0]["face"], None)
    eq(len(events(board, "enrolled")), 1)
    cmd(board, "enrol", face="7")
    board.lift(sq("A1"))
    board.place(sq("A1"), "9")  # the same chip back: re-enrolled, and said what it was
    eq(events(board, "enrolled")[1]["was"], "9")
    eq(cmd(board, "enrol", stop=True)["service"], None)
    # the game sees the chips laid meanwhile: two chips pending, one known, one unknown
    ref = board.app.referee
    eq(sorted(ref.unknown), [sq("B1")])
    eq(board.app.sensing.placed[sq("A1")], "7")


def test_sensor_test_lights_what_it_senses_and_the_game_then_sees_the_chips():
    board = new_board({"players": 2})
    board.run(RAIL_RISE_MS)  # the LED rail, switched on at the end of boot, has risen
    eq(cmd(board, "diag", on=True)["service"], "diag")
    board.chain.set(sq("C3"), True)  # a magnet alone: white at once, before any read
    board.run(60)
    eq(board.led(sq("C3")) != (0, 0, 0), True)
    board.run(400)
    board.place(sq("H8"), "5")
    kinds = [(e["square"], e["kind"], e["face"]) for e in events(board, "sensor")]
    eq(kinds, [("C3", "no_tag", None), ("H8", "placed", "5")])
    eq(board.screen()[0], "Sensor test")
    eq(board.app.leds.colour_of(sq("H8")), board.app.leds.colours[2])  # GREEN
    board.press("back")  # BACK on the board ends the test
    eq(board.app.service, None)
    from engine import faces

    eq(board.app.referee.game.pending, [(sq("H8"), faces.cell_code(*faces.parse("5")))])
    eq(sorted(board.app.referee.unknown), [sq("C3")])


def test_restart_is_answered_then_the_loop_stops():
    board = new_board()
    app = board.app
    eq(cmd(board, "restart")["ok"], True)
    eq((app.running, app.restart), (False, True))
    eq((board.restarts, len(events(board, "boot"))), (1, 2))  # the board started again


def test_a_finished_game_is_archived_with_its_racks():
    board = new_board({"players": 2})
    lay(board, RULEBOOK[0])
    board.press("ok")
    for _ in range(2):  # a round of passes ends the game
        board.press("ok")
        board.press("ok")
    for _ in range(14):  # every leftover chip entered as the first face offered
        board.press("ok")
    board.press("ok")
    eq(board.app.referee.mode, "over")
    eq(events(board, "archived")[0]["path"], "games/001.dat")
    snap, about = Archive(board.fs).read("games/001.dat")
    eq((about["game"], len(about["racks"]), len(about["racks"][0])), ("calculissimo", 2, 7))
    from engine.snapshot import decode

    game = decode(default_profile(), snap)
    eq(game.totals(), events(board, "game_over")[0]["totals"])


def test_the_archive_keeps_the_newest_games_and_renumbers_past_999():
    fs = MemFS()
    arch = Archive(fs, keep=3)
    for k in range(5):
        arch.add(b"snap%d" % k, {"racks": [], "game": "calculissimo"})
    eq(arch.names(), ["games/003.dat", "games/004.dat", "games/005.dat"])
    eq(arch.read("games/005.dat")[0], b"snap4")
    fs.rename("games/005.dat", "games/999.dat")
    eq(arch.add(b"next", {"racks": []}), "games/004.dat")
    eq(arch.names(), ["games/002.dat", "games/003.dat", "games/004.dat"])
    eq(arch.read("games/003.dat")[0], b"snap4")
    fs.write("games/002.dat", b"CQJ1 damaged")
    try:
        arch.read("games/002.dat")
        raise AssertionError("a damaged game was read")
    except ValueError as err:
        eq(str(err), "games/002.dat: journal too short")
    eq(archive.decode(archive.encode(b"abc", {"racks": [["7"]]})), (b"abc", {"racks": [["7"]]}))


def test_enrol_refuses_a_bad_face_and_a_board_without_a_reader():
    board = new_board()
    eq(cmd(board, "enrol", face=["7"])["ok"], False)
    eq(board.app.service, None)  # nothing started
    hall = new_board(nfc=False)
    r = cmd(hall, "enrol", face="7")
    eq(r["error"], "this board has no NFC reader: a Hall-only board asks each chip's face")
    eq(hall.app.service, None)


def test_a_restored_registry_is_kept_by_the_next_enrolment():
    fs = MemFS()
    board = SimBoard(default_profile(), {"players": 2, "turn_seconds": 0}, fs=fs, enrolled=False)
    board.boot()
    board.run(50)
    restored = {"04aa0001": "5", "04aa0002": "+"}
    cmd(board, "put", path="chips.json", text=json.dumps({"chips": restored}))
    cmd(board, "enrol", face="9")
    board.place(sq("A1"), "9")
    chips = json.loads(fs.read("chips.json"))["chips"]
    eq(len(chips), 3)
    eq(chips["04aa0001"], "5")


def test_a_registry_the_board_could_not_read_is_kept_aside_not_overwritten():
    fs = MemFS()
    fs.write("chips.json", b'{"chips": {"04aa0001": "5", "zz": "7"}}')
    board = SimBoard(default_profile(), {"players": 2, "turn_seconds": 0}, fs=fs, enrolled=False)
    board.boot()
    board.run(50)
    cmd(board, "enrol", face="9")
    board.place(sq("A1"), "9")
    eq(fs.read("chips.bad"), b'{"chips": {"04aa0001": "5", "zz": "7"}}')
    eq(list(json.loads(fs.read("chips.json"))["chips"].values()), ["9"])


def test_the_turn_clock_stands_still_during_a_service_mode():
    board = new_board({"players": 2, "turn_seconds": 60})
    board.run(10000)
    eq(board.app.referee.seconds_left(), 50)
    cmd(board, "diag", on=True)
    board.run(30000)
    cmd(board, "diag", on=False)
    eq(board.app.referee.seconds_left(), 50)
    eq(board.app.referee.game.turns, 0)  # no time-up meanwhile


def test_the_service_modes_speak_the_boards_language():
    board = new_board({"language": "fr"})
    cmd(board, "enrol", face="9")
    eq(
        board.screen()[:5],
        ["Enregistrer jetons", "", "Posez un 9", "Enregistrés : 0", "RETOUR : arrêter"],
    )
    board = None  # one board at a time, as on a Pico (whose heap holds one)
    board = new_board({"language": "pt"})
    cmd(board, "diag", on=True)
    eq(board.screen()[:3], ["Teste dos sensores", "", "Ímanes: 0"])
