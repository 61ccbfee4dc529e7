"""Firmware cost probes that run inside MicroPython under tools/mpyrun (for `make bench`).

The firmware's own cost is wanted, not the twins': `Meter` wraps a twin and adds up the fuel
spent inside its methods, so it can be taken off a measurement. On the board those calls are
the hardware's (an SPI transfer, an I2C transfer, the PIO bit stream, a pin's level: a C
call, while a simulated pin's change runs the twins listening to it), done in C or by
peripherals while the CPU waits.

- `scan_costs()`: one full presence scan of 225 squares (the driver's read with an SPI that
  costs nothing, plus the debounce), for a quiet board, a board where every square starts to
  change, and the scan in which all 225 changes are reported.
- `screen_cost()`: drawing the display after a move (the lines that changed) and a full
  eight-line screen, into the framebuffer and out to the bus.
- `sense_to_led(case)`: for every chip of one legal move of the bench set (`_move`: the
  rulebook's five moves, each with the chips of the moves before it on the board, and the
  dense positions of tools/positions.py), each on a fresh board, the step in which that chip
  settles: its NFC read, the referee's live preview of the move so far, and the LED frame,
  up to the moment the frame is handed to the LED chain. Every chip's figure, and the
  costliest chip's detail; `move_count()` says how many cases there are.
"""

from tools.fuelprobe import fuel


class Meter:
    """Forwards calls to `target`'s methods, adding the fuel spent inside them to `spent`."""

    def __init__(self, target, names):
        self.target = target
        self.spent = 0
        self.calls = 0
        for name in names:
            setattr(self, name, self._wrap(getattr(target, name)))

    def _wrap(self, method):
        def call(*args, **kw):
            a = fuel()
            result = method(*args, **kw)
            b = fuel()
            self.spent += a - b
            self.calls += 1
            return result

        return call


def _overhead():
    """The fuel one metered call adds beyond what its window counts (the probe's own calls)."""
    from tools.fuelprobe import cost

    class Nop:
        def nop(self):
            return None

    m = Meter(Nop(), ("nop",))
    m.nop()  # first-call costs out of the way
    m.spent = 0
    metered, _ = cost(m.nop)
    return metered - m.spent  # the method's own cost is in `spent`, taken off separately


class _NullSPI:
    def readinto(self, buf, write=0):
        return None


class _NullPin:
    def value(self, v=None):
        return None


def scan_costs(squares=225, scans=3):
    from firmware.drivers.hc165 import ShiftChain
    from firmware.presence import Presence
    from firmware.presence import squares as unpack
    from tools.fuelprobe import cost

    chain = ShiftChain(_NullSPI(), _NullPin(), (squares + 7) // 8)
    p = Presence(squares, scans)
    for k in range(len(chain.buf)):
        chain.buf[k] = 0xFF  # no magnets (inputs pulled up)
    p.scan(chain.read())
    quiet, _ = cost(lambda: p.scan(chain.read()))
    for k in range(len(chain.buf)):
        chain.buf[k] = 0  # a magnet on every square
    first, _ = cost(lambda: p.scan(chain.read()))
    for _ in range(scans - 2):
        p.scan(chain.read())
    last, entries = cost(lambda: p.scan(chain.read()))
    changes = sum(len(unpack(e)) for e in entries)
    return {"quiet": quiet, "all_start": first, "all_report": last, "changes": changes}


def _dense_moves():
    """The dense positions' moves: (label, game, a tools/positions function giving the
    profile from the game's default one or None, the chips on the board, the move)."""
    from tools import positions

    return (
        ("dense", "calculissimo", None, positions.DENSE_BOARD, positions.DENSE_MOVE),
        (
            "worst-case premiums",
            "calculissimo",
            positions.worst_profile,
            positions.DENSE_BOARD,
            positions.DENSE_MOVE,
        ),
        (
            "7 shared purples",
            "calculissimo",
            positions.row_profile,
            positions.ROW_BOARD,
            positions.ROW_MOVE,
        ),
        (
            "calqable dense",
            "calqable",
            None,
            positions.CALQABLE_DENSE_BOARD,
            positions.CALQABLE_DENSE_MOVE,
        ),
    )


def move_count():
    """How many moves `sense_to_led` measures (its cases: 0 to this, less one)."""
    from tools.positions import RULEBOOK

    return len(RULEBOOK) + len(_dense_moves())


def _move(case):
    """The legal move of case `case`, as _dense_moves gives them: the rulebook's five moves
    first, each with the chips of the moves before it on the board, then the dense ones."""
    from tools.positions import RULEBOOK

    if case >= len(RULEBOOK):
        return _dense_moves()[case - len(RULEBOOK)]
    before = {}
    for text in RULEBOOK[:case]:
        for part in text.split():
            name, face = part.split(":")
            before[name] = face
    return "rulebook move %d" % (case + 1), "calculissimo", None, before, RULEBOOK[case]


def _board(game, change=None, chips=None):
    """A booted SimBoard of `game`'s default profile (`change`: a function of its JSON data
    giving another Profile), with `chips` ({square name: face}) on it as if played before:
    in the game's state, and lying on the board, sensed."""
    import json

    from engine import faces, squares
    from engine.compat import collect
    from engine.profile import Profile
    from tools import positions

    collect()  # on a Pico: the board's parts on a collected heap, not among garbage
    from firmware.sim.simboard import SimBoard

    with open("/input/hardware/profiles/%s.json" % game) as f:
        data = json.load(f)
    prof = change(data) if change is not None else Profile(data)
    # 500 mA: a MicroPython that declares it (the stock 250 mA keeps the LEDs off)
    settings = {"players": 4, "turn_seconds": 0, "current_ma": 500, "game": game}
    board = SimBoard(prof, settings)
    board.boot()
    board.run(50)
    if chips:
        app = board.app
        positions.lay_out(app.referee.game, chips)
        for name, text in chips.items():
            ch, joker = faces.parse(text)
            board.put(squares.parse(name, prof.width, prof.height), faces.text(ch, joker))
        while len(app.sensing.placed) < len(chips):  # the committed chips, read again
            board.run(100)
        app.leds.bg_key = None  # laid out behind the LEDs' back: their background anew
        app.refresh(force=True)
    return board


def _rulebook_board():
    return _board("calculissimo")


def screen_cost():
    from engine import squares
    from firmware.screen import Screen
    from tools.fuelprobe import cost
    from tools.positions import RULEBOOK

    board = _rulebook_board()
    app = board.app
    i2c = Meter(board.i2c, ("writeto", "writevto"))
    app.hw.display.i2c = i2c
    for part in RULEBOOK[0].split():
        name, face = part.split(":")
        board.place(squares.parse(name, 15, 15), face)
    ref = app.referee
    app.screen.update(ref)
    before = list(app.screen.lines)  # the display as the move is about to be confirmed
    board.pins["ok"].drive(0)  # the move is confirmed: scores, turn and message change
    board.run(40)
    board.pins["ok"].drive(1)
    app.screen.lines = before  # measure the redraw from the display before the move
    overhead = _overhead()
    i2c.spent = i2c.calls = 0
    after_move, _ = cost(lambda: app.screen.update(ref))
    changed = sum(1 for k in range(8) if app.screen.lines[k] != before[k])
    move = after_move - i2c.spent - i2c.calls * overhead
    fresh = Screen(app.hw.display)
    i2c.spent = i2c.calls = 0
    full, _ = cost(lambda: fresh.update(ref))
    full = full - i2c.spent - i2c.calls * overhead
    chars = sum(len(line) for line in fresh.lines)
    return {"after_move": move, "lines_changed": changed, "full": full, "chars": chars}


_SPACES = []  # type: list[list]


def _spaces(count=20, words=16384):
    """Free space low in the heap for each measured step (the WASI build only).

    With the collector off (tools/mpyrun.py) the heap never has free space below what the
    run allocated. A block freed low in the heap (a dict or list that grew: the table it
    left) then makes every later allocation of two blocks or more scan the whole used heap
    up from that hole: 0.6-0.9 M fuel each after a board's set-up (measured: a 100-byte
    bytearray cost 591,477 fuel where a fresh run pays 4,062). A board collects its garbage
    and allocates from free space low in its small heap. So before the board is made,
    `count` lists of `words` words (64 KB: a chip's step allocates about 25 KB, the display
    included) are put aside here, and before the step in which a chip settles one of them
    is let go (`_Steps._let_go`): that step allocates in free space as on a collected heap,
    and a table it frees lies above that space. The figures then agree to 0.01 % whatever
    the spaces' size (16,384 to 100,000 words tried); without them a chip's figure varied
    by up to 3.4 M fuel with where the run's earlier garbage happened to lie."""
    from tools.fuelprobe import UNIT

    del _SPACES[:]
    if UNIT == "fuel":  # the emulated Pico collects: nothing to do, and no RAM to spare
        for _ in range(count):
            _SPACES.append([None] * words)
    return _SPACES


def _pin_meters(app):
    """Meter the pins the drivers drive and read, in place: a level change runs the twins
    that listen to it (the presence chain's parallel load samples every square, the antenna
    matrix's latch switches the coils), which on a board is the hardware's; a pin's read or
    write is a call into C there."""
    sensing = app.sensing
    owners = [(app.hw.chain, "latch"), (app.leds, "rail")]
    if sensing.antenna is not None:
        owners += [(sensing.antenna, "_latch"), (sensing.antenna, "_enable")]
    if sensing.reader is not None:
        owners.append((sensing.reader, "_reset"))
    out = []
    for owner, name in owners:
        pin = getattr(owner, name, None)
        if pin is not None:
            meter = Meter(pin, ("value",))
            setattr(owner, name, meter)
            out.append(meter)
    pins = app.buttons.pins
    for k in range(len(pins)):
        pins[k] = meter = Meter(pins[k], ("value",))
        out.append(meter)
    return out


class _Steps:
    """Measures the main-loop step in which each chip laid on `board` settles."""

    def __init__(self, board):
        self.board = board
        app = board.app
        # Meter every twin the drivers talk to; note the fuel when the LED frame is sent.
        # SPI0 carries the presence chain's reads and the antenna switches' writes.
        self.spi = spi = Meter(board.spi, ("readinto", "write", "init"))
        app.hw.chain.spi = spi
        if app.sensing.antenna is not None:
            app.sensing.antenna._spi = spi
        self.i2c = i2c = Meter(board.i2c, ("writeto", "writevto", "readfrom_into", "readfrom"))
        app.sensing.reader._i2c = i2c
        app.hw.display.i2c = i2c
        self.meters = meters = [spi, i2c] + _pin_meters(app)
        self.sent = []
        strip_write = board.strip.write

        def write(buf):
            spent = calls = 0
            for m in meters:
                spent += m.spent
                calls += m.calls
            self.sent.append((fuel(), spent, calls))
            strip_write(buf)

        app.hw.pixels._write = write
        self.overhead = _overhead()
        self.spaces = _SPACES  # put aside before the board was made: see _spaces
        self.held = len(_SPACES)

    def _let_go(self):
        """Free the highest space still held (see _spaces): below the last one let go, so
        the step allocates from its start. (Not popped: a list that shrinks frees the end
        of its own array, low in the heap, and the allocator would then scan from there.)"""
        held = self.held
        if held:
            self.held = held - 1
            self.spaces[held - 1].clear()  # cleared, a list frees its items

    def chip(self, square, face):
        """Put a chip down and run the loop until it is placed: that step's figures."""
        board = self.board
        app = board.app
        from engine.compat import ticks_diff

        sent = self.sent
        settle_ms = app.sensing.settle_ms
        board.put(square, face)
        for _ in range(100):
            before = len(app.sensing.placed)
            for m in self.meters:
                m.spent = m.calls = 0
            del sent[:]
            t0 = board.clock.ticks_ms()
            since = app.sensing.waiting.get(square)
            if since is not None and ticks_diff(t0, since) >= settle_ms:
                self._let_go()  # the chip settles in this step
            start = fuel()
            app.step()
            waited = board.clock.ticks_ms() - t0  # the reader's replies, on the twin's clock
            board.clock.advance(app.period_ms)
            if len(app.sensing.placed) > before:
                break
        if not sent:
            raise RuntimeError("no LED frame was sent in the placement's step")
        # Only the twins' fuel before the frame counts (the display is drawn after the LEDs).
        at, twins, calls = sent[0]
        gross = start - at
        return {
            "fuel": gross - twins - calls * self.overhead,
            "gross": gross,
            "twins": twins,
            "metered_calls": calls,
            "overhead_per_call": self.overhead,
            "virtual_ms": waited,
            "score": app.referee.verdict.score,
        }


def sense_to_led(case):
    """Move `case` (see `_move`) laid a chip at a time on a fresh board: every chip's fuel
    (`chips`, in the order laid; `labels` says which, `game` which game), and the figures of
    the costliest (`where`).

    Run each case in a run of its own: with the collector off (tools/mpyrun.py) a long run
    leaves holes low in the heap, and every allocation of more than one block then searches
    up from them, a cost of the WASI build that grows with what the run allocated before."""
    from engine import squares

    label, game, change, laid, move = _move(case)
    _spaces()  # before the board: low in the heap
    board = _board(game, change, laid)
    steps = _Steps(board)
    worst = None
    chips = []
    labels = []
    parts = move.split()
    for k in range(len(parts)):
        name, face = parts[k].split(":")
        got = steps.chip(squares.parse(name, 15, 15), face)
        chips.append(got["fuel"])
        labels.append("%s, chip %d of %d (%s)" % (label, k + 1, len(parts), parts[k]))
        if worst is None or got["fuel"] > worst["fuel"]:
            worst = got
            got["where"] = labels[-1]
    worst["chips"] = chips  # type: ignore[index]  # set: a move lays chips
    worst["labels"] = labels  # type: ignore[index]
    worst["game"] = game  # type: ignore[index]
    return worst
