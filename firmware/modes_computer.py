"""The referee's modes for the board's own turns and for hints (firmware/computer.py).

A rack is shown to the board by laying its chips on empty squares (hardware/README.md,
"Showing the board a rack"); those squares are the referee's `shown`, and until they are
lifted they hold no move: confirming waits for them (Referee.blocked).
  ShowRack   chips laid on empty squares join the rack shown; lifted, they leave it. OK
             with at least one chip shown (and at most the rack's count): Think. For a hint
             BACK returns to the move; the computer's turn has no way back.
  Think      the display says "Thinking"; at the end of that step the App runs the search
             (think() here, firmware/computer.think) with a progress line and, once it has
             a move, the hint's points so far (or, for the board's turn, that OK plays
             now): a button pressed then ends the think with the move found so far. Then:
             Guide, or the computer's swap or pass; for a hint, HintShow.
  Guide      the computer's move. Its squares still to fill blink; the display names the
             first of them and its face. A chip laid there with that face (a joker taking
             the move's value) joins the pending move; any other chip is stray and blinks
             to come off. When the move is laid and the rack's other chips are off the
             board, OK plays it (Referee.confirm: the game checks and scores it as any).
  HintShow   the hint's squares blink and the display gives its points and chips. Laying a
             chip or pressing a button goes back to the move (the chip joins it).
"""

from engine import faces
from engine.snapshot import encode
from firmware import computer
from firmware.journal import crc32_small
from firmware.modes import GUIDE, HINT, PLACE, SHOW_RACK, TAKE, THINK, Mode, Play

# ----- what the referee asks of the board's seat (firmware/referee.py imports this module
# when a seat of the board's is to move, or a hint is asked) -------------------------------


def turn_mode(ref):
    """The mode of the board's own turn, from what its seat record holds: the move it
    chose, its rack (think again), or nothing yet (show the rack)."""
    seat = ref.seat
    if seat.at != _crc(ref):
        seat.clear_turn()  # a record of another turn
    if seat.move is not None:
        return Guide(ref, seat.move, seat.score)
    if seat.rack is not None:
        return Think(ref, False)
    return ShowRack(ref, False)


def ask_hint(ref):
    ref.enter(ShowRack(ref, True))


def start_thinking(ref, hint):
    """The rack is shown (ShowRack's OK). The board's own rack is journaled first, so a
    power cut from here on resumes its turn without asking for it again."""
    if not hint:
        seat = ref.seat
        seat.clear_turn()
        seat.rack = _rack(ref)
        seat.at = _crc(ref)
        save_seat(ref)
    ref.enter(Think(ref, hint))


def _rack(ref):
    out = []
    for sq in sorted(ref.shown):
        out.append(faces.parse(ref.shown[sq])[0])
    return out


def _crc(ref):
    return crc32_small(encode(ref.game))


def save_seat(ref):
    if not computer.save_quietly(ref.seat, ref.events):
        ref.save_failed = True


def think(ref, progress, keepalive, buttons=None):
    """In mode THINK: run the search for the rack shown (or journaled), then act on it.
    The App calls it right from its step: the search nests calls (firmware/computer.py).
    A press of one of the `buttons` meanwhile takes the move found so far."""
    game = ref.game
    seat = ref.seat
    hint = ref.state.hint
    p = game.to_move
    level = computer.HINT_LEVEL if hint else ref.level(p)
    rack = _rack(ref) if hint or seat.rack is None else seat.rack
    ms = ref.settings["think_seconds"] * 1000
    move, score, swap = computer.think(
        game, rack, level, ref.clock, ms, progress, keepalive, buttons
    )
    # The search stopped at a MemoryError (computer.last): its move is the best it had found,
    # and without one the board does not know there is none. Said so, on the display too.
    # ("early": a person took the move found so far.)
    last = computer.last
    short = bool(last and last[1])
    extra = []  # type: list
    if short:
        extra += ("short", True)
    if last and last[6]:
        extra += ("early", True)
    events = ref.events
    if hint:
        seat.hints[p] += 1
        save_seat(ref)
        text = None if move is None else str(move)
        events.emit(
            "hint", "player", p + 1, "move", text, "score", score, "hints", seat.hints[p], *extra
        )
        ref.enter(HintShow(ref, move, score, short))
        return
    if move is not None and swap is None:
        seat.move = move
        seat.score = score
        save_seat(ref)
        events.emit(
            "computer", "player", p + 1, "level", level, "move", str(move), "score", score, *extra
        )
        ref.enter(Guide(ref, move, score))
        return
    events.emit("computer", "player", p + 1, "level", level, "swap", swap, "score", 0, *extra)
    seat.clear_turn()
    if swap:
        ref.swap(len(swap))
        ref.set_note("board_swaps", "".join(faces.display(ch) for ch in swap))
    else:
        ref.pass_turn()
        ref.set_note("board_passes")
    if short and move is None:
        ref.set_note("board_short")  # it swaps or passes, not knowing whether it could move


# ----- the modes ---------------------------------------------------------------------------


class ShowRack(Mode):
    name = SHOW_RACK

    def __init__(self, ref, hint):
        Mode.__init__(self, ref)
        self.hint = hint
        self.in_turn = hint  # the person's clock runs while they ask; the board's does not

    def placed(self, sq, face):
        ref = self.ref
        ref.note = None
        if face is None:  # a Hall-only board cannot read a rack
            ref.set_note("rack_unread")
            return  # (a Hall-only board plays no seat and gives no hint: Referee.level)
        ref.shown[sq] = face
        ref.events.emit("shown", "square", ref.square_name(sq), "face", face)

    def unidentified(self, sq):
        self.ref.note = None

    def button(self, name):
        ref = self.ref
        if name == "back" and self.hint:
            ref.enter(Play(ref))
            ref.note = None
        elif name == "ok":
            most = ref.game.rack_count(ref.game.to_move)
            n = len(ref.shown)
            if n == 0 or n > most or ref.unknown:
                ref.set_note("rack_count", most)
                return
            start_thinking(ref, self.hint)

    def prompt(self):
        ref = self.ref
        if ref.note is not None:
            return None  # why OK was refused, until a chip is laid or lifted
        key = "show_hint" if self.hint else "show_rack"
        return (key, ref.name(ref.game.to_move), len(ref.shown))


class Think(Mode):
    name = THINK

    def __init__(self, ref, hint):
        Mode.__init__(self, ref)
        self.hint = hint
        self.in_turn = hint
        self.percent = 0
        self.score = None  # the score of the move chosen so far (the App sets both)

    def placed(self, sq, face):
        if face is not None:  # a chip of the rack, laid again after a power cut
            self.ref.shown[sq] = face

    def prompt(self):
        if self.score is None:
            return ("thinking", self.percent)
        if self.hint:
            return ("thinking_hint", self.percent, self.score)
        return ("thinking_turn", self.percent)


class Guide(Mode):
    name = GUIDE

    def __init__(self, ref, move, score):
        Mode.__init__(self, ref)
        self.move = move
        self.score = score
        self.stray = {}  # square -> face of a chip laid where the move has none

    def _want(self, sq):
        for at, code in self.move.placements:
            if at == sq:
                return code
        return None

    def placed(self, sq, face):
        ref = self.ref
        ref.note = None
        self.stray.pop(sq, None)  # read at last
        want = self._want(sq)
        if want is not None and face is not None and ref.fits(face, want):
            ref.game.lay(sq, chr(want & faces.FACE_MASK), bool(want & faces.JOKER_BIT))
            ref.preview()
        else:
            self.stray[sq] = face
            ref.events.emit("stray", "square", ref.square_name(sq), "face", face)

    def lifted(self, sq):
        if sq in self.stray:
            del self.stray[sq]
            return True
        return False

    def unidentified(self, sq):
        self.stray[sq] = None

    def _next(self):
        """The first square of the move still empty, or None."""
        pending = self.ref.game.pending
        for sq, code in self.move.placements:
            if not any(at == sq for at, _ in pending):
                return sq, code
        return None

    def button(self, name):
        ref = self.ref
        if name != "ok":
            return
        if self.stray or self._next() is not None:
            return  # the display says what is still to do
        if ref.game.pending_move() != self.move:
            ref.set_note("not_my_move")
            return
        ref.confirm()

    def prompt(self):
        ref = self.ref
        if self.stray:
            return ("take_off", ref.square_name(min(self.stray)))
        nxt = self._next()
        if nxt is not None:
            sq, code = nxt
            return ("lay_this", faces.cell_text(code), ref.square_name(sq))
        if ref.shown:
            return ("lift_shown", ref.square_name(min(ref.shown)))
        return None

    def idle(self):
        return ("board_ok", self.score)

    def alerts(self, out):
        nxt = self._next()
        pending = self.ref.game.pending
        for sq, _ in self.move.placements:
            if not any(at == sq for at, _ in pending):
                out.append((sq, PLACE))
        for sq in self.stray:
            out.append((sq, TAKE))
        if nxt is None:
            for sq in self.ref.shown:
                out.append((sq, TAKE))


class HintShow(Mode):
    name = HINT
    in_turn = True

    def __init__(self, ref, move, score, short=False):
        Mode.__init__(self, ref)
        self.move = move
        self.score = score
        self.short = short  # the search ran out of memory (see think())

    def placed(self, sq, face):
        ref = self.ref
        ref.enter(Play(ref))
        ref.state.placed(sq, face)

    def unidentified(self, sq):
        self.ref.enter(Play(self.ref))

    def button(self, name):
        self.ref.enter(Play(self.ref))
        self.ref.note = None

    def prompt(self):
        if self.move is None:
            return ("no_hint_room",) if self.short else ("no_hint",)
        return ("hint_is", self.score, str(self.move))

    def alerts(self, out):
        if self.move is not None:
            for sq, _ in self.move.placements:
                out.append((sq, PLACE))
