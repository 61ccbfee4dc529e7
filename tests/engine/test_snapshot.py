"""A refereed game's snapshot (engine.snapshot): exact round trip, damage detected.

Runs on CPython (pytest) and on MicroPython (tests/mpyunit.py) with the same results.
"""

from engine import snapshot
from engine.errors import GameStateError
from tests.engine.checks import eq, raises
from tests.engine.fixtures import RULEBOOK, default_profile, new_game, play


def state(g):
    return (g.scores, g.racks, g.bag, g.to_move, g.idle, g.over, g.turns, bytes(g.log),
            bytes(g.board.cells), g.unseen, g.options, g.penalties)  # fmt: skip


def played():
    g = new_game(4, {"strict": True, "turn_seconds": 90})
    for t in RULEBOOK:
        play(g, t)
    g.pass_turn()
    g.swap(3)
    play(g, "A1:1 B1:+ C1:2")  # illegal under strict: a forfeit
    return g


def test_round_trip_is_exact():
    g = played()
    data = snapshot.encode(g)
    h = snapshot.decode(default_profile(), data)
    eq(state(h), state(g))
    eq(snapshot.encode(h), data)
    eq([e[0] for e in h.history], ["place"] * 5 + ["pass", "swap", "forfeit"])


def test_restored_game_plays_on_and_takes_back():
    g = played()
    h = snapshot.decode(default_profile(), snapshot.encode(g))
    for _ in range(4):  # forfeit, swap, pass, then move 5
        h.pop()
    eq(h.scores, [48, 12, 33, 38])
    eq(h.to_move, 0)
    eq(play(h, RULEBOOK[4]).score, 19)


def test_finished_game_round_trip():
    g = new_game(2)
    play(g, RULEBOOK[0])
    g.finish([["1"] * 7, ["+"] * 7])
    h = snapshot.decode(default_profile(), snapshot.encode(g))
    eq((h.penalties, h.scores, h.over), ([7, 70], [41, -70], True))


def test_damage_is_refused():
    data = snapshot.encode(played())
    prof = default_profile()
    raises(GameStateError, snapshot.decode, prof, b"XYZ" + data[3:])
    raises(GameStateError, snapshot.decode, prof, data[:-1])
    raises(GameStateError, snapshot.decode, prof, data + b"\x00")
    raises(GameStateError, snapshot.decode, prof, data[:40])
    bad = bytearray(data)
    bad[-1] ^= 0x55  # the last entry's length byte
    raises(GameStateError, snapshot.decode, prof, bytes(bad))


def test_known_racks_are_not_saved():
    raises(GameStateError, snapshot.encode, new_game(2, seed=3))


def test_first_player_is_kept():
    g = new_game(3, first=2)
    play(g, RULEBOOK[0])
    h = snapshot.decode(default_profile(), snapshot.encode(g))
    eq((h.first, h.to_move, h.scores), (2, 0, [0, 0, 48]))


def test_snapshot_says_which_game_it_holds():
    from engine.profile import Profile
    from tests.engine.fixtures import profile_data

    data = snapshot.encode(played())
    eq(snapshot.game_of(data), "calculissimo")
    eq(snapshot.game_of(b"not a snapshot"), None)
    # A board switched to Cal-Q-Able never reads a Calculissimo game as its own.
    raises(GameStateError, snapshot.decode, Profile(profile_data("calqable")), data)


def test_version_1_snapshots_are_still_read():
    g = played()
    data = snapshot.encode(g)
    v1 = snapshot.MAGIC + b"\x01" + data[5:]  # as boards saved before the game byte
    eq(snapshot.game_of(v1), "calculissimo")
    eq(state(snapshot.decode(default_profile(), v1)), state(g))


def test_a_forfeit_is_said_by_the_verdict():
    g = new_game(2, {"strict": True})
    v = play(g, "A1:1 B1:+ C1:2")  # illegal under strict: the turn is lost
    eq((v.legal, v.forfeited, g.to_move), (False, True, 1))
    g = new_game(2)
    g.pass_turn()
    v = play(g, "A1:1 B1:+ C1:2")  # illegal after a pass, strict off: the turn goes on
    eq((v.legal, v.forfeited, g.to_move, g.idle), (False, False, 1, 1))
