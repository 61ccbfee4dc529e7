"""The heap over a whole game, on the Pico's own firmware (stock v1.27.0, emulated RP2040).

The rulebook game (five moves, scored 48, 12, 33, 38, 19) is played on a SimBoard on the
emulated chip, chip by chip through the simulated sensors and buttons; then the sensor test
(a service mode) runs while a chip is laid and lifted; then the largest upload the board
takes, a chips.json of MAX_UPLOAD (16,384) characters sent in parts over the console, as
`host_tools enrol` would. The collector is on, with the stock 246,016 B heap, and
`gc.threshold` makes it run every THRESHOLD bytes allocated, so the lowest free heap seen
just after a collection (rp2emu's `heap_watch`) is the game's high-water mark to within that.

What the figure counts that a board does not carry: the simulated parts' code and state (the
twins of the shift registers, LEDs, display, reader and antenna matrix, in RAM here) and the
event lines the SimBoard keeps (dropped after each move, as the board sends them to USB).
So the margin measured is a lower bound for the board. The twins' code alone is measured
too (free heap after importing the firmware without them, less with them) and reported, so
the board's own margin can be read as that figure plus it.

    python -m tools.picogame           the figures as JSON (about a minute)
"""

from __future__ import annotations

import json
import sys

from tools import rp2emu

THRESHOLD = 4096  # bytes allocated between collections while the game runs
RESULT = "PICOGAME "
PHASE = "PICOGAME-PHASE"

# The modules the board's firmware imports at boot, and those the simulation adds.
FIRMWARE_ROOT = "firmware.app"
SIM_ROOT = "firmware.sim.simboard"

_GAME = """
import gc, json, micropython
from engine import profile as P, squares
from firmware.sim.simboard import SimBoard
PROF = P.load("/input/hardware/profiles/calculissimo.json")
MOVES = @MOVES@
SCORES = []
REPLIES = []
FAULTS = []
def settle(name):
    for line in board.lines:  # the supervisor reports what a step raised (MemoryError too)
        if '"ev": "fault"' in line:
            FAULTS.append([name, json.loads(line)])
    del board.lines[:]
    gc.collect()
    print("@PHASE@", name)
    micropython.mem_info()  # free, and the largest free block (fragmentation)
def sq(name):
    return squares.parse(name, 15, 15)
def scores():
    for line in board.lines:
        if '"ev": "move"' in line:
            SCORES.append(json.loads(line)["score"])
def send(msg):
    board.usb_in.extend(json.dumps(msg).encode() + b"\\n")
    n = len(board.lines)
    board.run(20)
    for line in board.lines[n:]:
        if '"ev": "reply"' in line:
            return json.loads(line)
    return None
def upload(path, source):
    # 600 characters a part: JSON escapes (the registry's \\u00d7) must keep each command line
    # under the console's 1,024 bytes, as host_tools sizes its parts
    reply = None
    offset = 0
    with open(source) as f:
        part = f.read(600)
        while part:
            msg = {"cmd": "put", "id": 3, "path": path, "text": part, "offset": offset}
            offset += len(part)
            part = f.read(600)
            if part:
                msg["more"] = True
            reply = send(msg)
    REPLIES.append([path, offset, reply and reply.get("ok"), reply and reply.get("error")])
def game():
    for k in range(len(MOVES)):
        for part in MOVES[k].split():
            name, face = part.split(":")
            board.place(sq(name), face)
        board.press("ok")
        board.run(200)
        scores()
        settle("move%d" % (k + 1))
def service():
    REPLIES.append(send({"cmd": "diag", "id": 1, "on": True}).get("ok"))
    board.place(sq("A1"), "7")
    board.lift(sq("A1"))
    REPLIES.append(send({"cmd": "diag", "id": 2, "on": False}).get("ok"))
    settle("service")
def uploads():
    upload("chips.json", "/input/tests/data/chips-both-sets.json")
    settle("upload")
board = SimBoard(PROF, {"players": 4, "turn_seconds": 0, "current_ma": 500})
board.boot()
board.run(50)
settle("boot")
gc.threshold(@THRESHOLD@)
ERROR = None
try:
    for phase in (game, service, uploads):
        phase()
except MemoryError as err:  # the figure to report, not a crash of the probe
    ERROR = "%s: %s" % (phase.__name__, err)
gc.threshold(-1)
print("@RESULT@" + json.dumps({"scores": SCORES, "replies": REPLIES, "error": ERROR, "faults": FAULTS}))
"""


BLOCK_BYTES = 16  # the rp2 port's GC block: mem_info's "max free sz" counts these


def phases(stdout: str, mark: str = PHASE) -> dict[str, dict[str, int]]:
    """{phase: {"free": B, "largest": B}} from the script's phase marks (`mark` and the
    phase's name) and the mem_info lines after each."""
    out: dict[str, dict[str, int]] = {}
    name = None
    for line in stdout.splitlines():
        if line.startswith(mark + " "):
            name = line[len(mark) + 1 :]
            out[name] = {}
        elif name is not None and line.startswith("GC: total:"):
            out[name]["free"] = int(line.rsplit("free:", 1)[1].strip())
        elif name is not None and "max free sz:" in line:
            out[name]["largest"] = int(line.rsplit("max free sz:", 1)[1]) * BLOCK_BYTES
    return out


def _imports(root: str) -> str:
    """Import `root`'s modules leaves first, a collection after each (as tests/test_pico.py)."""
    order = rp2emu.import_order(root)
    return "import gc\nfor _m in %r:\n    __import__(_m)\n    gc.collect()\n" % (order,)


def _free_after(pico: rp2emu.Pico, root: str) -> int:
    code = rp2emu.prelude() + _imports(root) + "print(%r + str(gc.mem_free()))\n" % RESULT
    result = pico.run(code)
    if not result.ok or RESULT not in result.stdout:
        raise SystemExit("the emulated Pico could not import %s:\n%s" % (root, result.describe()))
    return int(result.stdout.split(RESULT, 1)[1].split()[0])


def measure() -> dict:
    """The game's heap figures on the emulated Pico (see the module docstring)."""
    from tools.positions import RULEBOOK

    game = (
        _GAME.replace("@MOVES@", repr(tuple(RULEBOOK)))
        .replace("@THRESHOLD@", str(THRESHOLD))
        .replace("@RESULT@", RESULT)
        .replace("@PHASE@", PHASE)
    )
    image = rp2emu.build_image()
    with rp2emu.Pico(image, heap_watch=True) as pico:
        firmware = _free_after(pico, FIRMWARE_ROOT)
        with_twins = _free_after(pico, SIM_ROOT)
        result = pico.run(rp2emu.prelude() + _imports(SIM_ROOT) + game, 20_000_000_000, 600)
    if not result.ok or RESULT not in result.stdout:
        raise SystemExit("the game did not finish on the emulated Pico:\n" + result.describe())
    out = json.loads(result.stdout.split(RESULT, 1)[1].splitlines()[0])
    out["phases"] = phases(result.stdout)
    out.update(
        {
            "heap": rp2emu.HEAP_BYTES,
            "after_firmware_imports": firmware,
            "after_sim_imports": with_twins,
            "twins_code": firmware - with_twins,
            "lowest": result.heap_low,
            "collections": result.collections,
            "threshold": THRESHOLD,
            "cycles": result.cycles,
        }
    )
    return out


def main() -> int:
    print(json.dumps(measure(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
