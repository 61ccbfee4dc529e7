"""A seeded soak of whole games on the simulated board: noise, power cuts and USB chatter.

`python -m tests.soak --seed 1 --turns 50000` (`make soak`) plays game after game of
Calculissimo and Cal-Q-Able on `SimBoard` (the real firmware on the twins, with the flash on
littlefs, tests/flashsim.py) in virtual time, and counts what went wrong. Everything comes
from one `random.Random(seed)`, so a seed and a turn count replay a run exactly.

The board is driven as players would drive it: chips put down and picked up, the buttons
pressed. A shadow `engine.game.Game` in known-rack mode holds the racks and the bag; it
chooses each turn (engine/autoplay.py's candidates in Calculissimo, short equations built
here in Cal-Q-Able, sometimes an illegal move, a pass, a swap or a rule-5 replacement) and
says what the board should make of it. At the end the leftover chips are laid on the board
or entered with the buttons, the final scores are checked, the archive is read back, and the
board is cleared for the next game. A session is one board with its own settings (game,
players, strict, language, precedence, settle and debounce times, a clock that may wrap);
it plays one to three games, and a fresh session starts after any fault.

Noise, all seeded: magnets that flicker or drop out while the tag stays, a dropout followed
by a failed read, chips slid across squares, laid across two squares, laid on the wrong
square and moved, a tag that misses its first read, corrupt PN532 frames, a reader stuck or
unpowered for a while, power cuts at flash writes (a new board boots on the same flash with
the same chips lying on it and resumes with OK), and USB lines of garbage, malformed JSON
and valid commands. Chip noise stops before OK is pressed (the chips lie still); reader
noise may go on.

Counts (`COUNTS`): turns, games finished, and the faults, each of which must stay 0:
  false_placements  a chip reported with a face that does not lie there, one tag read on
                    two squares, a move or tally entry that is not what was laid or entered
  wrong_scores      a move's score or the totals (also the final ones) differ from the engine
  stuck_turns       with the noise stopped and the chips still, no legal turn accepted within
                    STUCK_MS of virtual time
  freezes           an exception out of App.step or boot (also one App.tick caught and
                    reported), or the board stops emitting (a button held 1 s or a USB
                    line not answered)
  lost_games        after a power cut the board's game is neither the last committed turn
                    nor the one being saved, or a finished game is not in games/NNN.dat
  desyncs           the board's game drifts from the engine's (whose turn, racks, bag,
                    board, an illegal move's codes), or its turn flow breaks the rules
Each fault is also described, the first occurrence of each kind (up to KEEP kinds), with
the command that replays the run up to it. `--only KIND,...` keeps only some noises and
mistakes, `--rate KEY=P` sets any rate, `--trace` prints every action and event.
"""

import argparse
import copy
import heapq
import json
import random
import re
import sys
import time

import engine.calqable  # noqa: F401  (registers the ruleset)
from engine import autoplay, faces, squares
from engine.compat import ticks_diff
from engine.game import Game, chip_key
from engine.move import Move
from engine.profile import Profile
from engine.snapshot import decode
from firmware.archive import Archive
from firmware.referee import face_choices
from firmware.sim.clock import SimClock
from firmware.sim.simboard import SimBoard
from tests.engine.fixtures import profile_data
from tests.flashsim import CutFlash, LfsFS, PowerLost, mount

TURN_EVENTS = ("move", "replace", "illegal", "pass", "swap", "timeout")
COUNTS = (
    "turns",
    "games",
    "false_placements",
    "wrong_scores",
    "stuck_turns",
    "freezes",
    "lost_games",
    "desyncs",
)
FAULTS = COUNTS[2:]
KEEP = 8  # kinds of each fault described
STUCK_MS = 10000  # how long a board with still chips and no noise may take to accept a turn
GAMES = ("calculissimo", "calqable")
# The turn menu with hints on (the default): "hint" before "back" (firmware/referee.py).
MENUS = {
    "calculissimo": ("pass", "swap", "hint", "back"),
    "calqable": ("pass", "swap", "rule5", "hint", "back"),
}

# How often each thing happens: per turn unless said otherwise.
RATES = {
    "illegal": 0.08,  # an illegal move is laid and confirmed first
    "pass": 0.03,
    "swap": 0.04,
    "rule5": 0.15,  # Cal-Q-Able: a rule-5 replacement is looked for
    "long": 0.3,  # Calculissimo: the move is extended along its line (up to 7 chips)
    "best": 0.7,  # the best-scoring move is chosen, else any legal one
    "menu_first": 0.04,  # the menu is opened, then chips laid (which closes it)
    "flicker": 0.08,
    "dropout": 0.08,
    "dropout_misread": 0.02,
    "reader_stuck": 0.04,
    "reader_off": 0.02,
    "corrupt": 0.05,
    "usb": 0.1,
    "cut": 0.03,  # the flash is armed to lose power at one of the next writes
    "cut_end": 0.25,  # the same, as the tally starts (the end's save and the archive)
    # per chip laid
    "slide": 0.06,
    "straddle": 0.01,
    "hesitate": 0.04,
    "misplace": 0.03,
    "tag_miss": 0.01,
    # per leftover chip in the tally
    "ghost": 0.02,  # a face none is left of is entered with the buttons: it must be refused
    "recount": 0.05,  # a counted chip is lifted (or taken back with BACK) and counted again
}
# Noise, and players' mistakes the board must refuse: `rates(noise=False)` leaves only play.
NOISE = (
    "flicker",
    "dropout",
    "dropout_misread",
    "reader_stuck",
    "reader_off",
    "corrupt",
    "usb",
    "cut",
    "cut_end",
    "straddle",
    "tag_miss",
)
MISTAKES = ("illegal", "ghost")


def rates(noise=True, mistakes=True, only=None):
    """RATES, without the noise or the mistakes, or with only the kinds named in `only`."""
    out = dict(RATES)
    for key in NOISE + MISTAKES:
        if (key in NOISE and not noise) or (key in MISTAKES and not mistakes):
            out[key] = 0.0
        if only is not None and key not in only:
            out[key] = 0.0
    return out


_GARBAGE = bytes(b for b in range(256) if b not in (10, 13))
_MALFORMED = (
    b'{"cmd": "state"',
    b'{"cmd": 5}',
    b"[1, 2]",
    b'"hello"',
    b'{"id": 3}',
    b"{cmd: hello}",
    b"\xff\xfe{}",
    b'{"cmd": "hello", "id": }',
    b"null",
    b"",  # an empty line: no reply
)
_COMMANDS = (
    {"cmd": "hello"},
    {"cmd": "state"},
    {"cmd": "ls"},
    {"cmd": "get", "path": "game.dat"},
    {"cmd": "get", "path": "games/001.dat"},
    {"cmd": "get", "path": "../secret"},
    {"cmd": "put"},
    {"cmd": "diag", "on": False},
    {"cmd": "enrol", "stop": True},
    {"cmd": "nope"},
)


class Abandon(Exception):
    """A fault was counted and the session cannot go on: a fresh one starts."""


def fingerprint(game):
    """What must agree between the board's game and the shadow's, field by field."""
    return (
        ("turns", game.turns),
        ("log", bytes(game.log)),
        ("cells", bytes(game.board.cells)),
        ("scores", tuple(game.scores)),
        ("to_move", game.to_move),
        ("idle", game.idle),
        ("over", game.over),
        ("penalties", None if game.penalties is None else tuple(game.penalties)),
        ("racks", tuple(game.rack_count(p) for p in range(game.players))),
        ("bag", game.bag_count()),
    )


def signature(what):
    """A fault's description without its squares, faces and numbers: one per kind of fault."""
    what = re.sub(r"\b[A-O]\d{1,2}(:\S+)?", "SQ", what)
    what = re.sub(r"SQ( SQ)*", "SQ...", what)
    return re.sub(r"\d+", "N", what)


def differences(got, want):
    out = []
    for (key, a), (_, b) in zip(got, want):
        if a != b:
            if key in ("log", "cells"):
                out.append(key)
            else:
                out.append("%s %s, not %s" % (key, a, b))
    return "; ".join(out)


def _calc(a, op, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b and a % b == 0:
        return a // b
    return None


def _forms():
    """Short true equations of single digits, in internal characters: d=d, a op b = r and
    r = a op b. Cal-Q-Able moves are built from these."""
    out = []
    for a in range(10):
        out.append((str(a), "=", str(a)))
        for op in faces.OPERATORS:
            for b in range(10):
                r = _calc(a, op, b)
                if r is None or not 0 <= r <= 9:
                    continue
                out.append((str(a), op, str(b), "=", str(r)))
                out.append((str(r), "=", str(a), op, str(b)))
    return out


FORMS = _forms()
FORMS_WITH = {}  # character -> [(form, position of that character)]
for _form in FORMS:
    for _k, _ch in enumerate(_form):
        FORMS_WITH.setdefault(_ch, []).append((_form, _k))
SIDES = {}  # value -> left sides worth it: (d,) and (a, op, b)
for _form in FORMS:
    if len(_form) == 5 and _form[3] == "=":
        SIDES.setdefault(int(_form[4]), []).append(_form[:3])
for _v in range(10):
    SIDES.setdefault(_v, []).insert(0, (str(_v),))


class Soak:
    """`Soak(seed, turns).run()` plays until `turns` turns are done and returns the counts;
    `notes` then describes the faults, `sessions`, `power_cuts`, `slowest`, `elapsed` and
    `cpu` say how it went. `rates` (see `rates()`) sets how often each thing happens;
    `session` plays only the session of that seed; `trace` (print) is told every action and
    every event line."""

    def __init__(self, seed=1, turns=1000, rates=None, trace=None, session=None):
        self.seed = seed
        self.only_session = session  # play only the session of this seed
        self.turn_limit = turns
        self.rates = dict(RATES if rates is None else rates)
        self.trace = trace
        self.rng = random.Random(seed)
        self.counts = dict.fromkeys(COUNTS, 0)
        self.notes = {k: {} for k in FAULTS}  # kind -> {key: [occurrences, first described]}
        self.profiles = {g: Profile(profile_data(g)) for g in GAMES}
        self.sessions = 0
        self.power_cuts = 0
        self.slowest = (0, "")  # (ms, where) of the longest main-loop step
        self.elapsed = self.cpu = 0.0  # seconds the run took, on the wall and of CPU

    # ----- the run -----------------------------------------------------------------------------

    def run(self):
        """Play until `turns` turns are done; returns the counts."""
        started = time.perf_counter()
        cpu = time.process_time()
        while not self.done():
            self.sessions += 1
            seed = self.rng.getrandbits(32)
            if self.only_session is not None:
                seed = self.only_session
            self.session(seed)
            if self.only_session is not None:
                break
        self.elapsed = time.perf_counter() - started
        self.cpu = time.process_time() - cpu
        return dict(self.counts)

    def done(self):
        return self.counts["turns"] >= self.turn_limit

    def session(self, seed):
        """One board with its own settings, for one to three games (or until a fault)."""
        r = self.r = random.Random(seed)
        self.session_seed = seed
        game = self.game_name = r.choice(GAMES)
        self.profile = self.profiles[game]
        self.menu = MENUS[game]
        self.choices = face_choices(self.profile)[0]  # the faces the tally offers, in order
        self.settings = {
            "game": game,
            "players": r.randint(2, 4),
            "turn_seconds": 0,
            "strict": r.random() < 0.2,
            "language": r.choice(("en", "en", "fr", "pt")),
            "precedence": "mul_first" if r.random() < 0.2 else "standard",
            "settle_ms": r.choice((300, 300, 200, 450)),
            "debounce_scans": r.choice((3, 3, 2, 4)),
            # The supply, from the seed and not from `r` (the sessions stay as they were):
            # stock USB (LEDs off, the board says why), USB at 500 mA, the 4 A barrel supply.
            "current_ma": (250, 500, 3600)[seed % 3],
        }
        self.players = self.settings["players"]
        self.options = {
            "precedence": self.settings["precedence"],
            "strict": self.settings["strict"],
            "turn_seconds": 0,
        }
        self.settle = self.settings["settle_ms"] + 10 * self.settings["debounce_scans"] + 150
        # a clock about to wrap now and then (MicroPython's ticks_ms wraps at 2**30)
        start = (1 << 30) - r.randrange(2000, 200000) if r.random() < 0.3 else r.randrange(1 << 20)
        self.clock = SimClock(start)
        self.ticks = self.clock.ticks_ms()
        self.vt = 0  # virtual ms since the session began (never wraps)
        self.agenda = []  # (vt, seq, kind, fn): noise to apply; kind chip, reader or usb
        self.seq = 0
        self.touched = set()  # squares whose magnet or tag noise changed
        self.tag_miss = {}  # square -> reads that find no tag there
        self.held = {}  # square -> UID of the chip the board says lies there
        self.inbox = []  # events of the action in hand
        self.replies_due = 0
        self.cmd_id = 0
        self.landing = None  # what the action in hand does to the game, if it lands
        self.noise_now = []  # the noise of this turn, for the fault notes
        self.unarchived = None  # a finished game's fingerprint, until found in the archive
        self.end_racks = None  # the leftover faces counted at its end
        self.cuts_this_game = []  # what was being saved at each power cut of this game
        self.flash = CutFlash()
        self.fs = LfsFS(mount(self.flash, fresh=True), self.flash)
        self.shadow = None
        try:
            self.make_board(())
            self.boot()
            self.run_ms(100)
            self.shadow = self.new_shadow()
            self.check_sync("the first game")
            for _ in range(r.randint(1, 3)):
                if not self.play_game():
                    break
            if self.shadow.penalties is not None and self.unarchived is not None:
                self.verify_archive()
        except Abandon:
            pass

    def new_shadow(self):
        seed = self.r.randrange(1, 1 << 31)
        return Game(self.profile, self.players, self.options, seed=seed, first=0)

    def play_game(self):
        """Turns until this game is over and the next one has begun; False when the run's
        turns are done first."""
        while not self.done():
            try:
                sh = self.shadow
                if sh.penalties is not None:
                    self.end_game()
                    return True
                if sh.over:
                    self.tally()
                else:
                    self.turn()
            except PowerLost:
                self.power_cycle()
        return False

    # ----- the board and time ------------------------------------------------------------------

    def make_board(self, lying):
        """A new SimBoard on the session's flash and clock, with `lying` ((square, face, UID))
        chips on it. Its reader's field misses a tag where `tag_miss` says so."""
        b = SimBoard(self.profile, self.settings, fs=self.fs, clock=self.clock, out=[])
        self.board = b
        self.face_of = {}
        for face, uids in b.tags.items():
            for uid in uids:
                self.face_of[uid] = face
        field = b.field.field

        def missing_field():
            sq = b.field.selected()
            if self.tag_miss.get(sq):
                self.tag_miss[sq] -= 1
                return None
            return field()

        b.nfc.field = missing_field  # the twin's antenna coupling, not the firmware
        for sq, face, uid in lying:
            b.tags[face].remove(uid)
            b.put(sq, face, uid)
        self.held = {}
        self._sync()

    def ref(self):
        return self.board.app.referee

    def boot(self):
        try:
            self.board.boot()
        except Exception as exc:  # noqa: BLE001  (any exception is the fault counted)
            self.fault("freezes", "boot raised %s: %s" % (type(exc).__name__, exc))
        self._sync()
        self._events()

    def _sync(self):
        now = self.clock.ticks_ms()
        self.vt += ticks_diff(now, self.ticks)
        self.ticks = now

    def run_ms(self, ms, until=None):
        """Run the main loop for `ms` of virtual time, applying the noise due. With `until`
        (event kinds), stop at the first such event and return it."""
        board = self.board
        clock = self.clock
        lines = board.lines
        inbox = self.inbox
        end = self.vt + ms
        mark = len(inbox)
        while self.vt < end:
            agenda = self.agenda
            while agenda and agenda[0][0] <= self.vt:
                heapq.heappop(agenda)[3]()
            app = board.app
            faults = getattr(app, "fault_count", 0)
            try:
                # the main loop's own call: the supervised tick where the firmware has one
                app.tick() if hasattr(app, "tick") else app.step()
            except Exception as exc:  # noqa: BLE001  (any exception is the fault counted)
                self.fault("freezes", "App.step raised %s: %s" % (type(exc).__name__, exc))
            if getattr(app, "fault_count", 0) != faults:
                exc = app.last_fault
                self.fault(
                    "freezes",
                    "App.step raised %s: %s (caught by App.tick)" % (type(exc).__name__, exc),
                )
            if not app.running:
                board.restart()  # only the PC's restart command stops a loop without a fault
            clock.advance(app.period_ms)
            now = clock.ticks_ms()
            dt = ticks_diff(now, self.ticks)
            if dt - app.period_ms > self.slowest[0]:  # the step's own time: reader waits
                self.slowest = (dt - app.period_ms, self.where())
            self.vt += dt
            self.ticks = now
            if lines:
                self._events()
                if until is not None:
                    ev = self.find(until, mark)
                    if ev is not None:
                        return ev
                    mark = len(inbox)
        return None

    def find(self, kinds, mark=0):
        for k in range(mark, len(self.inbox)):
            if self.inbox[k]["ev"] in kinds:
                return self.inbox[k]
        return None

    def at(self, delay, kind, fn):
        self.seq += 1
        heapq.heappush(self.agenda, (self.vt + delay, self.seq, kind, fn))

    def _events(self):
        lines = self.board.lines
        for line in lines:
            ev = json.loads(line)
            kind = ev["ev"]
            if self.trace:
                self.trace("  " + line.rstrip("\n"))
            if kind == "placed":
                self._placed(ev)
            elif kind == "lifted":
                self.held.pop(self.index(ev["square"]), None)
            elif kind == "reply":
                self.replies_due -= 1
            self.inbox.append(ev)
        del lines[:]

    def index(self, name):
        return squares.parse(name, self.profile.width, self.profile.height)

    def name(self, sq):
        return squares.name(sq, self.profile.width)

    def _placed(self, ev):
        """A chip reported: its face must be the one whose tag lies there now, and no other
        square the board holds may have been read from that same tag."""
        sq = self.index(ev["square"])
        uid = self.board.field.tags.get(sq)
        face = self.face_of.get(uid) if uid is not None else None
        if ev["face"] != face:
            self.fault(
                "false_placements",
                "placed %s %s, but %s lies there" % (ev["square"], ev["face"], face or "no chip"),
                key="a chip reported with a face that does not lie there",
            )
        for other, held in self.held.items():
            if held == uid and other != sq:
                self.fault(
                    "false_placements",
                    "one tag read on two squares: %s %s while the board still holds it on %s"
                    % (ev["square"], face, self.name(other)),
                    key="one tag read on two squares",
                )
        self.held[sq] = uid

    def fault(self, kind, what, abandon=True, key=None):
        """Count a fault; describe the first occurrence of each kind of it (`key`, by default
        `what` without its squares and numbers). Unless `abandon` is false, the session ends."""
        self.counts[kind] += 1
        key = signature(key or what)
        notes = self.notes[kind]
        if key in notes:
            notes[key][0] += 1
        elif len(notes) >= KEEP:
            notes.setdefault("(other kinds)", [0, "not described"])[0] += 1
        else:
            turn = self.counts["turns"] + 1
            noise = ", ".join(self.noise_now) if self.noise_now else "none"
            session = "python -m tests.soak --session %d%s" % (
                self.session_seed,
                self.options_text(),
            )
            where = self.where()
            if self.only_session is None:
                replay = "python -m tests.soak --seed %d --turns %d%s; its session alone: %s" % (
                    self.seed,
                    turn,
                    self.options_text(),
                    session,
                )
            else:
                replay = session
            notes[key] = [
                1,
                "%s (%s, %d players%s; noise this turn: %s): %s  [%s]"
                % (
                    where,
                    self.game_name,
                    self.players,
                    ", strict" if self.settings["strict"] else "",
                    noise,
                    what,
                    replay,
                ),
            ]
        if self.trace:
            self.trace("FAULT %s: %s" % (kind, what))
        if abandon:
            raise Abandon(kind)

    def where(self):
        """The turn in hand, as the notes name it."""
        turn = self.counts["turns"] + 1
        if self.only_session is None:
            return "seed %d turn %d" % (self.seed, turn)
        return "session %d turn %d" % (self.session_seed, turn)

    def options_text(self):
        """The command-line options giving this run's rates."""
        out = []
        for key in sorted(self.rates):
            if self.rates[key] != RATES[key]:
                out.append(" --rate %s=%g" % (key, self.rates[key]))
        return "".join(out)

    def say(self, text):
        if self.trace:
            self.trace("%8d %s" % (self.vt, text))

    # ----- the world acting on the board -------------------------------------------------------

    def press(self, name):
        pin = self.board.pins[name]
        mark = len(self.inbox)
        pin.drive(0)
        # held until the board reacts (a player presses again when nothing happens)
        got = self.run_ms(1000, until=("button",))
        pin.drive(1)
        self.run_ms(30)
        if got is None and self.find(("button",), mark) is None:
            self.fault("freezes", "the %s button held for 1 s was not reported" % name)

    def put(self, sq, face, uid=None):
        self.board.put(sq, face, uid)

    def take(self, sq):
        self.board.take(sq)

    def empty(self, sq, avoid=()):
        return (
            0 <= sq < len(self.shadow.board.cells)
            and sq not in self.board.on_board
            and (sq not in avoid)
        )

    def neighbours(self, sq):
        w, h = self.profile.width, self.profile.height
        out = []
        if sq % w:
            out.append(sq - 1)
        if sq % w < w - 1:
            out.append(sq + 1)
        if sq >= w:
            out.append(sq - w)
        if sq < w * (h - 1):
            out.append(sq + w)
        return out

    def free_square(self, avoid=()):
        """An empty square (no chip, none committed), chosen at random; None if none."""
        cells = self.shadow.board.cells
        for _ in range(50):
            sq = self.r.randrange(len(cells))
            if not cells[sq] and self.empty(sq, avoid):
                return sq
        return None

    def strays(self):
        """Squares with a chip lying on them that is not a committed chip."""
        cells = self.shadow.board.cells
        return [sq for sq in sorted(self.board.on_board) if not cells[sq]]

    def lift_strays(self):
        strays = self.strays()
        self.r.shuffle(strays)
        for sq in strays:
            self.take(sq)
            self.run_ms(self.r.randrange(20, 150))
        if strays:
            self.run_ms(self.settle)

    def lay(self, placements):
        """Lay a move's chips as a player would, in any order, some slid, hesitated over or
        put on the wrong square first; chips of this turn not in it are lifted first."""
        want = dict(placements)
        on = self.board.on_board
        for sq in self.strays():
            code = want.get(sq)
            if code is None or code & faces.JOKER_BIT or on[sq][0] != faces.cell_text(code):
                self.take(sq)
                self.run_ms(self.r.randrange(20, 150))
            else:
                del want[sq]  # it lies there already
        order = sorted(want.items())
        self.r.shuffle(order)
        targets = set(want)
        for sq, code in order:
            face = "?" if code & faces.JOKER_BIT else faces.cell_text(code)
            self.lay_one(sq, face, targets)

    def lay_one(self, sq, face, targets):
        r = self.r
        rates = self.rates
        if r.random() < rates["tag_miss"]:
            self.tag_miss[sq] = 1
            self.noise("tag miss " + self.name(sq))
        x = r.random()
        avoid = targets | {sq}
        if x < rates["slide"]:
            self.slide(sq, face, avoid)
        elif x < rates["slide"] + rates["straddle"]:
            self.straddle(sq, face, avoid)
        elif x < rates["slide"] + rates["straddle"] + rates["hesitate"]:
            self.put(sq, face)
            self.run_ms(r.randrange(20, self.settings["settle_ms"] - 60))
            self.take(sq)
            self.run_ms(r.randrange(20, 120))
            self.put(sq, face)
        elif x < rates["slide"] + rates["straddle"] + rates["hesitate"] + rates["misplace"]:
            wrong = self.free_square(avoid)
            if wrong is not None:
                self.put(wrong, face)
                self.run_ms(self.settle + r.randrange(0, 200))
                self.take(wrong)
                self.run_ms(r.randrange(30, 200))
            self.put(sq, face)
        else:
            self.put(sq, face)
        if r.random() < 0.5:
            self.run_ms(r.randrange(20, 150))  # the next chip comes before this one settles
        else:
            self.run_ms(self.settings["settle_ms"] + r.randrange(50, 300))

    def slide(self, sq, face, avoid):
        """The chip is slid in over one to three empty squares, quicker than it settles."""
        b = self.board
        path = []
        cur = sq
        for _ in range(self.r.randint(1, 3)):
            steps = [n for n in self.neighbours(cur) if self.empty(n, avoid) and n not in path]
            if not steps:
                break
            cur = self.r.choice(steps)
            path.append(cur)
        path.reverse()
        uid = b.tags[face].pop()
        per = self.r.randrange(20, self.settings["settle_ms"] - 100)
        for s in path:
            b.chain.set(s, True)
            b.field.tags[s] = uid
            self.touched.add(s)
            self.run_ms(per)
            b.chain.set(s, False)
            b.field.tags.pop(s, None)
        self.put(sq, face, uid)

    def straddle(self, sq, face, avoid):
        """The chip lies across two squares for a while (both magnets, one tag coupled to both
        antennas), then is pushed onto its own."""
        b = self.board
        steps = [n for n in self.neighbours(sq) if self.empty(n, avoid)]
        if not steps:
            self.put(sq, face)
            return
        other = self.r.choice(steps)
        self.noise("straddle %s/%s" % (self.name(sq), self.name(other)))
        uid = b.tags[face].pop()
        for s in (sq, other):
            b.chain.set(s, True)
            b.field.tags[s] = uid
            self.touched.add(s)
        self.run_ms(self.settings["settle_ms"] + self.r.randrange(50, 300))
        b.chain.set(other, False)
        b.field.tags.pop(other, None)
        self.put(sq, face, uid)

    # ----- noise -------------------------------------------------------------------------------

    def noise(self, what):
        self.noise_now.append(what)
        self.say("noise: " + what)

    def plan_noise(self):
        """This turn's noise, at random times over the next second and a half."""
        r = self.r
        rates = self.rates
        b = self.board
        nfc = b.nfc
        if r.random() < rates["flicker"]:
            chips = sorted(b.on_board)
            spots = set(r.sample(chips, min(len(chips), 6)))
            spots.update(r.randrange(len(self.shadow.board.cells)) for _ in range(3))
            p = r.uniform(0.05, 0.4)
            flips = random.Random(r.getrandbits(32))
            b.chain.noise = lambda sq: sq in spots and flips.random() < p
            self.noise("flicker %.2f" % p)
        if r.random() < rates["dropout"]:
            for _ in range(r.randint(1, 3)):
                self.at(r.randrange(0, 1500), "chip", self.dropout)
        if r.random() < rates["dropout_misread"]:
            self.at(r.randrange(0, 800), "chip", lambda: self.dropout(misread=True))
        if r.random() < rates["reader_stuck"]:
            t = r.randrange(0, 1500)
            ms = r.randrange(200, 2500)
            self.at(t, "reader", lambda: setattr(nfc, "stuck", True))
            self.at(t + ms, "reader", lambda: setattr(nfc, "stuck", False))
            self.noise("reader stuck %d ms" % ms)
        if r.random() < rates["reader_off"]:
            t = r.randrange(0, 1500)
            ms = r.randrange(100, 1500)
            self.at(t, "reader", lambda: setattr(nfc, "powered", False))
            self.at(t + ms, "reader", lambda: setattr(nfc, "powered", True))
            self.noise("reader unpowered %d ms" % ms)
        if r.random() < rates["corrupt"]:
            for _ in range(r.randint(1, 3)):
                self.at(r.randrange(0, 1500), "reader", lambda: setattr(nfc, "corrupt_next", True))
            self.noise("corrupt frames")
        if r.random() < rates["usb"]:
            for _ in range(r.randint(1, 3)):
                self.at(r.randrange(0, 1500), "usb", self.usb_line)
            self.noise("usb lines")

    def dropout(self, misread=False):
        """A chip's magnet is lost for a moment while its tag stays; with `misread`, the
        read when the magnet is back fails (the reader is stuck just then)."""
        b = self.board
        if not b.on_board:
            return
        r = self.r
        sq = r.choice(sorted(b.on_board))
        ms = r.randrange(60, 200) if misread else r.randrange(20, 400)
        self.noise(
            "%s %s %d ms" % ("dropout+misread" if misread else "dropout", self.name(sq), ms)
        )
        b.chain.set(sq, False)
        self.touched.add(sq)

        def back():
            self.restore(sq)
            if misread:  # the read after settling again
                nfc = self.board.nfc
                t = self.settle - 190
                self.at(t, "reader", lambda: setattr(nfc, "stuck", True))
                self.at(t + 200, "reader", lambda: setattr(nfc, "stuck", False))

        self.at(ms, "chip", back)

    def restore(self, sq):
        """The square's magnet and tag as its chip truly lies."""
        b = self.board
        chip = b.on_board.get(sq)
        b.chain.set(sq, chip is not None)
        if chip is None:
            b.field.tags.pop(sq, None)
        else:
            b.field.tags[sq] = chip[1]

    def still(self):
        """The chips lie still: chip noise ends (the reader's may go on)."""
        if any(e[2] == "chip" for e in self.agenda):
            self.agenda = [e for e in self.agenda if e[2] != "chip"]
            heapq.heapify(self.agenda)
        self.board.chain.noise = None
        self.tag_miss.clear()
        for sq in sorted(self.touched):
            self.restore(sq)
        self.touched.clear()

    def quiet(self):
        """All noise ends."""
        self.still()
        self.agenda = [e for e in self.agenda if e[2] == "usb"]
        nfc = self.board.nfc
        nfc.stuck = False
        nfc.corrupt_next = False
        nfc.powered = True

    def usb_line(self):
        """A line from the PC: garbage, an overlong line, malformed JSON or a command. Each
        line but an empty one must be answered."""
        r = self.r
        x = r.random()
        if x < 0.25:
            data = bytes(r.choice(_GARBAGE) for _ in range(r.randint(1, 80)))
        elif x < 0.32:
            data = b"x" * r.randint(1025, 1600)
        elif x < 0.5:
            data = r.choice(_MALFORMED)
        else:
            self.cmd_id += 1
            msg = dict(r.choice(_COMMANDS))
            msg["id"] = self.cmd_id
            data = json.dumps(msg).encode()
        if data:
            self.replies_due += 1
        self.board.usb_in += data + r.choice((b"\n", b"\r\n", b"\r"))

    def check_usb(self):
        if self.replies_due > 0:
            self.run_ms(200)
            if self.replies_due > 0:
                self.fault("freezes", "%d USB lines never answered" % self.replies_due)
        self.replies_due = 0

    # ----- a turn ------------------------------------------------------------------------------

    def turn(self):
        r = self.r
        self.inbox = []
        self.noise_now = []
        if r.random() < self.rates["cut"]:
            self.arm_cut()
        self.plan_noise()
        sh = self.shadow
        ended = False
        if r.random() < self.rates["illegal"]:
            ended = self.illegal()
        if not ended:
            kind, what = self.choose()
            self.say("P%d %s %s" % (sh.to_move + 1, kind, what if what is not None else ""))
            if kind == "move":
                self.make_move(what)
            elif kind == "replace":
                self.make_replace(*what)
            elif kind == "swap":
                self.menu_turn("swap", what)
            else:
                self.menu_turn("pass")
        self.quiet()
        self.check_usb()
        self.counts["turns"] += 1

    def arm_cut(self):
        k = self.r.randint(1, 12)
        self.flash.arm(k)
        self.noise("power cut at write %d from now" % k)

    def settled(self):
        """Chip noise stops; wait until every chip has settled and been read."""
        self.still()
        self.run_ms(self.settle)

    def make_move(self, move):
        r = self.r
        if r.random() < self.rates["menu_first"] and not self.strays():
            self.noise("menu opened before laying")
            self.press("back")  # the menu opens; laying a chip closes it
        self.lay(move.placements)
        self.settled()
        jokers = self.jokers(move)
        self.answer_picks(jokers)
        before = self.shadow

        def landing(g):
            g.push(move)
            return g

        verdict = before.check(move)
        ev = self.commit(("move", "illegal", "replace"), landing, jokers, "move %s" % move)
        if ev["move"] != str(move):
            self.fault(
                "false_placements",
                "the board judged %s, but %s was laid" % (ev["move"], move),
                key="the board judged other chips than were laid",
            )
        if ev["ev"] != "move":
            self.fault(
                "desyncs", "the board answered %s to %s, a legal move" % (ev["ev"], ev["move"])
            )
        self.check_committed(ev, move, verdict)

    def check_committed(self, ev, move, verdict):
        if ev["move"] != str(move):
            self.fault(
                "false_placements",
                "the board committed %s, but %s was laid" % (ev["move"], move),
            )
        if ev["score"] != verdict.score:
            self.fault(
                "wrong_scores",
                "%s scored %d on the board, %d by the engine" % (move, ev["score"], verdict.score),
            )
        if ev["ev"] == "replace":
            self.shadow.replace(move)
        else:
            self.shadow.push(move)
        self.landing = None
        if ev["totals"] != self.shadow.totals():
            self.fault(
                "wrong_scores",
                "totals %s on the board, %s by the engine" % (ev["totals"], self.shadow.totals()),
            )
        self.check_sync("after " + str(move))

    def jokers(self, move):
        return {sq: chr(code & faces.FACE_MASK) for sq, code in move if code & faces.JOKER_BIT}

    def answer_picks(self, jokers):
        """Choose each joker's value when the board asks for it."""
        for _ in range(12):
            ref = self.ref()
            if ref.mode != "pick" or ref.picking is None:
                return
            sq, k, choices, _ = ref.picking
            want = jokers.get(sq)
            if want is None or want not in choices:
                self.fault(
                    "false_placements",
                    "the board asks what the chip on %s stands for, and no joker lies there"
                    % self.name(sq),
                )
            n = len(choices)
            d = (choices.index(want) - k) % n
            for button in ["right"] * d if d <= n - d else ["left"] * (n - d):
                self.press(button)
            self.press("ok")

    def commit(self, kinds, landing, jokers, what):
        """Press OK until the board answers with an event of `kinds`; returns it. An impatient
        player presses at once, whatever the display says; then, or at once for a patient
        one, the noise stops and OK is pressed whenever the board shows nothing to mend, for
        up to STUCK_MS: past that, a stuck turn."""
        self.landing = (landing, what)
        if self.ready(jokers) and self.r.random() < 0.5:
            ev = self.ok_for(kinds, what, jokers)
            if ev is not None:
                return ev
        self.quiet()
        deadline = self.vt + STUCK_MS
        while self.vt < deadline:
            self.answer_picks(jokers)
            ref = self.ref()
            if ref.mode in ("menu", "swap"):
                self.press("back")
                continue
            waiting = ref.mode != "play" or not ref.game.pending or ref.blocked() is not None
            if not waiting and self.ready(jokers):
                ev = self.ok_for(kinds, what, jokers)
                if ev is not None:
                    return ev
            self.run_ms(400)
        ref = self.ref()
        blocked = ref.blocked()
        self.fault(
            "stuck_turns",
            "%s not accepted in %d s with the chips still and no noise (mode %s, blocked by "
            "%s, says %r)" % (what, STUCK_MS // 1000, ref.mode, blocked, ref.message),
            key="%s not accepted, mode %s, blocked by %s"
            % (
                what.split(":")[0].rsplit(" ", 1)[0],
                ref.mode,
                blocked[0] if blocked else "nothing",
            ),
        )
        return None

    def ready(self, jokers):
        """Would a player press OK now? Not while a joker is still unread: its question
        would come just as OK is pressed, and OK would answer it."""
        return all(sq in self.held for sq in jokers)

    def ok_for(self, kinds, what, jokers=None, ms=100):
        """Press OK for `what`, expecting a turn event of `kinds` (or none yet)."""
        if jokers is not None:
            self.answer_picks(jokers)
        mode = self.ref().mode
        mark = len(self.inbox)
        self.press("ok")
        ev = self.find(TURN_EVENTS, mark) or self.run_ms(ms, until=TURN_EVENTS)
        if ev is not None and ev["ev"] not in kinds:
            self.fault(
                "desyncs",
                "OK pressed (mode %s) to confirm %s, and the board answered with %s"
                % (mode, what, json.dumps(ev, ensure_ascii=False)),
                key="OK for a %s in mode %s gave a %s" % (what.split()[0], mode, ev["ev"]),
            )
        return ev

    def check_sync(self, when):
        got = fingerprint(self.ref().game)
        want = fingerprint(self.shadow)
        if got != want:
            self.fault(
                "desyncs", "%s the board's game differs: %s" % (when, differences(got, want))
            )

    # ----- choosing a turn ----------------------------------------------------------------------

    def choose(self):
        """("move", Move), ("replace", (Move, removed)), ("swap", faces) or ("pass", None)."""
        r = self.r
        sh = self.shadow
        if r.random() < self.rates["pass"]:
            return "pass", None
        if sh.can_swap() and r.random() < self.rates["swap"]:
            return "swap", self.swap_faces()
        if self.game_name == "calqable" and r.random() < self.rates["rule5"]:
            found = self.replacements()
            if found:
                return "replace", r.choice(found)
        legal = self.legal_moves()
        if legal:
            if r.random() < self.rates["best"]:
                move = max(legal, key=lambda mv: mv[1])[0]  # the first of the best
            else:
                move = r.choice(legal)[0]
            if self.game_name == "calculissimo" and r.random() < self.rates["long"]:
                move = self.extend(move)
            return "move", move
        if sh.can_swap():
            return "swap", self.swap_faces()
        return "pass", None

    def swap_faces(self):
        rack = list(self.shadow.racks[self.shadow.to_move])
        if self.shadow.rules.whole_swap:
            return rack  # Cal-Q-Able rule 4: all of it
        return self.r.sample(rack, self.r.randint(1, len(rack)))

    def legal_moves(self):
        """[(move, score)] of the legal candidates looked at."""
        sh = self.shadow
        if self.game_name == "calqable":
            cands = self.equations()
        else:
            cands = list(autoplay.candidates(sh))
        seen = set()
        out = []
        for move in cands:
            if move in seen:
                continue
            seen.add(move)
            v = sh.check(move)
            if v.legal:
                out.append((move, v.score))
        return out

    def equations(self, budget=250):
        """Cal-Q-Able candidates: short equations through the start square, or through a tile
        already on the board."""
        sh = self.shadow
        w = self.profile.width
        size = len(sh.board.cells)
        cells = sh.board.cells
        have = {}
        for ch in sh.racks[sh.to_move]:
            have[ch] = have.get(ch, 0) + 1
        have["="] = sh.unseen.get("=", 0)

        def fits(form, skip):
            need = {}
            for k, ch in enumerate(form):
                if k != skip:
                    need[ch] = need.get(ch, 0) + 1
            return all(have.get(ch, 0) >= n for ch, n in need.items())

        def place(form, anchor, k, step):
            first = anchor - k * step
            last = first + (len(form) - 1) * step
            if first < 0 or last >= size or step == 1 and first // w != last // w:
                return None
            before, after = first - step, last + step
            for s in (before, after):  # the equation must not run on into other tiles
                if 0 <= s < size and (step != 1 or s // w == first // w) and cells[s]:
                    return None
            out = []
            for j, ch in enumerate(form):
                sq = first + j * step
                if cells[sq]:
                    if sq != anchor:
                        return None
                    continue
                out.append((sq, faces.cell_code(ch)))
            return Move(out, w)

        cands = []
        if sh.is_first_move():
            for form in FORMS:
                if fits(form, None):
                    for step in (1, w):
                        for k in range(len(form)):
                            move = place(form, self.profile.start, k, step)
                            if move is not None:
                                cands.append(move)
        else:
            anchors = [i for i in range(size) if cells[i]]
            for i in self.r.sample(anchors, min(len(anchors), 12)):
                ch = chr(cells[i] & faces.FACE_MASK)
                for form, k in FORMS_WITH.get(ch, ()):
                    if fits(form, k):
                        for step in (1, w):
                            move = place(form, i, k, step)
                            if move is not None and len(move):
                                cands.append(move)
        self.r.shuffle(cands)
        return cands[:budget]

    def replacements(self):
        """Cal-Q-Able rule-5 turns the rack allows: [(move, tiles taken away)]."""
        sh = self.shadow
        w = self.profile.width
        cells = sh.board.cells
        size = len(cells)
        rack = sh.racks[sh.to_move]
        out = []

        def in_line(j, e, step):
            return 0 <= j < size and (step != 1 or j // w == e // w)

        for e in range(size):
            if cells[e] != ord("="):
                continue
            for step in (1, w):
                if not in_line(e - step, e, step) or not cells[e - step]:
                    continue
                right = []
                j = e + step
                while in_line(j, e, step) and cells[j]:
                    right.append(chr(cells[j] & faces.FACE_MASK))
                    j += step
                if len(right) != 1 or not faces.is_digit(right[0]):
                    continue
                for side in SIDES[int(right[0])]:
                    left = list(rack)
                    try:
                        for ch in side:
                            left.remove(ch)
                    except ValueError:
                        continue
                    first = e - len(side) * step
                    if not in_line(first, e, step):
                        continue
                    move = Move(
                        [(first + t * step, faces.cell_code(ch)) for t, ch in enumerate(side)], w
                    )
                    verdict, removed = sh.check_replace(move)
                    if verdict.legal:
                        out.append((move, removed))
        return out

    def extend(self, move):
        """Calculissimo: the move grown along its line by an operator and a number at a time,
        while it stays legal (up to 7 chips: a bonus turn)."""
        sh = self.shadow
        w = self.profile.width
        size = len(sh.board.cells)
        left = list(sh.racks[sh.to_move])
        for _, code in move:
            left.remove(chip_key(code))
        placed = list(move.placements)
        idx = sorted(sq for sq, _ in placed)
        if len(idx) < 2:
            return move
        step = idx[1] - idx[0]
        if step not in (1, w):
            return move
        nums = sorted({ch for ch in left if faces.is_digit(ch)})
        ops = sorted({ch for ch in left if ch in faces.OPERATORS})
        while len(placed) <= 5:
            cells = sh.board.cells
            sqs = [sq for sq, _ in placed]
            lo, hi = min(sqs), max(sqs)
            while lo - step >= 0 and cells[lo - step]:
                lo -= step
            while hi + step < size and cells[hi + step]:
                hi += step
            tries = []
            for a, b in ((hi + step, hi + 2 * step), (lo - step, lo - 2 * step)):
                in_line = 0 <= b < size and (step != 1 or a // w == b // w == lo // w)
                if in_line and not cells[a] and not cells[b]:
                    tries.extend((a, b, op, n) for op in ops for n in nums)
            self.r.shuffle(tries)
            for a, b, op, n in tries[:60]:
                bigger = Move(placed + [(a, ord(op)), (b, ord(n))], w)
                if sh.check(bigger).legal:
                    placed = list(bigger.placements)
                    left.remove(op)
                    left.remove(n)
                    nums = sorted({ch for ch in left if faces.is_digit(ch)})
                    ops = sorted({ch for ch in left if ch in faces.OPERATORS})
                    break
            else:
                break
        return Move(placed, w)

    def illegal_move(self):
        """Rack chips on empty squares that the engine refuses for their shape or arithmetic
        (never for the rack: the board cannot see racks). None if none was found."""
        sh = self.shadow
        r = self.r
        cells = sh.board.cells
        size = len(cells)
        w = self.profile.width
        rack = [ch for ch in sh.racks[sh.to_move] if ch != faces.JOKER]
        if not rack:
            return None
        anchors = [i for i in range(size) if cells[i]] or [self.profile.start]
        for _ in range(20):
            centre = r.choice(anchors)
            spots = set()
            for _ in range(r.randint(1, min(3, len(rack)))):
                sq = centre + r.randint(-3, 3) + w * r.randint(-3, 3) * (r.random() < 0.5)
                if 0 <= sq < size and not cells[sq]:
                    spots.add(sq)
            if not spots:
                continue
            chips = r.sample(rack, len(spots))
            move = Move([(sq, ord(ch)) for sq, ch in zip(sorted(spots), chips)], w)
            v = sh.check(move)
            codes = set(v.codes())
            if v.legal or codes & {"not_on_rack", "too_many_chips", "chip_unavailable"}:
                continue
            return move
        return None

    # ----- turns without a legal move -----------------------------------------------------------

    def illegal(self):
        """An illegal move laid and confirmed; True if that ended the turn (strict mode)."""
        move = self.illegal_move()
        if move is None:
            return False
        sh = self.shadow
        self.say("P%d illegal %s" % (sh.to_move + 1, move))
        self.lay(move.placements)
        self.settled()
        verdict = sh.check(move)

        def landing(g):
            g.play(move)
            return g

        ev = self.commit(("illegal", "move", "replace"), landing, {}, "illegal move %s" % move)
        if ev["move"] != str(move):
            self.fault(
                "false_placements", "the board judged %s, but %s was laid" % (ev["move"], move)
            )
        if ev["ev"] != "illegal":
            self.fault("desyncs", "the board took %s, which the engine refuses" % move)
        if sorted(ev["codes"]) != sorted(verdict.codes()):
            self.fault(
                "desyncs",
                "%s refused for %s on the board, %s by the engine"
                % (move, ev["codes"], verdict.codes()),
            )
        p = sh.to_move
        sh.play(move, verdict)
        self.landing = None
        lost = sh.to_move != p or sh.over
        mode = self.ref().mode
        want = ("tally" if sh.over else "take_back") if lost else "play"
        if mode != want:
            self.fault(
                "desyncs",
                "an illegal move %s%s leaves the board in mode %s, not %s (%s)"
                % (
                    move,
                    " after a pass or swap" if sh.idle and not lost else "",
                    mode,
                    want,
                    "strict: the turn is lost" if lost else "the rules keep the turn",
                ),
                abandon=mode != "take_back",
            )
        self.check_sync("after the illegal move %s" % move)
        if (lost or mode == "take_back" or self.r.random() < 0.5) and not sh.over:
            self.lift_strays()
        return lost

    def menu_turn(self, item, chips=None):
        """A pass or a swap through the menu."""
        r = self.r
        self.lift_strays()
        self.settled()
        self.open_menu()
        menu = self.menu
        n = len(menu)
        at = 0  # the menu opens on its first item (README)
        if r.random() < 0.2:  # look around the menu first
            for _ in range(r.randint(1, 4)):
                button = r.choice(("left", "right"))
                self.press(button)
                at = (at + (1 if button == "right" else -1)) % n
        d = (menu.index(item) - at) % n
        for button in ["right"] * d if d <= n - d else ["left"] * (n - d):
            self.press(button)
        sh = self.shadow
        if item == "pass":

            def landing(g):
                g.pass_turn()
                return g

            self.landing = (landing, "a pass")
            ev = self.ok_for(("pass",), "a pass")
            if ev is None:
                self.fault("stuck_turns", "a pass not accepted (says %r)" % self.ref().message)
            sh.pass_turn()
        else:
            self.press("ok")
            if self.ref().mode != "swap":
                self.fault(
                    "stuck_turns",
                    "Swap chosen with %d in the bag, but mode %s (says %r)"
                    % (sh.bag_count(), self.ref().mode, self.ref().message),
                )
            count = len(chips)
            fewest, most = sh.swap_range()  # the menu offers these counts, from the fewest
            right = count - fewest
            left = (most - count + 1) % (most - fewest + 1)
            for button in ["right"] * right if right <= left else ["left"] * left:
                self.press(button)

            def landing(g):
                g.swap(chips)
                return g

            self.landing = (landing, "a swap")
            ev = self.ok_for(("swap",), "a swap")
            if ev is None:
                self.fault("stuck_turns", "a swap not accepted (says %r)" % self.ref().message)
            if ev["count"] != count:
                self.fault("desyncs", "swapped %d chips, not %d" % (ev["count"], count))
            sh.swap(chips)
        self.landing = None
        self.check_sync("after a " + item)

    def open_menu(self):
        """The turn menu, by OK or BACK with nothing laid."""
        deadline = self.vt + STUCK_MS
        if self.ref().mode == "menu":
            self.press("back")  # open already (on some item): closed, to open on the first
        while self.vt < deadline:
            self.press(self.r.choice(("ok", "back")))
            if self.ref().mode == "menu":
                return
            self.quiet()
            if self.ref().mode != "play":
                self.press("back")
            self.run_ms(400)
        ref = self.ref()
        self.fault(
            "stuck_turns", "the menu never opened (mode %s, says %r)" % (ref.mode, ref.message)
        )

    def make_replace(self, move, removed):
        """Cal-Q-Able rule 5: the menu's Rule 5, the left side lifted, the new one laid."""
        self.lift_strays()
        self.settled()
        self.open_menu()
        for _ in range(self.menu.index("rule5")):
            self.press("right")
        self.press("ok")
        r = self.r
        for sq, _ in sorted(removed.placements):
            self.take(sq)
            self.run_ms(r.randrange(50, 300))
        for sq, code in move:
            self.put(sq, faces.cell_text(code))
            self.run_ms(r.randrange(50, self.settle))
        self.settled()
        verdict, _ = self.shadow.check_replace(move)

        def landing(g):
            g.replace(move)
            return g

        ev = self.commit(("replace", "move", "illegal"), landing, {}, "rule 5 %s" % move)
        if ev["ev"] != "replace":
            self.fault("desyncs", "the board answered %s to the rule-5 turn %s" % (ev["ev"], move))
        self.check_committed(ev, move, verdict)

    # ----- the end -----------------------------------------------------------------------------

    def tally(self):
        """Each player's leftover chips laid on the board or entered with the buttons, then
        OK for the final scores."""
        r = self.r
        self.inbox = []
        self.noise_now = []
        self.quiet()
        ref = self.ref()
        if ref.mode != "tally":
            self.fault("desyncs", "the game is over, but the board is in mode %s" % ref.mode)
        self.lift_strays()  # chips of a turn lost at the end: counted again below
        if r.random() < self.rates["cut_end"]:
            self.arm_cut()
        sh = self.shadow
        racks = [[faces.text(ch) for ch in sh.racks[p]] for p in range(sh.players)]
        self.counted = {}  # chip key -> counted in this tally
        for p in range(sh.players):
            chips = list(racks[p])
            r.shuffle(chips)
            for face in chips:
                if r.random() < self.rates["ghost"]:
                    self.ghost()
                if r.random() < 0.5:
                    self.tally_lay(p, face)
                else:
                    self.tally_enter(p, face)
        if not ref.tally.done():
            self.fault("desyncs", "every chip counted, but the board waits for more")

        def landing(g):
            g.finish(racks)
            return g

        self.landing = (landing, "the final scores")
        self.end_racks = racks
        mark = len(self.inbox)
        self.press("ok")
        ev = self.find(("game_over",), mark) or self.run_ms(200, until=("game_over",))
        if ev is None:
            self.fault("stuck_turns", "OK with all counted gave no final scores")
        penalties = sh.finish(racks)
        self.landing = None
        self.counts["games"] += 1
        if ev["penalties"] != penalties or ev["totals"] != sh.totals():
            self.fault(
                "wrong_scores",
                "final penalties %s totals %s on the board, %s and %s by the engine"
                % (ev["penalties"], ev["totals"], penalties, sh.totals()),
            )
        self.unarchived = fingerprint(sh)
        self.run_ms(100)
        self.check_sync("after the final scores")

    def tally_lay(self, p, face):
        sq = self.free_square()
        mark = len(self.inbox)
        self.put(sq, face)
        ev = self.run_ms(self.settle + 200, until=("tally",))
        if ev is None:
            self.fault(
                "stuck_turns", "a leftover %s laid on %s was never counted" % (face, self.name(sq))
            )
        self.check_tally(ev, p, face, mark)
        if self.r.random() < self.rates["recount"]:
            self.take(sq)  # uncounted
            self.counted[faces.JOKER if face == "?" else faces.parse(face)[0]] -= 1
            self.run_ms(self.settle)
            self.tally_lay(p, face)

    def tally_enter(self, p, face):
        mark = self.enter(face)
        if mark is None:
            self.fault("stuck_turns", "the tally never offers the leftover %s" % face)
        ev = self.find(("tally",), mark) or self.run_ms(100, until=("tally",))
        if ev is None:
            self.fault(
                "stuck_turns", "a leftover %s entered with the buttons was not counted" % face
            )
        self.check_tally(ev, p, face, mark)
        if self.r.random() < self.rates["recount"]:
            self.press("back")
            self.counted[faces.JOKER if face == "?" else faces.parse(face)[0]] -= 1
            self.tally_enter(p, face)

    def enter(self, face):
        """Choose `face` with LEFT/RIGHT and press OK; returns the inbox mark before OK, or
        None if the board never offers that face (it may skip faces none is left of)."""
        choices = self.choices
        n = len(choices)
        target = choices.index(faces.parse(face)[0])
        d = (target - self.tally_choice()) % n
        button = "right" if d <= n - d else "left"
        for _ in range(n):
            if self.tally_choice() == target:
                break
            self.press(button)
        if self.tally_choice() != target:
            return None
        mark = len(self.inbox)
        self.press("ok")
        return mark

    def tally_choice(self):
        """The index in `choices` of the face the tally offers now (firmware/modes_end.py)."""
        return self.ref().state.choice

    def check_tally(self, ev, p, face, mark):
        if (ev["player"], ev["face"]) != (p + 1, face):
            self.fault(
                "false_placements",
                "P%d's leftover %s counted as P%d's %s" % (p + 1, face, ev["player"], ev["face"]),
            )
        key = faces.JOKER if face == "?" else faces.parse(face)[0]
        self.counted[key] = self.counted.get(key, 0) + 1

    def ghost(self):
        """A face none is left of (all on the board or counted) entered: it must be refused."""
        sh = self.shadow
        rules = sh.rules
        left = []
        for key, n in sorted(rules.chips().items()):
            if not rules.from_rack(key):
                continue
            on_board = sum(1 for c in sh.board.cells if c and chip_key(c) == key)
            if n - on_board - self.counted.get(key, 0) <= 0:
                left.append(key)
        if not left:
            return
        key = self.r.choice(left)
        face = faces.text(key)
        mark = self.enter(face)
        if mark is None:
            return  # not even offered
        ev = self.find(("tally",), mark) or self.run_ms(100, until=("tally",))
        if ev is not None:
            self.fault(
                "false_placements",
                "the tally counted a %s, but every %s is on the board or counted" % (face, face),
                abandon=False,
                key="the tally counted a chip none is left of",
            )
            self.press("back")

    def end_game(self):
        """The finished game must be in the archive; the board is cleared and OK starts the
        next game."""
        r = self.r
        self.inbox = []
        self.noise_now = []
        self.quiet()
        if self.unarchived is not None:
            self.verify_archive()
        fresh = self.new_shadow()
        self.landing = (lambda g: fresh, "a new game")
        chips = sorted(self.board.on_board)
        r.shuffle(chips)
        ok_at = r.randint(0, len(chips))
        mark = len(self.inbox)
        for k, sq in enumerate(chips):
            if k == ok_at:
                self.press("ok")
            self.take(sq)
            self.run_ms(r.randrange(10, 120))
        if ok_at == len(chips):
            self.press("ok")
        ev = self.find(("new_game",), mark) or self.run_ms(self.settle + 500, until=("new_game",))
        if ev is None:
            self.fault(
                "stuck_turns", "no new game with the board clear (says %r)" % self.ref().message
            )
        self.landing = None
        self.shadow = fresh
        self.cuts_this_game = []
        self.run_ms(100)
        self.check_sync("in the new game")

    def verify_archive(self):
        want = self.unarchived
        archive = Archive(self.fs)
        names = archive.names()
        for path in reversed(names):
            try:
                snapshot, about = archive.read(path)
                game = decode(self.profile, snapshot)
            except Exception:  # noqa: BLE001, S112  (a damaged file is not the game sought)
                continue
            if fingerprint(game) != want:
                continue
            if self.end_racks is not None:
                racks = [sorted(rack) for rack in about.get("racks", [])]
                if racks != [sorted(rack) for rack in self.end_racks]:
                    self.fault(
                        "lost_games",
                        "%s holds the finished game with racks %s, not %s"
                        % (path, about.get("racks"), self.end_racks),
                    )
            self.unarchived = None
            return
        totals = dict(want)["scores"]
        self.fault(
            "lost_games",
            "the finished game (totals %s) is not in the archive (%s); power cuts in this "
            "game while saving: %s"
            % (
                list(totals),
                ", ".join(names) or "empty",
                "; ".join(self.cuts_this_game) or "none",
            ),
            key="the finished game is not in the archive (%s)"
            % (
                "a power cut while saving the final scores"
                if "the final scores" in self.cuts_this_game
                else "no power cut at its end"
            ),
        )

    # ----- power cuts ---------------------------------------------------------------------------

    def power_cycle(self):
        """The power went at a flash write: a new board boots on what the flash holds, with the
        same chips lying on it, and OK resumes. Its game must be the shadow's (the last turn
        committed) or the one being saved; then the chips are put right."""
        self.power_cuts += 1
        landing, saving = self.landing or (None, "nothing (a write no turn asked for)")
        self.landing = None
        self.cuts_this_game.append(saving)
        old = self.board
        lying = [(sq, face, uid) for sq, (face, uid) in sorted(old.on_board.items())]
        self.say("POWER CUT while saving %s" % saving)
        self.agenda = []
        self.tag_miss.clear()
        self.touched.clear()
        self.replies_due = 0
        flash = CutFlash(image=bytearray(self.flash.buffer))
        try:
            fs = LfsFS(mount(flash), flash)
        except Exception as exc:  # noqa: BLE001  (a flash that will not mount loses the game)
            self.fault("lost_games", "the flash would not mount after the cut: %s" % exc)
        self.flash, self.fs = flash, fs
        self.make_board(lying)
        self.inbox = []
        self.boot()
        self.run_ms(self.settle + 200)
        before = fingerprint(self.shadow)
        after = None
        if landing is not None:
            memo = {id(self.profile): self.profile, id(self.shadow.rules): self.shadow.rules}
            after_game = landing(copy.deepcopy(self.shadow, memo))
            after = fingerprint(after_game)
        ref = self.ref()
        resumed = ref.mode == "resume"
        if resumed:
            self.press("ok")
            self.run_ms(self.settle)
        got = fingerprint(ref.game)
        if got == before:
            pass
        elif got == after:
            if after_game.penalties is not None and self.shadow.penalties is None:
                self.counts["games"] += 1
                self.unarchived = after
                self.end_racks = None  # what the archive holds of the racks is not checked
            self.shadow = after_game
            if saving == "a new game":
                self.cuts_this_game = []
        else:
            self.fault(
                "lost_games",
                "after a power cut while saving %s the board %s a game with %d turns (%s), "
                "not the last committed turn (%d turns)%s"
                % (
                    saving,
                    "resumed" if resumed else "started",
                    ref.game.turns,
                    differences(got, before),
                    self.shadow.turns,
                    "" if after is None else " nor the one being saved",
                ),
            )
        self.check_resumed()

    def check_resumed(self):
        """Committed chips not lying as committed are missing; chips of this turn come back
        as its move. Then the chips are put as the game says."""
        ref = self.ref()
        game = ref.game
        sh = self.shadow
        on = self.board.on_board
        cells = game.board.cells
        want = set()
        for sq in range(len(cells)):
            if cells[sq]:
                face = faces.cell_text(cells[sq])
                lying = on[sq][0] if sq in on else None
                if lying != face and not (lying == "?" and face[0] == "?"):
                    want.add(sq)
        if game.penalties is not None:
            want = set()  # the game is over: its chips may go
        if set(ref.missing) != want:
            self.fault(
                "desyncs",
                "after resuming, missing %s, not %s"
                % (
                    [self.name(s) for s in sorted(ref.missing)],
                    [self.name(s) for s in sorted(want)],
                ),
            )
        for sq, code in game.pending:
            if sq not in on or on[sq][0] != faces.cell_text(code):
                self.fault(
                    "false_placements",
                    "after resuming, %s:%s is in the move, but %s lies there"
                    % (self.name(sq), faces.cell_text(code), on[sq][0] if sq in on else "nothing"),
                )
        # put the chips right: strays off, committed chips as committed
        self.lift_strays()
        if game.penalties is not None:
            return  # the board is cleared for the next game anyway
        for sq in range(len(cells)):
            if not sh.board.cells[sq]:
                continue
            face = faces.cell_text(sh.board.cells[sq])
            face = "?" if face[0] == "?" else face
            if on.get(sq, (None,))[0] != face:
                if sq in on:
                    self.take(sq)
                    self.run_ms(100)
                self.put(sq, face)
                self.run_ms(self.settle)
        if ref.missing:
            self.fault(
                "desyncs",
                "after resuming and putting the chips back, %s still missing"
                % [self.name(s) for s in sorted(ref.missing)],
            )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--session", type=int, help="play only the session of this seed")
    parser.add_argument("--no-noise", action="store_true", help="no noise, cuts or USB lines")
    parser.add_argument("--no-mistakes", action="store_true", help="no illegal moves or tallies")
    parser.add_argument("--only", help="only these noises and mistakes (comma-separated)")
    parser.add_argument(
        "--rate", action="append", default=[], metavar="KEY=P", help="set one of RATES"
    )
    parser.add_argument("--trace", action="store_true", help="print every action and event")
    args = parser.parse_args(argv)
    only = None
    if args.only:
        only = args.only.split(",")
        for key in only:
            if key not in NOISE + MISTAKES:
                parser.error("--only takes %s" % ",".join(NOISE + MISTAKES))
    chosen = rates(not args.no_noise, not args.no_mistakes, only)
    for item in args.rate:
        key, _, value = item.partition("=")
        if key not in RATES:
            parser.error("--rate takes one of %s" % ",".join(sorted(RATES)))
        chosen[key] = float(value)
    soak = Soak(
        args.seed,
        args.turns,
        rates=chosen,
        trace=print if args.trace else None,
        session=args.session,
    )
    counts = soak.run()
    print(json.dumps(counts))
    for kind in FAULTS:
        for n, line in soak.notes[kind].values():
            print("%s x%d: %s" % (kind, n, line))
    print("longest main-loop step: %d ms (%s)" % soak.slowest)
    print(
        "%d turns, %d games, %d sessions, %d power cuts in %.1f s (%.1f s of CPU): "
        "%.1f turns/s, %.1f per CPU second"
        % (
            counts["turns"],
            counts["games"],
            soak.sessions,
            soak.power_cuts,
            soak.elapsed,
            soak.cpu,
            counts["turns"] / max(soak.elapsed, 1e-9),
            counts["turns"] / max(soak.cpu, 1e-9),
        )
    )
    return 1 if any(counts[k] for k in FAULTS) else 0


if __name__ == "__main__":
    sys.exit(main())
