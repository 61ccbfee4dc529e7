"""The board plays a seat and gives hints (issue 13), on the simulated board through sensor
events and buttons: whole games against it at every level, its moves legal and scored as
the engine scores them, a power cut at every write of its turn, hints counted per player
(CPython and MicroPython).

The chips on the table come from a world model: a known-rack game (engine/game.py, seeded)
holding the bag and both racks, kept in step with the board's own game (which, as a
referee, knows only how many chips each player holds). The person's moves are the world's
best moves; the board's rack is the world's rack for its seat.
"""

from engine import faces, movegen, squares
from engine.game import Game
from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK, default_profile
from tests.fw.board import after_power_cut, chips_of, events, lay, message, new_board, sq
from tests.fw.test_faults_end import CutFS, PowerCut
from tools.playprobe import Table

W = 15
MPY_FUEL = 400_000_000_000  # four whole games with the board thinking: about 23 s of WASI


def _empties(board, n, avoid=()):
    """n empty squares of the board, from the top left, none of `avoid`."""
    cells = board.app.referee.game.board.cells
    out = []
    for i in range(len(cells)):
        if not cells[i] and i not in board.on_board and i not in avoid:
            out.append(i)
            if len(out) == n:
                break
    return out


def _show_rack(board, rack):
    """Lay the rack's chips (record faces, `?` a joker) on empty squares: square -> face."""
    shown = {}
    for i, face in zip(_empties(board, len(rack)), rack):
        board.place(i, face)
        shown[i] = face
    return shown


def _lay_move(board, move, shown):
    """Lay the board's move chip by chip, each taken from a shown square (a shown chip on a
    square of the move is taken off first); then lift the rack's other chips."""
    Table(board).lay(move, shown, False)


def _lay_person(board, move):
    """A person lays a move; each joker's face is chosen with the buttons."""
    ref = board.app.referee
    for name, face in chips_of(move):
        if face[0] != "?":
            board.place(sq(name), face)
            continue
        board.place(sq(name), "?")
        for _ in range(ref.picking[2].index(faces.parse(face)[0])):
            board.press("right")
        board.press("ok")


def _record_faces(rack):
    return ["?" if ch == "?" else ch.replace("*", "×").replace(":", "÷") for ch in rack]


def _computer_turn(board, world):
    """The board's turn, through the world's rack: returns what it did."""
    ref = board.app.referee
    eq(ref.mode, "show_rack")
    p = world.to_move
    shown = _show_rack(board, _record_faces(world.racks[p]))
    board.press("ok")
    said = events(board, "computer")[-1]
    eq(said["player"], p + 1)
    if said.get("move") is None:
        for k in sorted(shown):
            board.lift(k)
        if said["swap"]:
            world.swap(said["swap"])
            return "swap"
        world.pass_turn()
        return "pass"
    eq(ref.mode, "guide")
    move = world_move(world, said["move"])
    verdict = world.check(move)
    eq(verdict.legal, True, said["move"])
    eq(verdict.score, said["score"], said["move"])
    _lay_move(board, said["move"], shown)
    board.press("ok")
    eq(events(board, "move")[-1]["move"], said["move"])
    eq(events(board, "move")[-1]["score"], verdict.score)
    world.push(move)
    return "move"


def world_move(world, text):
    from engine.move import Move

    return Move.parse(text, W, W)


def _person_turn(board, world):
    move, _ = movegen.best(world)
    if move is None:
        board.press("ok")  # the menu, on Pass
        ref = board.app.referee
        while ref.state.prompt()[0] != "pass":
            board.press("right")
        board.press("ok")
        world.pass_turn()
        return "pass"
    _lay_person(board, str(move))
    board.press("ok")
    eq(events(board, "move")[-1]["move"], str(move))
    world.push(move)
    return "move"


def _whole_game(level, seed):
    board = new_board({"players": 2, "computer": [0, level], "hints": False})
    world = Game(default_profile(), 2, seed=seed)
    ref = board.app.referee
    done = []
    for _ in range(80):
        if world.over:
            break
        if world.to_move == 1:
            done.append(_computer_turn(board, world))
        else:
            done.append(_person_turn(board, world))
        eq(ref.game.totals(), world.totals())
    eq(world.over, True)
    eq(ref.mode, "tally")
    return board, done


def test_a_whole_game_against_the_board_at_level_1():
    _, done = _whole_game(1, 5)
    eq("move" in done, True)


def test_a_whole_game_against_the_board_at_level_2():
    _whole_game(2, 6)


def test_a_whole_game_against_the_board_at_level_3():
    _whole_game(3, 7)


def test_a_whole_game_against_the_board_at_level_4():
    _whole_game(4, 8)


def test_the_board_thinks_with_a_progress_line_and_lights_its_move():
    board = new_board({"players": 2, "computer": [0, 3]})
    lay(board, RULEBOOK[0])
    board.press("ok")
    eq(message(board), "P1 +48")  # the last outcome, until the board's rack is shown
    eq(board.app.referee.mode, "show_rack")
    shown = _show_rack(board, ["9", "+", "6", "2", "-", "?", "3"])
    eq(message(board), "Lay P2's chips on free squares, OK (7)")
    board.press("ok")
    said = events(board, "computer")[-1]
    first = chips_of(said["move"])[0]
    eq(message(board), "Lay %s on %s" % (first[1], first[0]))
    # its squares are lit green (blinking), the shown chips yellow
    app = board.app
    for name, _ in chips_of(said["move"]):
        eq(dict(app.referee.alerts()).get(sq(name)), "place")
    _lay_move(board, said["move"], shown)
    eq(message(board), "Laid: OK plays %d pts" % said["score"])
    board.press("ok")
    eq(app.referee.mode, "play")
    eq(app.referee.game.totals()[1], said["score"])


def test_a_stray_chip_must_come_off_and_a_short_rack_is_refused():
    board = new_board({"players": 2, "computer": [0, 3]})
    lay(board, RULEBOOK[0])
    board.press("ok")
    board.press("ok")  # nothing shown
    eq(message(board), "Show 1 to 7 chips")
    shown = _show_rack(board, ["9", "+", "6"])
    board.press("ok")
    said = events(board, "computer")[-1]
    ref = board.app.referee
    eq(ref.mode, "guide")
    # a chip laid where the move has none blinks and blocks OK
    stray = _empties(board, 1, avoid=[sq(n) for n, _ in chips_of(said["move"])])[0]
    board.place(stray, "5")
    eq(message(board).startswith("Take the chip off"), True)
    board.press("ok")
    eq(ref.mode, "guide")
    board.lift(stray)
    _lay_move(board, said["move"], shown)
    board.press("ok")
    eq(ref.mode, "play")


def _turn_with_cut(k, rack):
    """The board's turn with the power cut at its k-th write or rename; then resumed and
    finished. Returns (the move played, the totals), or None if the turn has fewer writes."""
    fs = CutFS()
    board = new_board({"players": 2, "computer": [0, 3]}, fs=fs)
    lay(board, RULEBOOK[0])
    board.press("ok")
    fs.cut_at = fs.ops + k
    shown = {}
    try:
        shown = _show_rack(board, rack)
        board.press("ok")
        said = events(board, "computer")[-1]
        _lay_move(board, said["move"], dict(shown))
        shown = {}
        board.press("ok")
    except PowerCut:
        pass
    if fs.cut_at is not None:
        return None
    # what lies on the board when the power goes: the committed move, and the chips of
    # this turn (the rack shown, or the board's move laid)
    lying = chips_of(RULEBOOK[0])
    names = [name for name, _ in lying]
    for i in sorted(board.on_board):
        name = squares.name(i, W)
        if name not in names:
            lying.append([name, board.on_board[i][0]])
    board = None
    board = after_power_cut(fs, lying, {"computer": [0, 3]})
    board.press("ok")  # resume
    ref = board.app.referee
    if ref.mode == "show_rack":  # the cut came before the rack was saved: shown again
        eq(len(ref.shown) <= len(rack), True)
        for k2 in list(ref.shown):
            board.lift(k2)
        shown = _show_rack(board, rack)
        board.press("ok")
    if ref.mode == "think":
        board.run(50)
    if ref.mode == "guide":
        said = events(board, "computer")
        move = said[-1]["move"] if said else str(ref.state.move)
        # lift whatever lies outside the move and the committed chips, then lay the move
        cells = ref.game.board.cells
        targets = [sq(n) for n, _ in chips_of(move)]
        for i in sorted(board.on_board):
            if not cells[i] and i not in targets:
                board.lift(i)
        _lay_move_free(board, move)
        board.press("ok")
    eq(ref.mode, "play", "cut %d" % k)
    return events(board, "move")[-1]["move"], ref.game.totals()


def _lay_move_free(board, move):
    """Lay what is still missing of the move, chips taken from the box."""
    for name, face in chips_of(move):
        i = sq(name)
        if i not in board.on_board:
            board.place(i, "?" if face[0] == "?" else face)


def test_a_power_cut_at_every_write_of_the_boards_turn_resumes_it():
    rack = ["9", "+", "6", "2", "-", "?", "3"]
    # the turn without a cut
    board = new_board({"players": 2, "computer": [0, 3]})
    lay(board, RULEBOOK[0])
    board.press("ok")
    shown = _show_rack(board, rack)
    board.press("ok")
    said = events(board, "computer")[-1]
    _lay_move(board, said["move"], shown)
    board.press("ok")
    want = (said["move"], board.app.referee.game.totals())
    board = None
    k = 1
    while True:
        got = _turn_with_cut(k, rack)
        if got is None:
            break
        eq(got, want, "cut %d" % k)
        k += 1
    eq(k > 4, True)  # the rack's record, the move's, and the game's: each written and renamed


def test_a_hint_lights_the_best_move_and_is_counted():
    board = new_board({"players": 2})
    ref = board.app.referee
    board.press("ok")  # the menu opens on Pass; Hint is just before Back
    board.press("left")
    board.press("left")
    eq(message(board), "Hint")
    board.press("ok")
    eq(message(board), "Hint: lay P1's chips on free squares, OK (0)")
    shown = _show_rack(board, ["5", "+", "3", "×", "2", "9", "-"])
    board.press("ok")
    eq(ref.mode, "hint")
    said = events(board, "hint")[-1]
    eq(said["player"], 1)
    eq(said["hints"], 1)
    eq(message(board), "Hint %d pts: %s" % (said["score"], said["move"]))
    for name, _ in chips_of(said["move"]):
        eq(dict(ref.alerts()).get(sq(name)), "place")
    # the player takes the hint: the rack's chips come off, the move goes down
    board.press("back")
    eq(ref.mode, "play")
    eq(message(board).startswith("Lift the chip on"), True)
    _lay_move(board, said["move"], shown)
    board.press("ok")
    eq(events(board, "move")[-1]["score"], said["score"])
    eq(ref.seat.hints[:2], [1, 0])


def test_hints_switched_off_are_not_in_the_menu():
    board = new_board({"players": 2, "hints": False})
    board.press("ok")
    eq(message(board), "Pass")
    board.press("left")
    eq(message(board), "Back")


def test_the_archived_game_marks_the_boards_seats_and_the_hints():
    from firmware.archive import Archive
    from firmware.sim.memfs import MemFS
    from tests.fw.board import finish_tally

    fs = MemFS()
    board = new_board({"players": 2, "computer": [0, 2]}, fs=fs)
    ref = board.app.referee
    board.press("ok")  # the menu, on Pass
    board.press("left")
    board.press("left")  # Hint
    board.press("ok")
    shown = _show_rack(board, ["5", "+", "3"])
    board.press("ok")
    eq(ref.mode, "hint")
    board.press("back")
    for k in sorted(shown):
        board.lift(k)
    lay(board, RULEBOOK[0])
    board.press("ok")
    eq(ref.mode, "show_rack")
    shown = _show_rack(board, ["0"])  # a lone 0 cannot be laid: the board swaps it
    board.press("ok")
    eq(events(board, "computer")[-1]["swap"], ["0"])
    eq(message(board), "Board swaps 0")
    for k in sorted(shown):
        board.lift(k)
    # the person passes: every player has passed or swapped in turn, the game ends
    board.press("ok")
    while ref.state.prompt()[0] != "pass":
        board.press("right")
    board.press("ok")
    eq(ref.mode, "tally")
    finish_tally(board)
    eq(ref.mode, "over")
    about = Archive(fs).read("games/001.dat")[1]
    eq(about["computer"], [0, 2])
    eq(about["hints"], [1, 0])


def _short_of_memory(run):
    """Run `run()` with every Calculissimo search stopping at a MemoryError, as a search does
    on a board whose heap is full (the search keeps the best found so far: none here)."""
    from engine import movegen_calculissimo

    real = movegen_calculissimo.generation

    def generation(*_args):
        raise MemoryError("memory allocation failed, allocating 1762 bytes")

    movegen_calculissimo.generation = generation
    try:
        run()
    finally:
        movegen_calculissimo.generation = real


def _ask_hint(board, rack, think=None):
    """Ask a hint through the menu and show `rack`; `think(board)` presses the OK that
    starts the think (default: a plain press)."""
    board.press("ok")  # the menu opens on Pass; Hint is just before Back
    board.press("left")
    board.press("left")
    board.press("ok")
    shown = _show_rack(board, rack)
    if think is None:
        board.press("ok")
    else:
        think(board)
    return shown


def test_a_hint_short_of_memory_says_so_not_that_there_is_no_move():
    board = new_board({"players": 2})
    got = []
    _short_of_memory(lambda: got.append(_ask_hint(board, ["5", "+", "3"])))
    said = events(board, "hint")[-1]
    eq((said["move"], said.get("short")), (None, True))
    eq(message(board), "Out of memory: no hint")
    board.press("back")
    for k in sorted(got[0]):
        board.lift(k)
    # with room again, the next hint is a move, and says nothing of memory
    _ask_hint(board, ["5", "+", "3"])
    said = events(board, "hint")[-1]
    eq(("short" in said, said["move"] is not None), (False, True))
    eq(message(board), "Hint %d pts: %s" % (said["score"], said["move"]))


def test_the_boards_turn_short_of_memory_says_so():
    board = new_board({"players": 2, "computer": [0, 3]})
    lay(board, RULEBOOK[0])
    board.press("ok")
    _show_rack(board, ["9", "+", "6"])
    _short_of_memory(lambda: board.press("ok"))
    said = events(board, "computer")[-1]
    eq((said.get("move"), said["swap"], said.get("short")), (None, ["9", "+", "6"], True))
    eq(message(board), "Board out of memory")
