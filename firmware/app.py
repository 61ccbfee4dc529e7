"""The board's firmware as one object: sensors in, referee, LEDs and display out.

`App(hw, profile, settings)` takes a hardware bundle (`hw`: see `Hardware`) built by a
backend (`backend_rp2` on the board, `backend_circuitpython`, or `sim.simboard` in tests)
and never imports `machine`. `boot()` reads the journal and offers to resume; `step()` is one
tick of the main loop (firmware/main.py): scan, debounce and identify chips, read the
buttons, run the turn clock, then redraw the LEDs and the display if anything changed.
"""

from engine.compat import ticks_add, ticks_diff
from engine.errors import EngineError
from firmware import referee as R
from firmware.buttons import Buttons
from firmware.console import Console
from firmware.journal import Journal, JournalError
from firmware.leds import Leds
from firmware.presence import Presence
from firmware.screen import Screen
from firmware.sensing import PLACED, Sensing

BLINK_MS = 250


class Hardware:
    """The parts a backend hands the firmware; `reader`/`antenna` are None on a Hall-only board.

    chain: `read()` -> raw presence bytes. reader: `read_uid()`; reader_error: its exception.
    antenna: `select(square, width)`, `off()`. pixels: `order`, `frame(...)`, `show()` (as
    drivers/ws2812.py). display: `clear_page`, `text`, `show(first, last)` (as
    drivers/ssd1306.py). buttons: name -> pin. fs: firmware.fsio interface. clock:
    `ticks_ms()`. write: where event lines go. read: `read()` -> the bytes the PC sent
    since the last call (b"" if none), or None where no commands come (firmware/console.py).
    """

    def __init__(
        self,
        clock,
        chain,
        pixels,
        display,
        buttons,
        fs,
        write,
        reader=None,
        antenna=None,
        reader_error=Exception,
        display_error=Exception,
        serpentine=True,
        active_low=True,
        read=None,
    ):
        self.clock = clock
        self.chain = chain
        self.pixels = pixels
        self.display = display
        self.buttons = buttons
        self.fs = fs
        self.write = write
        self.reader = reader
        self.antenna = antenna
        self.reader_error = reader_error
        self.display_error = display_error
        self.serpentine = serpentine
        self.active_low = active_low  # presence inputs read low when a magnet is near
        self.read = read


class App:
    def __init__(self, hw, profile, settings, problems=(), registry=None, events=None):
        from firmware.events import EventStream

        self.hw = hw
        self.clock = hw.clock
        self.settings = settings
        self.period_ms = settings["scan_ms"]
        self.events = events or EventStream(hw.write, hw.clock)
        n = profile.width * profile.height
        self.presence = Presence(n, settings["debounce_scans"], hw.active_low)
        reader = hw.reader if settings["sensor"] == "nfc" else None
        self.sensing = Sensing(
            hw.chain,
            self.presence,
            hw.clock,
            settings["settle_ms"],
            reader,
            hw.antenna,
            registry,
            hw.reader_error,
            profile.width,
        )
        self.buttons = Buttons(hw.buttons, hw.clock)
        self.journal = Journal(hw.fs, "game")
        self.referee = R.Referee(profile, settings, hw.clock, self.events, self.journal)
        self.referee.archive = self._archive
        self.console = Console(hw.read) if hw.read is not None else None
        self.service = None  # a service mode (firmware/service.py) while the PC runs one
        self.upload = None  # [path, characters so far, parts...] of a file the PC sends in parts
        self.leds = Leds(hw.pixels, profile, settings, hw.serpentine)
        self.screen = Screen(hw.display)
        self.problems = list(problems)
        self.blink_on = False
        self.blink_at = hw.clock.ticks_ms()
        self.display_ok = True
        self.running = True  # the main loop runs while this holds
        self.restart = False  # the PC asked for a restart: the backend restarts once stopped
        self.steps = 0
        self.shown_left = None  # the turn clock's seconds as last drawn

    def boot(self):
        ev = self.events
        ev.emit("boot", "game", self.referee.profile.game, "sensor", self.settings["sensor"])
        for text in self.problems:
            ev.emit("settings_problem", "text", text)
        payload, problem = self.journal.load()
        if problem:
            ev.emit("journal_problem", "text", problem)
        if payload is not None:
            self.referee.offer_resume(payload)
        else:
            self.referee.new_game()
        if self.problems:
            self.referee._say("settings")
        self.refresh(force=True)
        self.events.flush()

    def step(self):
        """One tick of the main loop."""
        self.steps += 1
        ref = self.referee
        if self.console is not None:
            for msg in self.console.poll():
                # imported when the PC first speaks: a board no PC talks to never holds
                # the commands' code in RAM (it matters when code runs from .mpy files)
                from firmware.commands import handle

                handle(self, msg)
        if self.service is not None:
            self._serve()
            self.events.flush()
            return
        for event in self.sensing.poll():
            ref.sensed(event)
        for name in self.buttons.poll():
            action = ref.button(name)
            if action is not None:
                self._act(action)
        if ref.mode == R.CLEAR and not self.sensing.placed:
            self._fresh_game()
        text = False
        if ref.game is not None and ref.mode != R.RESUME:
            left = ref.seconds_left()
            if left == 0:
                ref.time_up()
            elif left != self.shown_left:
                self.shown_left = left
                text = True  # the clock on the display moved on: nothing else changed
        self.refresh(text=text)
        self.events.flush()

    def _archive(self, snapshot, about):
        """Keep a finished game (firmware/archive.py, imported only when a game ends)."""
        from firmware.archive import Archive

        return Archive(self.hw.fs).add(snapshot, about)

    # ----- service modes (firmware/service.py) ---------------------------------------------

    def start_service(self, service):
        self.service = service
        self.events.emit("service", "name", service.name)

    def end_service(self):
        """Back to the game: the referee is told what was laid and lifted meanwhile."""
        service = self.service
        if service is None:
            return
        self.service = None
        ref = self.referee
        # the turn clock stood still while the game waited
        waited = ticks_diff(self.clock.ticks_ms(), service.started)
        ref.turn_start = ticks_add(ref.turn_start, waited)
        for event in service.changes():
            ref.sensed(event)
        self.events.emit("service", "name", None)
        self.screen.lines = None  # the service's lines are on the display: redraw them all
        self.refresh(force=True)

    def _serve(self):
        service = self.service
        if service is None:
            return
        for event in self.sensing.poll():
            service.sensed(event)
        poll = getattr(service, "poll", None)
        if poll is not None:
            poll()
        for name in self.buttons.poll():
            if service.button(name):
                self.end_service()
                return
        if service.dirty:
            service.dirty = False
            self.leds.paint(service.marks)
            self.leds.show()
            if self.display_ok:
                try:
                    self.screen.draw(service.lines())
                except self.hw.display_error as err:
                    self.display_ok = False
                    self.events.emit("display_problem", "text", str(err))

    def _fresh_game(self):
        """Forget the saved game and start a new one (the board is clear)."""
        try:
            self.journal.clear()
        except JournalError as err:
            self.events.emit("save_failed", "error", str(err))
        self.referee.new_game()

    def _act(self, action):
        ref = self.referee
        if action == "resume":
            placed = self.sensing.placed
            try:
                ref.resume(placed)
            except EngineError as err:  # a damaged snapshot: say so and start afresh
                self.events.emit("journal_problem", "text", str(err))
                ref.new_game()
                return
            # Chips lying on empty squares were laid in the turn the power cut: they are the
            # move again (a Hall-only board asks their faces; an unread tag stays unknown).
            cells = ref.game.board.cells
            hall = self.sensing.reader is None
            for sq in sorted(placed):
                if not cells[sq] and (placed[sq] is not None or hall):
                    ref.sensed((PLACED, sq, placed[sq]))
        elif action == "new":
            if self.sensing.placed:
                ref.mode = R.CLEAR
                ref._say("take_back")
                return
            self._fresh_game()

    def refresh(self, force=False, text=False):
        """Redraw what changed: the LEDs when the referee changed or an alert blinks, the
        display when the referee changed or the turn clock moved on."""
        now = self.clock.ticks_ms()
        ref = self.referee
        lights = force or ref.dirty
        text = text or force or ref.dirty
        if ticks_diff(now, self.blink_at) >= BLINK_MS:
            self.blink_at = now
            self.blink_on = not self.blink_on
            if ref.missing or ref.unknown or ref.picking or ref.take_back:
                lights = True
        ref.dirty = False
        if lights:
            self.leds.compose(ref, self.blink_on)
            self.leds.show()
        if text and (self.display_ok or force):
            try:
                self.screen.update(ref)
                self.display_ok = True
            except self.hw.display_error as err:
                self.display_ok = False
                self.events.emit("display_problem", "text", str(err))
