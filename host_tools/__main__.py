"""Command line: `python -m host_tools COMMAND ...` (also installed as `smartboard`).

Each command lives in its own module, `host_tools/cmd_<name>.py`, which gives `HELP` (one
line), `add_arguments(parser)` and `run(args)` returning the exit status. Modules import
what they need inside `run`, so `--help` stays fast and one command's dependencies never
stop another from running.
"""

import argparse
import importlib
import os
import sys

# The order `--help` lists them in.
COMMANDS = (
    "sim",
    "firmware",
    "flash",
    "config",
    "enrol",
    "games",
    "watch",
    "diag",
    "replay",
    "hint",
    "analyse",
)


def _module(name):
    return importlib.import_module("host_tools.cmd_" + name)


def _parser():
    parser = argparse.ArgumentParser(
        prog=os.path.basename(sys.argv[0])
        if sys.argv[0].endswith("smartboard")
        else "python -m host_tools",
        description="Flash, configure and play the smart board.",
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
    try:
        status = _module(args.command).run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`replay FILE | head -1`): not an error of this command. Point
        # stdout at nothing so that Python's own flush at exit does not raise again.
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
