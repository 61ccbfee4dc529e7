"""PC-side tools for the smart game board (CPython only): `python -m host_tools --help`."""


def command():
    """How to run the host tools from this Python, from any folder: the `smartboard` script
    beside it when the project is installed (`make venv` does), else `python -m host_tools`
    with this very interpreter (a bare `python` may lack pyserial)."""
    import os
    import shlex
    import sys

    script = os.path.join(os.path.dirname(sys.executable), "smartboard")
    if os.path.isfile(script):
        return shlex.quote(script)
    return shlex.quote(sys.executable) + " -m host_tools"


def data_dir():
    """The folder where the PC keeps its copies of the board's data (the chip registries that
    `enrol` saves, for `enrol --restore`), made if need be: $SMARTBOARD_HOME when set, else
    the platform's place for an application's data (Linux: $XDG_DATA_HOME/smartboard, by
    default ~/.local/share/smartboard; macOS: ~/Library/Application Support/smartboard;
    Windows: %APPDATA%\\smartboard). Never the current folder: a checkout is no place for a
    family's chips."""
    import os
    import sys

    path = os.environ.get("SMARTBOARD_HOME")
    if not path:
        home = os.path.expanduser("~")
        if sys.platform == "win32":
            base = os.environ.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
        elif sys.platform == "darwin":
            base = os.path.join(home, "Library", "Application Support")
        else:
            base = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
        path = os.path.join(base, "smartboard")
    os.makedirs(path, exist_ok=True)
    return path


def n_chips(n):
    """ "1 chip", "3 chips"."""
    return "%d chip%s" % (n, "" if n == 1 else "s")
