"""The virtual board: the real firmware on the simulated hardware.

By default the board opens in a web page (host_tools/websim.py): click a square to lay a
chip, click a chip to lift it, press the board's buttons under its display. It runs until
Ctrl-C, and its USB port is a pseudo-terminal the other host tools can open.

`--text` plays in the terminal instead (host_tools/simboard_cli.py): the rulebook game by
default, or a script of commands (`--script FILE`, `-` for standard input).
"""

import sys

HELP = "the firmware on the simulated board, in a web page (or --text)"


def add_arguments(cmd):
    cmd.add_argument("--text", action="store_true", help="draw the board in the terminal")
    cmd.add_argument("--script", metavar="FILE", help="commands to run ('-': standard input)")
    cmd.add_argument(
        "--game", choices=("calculissimo", "calqable"), default="calculissimo",
        help="the game on the board (with --text, calqable plays tests/data/calqable.json)",
    )  # fmt: skip
    cmd.add_argument(
        "--web-port", type=int, default=8765, help="the web page's port (0: any free one)"
    )
    cmd.add_argument("--no-browser", action="store_true", help="do not open a browser")
    cmd.add_argument(
        "--root", metavar="FOLDER", help="the board's flash folder (default: a temporary one)"
    )


def run(args):
    if not args.text and args.script is None:
        from host_tools import websim

        return websim.serve(args.game, args.web_port, not args.no_browser, args.root)

    from host_tools import simboard_cli

    if args.script is None:
        return simboard_cli.main(game=args.game)
    if args.script == "-":
        return simboard_cli.main(sys.stdin.read().splitlines(), game=args.game)
    with open(args.script, encoding="utf-8") as f:
        return simboard_cli.main(f.read().splitlines(), game=args.game)
