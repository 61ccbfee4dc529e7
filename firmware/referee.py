"""The turn flow: chips sensed and buttons pressed in, the game and what to show out.

One `Referee` holds a game and the board's physical state against it; its current mode is a
small object (firmware/modes.py: play, pick a face, menu, swap, take back a lost turn;
firmware/modes_end.py: tally, final scores, clearing the board, resume at power-up) that
holds only its own state and answers chips, lifts and buttons. What every mode shares
lives here:
  - while a game is on, a committed chip that is lifted is *missing*: its square is shown,
    and nothing can be confirmed until the same chip is back (once the game is over, or
    before it is resumed, chips may come and go: `Mode.board_counts`);
  - a chip lying unidentified (no tag, an unknown tag, the same tag as another square, a
    silent reader) or whose magnet has gone while its tag still answers;
  - the game's actions (confirm, pass, swap, finish), the journal and the archive.

What the display says is derived from the state in one place, `status()`: a missing or
unidentified chip first, then the mode's question, then the last outcome (`note`, such as
"Ana +12", kept only until the next chip or button changes the state), then the mode's idle
text. The LEDs' blinking squares come from `alerts()` the same way. So no message outlives
its cause: a chip back in place, a tag lifted, a game over all change the state, and with it
what is shown.

The referee never touches hardware: `app.App` feeds it events and reads `status`, `alerts`
and the game for the LEDs and the display. After every change to the game it hands a
snapshot to the journal.
"""

from engine import faces, squares
from engine.compat import ticks_diff
from engine.game import Game
from engine.snapshot import decode, encode
from firmware import i18n, sensing
from firmware.journal import JournalError
from firmware.modes import (
    ASK,
    GUIDE,
    HINT,
    MENU,
    PICK,
    PLAY,
    SHOW_RACK,
    SWAP,
    TAKE_BACK,
    THINK,
    Menu,
    Play,
    TakeBack,
)
from firmware.modes_end import CLEAR, OVER, RESUME, TALLY, Clear, Over, Resume, Tally

# The mode names, as the PC's `state` reply and the tests read them.
MODES = (
    PLAY,
    PICK,
    MENU,
    SWAP,
    TAKE_BACK,
    TALLY,
    OVER,
    CLEAR,
    RESUME,
    SHOW_RACK,
    THINK,
    GUIDE,
    HINT,
)

# Alert kinds for the LEDs (firmware/leds.py colours them).
MISSING = "missing"
UNKNOWN = "unknown"

_MENU = ("pass", "swap", "back")
_MENU_RULE5 = ("pass", "swap", "rule5", "back")  # Cal-Q-Able: rule 5 replacement too
_FACE_ORDER = "0123456789+-*:/=?"  # the order faces are offered in on the display


def face_choices(profile):
    """(every face of the chip set, the faces a joker may stand for), in display order."""
    every = "".join(ch for ch in _FACE_ORDER if ch in profile.chips)
    joker = "".join(ch for ch in every if ch not in "*?")  # a joker is never × (rule 5)
    return every, joker


class Referee:
    def __init__(self, profile, settings, clock, events, journal=None):
        self.profile = profile
        self.settings = settings
        self.lang = settings["language"]
        self.clock = clock
        self.events = events
        self.journal = journal
        self.game = None  # type: Game  # type: ignore[assignment]  # set before any turn
        self.state = Play(self)  # the current mode (firmware/modes.py, modes_end.py)
        self.note = None  # (message key, args...) of the last outcome, until the next change
        self.verdict = None  # the live preview of the pending move
        self.missing = {}  # committed square lifted -> its cell code
        self.wrong = {}  # missing square -> the face of another chip laid there
        self.unknown = {}  # square -> the sensing event saying why it is unidentified
        self.tag_only = set()  # squares whose chip's magnet is gone while its tag answers
        self.all_choices, self.joker_choices = face_choices(profile)
        self.menu = _MENU  # type: tuple
        self.replacing = False  # Cal-Q-Able rule 5 chosen: lifted left-side tiles are taken
        self.taken = set()  # committed squares lifted for a rule-5 replacement
        self.last_move = ()  # squares of the last committed move
        self.turn_start = clock.ticks_ms()
        self.save_failed = False  # the last save failed (shown until one succeeds)
        self.settings_problem = False  # a settings file had errors (shown all along)
        self.power = None  # (message key, args...) why the LEDs are off (app.App._power)
        self.archive = None  # .add(snapshot, about), .has(snapshot): firmware/archive.Archive
        self.unarchived = None  # (snapshot, about) of a finished game not archived yet
        self._seat = None  # the board's seats and the hints: `seat`, made when first used
        self.shown = {}  # square -> face of the chips of a rack shown to the board
        self.dirty = True  # something to redraw

    # ----- the mode --------------------------------------------------------------------------

    @property
    def mode(self):
        return self.state.name

    def enter(self, state):
        """Change mode. A turn of a seat the board plays never waits for chips in Play:
        it asks for the board's rack, thinks, or guides its move instead
        (firmware/modes_computer.turn_mode)."""
        game = self.game
        if state.name == PLAY and game is not None and not game.over and self.level(game.to_move):
            from firmware import modes_computer

            state = modes_computer.turn_mode(self)
        self.state = state
        self.dirty = True

    # ----- the board's seats and hints ------------------------------------------------------
    #
    # Their code (firmware/modes_computer.py, firmware/computer.py, the engine's search) is
    # imported only when first used: a board no one plays against, or asks a hint, never
    # holds it in RAM (it matters when code runs from .mpy files).

    def level(self, p):
        """The level the board plays seat p at, 0 for a person (always on a Hall-only
        board, which cannot read the faces of a rack shown to it)."""
        levels = self.settings["computer"]
        if self.settings["sensor"] == "hall" or p >= len(levels):
            return 0
        return levels[p]

    def hints_on(self):
        s = self.settings
        return s["hints"] and s["sensor"] != "hall" and not self.level(self.game.to_move)

    def menu_items(self):
        """The turn menu; a hint before "back" when a person may ask for one (the menu
        still opens on "pass")."""
        if not self.hints_on():
            return self.menu
        return self.menu[:-1] + ("hint",) + self.menu[-1:]

    @property
    def seat(self):
        """The board's seat record and the hints (firmware/computer.Seat), made on first
        use."""
        if self._seat is None:
            from firmware.computer import Seat

            self._seat = Seat(self.journal.fs if self.journal is not None else None, 4)
        return self._seat

    def _seat_in_use(self):
        """Whether there is a seat record to keep in step: in RAM, or on the flash."""
        if self._seat is not None:
            return True
        journal = self.journal
        return journal is not None and journal.fs.exists("seat.dat")

    def ask_hint(self):
        from firmware import modes_computer

        modes_computer.ask_hint(self)

    def think(self, progress, keepalive, buttons=None):
        """In mode THINK (the App calls it right from its step)."""
        from firmware import modes_computer

        modes_computer.think(self, progress, keepalive, buttons)

    # What some modes hold, for the PC's tools and the tests (None or empty in other modes).
    @property
    def tally(self):
        """The tally's counts (firmware/tally.py) in mode TALLY."""
        return getattr(self.state, "count", None)

    @property
    def picking(self):
        """[square, choice index, choices, is joker] of the chip whose face is asked."""
        return getattr(self.state, "current", None)

    @property
    def take_back(self):
        """The squares of a lost turn's chips still to lift."""
        return getattr(self.state, "squares", set())

    # ----- games ---------------------------------------------------------------------------

    def options(self):
        s = self.settings
        return {
            "precedence": s["precedence"],
            "strict": s["strict"],
            "turn_seconds": s["turn_seconds"],
        }

    def new_game(self, first=0):
        players = max(self.settings["players"], self.profile.min_players)
        self.game = Game(self.profile, players, self.options(), first=first)
        self._game_started()
        self._reset_turn()
        self.shown = {}
        if self._seat_in_use():
            self.seat.forget()
        self.enter(Play(self))
        self.last_move = ()
        self.missing = {}
        self.wrong = {}
        self.unarchived = None
        self.events.emit("new_game", "players", players, "game", self.profile.game)
        self._save()
        if self._seat is not None:
            from firmware import modes_computer

            modes_computer.save_seat(self)
        self.set_note("new_game")

    def offer_resume(self, payload):
        self.enter(Resume(self, payload))
        self.note = None

    def clear_board(self):
        """A new game is asked for with chips on the board: wait until it is clear."""
        self.enter(Clear(self))

    def resume(self, chips_present):
        """Restore the offered game. `chips_present` maps each square sensed now to its face
        (None if not read). A committed square that is empty now, or that holds a chip read
        as another face, is missing until its own chip is back; each is announced."""
        payload = self.state.payload  # type: ignore[attr-defined]
        game = self.game = decode(self.profile, payload)
        self._game_started()
        self.shown = {}
        if self._seat_in_use():
            self.seat.restore(encode(game), self.profile)
        cells = game.board.cells
        self.missing = {}
        self.wrong = {}
        for sq in range(len(cells)):
            if not cells[sq]:
                continue
            if sq not in chips_present:
                self.missing[sq] = cells[sq]
                continue
            face = chips_present[sq]
            if face is not None and not self._fits(face, cells[sq]):
                self.missing[sq] = cells[sq]  # another chip lies there: the wrong one
                self.wrong[sq] = face
        self._reset_turn()
        self.note = None
        self.events.emit("resume", "turns", game.turns, "totals", game.totals())
        for sq in sorted(self.missing):
            self.events.emit("missing", "square", self.square_name(sq))
        if game.penalties is not None and not self._archived():
            # The flash refused the archive, then the power went: the tally's racks are
            # gone with it, so the end is counted again rather than the game lost.
            game.unfinish()
            self.events.emit("recount", "turns", game.turns)
        if game.penalties is not None:
            self._over()
        elif game.over:
            self.enter(Tally(self))
        else:
            self.enter(Play(self))

    def _archived(self):
        if self.archive is None:
            return True
        try:
            return self.archive.has(encode(self.game))
        except (OSError, ValueError):
            return False

    def fits(self, face, code):
        return self._fits(face, code)

    @staticmethod
    def _fits(face, code):
        """Whether a chip read as `face` is the one committed as cell `code`."""
        want = faces.cell_text(code)
        return face == want or (face == "?" and want[0] == "?")

    def _game_started(self):
        self.menu = _MENU_RULE5 if self.game.rules.replacement_bonus else _MENU
        self.replacing = False
        self.taken = set()

    def name(self, p):
        names = self.settings["names"]
        return names[p] if p < len(names) else "P%d" % (p + 1)

    def square_name(self, sq):
        return squares.name(sq, self.profile.width)

    def reason(self, code):
        return i18n.reason(self.lang, code)

    def _reset_turn(self):
        self.stop_replacing()
        self.turn_start = self.clock.ticks_ms()
        self.verdict = None
        self.dirty = True

    def stop_replacing(self):
        """Leave rule 5: tiles taken off for it and not replaced must go back."""
        cells = self.game.board.cells if self.game is not None else None
        for sq in self.taken:
            if cells[sq] and sq not in self.missing:
                self.missing[sq] = cells[sq]
        self.taken = set()
        self.replacing = False

    def _save(self):
        if self.journal is None:
            return
        try:
            self.journal.save(encode(self.game))
        except JournalError as err:  # the game goes on; the board says it could not save
            self.events.emit("save_failed", "error", str(err))
            self.save_failed = True
            return
        self.save_failed = False

    def set_note(self, key, *args):
        """Remember an outcome to show until the state moves on."""
        self.note = (key,) + args
        self.dirty = True

    # ----- what is shown ---------------------------------------------------------------------

    @property
    def alert(self):
        """The display's alert line: a condition that holds until it is mended."""
        if self.save_failed or self.unarchived is not None:
            return i18n.say(self.lang, "save_failed")
        if self.settings_problem:  # first: mending the file may mend the supply too
            return i18n.say(self.lang, "settings")
        if self.power is not None:  # why the LEDs are off (firmware/leds.py)
            return i18n.say(self.lang, self.power[0], *self.power[1:])
        return ""

    @property
    def message(self):
        key = self.status()
        return i18n.say(self.lang, key[0], *key[1:])

    def status(self):
        """(message key, args...) of what the display says now, derived from the state."""
        state = self.state
        if self.game is None or state.name == RESUME:
            return state.prompt() or self.note or ("new_game",)
        return self._problem() or state.prompt() or self.note or state.idle() or ("done",)

    def _problem(self):
        """What must be mended before play goes on (a missing or unidentified chip), or None."""
        if self.missing:
            sq = min(self.missing)
            name = self.square_name(sq)
            if sq in self.wrong:
                return ("wrong_chip", name, faces.cell_text(self.missing[sq]))
            return ("put_back", name)
        if self.unknown:
            sq = min(self.unknown)
            event = self.unknown[sq]
            kind = event[0]
            if kind == sensing.READER_DOWN:
                return ("reader_down",)
            if kind == sensing.TWICE:
                return ("twice", self.square_name(sq), self.square_name(event[2]))
            return ("no_tag" if kind == sensing.NO_TAG else "unknown", self.square_name(sq))
        if self.tag_only:
            return ("tag_only", self.square_name(min(self.tag_only)))
        return None

    def alerts(self):
        """The squares that blink, as (square, kind): MISSING, UNKNOWN, or a mode's own
        (modes.ASK, modes.TAKE)."""
        out = []
        for sq in self.missing:
            out.append((sq, MISSING))
        for sq in self.unknown:
            out.append((sq, UNKNOWN))
        for sq in self.shown:  # the chips of a rack shown, until they are lifted
            out.append((sq, ASK))
        self.state.alerts(out)
        return out

    def blinking(self):
        """Whether some square blinks (the LEDs are redrawn at the blink rate)."""
        return bool(self.missing or self.unknown or self.alerts())

    def blocked(self):
        """Why nothing can be confirmed now (a message key and args), or None."""
        problem = self._problem()
        if problem is not None and problem[0] == "tag_only":
            return None  # the tag answers: the chip is there, its magnet only weak
        if problem is None and self.shown:
            return ("lift_shown", self.square_name(min(self.shown)))
        return problem

    # ----- chips sensed ----------------------------------------------------------------------

    def sensed(self, event):
        kind, sq = event[0], event[1]
        self.dirty = True
        if kind == sensing.PLACED:
            self._placed(sq, event[2])
        elif kind == sensing.LIFTED:
            self._lifted(sq)
        elif kind == sensing.STILL:
            self.tag_only.discard(sq)
            self.unknown.pop(sq, None)
        elif kind == sensing.TAG_ONLY:
            self.tag_only.add(sq)
            self.events.emit("tag_only", "square", self.square_name(sq))
        else:  # UNKNOWN, NO_TAG, TWICE, READER_DOWN: a chip lies there, not identified
            self._unidentified(sq, event)

    def _placed(self, sq, face):
        name = self.square_name(sq)
        self.unknown.pop(sq, None)
        self.tag_only.discard(sq)
        self.events.emit("placed", "square", name, "face", face)
        game = self.game
        if game is None or not self.state.board_counts:
            return
        if sq in self.missing:
            if face is None or self._fits(face, self.missing[sq]):
                del self.missing[sq]
                self.wrong.pop(sq, None)
                self.events.emit("restored", "square", name)
            else:
                self.wrong[sq] = face
                want = faces.cell_text(self.missing[sq])
                self.events.emit("wrong_chip", "square", name, "face", face, "want", want)
            return
        cell = game.board.cells[sq]
        if cell and sq not in self.taken:
            if face is not None and not self._fits(face, cell):  # read late, or put back
                self.missing[sq] = cell  # another chip lies there: the wrong one
                self.wrong[sq] = face
                self.events.emit(
                    "wrong_chip", "square", name, "face", face, "want", faces.cell_text(cell)
                )
            return  # else the committed chip itself, read again: nothing changed
        self.state.placed(sq, face)

    def _lifted(self, sq):
        name = self.square_name(sq)
        self.events.emit("lifted", "square", name)
        self.unknown.pop(sq, None)
        self.tag_only.discard(sq)
        self.wrong.pop(sq, None)
        if sq in self.shown:
            del self.shown[sq]  # a chip of the rack shown, taken back
            self.note = None
            return
        game = self.game
        if game is None or not self.state.board_counts or self.state.lifted(sq):
            return
        cells = game.board.cells
        if game.lift(sq):
            self.note = None
            self.preview()
        elif self.replacing and cells[sq] and sq not in self.missing:
            self.taken.add(sq)  # rule 5: a tile of the left side taken off
            self.events.emit("taken", "square", name)
            self.note = None
            self.preview()
        elif cells[sq] and sq not in self.missing:
            self.missing[sq] = cells[sq]
            self.events.emit("missing", "square", name)

    def _unidentified(self, sq, event):
        name = self.square_name(sq)
        self.unknown[sq] = event
        self.tag_only.discard(sq)
        game = self.game
        if game is not None and self.state.board_counts and not game.board.cells[sq]:
            self.state.unidentified(sq)
        kind = event[0]
        if kind == sensing.UNKNOWN:
            self.events.emit("unknown_chip", "square", name, "uid", event[2])
        elif kind == sensing.TWICE:
            self.events.emit("same_tag", "square", name, "as", self.square_name(event[2]))
        else:
            self.events.emit(kind, "square", name)

    def preview(self):
        """Judge the pending chips again (the display derives what to say from it)."""
        game = self.game
        if not game.pending:
            self.verdict = None
            return
        if self.replacing:
            self.verdict = game.check_replace(game.pending_move())[0]
        else:
            self.verdict = game.preview()
        v = self.verdict
        self.events.emit("preview", "legal", v.legal, "score", v.score, "codes", v.codes())

    # ----- buttons and the turn's actions ----------------------------------------------------

    def button(self, name):
        """A button was pressed; returns the App's action ("resume", "new") or None."""
        self.dirty = True
        self.events.emit("button", "name", name)
        return self.state.button(name)

    def confirm(self):
        game = self.game
        if self.blocked() is not None:
            return  # the display already says what to mend
        if not game.pending:
            if not game.over:
                self.enter(Menu(self))
            return
        p = game.to_move
        laid = self._laid()
        move = game.pending_move()
        text = str(move)
        if self.replacing:
            v, removed = game.check_replace(move)
            if v.legal and {sq for sq, _ in removed.placements} != self.taken:
                self.set_note("lift_left")  # every tile before the = comes off, and no other
                return
            v = game.replace(move)
        else:
            v = game.commit()
        if not v.legal:
            self.verdict = v
            self.events.emit("illegal", "player", p + 1, "move", text, "codes", v.codes())
            if v.forfeited:  # strict: the engine says the turn is lost
                self._lose_turn(p, laid, "lost_turn")
            return
        self.last_move = tuple(sq for sq, _ in laid)
        kind = "replace" if self.replacing else "move"
        self.taken = set()  # replaced: nothing of it is missing
        self.events.emit(
            kind, "player", p + 1, "move", text, "score", v.score, "totals", game.totals()
        )
        self._save()
        self._reset_turn()
        if game.over:
            self.enter(Tally(self))
            return
        self.enter(Play(self))  # the next turn (the board's own, if it plays that seat)
        if game.to_move == p:
            self.events.emit("bonus_turn", "player", p + 1)
            self.set_note("bonus")
        else:
            self.set_note("scored", self.name(p), v.score)

    def _laid(self):
        """(square, face) of every chip down this turn; face None if not yet known."""
        out = []
        for sq, code in self.game.pending:
            out.append((sq, "?" if code & faces.JOKER_BIT else faces.cell_text(code)))
        self.state.laid(out)
        return out

    def _lose_turn(self, p, laid, key):
        """Player p lost the turn with `laid` ((square, face) pairs) still on the board."""
        self._save()
        self._reset_turn()
        self.note = None
        if self.game.over:
            # Those chips are p's leftovers now: they count in the tally where they lie
            # (a chip whose face was never chosen is entered with the buttons).
            tally = Tally(self)
            self.enter(tally)
            for sq, face in laid:
                if face is not None:
                    tally.count.preset(p, face, sq)
            return
        if laid:
            self.enter(TakeBack(self, {sq for sq, _ in laid}, key))
        else:
            self.enter(Play(self))
            self.set_note(key)

    def pass_turn(self):
        game = self.game
        p = game.to_move
        game.pass_turn()
        self.events.emit("pass", "player", p + 1)
        self._after_idle_turn()

    def swap(self, count):
        game = self.game
        p = game.to_move
        game.swap(count)
        self.events.emit("swap", "player", p + 1, "count", count)
        self._after_idle_turn()

    def _after_idle_turn(self):
        self._save()
        self._reset_turn()
        self.note = None
        self.enter(Tally(self) if self.game.over else Play(self))

    # ----- the clock -------------------------------------------------------------------------

    def seconds_left(self):
        game = self.game
        limit = game.options["turn_seconds"] if game else 0
        if not limit or game.over or not self.in_turn():
            return None
        used = ticks_diff(self.clock.ticks_ms(), self.turn_start) // 1000
        return max(0, limit - used)

    def in_turn(self):
        """A player is taking their turn: laying, choosing a face, or in the turn menu."""
        return self.state.in_turn

    def time_up(self):
        """The turn clock ran out: the turn is lost (rule 2)."""
        game = self.game
        p = game.to_move
        laid = self._laid()  # chips still waiting for a face lie there too
        game.timeout()
        self.events.emit("timeout", "player", p + 1)
        self._lose_turn(p, laid, "time_up")

    # ----- the end ---------------------------------------------------------------------------

    def _over(self):
        self.enter(Over(self))
        self.missing = {}  # the game is over: its chips may leave the board
        self.wrong = {}
        self.note = None

    def finish(self, racks):
        """Every rack is counted: the final scores, archived before the journal says so."""
        game = self.game
        penalties = game.finish(racks)
        self.events.emit("game_over", "penalties", penalties, "totals", game.totals())
        about = {"game": self.profile.game, "profile": self.profile.name, "racks": racks}
        if self.settings["names"]:  # a record names its players (host_tools games export)
            about["names"] = list(self.settings["names"])[: game.players]
        levels = [self.level(p) for p in range(game.players)]
        if any(levels):
            about["computer"] = levels  # the board's seats and their levels (0: a person)
        if self._seat is not None and any(self._seat.hints[: game.players]):
            about["hints"] = self._seat.hints[: game.players]
        # Archived first: a power cut before the journal says "finished" only means the end
        # is counted again (the archive ignores the same game twice); the other order could
        # leave a finished game in the journal that no archive holds.
        self.unarchived = (encode(game), about)
        self.archive_again()
        self._save()
        self._over()

    def archive_again(self):
        """Archive the finished game if it is not yet; True once it is (or no archive)."""
        if self.unarchived is None or self.archive is None:
            self.unarchived = None
            return True
        try:
            path = self.archive.add(*self.unarchived)
        except OSError as err:
            self.events.emit("save_failed", "error", "could not archive the game (%s)" % err)
            return False
        self.unarchived = None
        self.events.emit("archived", "path", path)
        return True
