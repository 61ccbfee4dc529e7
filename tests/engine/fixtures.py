"""Shared set-up for engine tests, on MicroPython (repo mounted at /input) and CPython."""

import json
import sys

import engine.calculissimo  # noqa: F401  (registers the ruleset)
from engine.game import Game
from engine.profile import Profile
from tools.positions import RULEBOOK, RULEBOOK_SCORES  # noqa: F401  (re-exported)
from tools.positions import lay_out as setup_board  # noqa: F401  (re-exported)

if sys.implementation.name == "micropython":
    REPO = "/input"
else:
    REPO = __file__.replace("\\", "/").rsplit("/", 3)[0]


def profile_path(game="calculissimo"):
    """The path of a game's default board profile."""
    return REPO + "/hardware/profiles/" + game + ".json"


def profile_data(game="calculissimo"):
    """A fresh dict of the default profile, for tests that tweak it."""
    with open(profile_path(game)) as f:
        return json.load(f)


_DEFAULT = []


def default_profile():
    if not _DEFAULT:
        _DEFAULT.append(Profile(profile_data()))
    return _DEFAULT[0]


def new_game(players=2, options=None, seed=None, profile=None, first=0):
    return Game(profile or default_profile(), players, options, seed, first)


def check(game, text):
    return game.check(game.move(text))


def play(game, text):
    return game.play(game.move(text))
