"""The reference engine computes characteristics once per state, and is still right.

What an ``unchanging()`` block computed (state-based action checks, observations) is kept
with the game's state stamp and reused only while the state is the same; any change to an
object, a counter changed in place, an attachment, a resolved effect or a player starts
afresh. Expected values come from the cards and the rules (CR 613, 122.1a), not from the
engine.
"""

from __future__ import annotations

import pytest

import reference_engine.layers as layers
from reference_engine import ReferenceEngine
from reference_engine.objects import PTEffect

from .scenario_helpers import Decider, aura, board, obj


@pytest.fixture
def calls(monkeypatch):
    """Counts how often characteristics are really computed (not taken from the cache)."""
    counted = [0]
    real = layers._characteristics

    def counting(game, o):
        counted[0] += 1
        return real(game, o)

    monkeypatch.setattr(layers, "_characteristics", counting)
    return counted


def new_game(*objects):
    return ReferenceEngine().new_game(board(*objects))


def pt(game, oid):
    o = game.observe()["objects"][oid]
    return o["power"], o["toughness"]


def test_the_same_state_is_computed_once(calls):
    game = new_game(obj("b", "Grizzly Bears"), aura("h", "Hyena Umbra", on="b"), obj("r", "Typhoid Rats"))
    calls[0] = 0
    first = game.observe()
    computed = calls[0]
    assert computed == 3  # each object once
    assert game.observe() == first and calls[0] == computed  # the same state: nothing computed again


def test_the_observation_after_an_event_reuses_the_last_state_based_action_check(calls):
    """After an event, the last check of state-based actions (none applied) saw the final state:
    observing it computes nothing for the permanents again."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"))
    game.apply({"type": "modify_pt", "object": "b", "power": 1, "toughness": 1}, Decider())
    before = calls[0]
    assert pt(game, "b") == (3, 3)  # Grizzly Bears 2/2 +1/+1 (CR 613.4c)
    assert calls[0] == before


def test_a_counter_changed_in_place_is_seen(calls):
    """CR 122.1a, 613.4c: a +1/+1 counter makes Grizzly Bears 3/3, even when the counters dict
    is changed in place between two observations."""
    game = new_game(obj("b", "Grizzly Bears"))
    assert pt(game, "b") == (2, 2)
    game.objects["b"].counters["+1/+1"] = 1
    assert pt(game, "b") == (3, 3)
    game.objects["b"].counters["+1/+1"] = 2
    assert pt(game, "b") == (4, 4)


def test_an_aura_moved_in_place_is_seen():
    """Hyena Umbra gives +1/+1 and first strike to the creature it enchants, and only to it (CR 303.4)."""
    game = new_game(obj("b", "Grizzly Bears"), obj("c", "Grizzly Bears"), aura("h", "Hyena Umbra", on="b"))
    assert pt(game, "b") == (3, 3) and pt(game, "c") == (2, 2)
    assert "first strike" in game.observe()["objects"]["b"]["keywords"]
    game.objects["h"].attached_to = "c"
    assert pt(game, "b") == (2, 2) and pt(game, "c") == (3, 3)
    assert "first strike" not in game.observe()["objects"]["b"]["keywords"]


def test_a_resolved_effect_added_or_changed_is_seen():
    """Layer 7b sets base power and toughness (CR 613.4b); an effect changed in place counts too."""
    game = new_game(obj("b", "Grizzly Bears"))
    assert pt(game, "b") == (2, 2)
    effect = PTEffect("b", "7b", 0, 1, game._tick())
    game.effects.append(effect)
    assert pt(game, "b") == (0, 1)
    effect.toughness = 4
    assert pt(game, "b") == (0, 4)
    game.effects.clear()
    assert pt(game, "b") == (2, 2)


def test_a_zone_change_is_seen():
    """Off the battlefield, no continuous effect applies (CR 400.7, 611.3a): the card's own 2/2."""
    game = new_game(obj("b", "Grizzly Bears", counters={"+1/+1": 1}))
    assert pt(game, "b") == (3, 3)
    game.apply({"type": "sacrifice", "object": "b"}, Decider())
    observed = game.observe()["objects"]["b"]
    assert observed["zone"] == "graveyard" and (observed["power"], observed["toughness"]) == (2, 2)
