"""Where the repository is: the root on CPython, `/input` when run on MicroPython."""

import sys

if sys.implementation.name == "micropython":
    REPO = "/input"
else:
    REPO = __file__.replace("\\", "/").rsplit("/", 3)[0]


def profile_path(game="calculissimo"):
    """The path of a game's default board profile."""
    return REPO + "/hardware/profiles/" + game + ".json"
