"""What the 128 x 64 display shows: eight lines of 21 characters, drawn only when changed.

line 0   whose turn ("Ana to play"), and the turn clock (m:ss) when it runs
line 1-2 every player's score, two to a line (in the end tally the player counting their chips
         is marked with >: line 0 then says what to do, not who)
line 3   the bag count, and the pending move's points while it is legal; in the end tally,
         the face OK enters
line 4   a condition that holds until mended (could not save, LEDs off and why, settings)
line 5-7 the current message (wrapped): prompts, errors, the joker's value being chosen
"""

from firmware import i18n
from firmware import referee as R

COLS = 21
ROWS = 8


def pad(text, width):
    """`text` cut or padded with spaces to `width` (MicroPython has no str.ljust)."""
    text = text[:width]
    return text + " " * (width - len(text))


def wrap(text, width, lines):
    """Up to `lines` lines of at most `width` characters, breaking at spaces if possible."""
    out = []
    words = text.split(" ")
    line = ""
    for word in words:
        while len(word) > width:  # a word longer than a line is cut
            if line:
                out.append(line)
                line = ""
            out.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line = line + " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out[:lines]


def compose(ref):
    """The eight lines for the referee's state."""
    lines = [""] * ROWS
    lang = ref.lang
    game = ref.game
    if game is None:
        lines[4] = ref.alert
        msg = wrap(ref.message, COLS, 3)
        lines[5 : 5 + len(msg)] = msg
        return lines
    if ref.mode == R.OVER:
        lines[0] = i18n.say(lang, "game_over")
    elif ref.mode == R.TALLY:
        lines[0] = i18n.say(lang, "tally_hint")
    else:
        left = ref.seconds_left()
        head = i18n.say(lang, "turn", ref.name(game.to_move))
        if left is not None:
            clock = "%d:%02d" % (left // 60, left % 60)
            head = pad(head, COLS - len(clock)) + clock
        lines[0] = head
    count = ref.tally  # the end tally's counts (firmware/tally.py), None in other modes
    # Line 0 names the player to move, so no score is marked then; in the tally line 0 says
    # what to do, and the player counting their chips is marked.
    marked = -1
    if count is not None and ref.mode != R.OVER and not count.done():
        marked = count.player
    for p in range(game.players):
        mark = ">" if p == marked else " "
        cell = mark + pad(ref.name(p), 5) + "%4d" % game.scores[p]  # 10 characters
        row = 1 + p // 2
        lines[row] = cell if p % 2 == 0 else lines[row] + " " + cell
    message = ref.message
    if count is not None:
        # The tally: what OK enters now (the bag is of no use any more).
        if not count.done():
            tally = ref.state  # modes_end.Tally
            face = tally._face(tally.choice)
            lines[3] = i18n.say(lang, "tally_ok", face)
            if ref.note is not None and ref.note[0] == "face":
                key = tally.idle()  # ◀ ▶ moved the choice: line 3 shows it
                message = i18n.say(lang, key[0], *key[1:])
    else:
        bag = i18n.say(lang, "bag", game.bag_count())
        v = ref.verdict
        if v is not None and v.legal and game.pending:
            points = i18n.say(lang, "points", v.score)
            bag = (pad(bag, 10) if len(points) <= COLS - 10 else bag + " ") + points
        lines[3] = bag
    lines[4] = ref.alert
    msg = wrap(message, COLS, 3)
    for k in range(len(msg)):
        lines[5 + k] = msg[k]
    return lines


class Screen:
    def __init__(self, display):
        self.display = display
        self.lines = None

    def update(self, ref):
        """Redraw the lines whose text changed; returns True when the display was written.

        Each line is one 8-pixel page of the display, so a changed line is cleared and drawn
        again on its own: drawing text is the slow part (about 13,000 fuel a character).
        """
        return self.draw(compose(ref))

    def draw(self, lines):
        """Show eight lines of text, redrawing only the pages that changed."""
        old = self.lines
        if lines == old:
            return False
        self.lines = lines
        d = self.display
        first = last = None
        for row in range(ROWS):
            if old is None or lines[row] != old[row]:
                d.clear_page(row)
                if lines[row]:
                    d.text(lines[row], 0, row * 8)
                if first is None:
                    first = row
                last = row
        d.show(first, last)  # only the pages that changed go over the bus
        return True
