"""Run every tests/engine and tests/fw test module on MicroPython too; compare with pytest's view.

One pytest test per module (id: the module name). It fails if any test failed on MicroPython,
if the run died before the end (exception at import, out of fuel or memory, wasm trap), or if
the set of tests that ran on MicroPython differs from the set pytest collects from that module
on CPython. Modules run one after another, each with a finite fuel budget: mpyhost.MODULE_FUEL,
or the module's own `MPY_FUEL` constant if it defines one.
"""

from __future__ import annotations

import pytest

from tests import mpyhost
from tools.mpyrun import REPO_ROOT

# Runtime-neutral suites: the engine's, and the firmware's (drivers, twins, the whole board).
NEUTRAL_DIRS = (REPO_ROOT / "tests" / "engine", REPO_ROOT / "tests" / "fw")
MODULE_FILES = sorted(p for d in NEUTRAL_DIRS for p in d.glob("test_*.py"))


@pytest.fixture(scope="module")
def pytest_view() -> mpyhost.Collected:
    """What pytest collects from all runtime-neutral test modules (one subprocess for all)."""
    return mpyhost.pytest_collect(MODULE_FILES)


def name_mismatch(modname: str, ran: list[str], pytest_view: mpyhost.Collected) -> str | None:
    """Why the tests run on MicroPython differ from pytest's, or None if they match."""
    if modname not in pytest_view.names:
        return f"pytest collected nothing from {modname}:\n{pytest_view.output}"
    expected = pytest_view.names[modname]
    only_cpython = sorted(expected - set(ran))
    only_micropython = sorted(set(ran) - expected)
    if not only_cpython and not only_micropython:
        return None
    return (
        "the tests differ between pytest and MicroPython\n"
        f"  collected by pytest, not run on MicroPython: {only_cpython}\n"
        f"  run on MicroPython, not collected by pytest: {only_micropython}\n"
        "  (MicroPython runs only top-level plain functions named test_*; no classes.)"
    )


@pytest.mark.parametrize("path", MODULE_FILES, ids=[p.stem for p in MODULE_FILES])
def test_module_on_micropython(path, pytest_view):
    modname = mpyhost.module_name(path)
    run = mpyhost.run_module(modname, fuel=mpyhost.module_fuel(modname))

    problems = []
    if run.done is None:
        problems.append("the run died before the end")
    elif not run.result.ok:
        problems.append(f"the run ended with exit code {run.result.exit_code}")
    if run.failures():
        problems.append(f"{len(run.failures())} test(s) failed")
    if run.done is not None:
        ran = [r["test"] for r in run.records]
        if len(ran) != len(set(ran)) or len(ran) != run.done["tests"]:
            problems.append(f"inconsistent records: {ran} vs {run.done}")
        mismatch = name_mismatch(modname, ran, pytest_view)
        if mismatch is not None:
            problems.append(mismatch)
    if problems:
        pytest.fail(
            f"{modname} on MicroPython: " + "; ".join(problems) + "\n\n" + run.report(),
            pytrace=False,
        )
