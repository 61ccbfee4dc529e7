"""`make bench` on the Pico's own firmware: emulated cycles, and the heap with the collector on.

The same probes as tools/bench.py (engine figures, tools/fwbench.py) run on the stock
MicroPython v1.27.0 RPI_PICO image on an emulated RP2040 (tools/rp2emu.py), the code loaded
from .mpy files exactly as `host_tools flash` leaves a stock board. There tools/fuelprobe.py
counts emulated cycles instead of wasm fuel (to 125 cycles, one microsecond), so each figure
gets its cycles, and from them milliseconds at 125 MHz, beside its fuel.

What the emulator does not model: the flash cache. Real hardware runs the interpreter from
flash through a 16 KB cache, so it may be 1.3-1.5 x slower than these milliseconds
(../shared/rp2/README.md); the budgets are checked against the emulated figure and the
report says so beside them.

The heap (`board_boot()`): the board's own firmware, as `host_tools flash` leaves a stock
board, boots on the emulated chip (main.py; the emulated buses answer nothing, so the parts
are reported missing and the game starts) and its boot event says its free heap, beside the
free heap of MicroPython alone. The emulated pins are not wired to the simulated parts, so
the game itself is played there on a SimBoard, the twins' code in RAM too
(tools/picogame.py: the lowest free heap over the rulebook game, a sensor test and the
largest upload).
"""

from __future__ import annotations

import json

from tools import rp2emu

CYCLES_PER_MS = 125_000
RESULT = "PICOBENCH "
# MicroPython 1.22's rp2 heap is about 12 KB smaller than 1.27's (issue 10, from the port's
# linker maps): the margin there is this run's lowest less that.
HEAP_LESS_ON_1_22 = 12 * 1024

_PROBE = "from tools import fuelprobe\nfuelprobe.cost(lambda: None)\n"

_FIRMWARE = """
import json
from tools import fwbench
print("@RESULT@" + json.dumps(@CALLS@))
""".replace("@RESULT@", RESULT)


def _result(result: rp2emu.Result, what: str):
    if not result.ok or RESULT not in result.stdout:
        raise SystemExit(f"the emulated Pico could not run {what}:\n{result.describe()}")
    return json.loads(result.stdout.split(RESULT, 1)[1].splitlines()[0])


def engine(pico: rp2emu.Pico, setup: str, cases: list[tuple[str, str, str]]) -> dict[str, int]:
    """{key: emulated cycles} for each (key, case set-up, expression) in `cases`.

    Each runs after a soft reset, on a fresh heap, measured as tools/bench.py measures fuel:
    the first evaluation after the set-up, the probe's own cost taken off.
    """
    out = {}
    for key, case, op in cases:
        code = (
            rp2emu.prelude()
            + setup
            + case
            + _PROBE
            + "f, v = fuelprobe.cost(lambda: (%s))\n" % op
            + "print(%r + str(f))\n" % RESULT
        )
        out[key] = int(_result(pico.run(code), key))
    return out


def _fwbench(pico: rp2emu.Pico, calls: str):
    code = rp2emu.prelude() + _FIRMWARE.replace("@CALLS@", calls)
    return _result(pico.run(code), "tools/fwbench.py")


def costliest(moves: list[dict]) -> dict:
    """`fwbench.sense_to_led`'s figures for each move made one: the costliest chip's, with
    every chip's figure (`chips`) and name (`labels`), in the order the moves were given."""
    chips: list[int] = []
    labels: list[str] = []
    for move in moves:
        chips += move["chips"]
        labels += move["labels"]
    worst = max(moves, key=lambda move: move["fuel"])
    out = {key: value for key, value in worst.items() if key not in ("chips", "labels")}
    out.update(chips=chips, labels=labels)
    return out


def firmware(pico: rp2emu.Pico) -> dict:
    """tools/fwbench.py's figures in emulated cycles: scan, sensed -> LED frame (a list: each
    move after a soft reset, as on the WASI build; see `costliest`), display."""
    scan, screen, count = _fwbench(
        pico, "[fwbench.scan_costs(), fwbench.screen_cost(), fwbench.move_count()]"
    )
    led = [_fwbench(pico, "fwbench.sense_to_led(%d)" % k) for k in range(count)]
    return {"scan": scan, "sense_to_led": led, "screen": screen}


def boot_free(said: str) -> int | None:
    """The free heap the firmware's boot event gives; SystemExit when it did not boot."""
    for line in said.splitlines():
        if '"ev": "boot"' in line:
            return json.loads(line).get("free")
    raise SystemExit("the firmware did not boot on the emulated Pico; main.py said:\n" + said)


def board_boot() -> dict:
    """The board's own firmware on the stock image, as `host_tools flash` leaves it (no
    twins, no tests): main.py boots on the emulated chip, whose buses answer nothing, and its
    boot event gives the free heap with the firmware loaded. Also the free heap of MicroPython
    alone (a script after a soft reset, which main.py does not run again), and the boot's on
    the ROMFS firmware the repository ships (deploy/firmware/), the code in its partition as
    `host_tools flash` puts it there ("romfs"; None without it)."""
    image = rp2emu.build_image(with_tests=False)
    with rp2emu.Pico(image) as pico:
        result = pico.run("import gc\ngc.collect()\nprint(%r + str(gc.mem_free()))\n" % RESULT)
        alone = int(_result(result, "the free heap"))
        said = pico.boot.get("main_said") or ""
    out = {"micropython": alone, "firmware": boot_free(said), "said": said, "romfs": None}
    if rp2emu.SHIPPED_ROMFS.is_file():
        with rp2emu.shipped_pico(with_tests=False) as pico:
            # (the Pico boots for its first script)
            _result(pico.run("print(%r + 'true')\n" % RESULT), "the ROMFS boot")
            out["romfs"] = boot_free(pico.boot.get("main_said") or "")
    return out


def measure(setup: str, cases: list[tuple[str, str, str]]) -> dict:
    """Every emulated figure: {"engine", "firmware", "board"}."""
    image = rp2emu.build_image()
    with rp2emu.Pico(image) as pico:
        out = {"engine": engine(pico, setup, cases), "firmware": firmware(pico)}
    out["board"] = board_boot()
    return out
