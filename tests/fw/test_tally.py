"""The end-of-game count of leftover chips (firmware/tally.py), on both runtimes."""

from firmware.tally import Tally
from tests.engine.checks import eq


def test_players_count_in_turn_and_empty_racks_are_skipped():
    t = Tally([2, 0, 1])
    eq((t.player, t.left()), (0, 2))
    t.add("5", 10)
    t.add("+")
    eq(t.player, 2)
    t.add("?")
    eq(t.done(), True)
    eq(t.add("1"), False)
    eq(t.racks(), [["5", "+"], [], ["?"]])


def test_back_takes_the_last_entry_even_of_the_previous_player():
    t = Tally([2, 1])
    t.add("5", 10)
    t.add("5")
    eq(t.player, 1)
    t.back()  # P2 has nothing yet: P1's hand-entered 5 goes
    eq((t.player, t.racks()), (0, [["5"], []]))
    eq(t.lift(10), True)  # the 5 read from square 10 is still tracked
    eq(t.racks(), [[], []])


def test_a_lifted_chip_is_uncounted_once():
    t = Tally([1, 1])
    t.add("7", 3)
    eq(t.player, 1)
    eq(t.lift(3), True)
    eq(t.lift(3), False)
    eq((t.player, t.racks()), (0, [[], []]))


def test_preset_counts_chips_already_lying_there():
    t = Tally([3, 2])
    t.preset(1, "9", 40)
    t.preset(1, "+", 41)
    eq((t.player, t.racks()), (0, [[], ["9", "+"]]))
    t.add("1")
    t.add("1")
    t.add("1")
    eq(t.done(), True)
