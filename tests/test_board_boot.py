"""The board's own firmware boots on the Pico's stock image, as `host_tools flash` leaves a
stock board: main.py, firmware/main.py and firmware/backend_rp2.py's `build()` on the
emulated RP2040 (tools/rp2emu.py), whose buses answer nothing, so the parts are reported
missing and the game starts. The firmware's other tests run it on the parts' twins, never
through the rp2 backend; `make bench` (tools/picobench.py) reads the free heap it reports."""

import json

from tests.test_picoplay import require_pico
from tools import rp2emu


def test_the_board_boots_on_the_stock_image():
    require_pico()
    with rp2emu.Pico(rp2emu.build_image(with_tests=False)) as pico:
        result = pico.run("print('after boot')\n")
        said = pico.boot.get("main_said") or ""
    assert result.ok and "after boot" in result.stdout, result.describe()
    events = [json.loads(line) for line in said.splitlines() if line.startswith("{")]
    assert events, said
    assert events[0]["ev"] == "boot", said  # not "cannot_start", and nothing raised first
    assert events[0]["game"] == "calculissimo" and events[0]["sensor"] == "nfc", said
    assert events[0]["free"] > 0, said  # the heap it reports on a board (None elsewhere)
