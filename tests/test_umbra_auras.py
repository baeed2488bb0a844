"""The Auras with umbra armor attached to a creature, as the umbra armor invariants read them
(:func:`invariants.observed.umbra_auras`, CR 702.89a): the Auras on the battlefield attached to it
whose card (or the board) gives them umbra armor, in the order of the observation's objects, read
once per observation and again for a new one."""

from __future__ import annotations

import copy

from invariants import views
from invariants.observed import umbra_auras

from .scenario_helpers import aura, new_game, obj


def test_the_umbras_attached_to_each_creature_in_object_order():
    """CR 702.89a: Hyena Umbra and Spider Umbra have umbra armor; Dog Umbra has it only while its
    controller controls the enchanted creature (not on an opponent's); an Aura attached to another
    creature is that creature's."""
    obs = new_game(obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats", "P2"),
                   aura("hyena", "Hyena Umbra", "bears"), aura("dog", "Dog Umbra", "rats"),
                   aura("spider", "Spider Umbra", "bears"), aura("other", "Hyena Umbra", "rats")).observe()
    views.forget()
    assert umbra_auras(obs, "bears") == ["hyena", "spider"]
    assert umbra_auras(obs, "rats") == ["other"]
    assert umbra_auras(obs, "hyena") == []


def test_a_new_observation_is_read_again():
    """An Aura moved to another creature in a later observation (a new object) is read there, though
    the observation before was read in this step."""
    obs = new_game(obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats"),
                   aura("hyena", "Hyena Umbra", "bears")).observe()
    views.forget()
    assert umbra_auras(obs, "bears") == ["hyena"]
    moved = copy.deepcopy(obs)
    moved["objects"]["hyena"]["attached_to"] = "rats"
    assert (umbra_auras(moved, "bears"), umbra_auras(moved, "rats")) == ([], ["hyena"])
