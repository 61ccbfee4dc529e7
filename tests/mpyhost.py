"""Host (CPython) side of tests/mpyunit.py: run test modules on MicroPython, read the results.

Also asks pytest which tests it collects from given files, so that the two views can be
compared: a test that pytest runs but MicroPython silently skips must fail the suite.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

from tests import mpyunit
from tools import mpyrun

# Fuel for one test module: about 8 s of wall time here, ~10 min of RP2040 time.
MODULE_FUEL = 50_000_000_000
# MicroPython heap for one test module. The collector is off (see tools/mpyrun.py), so every
# allocation of the whole module adds up; 512M is as much as this build actually hands out.
# It only costs ~1e7 more fuel at start-up than 128M.
MODULE_HEAP = "512M"

_MARKS = (mpyunit.DONE_MARK, mpyunit.START_MARK, mpyunit.MARK)  # longest first
_LINE = re.compile("(" + "|".join(map(re.escape, _MARKS)) + r") (\{.*\})\s*$")


class ModuleRun(NamedTuple):
    """What running one test module on MicroPython produced."""

    modname: str
    records: list[dict]  # one per test, in the order they ran
    done: dict | None  # the MPYUNIT-DONE record; None if the run died before the end
    unfinished: str | None  # the test that started but never finished, if any
    result: mpyrun.Result

    def failures(self) -> list[dict]:
        return [r for r in self.records if not r["ok"]]

    def report(self) -> str:
        """Failures with their MicroPython tracebacks, then what else the run printed."""
        parts = []
        if self.unfinished is not None:
            parts.append(f"DIED on MicroPython: {self.modname}::{self.unfinished} never finished")
        for r in self.failures():
            parts.append(f"FAILED on MicroPython: {self.modname}::{r['test']} - {r['error']}")
            if r.get("traceback"):
                parts.append(r["traceback"].rstrip())
        result = self.result
        status = f"trap: {result.trap}" if result.trap is not None else f"exit {result.exit_code}"
        printed = "\n".join(line for line in result.stdout.splitlines() if not _LINE.search(line))
        parts.append(f"MicroPython {status}, fuel {result.fuel:,}")
        parts.append(f"--- stdout (without {mpyunit.MARK} lines) ---\n{printed}")
        parts.append(f"--- stderr ---\n{result.stderr}")
        return "\n".join(parts)


class Parsed(NamedTuple):
    """mpyunit's output, decoded."""

    records: list[dict]
    done: dict | None
    unfinished: str | None


def parse(stdout: str) -> Parsed:
    """Extract the test records, the final done record and any unfinished test.

    A marker may follow text that a test printed without a newline; it is found anyway.
    """
    records: list[dict] = []
    done = started = None
    for line in stdout.splitlines():
        match = _LINE.search(line)
        if match is None:
            continue
        data = json.loads(match.group(2))
        mark = match.group(1)
        if mark == mpyunit.DONE_MARK:
            done = data
        elif mark == mpyunit.START_MARK:
            started = data["test"]
        else:
            records.append(data)
            started = None
    return Parsed(records, done, started)


def run_module(modname: str, *, fuel: int = MODULE_FUEL, heap: str = MODULE_HEAP) -> ModuleRun:
    """Run the tests of module `modname` (e.g. "tests.engine.test_x") on MicroPython."""
    code = mpyrun.prelude() + f"from tests import mpyunit\nmpyunit.run_module({modname!r})\n"
    result = mpyrun.run(code, mount=mpyrun.REPO_ROOT, heap=heap, fuel=fuel)
    return ModuleRun(modname, *parse(result.stdout), result)


def module_fuel(modname: str) -> int:
    """Fuel budget for a test module: its `MPY_FUEL` constant if it has one, else MODULE_FUEL.

    The module is imported on CPython to read it (pytest imports it anyway).
    """
    try:
        module = importlib.import_module(modname)
    except Exception:  # noqa: BLE001 - the MicroPython run will report the import error
        return MODULE_FUEL
    return int(getattr(module, "MPY_FUEL", MODULE_FUEL))


def module_name(path: Path) -> str:
    """Dotted module name of a .py file inside the repository."""
    rel = path.resolve().relative_to(mpyrun.REPO_ROOT).with_suffix("")
    return ".".join(rel.parts)


class Collected(NamedTuple):
    """pytest's view of some files: test names per module, and pytest's own output."""

    names: dict[str, set[str]]  # module name -> names like "test_a" or "TestK::test_m"
    output: str


def pytest_collect(paths: list[Path]) -> Collected:
    """Ask pytest (in a subprocess) which tests it collects from `paths`.

    Parametrized tests count once, under their function name. Modules that fail to import
    are missing from `names`; `output` then shows pytest's error.
    """
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "--collect-only",
        "-q",
        "-p",
        "no:cacheprovider",
        f"--rootdir={mpyrun.REPO_ROOT}",
        *[str(p) for p in paths],
    ]
    proc = subprocess.run(
        cmd, cwd=mpyrun.REPO_ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    names: dict[str, set[str]] = {}
    for line in proc.stdout.splitlines():
        file_part, sep, test_part = line.strip().partition("::")
        if not sep or not file_part.endswith(".py"):
            continue
        modname = module_name(mpyrun.REPO_ROOT / file_part)
        names.setdefault(modname, set()).add(test_part.partition("[")[0])
    return Collected(names, proc.stdout + proc.stderr)
