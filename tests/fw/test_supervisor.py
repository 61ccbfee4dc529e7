"""The main loop's supervisor (firmware/app.py `tick`): an exception at any stage of a step
is reported, the game reloaded from the journal and play goes on; a loop that keeps failing
restarts the board; the watchdog is fed (CPython and MicroPython)."""

from tests.engine.checks import eq
from tests.engine.fixtures import RULEBOOK, default_profile
from tests.fw.board import events, lay, message, new_board, sq

# What these tests' boards load on first use, loaded with this module on the Pico
# (tests/test_pico.py): loaded in a test, it would splinter the heap for the next.
PICO_PRELOAD = ("firmware.commands",)

# ----- the supervisor ------------------------------------------------------------------------------


class Boom(Exception):
    pass


def _once(fn):
    """`fn`, but raising Boom the first time it is called."""
    state = [True]

    def wrapped(*args):
        if state[0]:
            state[0] = False
            raise Boom("injected")
        return fn(*args)

    return wrapped


# (object to break, method) at every stage of App.step: the PC's line, the sensors, the
# buttons, the referee, the LEDs, the display and the event stream.
STAGES = (
    ("console", "poll"),
    ("sensing", "poll"),
    ("buttons", "poll"),
    ("referee", "sensed"),
    ("referee", "button"),
    ("leds", "compose"),
    ("screen", "update"),
    ("events", "flush"),
)


def _fault_at(owner, method):
    """A board whose `owner.method` raises once mid-turn: reloaded, and play goes on. One
    board at a time, as on a Pico (whose heap holds one): nothing kept once this returns."""
    h10 = sq("H10")
    board = new_board({"players": 2})
    board.strict = False
    lay(board, RULEBOOK[0])
    board.press("ok")
    lay(board, RULEBOOK[1])  # P2's chips lie on the board, not yet confirmed
    obj = getattr(board.app, owner)
    setattr(obj, method, _once(getattr(obj, method)))
    # A PC line, a chip lifted and laid again, buttons: every stage has work to do.
    board.usb_in += b'{"cmd": "hello", "id": 1}\n'
    script = [(board.take, h10), (board.put, h10, "3")]
    script += [(board.pins["back"].drive, 0), (board.pins["back"].drive, 1)]
    where = "%s.%s" % (owner, method)
    shown = None
    for action in script:
        action[0](*action[1:])
        for _ in range(20):
            board.run(board.app.period_ms)
            if shown is None and events(board, "fault"):
                shown = message(board)  # what the display says right after the fault
    faults = events(board, "fault")
    eq(len(faults), 1, where)
    eq(faults[0]["error"], "Boom: injected", where)
    eq(shown, "Error: game reloaded", where)
    ref = board.app.referee
    eq(ref.game.scores, [48, 0], where)  # the game as saved, the chips as they lie
    eq(ref.mode, "play", where)
    board.press("ok")
    eq([e["score"] for e in events(board, "move")], [48, 12], where)


def test_an_exception_at_any_stage_of_the_loop_reloads_the_game_and_play_goes_on():
    for owner, method in STAGES:
        _fault_at(owner, method)


def test_a_loop_that_keeps_failing_restarts_the_board_and_resumes():
    board = new_board({"players": 2})
    board.strict = False
    lay(board, RULEBOOK[0])
    board.press("ok")
    app = board.app

    def broken():
        raise Boom("every time")

    app.sensing.poll = broken
    app.recover = broken  # recovery cannot help either
    board.run(100)
    eq(events(board, "restarting")[0]["text"], "recovery failed: Boom: every time")
    eq(board.restarts, 1)
    eq(board.app.referee.mode, "resume")  # a clean start, offering the saved game
    board.press("ok")
    eq(board.app.referee.game.scores, [48, 0])


def test_the_watchdog_is_fed_after_every_step_even_a_failing_one():
    class Dog:
        fed = 0

        def feed(self):
            Dog.fed += 1

    board = new_board({"players": 2}, boot=False)
    board.strict = False
    board.hw.watchdog = Dog()
    board.boot()
    board.app.sensing.poll = _once(board.app.sensing.poll)
    board.run(100)
    eq(Dog.fed, 100 // board.app.period_ms)
    eq(len(events(board, "fault")), 1)
    eq(default_profile().game, "calculissimo")


def test_a_broken_event_stream_never_stops_the_loop():
    board = new_board({"players": 2})
    board.strict = False
    lay(board, RULEBOOK[0])
    board.press("ok")

    def broken(*args):
        raise Boom("no USB")

    board.app.events.emit = broken  # every event, and every report of it, fails
    board.press("back")  # a button to report: nothing escapes, the board restarts
    board.run(100)
    eq(board.restarts >= 1, True)
    board.press("ok")  # resume
    eq(board.app.referee.game.scores, [48, 0])
