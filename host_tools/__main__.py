"""Command line: `python -m host_tools replay FILE [--json] [--profile PATH]`, `... sim`.

`replay` prints a game record's replay (GAME_RECORD.md "Output") as JSON lines with
`--json`, else a readable score sheet. A record that cannot be read prints one line
`{"error": ..., "line": N}` and exits with status 2. `sim` stands in for the simulator
until it exists: it replays the rulebook example game, tests/data/rulebook.json.
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
    cmd = sub.add_parser("sim", help="for now: replay the rulebook example game")
    cmd.add_argument("--json", action="store_true", help="print the JSON output lines")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        sys.stdout.reconfigure(encoding="utf-8")
    except (AttributeError, ValueError):
        pass
    if args.command == "replay":
        return _replay(args.file, args.profile, args.json)
    return _replay(str(RULEBOOK), None, args.json)


if __name__ == "__main__":
    sys.exit(main())
