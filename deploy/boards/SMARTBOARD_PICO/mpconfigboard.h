// The smart game board: a Raspberry Pi Pico (RP2040, 2 MB of flash), as MicroPython's own
// RPI_PICO board, plus an optional ROMFS partition for the device code (the ROMFS variant).
//
// Flash layout (2,048 KB; offsets from the start of the flash):
//
//   image        variant  firmware region          ROMFS                     filesystem
//   frozen       (none)   0x000000-0x0A0000 640 KB none                      0x0A0000-0x200000 1,408 KB
//   ROMFS        ROMFS    0x000000-0x068000 416 KB 0x068000-0x0A0000 224 KB  0x0A0000-0x200000 1,408 KB
//
// The filesystem is the stock RPI_PICO one in both (352 blocks of 4 KB from 0x0A0000), so a
// board moved between stock MicroPython and either image keeps its files: chips.json, the
// saved game, finished games and settings. MicroPython puts the ROMFS partition just below the
// filesystem (ports/rp2/rp2_flash.c: MICROPY_HW_ROMFS_BASE = storage base - ROMFS bytes), so
// the ROMFS comes out of the firmware region; nothing checks at link time that the firmware
// stays out of it, so `make firmware` checks the image size (deploy/layout.py).
// deploy/README.md has the sizes measured.

#ifndef MICROPY_HW_BOARD_NAME
#define MICROPY_HW_BOARD_NAME                   "Smart game board Pico"
#endif

#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024)

#if SMARTBOARD_ROMFS
// 224 KB: the ROMFS image of the device code is 148 KB (2026-11-27), and the tests want it
// under three quarters of the partition, and 64 KB spare below it for the firmware
// (deploy/README.md).
#define MICROPY_HW_ROMFS_BYTES                  (224 * 1024)
#endif
