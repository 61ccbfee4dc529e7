"""The firmware's heap over the rulebook game, with MicroPython's garbage collector ON.

Runs `node tools/heapcheck.mjs` and parses its report. The runtime is the upstream MicroPython
WebAssembly port, the npm package pinned in tools/package.json and tools/package-lock.json
(the WASI build of tools/mpyrun.py cannot be used here: its collector corrupts memory). Set up
once with `npm ci --prefix tools` (needs Node 18 or later), then:

    python -m tools.heapcheck                  GC self-test; for the source and the .mpy build:
                                               the game at 64 KB, and the smallest heap
    python -m tools.heapcheck --heap 48K       the game at that heap only
    python -m tools.heapcheck --json           the whole report as JSON
    (other options go to heapcheck.mjs: --mode source|mpy|both, --no-search, --no-selftest,
    --hi SIZE, --repo DIR, --mpy-cross PATH)

It exits with heapcheck.mjs's status: 0 when the game fits the requested heap (64 KB unless
--heap is given), 1 when it does not, 2 on a set-up error.

What is measured (details in heapcheck.mjs): in this port a collection runs only when control
returns to JavaScript (the wasm stack cannot be scanned), and a full heap grows by a new area
instead of raising MemoryError. So the game is driven one unit of work at a time from
JavaScript (importing one module, building the board, booting, one App.step() of 10 ms), the
heap is collected after every unit, and a heap "fits" when the game completes with the right
scores and the heap never had to grow. Live figures are gc.mem_alloc() after a collection.
The smallest heap that fits is an upper bound for a device with the same heap layout (a
device can also collect inside a unit); the largest live heap is a lower bound.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
SCRIPT = TOOLS / "heapcheck.mjs"
PACKAGE = "@micropython/micropython-webassembly-pyscript"
MARKER = "HEAPCHECK "
TIMEOUT_S = 300


class HeapcheckError(RuntimeError):
    """heapcheck.mjs could not run, or printed no report."""


def node_command(node: str | None = None) -> str:
    node = node or shutil.which("node")
    if not node:
        raise HeapcheckError("heapcheck needs Node.js (18 or later) on PATH")
    if not (TOOLS / "node_modules" / PACKAGE / "package.json").is_file():
        raise HeapcheckError(f"{PACKAGE} is not installed: run `npm ci --prefix tools`")
    return node


def run(args: list[str] | tuple[str, ...] = (), node: str | None = None, echo: bool = False):
    """Run heapcheck.mjs with `args`; return (exit status, report dict, output lines).

    `echo` prints the output lines (its summary; stderr is merged in) as they come.
    """
    cmd = [node_command(node), str(SCRIPT), *args]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8"
    )
    lines, report = [], None
    assert proc.stdout is not None
    for line in proc.stdout:
        line = line.rstrip("\n")
        if line.startswith(MARKER):
            report = json.loads(line[len(MARKER) :])
            continue
        lines.append(line)
        if echo:
            print(line, flush=True)
    status = proc.wait(timeout=TIMEOUT_S)
    if report is None:
        tail = "\n".join(line[:400] for line in lines[-20:])
        raise HeapcheckError(f"heapcheck.mjs exited with status {status} and no report\n{tail}")
    return status, report, lines


def figures(report: dict) -> dict:
    """The headline figures per build: {build: {...}} (bytes)."""
    out = {}
    for build, entry in report["builds"].items():
        ref = entry["reference"]
        search = entry.get("search") or {}
        groups = ref["import_live_by_group"]
        sim = ref["sim_held"]
        # The largest live heap between moves, less what only the test set-up holds: this
        # harness, the code of firmware.sim and of the test helpers, the event lines the test
        # keeps, and MemFS's files. The simulated parts' data and the test's 152 enrolled tags
        # stay in. An estimate.
        scaffolding = (
            ref["harness"]
            + groups["sim"]
            + groups["test_helpers"]
            + sim.get("event_lines_bytes", 0)
            + sim.get("memfs_bytes", 0)
        )
        out[build] = {
            "fits_at_heap": entry["at_heap"]["fits"],
            "heap": entry["at_heap"]["heapsize"],
            "smallest_heap": search.get("smallest"),
            "max_live_between_moves": ref["max_live_between_moves"],
            "live_between_moves": ref["live_between_moves"],
            "live_after_imports": ref["live_after_imports"],
            "device_code_live": groups["device"],
            "peak_end_of_unit": max(ref["peak_imports"], ref["peak_game"]),
            "max_live_less_scaffolding": ref["max_live_between_moves"] - scaffolding,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    if as_json:
        argv.remove("--json")
    try:
        status, report, _ = run(argv, echo=not as_json)
    except HeapcheckError as err:
        # Without --json, heapcheck.mjs's output has been shown already: its first line will do.
        text = str(err) if as_json else str(err).splitlines()[0]
        print("heapcheck: %s" % text, file=sys.stderr)
        return 2
    if as_json:
        report["figures"] = figures(report)
        print(json.dumps(report, indent=1))
        return status
    print()
    for build, f in figures(report).items():
        smallest = f["smallest_heap"]
        print(
            "%s: %s KB heap: %s; smallest heap that fits: %s; max live between moves %d B "
            "(%d B without the test scaffolding, %d B of it the device modules' code)"
            % (
                build,
                f["heap"] // 1024,
                "fits" if f["fits_at_heap"] else "does NOT fit",
                "%d KB" % (smallest // 1024) if smallest else "not searched",
                f["max_live_between_moves"],
                f["max_live_less_scaffolding"],
                f["device_code_live"],
            )
        )
    return status


if __name__ == "__main__":
    sys.exit(main())
