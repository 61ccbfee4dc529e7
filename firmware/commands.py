"""What the board does for each command from the PC (firmware/console.py reads them).

| cmd | keys | reply keys |
| --- | --- | --- |
| hello | | version, game, sensor, players, mode, service, free (heap bytes, null off a board) |
| ls | | files: [[path, bytes], ...] (settings, registry, pin maps, profiles, journal, games) |
| get | path | path, text (JSON files) or hex (binary files) |
| put | path, text, offset, more | path, restart (true: takes effect at the next start) |
| state | | mode, snapshot (hex, null before a game), pending (the laid move's text) |
| enrol | face (null: only report tags), or stop: true | service |
| diag | on: true/false | service |
| restart | | (the board restarts after replying) |

`put` accepts settings.json, chips.json and pins/NAME.json only, and checks them with the
code that reads them at boot (settings, registry, pin map), then runs the boot's own checks
(firmware/config.py) on the flash as it will be with the file: a file with any problem, or
one the board would not start with, is refused whole, with why in `error`, so the PC can
never leave a board that boots into defaults or not at all. It is written to a .new file
and renamed over, as the journal is. Paths are names of letters, digits, '_', '-' and '.'
(settings.safe_name), at most one folder deep: no "..", backslash, drive or leading '/'. An
`id` is a whole number of 32 bits or a string of at most MAX_ID characters; any other gets
an error reply with id null, as a reply must be JSON any parser reads. A file
longer than a command line comes in parts: each part but the last has `more: true`, each
says at which character of the file it starts (`offset`), and the parts are kept in RAM (at
most MAX_UPLOAD characters) until the last one arrives. chips.json counts at once.
"""

from engine.compat import mem_free
from firmware import config, pinmap
from firmware import settings as S
from firmware.registry import RegistryError, face_text

try:
    from binascii import hexlify
except ImportError:  # not in every port's build

    def hexlify(data):  # type: ignore[misc]
        return "".join("%02x" % b for b in data).encode()


VERSION = "0.4.0"
MAX_UPLOAD = 16384
ROOT_FILES = ("settings.json", "chips.json", "game.dat")
FOLDERS = ("pins", "profiles", "games")
MAX_ID = 64
_ID_LOW = -2147483648
_ID_HIGH = 2147483647


def _good_id(ident):
    """May `ident` be echoed as a reply's id?"""
    if isinstance(ident, bool):
        return False
    if isinstance(ident, int):
        return _ID_LOW <= ident <= _ID_HIGH
    return ident is None or (isinstance(ident, str) and len(ident) <= MAX_ID)


def handle(app, msg):
    """Answer one message from the console: a command dict, or a parse error string."""
    ev = app.events
    if not isinstance(msg, dict):
        ev.emit("reply", "id", None, "ok", False, "error", msg)
        return
    ident = msg.get("id")
    if not _good_id(ident):
        why = "id must be a whole number %d to %d or a string of at most %d characters"
        ev.emit("reply", "id", None, "ok", False, "error", why % (_ID_LOW, _ID_HIGH, MAX_ID))
        return
    fn = _COMMANDS.get(msg["cmd"])
    if fn is None:
        ev.emit("reply", "id", ident, "ok", False, "error", "unknown command %s" % msg["cmd"])
        return
    try:
        pairs = fn(app, msg)
    except (KeyError, TypeError, ValueError) as err:  # a key missing or of the wrong kind
        pairs = "bad %s command: %s" % (msg["cmd"], err)
    except OSError as err:
        pairs = "flash error: %s" % (err,)
    if isinstance(pairs, str):
        ev.emit("reply", "id", ident, "ok", False, "error", pairs)
    else:
        ev.emit("reply", "id", ident, "ok", True, *pairs)


def _hello(app, msg):
    ref = app.referee
    return (
        "version", VERSION,
        "game", ref.profile.game,
        "sensor", app.settings["sensor"],
        "players", app.settings["players"],
        "mode", ref.mode,
        "service", app.service.name if app.service else None,
        "free", mem_free(),  # free heap in bytes on a board; null on the simulated board
    )  # fmt: skip


def _size(fs, path):
    """A file's size in bytes, None if it is missing (read whole where fs has no size())."""
    size = getattr(fs, "size", None)
    if size is not None:
        return size(path)
    data = fs.read(path)
    return None if data is None else len(data)


def _ls(app, msg):
    fs = app.hw.fs
    files = []
    for path in ROOT_FILES:
        n = _size(fs, path)
        if n is not None:
            files.append([path, n])
    for folder in FOLDERS:
        try:
            names = sorted(fs.listdir(folder))
        except OSError:
            continue
        for name in names:
            if name.endswith(".json") or name.endswith(".dat"):  # noqa: PIE810  (MicroPython: no tuple)
                path = folder + "/" + name
                files.append([path, _size(fs, path)])
    return ("files", files)


def _readable(path):
    """May the PC name `path`? Only the board's own data files, by safe names."""
    if not isinstance(path, str):
        return False
    if path in ROOT_FILES:
        return True
    parts = path.split("/")
    return len(parts) == 2 and parts[0] in FOLDERS and S.safe_name(parts[1])


def _get(app, msg):
    path = msg["path"]
    data = app.hw.fs.read(path) if _readable(path) else None
    if data is None:
        return "%s: no such file" % path
    if path.endswith(".json"):
        return ("path", path, "text", bytes(data).decode())
    return ("path", path, "hex", hexlify(data).decode())


def problems(path, text, fs=None):
    """What is wrong with `text` as the board's file `path`: a list, empty when it is good.
    Given the board's filesystem `fs`, also whether the board would start with it there."""
    if not _readable(path):
        return [_bad_path(path)]
    if path == "settings.json":  # the boot's wording says what it keeps; here nothing is kept
        bad = [p.split("; default")[0] for p in S.load(text)[1]]
    elif path == "chips.json":  # never stops a boot
        problem = config.read_chips(text)[1]
        return [] if problem is None else [problem]
    elif path.startswith("pins/") and path.endswith(".json"):
        try:
            bad = pinmap.check(config.parse(text, path))
        except config.ConfigError as err:
            return [str(err)]
        if bad:
            return ["%s: %s" % (path, "; ".join(bad))]
    else:
        return ["%s cannot be written from the PC" % path]
    if bad or fs is None:
        return bad
    why = config.refused(fs, path, text)
    return [] if why is None else ["the board would not start with this %s: %s" % (path, why)]


def _bad_path(path):
    return "%s is not a board file name (letters, digits, _ - . in at most one folder)" % path


def _put(app, msg):
    path, text, offset = msg["path"], msg["text"], msg.get("offset", 0)
    if not isinstance(path, str) or not isinstance(text, str) or not isinstance(offset, int):
        return "put needs a path, a text and a whole offset"
    if not _readable(path):
        return _bad_path(path)
    # [path, characters received, parts...]; a part at offset 0 starts afresh, so an upload
    # cut short and tried again is never glued to its first attempt
    parts = app.upload
    app.upload = None
    if offset == 0:
        parts = [path, 0]
    elif parts is None or parts[0] != path or parts[1] != offset:
        return "%s: part at %d out of order; send the file again from its start" % (path, offset)
    parts.append(text)
    parts[1] += len(text)
    if msg.get("more") is True:
        if parts[1] > MAX_UPLOAD:
            return "%s is longer than %d characters" % (path, MAX_UPLOAD)
        app.upload = parts
        return ("path", path, "more", True)
    text = "".join(parts[2:])
    fs = app.hw.fs
    bad = problems(path, text, fs)
    if bad:
        return "; ".join(bad)
    if "/" in path:
        fs.mkdir(path.split("/")[0])
    fs.write(path + ".new", text.encode())
    fs.rename(path + ".new", path)
    if path == "chips.json":  # the registry in use becomes the one written, at once
        app.sensing.registry = config.read_chips(text)[0]
        return ("path", path, "restart", False)
    return ("path", path, "restart", True)


def _state(app, msg):
    from engine.move import Move
    from engine.snapshot import encode

    ref = app.referee
    game = ref.game
    if game is None:
        return ("mode", ref.mode, "snapshot", None, "pending", "")
    pending = str(Move(list(game.pending), game.profile.width)) if game.pending else ""
    return ("mode", ref.mode, "snapshot", hexlify(encode(game)).decode(), "pending", pending)


def _service(app, kind):
    """The service mode of class `kind` running, started (ending any other) if need be."""
    if app.service is not None and app.service.name != kind.name:
        app.end_service()
    if app.service is None:
        app.start_service(kind(app))
    return app.service


def _enrol(app, msg):
    from firmware.service import Enrol

    if msg.get("stop"):
        app.end_service()
        return ("service", None)
    if app.sensing.reader is None:
        return "this board has no NFC reader: a Hall-only board asks each chip's face"
    face = msg.get("face")
    try:
        if face is not None:
            face = face_text(face)
    except RegistryError as err:
        return str(err)
    service = _service(app, Enrol)
    service.arm(face)
    return ("service", "enrol", "face", service.face)


def _diag(app, msg):
    from firmware.service import Diag

    if not msg.get("on"):
        app.end_service()
        return ("service", None)
    _service(app, Diag)
    return ("service", "diag")


def _restart(app, msg):
    app.running = False
    app.restart = True
    return ()


_COMMANDS = {
    "hello": _hello,
    "ls": _ls,
    "get": _get,
    "put": _put,
    "state": _state,
    "enrol": _enrol,
    "diag": _diag,
    "restart": _restart,
}
