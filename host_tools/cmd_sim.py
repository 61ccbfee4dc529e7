"""The virtual board: the real firmware on the simulated hardware.

`--text` plays in the terminal instead (host_tools/simboard_cli.py): the rulebook game by
default, or a script of commands (`--script FILE`, `-` for standard input).
"""

import sys

HELP = "the firmware on the simulated board"


def add_arguments(cmd):
    cmd.add_argument("--text", action="store_true", help="draw the board in the terminal")
    cmd.add_argument("--script", metavar="FILE", help="commands to run ('-': standard input)")
    cmd.add_argument(
        "--game", choices=("calculissimo", "calqable"), default="calculissimo",
        help="the game on the board (with --text, calqable plays tests/data/calqable.json)",
    )  # fmt: skip


def run(args):
    from host_tools import simboard_cli

    if args.script is None:
        return simboard_cli.main(game=args.game)
    if args.script == "-":
        return simboard_cli.main(sys.stdin.read().splitlines(), game=args.game)
    with open(args.script, encoding="utf-8") as f:
        return simboard_cli.main(f.read().splitlines(), game=args.game)
