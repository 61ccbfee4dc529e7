"""The turn flow: chips sensed and buttons pressed in, the game and what to show out.

One `Referee` holds a game and the board's physical state against it. Modes:
  PLAY       chips laid this turn are the pending move, previewed live; OK commits it,
             OK with nothing laid opens the menu (pass, swap).
  PICK       a joker (or, on a Hall-only board, any chip) was laid: LEFT/RIGHT choose what
             it stands for, OK sets it. Chips waiting for a face are asked one after the
             other; chips with a known face laid meanwhile join the move at once.
  MENU, SWAP the turn menu, and choosing how many chips to swap.
  TAKE_BACK  a turn was lost (strict mode, or the clock) with chips still down: wait until
             they are lifted.
  TALLY      the game has ended: each player's leftover chips are laid on the board to be
             read, or entered with the buttons, for the rack penalty (firmware/tally.py);
             OK once all are counted gives the final scores.
  OVER       final scores; OK starts a new game once the board is clear.
  RESUME     at power-up with a saved game: OK resumes it, BACK starts a new one.
  CLEAR      a new game was asked for with chips on the board: wait until it is clear.
While a game is on, a committed chip that is lifted is *missing*: its square is shown, and
nothing can be confirmed until the same chip is back (once the game is over, chips may go).
Chips laid or lifted while the menu is open close it: the player is making a move.

What the display says is derived from the state in one place, `status()`: a missing or
unidentified chip first, then the mode's own prompt, then the last outcome (`note`, such as
"Ana +12", kept only until the next chip is laid or lifted or a button changes the mode). So
no message outlives its cause: a chip back in place, a tag lifted, a game over all change
the state, and with it what is shown.

The referee never touches hardware: `app.App` feeds it events and reads its state for the
LEDs and the display. After every change to the game it hands a snapshot to the journal.
"""

from engine import faces, squares
from engine.compat import ticks_diff
from engine.game import Game
from engine.snapshot import decode, encode
from firmware import i18n, sensing
from firmware.journal import JournalError
from firmware.settings import player_name
from firmware.tally import Tally

PLAY = "play"
PICK = "pick"
MENU = "menu"
SWAP = "swap"
TAKE_BACK = "take_back"
TALLY = "tally"
OVER = "over"
RESUME = "resume"
CLEAR = "clear"

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
        self.mode = PLAY
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
        self.picking = None  # [square, choice index, choices, is_joker]: being asked now
        self.picks = []  # (square, face or None) waiting to be asked
        self.menu_at = 0
        self.swap_n = 1
        self.take_back = set()
        self.tally = None  # type: Tally  # type: ignore[assignment]  # set in mode TALLY
        self.tally_choice = 0
        self.last_move = ()  # squares of the last committed move
        self.turn_start = clock.ticks_ms()
        self.saved = None  # a snapshot offered for resuming
        self.save_failed = False  # the last save failed (shown until one succeeds)
        self.settings_problem = False  # a settings file had errors (shown all along)
        self.archive = None  # .add(snapshot, about), .has(snapshot): firmware/archive.Archive
        self.unarchived = None  # (snapshot, about) of a finished game the flash refused
        self.dirty = True  # something to redraw

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
        self.mode = PLAY
        self.last_move = ()
        self.missing = {}
        self.wrong = {}
        self.take_back = set()
        self.unarchived = None
        self.events.emit("new_game", "players", players, "game", self.profile.game)
        self._save()
        self._note("new_game")

    def offer_resume(self, payload):
        self.saved = payload
        self.mode = RESUME
        self._note(None)

    def resume(self, chips_present):
        """Restore the offered game. `chips_present` maps each square sensed now to its face
        (None if not read). A committed square that is empty now, or that holds a chip read
        as another face, is missing until its own chip is back; each is announced."""
        game = self.game = decode(self.profile, self.saved)
        self._game_started()
        self.saved = None
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
            self._start_tally()
        else:
            self.mode = PLAY
            self._note(None)

    def _archived(self):
        if self.archive is None:
            return True
        try:
            return self.archive.has(encode(self.game))
        except (OSError, ValueError):
            return False

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
        return player_name(self.settings, p)

    def _reset_turn(self):
        self._stop_replacing()
        self.turn_start = self.clock.ticks_ms()
        self.verdict = None
        self.picking = None
        self.picks = []
        self.dirty = True

    def _stop_replacing(self):
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

    def _note(self, key, *args):
        """Remember an outcome to show (None: nothing) until the state moves on."""
        self.note = (key,) + args if key is not None else None
        self.dirty = True

    def square_name(self, sq):
        return squares.name(sq, self.profile.width)

    # ----- what is shown ---------------------------------------------------------------------

    @property
    def alert(self):
        """The display's alert line: a condition that holds until it is mended."""
        if self.save_failed or self.unarchived is not None:
            return i18n.say(self.lang, "save_failed")
        if self.settings_problem:
            return i18n.say(self.lang, "settings")
        return ""

    @property
    def message(self):
        key = self.status()
        return i18n.say(self.lang, key[0], *key[1:])

    def status(self):
        """(message key, args...) of what the display says now, derived from the state."""
        mode = self.mode
        game = self.game
        if mode == RESUME:
            return ("resume",)
        if game is None:
            return self.note or ("new_game",)
        problem = self._problem()
        if problem is not None:
            return problem
        if mode == CLEAR:
            return ("clear_board",)
        if mode == PICK:
            sq, k, choices, joker = self.picking  # type: ignore[misc]  # set in mode PICK
            return ("joker" if joker else "face", self.square_name(sq), faces.display(choices[k]))
        if mode == MENU:
            return (self.menu[self.menu_at],)
        if mode == SWAP:
            return ("swap_n", self.swap_n)
        if self.note is not None:
            return self.note
        if mode == TALLY:
            t = self.tally
            if t.done():
                return ("tally_done",)
            return ("tally", self.name(t.player), t.left())
        if mode == OVER:
            best = game.leaders()
            return ("wins", self.name(best[0])) if len(best) == 1 else ("draw",)
        if mode == TAKE_BACK:
            return ("take_back",)
        v = self.verdict
        if v is not None and game.pending:
            if v.legal:
                return ("points", v.score)
            return ("illegal", i18n.reason(self.lang, v.reasons[0].code))
        if self.replacing:
            return ("rule5_hint",)
        return ("turn", self.name(game.to_move))

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

    def blinking(self):
        """Whether some square blinks (the LEDs are redrawn at the blink rate)."""
        return bool(self.missing or self.unknown or self.picking or self.take_back)

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
        if game is None or self.mode in (RESUME, CLEAR, OVER):
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
        if game.board.cells[sq] and sq not in self.taken:
            return  # a committed chip's magnet flickered back; nothing changed
        if self.mode == TALLY:
            if face is not None:  # Hall-only: entered with the buttons
                self._tally_add(face, sq)
            return
        if self.mode == TAKE_BACK:
            self.take_back.add(sq)
            return
        if self.mode in (MENU, SWAP):
            self.mode = PLAY  # chips laid: the player is making a move after all
        self.note = None
        if face is None or face == "?":
            self._ask(sq, face)
            return
        ch, _ = faces.parse(face)
        game.lay(sq, ch)
        self._preview()

    def _lifted(self, sq):
        name = self.square_name(sq)
        self.events.emit("lifted", "square", name)
        self.unknown.pop(sq, None)
        self.tag_only.discard(sq)
        self.wrong.pop(sq, None)
        game = self.game
        if game is None:
            return
        if self.mode in (OVER, CLEAR, RESUME):
            return  # the game is over (or not on yet): the board is being cleared
        if self.mode == TALLY and self.tally.lift(sq):
            self.note = None
            return
        if self.mode in (MENU, SWAP):
            self.mode = PLAY
        if sq in self.take_back:
            self.take_back.discard(sq)
            game.lift(sq)
            if not self.take_back and self.mode == TAKE_BACK:
                self.mode = PLAY
                self._reset_turn()
                self.note = None
            return
        if self._unask(sq):
            self._preview()
            return
        if game.lift(sq):
            self.note = None
            self._preview()
        elif self.replacing and game.board.cells[sq] and sq not in self.missing:
            self.taken.add(sq)  # rule 5: a tile of the left side taken off
            self.events.emit("taken", "square", name)
            self.note = None
            self._preview()
        elif game.board.cells[sq] and sq not in self.missing:
            self.missing[sq] = game.board.cells[sq]
            self.events.emit("missing", "square", name)

    def _unidentified(self, sq, event):
        name = self.square_name(sq)
        self.unknown[sq] = event
        self.tag_only.discard(sq)
        kind = event[0]
        if kind == sensing.UNKNOWN:
            self.events.emit("unknown_chip", "square", name, "uid", event[2])
        elif kind == sensing.TWICE:
            self.events.emit("same_tag", "square", name, "as", self.square_name(event[2]))
        else:
            self.events.emit(kind, "square", name)

    def _preview(self):
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

    # ----- asking what a chip stands for -----------------------------------------------------

    def _ask(self, sq, face):
        """A joker (face "?") or an unread chip (None) needs its face chosen on the display."""
        if self.picking is None:
            choices = self.joker_choices if face == "?" else self.all_choices
            self.picking = [sq, 0, choices, face == "?"]
            self.mode = PICK
        else:
            self.picks.append((sq, face))

    def _next_pick(self):
        self.picking = None
        if self.picks:
            sq, face = self.picks.pop(0)
            self._ask(sq, face)
        else:
            self.mode = PLAY
        self._preview()

    def _unask(self, sq):
        """A chip waiting for its face was lifted: forget it. True if it was one."""
        if self.picking is not None and self.picking[0] == sq:
            self._next_pick()
            return True
        for k in range(len(self.picks)):
            if self.picks[k][0] == sq:
                del self.picks[k]
                return True
        return False

    def _pick(self, button):
        picking = self.picking
        sq, k, choices, joker = picking  # type: ignore[misc]  # set in mode PICK
        if button == "left":
            picking[1] = (k - 1) % len(choices)  # type: ignore[index]
        elif button == "right":
            picking[1] = (k + 1) % len(choices)  # type: ignore[index]
        elif button == "ok":
            ch = choices[k]
            if ch == faces.JOKER:  # a Hall-only board's joker: now choose its value
                self.picking = [sq, 0, self.joker_choices, True]
            else:
                self.game.lay(sq, ch, joker)
                self._next_pick()

    # ----- buttons ---------------------------------------------------------------------------

    def button(self, name):
        self.dirty = True
        self.events.emit("button", "name", name)
        mode = self.mode
        if mode == RESUME:
            if name == "ok":
                return "resume"
            if name == "back":
                return "new"
            return None
        if mode == PICK:
            self._pick(name)
        elif mode == PLAY:
            if name == "ok":
                self._confirm()
            elif name == "back" and not self.game.pending:
                if self.replacing:
                    self._stop_replacing()  # what was taken off must go back
                    self.note = None
                else:
                    self._open_menu()
        elif mode == MENU:
            self._menu(name)
        elif mode == SWAP:
            self._swap(name)
        elif mode == TALLY:
            self._tally_button(name)
        elif mode == OVER and name == "ok":
            return "new" if self._archive_again() else None
        return None

    def blocked(self):
        """Why nothing can be confirmed now (a message key and args), or None."""
        problem = self._problem()
        if problem is not None and problem[0] == "tag_only":
            return None  # the tag answers: the chip is there, its magnet only weak
        return problem

    def _open_menu(self):
        if self.game.over:
            return
        self.mode = MENU
        self.menu_at = 0

    def _confirm(self):
        game = self.game
        if self.blocked() is not None:
            return  # the display already says what to mend
        if not game.pending:
            self._open_menu()
            return
        p = game.to_move
        laid = self._laid()
        move = game.pending_move()
        text = str(move)
        if self.replacing:
            v, removed = game.check_replace(move)
            if v.legal and {sq for sq, _ in removed.placements} != self.taken:
                self._note("lift_left")  # every tile before the = comes off, and no other
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
            self._start_tally()
        elif game.to_move == p:
            self.events.emit("bonus_turn", "player", p + 1)
            self._note("bonus")
        else:
            self._note("scored", self.name(p), v.score)

    def _laid(self):
        """(square, face) of every chip down this turn; face None if not yet known."""
        out = []
        for sq, code in self.game.pending:
            out.append((sq, "?" if code & faces.JOKER_BIT else faces.cell_text(code)))
        if self.picking is not None:
            out.append((self.picking[0], "?" if self.picking[3] else None))
        for sq, face in self.picks:
            out.append((sq, face))
        return out

    def _lose_turn(self, p, laid, key):
        """Player p lost the turn with `laid` ((square, face) pairs) still on the board."""
        self._save()
        self._reset_turn()
        if self.game.over:
            # Those chips are p's leftovers now: they count in the tally where they lie
            # (a chip whose face was never chosen is entered with the buttons).
            self._start_tally()
            for sq, face in laid:
                if face is not None:
                    self.tally.preset(p, face, sq)
            return
        self.take_back = {sq for sq, _ in laid}
        self.mode = TAKE_BACK if laid else PLAY
        self._note(key)

    def _menu(self, name):
        game = self.game
        if name == "left":
            self.menu_at = (self.menu_at - 1) % len(self.menu)
        elif name == "right":
            self.menu_at = (self.menu_at + 1) % len(self.menu)
        elif name == "back":
            self.mode = PLAY
            self.note = None
        elif name == "ok":
            item = self.menu[self.menu_at]
            self.mode = PLAY
            self.note = None
            if item == "pass":
                p = game.to_move
                game.pass_turn()
                self.events.emit("pass", "player", p + 1)
                self._after_idle_turn()
            elif item == "rule5":
                self.replacing = True
            elif item == "swap":
                if not game.can_swap():
                    self._note("no_swap", game.options["swap_min_bag"])
                    return
                self.mode = SWAP
                self.swap_n = 1

    def _swap(self, name):
        game = self.game
        most = game.rack_count(game.to_move)
        if name == "left":
            self.swap_n = most if self.swap_n <= 1 else self.swap_n - 1
        elif name == "right":
            self.swap_n = 1 if self.swap_n >= most else self.swap_n + 1
        elif name == "back":
            self.mode = MENU
        elif name == "ok":
            p = game.to_move
            game.swap(self.swap_n)
            self.events.emit("swap", "player", p + 1, "count", self.swap_n)
            self._after_idle_turn()

    def _after_idle_turn(self):
        self._save()
        self.mode = PLAY
        self._reset_turn()
        self.note = None
        if self.game.over:
            self._start_tally()

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
        return self.mode in (PLAY, PICK, MENU, SWAP)

    def time_up(self):
        """The turn clock ran out: the turn is lost (rule 2)."""
        game = self.game
        p = game.to_move
        laid = self._laid()  # chips still waiting for a face lie there too
        game.timeout()
        self.events.emit("timeout", "player", p + 1)
        self.mode = PLAY
        self._lose_turn(p, laid, "time_up")

    # ----- the end ---------------------------------------------------------------------------

    def _start_tally(self):
        game = self.game
        self.mode = TALLY
        self.take_back = set()
        self.tally = Tally([game.rack_count(p) for p in range(game.players)])
        self.tally_choice = self._next_face(len(self.all_choices) - 1, 1)
        self.note = None

    def _left_in_set(self, face):
        """How many chips of `face` exist that are neither on the board nor counted yet."""
        ch, joker = faces.parse(face)
        key = faces.JOKER if joker else ch
        n = self.game.unseen.get(key, 0)
        for rack in self.tally.racks():
            for counted in rack:
                if counted == face:
                    n -= 1
        return n

    def _next_face(self, k, step):
        """The next face from index k in direction step (±1) of which a chip is left."""
        choices = self.all_choices
        for _ in range(len(choices)):
            k = (k + step) % len(choices)
            if self._left_in_set(self._tally_face(k)) > 0:
                return k
        return k

    def _tally_face(self, k):
        ch = self.all_choices[k]
        return "?" if ch == "?" else faces.display(ch)

    def _tally_add(self, face, sq=None):
        """Count `face` for the player counting now, if such a chip is left in the set."""
        t = self.tally
        if t.done():
            return
        if self._left_in_set(face) <= 0:
            self._note("no_chip", face)
            return
        p = t.player
        t.add(face, sq)
        self.events.emit("tally", "player", p + 1, "face", face)
        self.note = None
        if self._left_in_set(self._tally_face(self.tally_choice)) <= 0:
            self.tally_choice = self._next_face(self.tally_choice, 1)

    def _over(self):
        self.mode = OVER
        self.missing = {}  # the game is over: its chips may leave the board
        self.wrong = {}
        self.take_back = set()
        self.note = None

    def _finish(self):
        """Every rack is counted: the final scores, archived before the journal says so."""
        game = self.game
        penalties = game.finish(self.tally.racks())
        self.events.emit("game_over", "penalties", penalties, "totals", game.totals())
        about = {"game": self.profile.game, "profile": self.profile.name}
        about["racks"] = self.tally.racks()
        # Archived first: a power cut before the journal says "finished" only means the end
        # is counted again (the archive ignores the same game twice); the other order could
        # leave a finished game in the journal that no archive holds.
        self.unarchived = (encode(game), about)
        self._archive_again()
        self._save()
        self._over()

    def _archive_again(self):
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

    def _tally_button(self, name):
        t = self.tally
        if name == "left":
            self.tally_choice = self._next_face(self.tally_choice, -1)
        elif name == "right":
            self.tally_choice = self._next_face(self.tally_choice, 1)
        elif name == "ok":
            if t.done():
                self._finish()
                return
            self._tally_add(self._tally_face(self.tally_choice))
            return
        elif name == "back":
            t.back()
            self.note = None
            return
        if not t.done():
            face = faces.display(self.all_choices[self.tally_choice])
            self._note("face", self.name(t.player), face)
