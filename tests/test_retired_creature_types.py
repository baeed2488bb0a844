"""The card database's 2019 creature types that CR 205.3m no longer lists (Hound, now Dog) are no
difference in differential mode, and nothing else about subtypes is relaxed."""

from __future__ import annotations

import cards
from invariants.differential import same_subtypes


def test_the_creature_types_are_those_of_205_3m():
    types = cards.creature_types()
    assert {"Dog", "Lizard", "Snake", "Time Lord", "Human", "Warrior"} <= types
    assert not {"Hound", "Viashino", "Naga", "Cephalid"} & types
    assert "Hound" in cards.card("Isamaru, Hound of Konda").subtypes  # the database's 2019 Oracle text


def test_today_s_type_in_place_of_a_retired_one_matches():
    assert same_subtypes(["Dog"], ["Hound"])
    assert same_subtypes(["Lizard", "Warrior"], ["Viashino", "Warrior"])


def test_the_other_subtypes_are_still_compared():
    assert not same_subtypes(["Lizard"], ["Viashino", "Warrior"])  # the Warrior is missing
    assert not same_subtypes(["Dog", "Samurai"], ["Hound"])  # one more type than the card has
    assert not same_subtypes(["Elf"], ["Bear"])  # nothing retired: compared exactly
    assert not same_subtypes("Dog", ["Hound"])
