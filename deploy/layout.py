"""The board's flash layout, read from its MicroPython board definition, and an image check.

`python3 deploy/layout.py [--variant ROMFS] [--check firmware.bin] [BOARD_DIR]` prints where
the firmware, the ROMFS partition and the filesystem lie in the Pico's 2 MB of flash, as
MicroPython v1.27's rp2 port places them (ports/rp2/rp2_flash.c: the filesystem ends at the
end of the flash, the ROMFS partition sits just below it, the firmware starts at 0), and with
--check, exits with status 1 if the firmware image would run into what lies above it: the rp2
port's linker script gives the firmware the whole flash, so nothing else notices.

The sizes come from the board's mpconfigboard.h, read with a small preprocessor that knows
`#define NAME (expr)`, `#if NAME`, `#ifdef`, `#ifndef`, `#else` and `#endif`, and the
definitions the variant's mpconfigvariant_VARIANT.cmake adds to MICROPY_DEF_BOARD. Standard
library only: `make firmware` runs it with the system python3.
"""

import argparse
import ast
import re
import sys
from pathlib import Path

FLASH_BYTES = 2 * 1024 * 1024  # the Pico's W25Q16JV (pico-sdk's boards/pico.h)
BLOCK = 4096  # flash erase sector, the filesystem's and the ROMFS partition's block
BOARD_DIR = Path(__file__).resolve().parent / "boards" / "SMARTBOARD_PICO"
_DEFINE = re.compile(r"#\s*define\s+(\w+)\s*(.*?)\s*(?://.*)?$")
_DIRECTIVE = re.compile(r"#\s*(if|ifdef|ifndef|else|endif)\b\s*(\w*)")


class LayoutError(Exception):
    """A board definition this module cannot read, or an image that does not fit."""


def variant_defines(board_dir, variant):
    """{name: value} that mpconfigvariant_VARIANT.cmake appends to MICROPY_DEF_BOARD."""
    if not variant:
        return {}
    path = Path(board_dir) / ("mpconfigvariant_%s.cmake" % variant)
    if not path.is_file():
        raise LayoutError("no variant %s: %s is missing" % (variant, path))
    text = path.read_text(encoding="utf-8")
    found = {}
    for block in re.findall(
        r"list\(\s*APPEND\s+MICROPY_DEF_BOARD\b(.*?)\)\s*$", text, re.DOTALL | re.MULTILINE
    ):
        for line in block.splitlines():
            item = line.split("#")[0].strip()
            if "=" in item:
                name, value = item.split("=", 1)
                found[name.strip()] = value.strip()
    return found


def board_defines(board_dir=BOARD_DIR, variant=None):
    """The macros mpconfigboard.h defines, with the variant's definitions in force."""
    defines = dict(variant_defines(board_dir, variant))
    stack = []  # one bool a conditional: whether its current branch is taken
    path = Path(board_dir) / "mpconfigboard.h"
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        directive = _DIRECTIVE.match(line)
        active = all(stack)
        if directive:
            word, name = directive.groups()
            if word in ("if", "ifdef", "ifndef"):
                if word == "if":
                    taken = _number(defines.get(name, "0"), defines) != 0
                else:
                    taken = (name in defines) == (word == "ifdef")
                stack.append(taken)
            elif not stack:
                raise LayoutError("%s:%d: #%s without #if" % (path, number, word))
            elif word == "else":
                stack[-1] = not stack[-1]
            else:
                stack.pop()
        elif active and line.startswith("#"):
            match = _DEFINE.match(line)
            if match:
                defines[match.group(1)] = match.group(2)
    if stack:
        raise LayoutError("%s: an #if is not closed" % path)
    return defines


def _number(text, defines):
    """The value of a C integer expression: numbers, macros, + - * / and parentheses."""
    try:
        tree = ast.parse(text.strip().replace("/", "//"), mode="eval")
    except SyntaxError:
        raise LayoutError("cannot work out %r" % text) from None
    return _value(tree.body, text, defines)


def _value(node, text, defines):
    operators = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__}
    operators[ast.FloorDiv] = int.__floordiv__
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name) and node.id in defines:
        return _number(defines[node.id], defines)
    if isinstance(node, ast.BinOp) and type(node.op) in operators:
        left, right = _value(node.left, text, defines), _value(node.right, text, defines)
        return operators[type(node.op)](left, right)
    raise LayoutError("cannot work out %r" % text)


def layout(board_dir=BOARD_DIR, variant=None):
    """{firmware, romfs, filesystem: (offset, size)} in bytes, as the rp2 port places them."""
    defines = board_defines(board_dir, variant)
    if "MICROPY_HW_FLASH_STORAGE_BYTES" not in defines:
        raise LayoutError("%s sets no MICROPY_HW_FLASH_STORAGE_BYTES" % board_dir)
    storage = _number(defines["MICROPY_HW_FLASH_STORAGE_BYTES"], defines)
    romfs = _number(defines.get("MICROPY_HW_ROMFS_BYTES", "0"), defines)
    for name, size in (("filesystem", storage), ("ROMFS", romfs)):
        if size % BLOCK:
            raise LayoutError("the %s size %d is not a multiple of 4 KB" % (name, size))
    storage_base = FLASH_BYTES - storage
    romfs_base = storage_base - romfs
    if romfs_base <= 0:
        raise LayoutError("the ROMFS and the filesystem leave no room for the firmware")
    return {
        "firmware": (0, romfs_base),
        "romfs": (romfs_base, romfs),
        "filesystem": (storage_base, storage),
    }


def check_image(image, board_dir=BOARD_DIR, variant=None):
    """(image size, room left) of a flat firmware image (firmware.bin, loaded at 0)."""
    size = Path(image).stat().st_size
    room = layout(board_dir, variant)["firmware"][1]
    if size > room:
        above = "ROMFS partition" if layout(board_dir, variant)["romfs"][1] else "filesystem"
        raise LayoutError(
            "%s is %s bytes: %s more than the %s bytes below the %s"
            % (image, f"{size:,}", f"{size - room:,}", f"{room:,}", above)
        )
    return size, room - size


def describe(board_dir=BOARD_DIR, variant=None):
    lines = []
    for name, (offset, size) in layout(board_dir, variant).items():
        if size:
            lines.append(
                "%-10s 0x%06X-0x%06X %5d KB" % (name, offset, offset + size, size // 1024)
            )
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="deploy/layout.py", description=__doc__.split("\n")[0])
    parser.add_argument("board_dir", nargs="?", default=str(BOARD_DIR))
    parser.add_argument("--variant", default="", help="a board variant, e.g. ROMFS")
    parser.add_argument("--check", metavar="IMAGE", help="a firmware.bin that must fit")
    args = parser.parse_args(argv)
    try:
        print(describe(args.board_dir, args.variant))
        if args.check:
            size, left = check_image(args.check, args.board_dir, args.variant)
            print("%s: %s bytes, %s bytes to spare" % (args.check, f"{size:,}", f"{left:,}"))
    except (LayoutError, OSError) as exc:
        sys.stderr.write("layout: %s\n" % exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
