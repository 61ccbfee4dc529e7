"""What the NeoPixels show, and the cap that keeps them within the supply's current budget.

Layers, lowest first, per square:
  - an empty premium square glows dimly in its legend colour;
  - the last move's chips are marked in soft white;
  - the player to move has their colour on the empty corner squares;
  - this turn's chips are green while the pending move is legal; when it is not, the
    offending run is red and the rest of the pending chips amber;
  - alerts blink at 2 Hz: a missing committed chip (red), an unidentified chip (magenta),
    a chip whose face is being chosen (yellow), chips to take back (red), a square where
    a chip of the board's move or of a hint goes (green), a chip of a rack shown (yellow).

A frame is a palette index per LED, in chain order (`compose`; `chain[sq]` is the LED of
square sq, serpentine). `show` then scales the palette, not
the pixels: by the brightness setting, and by the current cap, which keeps the WS2812B
model of hardware/README.md (a quiescent current per LED, plus a current per channel in
proportion to its value) within `current_ma` less what the rest of the board draws. Each
LED's three wire bytes are then copied from the scaled palette. Only the LEDs that can have
changed are copied: while the background and the scale stay the same, a frame differs from
the last one sent only where either frame has an overlay (a few copies, not 225). When the
current cap changes the scale, every LED's bytes change.

The LED rail (hardware/README.md, "USB power"). The LEDs sit behind a load switch (`rail`:
the pin map's `pixels.power`, GP21 on the reference board; a board without one has its LEDs
always powered). `power(now)` switches it on only when the supply can feed the board with
every LED dark (`current_ma` >= `need_ma()`: 410 mA NFC, 295 mA Hall-only) and, where VSYS
can be read (`vsys()`, millivolts: ADC3 x 3 on the Pico), VSYS is at least 4.2 V (about
4.5 V on the 5 V rail, the LED data buffer's minimum). Otherwise the rail stays off and
`why` says why, as a message key and its arguments, for the display and the event stream.
The app calls it first when boot is over, so the LEDs never draw current while the PC is
still enumerating the board, then on every main-loop step (VSYS is read once a second). No
frame is sent while the rail is off (data into unpowered LEDs feeds them through their
input) nor during its rise time; once it has risen the app redraws the whole frame. Without
a rail switch the LEDs get an all-dark frame instead.
"""

from engine.compat import const, ticks_add, ticks_diff
from firmware import modes as M
from firmware import referee as R

# WS2812B current model, in microamps (hardware/README.md, "Power budget").
LED_IDLE_UA = const(1000)  # each LED, all channels off
CHANNEL_FULL_UA = const(20000)  # one channel at 255, linear in the value
BOARD_MA_NFC = const(185)  # everything but the LEDs: Pico, Hall switches, PN532, display
BOARD_MA_HALL = const(70)  # the same without the PN532

# The LED rail's switch (hardware/README.md, "USB power").
VSYS_ON_MV = const(4200)  # VSYS needed to switch the rail on
VSYS_OFF_MV = const(4100)  # and below which it goes off again (hysteresis: the LEDs' load)
POWER_CHECK_MS = const(1000)  # how often VSYS is read
RAIL_RISE_MS = const(150)  # wait after switching on before the first frame (CT: ~100 ms)
VSYS_RETRY_MS = const(10000)  # after VSYS sagged under the LEDs, keep them off this long

# Palette indices. Premium glows follow, one per legend letter.
OFF = const(0)
WHITE = const(1)
GREEN = const(2)
RED = const(3)
AMBER = const(4)
MAGENTA = const(5)
YELLOW = const(6)
PLAYER = const(7)  # 7..10: the players' colours
PREMIUM = const(11)

COLOURS = (
    (0, 0, 0),
    (160, 160, 160),
    (0, 255, 0),
    (255, 0, 0),
    (255, 150, 0),
    (255, 0, 200),
    (255, 220, 0),
    # The players: blue, raspberry, lavender, teal. Chosen apart from the signal colours
    # above for deuteranopes too (tests/test_websim.py: CIELAB distance >= 20 with the
    # Machado 2009 deuteranopia matrix; the old orange was 6.5 from the amber).
    (0, 90, 255),
    (255, 0, 120),
    (180, 120, 255),
    (0, 220, 200),
)
PREMIUM_DIM = const(20)  # premium glow: this many 255ths of the legend colour

# The referee's alerts (Referee.alerts) and their colours.
ALERT = {R.MISSING: RED, R.UNKNOWN: MAGENTA, M.ASK: YELLOW, M.TAKE: RED, M.PLACE: GREEN}


def serpentine(width, height):
    """Chain position of each square: rows alternate direction, starting left to right."""
    order = [0] * (width * height)
    for r in range(height):
        for c in range(width):
            order[r * width + c] = r * width + (c if r % 2 == 0 else width - 1 - c)
    return order


class Leds:
    def __init__(self, pixels, profile, settings, serpent=True, rail=None, vsys=None):
        n = profile.width * profile.height
        self.pixels = pixels
        self.n = n
        self.chain = serpentine(profile.width, profile.height) if serpent else list(range(n))
        w, h = profile.width, profile.height
        self.corners = (0, w - 1, (h - 1) * w, h * w - 1)
        colours = list(COLOURS)
        for letter in profile.letters[1:]:
            c = profile.legend[letter].colour
            colours.append(tuple(min(255, max(0, v)) * PREMIUM_DIM // 255 for v in c))
        self.colours = colours
        self.base = bytearray(n)  # the empty board: premium glows (chain order, as below)
        for sq in range(n):
            k = profile.premiums[sq]
            if k:
                self.base[self.chain[sq]] = PREMIUM + k - 1
        self.frame = bytearray(n)  # palette index per LED
        self.bg = bytearray(n)  # the board without this turn's overlays (see _background)
        self.bg_key = None
        self.bg_uses = [0] * len(colours)
        self.uses = None  # type: list | None  # palette counts of the frame (None: count)
        self.overlaid = []  # type: list[int]  # LEDs compose put over the background
        self.sent = None  # type: list[int] | None  # `overlaid` of the frame in the wire
        # bytes, or None when the next frame must be copied whole (a new background)
        self.order = pixels.order  # where red, green and blue go in the wire bytes
        # scaled palette, wire byte order
        self.wire = [b"\x00\x00\x00"] * len(colours)  # type: list[bytes | bytearray]
        self.board_ma = BOARD_MA_NFC if settings["sensor"] == "nfc" else BOARD_MA_HALL
        self.set_power(settings["brightness"], settings["current_ma"])
        self.scale = 0  # the last frame's scale, 256ths (brightness and cap together)
        self.milliamps = 0  # the last frame's estimated current
        self.rail = rail  # the LED rail switch's ON pin (value(1): powered), or None
        self.vsys = vsys  # () -> VSYS in millivolts, or None where it cannot be read
        self.on = False  # the rail is switched on
        self.lit = False  # and has risen: frames are sent
        self.why = None  # type: tuple | None  # (message key, args...) why the rail is off
        self.checked = None  # type: int | None  # ticks of the last check
        self.rise_at = 0  # ticks when the rail will have risen
        self.retry_at = None  # type: int | None  # VSYS gets no second chance before this
        if rail is not None:
            rail.value(0)

    def set_power(self, brightness, current_ma):
        self.brightness = brightness
        self.current_ma = current_ma
        self.budget_ua = max(0, current_ma - self.board_ma) * 1000

    def need_ma(self):
        """What the board draws with the LED rail on and every LED dark."""
        return self.board_ma + self.n * LED_IDLE_UA // 1000

    def _why_dark(self, now):
        """Why the rail must be off now (a message key and its arguments), or None."""
        need = self.need_ma()
        if self.current_ma < need:
            return ("leds_ma", self.current_ma, need)
        if self.vsys is None:
            return None
        retry = self.retry_at
        if not self.on and retry is not None and ticks_diff(retry, now) > 0:
            return self.why  # VSYS sagged under the LEDs a moment ago: not yet
        mv = self.vsys()
        if mv < (VSYS_OFF_MV if self.on else VSYS_ON_MV):
            return ("leds_vsys", mv // 1000, mv % 1000 // 100)  # volts and tenths
        return None

    def power(self, now, force=False):
        """Switch the LED rail as the supply allows (checked every POWER_CHECK_MS, or now if
        `force`). True when what the board shows must change: the rail went on or off, the
        reason it is off changed, or it has just risen and wants a whole frame."""
        if self.on and not self.lit and ticks_diff(now, self.rise_at) >= 0:
            self.lit = True
            return True
        checked = self.checked
        if not force and checked is not None and ticks_diff(now, checked) < POWER_CHECK_MS:
            return False
        self.checked = now
        why = self._why_dark(now)
        rail = self.rail
        if why is None:
            if self.on:
                return False
            self.on = True
            self.why = None
            if rail is None:
                self.lit = True  # no switch: the LEDs are powered all along
            else:
                self.rise_at = ticks_add(now, RAIL_RISE_MS)
                rail.value(1)
            return True
        if self.on:
            self.on = self.lit = False
            if rail is not None:
                rail.value(0)
            if why[0] == "leds_vsys":
                self.retry_at = ticks_add(now, VSYS_RETRY_MS)
        elif self.why is not None and self.why[0] == why[0]:
            return False  # off, and still for the same reason
        self.why = why
        return True

    def why_text(self):
        """Why the LEDs are off, in English for the event stream; None when they are on."""
        why = self.why
        if why is None:
            return None
        if why[0] == "leds_ma":
            return (
                "LEDs off: current_ma is %d, the board needs %d mA with its LEDs dark;"
                " connect the 5 V supply and raise current_ma" % (why[1], why[2])
            )
        return (
            "LEDs off: VSYS is %d.%d V, below %d.%d V (the USB supply sags);"
            " connect the 5 V supply"
            % (why[1], why[2], VSYS_ON_MV // 1000, VSYS_ON_MV % 1000 // 100)
        )

    def _background(self, game):
        """The empty-board glow with committed chips dark, and its palette counts; rebuilt
        only when the board changed (a new or resumed game, or a turn committed or undone)."""
        key = (game, game.turns)
        if key != self.bg_key:
            self.bg_key = key
            self.sent = None
            bg = self.bg
            bg[:] = self.base
            cells = game.board.cells
            chain = self.chain
            for sq in range(self.n):
                if cells[sq]:
                    bg[chain[sq]] = OFF
            uses = self.bg_uses
            for k in range(len(uses)):
                uses[k] = 0
            for k in bg:
                uses[k] += 1
        return self.bg

    def _set(self, sq, colour):
        """Overlay one square, keeping the palette counts of the frame right."""
        f = self.frame
        j = self.chain[sq]
        uses = self.uses  # type: list  # type: ignore[assignment]  # set by compose
        uses[f[j]] -= 1
        uses[colour] += 1
        f[j] = colour
        self.overlaid.append(j)

    def compose(self, ref, blink_on):
        """Fill the frame (palette indices) from the referee's state."""
        f = self.frame
        game = ref.game
        if game is None:
            f[:] = self.base
            self.uses = None  # counted in show
            self.sent = None
            return f
        f[:] = self._background(game)
        self.uses = list(self.bg_uses)
        self.overlaid = []  # a new list: `sent` may hold the last one
        put = self._set
        cells = game.board.cells
        for sq in ref.last_move:
            put(sq, WHITE)
        if ref.in_turn():
            colour = PLAYER + game.to_move % 4
            for sq in self.corners:
                if not cells[sq]:
                    put(sq, colour)
        v = ref.verdict
        bad = ()  # type: tuple | set[int]
        if v is not None and not v.legal:
            bad = set()
            for reason in v.reasons:
                for sq in reason.where:
                    bad.add(sq)
        for sq, _ in game.pending:
            if v is None or v.legal:
                put(sq, GREEN)
            else:
                put(sq, RED if sq in bad else AMBER)
        for sq, kind in ref.alerts():  # blinking at 2 Hz; a missing chip's square goes dark
            if blink_on:
                put(sq, ALERT[kind])
            elif kind == R.MISSING:
                put(sq, OFF)
        return f

    def paint(self, marks):
        """A frame of the empty board's glow with `marks` (square -> palette index) over it,
        for the service modes (firmware/service.py)."""
        f = self.frame
        f[:] = self.base
        chain = self.chain
        for sq in marks:
            f[chain[sq]] = marks[sq]
        self.uses = None  # counted in show
        self.sent = None
        return f

    def colour_of(self, sq):
        """The full-scale colour composed for a square (before brightness and the cap)."""
        return self.colours[self.frame[self.chain[sq]]]

    def show(self):
        """Scale the palette by brightness and the current cap, and send the frame."""
        f = self.frame
        colours = self.colours
        uses = self.uses
        if uses is None:
            uses = [0] * len(colours)
            for k in f:
                uses[k] += 1
        total = 0  # sum of every channel value over the frame, at full scale
        for k in range(len(colours)):
            if uses[k]:
                c = colours[k]
                total += uses[k] * (c[0] + c[1] + c[2])
        scale = self.brightness * 256 // 100
        idle = self.n * LED_IDLE_UA
        if not self.lit:  # the rail is off: nothing is sent, or a dark frame where no switch
            if self.rail is not None:
                self.milliamps = 0
                return
            scale = total = 0
        lit = total * scale // 256 * CHANNEL_FULL_UA // 255
        if idle + lit > self.budget_ua and lit:
            scale = scale * max(0, self.budget_ua - idle) // lit
        self.milliamps = (idle + total * scale // 256 * CHANNEL_FULL_UA // 255) // 1000
        if scale != self.scale:  # the palette in wire order, scaled: only when that changed
            self.scale = scale
            self.sent = None  # every LED's bytes change
            a, b, c = self.order
            wire = self.wire
            for k in range(len(colours)):
                rgb = colours[k]
                px = bytearray(3)
                px[a] = rgb[0] * scale >> 8
                px[b] = rgb[1] * scale >> 8
                px[c] = rgb[2] * scale >> 8
                wire[k] = px
        sent = self.sent
        if sent is None:
            self.pixels.frame(f, self.wire)
        else:  # the same background: only the last frame's overlays and this one's
            self.pixels.patch(f, self.wire, sent)
            self.pixels.patch(f, self.wire, self.overlaid)
        self.sent = self.overlaid if self.uses is not None else None
        self.pixels.show()
