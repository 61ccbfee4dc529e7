"""Replay a game record (../shared/GAME_RECORD.md) and score it offline.

Prints a readable score sheet, or the JSON output lines with `--json`. A record that cannot
be read prints one line `{"error": ..., "line": N}` and exits with status 2.
"""

import json

HELP = "replay and score a game record (GAME_RECORD.md)"


def add_arguments(cmd):
    cmd.add_argument("file", help="the game record, a JSON file")
    cmd.add_argument("--json", action="store_true", help="print the JSON output lines")
    cmd.add_argument("--profile", metavar="PATH", help="board profile file to use")


def print_json(obj):
    print(json.dumps(obj, ensure_ascii=False))


def run(args):
    from host_tools import replay, sheet

    try:
        record, lines = replay.replay(args.file, args.profile)
    except replay.Unreadable as exc:
        print_json(exc.to_dict())
        return 2
    if args.json:
        for line in lines:
            print_json(line)
    else:
        print("\n".join(sheet.render(record, lines)))
    return 0
