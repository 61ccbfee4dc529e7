"""The board's service modes, run at the PC's request: enrolling chips and the sensor test.

While one is on, it takes the chip events and the buttons from the referee and draws the
LEDs and the display itself; the game waits, its turn clock stopped. Both are started by a
USB command (firmware/commands.py) and end by another, or by BACK on the board.

- `Enrol`: each chip laid has its NFC tag read; when the PC has said which face comes next
  (`arm`), that tag is enrolled as that face in the chip registry, and `chips.json` is saved
  at once (written to chips.new, renamed over), so no enrolment is lost to a power cut.
- `Diag`: every magnet sensed lights its square at once (white), and once its tag is read
  the square shows what was found: green a known chip, magenta an unknown tag, amber a
  magnet without a tag, yellow a tag whose magnet went, red a silent reader.

When a mode ends, the chips that came and went meanwhile are handed to the referee as if
they had just been laid or lifted, so the game sees the board as it now is.
"""

from engine import squares
from firmware import i18n
from firmware import leds as L
from firmware.registry import Registry, face_text, uid_hex
from firmware.screen import ROWS
from firmware.sensing import LIFTED, NO_TAG, PLACED, READER_DOWN, STILL, TAG_ONLY, TWICE, UNKNOWN

_DIAG_COLOUR = {
    PLACED: L.GREEN,
    UNKNOWN: L.MAGENTA,
    NO_TAG: L.AMBER,
    TAG_ONLY: L.YELLOW,
    READER_DOWN: L.RED,
    TWICE: L.MAGENTA,
}


class Service:
    name = ""

    def __init__(self, app):
        self.app = app
        self.started = app.clock.ticks_ms()
        self.before = dict(app.sensing.placed)  # the board as the referee last saw it
        self.marks = {}  # square -> palette index
        self.last = ""  # the last thing that happened, for the display
        self.dirty = True

    def square(self, sq):
        return squares.name(sq, self.app.referee.profile.width)

    def button(self, name):
        """True when the button ends the mode (BACK)."""
        return name == "back"

    def say(self, key, *args):
        return i18n.say(self.app.settings["language"], key, *args)

    def body(self):
        """The display's lines 2 to 4."""
        return []

    def lines(self):
        out = [""] * ROWS
        out[0] = self.say(self.name + "_title")
        body = self.body()
        for k in range(len(body)):
            out[2 + k] = body[k][:21]
        out[ROWS - 1] = self.last[:21]
        return out

    def changes(self):
        """The chip events that bring the referee from the board it saw to the board now."""
        now = self.app.sensing.placed
        uids = self.app.sensing.uids
        out = []  # type: list[tuple]
        for sq in sorted(self.before):
            if sq not in now:
                out.append((LIFTED, sq))
        for sq in sorted(now):
            face = now[sq]
            if sq in self.before and self.before[sq] == face:
                continue
            if sq in self.before:
                out.append((LIFTED, sq))
            if face is not None or self.app.sensing.reader is None:
                out.append((PLACED, sq, face))  # known, or a Hall-only board asks its face
            elif sq in uids:
                out.append((UNKNOWN, sq, uid_hex(uids[sq])))
            else:
                out.append((NO_TAG, sq))
        return out


class Enrol(Service):
    name = "enrol"

    def __init__(self, app):
        Service.__init__(self, app)
        if app.sensing.registry is None:
            app.sensing.registry = Registry()  # the one registry in use: a `put` may replace it
        self.face = None  # the face the next new tag gets (None: only report tags)
        self.count = 0

    def arm(self, face):
        """The next tag read is enrolled as `face`; RegistryError if it is no face."""
        self.face = None if face is None else face_text(face)
        self.dirty = True

    def body(self):
        lay = self.say("lay_a", self.face) if self.face is not None else self.say("wait_pc")
        return [lay, self.say("enrolled", self.count), self.say("back_stop")]

    def sensed(self, event):
        kind, sq = event[0], event[1]
        ev = self.app.events
        self.dirty = True
        if kind == LIFTED:
            self.marks.pop(sq, None)
            ev.emit("lifted", "square", self.square(sq))
            return
        if kind == STILL:
            return  # the chip there settled again: nothing new
        uid = self.app.sensing.uids.get(sq)
        if kind not in (PLACED, UNKNOWN) or uid is None:
            self.marks[sq] = L.AMBER
            ev.emit(kind, "square", self.square(sq))
            return
        text = uid_hex(uid)
        registry = self.app.sensing.registry
        was = registry.face(text)
        if self.face is None:
            self.marks[sq] = L.GREEN if was is not None else L.MAGENTA
            ev.emit("tag", "square", self.square(sq), "uid", text, "face", was)
            return
        face = self.face
        registry.enrol(text, face)
        self.app.sensing.identified(sq, registry.face(text))
        self.face = None  # one chip per face given: a second chip is never enrolled by mistake
        self.count += 1
        self.marks[sq] = L.GREEN
        self.last = "%s %s" % (self.square(sq), face)
        try:
            save(self.app.hw.fs, registry)
        except OSError as err:
            ev.emit("save_failed", "error", "could not save chips.json (%s)" % err)
            self.last = self.say("save_failed")
        ev.emit("enrolled", "square", self.square(sq), "uid", text, "face", face, "was", was)


def save(fs, registry):
    """Write the registry to chips.json atomically (new file, then rename over). A chips.json
    the board could not read at boot is kept as chips.bad first, not written over: the
    chips enrolled in it can still be mended by hand."""
    from firmware.registry import RegistryError, loads

    old = fs.read("chips.json")
    if old is not None:
        try:
            loads(old)
        except RegistryError:
            fs.rename("chips.json", "chips.bad")
    fs.write("chips.new", registry.to_json().encode())
    fs.rename("chips.new", "chips.json")


class Diag(Service):
    name = "diag"

    def __init__(self, app):
        Service.__init__(self, app)
        self.found = {}  # square -> sensing event kind
        self.waiting = ()  # type: tuple

    def body(self):
        tags = 0
        for kind in self.found.values():
            if kind == PLACED:
                tags += 1
        return [
            self.say("magnets", len(self.found) + len(self.waiting)),
            self.say("chips_known", tags),
            self.say("back_stop"),
        ]

    def poll(self):
        """Squares whose magnet is sensed but not yet settled light at once."""
        waiting = tuple(sorted(self.app.sensing.waiting))
        if waiting != self.waiting:
            for sq in self.waiting:
                if sq not in self.found:
                    self.marks.pop(sq, None)
            for sq in waiting:
                self.marks[sq] = L.WHITE
            self.waiting = waiting
            self.dirty = True

    def sensed(self, event):
        kind, sq = event[0], event[1]
        self.dirty = True
        sensing = self.app.sensing
        uid = sensing.uids.get(sq)
        face = sensing.placed.get(sq)
        if kind == STILL:
            return
        if kind == LIFTED:
            self.found.pop(sq, None)
            self.marks.pop(sq, None)
        else:
            self.found[sq] = kind
            self.marks[sq] = _DIAG_COLOUR[kind] if face is not None or kind != PLACED else L.WHITE
        name = self.square(sq)
        text = None if uid is None or kind == LIFTED else uid_hex(uid)
        self.last = "%s %s" % (name, kind)
        self.app.events.emit("sensor", "square", name, "kind", kind, "uid", text, "face", face)
