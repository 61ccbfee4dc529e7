"""Command line: `python -m host_tools replay FILE [--json] [--profile PATH]`, `... sim`.

`replay` prints a game record's replay (GAME_RECORD.md "Output") as JSON lines with
`--json`, else a readable score sheet. A record that cannot be read prints one line
`{"error": ..., "line": N}` and exits with status 2. `sim` runs the real firmware on the
simulated board (host_tools/simboard_cli.py): the rulebook game by default, or a script of
commands (`--script FILE`, `-` for standard input).
"""

import argparse
import json
import sys

from host_tools import replay, sheet

RULEBOOK = replay.REPO / "tests" / "data" / "rulebook.json"


def _print_json(obj):
    print(json.dumps(obj, ensure_ascii=False))


def _replay(path, profile, as_json):
    try:
        record, lines = replay.replay(path, profile)
    except replay.Unreadable as exc:
        _print_json(exc.to_dict())
        return 2
    if as_json:
        for line in lines:
            _print_json(line)
    else:
        print("\n".join(sheet.render(record, lines)))
    return 0


def _parser():
    parser = argparse.ArgumentParser(prog="python -m host_tools")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("replay", help="replay a game record (GAME_RECORD.md)")
    cmd.add_argument("file", help="the game record, a JSON file")
    cmd.add_argument("--json", action="store_true", help="print the JSON output lines")
    cmd.add_argument("--profile", metavar="PATH", help="board profile file to use")
    cmd = sub.add_parser("sim", help="the firmware on the simulated board")
    cmd.add_argument("--script", metavar="FILE", help="commands to run ('-': standard input)")
    cmd.add_argument(
        "--game", choices=("calculissimo", "calqable"), default="calculissimo",
        help="the game on the board (calqable plays tests/data/calqable.json)",
    )  # fmt: skip
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        sys.stdout.reconfigure(encoding="utf-8")
    except (AttributeError, ValueError):
        pass
    if args.command == "replay":
        return _replay(args.file, args.profile, args.json)
    from host_tools import simboard_cli

    if args.script is None:
        return simboard_cli.main(game=args.game)
    if args.script == "-":
        return simboard_cli.main(sys.stdin.read().splitlines(), game=args.game)
    with open(args.script, encoding="utf-8") as f:
        return simboard_cli.main(f.read().splitlines(), game=args.game)


if __name__ == "__main__":
    sys.exit(main())
