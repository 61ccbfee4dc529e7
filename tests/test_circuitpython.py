"""The CircuitPython backend on CPython: the real `neopixel` library over simulated core modules.

tests/cpsim holds simulated CircuitPython core modules (board, microcontroller, digitalio,
analogio, busio, neopixel_write, supervisor). They must come before anything else named like
them (the adafruit-blinka package, a dependency of adafruit-circuitpython-neopixel, installs
its own board, busio, digitalio and analogio), and must not leak into other tests, so each
scenario runs in a subprocess: SCRIPT below puts tests/cpsim first on sys.path, runs one
scenario and prints its findings as one JSON line, which the tests check.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

SCRIPT = r'''
import io
import json
import sys

REPO = sys.argv[1]
sys.path[:0] = [REPO + "/tests/cpsim", REPO]

import board
import busio
import digitalio
import neopixel_write
import supervisor

assert board.__file__.startswith(REPO + "/tests/cpsim"), board.__file__


def pixels():
    from firmware.backend_circuitpython import NeoPixelSink

    out = {}
    sink = NeoPixelSink(board.GP16, 5, "GRB")
    out["order"] = list(sink.order)
    rgb = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (1, 2, 3), (200, 100, 50)]
    a, b, c = sink.order
    palette = []
    for colour in rgb:  # wire order, as firmware/leds.py builds it
        px = bytearray(3)
        px[a], px[b], px[c] = colour
        palette.append(px)
    palette = [bytes(px) for px in palette]  # the driver joins bytes
    sink.frame(bytearray([0, 4, 3, 2, 1]), palette)
    out["before_show"] = len(neopixel_write.writes)
    sink.show()
    sink.put(0, 9, 8, 7)
    sink.show()
    out["gp16"] = [f.hex() for f in neopixel_write.frames("GP16")]
    try:
        digitalio.DigitalInOut(board.GP16)
        out["claimed"] = False
    except ValueError:
        out["claimed"] = True
    rgb_sink = NeoPixelSink(board.GP17, 2, "RGB")
    rgb_sink.frame(bytearray([1, 0]), [bytes((1, 2, 3)), bytes((4, 5, 6))])
    rgb_sink.show()
    out["rgb_order"] = list(rgb_sink.order)
    out["gp17"] = [f.hex() for f in neopixel_write.frames("GP17")]
    return out


def adapters():
    from engine.compat import ticks_diff
    from firmware.backend_circuitpython import Clock, I2CBus, SPIBus
    from firmware.sim.clock import SimClock

    out = {}
    sim = SimClock(start=(1 << 29) - 5)
    supervisor.set_clock(sim)
    clock = Clock()
    t0 = clock.ticks_ms()
    sim.advance(10)  # supervisor.ticks_ms() wraps from 2**29 - 5 to 5
    t1 = clock.ticks_ms()
    out["wrap29"] = [t0, t1, ticks_diff(t1, t0), supervisor.ticks_ms()]
    diffs = []
    for _ in range(8):  # past 2**30, where MicroPython's ticks wrap too
        before = clock.ticks_ms()
        sim.advance(1 << 27)
        diffs.append(ticks_diff(clock.ticks_ms(), before))
    out["diffs"] = diffs
    out["after"] = clock.ticks_ms()

    class Twin:
        def __init__(self):
            self.data = []

        def write(self, data):
            self.data.append(data.hex())

        def read(self, n):
            return bytes(range(1, n + 1))

    twin = Twin()
    busio.attach(0x3C, twin)
    raw = busio.I2C(board.GP1, board.GP0, frequency=400000)
    try:
        raw.writeto(0x3C, b"\x00")
        out["unlocked_write"] = "accepted"
    except RuntimeError as err:
        out["unlocked_write"] = str(err)
    i2c = I2CBus(raw, 5)
    first = i2c.buf
    i2c.writevto(0x3C, (b"\x40", bytearray(b"\x01\x02\x03")))
    out["same_buffer"] = i2c.buf is first
    i2c.writevto(0x3C, (b"\x40", bytes(range(6))))
    i2c.writeto(0x3C, b"\x00\xaf")
    got = bytearray(3)
    i2c.readfrom_into(0x3C, got)
    out["i2c_writes"] = twin.data
    out["i2c_read"] = got.hex()
    out["i2c_locked"] = raw.locked()
    try:
        i2c.writeto(0x50, b"\x00")
        out["absent"] = None
    except OSError as err:
        out["absent"] = err.args[0]

    class Chain:
        def readinto(self, buf, write):
            for k in range(len(buf)):
                buf[k] = write ^ k

    busio.attach_spi(board.GP2, Chain())
    raw_spi = busio.SPI(board.GP2, board.GP3, board.GP4)
    spi = SPIBus(raw_spi, 1000000)
    buf = bytearray(3)
    spi.readinto(buf, 0xFF)
    out["spi"] = [raw_spi.baudrate, raw_spi.polarity, raw_spi.phase, buf.hex(), raw_spi.locked()]
    return out


def whole_board(tmp):
    import os
    import shutil
    import time

    from engine import profile as P
    from engine import squares
    from firmware import backend_circuitpython
    from firmware.registry import uid_hex
    from firmware.sim.clock import SimClock
    from firmware.sim.hc165_sim import SimShiftChain
    from firmware.sim.hc595_sim import SimAntennaMatrix
    from firmware.sim.pn532_sim import SimPN532
    from firmware.sim.simboard import chip_tags
    from firmware.sim.ssd1306_sim import SimSSD1306
    from tools.positions import RULEBOOK

    os.makedirs(tmp + "/pins")
    os.makedirs(tmp + "/profiles")
    shutil.copy(REPO + "/hardware/pins/pico.json", tmp + "/pins/pico.json")
    shutil.copy(REPO + "/hardware/profiles/calculissimo.json", tmp + "/profiles/calculissimo.json")
    with open(tmp + "/settings.json", "w") as f:
        json.dump({"players": 4, "turn_seconds": 0, "current_ma": 500}, f)  # LEDs lit
    profile = P.load(tmp + "/profiles/calculissimo.json")
    tags = chip_tags(profile)
    chips = {}
    for face, uids in tags.items():
        for uid in uids:
            chips[uid_hex(uid)] = face
    with open(tmp + "/chips.json", "w") as f:
        json.dump({"chips": chips}, f)
    with open(tmp + "/pins/pico.json") as f:
        pins = json.load(f)

    class Wire:
        """A cpsim pin as firmware/sim twins see a SimPin: `value()` and `listeners`."""

        def __init__(self, pin):
            self.pin = pin
            self.listeners = pin.listeners

        def value(self):
            return self.pin.level

    def gp(n):
        return getattr(board, "GP%d" % n)

    # Virtual time: supervisor counts from a SimClock that passes 2**29 during the game, and
    # CircuitPython's time.sleep advances it.
    sim = SimClock(start=(1 << 29) - 1500)
    supervisor.set_clock(sim)
    time.sleep = lambda s: sim.advance(round(s * 1000))
    pr = pins["presence"]
    chain = SimShiftChain(Wire(gp(pr["latch"])), pr["chips"])
    oled = SimSSD1306()
    busio.attach(pins["display"]["addr"], oled)
    nfc = pins["nfc"]
    field = SimAntennaMatrix(
        Wire(gp(nfc["select"]["rclk"])), Wire(gp(nfc["antenna_enable"])), profile.width
    )
    reader = SimPN532(sim, field.field, Wire(gp(nfc["reset"]))).attach(busio)
    field.reader = reader

    class SPI0:
        """The presence chain and the antenna matrix's 74HC595s on one bus (busio's twin)."""

        def spi_transfer(self, spi, out, into):
            chain.spi_transfer(spi, out, into)
            field.spi_transfer(spi, out, into)

    busio.attach_spi(gp(pr["sck"]), SPI0())

    events = io.StringIO()
    real_stdout = sys.stdout
    sys.stdout = events  # the backend writes event lines to sys.stdout
    try:
        app = backend_circuitpython.build(tmp + "/")
    finally:
        sys.stdout = real_stdout

    def run(ms):
        sys.stdout = events
        try:
            for _ in range(0, ms, app.period_ms):
                app.tick()
                app.clock.sleep_ms(app.period_ms)
        finally:
            sys.stdout = real_stdout

    def led(sq):
        frame = neopixel_write.frames("GP%d" % pins["pixels"]["pin"])[-1]
        k = 3 * app.leds.chain[sq]
        return list(frame[k : k + 3])

    out = {}
    sys.stdout = events
    try:
        app.boot()
    finally:
        sys.stdout = real_stdout
    run(50)
    out["problems"] = app.problems
    out["vsys_mv"] = app.leds.vsys()  # board.VOLTAGE_MONITOR through analogio
    laid = []
    for part in RULEBOOK[0].split():
        name, face = part.split(":")
        sq = squares.parse(name, profile.width, profile.height)
        field.tags[sq] = tags[face].pop()
        chain.set(sq, True)
        run(400)
        laid.append(sq)
    out["pending"] = len(app.referee.game.pending)
    out["legal"] = app.referee.verdict.legal
    out["scale"] = app.leds.scale
    out["pending_leds"] = [led(sq) for sq in laid]
    out["screen"] = oled.text_lines()
    ok = gp(pins["buttons"]["ok"])
    ok.drive(0)  # the button pulls the input low
    run(40)
    ok.drive(None)  # released: the pull-up wins again
    run(40)
    out["confirmed_leds"] = [led(sq) for sq in laid]

    class Console:
        """The USB console's input as the supervisor and sys.stdin see it."""

        def __init__(self, text):
            self.text = text

        def available(self):  # bytes, as CircuitPython's supervisor counts them
            return len(self.text.encode())

        def read(self, n):
            data, self.text = self.text[:n], self.text[n:]
            return data

    console = Console('{"cmd": "hello", "id": 5, "x": "×"}\n')
    supervisor.runtime.console = console
    real_stdin = sys.stdin
    sys.stdin = console
    try:
        run(20)
    finally:
        sys.stdin = real_stdin
    out["events"] = [json.loads(line) for line in events.getvalue().splitlines()]
    out["frame_bytes"] = len(neopixel_write.frames("GP%d" % pins["pixels"]["pin"])[-1])
    out["frames"] = len(neopixel_write.frames("GP%d" % pins["pixels"]["pin"]))
    out["ticks_past_wrap"] = app.clock.ticks_ms() >= 1 << 29
    out["supervisor_ticks"] = supervisor.ticks_ms()
    spi = app.hw.chain.spi.spi
    out["spi"] = [spi.baudrate, spi.polarity, spi.phase, spi.locked(), spi.transfers]
    i2c = app.hw.display.i2c.i2c
    out["i2c"] = [i2c.frequency, i2c.locked()]
    out["reader_commands"] = sorted(reader.commands)
    out["nfc_violations"] = field.violations + reader.violations
    out["oled_frames"] = oled.frames
    return out


scenario = sys.argv[2]
if scenario == "pixels":
    result = pixels()
elif scenario == "adapters":
    result = adapters()
else:
    result = whole_board(sys.argv[3])
print("RESULT " + json.dumps(result))
'''


def _run(*args: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(REPO), *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    if proc.returncode != 0:
        pytest.fail(f"scenario {args[0]} failed:\n{proc.stdout}\n{proc.stderr}")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, proc.stdout
    return json.loads(lines[-1][len("RESULT ") :])


def test_neopixel_sink_frames_through_the_real_library():
    out = _run("pixels")
    assert out["order"] == [1, 0, 2]
    assert out["before_show"] == 0  # auto_write is off: nothing goes out before show()
    # LED j shows palette index [0, 4, 3, 2, 1][j].
    want = bytes(
        (0, 0, 0)  # square 4: off
        + (100, 200, 50)  # square 3: (200, 100, 50) as G, R, B
        + (2, 1, 3)  # square 2: (1, 2, 3)
        + (255, 0, 0)  # square 1: green
        + (0, 255, 0)  # square 0: red
    )
    assert out["gp16"][0] == want.hex()
    assert out["gp16"][1] == (bytes((8, 9, 7)) + want[3:]).hex()  # put(0, r=9, g=8, b=7)
    assert out["claimed"]  # the library holds the data pin
    assert out["rgb_order"] == [0, 1, 2]
    assert out["gp17"] == [bytes((4, 5, 6, 1, 2, 3)).hex()]


def test_clock_and_bus_adapters():
    out = _run("adapters")
    t0, t1, diff, raw = out["wrap29"]
    assert (t0, t1, diff, raw) == ((1 << 29) - 5, (1 << 29) + 5, 10, 5)
    assert out["diffs"] == [1 << 27] * 8
    assert out["after"] == ((1 << 29) + 5 + (1 << 30)) % (1 << 30)
    assert out["unlocked_write"] == "Function requires lock"
    assert out["same_buffer"] is True
    assert out["i2c_writes"] == ["40010203", "40000102030405", "00af"]  # grew once for 7 bytes
    assert out["i2c_read"] == "010203"
    assert out["i2c_locked"] is False
    assert out["absent"] == 19  # ENODEV, as CircuitPython on the RP2040
    assert out["spi"] == [1000000, 1, 0, "fffefd", False]  # mode 2 (drivers/hc165.py)


def test_whole_board_on_circuitpython(tmp_path):
    out = _run("board", str(tmp_path / "flash"))
    assert out["problems"] == []
    assert 4990 <= out["vsys_mv"] <= 5010  # VSYS 5 V, read as the Pico's divider gives it
    assert out["pending"] == 5 and out["legal"] is True
    green = 255 * out["scale"] >> 8
    assert green > 0
    assert out["pending_leds"] == [[green, 0, 0]] * 5  # GRB on the wire: pure green
    assert "Move 48 pts" in out["screen"][3]
    moves = [ev for ev in out["events"] if ev["ev"] == "move"]
    assert len(moves) == 1 and moves[0]["score"] == 48
    placed = [ev["square"] for ev in out["events"] if ev["ev"] == "placed"]
    replies = [ev for ev in out["events"] if ev["ev"] == "reply"]  # a command over USB
    assert [(r["id"], r["ok"], r["game"]) for r in replies] == [(5, True, "calculissimo")]
    assert placed == ["D8", "E8", "F8", "G8", "H8"]
    white = [out["confirmed_leds"][0][0]] * 3
    assert white[0] > 0 and out["confirmed_leds"] == [white] * 5  # now the last move: white
    assert out["frame_bytes"] == 225 * 3 and out["frames"] > 5
    assert out["ticks_past_wrap"] is True and out["supervisor_ticks"] < 1 << 28
    assert out["spi"][:4] == [1000000, 1, 0, False] and out["spi"][4] > 100
    assert out["i2c"] == [400000, False]
    assert 0x4A in out["reader_commands"]  # InListPassiveTarget: tags were read
    assert out["nfc_violations"] == []  # never an antenna switched under RF
    assert out["oled_frames"] >= 2
