"""Self-test of tools/mpyrun.py: MicroPython (WASI build) driven by wasmtime."""

from __future__ import annotations

import os

from tools import mpyrun
from tools.mpyrun import REPO_ROOT, prelude, run


def test_runs_micropython():
    result = run(prelude() + "import sys\nprint(sys.implementation.name)\n")
    assert result.ok, result.describe()
    assert result.stdout.strip() == "micropython"
    assert result.trap is None
    assert result.fuel > 0


def test_micropython_version_is_recent_enough():
    result = run(prelude() + "import sys\nprint(sys.implementation.version[:2] >= (1, 22))\n")
    assert result.stdout.strip() == "True", result.describe()


def test_prelude_disables_gc_and_puts_mount_first_on_path():
    result = run(prelude() + "import gc, sys\nprint(gc.isenabled(), sys.path[0])\n")
    assert result.stdout.strip() == "False /input", result.describe()


def test_mount_shows_the_repository():
    code = prelude() + (
        "import os\n"
        "print(sorted(os.listdir('/input')))\n"
        "print(open('/input/pyproject.toml').read(), end='')\n"
    )
    result = run(code)
    assert result.ok, result.describe()
    listing, _, text = result.stdout.partition("\n")
    assert listing == repr(sorted(os.listdir(REPO_ROOT)))
    assert text == (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_mount_is_read_only():
    name = "mpyrun_write_probe.txt"
    code = prelude() + (
        "try:\n"
        f"    open('/input/{name}', 'w').write('x')\n"
        "    print('written')\n"
        "except OSError:\n"
        "    print('refused')\n"
    )
    result = run(code)
    assert result.stdout.strip() == "refused", result.describe()
    assert not (REPO_ROOT / name).exists()


def test_other_mount_and_no_mount(tmp_path):
    (tmp_path / "hello.txt").write_text("hi", encoding="utf-8")
    code = prelude() + "import os\nprint(os.listdir('/input'))\n"
    assert run(code, mount=tmp_path).stdout.strip() == "['hello.txt']"
    result = run(code, mount=None)
    assert result.exit_code == 1
    assert "OSError" in result.stderr


def test_uncaught_exception_exits_1_with_traceback():
    result = run(prelude() + "def f():\n    raise ValueError('boom')\nf()\n")
    assert result.exit_code == 1
    assert not result.ok
    assert result.trap is None
    assert "Traceback" in result.stderr
    assert "ValueError: boom" in result.stderr


def test_sys_exit_code_is_passed_through():
    assert run(prelude() + "import sys\nsys.exit(3)\n").exit_code == 3


def test_fuel_grows_with_work_and_is_deterministic():
    def loop(n):
        return prelude() + f"x = 0\nfor i in range({n}):\n    x += i\nprint(x)\n"

    small = run(loop(1_000))
    big = run(loop(100_000))
    again = run(loop(100_000))
    assert small.stdout.strip() == str(sum(range(1_000)))
    assert big.stdout.strip() == str(sum(range(100_000)))
    assert big.fuel > small.fuel
    assert again.fuel == big.fuel


def test_out_of_fuel_is_a_trap():
    result = run(prelude() + "while True:\n    pass\n", fuel=20_000_000)
    assert result.out_of_fuel, result.describe()
    assert result.exit_code == mpyrun.TRAP_EXIT_CODE
    assert result.fuel == 20_000_000


def test_long_allocating_workload_survives_with_gc_disabled():
    # The collector of this build corrupts memory once it runs; with the prelude it never does.
    code = prelude() + (
        "import gc\n"
        "before = gc.mem_alloc()\n"
        "keep = []\n"
        "for i in range(30000):\n"
        "    s = [i] * 20\n"
        "    if i % 100 == 0:\n"
        "        keep.append(s)\n"
        "print(len(keep), gc.mem_alloc() - before > 30000 * 20 * 4)\n"
    )
    result = run(code)
    assert result.stdout.strip() == "300 True", result.describe()


def test_cli_runs_code_and_files(capsys, tmp_path):
    assert mpyrun.main(["-c", "print(6 * 7)"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "42\n"
    assert "fuel used" in captured.err

    script = tmp_path / "script.py"
    script.write_text("x = 1\n\nraise RuntimeError(x)\n", encoding="utf-8")
    assert mpyrun.main([str(script)]) == 1
    err = capsys.readouterr().err
    assert f'File "{script}", line 3' in err
    assert "RuntimeError: 1" in err

    assert mpyrun.main(["--fuel", "1e7", "-c", "while True: pass"]) == mpyrun.CLI_TRAP_EXIT_CODE
    assert "fuel" in capsys.readouterr().err
