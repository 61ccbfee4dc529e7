"""The referee's modes during a turn: laying chips, choosing a face, the turn menu, choosing a
swap, and taking back the chips of a lost turn (the game's end is in firmware/modes_end.py).

A mode is a small object that holds only its own state (the face being chosen, the menu
item, the swap count, the chips to take back) and answers four things for the referee
(firmware/referee.py), which holds the game and what every mode shares:
  placed(sq, face)  a chip was identified on a square that holds no committed chip;
  lifted(sq)        a chip left a square; True if the mode dealt with it, else the referee
                    treats it as every playing mode does (a pending chip taken back, a
                    committed chip missing);
  unidentified(sq)  a chip lies on an empty square, not identified yet (the referee blocks
                    confirming until it is);
  button(name)      a button was pressed; returns an action for the App ("resume", "new")
                    or None;
  prompt()          the mode's question on the display, as (message key, args...), or None;
                    it is shown before the last outcome (the referee's note), and `idle()`
                    after it: what the display says when nothing else is to be said.
`alerts(out)` adds the mode's blinking squares, `in_turn` says whether the turn clock runs.
A mode changes the referee's mode with `ref.enter(...)`; nothing else sets it.
"""

from engine import faces

PLAY = "play"
PICK = "pick"
MENU = "menu"
SWAP = "swap"
TAKE_BACK = "take_back"

# The modes of the board's own turns and hints (firmware/modes_computer.py, imported when
# first used): their names here, for the referee, the App and the PC.
SHOW_RACK = "show_rack"
THINK = "think"
GUIDE = "guide"
HINT = "hint"

ASK = "ask"  # alert kinds (firmware/leds.py gives each its colour)
TAKE = "take"
PLACE = "place"  # a square where a chip of the board's move or of a hint goes


class Mode:
    name = ""
    in_turn = False  # a player is taking their turn: the clock runs, the corners are lit
    board_counts = True  # chips lifted from committed squares are missing while in this mode

    def __init__(self, ref):
        self.ref = ref

    def placed(self, sq, face):
        pass

    def lifted(self, sq):
        return False

    def unidentified(self, sq):
        """A chip lies on empty square `sq` and is not identified (yet)."""

    def button(self, name):
        return None

    def prompt(self):
        return None

    def idle(self):
        return None

    def alerts(self, out):
        pass

    def laid(self, out):
        """Add (square, face or None) of chips down this turn that the game does not hold."""


class Play(Mode):
    """Chips laid are the pending move, judged live; OK confirms, OK with none the menu."""

    name = PLAY
    in_turn = True

    def placed(self, sq, face):
        ref = self.ref
        ref.note = None
        if face is None or face == "?":  # a joker, or a chip a Hall-only board cannot read
            ref.enter(Pick(ref, sq, face))
            return
        ch, _ = faces.parse(face)
        ref.game.lay(sq, ch)
        ref.preview()

    def button(self, name):
        ref = self.ref
        if name == "ok":
            ref.confirm()
        elif name == "back" and not ref.game.pending:
            if ref.replacing:
                ref.stop_replacing()  # what was taken off for rule 5 must go back
                ref.note = None
            elif not ref.game.over:
                ref.enter(Menu(ref))

    def idle(self):
        ref = self.ref
        game = ref.game
        v = ref.verdict
        if v is not None and game.pending:
            if v.legal:  # line 3 shows its points
                return ("ok_plays",)
            return ("illegal", ref.reason(v.reasons[0].code))
        if ref.replacing:
            return ("rule5_hint",)
        if ref.shown:  # a rack shown for a hint: its chips come off before a move is played
            return ("lift_shown", ref.square_name(min(ref.shown)))
        return ("lay_hint",)  # line 0 says whose turn


class Pick(Play):
    """A joker (or any chip on a Hall-only board) was laid: LEFT/RIGHT choose what it stands
    for, OK sets it. Chips waiting for a face are asked one after the other; chips with a
    known face laid meanwhile join the move at once."""

    name = PICK

    def __init__(self, ref, sq, face):
        Mode.__init__(self, ref)
        self.queue = []  # (square, face or None) waiting to be asked
        self._ask(sq, face)

    def _ask(self, sq, face):
        ref = self.ref
        joker = face == "?"
        self.current = [sq, 0, ref.joker_choices if joker else ref.all_choices, joker]

    def placed(self, sq, face):
        if face is None or face == "?":
            self.ref.note = None
            self.queue.append((sq, face))
        else:
            Play.placed(self, sq, face)

    def _next(self):
        if self.queue:
            self._ask(*self.queue.pop(0))
        else:
            self.ref.enter(Play(self.ref))
        self.ref.preview()

    def lifted(self, sq):
        if self.current[0] == sq:
            self._next()
            return True
        for k in range(len(self.queue)):
            if self.queue[k][0] == sq:
                del self.queue[k]
                self.ref.preview()
                return True
        return False

    def button(self, name):
        current = self.current
        sq, k, choices, joker = current
        if name == "left":
            current[1] = (k - 1) % len(choices)
        elif name == "right":
            current[1] = (k + 1) % len(choices)
        elif name == "ok":
            ch = choices[k]
            if ch == faces.JOKER:  # a Hall-only board's joker: now choose its value
                self.current = [sq, 0, self.ref.joker_choices, True]
            else:
                self.ref.game.lay(sq, ch, joker)
                self._next()

    def prompt(self):
        sq, k, choices, joker = self.current
        return ("joker" if joker else "face", self.ref.square_name(sq), faces.display(choices[k]))

    def alerts(self, out):
        out.append((self.current[0], ASK))

    def laid(self, out):
        out.append((self.current[0], "?" if self.current[3] else None))
        for entry in self.queue:
            out.append(entry)


class Menu(Mode):
    """The turn menu: pass, swap (and rule 5 in Cal-Q-Able), or back to the move."""

    name = MENU
    in_turn = True

    def __init__(self, ref, at=0):
        Mode.__init__(self, ref)
        self.at = at

    def placed(self, sq, face):
        ref = self.ref
        ref.enter(Play(ref))  # chips laid: the player is making a move after all
        ref.state.placed(sq, face)

    def lifted(self, sq):
        self.ref.enter(Play(self.ref))
        return False

    def unidentified(self, sq):
        self.ref.enter(Play(self.ref))  # a chip laid, not read yet: a move, not the menu

    def button(self, name):
        ref = self.ref
        items = ref.menu_items()
        if name == "left":
            self.at = (self.at - 1) % len(items)
        elif name == "right":
            self.at = (self.at + 1) % len(items)
        elif name == "back":
            ref.enter(Play(ref))
            ref.note = None
        elif name == "ok":
            item = items[self.at]
            ref.enter(Play(ref))
            ref.note = None
            if item == "pass":
                ref.pass_turn()
            elif item == "hint":
                ref.ask_hint()
            elif item == "rule5":
                ref.replacing = True
            elif item == "swap":
                if ref.game.can_swap():
                    ref.enter(Swap(ref, self.at))
                else:
                    ref.set_note("no_swap", ref.game.options["swap_min_bag"])

    def prompt(self):
        return (self.ref.menu_items()[self.at],)


class Swap(Menu):
    """How many chips to swap: LEFT/RIGHT count within the rack, OK swaps."""

    name = SWAP

    def __init__(self, ref, at):
        Menu.__init__(self, ref, at)
        self.n = ref.game.swap_range()[0]  # chips to swap (Cal-Q-Able: only the whole rack)

    def button(self, name):
        ref = self.ref
        game = ref.game
        fewest, most = game.swap_range()
        if name == "left":
            self.n = most if self.n <= fewest else self.n - 1
        elif name == "right":
            self.n = fewest if self.n >= most else self.n + 1
        elif name == "back":
            ref.enter(Menu(ref, self.at))
        elif name == "ok":
            ref.swap(self.n)

    def prompt(self):
        return ("swap_n", self.n)


class TakeBack(Mode):
    """A turn was lost (strict mode, or the clock) with chips still down: they are lifted."""

    name = TAKE_BACK

    def __init__(self, ref, squares, why):
        Mode.__init__(self, ref)
        self.squares = squares
        self.why = why  # the message key: "lost_turn", "time_up"

    def placed(self, sq, face):
        self.squares.add(sq)  # laid now, it must come off as well

    def lifted(self, sq):
        if sq not in self.squares:
            return False
        self.squares.discard(sq)
        ref = self.ref
        ref.game.lift(sq)
        if not self.squares:
            ref.enter(Play(ref))
            ref.note = None
        return True

    def prompt(self):
        return (self.why,)

    def alerts(self, out):
        for sq in self.squares:
            out.append((sq, TAKE))
