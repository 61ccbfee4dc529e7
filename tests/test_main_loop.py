"""The firmware's real asyncio main loop (firmware/main.py) on CPython with a simulated clock.

The loop steps the App and sleeps `scan_ms` per tick; `sim_sleep` makes each sleep advance
the virtual clock, so a second task acting as the players (laying chips, pressing OK) runs
against it as it would against the board, in virtual time.
"""

import asyncio
import json

from firmware.main import loop, sim_sleep
from tests.engine.fixtures import RULEBOOK
from tests.fw.board import new_board, sq


def test_rulebook_first_move_through_the_asyncio_loop():
    board = new_board({"players": 2})
    clock = board.clock
    done = []

    async def until(ms):
        target = clock.now + ms
        while clock.now < target:
            await asyncio.sleep(0)

    async def players():
        for part in RULEBOOK[0].split():
            name, face = part.split(":")
            board.put(sq(name), face)
            await until(400)
        board.pins["ok"].drive(0)
        await until(50)
        board.pins["ok"].drive(1)
        await until(50)
        done.append(True)

    async def main():
        start = clock.now
        await asyncio.gather(
            loop(board.app, sim_sleep(clock), until=lambda: bool(done)), players()
        )
        return clock.now - start

    elapsed = asyncio.run(main())
    moves = [json.loads(line) for line in board.lines if '"ev": "move"' in line]
    assert [m["score"] for m in moves] == [48]
    assert 2100 <= elapsed <= 2200  # 5 chips x 400 ms + the press, in virtual time
    assert board.app.steps >= 200  # one step per 10 ms tick
