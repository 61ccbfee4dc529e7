"""Run the tests/engine and tests/fw test modules on the real Pico firmware, on an emulated chip.

The stock MicroPython v1.27.0 image for the Raspberry Pi Pico runs on an emulated RP2040
(tools/rp2emu.py: rp2040js under Node), with the board's files as `host_tools flash` lays them
out, compiled with mpy-cross, and the test modules beside them. The heap is the stock one
(246,016 B) with the collector on, so a module that needs more memory than a Pico has, or that
splinters it, fails here with MemoryError.

One pytest test per module, with the checks of tests/test_micropython.py: it fails if any test
failed on the Pico, if the run died before the end (an exception at import, MemoryError
outside a test, the cycle or time budget), or if the set of tests that ran differs from what
pytest collects. Each module runs after a soft reset, so on a fresh heap; before it runs, the
repository modules it imports at load time are imported one by one, leaves first, with a
collection after each (what a module's loading leaves behind is then freed before the next
one's code is laid down, so it does not splinter the heap among the code). The modules its
tests would load on first use (its PICO_PRELOAD: the PC's commands, a language) are imported
with them, and what every test keeps (WARM: the default profile, the chip set's registry) is
made before the first test, so that nothing a test leaves lies among the next test's data.

The modules run on several emulated Picos at once (one Node process each: RP2EMU_JOBS, by
default the machine's CPU count, at least 2), the slowest first. The first test to ask starts
them all; each test waits for its own module. The figures of every run (emulated cycles, the
lowest free heap seen just after a collection, free heap after boot and after the imports)
are written to build/rp2emu/report.json.

Without Node.js, rp2040js (`npm ci --prefix tools`, which `make test` runs) or ../shared/rp2,
the tests are skipped, except on CI (CI set), where they fail.

Some tests are left out unless RP2EMU_ALL=1: see LEFT_OUT, with the reason for each
(measured on the emulator: they do not fit the heap). The slowest whole-board modules (SLOW)
run with RP2EMU_SLOW=1, as `make test-pico` does: they pass, but take minutes each.
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import threading
import time
from concurrent.futures import Future

import pytest

from tests import mpyhost
from tests.test_micropython import MODULE_FILES, name_mismatch
from tools import rp2emu

MODULES = [mpyhost.module_name(p) for p in MODULE_FILES]
HEAP_MARK = "RP2EMU-HEAP"

# Emulated cycles (125 a microsecond) allowed per module; the emulator does about 50 M a wall
# second. Default, and the modules that need more.
MODULE_CYCLES = 40_000_000_000
CYCLES = {"tests.engine.test_game": 20_000_000_000}  # the seeded self-play: ~10 G
MODULE_TIMEOUT_S = 900.0

# Left out unless RP2EMU_ALL=1: "module" (the whole module) or "module::test", and why.
# Measured on the emulator (2026-11-24): the whole-board modules fit the stock heap, with the
# firmware, the engine, the twins and the tests all loaded from .mpy files into RAM (45-70 KB
# free after the imports), once what their boards load or make on first use comes first
# (PICO_PRELOAD, WARM) and a board is built on a collected heap (firmware/sim/simboard.py).
# These tests alone do not: the largest upload, and JSON nested deeper than the parsers go
# (MicroPython's parser makes a list for every level, 32 B each, before it can answer).
_DEEP = (
    "JSON nested 7,000 deep: 14 KB of text in one piece beside a booted board, and 7,000 "
    "lists (224 KB) once MicroPython parses it, more than the Pico's whole heap"
)
LEFT_OUT: dict[str, str] = {
    "tests.engine.test_players": (
        "each test keeps every legal move of its positions (thousands of Move objects, cached "
        "across tests) to feed the levels in several orders and compare them with a choice "
        "made apart; measured on the emulator: MemoryError for 1-4 KB blocks with 60 KB free "
        "after a collection. The chooser itself keeps one move (or three at levels 1-2); the "
        "search that feeds it on the chip is measured by tools/hintbench.py"
    ),
    "tests.fw.test_commands::test_a_long_file_comes_in_parts_and_a_cut_upload_can_start_again": (
        "a 3.4 KB chips.json of 200 tags sent in 9 parts: the board joins them into one string "
        "and parses it twice (the check, then the registry in use) beside the test's own copy; "
        "with the commands' and the tests' code in RAM (51 KB free after the imports, largest "
        "block 35 KB) no 3,412-byte block is left for the join (MemoryError)"
    ),
    "tests.fw.test_input_faults::test_deep_or_bad_boot_files_are_named_problems": _DEEP,
    "tests.fw.test_input_faults::test_put_refuses_deep_files_and_leaves_the_old_ones": _DEEP,
    "tests.fw.test_input_faults::test_event_lines_never_hold_nan_or_infinity": (
        "builds a list nested 7,000 deep (past CPython's recursion limit): 7,000 lists, "
        "224 KB, more than the Pico's whole heap"
    ),
    "tests.fw.test_input_faults::"
    "test_a_command_nested_past_the_parser_is_answered_and_the_board_goes_on": (
        "command lines nested 1,000 deep: MicroPython's json.loads makes 1,000 lists and a "
        "4 KB stack (about 36 KB) before it refuses a line; with a booted board and the tests' "
        "code in RAM the largest free block is 15-41 KB (MemoryError)"
    ),
}
# The board thinking for its own seat and for hints (whole games against it): with the
# search's code, the simulated parts' and the tests' all loaded from .mpy files into RAM,
# 53.7-54.8 KB is free after the imports, and the think's lists find no room (MemoryError;
# runs of 2026-11-25: eight of the ten tests failed so, then the hint test too, with 3.5 KB
# free after a collection). A stock board with the firmware from .mpy files has about
# 150 KB free after its imports; the think itself runs on the emulated Pico in `make bench`
# (tools/thinkbench.py: 10.3 KB of heap at most, level 4), and how deep it nests calls is
# held by tests/test_board_seat.py (CPython) and tests/fw/test_think_stack.py (here).
LEFT_OUT["tests.engine.test_calqable_best"] = (
    "every legal Cal-Q-Able move of four positions, several times over (each pass size, the "
    "bounds of every move); measured on the emulator (2026-11-27): 40 G cycles, 320 s of chip "
    "time, were not enough, and laying out the positions hit MemoryError (776 B, in the side "
    "builder's value index) with 70 KB free after a collection. The chip's Cal-Q-Able search "
    "is measured by tools/hintbench.py"
)
LEFT_OUT["tests.engine.test_calqable_skip"] = (
    "every Cal-Q-Able move of four positions, twice (with and without a cap on a square's "
    "sides), then two of them searched whole twice more (2026-11-28); the first part alone, "
    "measured on the emulator (2026-11-27): 25 G cycles, 200 s of chip time, and "
    "MemoryError for 1,024 B in the test's own look-up of a move's square, 61 KB free after "
    "a collection. The chip's search passes over and gives up squares on the emulated Pico "
    "in tools/hintbench.py (`--pico`), which reports how many"
)
LEFT_OUT["tests.engine.test_calqable_lots"] = (
    "every Cal-Q-Able move of a position, then its search by lots: 217 s of `make test` on the "
    "emulator (2026-11-28; 14.7 G fuel on the WASI build, which runs it). What a square "
    "passed over holds of the chip's heap is measured by tools/hintbench.py (`--pico`)"
)
LEFT_OUT["tests.fw.test_calqable_board::test_the_end_gives_the_last_mover_the_other_racks"] = (
    "a whole Cal-Q-Able game to its tally and archive beside the twins' and the tests' code: "
    "MemoryError for 480 B in the journal's record at the archive (measured on the emulator "
    "on 2026-11-27, at 538218d as at the commits after it)"
)
LEFT_OUT["tests.engine.test_calqable_replace::test_agrees_with_brute_force"] = (
    "the brute force of rule 5 on three seeded positions: 424 s of `make test` on the emulator "
    "(2026-11-29; 0.7 s of CPython). It runs on MicroPython in tests/test_micropython.py (WASI), "
    "and the module's other tests here"
)
LEFT_OUT["tests.fw.test_computer"] = (
    "the board's think with the simulated parts' and the tests' code in RAM: MemoryError "
    "(54 KB free after the imports); see the comment above"
)
LEFT_OUT["tests.fw.test_think_early"] = LEFT_OUT["tests.fw.test_computer"]

# Whole-board modules that pass here but take minutes of emulation each (emulated cycles on
# 2026-11-24; the emulator does about 60 M a second on one core): `make test` leaves them to
# `make test-pico` (RP2EMU_SLOW=1), so that it stays within CI's time. Together about 73 G
# cycles, some 10 minutes on two cores.
SLOW = {
    "tests.fw.test_edge_cases": 24.3,
    "tests.fw.test_faults": 11.8,
    "tests.fw.test_commands": 10.6,
    "tests.fw.test_supervisor": 9.5,
    "tests.fw.test_faults_end": 9.0,
    "tests.fw.test_flow": 8.0,
    # The move generator against its brute force on full racks: more than 30 G cycles (it
    # had not finished after 493 s on a shared machine); `make bench` measures the
    # generator's own fuel and heap on the chip.
    "tests.engine.test_movegen": 30.0,
    # The premium assignment against a plain 2^k enumeration on many random layouts: about
    # 6 G cycles; `make bench` measures the scoring itself on the chip.
    "tests.engine.test_premium_assignment": 6.0,
}

ALL = os.environ.get("RP2EMU_ALL", "") not in ("", "0")
RUN_SLOW = ALL or os.environ.get("RP2EMU_SLOW", "") not in ("", "0")


def left_out(modname: str) -> tuple[str | None, list[str]]:
    """(why the whole module is left out, or None; the tests of it left out)."""
    if ALL:
        return None, []
    tests = [key.split("::", 1)[1] for key in LEFT_OUT if key.startswith(modname + "::")]
    if modname in SLOW and not RUN_SLOW:
        why = (
            "about %.0f G emulated cycles, minutes of emulation: make test-pico runs it"
            % (SLOW[modname])
        )
        return why, tests
    return LEFT_OUT.get(modname), tests


# Helper modules with a function that makes what their tests share and keep from one test to
# the next (a profile, a chip set's registry): called once after the imports, before the first
# test, so that it lies below the tests' data instead of among it.
WARM = {"tests.fw.board": "warm"}


def preload(modname: str) -> list[str]:
    """The modules a test module's tests load on first use (the firmware imports some only
    when needed: the PC's commands, the service modes, a language): its `PICO_PRELOAD`
    constant, read on CPython as tests/mpyhost.py reads MPY_FUEL."""
    try:
        module = importlib.import_module(modname)
    except Exception:  # noqa: BLE001 - the run on the Pico will report the import error
        return []
    return list(getattr(module, "PICO_PRELOAD", ()))


def script(modname: str, skip: list[str]) -> str:
    """The code the Pico runs for one module: imports leaves first, the figures, the tests.

    The modules in the test module's PICO_PRELOAD come first, with their own imports: loaded
    in a test, their code would lie among that test's data and splinter the heap for the next.
    """
    order: list[str] = []
    for name in [*preload(modname), modname]:
        order += [m for m in rp2emu.import_order(name) if m not in order]
    warm = "".join(f"sys.modules[{m!r}].{WARM[m]}()\ngc.collect()\n" for m in order if m in WARM)
    return (
        rp2emu.prelude()
        + "import gc\n"
        + "gc.collect()\n"
        + "_boot = gc.mem_free()\n"
        + f"for _m in {order!r}:\n"
        + "    __import__(_m)\n"
        + "    gc.collect()\n"
        + "_imports = gc.mem_free()\n"
        + warm
        + f'print(\'{HEAP_MARK} {{"boot": %d, "imports": %d, "warm": %d}}\' '
        + "% (_boot, _imports, gc.mem_free()))\n"
        + "from tests import mpyunit\n"
        + f"mpyunit.run_module({modname!r}, {tuple(skip)!r})\n"
    )


def heap_figures(stdout: str) -> dict:
    for line in stdout.splitlines():
        if line.startswith(HEAP_MARK + " "):
            return json.loads(line[len(HEAP_MARK) + 1 :])
    return {}


def workers() -> int:
    jobs = os.environ.get("RP2EMU_JOBS")
    return max(1, int(jobs)) if jobs else max(2, os.cpu_count() or 1)


class Runs:
    """Every module to run, spread over a few emulated Picos; a Future per module."""

    def __init__(self, modules: list[str]) -> None:
        self.image = rp2emu.build_image()
        self.futures: dict[str, Future] = {m: Future() for m in modules}
        self.report: dict[str, dict] = {}
        self.lock = threading.Lock()
        self.todo: queue.Queue[str] = queue.Queue()
        # The slowest first, so that they do not start last.
        for modname in sorted(modules, key=lambda m: -CYCLES.get(m, 0)):
            self.todo.put(modname)
        self.threads = [threading.Thread(target=self.work, daemon=True) for _ in range(workers())]
        self.started = time.monotonic()
        for thread in self.threads:
            thread.start()

    def work(self) -> None:
        pico = None
        try:
            while True:
                try:
                    modname = self.todo.get_nowait()
                except queue.Empty:
                    return
                future = self.futures[modname]
                try:
                    if pico is None:
                        pico = rp2emu.Pico(self.image, heap_watch=True)
                    _, skip = left_out(modname)
                    budget = CYCLES.get(modname, MODULE_CYCLES)
                    result = pico.run(script(modname, skip), budget, MODULE_TIMEOUT_S)
                except Exception as exc:  # noqa: BLE001 - handed to the module's test
                    future.set_exception(exc)
                    continue
                self.note(modname, result, pico.boot)
                future.set_result(result)
        finally:
            if pico is not None:
                pico.close()

    def note(self, modname: str, result: rp2emu.Result, boot: dict) -> None:
        with self.lock:
            self.report[modname] = {
                "stopped": result.stopped,
                "cycles": result.cycles,
                "wall_s": round(result.wall_s, 1),
                "heap_low": result.heap_low,
                "collections": result.collections,
                **heap_figures(result.stdout),
            }
            done = {
                "seconds": round(time.monotonic() - self.started, 1),
                "workers": len(self.threads),
                "boot_us_to_raw_repl": boot.get("us_to_raw_repl"),
                "modules": self.report,
            }
            path = rp2emu.BUILD / "report.json"
            path.write_text(json.dumps(done, indent=1, sort_keys=True) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def runs(request) -> Runs:
    """Starts the modules of every test of this file that pytest selected."""
    try:
        rp2emu.node_command()
    except rp2emu.Rp2emuError as exc:
        why = f"the emulated Pico cannot run: {exc}"
        if os.environ.get("CI"):  # .ci/run installs Node.js, `make test` runs npm ci
            pytest.fail(why + " (CI is set)", pytrace=False)
        pytest.skip(why)
    selected = {
        item.callspec.params["modname"]
        for item in request.session.items
        if item.module is request.module and hasattr(item, "callspec")
    }
    wanted = [m for m in MODULES if m in selected and left_out(m)[0] is None]
    return Runs(wanted)


@pytest.fixture(scope="module")
def pytest_view() -> mpyhost.Collected:
    return mpyhost.pytest_collect(MODULE_FILES)


def describe(modname: str, result: rp2emu.Result, run: mpyhost.Parsed) -> str:
    """The failures and what else the Pico said, for a failure message."""
    parts = []
    if run.unfinished is not None:
        parts.append(f"DIED on the Pico: {modname}::{run.unfinished} never finished")
    for r in run.records:
        if not r["ok"]:
            parts.append(f"FAILED on the Pico: {modname}::{r['test']} - {r['error']}")
            if r.get("traceback"):
                parts.append(r["traceback"].rstrip())
    heap = heap_figures(result.stdout)
    parts.append(
        f"stopped: {result.stopped}; {result.cycles:,} cycles ({result.us / 1e6:.1f} s of chip "
        f"time, {result.wall_s:.0f} s here); free heap after boot {heap.get('boot')}, after "
        f"the imports {heap.get('imports')}, lowest after a collection {result.heap_low}"
    )
    printed = [line for line in result.stdout.splitlines() if not line.startswith("MPYUNIT")]
    parts.append("--- stdout (without MPYUNIT lines) ---\n" + "\n".join(printed))
    parts.append("--- stderr ---\n" + result.stderr)
    return "\n".join(parts)


@pytest.mark.parametrize("modname", MODULES)
def test_module_on_the_pico(modname, runs, pytest_view):
    why, skip = left_out(modname)
    if why is not None:
        pytest.skip(f"left out of make test: {why}")
    result = runs.futures[modname].result()
    run = mpyhost.parse(result.stdout)

    problems = []
    if result.stopped != "done":
        problems.append(f"the run was stopped ({result.stopped})")
    elif run.done is None:
        problems.append("the run died before the end")
    failures = [r for r in run.records if not r["ok"]]
    if failures:
        problems.append(f"{len(failures)} test(s) failed")
    if run.done is not None:
        ran = [r["test"] for r in run.records]
        if len(ran) != len(set(ran)) or len(ran) != run.done["tests"]:
            problems.append(f"inconsistent records: {ran} vs {run.done}")
        mismatch = name_mismatch(modname, ran + skip, pytest_view)
        if mismatch is not None:
            problems.append(mismatch)
    if problems:
        pytest.fail(
            f"{modname} on the Pico: "
            + "; ".join(problems)
            + "\n\n"
            + describe(modname, result, run),
            pytrace=False,
        )
