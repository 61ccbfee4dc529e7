"""The board's main.py: start the firmware (firmware/main.py) on the rp2 port."""

from firmware.main import main

main()
