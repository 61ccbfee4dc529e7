# The ROMFS variant (`make firmware VARIANT=ROMFS`): stock MicroPython with a 224 KB ROMFS
# partition for the device code, which `python -m host_tools flash --romfs` fills. Built
# without the device code frozen: frozen modules come before /rom on sys.path.
list(APPEND MICROPY_DEF_BOARD
    SMARTBOARD_ROMFS=1
    MICROPY_HW_BOARD_NAME="Smart game board Pico ROMFS"
)
