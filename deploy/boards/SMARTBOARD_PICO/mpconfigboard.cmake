# The smart game board: a Raspberry Pi Pico (RP2040), built as MicroPython's RPI_PICO board.
# `make firmware` (the project's Makefile) passes this folder as BOARD_DIR and the project's
# deploy/manifest.py as FROZEN_MANIFEST; see deploy/README.md.
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")

# The Pico's pin names (GP0-GP28, LED), from the MicroPython checkout being built.
set(MICROPY_BOARD_PINS "${MICROPY_PORT_DIR}/boards/RPI_PICO/pins.csv")
