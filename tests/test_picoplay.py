"""The game against the board that tools/picoplay.py plays on the emulated Pico, here on
CPython: tools/leanboard.py's board plays it to the end with the same moves as the tests'
board (firmware/sim/simboard.py), and a fault on the board ends it with the fault named."""

from __future__ import annotations

import json

from engine import profile as P
from firmware import computer
from tests.fw.board import events
from tools import playprobe
from tools.leanboard import LeanBoard

CALQABLE = "hardware/profiles/calqable.json"


def require_pico():
    """Skip when the emulated Pico cannot run here; fail in CI, where it must."""
    import os

    import pytest

    from tools import rp2emu

    try:
        rp2emu.node_command()
    except rp2emu.Rp2emuError as exc:
        if os.environ.get("CI"):  # .ci/run installs Node.js, `make test` runs npm ci
            pytest.fail("the emulated Pico cannot run: %s (CI is set)" % exc, pytrace=False)
        pytest.skip("the emulated Pico cannot run: %s" % exc)


def _play(capsys, seed=3, turns=60):
    playprobe.play(CALQABLE, seed, 3, 1, turns)
    out = capsys.readouterr().out.splitlines()
    end = [line for line in out if line.startswith(playprobe.RESULT)]
    thinks = [json.loads(line[len(playprobe.THINK) :]) for line in out if "PLAY-THINK" in line]
    return json.loads(end[-1][len(playprobe.RESULT) :]), thinks


def test_the_lean_board_plays_a_calqable_game_to_its_end(capsys):
    got, thinks = _play(capsys)
    assert got["fault"] is None
    assert got["over"] and got["mode"] == "over"  # the tally done, the game archived
    assert got["turns"][0] == "boot" and got["turns"][-1] == "tally"
    played = got["turns"][1:-1]
    assert len(played) == len(thinks) >= 6
    # every turn a hint or the board's move, each scoring
    for what, think in zip(played, thinks):
        kind, _, score = what.partition(" ")
        assert kind in ("hint", "board"), what
        assert int(score) == think[0] > 0
        assert not think[1]  # none short of memory on CPython


def test_a_fault_on_the_board_ends_the_game_and_is_named(capsys, monkeypatch):
    def think(*_args, **_kw):
        raise MemoryError("memory allocation failed, allocating 533 bytes")

    monkeypatch.setattr(computer, "think", think)
    got, thinks = _play(capsys)
    assert got["fault"] == "MemoryError: memory allocation failed, allocating 533 bytes"
    assert got["turns"] == ["boot"] and thinks == []
    assert computer.think is think  # the probe put back what it found


def test_the_lean_board_lays_and_scores_as_the_tests_board():
    from tests.engine.fixtures import RULEBOOK
    from tests.fw.board import lay, new_board, sq

    profile = P.load("hardware/profiles/calculissimo.json")
    settings = {"players": 4, "turn_seconds": 0, "current_ma": 500}
    lean = LeanBoard(profile, settings)
    lean.boot()
    sim = new_board()
    for board in (lean, sim):
        for move in RULEBOOK[:3]:
            lay(board, move)
            board.press("ok")
    said = [(e["move"], e["score"]) for e in events(sim, "move")]
    assert said == [(e["move"], e["score"]) for e in events(lean, "move")]
    assert [s for _, s in said] == [48, 12, 33]
    # a chip lifted before it is confirmed leaves the move, on both
    for board in (lean, sim):
        board.place(sq("A1"), "7")
        board.lift(sq("A1"))
    assert lean.app.referee.game.totals() == sim.app.referee.game.totals()


def test_the_lean_boards_flash_keeps_files_in_its_buffer():
    from tools.leanboard import Flash

    fs = Flash(64)
    fs.write("game.dat", b"a" * 30)
    fs.write("seat.dat", b"b" * 20)
    fs.write("game.new", b"c" * 10)  # 60 of 64 bytes used
    fs.rename("game.new", "game.dat")  # the old game.dat's 30 bytes are free, not yet reused
    fs.write("seat.dat", b"d" * 25)  # room only once the store is compacted
    assert (fs.read("game.dat"), fs.read("seat.dat")) == (b"c" * 10, b"d" * 25)
    assert (fs.size("game.dat"), fs.size("seat.dat"), fs.size("gone")) == (10, 25, None)
    assert fs.listdir() == ["game.dat", "seat.dat"]
    try:
        fs.write("big.dat", b"e" * 30)  # 35 + 30 > 64: a full flash
    except OSError as err:
        assert err.args[0] == 28
    else:
        raise AssertionError("a full store took the file")
    assert fs.read("big.dat") is None and fs.read("seat.dat") == b"d" * 25
    fs.remove("seat.dat")
    fs.write("big.dat", b"e" * 50)
    assert (fs.read("game.dat"), fs.read("big.dat")) == (b"c" * 10, b"e" * 50)


def test_the_report_names_a_fault_and_the_thinks_short_of_memory(capsys):
    from tools import picoplay

    think = dict(zip(picoplay.FIELDS, [12, False, False, 800, 0, 0, False, 9000]))
    short = dict(think, score=None, short=True, steps=100)
    out = {
        "game": "calqable",
        "seed": 3,
        "level": 3,
        "think_seconds": 5,
        "turns": ["boot", "hint 12", "pass"],
        "thinks": [think, short],
        "totals": [12, 0],
        "fault": None,
        "over": True,
        "phases": {"1 boot": {"free": 90000, "largest": 30000}},
        "lowest": 5000,
        "collections": 10,
    }
    assert picoplay.report(out) == ["1 of 2 thinks ran short of memory"]
    assert "short of memory 1 (of them without a move 1): turns [1]" in capsys.readouterr().out
    out.update(fault="MemoryError: x", over=False, thinks=[think])
    assert picoplay.report(out) == [
        "a fault on the board: MemoryError: x",
        "the game did not end within its turns",
    ]


def test_on_the_emulated_pico_the_search_leaves_the_heap_after_each_think():
    """Two turns of the game on the Pico's own firmware (about a minute): on a board the
    search's code is loaded for a think and dropped after it (firmware/computer.py), so a
    turn later the heap holds only its interned names, not its code."""
    from tools import picoplay

    require_pico()
    got = picoplay.measure(seed=3, seconds=1, turns=2)
    assert got["fault"] is None
    assert [t["short"] for t in got["thinks"]] == [False, False]
    assert all(t["score"] for t in got["thinks"])  # the hint and the board's move
    boot = got["phases"]["1 boot"]["free"]
    after = [v["free"] for k, v in got["phases"].items() if k != "1 boot"]
    assert len(after) == 2
    # measured 2026-11-29: 78,368 B after boot, 59,952 B a turn later (the names: about
    # 18 KB); with the code kept after the think, 22,832 B. The code compiled with -O3
    # (host_tools/flash.py): 82,208 and 64,464 B, the thinks' lowest free 9,840 and 13,264 B
    assert min(after) > boot - 30_000, (boot, after)


def test_a_move_needing_a_chip_the_rack_lacks_is_refused():
    from tests.fw.board import new_board, sq
    from tools.playprobe import Table

    board = new_board()
    shown = {}
    for k, face in enumerate(("9", "+")):
        board.place(k, face)
        shown[k] = face
    try:
        Table(board).lay("H8:9 I8:+ J8:6", shown, False)  # no 6 was shown
    except ValueError as err:
        assert str(err) == "no 6 among the chips shown for H8:9 I8:+ J8:6"
    else:
        raise AssertionError("a chip the rack lacks was laid")
    assert board.on_board.get(sq("J8")) is None


def test_with_the_code_in_flash_the_filesystem_leaves_the_device_packages_alone():
    """On a frozen or ROMFS firmware a folder firmware/ on the filesystem would hide the
    device package whole (it comes first on sys.path), so the test-only modules of those
    packages go to a folder of their own under flat names, and the script's prelude enters
    them in sys.modules under their own names."""
    from tools import rp2emu

    files = rp2emu.board_files(code=False)
    files.update(rp2emu.test_files(code=False))
    assert not [p for p in files if p.startswith(("engine/", "firmware/"))]
    assert "main.py" in files and "profiles/calqable.json" in files
    extra = rp2emu.EXTRA_ROOT.strip("/")
    assert {extra + "/firmware_sim.mpy", extra + "/firmware_sim_clock.mpy"} <= set(files)
    assert extra + "/engine_record.mpy" in files
    # The stock image keeps them in their packages, beside the device code.
    stock = rp2emu.test_files()
    assert "firmware/sim/clock.mpy" in stock and not [p for p in stock if "/extra/" in p]
    code = rp2emu.prelude(["firmware.sim", "firmware.sim.clock"])
    assert code.splitlines()[-3:] == [
        "sys.path.append(%r)" % rp2emu.EXTRA_ROOT,
        "sys.modules['firmware.sim'] = __import__('firmware_sim')",
        "sys.modules['firmware.sim.clock'] = __import__('firmware_sim_clock')",
    ]


def test_the_game_is_played_on_every_image_make_firmware_left(tmp_path):
    """And on the shipped ROMFS firmware when no ROMFS image was built."""
    from tools import picoplay

    shipped = tmp_path / "deploy" / "SMARTBOARD_PICO-ROMFS.uf2"
    assert picoplay.images(tmp_path, shipped) == [(None, False)]
    shipped.parent.mkdir()
    shipped.write_bytes(b"")
    assert picoplay.images(tmp_path, shipped) == [(None, False), (shipped, True)]
    (tmp_path / "SMARTBOARD_PICO.bin").write_bytes(b"")
    (tmp_path / "OTHER.bin").write_bytes(b"")
    assert picoplay.images(tmp_path, shipped) == [
        (None, False),
        (tmp_path / "SMARTBOARD_PICO.bin", False),
        (shipped, True),
    ]
    (tmp_path / "SMARTBOARD_PICO-ROMFS.bin").write_bytes(b"")
    assert picoplay.images(tmp_path, shipped) == [
        (None, False),
        (tmp_path / "SMARTBOARD_PICO.bin", False),
        (tmp_path / "SMARTBOARD_PICO-ROMFS.bin", True),
    ]
    # the repository ships one
    assert picoplay.images(tmp_path / "none")[-1] == (picoplay.SHIPPED, True)


def test_on_an_image_with_the_code_in_flash_the_board_thinks_with_room_to_spare():
    """Two turns on each image `make firmware` left in build/firmware/, and on the shipped
    ROMFS firmware when no ROMFS one was built (so in CI too, on that one).
    Measured 2026-11-29: 167,440 B free after boot on the frozen image, 141,008 B on the
    ROMFS one, against 78,368 B on the stock one."""
    import pytest

    from tools import picoplay

    built = picoplay.images()[1:]
    if not built:
        pytest.skip("no image of make firmware in build/firmware/, and none shipped")
    require_pico()
    for firmware, romfs in built:
        got = picoplay.measure(seed=3, seconds=1, turns=2, firmware=firmware, romfs=romfs)
        assert got["fault"] is None, firmware
        assert [t["short"] for t in got["thinks"]] == [False, False], firmware
        assert all(t["score"] for t in got["thinks"]), firmware
        assert got["phases"]["1 boot"]["free"] > 120_000, (firmware, got["phases"])


def test_the_board_drops_the_search_only_where_its_code_is_in_ram():
    """firmware/computer.py forgets the search's modules after a think only on a board that
    loaded its code into the heap (stock, from .mpy files); with the code in flash it keeps
    them. Asked on the emulated Pico: the stock image and the shipped ROMFS firmware (in CI
    too), and each image `make firmware` left in build/firmware/."""
    from tools import picoplay, rp2emu

    require_pico()
    script = (
        "from firmware import computer\n"
        "print('FILE', computer.__file__)\n"
        "print('RAM', computer._code_in_ram(), computer._loaded() is not None)\n"
    )
    seen = {}
    for firmware, romfs in picoplay.images():
        image = rp2emu.build_image(code=firmware is None)
        part = rp2emu.romfs_part() if romfs else None
        with rp2emu.Pico(image, firmware=firmware, romfs=part) as pico:
            result = pico.run(rp2emu.prelude() + script)
        assert result.ok, result.describe()
        lines = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
        seen[firmware.name if firmware else "stock"] = (lines["FILE"], lines["RAM"])
    assert seen.pop("stock") == ("firmware/computer.mpy", "True True")
    for name, (path, ram) in seen.items():
        where = "/rom/firmware/computer.mpy" if "ROMFS" in name else "firmware/computer.py"
        assert (path, ram) == (where, "False False"), name
