"""Command line: `python -m host_tools COMMAND ...` (also installed as `smartboard`).

Each command lives in its own module, `host_tools/cmd_<name>.py`, which gives `HELP` (one
line), `add_arguments(parser)` and `run(args)` returning the exit status. Modules import
what they need inside `run`, so `--help` stays fast and one command's dependencies never
stop another from running.
"""

import argparse
import importlib
import sys

# The order `--help` lists them in.
COMMANDS = ("sim", "flash", "config", "enrol", "games", "watch", "diag", "replay")


def _module(name):
    return importlib.import_module("host_tools.cmd_" + name)


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m host_tools", description="Flash, configure and play the smart board."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        mod = _module(name)
        cmd = sub.add_parser(name, help=mod.HELP, description=mod.__doc__)
        cmd.formatter_class = argparse.RawDescriptionHelpFormatter
        mod.add_arguments(cmd)
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    except (AttributeError, ValueError):
        pass
    return _module(args.command).run(args)


if __name__ == "__main__":
    sys.exit(main())
