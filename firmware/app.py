"""The board's firmware as one object: sensors in, referee, LEDs and display out.

`App(hw, profile, settings)` takes a hardware bundle (`hw`: see `Hardware`) built by a
backend (`backend_rp2` on the board, `backend_circuitpython`, or `sim.simboard` in tests)
and never imports `machine`. `boot()` reads the journal and offers to resume; `step()` is one
tick of the main loop (firmware/main.py): scan, debounce and identify chips, read the
buttons, run the turn clock, then redraw the LEDs and the display if anything changed.
"""

from engine.compat import ticks_diff
from engine.errors import EngineError
from firmware import referee as R
from firmware.buttons import Buttons
from firmware.journal import Journal
from firmware.leds import Leds
from firmware.presence import Presence
from firmware.screen import Screen
from firmware.sensing import PLACED, Sensing

BLINK_MS = 250


class Hardware:
    """The parts a backend hands the firmware; `reader`/`antenna` are None on a Hall-only board.

    chain: `read()` -> raw presence bytes. reader: `read_uid()`; reader_error: its exception.
    pixels: `put(i, r, g, b)`, `show()`. display: `fill`, `text`, `show`. buttons: name -> pin.
    fs: firmware.fsio interface. clock: `ticks_ms()`. write: where event lines go.
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


class App:
    def __init__(self, hw, profile, settings, problems=(), registry=None, events=None):
        from firmware.events import EventStream

        self.hw = hw
        self.clock = hw.clock
        self.settings = settings
        self.period_ms = settings["scan_ms"]
        self.events = events or EventStream(hw.write, hw.clock)
        n = profile.width * profile.height
        self.presence = Presence(n, settings["debounce_scans"])
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
        )
        self.buttons = Buttons(hw.buttons, hw.clock)
        self.journal = Journal(hw.fs, "game")
        self.referee = R.Referee(profile, settings, hw.clock, self.events, self.journal)
        self.leds = Leds(hw.pixels, profile, settings, hw.serpentine)
        self.screen = Screen(hw.display)
        self.problems = list(problems)
        self.blink_on = False
        self.blink_at = hw.clock.ticks_ms()
        self.display_ok = True
        self.running = True
        self.steps = 0
        self.frames = 0

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
        for event in self.sensing.poll():
            ref.sensed(event)
        for name in self.buttons.poll():
            action = ref.button(name)
            if action is not None:
                self._act(action)
        if ref.game is not None and ref.mode != R.RESUME:
            before = ref.seconds_left()
            ref.tick()
            if before != ref.seconds_left():
                ref.dirty = True
        self.refresh()
        self.events.flush()

    def _act(self, action):
        ref = self.referee
        if action == "resume":
            placed = self.sensing.placed
            try:
                ref.resume(set(placed))
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
            self.journal.clear()
            ref.new_game()

    def refresh(self, force=False):
        now = self.clock.ticks_ms()
        ref = self.referee
        if ref.mode == R.CLEAR and not self.sensing.placed:
            self.journal.clear()
            ref.new_game()
        if ticks_diff(now, self.blink_at) >= BLINK_MS:
            self.blink_at = now
            self.blink_on = not self.blink_on
            if ref.missing or ref.unknown or ref.picking or ref.take_back:
                ref.dirty = True
        if not (ref.dirty or force):
            return
        ref.dirty = False
        self.leds.compose(ref, self.blink_on)
        self.leds.show()
        self.frames += 1
        if self.display_ok or force:
            try:
                self.screen.update(ref)
                self.display_ok = True
            except self.hw.display_error as err:
                self.display_ok = False
                self.events.emit("display_problem", "text", str(err))
