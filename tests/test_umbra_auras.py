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


def test_the_umbra_cases_of_a_step_are_read_once_and_split_by_indestructible(monkeypatch):
    """The creatures with umbra armor the event would destroy (CR 702.89a), predicted once for every
    check of the step (:func:`invariants.observed.destroyed_in_step`): an indestructible one (CR 702.12b)
    is among the indestructible cases only; the same step refused has none; a step with another event
    is read again."""
    from harness.protocol import Transition
    from invariants import observed, umbra_armor

    read: list[dict] = []
    predict = observed.would_be_destroyed
    monkeypatch.setattr(observed, "would_be_destroyed", lambda before, event: read.append(event) or predict(
        before, event))
    obs = new_game(obj("bears", "Grizzly Bears"), obj("myr", "Darksteel Myr"),
                   aura("hyena", "Hyena Umbra", "bears"), aura("spider", "Spider Umbra", "myr")).observe()
    views.forget()
    wrath = Transition(obs, {"type": "cast", "card": "Wrath of God", "controller": "P1", "targets": []}, obs)
    assert [c[0] for c in umbra_armor._cases(wrath)] == ["bears"]
    assert [c[0] for c in umbra_armor._cases(wrath, indestructible=True)] == ["myr"]
    assert sorted(observed.destroyed_in_step(wrath)) == ["bears", "myr"] and len(read) == 1
    refused = Transition(obs, wrath.event, obs, illegal="not_legal")
    assert umbra_armor._cases(refused) == [] and umbra_armor._cases(refused, indestructible=True) == []
    murder = Transition(obs, {"type": "cast", "card": "Murder", "controller": "P1", "targets": ["bears"]}, obs)
    assert [c[0] for c in umbra_armor._cases(murder)] == ["bears"] and len(read) == 2
