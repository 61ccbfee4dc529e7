"""Read, change, check, push and pull the board's settings and pin map.

  config show                      the board's settings.json and what the board makes of it
  config get KEY                   one setting, as the board will use it
  config set KEY=VALUE ...         change settings on the board (checked first, then pushed)
  config validate FILE             check a settings file on the PC; no board needed
  config push FILE                 check a settings file, then write it to the board
  config pull [FILE]               the board's settings.json, to FILE or standard output
  config pins push FILE            check a pin map, then write it to the board's pins/
  config pins pull NAME [FILE]     a pin map from the board

Checking uses firmware/settings.py and firmware/pinmap.py, the code the board runs at boot,
and the board checks again before it writes: a file the PC accepts is one the board accepts,
and a file with any problem is refused whole. VALUE is JSON where it parses as JSON
(`players=3`, `strict=true`, `names=["Ana","Rui"]`), else text (`language=fr`); `names`
also takes commas (`names=Ana,Rui`). Changes take effect when the board restarts: `--restart`
restarts it at once (a game in progress is offered for resuming).
"""

import json
import sys

HELP = "read, change, check, push and pull the board's settings"


def add_arguments(cmd):
    cmd.add_argument("action", choices=("show", "get", "set", "validate", "push", "pull", "pins"))
    cmd.add_argument("args", nargs="*", help="KEY, KEY=VALUE..., FILE, or for pins: push|pull")
    cmd.add_argument("--port", help="the board's serial port (default: the one plugged in)")
    cmd.add_argument("--restart", action="store_true", help="restart the board after a change")


def parse_value(key, text):
    """A setting's value from the command line."""
    try:
        return json.loads(text)
    except ValueError:
        if key == "names":
            return [name.strip() for name in text.split(",") if name.strip()]
        return text


def check(text):
    """(settings, problems) for a settings file's text, as the board checks it before it
    writes (firmware/commands.py): the same code, so the same verdict."""
    from firmware import settings as S
    from firmware.commands import problems

    return S.load(text)[0], problems("settings.json", text)


def _refusal(problem):
    """A problem in the words of a refusal: the boot's "ignored" and "default kept" say what
    a board does with a bad file it finds, but a file the PC checks is refused whole."""
    problem = problem.split("; default")[0]
    return problem.removesuffix(" ignored")


def located(path, text):
    """The problems of a settings file's text, each as "PATH line N: problem" (the line of the
    setting it is about, or of the JSON error), in the board's words of refusal; with `path`
    None (settings the command line made), the problems alone."""
    from firmware import settings as S
    from host_tools.jsonpos import line_of

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = "%s line %d column %d" % (path, exc.lineno, exc.colno)
        return ["%s: not valid JSON (%s)" % (where, exc.msg)]
    except RecursionError:
        return ["%s: nested too deeply" % path]
    out = []
    said = set()
    if isinstance(data, dict):
        for key in data:  # each setting's own problems, at its line
            for p in S.validate({key: data[key]})[1]:
                p = _refusal(p)
                said.add(p)
                if path is None:
                    out.append(p)
                else:
                    out.append("%s line %d: %s" % (path, line_of(text, (key,)), p))
    for p in check(text)[1]:  # the board's whole verdict: anything not said yet
        p = _refusal(p)
        if p not in said:
            out.append(p if path is None else "%s: %s" % (path, p))
    return out


def _fail(message):
    print("config: %s" % message, file=sys.stderr)
    return 2


def _read_local(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as err:
        raise SystemExit(_fail("cannot read %s: %s" % (path, err.strerror or err)))


def _validate(path):
    text = _read_local(path)
    problems = located(path, text)
    for p in problems:
        print(p)
    if problems:
        return 1
    settings = check(text)[0]
    print(
        "%s: good (%s)"
        % (path, ", ".join("%s=%s" % (k, json.dumps(settings[k])) for k in settings))
    )
    return 0


def _board_settings(link):
    from firmware import settings as S
    from host_tools.link import LinkError

    try:
        text = link.read_file("settings.json")
    except LinkError as err:
        if "no such file" not in str(err):
            raise
        text = None  # no file yet: the board uses the defaults
    try:
        data = {} if text is None else json.loads(text)
    except ValueError:
        data = {}  # not JSON: the board uses the defaults, and S.load says why
    if not isinstance(data, dict):
        data = {}
    return data, S.load(text)


def _push(link, text, restart, path=None):
    problems = located(path, text)
    if problems:
        for p in problems:
            print("refused: %s" % p, file=sys.stderr)
        return 1
    link.write_file("settings.json", text)
    print("settings written to the board")
    return _maybe_restart(link, restart)


def _maybe_restart(link, restart):
    if restart:
        link.send("restart")
        print("the board is restarting")
    else:
        print("they take effect when the board restarts (--restart restarts it now)")
    return 0


def _pins(link, args, restart):
    from firmware.commands import problems as board_problems

    if len(args) >= 2 and args[0] == "push":
        path = args[1]
        text = _read_local(path)
        name = path.replace("\\", "/").split("/")[-1]
        problems = board_problems("pins/" + name, text)  # the board's own check
        if problems:
            for p in problems:
                print("refused: %s: %s" % (path, p), file=sys.stderr)
            return 1
        link.write_file("pins/" + name, text)
        print("pin map written to pins/%s (the `pins` setting picks it)" % name)
        return _maybe_restart(link, restart)
    if len(args) >= 2 and args[0] == "pull":
        name = args[1] if args[1].endswith(".json") else args[1] + ".json"
        text = link.read_file("pins/" + name)
        return _output(text, args[2] if len(args) > 2 else None)
    return _fail("pins needs push FILE or pull NAME [FILE]")


def _output(text, path):
    if path is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print("written to %s" % path)
    return 0


def run(args):
    from host_tools.link import Link, LinkError

    if args.action == "validate":
        if len(args.args) != 1:
            return _fail("validate needs one FILE")
        return _validate(args.args[0])
    try:
        with Link(args.port) as link:
            return _on_board(link, args)
    except LinkError as err:
        return _fail(str(err))


def _on_board(link, args):
    action, rest = args.action, args.args
    if action == "pins":
        return _pins(link, rest, args.restart)
    if action == "push":
        if len(rest) != 1:
            return _fail("push needs one FILE")
        return _push(link, _read_local(rest[0]), args.restart, rest[0])
    data, (settings, problems) = _board_settings(link)
    if action == "pull":
        return _output(json.dumps(data, indent=2, ensure_ascii=False), rest[0] if rest else None)
    if action == "show":
        for key in sorted(settings):
            mark = "" if key in data else "   (default)"
            print("%-15s %s%s" % (key, json.dumps(settings[key], ensure_ascii=False), mark))
        for p in problems:
            print("problem: %s" % p)
        return 0
    if action == "get":
        if len(rest) != 1 or rest[0] not in settings:
            return _fail("get needs one of: %s" % ", ".join(sorted(settings)))
        print(json.dumps(settings[rest[0]], ensure_ascii=False))
        return 0
    # set
    if not rest or any("=" not in a for a in rest):
        return _fail("set needs KEY=VALUE ...")
    for arg in rest:
        key, _, text = arg.partition("=")
        data[key] = parse_value(key, text)
    return _push(link, json.dumps(data, ensure_ascii=False), args.restart)
