"""engine/ and firmware/ type-check with mypy against the MicroPython rp2 stubs.

mypy-rp2.ini replaces CPython's typeshed with the pinned `micropython-rp2-rpi-pico-stubs`
(and its `micropython-stdlib-stubs`), assembled by tools/rp2_typeshed.py, so a call the
board's MicroPython does not offer (`time.monotonic`, `math.gcd`, `json.dumps(indent=)`)
is an error. Unannotated functions are checked too (`check_untyped_defs`). mypy keeps its
cache in build/mypy-cache.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tools import rp2_typeshed
from tools.mpyrun import REPO_ROOT

CONFIG = REPO_ROOT / "mypy-rp2.ini"


def test_device_code_typechecks_against_rp2_stubs():
    rp2_typeshed.build()
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CONFIG)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if proc.returncode != 0:
        output = proc.stdout + proc.stderr
        pytest.fail(f"mypy-rp2.ini: mypy exit {proc.returncode}:\n{output}", pytrace=False)
