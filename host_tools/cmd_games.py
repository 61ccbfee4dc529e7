"""The board's saved games: list them, pull them, export them as game records, replay them.

The board keeps each finished game in `games/NNN.dat` (firmware/archive.py) and the game in
progress in `game.dat` (firmware/journal.py). Both hold the engine's snapshot of the game,
checked by a CRC-32; an archived game also holds the racks counted at the end.

  games list                       the saved games on the board, with players and totals
  games pull [NAME ...] [--dir D]  copy games to the PC as they are (default: all, to games/)
  games export NAME|FILE [-o OUT]  a game as a game record (../shared/GAME_RECORD.md)
  games replay NAME|FILE           export, then replay and score it offline (a score sheet)

NAME is a board game (`001`, `games/001.dat`, or `current` for game.dat); FILE is a .dat
pulled earlier, read without a board. Export checks itself: the record is replayed with the
engine, and its totals must be the board's.
"""

import json
import os
import sys

HELP = "list, pull, export and replay the games saved on the board"


def add_arguments(cmd):
    cmd.add_argument("action", choices=("list", "pull", "export", "replay"))
    cmd.add_argument("names", nargs="*", help="games: 001, games/001.dat, current, or a file")
    cmd.add_argument("--port", help="the board's serial port (default: the one plugged in)")
    cmd.add_argument("--dir", default="games", help="where pull puts the files (games/)")
    cmd.add_argument("-o", "--out", help="export: the record file (default: standard output)")
    cmd.add_argument("--game", help="the game of a pulled game.dat (default: calculissimo)")


class GameFileError(Exception):
    pass


def board_path(name):
    if name == "current":
        return "game.dat"
    if name.isdigit():
        return "games/%03d.dat" % int(name)
    if not name.startswith("games/"):
        name = "games/" + name
    return name if name.endswith(".dat") else name + ".dat"


def unpack(data, game=None):
    """(snapshot, about) from a saved game's bytes: an archived game, or the journal of the
    game in progress (whose game, not written in it, is `game`)."""
    from firmware import archive, journal

    payload, problem = journal.verify(data)
    if problem is not None:
        raise GameFileError(problem)
    try:
        snap, about = archive.decode(payload)
    except (ValueError, UnicodeError):
        snap, about = payload, {"game": game or "calculissimo", "racks": None}
    except RecursionError:
        raise GameFileError("the archived game's details are nested too deeply") from None
    if about.get("game") not in ("calculissimo", "calqable"):
        raise GameFileError("unknown game %r" % (about.get("game"),))
    racks = about["racks"]
    if racks is not None and not all(isinstance(rack, list) for rack in racks):
        raise GameFileError("the archived racks are not lists of faces")
    return snap, about


def decode(data, game=None, profile_of=None):
    """(Game, about) from a saved game's bytes; `profile_of(game name)` gives the board's
    profile (without it, the PC's own is used)."""
    from engine import profile as P
    from engine import snapshot
    from engine.errors import EngineError
    from host_tools import replay

    snap, about = unpack(data, game)
    try:
        if profile_of is None:
            profile = P.load(str(replay.profile_file(about["game"], "default")))
        else:
            profile = profile_of(about["game"])
        return snapshot.decode(profile, snap), about
    except (EngineError, ValueError) as err:
        raise GameFileError(str(err))


def record_text(data):
    """A game record as compact, readable JSON: the header on one line each, one turn a line."""
    dump = lambda value: json.dumps(value, ensure_ascii=False)
    lines = ["{"]
    keys = [k for k in data if k not in ("turns", "end")]
    for key in keys:
        lines.append("  %s: %s," % (dump(key), dump(data[key])))
    turns = data.get("turns", [])
    lines.append('  "turns": [')
    for k, turn in enumerate(turns):
        lines.append("    %s%s" % (dump(turn), "," if k < len(turns) - 1 else ""))
    lines.append("  ]" + ("," if "end" in data else ""))
    if "end" in data:
        lines.append('  "end": %s' % dump(data["end"]))
    lines.append("}")
    return "\n".join(lines)


def to_record(game, about, names=None):
    """The game record (GAME_RECORD.md) of a saved game, with the players' names (an added
    key GAME_RECORD.md allows): those archived with the game, else `names`."""
    from engine import record
    from host_tools import replay

    data = record.write(game, racks=about.get("racks"))
    names = about.get("names") or names
    if names:
        data["names"] = [str(n) for n in names][: game.players]
    for key in ("computer", "hints"):  # added keys: the board's seats, the hints asked
        if isinstance(about.get(key), list):
            data[key] = list(about[key])[: game.players]
    local = replay.profile_file(game.profile.game, "default")
    with open(local, encoding="utf-8") as f:
        if json.load(f).get("name") == game.profile.name:
            data["profile"] = "default"  # the game's own profile: replayable anywhere
    return data


def check(game, data):
    """Replay the record with the engine: its final totals must be the game's."""
    from engine import record as rec
    from engine.errors import RecordError

    try:
        record = rec.read(json.loads(json.dumps(data)), game.profile.width, game.profile.height)
        lines = list(rec.replay(record, game.profile))
    except RecordError as err:  # the saved racks do not fit the game
        where = "/".join(str(key) for key in err.path)
        raise GameFileError(
            "the saved game does not make a good record (%s): %s" % (where, err)
        ) from None
    if game.over and lines[-1]["totals"] != game.totals():
        raise GameFileError(
            "the record replays to %s, the board says %s" % (lines[-1]["totals"], game.totals())
        )
    return record, lines


def _from_board(link, path, profiles, current):
    """(Game, about, path) for a game on the board, decoded with the board's own profile
    (`profiles`: game -> Profile, each read once; `current`: the board's game now)."""
    data = link.read_file(board_path(path))
    if not isinstance(data, bytes):
        raise GameFileError("%s is not a saved game" % path)

    def profile_of(name):
        if name not in profiles:
            profiles[name] = link.profile(name)
        return profiles[name]

    game, about = decode(data, current, profile_of)
    return game, about, board_path(path)


def _load(name, link, args):
    """(Game, about, label) for NAME: a file on the PC if there is one, else the board's."""
    if os.path.isfile(name):
        with open(name, "rb") as f:
            return decode(f.read(), args.game) + (name,)
    if link is None:
        raise GameFileError("%s: no such file (give --port to read it from the board)" % name)
    return _from_board(link, name, {}, link.request("hello")["game"])


def _list(link):
    files = [f for f in link.request("ls")["files"] if f[0].startswith("games/")]
    if not files:
        print("no finished games on the board yet")
    profiles = {}
    current = link.request("hello")["game"]
    for path, size in files:
        try:
            game, _, _ = _from_board(link, path, profiles, current)
            what = "%s, %d players, %d turns, totals %s" % (
                game.profile.game, game.players, game.turns, game.totals()
            )  # fmt: skip
        except GameFileError as err:
            what = "unreadable: %s" % err
        print("%-14s %6d B  %s" % (path, size, what))
    return 0


def _names(link):
    """The players' names in the board's settings (for a game that does not carry its own),
    or None without a board."""
    if link is None:
        return None
    from firmware import settings as S
    from host_tools.link import LinkError

    try:
        text = link.read_file("settings.json")
    except LinkError:
        return None
    return S.load(text)[0].get("names") or None


def _pull(link, names, folder):
    if not names:
        names = [f[0] for f in link.request("ls")["files"] if f[0].startswith("games/")]
    os.makedirs(folder, exist_ok=True)
    for name in names:
        path = board_path(name)
        data = link.read_file(path)
        dest = os.path.join(folder, path.split("/")[-1])
        with open(dest, "wb") as f:
            f.write(data)
        print("%s -> %s (%d B)" % (path, dest, len(data)))
    return 0


def run(args):
    from host_tools.link import Link, LinkError

    names = args.names
    needs_board = args.action in ("list", "pull") or not all(os.path.isfile(n) for n in names)
    try:
        link = Link(args.port) if needs_board else None
    except LinkError as err:
        print("games: %s" % err, file=sys.stderr)
        return 2
    try:
        if args.action == "list":
            return _list(link)
        if args.action == "pull":
            return _pull(link, names, args.dir)
        if len(names) != 1:
            print("games: %s needs one game" % args.action, file=sys.stderr)
            return 2
        game, about, label = _load(names[0], link, args)
        # a game in progress (the journal) carries no names: the board's settings name them
        data = to_record(game, about, _names(link) if "profile" not in about else None)
        record, lines = check(game, data)
        if args.action == "replay":
            from host_tools import sheet

            print("\n".join(sheet.render(record, lines)))
            return 0
        text = record_text(data)
        if args.out:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text + "\n")
            print("%s -> %s: %d turns, totals %s" % (label, args.out, game.turns, game.totals()))
        else:
            print(text)
        return 0
    except (LinkError, GameFileError) as err:
        print("games: %s" % err, file=sys.stderr)
        return 2
    finally:
        if link is not None:
            link.close()
