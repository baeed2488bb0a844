"""The reference engine computes characteristics once per state, and is still right.

What is computed from the state (characteristics, attachments, anthems) is kept while the
state version (``reference_engine.objects.VERSION``) stays the same, in or out of an
``unchanging()`` block; any change to an object, a counter changed in place, an attachment,
a resolved effect, a control change or a zone change starts afresh, also between two reads
in the same step. Expected values come from the cards and the rules (CR 613, 122.1a, 707.2),
not from the engine; the last test compares every cached read of a fuzzing run with a fresh
computation.
"""

from __future__ import annotations

import pytest

import reference_engine.layers as layers
from reference_engine import ReferenceEngine
from reference_engine.objects import PTEffect

from .scenario_helpers import Decider, aura, board, fuzz_with_engine_function_checked, obj


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


def test_counters_of_a_copied_game_or_given_by_another_object_are_its_own():
    """CR 122.1a, 613.4c: a +1/+1 counter makes Grizzly Bears 3/3. A deep copy of a game (a
    fork's snapshot) has counters of its own: one put on there is seen there, not in the
    original; counters taken from another object are copied: changing them changes one object."""
    import copy

    game = new_game(obj("b", "Grizzly Bears"), obj("c", "Grizzly Bears"))
    assert pt(game, "b") == (2, 2)
    snapshot = copy.deepcopy(game)
    assert pt(snapshot, "b") == (2, 2)
    snapshot.objects["b"].counters["+1/+1"] = 1
    assert pt(snapshot, "b") == (3, 3) and pt(game, "b") == (2, 2)
    game.objects["c"].counters = game.objects["b"].counters
    game.objects["b"].counters["+1/+1"] = 2
    assert pt(game, "b") == (4, 4) and pt(game, "c") == (2, 2)
    game.objects["c"].counters["+1/+1"] = 1
    assert pt(game, "c") == (3, 3) and pt(game, "b") == (4, 4)


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


# ------------------------------------------------- changes between two reads in the same step
def pt_of(game, oid):
    ch = layers.characteristics(game, game.objects[oid])
    return ch.power, ch.toughness


def test_an_aura_leaving_between_two_reads_ends_its_bonus():
    """Holy Strength: "Enchanted creature gets +1/+2" (CR 613.4c); its static ability applies
    only while it is on the battlefield (CR 611.3a, 400.7): Grizzly Bears 2/2 is 3/4, then 2/2
    once the Aura is in the graveyard, read again with no event between."""
    game = new_game(obj("b", "Grizzly Bears"), aura("hs", "Holy Strength", on="b"))
    assert pt_of(game, "b") == (3, 4)
    holy_strength = game.objects["hs"]
    holy_strength.zone, holy_strength.attached_to = "graveyard", None
    assert pt_of(game, "b") == (2, 2)


def test_an_anthem_changing_controller_between_two_reads():
    """Glorious Anthem: "Creatures you control get +1/+1" (CR 613.4c); "you" is its controller
    (CR 109.5): P1's Grizzly Bears 3/3 and P2's Typhoid Rats 1/1, then 2/2 and 2/2 once P2
    controls the Anthem."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats", owner="P2"), obj("ga", "Glorious Anthem"))
    assert (pt_of(game, "b"), pt_of(game, "r")) == ((3, 3), (1, 1))
    game.objects["ga"].controller = "P2"
    assert (pt_of(game, "b"), pt_of(game, "r")) == ((2, 2), (2, 2))


def test_umbra_armor_follows_the_enchanted_permanents_controller():
    """Umbra Mystic: "Auras attached to permanents you control have umbra armor" (layer 6,
    CR 613.1f); it counts the enchanted permanent's controller, not the Aura's (ruling
    2010-06-15): Holy Strength on P1's Grizzly Bears has umbra armor, and loses it once P2
    controls the Bears, though nothing about the Aura itself changed."""
    game = new_game(obj("m", "Umbra Mystic"), obj("b", "Grizzly Bears"), aura("hs", "Holy Strength", on="b"))
    assert "umbra armor" in layers.characteristics(game, game.objects["hs"]).keywords
    game.objects["b"].controller = "P2"
    assert "umbra armor" not in layers.characteristics(game, game.objects["hs"]).keywords


def test_counters_changed_in_place_by_any_dict_method():
    """CR 122.1a: each +1/+1 counter gives +1/+1 (layer 7c): Grizzly Bears 2/2 with two is
    4/4, with none 2/2, with one -1/-1 counter 1/1, whatever changes its counters."""
    game = new_game(obj("b", "Grizzly Bears"))
    counters = game.objects["b"].counters
    counters.update({"+1/+1": 2})
    assert pt_of(game, "b") == (4, 4)
    counters.pop("+1/+1")
    assert pt_of(game, "b") == (2, 2)
    counters.setdefault("-1/-1", 1)
    assert pt_of(game, "b") == (1, 1)
    counters.clear()
    assert pt_of(game, "b") == (2, 2)


def test_a_layer_7_change_then_a_copy():
    """A copy effect copies the copiable values only (CR 707.2, 613.2c): after "+1/+1 until end
    of turn" on Grizzly Bears (3/3, layer 7c), a Clone entering as a copy of it is a 2/2
    Grizzly Bears, and the Bears stay 3/3; the Clone read in the hand before is a 0/0 Clone."""
    game = new_game(obj("b", "Grizzly Bears"), obj("c", "Clone", zone="hand"))
    game.apply({"type": "modify_pt", "object": "b", "power": 1, "toughness": 1}, Decider())
    assert pt_of(game, "b") == (3, 3)
    clone = layers.characteristics(game, game.objects["c"])
    assert (clone.name, clone.power, clone.toughness) == ("Clone", 0, 0)
    game.apply({"type": "put_onto_battlefield", "id": "c2", "card": "Clone", "controller": "P1",
                "copy_of": "b"}, Decider())
    copy = layers.characteristics(game, game.objects["c2"])
    assert (copy.name, copy.power, copy.toughness) == ("Grizzly Bears", 2, 2)
    assert pt_of(game, "b") == (3, 3)


def test_the_end_of_turn_removes_the_effect_between_two_reads():
    """Cleanup: "until end of turn" effects end (CR 514.2): Grizzly Bears +2/+0 is 4/2, then 2/2."""
    game = new_game(obj("b", "Grizzly Bears"))
    game.apply({"type": "modify_pt", "object": "b", "power": 2, "toughness": 0}, Decider())
    assert pt_of(game, "b") == (4, 2)
    game.effects = [e for e in game.effects if not e.until_end_of_turn]
    assert pt_of(game, "b") == (2, 2)


def test_an_observation_of_a_copying_game_shares_no_dict_or_list_with_the_last_one():
    """Observed entries kept from an earlier state are copied by a game that doesn't share unchanged
    entries (``Game.shares_unchanged_entries`` False; the default gives the same dict again, read-only:
    tests/test_observation_sharing.py): its caller may change what it is given."""
    from reference_engine.game import Game

    class Copying(Game):
        shares_unchanged_entries = False

    game = Copying(board(obj("b", "Grizzly Bears", counters={"+1/+1": 1}), aura("hs", "Holy Strength", on="b"),
                         obj("c", "Clone", zone="hand")))
    game.apply({"type": "modify_pt", "object": "b", "power": 1, "toughness": 0}, Decider())

    def containers(value, found):
        if isinstance(value, (dict, list)):
            found.add(id(value))
            for item in value.values() if isinstance(value, dict) else value:
                containers(item, found)
        return found

    first, second = game.observe(), game.observe()
    assert first == second
    assert not containers(first, set()) & containers(second, set())
    second["objects"]["b"]["keywords"].append("flying")  # the caller's to change
    assert game.observe()["objects"]["b"]["keywords"] == []


def test_a_field_no_characteristic_reads_changed_in_place_is_observed():
    """Damage marked on a creature (CR 120.3) is observed once marked, though its
    characteristics are the same: 2 damage on Grizzly Bears, then 0 again."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"))
    assert game.observe()["objects"]["b"]["damage"] == 0
    game.objects["b"].damage = 2
    assert game.observe()["objects"]["b"]["damage"] == 2
    game.objects["b"].damage = 0
    assert game.observe()["objects"]["b"]["damage"] == 0


# ------------------------------------------ what another permanent reads of one (reference_engine.kept)
def test_an_anthem_leaving_the_battlefield_in_place_ends_its_bonus():
    """Glorious Anthem's "Creatures you control get +1/+1" applies only while it is on the
    battlefield (CR 611.3a, 613.4c): Grizzly Bears 3/3, then 2/2 once the Anthem is in the
    graveyard, though nothing of the Bears changed."""
    game = new_game(obj("b", "Grizzly Bears"), obj("ga", "Glorious Anthem"))
    assert pt(game, "b") == (3, 3)
    game.objects["ga"].zone = "graveyard"
    assert pt(game, "b") == (2, 2)


def test_an_auras_new_timestamp_orders_its_effect_after_a_resolved_one():
    """Layer 7b effects apply in timestamp order (CR 613.4b, 613.7): a base 0/1 effect newer than
    Octopus Umbra's base 8/8 wins; once the Umbra gets a newer timestamp (as it becomes attached
    again, CR 613.7e) its 8/8 wins."""
    game = new_game(obj("b", "Grizzly Bears"), aura("o", "Octopus Umbra", on="b"))
    assert pt(game, "b") == (8, 8)
    game.effects.append(PTEffect("b", "7b", 0, 1, game._tick()))
    assert pt(game, "b") == (0, 1)
    game.objects["o"].timestamp = game._tick()
    assert pt(game, "b") == (8, 8)


def test_a_tapped_continuous_equipment_gives_no_bonus():
    """With Orb of Origin on the battlefield Sword of the Meek is continuous; a tapped continuous
    permanent has no abilities (Orb of Origin rulings 2024-11-08, layer 6 CR 613.1f): the
    equipped Grizzly Bears are 3/4 with the Sword untapped (+1/+2, CR 613.4c), 2/2 once it is tapped."""
    game = new_game(obj("b", "Grizzly Bears"), aura("s", "Sword of the Meek", on="b"), obj("orb", "Orb of Origin"))
    assert pt(game, "b") == (3, 4)
    game.objects["s"].tapped = True
    assert pt(game, "b") == (2, 2)


def test_an_auras_copiable_values_changed_in_place_change_its_bonus():
    """An Aura's static abilities are those of its copiable values (CR 707.2, 613.2c): Hyena
    Umbra gives +1/+1 (layer 7c), Octopus Umbra sets base 8/8 (layer 7b, CR 613.4b); the
    enchanted Grizzly Bears follow the Aura's copy effect, then its own values, set in place."""
    from reference_engine.cards import card

    game = new_game(obj("b", "Grizzly Bears"), aura("a", "Hyena Umbra", on="b"))
    assert pt(game, "b") == (3, 3)
    game.objects["a"].copy_effect = card("Octopus Umbra")
    assert pt(game, "b") == (8, 8)
    game.objects["a"].copy_effect = None
    assert pt(game, "b") == (3, 3)
    game.objects["a"].script = card("Octopus Umbra")[1]
    assert pt(game, "b") == (8, 8)


# ------------------------------------------------- every cached read against a fresh computation
def test_every_cached_read_of_a_run_equals_a_fresh_computation(monkeypatch, outside_coverage):
    """Every characteristics() read of a short fuzzing run on the reference engine (both modes)
    is compared with the same object's characteristics computed afresh, from an empty cache: a
    change to the state that doesn't change the version would show here as a stale read."""


    real = layers.characteristics
    reads = [0]

    def fresh(game, o):  # from an empty cache, nothing kept from earlier states (reference_engine.kept)
        kept = game._cache, game._cache_version
        earlier = {name: game.__dict__.pop(name) for name in ("_characteristics_kept", "_context_kept")
                   if name in game.__dict__}
        game._cache = None
        try:
            return real(game, o)
        finally:
            game._cache, game._cache_version = kept
            for name in ("_characteristics_kept", "_context_kept"):
                game.__dict__.pop(name, None)
            game.__dict__.update(earlier)

    def checked(game, o):
        cached = real(game, o)
        assert cached == fresh(game, o), f"stale characteristics of {o.id}: {cached} != {fresh(game, o)}"
        reads[0] += 1
        return cached

    fuzz_with_engine_function_checked(monkeypatch, "characteristics", real, checked, 15, 3)
    assert reads[0] > 1000
