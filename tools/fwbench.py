"""Firmware cost probes that run inside MicroPython under tools/mpyrun (for `make bench`).

The firmware's own cost is wanted, not the twins': `Meter` wraps a twin and adds up the fuel
spent inside its methods, so it can be taken off a measurement. On the board those calls are
the hardware's (an SPI transfer, an I2C transfer, the PIO bit stream), done in C or by
peripherals while the CPU waits.

- `scan_costs()`: one full presence scan of 225 squares (the driver's read with an SPI that
  costs nothing, plus the debounce), for a quiet board, a board where every square starts to
  change, and the scan in which all 225 changes are reported.
- `screen_cost()`: drawing the display after a move (the lines that changed) and a full
  eight-line screen, into the framebuffer and out to the bus.
- `sense_to_led()`: the step in which the fifth chip of the rulebook's first move settles:
  its NFC read, the referee's live preview of the five-chip move, and the LED frame, up to
  the moment the frame is handed to the LED chain.
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


def _rulebook_board():
    import json

    from engine.profile import Profile
    from firmware.sim.simboard import SimBoard

    with open("/input/hardware/profiles/calculissimo.json") as f:
        prof = Profile(json.load(f))
    # 500 mA: a MicroPython that declares it (the stock 250 mA keeps the LEDs off)
    board = SimBoard(prof, {"players": 4, "turn_seconds": 0, "current_ma": 500})
    board.boot()
    board.run(50)
    return board


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


def sense_to_led():
    from engine import squares
    from tools.positions import RULEBOOK

    board = _rulebook_board()
    chips = [part.split(":") for part in RULEBOOK[0].split()]
    for name, face in chips[:-1]:
        board.place(squares.parse(name, 15, 15), face)
    app = board.app
    # Meter every twin the drivers talk to; note the fuel when the LED frame is sent.
    # SPI0 carries the presence chain's reads and the antenna switches' writes.
    spi = Meter(board.spi, ("readinto", "write", "init"))
    app.hw.chain.spi = spi
    if app.sensing.antenna is not None:
        app.sensing.antenna._spi = spi
    i2c = Meter(board.i2c, ("writeto", "writevto", "readfrom_into", "readfrom"))
    app.sensing.reader._i2c = i2c
    app.hw.display.i2c = i2c
    sent = []
    strip_write = board.strip.write

    def write(buf):
        sent.append((fuel(), spi.spent + i2c.spent, spi.calls + i2c.calls))
        strip_write(buf)

    app.hw.pixels._write = write
    name, face = chips[-1]
    square = squares.parse(name, 15, 15)
    board.put(square, face)
    overhead = _overhead()
    for _ in range(100):
        before = len(app.sensing.placed)
        spi.spent = i2c.spent = spi.calls = i2c.calls = 0
        del sent[:]
        t0 = board.clock.ticks_ms()
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
    net = gross - twins - calls * overhead
    return {
        "fuel": net,
        "gross": gross,
        "twins": twins,
        "metered_calls": calls,
        "overhead_per_call": overhead,
        "virtual_ms": waited,
        "score": app.referee.verdict.score,
    }
