"""The referee's modes around a game: the end tally, the final scores, clearing the board
for a new game, and the question at power-up whether to resume (the modes of a turn, and
what a mode answers, are in firmware/modes.py).
"""

from engine import faces
from firmware.modes import Mode
from firmware.tally import Tally as Count

TALLY = "tally"
OVER = "over"
CLEAR = "clear"
RESUME = "resume"


class Tally(Mode):
    """The game has ended: each player's leftover chips are laid on the board to be read, or
    entered with the buttons, for the rack penalty (firmware/tally.py). Only chips that exist
    are counted: a face none of whose chips is left off the board and uncounted is refused,
    and the buttons offer only faces of which a chip is left. OK once all are counted gives
    the final scores."""

    name = TALLY

    def __init__(self, ref):
        Mode.__init__(self, ref)
        game = ref.game
        self.count = Count([game.rack_count(p) for p in range(game.players)])
        self.choice = self._next_face(len(ref.all_choices) - 1, 1)

    def _face(self, k):
        ch = self.ref.all_choices[k]
        return "?" if ch == "?" else faces.display(ch)

    def _left(self, face):
        """How many chips of `face` exist that are neither on the board nor counted yet."""
        ch, joker = faces.parse(face)
        n = self.ref.game.unseen.get(faces.JOKER if joker else ch, 0)
        for rack in self.count.racks():
            for counted in rack:
                if counted == face:
                    n -= 1
        return n

    def _next_face(self, k, step):
        """The next face from index k in direction `step` (±1) of which a chip is left."""
        n = len(self.ref.all_choices)
        for _ in range(n):
            k = (k + step) % n
            if self._left(self._face(k)) > 0:
                return k
        return k

    def add(self, face, sq=None):
        """Count `face` for the player counting now, if such a chip is left in the set."""
        ref = self.ref
        t = self.count
        if t.done():
            return
        if self._left(face) <= 0:
            ref.set_note("no_chip", face)
            return
        p = t.player
        t.add(face, sq)
        ref.events.emit("tally", "player", p + 1, "face", face)
        ref.note = None
        if self._left(self._face(self.choice)) <= 0:
            self.choice = self._next_face(self.choice, 1)

    def placed(self, sq, face):
        if face is not None:  # a Hall-only board's chips are entered with the buttons
            self.add(face, sq)

    def lifted(self, sq):
        if self.count.lift(sq):
            self.ref.note = None
            return True
        return False

    def button(self, name):
        ref = self.ref
        t = self.count
        if name == "left":
            self.choice = self._next_face(self.choice, -1)
        elif name == "right":
            self.choice = self._next_face(self.choice, 1)
        elif name == "ok":
            if t.done():
                ref.finish(t.racks())
            else:
                self.add(self._face(self.choice))
            return
        elif name == "back":
            t.back()
            ref.note = None
            return
        if not t.done():
            ref.set_note("face", ref.name(t.player), self._face(self.choice))

    def idle(self):
        t = self.count
        if t.done():
            return ("tally_done",)
        return ("tally", self.ref.name(t.player), t.left())


class Over(Mode):
    """The final scores. The board may be cleared; OK starts a new game once the finished
    game is archived (it is tried again if the flash refused it)."""

    name = OVER
    board_counts = False

    def button(self, name):
        if name == "ok" and self.ref.archive_again():
            return "new"
        return None

    def idle(self):
        ref = self.ref
        best = ref.game.leaders()
        return ("wins", ref.name(best[0])) if len(best) == 1 else ("draw",)


class Clear(Mode):
    """A new game was asked for with chips on the board: it starts once the board is clear."""

    name = CLEAR
    board_counts = False

    def prompt(self):
        return ("clear_board",)


class Resume(Mode):
    """At power-up with a saved game: OK resumes it, BACK starts a new one."""

    name = RESUME
    board_counts = False

    def __init__(self, ref, payload):
        Mode.__init__(self, ref)
        self.payload = payload

    def button(self, name):
        if name == "ok":
            return "resume"
        if name == "back":
            return "new"
        return None

    def prompt(self):
        return ("resume",)
