# MicroPython freeze manifest for the board (RP2040, rp2 port).
#
# Freezing puts the engine's and the firmware's bytecode and constants in flash, so the heap
# holds only the game's data (about 200 KB of the 246 KB heap stay free once every module is
# imported, against about 95 KB when the same code is loaded from .mpy files into RAM).
#
# Build: `make firmware MICROPY_DIR=/path/to/micropython` (deploy/README.md, step by step),
# which passes this file as FROZEN_MANIFEST with the board definition deploy/boards/.
#
# Only device files are listed (not firmware/sim, not the CircuitPython backend);
# tests/test_manifest.py checks that this list matches the repository.
# ruff: noqa: F821  (include, module and package are defined by MicroPython's manifest tool)

include("$(PORT_DIR)/boards/manifest.py")

ENGINE = (
    "__init__.py arith.py board.py calculissimo.py calqable.py calqable_bounds.py"
    " calqable_line.py calqable_parse.py calqable_ranges.py calqable_replace.py calqable_solve.py"
    " calqable_targets.py calqable_walk.py compat.py"
    " equation.py errors.py"
    " faces.py game.py leave.py move.py movegen.py movegen_calculissimo.py movegen_calqable.py"
    " players.py prng.py profile.py replacement.py rules.py search.py snapshot.py"
    " squares.py verdict.py"
)
FIRMWARE = (
    "__init__.py app.py archive.py assemble.py backend_rp2.py button_watch.py buttons.py"
    " commands.py config.py"
    " console.py events.py font.py fsio.py i18n.py i18n_fr.py i18n_pt.py journal.py leds.py"
    " computer.py main.py modes.py modes_computer.py modes_end.py pinmap.py presence.py"
    " referee.py registry.py screen.py"
    " sensing.py service.py settings.py tally.py"
)
DRIVERS = "__init__.py antenna.py hc165.py pn532.py sh1106.py ssd1306.py ws2812.py"

for name in ENGINE.split():
    module("engine/" + name, base_path="..")
for name in FIRMWARE.split():
    module("firmware/" + name, base_path="..")
for name in DRIVERS.split():
    module("firmware/drivers/" + name, base_path="..")
module("main.py")
