"""What an Aura may enchant, kept from one state-based action check to the next
(reference_engine.state_based_actions), follows what it reads.

An Aura not legally attached is put into its owner's graveyard (CR 704.5m); whether it is legally
attached reads the Aura (its copiable values and controller, CR 303.4a) and the permanent it is
attached to (its zone, controller, types and protections, CR 702.16c). Each test changes one of
them in place between two checks, and fails if the verdict of the first check is kept. Expected
values come from the cards' Oracle text and the rules, not from the engine.
"""

from __future__ import annotations

import pytest

from reference_engine import ReferenceEngine
from reference_engine.objects import PTEffect

from .scenario_helpers import Decider, aura, board, obj


def new_game(*objects):
    return ReferenceEngine().new_game(board(*objects))


def check(game):
    game.check_state_based_actions(Decider())


def test_an_aura_whose_creature_gains_protection_from_its_colour_is_put_into_the_graveyard():
    """Holy Strength (white, "Enchant creature") stays on Grizzly Bears; once the Bears gain
    protection from white (layer 6, CR 613.1f) it is no longer legally attached (CR 702.16c) and
    is put into the graveyard (CR 704.5m), though nothing of the Aura or the Bears' fields changed."""
    game = new_game(obj("b", "Grizzly Bears"), aura("hs", "Holy Strength", on="b"))
    check(game)
    assert game.objects["hs"].zone == "battlefield"
    game.effects.append(PTEffect("b", "6", 0, 0, game._tick(), keywords=("protection from white",)))
    check(game)
    assert game.objects["hs"].zone == "graveyard"


@pytest.mark.parametrize("changes", ["b", "pu"], ids=["the creature", "the aura"])
def test_an_aura_for_a_creature_you_control_when_one_of_them_changes_control(changes):
    """Penumbra Umbra: "Enchant creature you control" (CR 303.4a): on P1's Grizzly Bears it stays;
    once P2 controls the Bears, or the Umbra, it is no longer legally attached and is put into the
    graveyard (CR 704.5m)."""
    game = new_game(obj("b", "Grizzly Bears"), aura("pu", "Penumbra Umbra", on="b"))
    check(game)
    assert game.objects["pu"].zone == "battlefield"
    game.objects[changes].controller = "P2"
    check(game)
    assert game.objects["pu"].zone == "graveyard"
