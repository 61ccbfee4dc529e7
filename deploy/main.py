"""The board's main.py: start the firmware (firmware/main.py) on the rp2 port.

It starts nothing while `flash.partial` is on the flash (`python -m host_tools flash` writes it
before copying and removes it once every file is verified), nor when the firmware cannot be
imported (a damaged .mpy). It then says why on USB every 5 s, as firmware/main.py does, so
the board never falls into a crash and the REPL stays reachable with Ctrl-C for a new flash.
"""

import json
import os
import sys
import time


def cannot_start(text):
    # Built by hand so "ev" comes first whatever order MicroPython keeps a dict's keys in.
    line = '{"ev": "cannot_start", "text": %s}\n' % json.dumps(text)
    while True:
        sys.stdout.write(line)
        time.sleep(5)


try:
    os.stat("flash.partial")
    partial = True
except OSError:
    partial = False
if partial:
    cannot_start("firmware copy incomplete: flash again (python -m host_tools flash)")

try:
    from firmware.main import main
except Exception as err:  # noqa: BLE001  (whatever a damaged file raises, the board must say it)
    cannot_start("firmware cannot load: %s: %s" % (type(err).__name__, err))

main()
