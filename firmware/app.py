"""The board's firmware as one object: sensors in, referee, LEDs and display out.

`App(hw, profile, settings)` takes a hardware bundle (`hw`: see `Hardware`) built by a
backend (`backend_rp2` on the board, `backend_circuitpython`, or `sim.simboard` in tests)
and never imports `machine`. `boot()` reads the journal and offers to resume; `step()` is one
tick of the main loop (firmware/main.py): scan, debounce and identify chips, read the
buttons, run the turn clock, then redraw the LEDs and the display if anything changed. The
LED rail is switched on at the end of boot, and only while the supply allows it
(firmware/leds.py); when it is kept off the display's alert line and a `power` event say why.

Every backend's loop calls `tick()`, the supervised step: an unexpected exception anywhere in
a step is reported (a `fault` event, and the display in the board's language), the game is
reloaded from the journal with the chips as they lie now (`recover`), and play goes on. More
than MAX_FAULTS within FAULT_WINDOW_MS, or a failing recovery, stop the loop with `restart`
set: the backend restarts the board cleanly (never into the REPL). After every step, failed
or not, the watchdog is fed; a step that never returns lets it reset the board.
"""

from engine.compat import collect, mem_free, ticks_add, ticks_diff
from engine.errors import EngineError
from engine.snapshot import game_of
from firmware import referee as R
from firmware.buttons import Buttons
from firmware.console import Console
from firmware.events import EventStream
from firmware.journal import Journal, JournalError
from firmware.leds import Leds
from firmware.presence import Presence
from firmware.screen import Screen
from firmware.sensing import PLACED, Sensing

BLINK_MS = 250
MAX_FAULTS = 3  # faults within FAULT_WINDOW_MS that make the board restart
FAULT_WINDOW_MS = 10000
# Free heap a chip's settle time and settling step should find (see App._make_room): what
# they allocate, with room to spare; and what the settling step alone should find.
HEAP_ROOM = 32 * 1024
STEP_ROOM = 16 * 1024


class Hardware:
    """The parts a backend hands the firmware; `reader`/`antenna` are None on a Hall-only board.

    chain: `read()` -> raw presence bytes. reader: `read_uid()`, `field_on`, `rf_field(on)`
    (as drivers/pn532.py); reader_error: its exception. antenna: `select(square, width)`,
    `off()` (as drivers/antenna.py). pixels: `order`, `frame(...)`, `show()` (as
    drivers/ws2812.py). display: `clear_page`, `text`, `show(first, last)` (as
    drivers/ssd1306.py). buttons: name -> pin. fs: firmware.fsio interface. clock:
    `ticks_ms()`. write: where event lines go. read: `read()` -> the bytes the PC sent
    since the last call (b"" if none), or None where no commands come (firmware/console.py).
    watchdog: `feed()`, or None. led_power: the LED rail switch's ON pin (`value(v)`), or None
    where the LEDs are always powered. vsys: `vsys()` -> VSYS in millivolts, or None where it
    cannot be read (firmware/leds.py, "The LED rail").
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
        watchdog=None,
        led_power=None,
        vsys=None,
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
        self.watchdog = watchdog  # `feed()` after every main-loop step, or None
        self.led_power = led_power
        self.vsys = vsys


class App:
    def __init__(self, hw, profile, settings, problems=(), registry=None, events=None):
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
        self.profile = profile
        self.problems = list(problems)
        self.leds = Leds(hw.pixels, profile, settings, hw.serpentine, hw.led_power, hw.vsys)
        # (rail on, why kind) as the event stream last heard it: silence means LEDs on
        self.power_said = (True, None)
        self.referee = self._referee()
        self.console = Console(hw.read) if hw.read is not None else None
        self.service = None  # a service mode (firmware/service.py) while the PC runs one
        self.upload = None  # [path, characters so far, parts...] of a file the PC sends in parts
        self.screen = Screen(hw.display)
        self.blink_on = False
        self.blink_at = hw.clock.ticks_ms()
        self.display_ok = True
        self.running = True  # the main loop runs while this holds
        self.restart = False  # the PC asked for a restart: the backend restarts once stopped
        self.steps = 0
        self.shown_left = None  # the turn clock's seconds as last drawn
        self.arrivals = 0  # the sensing's arrivals seen (see _make_room)
        self.faults = []  # ticks of the recent faults (see tick)
        self.fault_count = 0  # every fault since boot
        self.last_fault = None  # the last exception caught by tick

    def _referee(self):
        ref = R.Referee(self.profile, self.settings, self.clock, self.events, self.journal)
        ref.archive = _ArchiveLink(self.hw.fs)
        ref.settings_problem = bool(self.problems)
        ref.power = self.leds.why
        return ref

    def boot(self):
        ev = self.events
        ev.emit("boot", "game", self.profile.game, "sensor", self.settings["sensor"])
        for text in self.problems:
            ev.emit("settings_problem", "text", text)
        payload = self._saved_game()
        if payload is not None:
            finished = self._archived(payload)
            self.referee.offer_resume(payload)
            if finished:  # nothing to ask: the final scores as they were, then a new game
                self._act("resume")
        else:
            note = self.referee.note
            self.referee.new_game()
            if note is not None:
                self.referee.note = note  # why there is no game to resume
        # The LED rail, once everything else has started: on USB the host has configured
        # the board by now, so the LEDs never draw current before it may (hardware/README.md).
        self._power(force=True)
        self.refresh(force=True)
        self.events.flush()

    def _saved_game(self):
        """The journal's game to offer for resuming, or None. A saved game of the other game
        is parked as game-<its game>.dat (and one parked for this game comes back); a damaged
        one is kept as game.bad. Neither is ever overwritten by the new game's first save."""
        mine = "game-%s.dat" % self.profile.game
        payload, problem = self.journal.load()
        other = game_of(payload) if payload is not None else None
        try:
            if other is not None and other != self.profile.game:
                self.journal.set_aside("game-%s.dat" % other)
                self.events.emit("journal_problem", "text", "saved %s game kept" % other)
                self.referee.set_note("other_game", other)
                payload, problem = None, None
            if payload is None and problem is None and self.hw.fs.exists(mine):
                self.hw.fs.rename(mine, self.journal.dat)  # this game's, parked before
                payload, problem = self.journal.load()
            if problem:
                self._set_aside(problem)
                payload = None
        except OSError as err:
            self.events.emit("save_failed", "error", "could not keep the saved game (%s)" % err)
            payload = None
        return payload

    def _archived(self, payload):
        """Whether the journal's game is finished and the archive holds it: a restart after
        the end shows the final scores at once instead of offering the old game again ("Resume
        game?"). A finished game the archive lacks (its write failed) is still offered, so
        that archiving is tried again when it is resumed."""
        from engine.snapshot import decode

        try:
            game = decode(self.profile, payload)
        except (EngineError, ValueError):
            return False  # offer_resume says what is wrong with it
        return game.penalties is not None and self.referee.archive.has(payload)

    def _set_aside(self, problem):
        """The saved game is damaged: kept as game.bad, and the board says so."""
        self.events.emit("journal_problem", "text", "%s; kept as game.bad" % problem)
        self.journal.set_aside("game.bad")
        self.referee.set_note("saved_bad")

    def tick(self):
        """One supervised step of the main loop: nothing raised in it escapes."""
        try:
            self.step()
        except Exception as err:  # noqa: BLE001  (whatever it is, the game must go on)
            self._fault(err)
        if self.hw.watchdog is not None:
            self.hw.watchdog.feed()

    def _fault(self, err):
        """Report an unexpected exception, then reload the game, or restart if that fails
        or faults keep coming. Nothing raised here escapes, not even by the event stream."""
        self.fault_count += 1
        self.last_fault = err
        now = self.clock.ticks_ms()
        recent = [t for t in self.faults if ticks_diff(now, t) < FAULT_WINDOW_MS]
        recent.append(now)
        self.faults = recent
        self._report("fault", "error", "%s: %s" % (type(err).__name__, err), "count", len(recent))
        if len(recent) > MAX_FAULTS:
            why = "%d faults in a row" % len(recent)
        else:
            try:
                self.recover()
                self.events.flush()
                return
            except Exception as again:  # noqa: BLE001
                why = "recovery failed: %s: %s" % (type(again).__name__, again)
        self._report("restarting", "text", why)
        self.restart = True  # the backend restarts the board once the loop stops
        self.running = False

    def _report(self, kind, *fields):
        """An event line, sent at once; a broken event stream only loses it."""
        try:
            self.events.emit(kind, *fields)
            self.events.flush()
        except Exception:  # noqa: BLE001, S110  (the board must not stop for its log)
            pass

    def recover(self):
        """Reload the game from the journal, as after a power cut, but with no question asked:
        chips lying on empty squares become the turn's move again. The display says so."""
        # No gc.collect() here: MicroPython collects by itself when an allocation fails, and
        # the referee dropped below is garbage by then.
        if self.service is not None:
            self.service = None
            self._report("service", "name", None)  # the PC's service mode ended with it
        self.upload = None
        self.referee = ref = self._referee()
        payload = self._saved_game()
        if payload is None:
            ref.new_game()
        else:
            ref.offer_resume(payload)
            self._act("resume")
        self.referee.set_note("fault")
        self.screen.lines = None  # the display may hold anything: redraw it all
        self.refresh(force=True)

    def step(self):
        """One step of the main loop (unguarded: the loop calls `tick`)."""
        self.steps += 1
        self._power()
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
        if ref.mode == R.THINK:
            self._think(ref)  # the display has just said "Thinking"
        self.events.flush()
        sensing = self.sensing
        if sensing.waiting:
            self._make_room(sensing.arrivals != self.arrivals)
        self.arrivals = sensing.arrivals

    def _make_room(self, new):
        """Collect now, inside a chip's settle time (300 ms), rather than let an allocation
        of the step in which it settles set off the collection: that step judges the move
        and sends the LED frame, allocating about 14-16 KB on the bench's board
        (tools/fwbench.py), and a collection there took 20-25 ms on the emulated Pico; every
        chip over 50 ms had one. `new`: a magnet appeared in this step; collect if the free
        heap is short of HEAP_ROOM, what the settle time's steps and the chip's step
        allocate. Otherwise collect only in the last two steps before a chip settles, and
        only if under STEP_ROOM is left: steps that allocate right after a collection are
        slower on the emulated chip, so collecting there every time made chips slower
        (README.md, "The firmware")."""
        if not new:
            when = ticks_add(self.clock.ticks_ms(), 2 * self.period_ms)
            if not self.sensing.settles_by(when):
                return
        free = mem_free()  # None off a board: nothing to do
        if free is not None and free < (HEAP_ROOM if new else STEP_ROOM):
            collect()

    def _think(self, ref):
        """The board's turn or a hint: the search runs inside this step, for up to the
        `think_seconds` setting; meanwhile the display's progress line is redrawn and the
        watchdog fed, and no chip is read (the person is waiting for the board). A button
        pressed during the think ends it with the move found so far (firmware/button_watch.py);
        it is not also a press for the mode that follows."""

        def progress(percent, score):
            state = ref.state
            state.percent = percent
            state.score = score
            ref.dirty = True
            self.refresh(text=True)

        watchdog = self.hw.watchdog
        try:
            ref.think(progress, None if watchdog is None else watchdog.feed, self.buttons)
        finally:
            self.buttons.hold_off()
        self.refresh()

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
            # A chip whose magnet is sensed and whose tag is not read yet (after a power-up
            # the board reads its chips a few a scan) is there, face unknown: not missing.
            present = dict(placed)
            for sq in self.sensing.waiting:
                present.setdefault(sq, None)
            try:
                ref.resume(present)
            except EngineError as err:  # a damaged snapshot: keep it, say so, start afresh
                try:
                    self._set_aside(str(err))
                except OSError as err2:
                    self.events.emit("save_failed", "error", str(err2))
                note = ref.note
                ref.new_game()
                ref.note = note
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
                ref.clear_board()
                return
            self._fresh_game()

    def _power(self, force=False):
        """Switch the LED rail as the supply allows (firmware/leds.py); when that changes,
        the display's alert line and the event stream say so, and the LEDs are redrawn."""
        leds = self.leds
        if not leds.power(self.clock.ticks_ms(), force):
            return
        ref = self.referee
        ref.power = leds.why
        ref.dirty = True  # the alert line, and a whole frame once the rail has risen
        if self.service is not None:
            self.service.dirty = True
        said = (leds.on, leds.why[0] if leds.why is not None else None)
        if said != self.power_said:
            self.power_said = said
            self.events.emit("power", "leds", leds.on, "text", leds.why_text())

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
            if ref.blinking():
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


class _ArchiveLink:
    """The finished games' archive (firmware/archive.py), imported only when first used: a
    board that never finishes a game never holds its code in RAM."""

    def __init__(self, fs):
        self.fs = fs

    def _archive(self):
        from firmware.archive import Archive

        return Archive(self.fs)

    def add(self, snapshot, about):
        return self._archive().add(snapshot, about)

    def has(self, snapshot):
        return self._archive().has(snapshot)
