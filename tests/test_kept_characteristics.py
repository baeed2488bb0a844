"""Characteristics kept from one state to the next (reference_engine.kept) follow what they read.

A state's characteristics are those of the last state read, except for the objects whose inputs
changed since: each test changes one such input in place between two reads, and fails if the kept
characteristics don't notice it. Expected values come from the cards' Oracle text, their rulings
and the rules (CR 613), not from the engine.
"""

from __future__ import annotations

import reference_engine.layers as layers
from reference_engine import ReferenceEngine, objects
from reference_engine.cards import card

from .scenario_helpers import aura, board, obj


def new_game(*objects):
    return ReferenceEngine().new_game(board(*objects))


def ch(game, oid):
    return layers.characteristics(game, game.objects[oid])


def test_umbra_mystic_changing_control_gives_umbra_armor_to_the_new_controllers_auras():
    """Umbra Mystic: "Auras attached to permanents you control have umbra armor" (layer 6, CR
    613.1f; "you" is its controller, CR 109.5): Holy Strength on P1's Grizzly Bears has no umbra
    armor while P2 controls the Mystic, and has it once P1 does."""
    game = new_game(obj("m", "Umbra Mystic", owner="P2"), obj("b", "Grizzly Bears"),
                    aura("hs", "Holy Strength", on="b"))
    assert "umbra armor" not in ch(game, "hs").keywords
    game.objects["m"].controller = "P1"
    assert "umbra armor" in ch(game, "hs").keywords


def test_umbra_mystic_leaving_the_battlefield_ends_umbra_armor():
    """Umbra Mystic's ability applies only while it is on the battlefield (CR 611.3a): Holy
    Strength loses umbra armor once the Mystic is in the graveyard."""
    game = new_game(obj("m", "Umbra Mystic"), obj("b", "Grizzly Bears"), aura("hs", "Holy Strength", on="b"))
    assert "umbra armor" in ch(game, "hs").keywords
    game.objects["m"].zone = "graveyard"
    assert "umbra armor" not in ch(game, "hs").keywords


def test_an_orb_entering_makes_the_other_noncreature_artifacts_mono_and_continuous():
    """Orb of Origin "grants the mono and continuous supertypes to other noncreature artifacts on
    the battlefield" (its rulings 2024-11-08; layer 4, CR 613.1d): an unattached Sword of the Meek
    has no supertype, then Mono and Continuous once an Orb is on the battlefield, none once it left."""
    game = new_game(obj("s", "Sword of the Meek"), obj("orb", "Orb of Origin", zone="hand"))
    assert ch(game, "s").supertypes == ()
    game.objects["orb"].zone = "battlefield"
    assert ch(game, "s").supertypes == ("Mono", "Continuous")
    game.objects["orb"].zone = "graveyard"
    assert ch(game, "s").supertypes == ()


def test_an_orb_entering_ends_the_bonus_of_a_tapped_equipment():
    """A tapped continuous permanent has no abilities (Orb of Origin rulings 2024-11-08, layer 6
    CR 613.1f): Grizzly Bears equipped with a tapped Sword of the Meek are 3/4 (+1/+2, CR
    613.4c) while no Orb is on the battlefield, 2/2 once one is, though nothing of the Bears or
    the Sword changed."""
    game = new_game(obj("b", "Grizzly Bears"), aura("s", "Sword of the Meek", on="b", tapped=True),
                    obj("orb", "Orb of Origin", zone="hand"))
    assert (ch(game, "b").power, ch(game, "b").toughness) == (3, 4)
    game.objects["orb"].zone = "battlefield"
    assert (ch(game, "b").power, ch(game, "b").toughness) == (2, 2)


def test_a_creature_becoming_attacking_gets_war_horns_bonus():
    """War Horn: "Attacking creatures you control get +1/+0" (CR 613.4c; an attacking creature,
    CR 506.4): Grizzly Bears are 2/2, then 3/2 once attacking, though only their combat status
    changed."""
    game = new_game(obj("b", "Grizzly Bears"), obj("w", "War Horn"))
    assert (ch(game, "b").power, ch(game, "b").toughness) == (2, 2)
    game.objects["b"].combat = "attacking"
    assert (ch(game, "b").power, ch(game, "b").toughness) == (3, 2)


def test_a_host_changing_control_changes_dog_umbras_umbra_armor():
    """Dog Umbra: "As long as another player controls enchanted creature, it can't attack or
    block. Otherwise, Dog Umbra has umbra armor." Its umbra armor follows the enchanted
    creature's controller (CR 613.1f): it has it while P1 controls both, not once P2 controls
    the creature."""
    game = new_game(obj("b", "Grizzly Bears"), aura("d", "Dog Umbra", on="b"))
    assert "umbra armor" in ch(game, "d").keywords
    game.objects["b"].controller = "P2"
    assert "umbra armor" not in ch(game, "d").keywords


def test_dog_umbra_moved_to_another_host_follows_that_hosts_controller():
    """As above, Dog Umbra moved to another creature between two reads (what is attached to each
    host is kept from state to state): its umbra armor then follows the new host's controller, and
    no longer the old host's."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"), aura("d", "Dog Umbra", on="b"))
    assert "umbra armor" in ch(game, "d").keywords
    game.objects["d"].attached_to = "r"
    assert "umbra armor" in ch(game, "d").keywords
    game.objects["r"].controller = "P2"
    assert "umbra armor" not in ch(game, "d").keywords
    game.objects["d"].attached_to = "b"
    assert "umbra armor" in ch(game, "d").keywords
    game.objects["r"].controller = "P1"
    assert "umbra armor" in ch(game, "d").keywords
    game.objects["b"].controller = "P2"
    assert "umbra armor" not in ch(game, "d").keywords


def test_builders_blessing_follows_whether_a_creature_is_tapped():
    """Builder's Blessing: "Untapped creatures you control get +0/+2" (CR 613.4c; tapped, CR
    110.5): Grizzly Bears are 2/4, then 2/2 once tapped, though only their status changed."""
    game = new_game(obj("b", "Grizzly Bears"), obj("c", "Builder's Blessing"))
    assert (ch(game, "b").power, ch(game, "b").toughness) == (2, 4)
    game.objects["b"].tapped = True
    assert (ch(game, "b").power, ch(game, "b").toughness) == (2, 2)


def test_a_sword_of_the_meek_tapped_under_an_orb_stops_its_bonus():
    """With Orb of Origin on the battlefield Sword of the Meek is continuous (its rulings
    2024-11-08, CR 613.1d); tapped, it has no abilities: Grizzly Bears it equips are 3/4 (+1/+2,
    CR 613.4c), then 2/2 once the Sword is tapped, though nothing of the Bears changed."""
    game = new_game(obj("b", "Grizzly Bears"), aura("s", "Sword of the Meek", on="b"), obj("orb", "Orb of Origin"))
    assert (ch(game, "b").power, ch(game, "b").toughness) == (3, 4)
    game.objects["s"].tapped = True
    assert (ch(game, "b").power, ch(game, "b").toughness) == (2, 2)


def test_a_creature_tapped_or_attacking_with_no_anthem_reading_it_is_not_computed_again(monkeypatch):
    """Nothing reads whether Grizzly Bears are tapped or attacking when no anthem's filter does
    (CR 613): their characteristics are kept, not computed again, as they become tapped and attacking."""
    game = new_game(obj("b", "Grizzly Bears"), obj("ga", "Glorious Anthem"))
    first = ch(game, "b")
    computed = []
    real = layers._characteristics
    monkeypatch.setattr(layers, "_characteristics", lambda g, o: computed.append(o.id) or real(g, o))
    game.objects["b"].tapped = True
    game.objects["b"].combat = "attacking"
    assert ch(game, "b") is first and computed == []


def test_a_creature_that_cant_block_entering_computes_no_other_creature_again(monkeypatch):
    """Fretwork Colony's "Fretwork Colony can't block." is a static ability of its own (CR 604.1,
    509.1b), no anthem: it changes no characteristics of another object (CR 613), so Grizzly Bears'
    are kept, not computed again, as the Colony enters; and nothing reads whether the Bears are
    tapped or attacking."""
    game = new_game(obj("b", "Grizzly Bears"), obj("fc", "Fretwork Colony", zone="hand"))
    first = ch(game, "b")
    computed = []
    real = layers._characteristics
    monkeypatch.setattr(layers, "_characteristics", lambda g, o: computed.append(o.id) or real(g, o))
    game.objects["fc"].zone = "battlefield"
    assert ch(game, "b") is first and (ch(game, "fc").power, ch(game, "fc").toughness) == (1, 1)
    game.objects["b"].tapped = True
    game.objects["b"].combat = "attacking"
    assert ch(game, "b") is first and "b" not in computed


def test_an_anthem_entering_beside_a_creature_that_cant_block_pumps_it():
    """Glorious Anthem ("Creatures you control get +1/+1", CR 613.4c) entering applies to Fretwork
    Colony (1/1, "can't block") at once: 2/2, though nothing of the Colony changed."""
    game = new_game(obj("fc", "Fretwork Colony"), obj("ga", "Glorious Anthem", zone="hand"))
    assert (ch(game, "fc").power, ch(game, "fc").toughness) == (1, 1)
    game.objects["ga"].zone = "battlefield"
    assert (ch(game, "fc").power, ch(game, "fc").toughness) == (2, 2)


def test_a_counter_put_before_more_changes_than_are_kept_is_still_seen():
    """A +1/+1 counter on Grizzly Bears (2/2, CR 122.1a, 613.4c) makes them 3/3, also when more
    changes than the engine keeps a record of (objects.CHANGES_KEPT) were made to another game's
    objects after it and before the next read."""
    game, other = new_game(obj("b", "Grizzly Bears")), new_game(obj("r", "Typhoid Rats"))
    assert (ch(game, "b").power, ch(game, "b").toughness) == (2, 2)
    game.objects["b"].counters["+1/+1"] = 1
    for _ in range(objects.CHANGES_KEPT + 1):
        other.objects["r"].tapped = not other.objects["r"].tapped
    assert (ch(game, "b").power, ch(game, "b").toughness) == (3, 3)


def test_a_zone_changes_reset_alone_takes_the_counters_bonus_away():
    """A zone change's reset (CR 400.7: the new object has no counters) is a change of its own:
    Grizzly Bears with a +1/+1 counter are 3/3 (CR 122.1a), 2/2 once reset, no other field set."""
    game = new_game(obj("b", "Grizzly Bears", counters={"+1/+1": 1}))
    assert (ch(game, "b").power, ch(game, "b").toughness) == (3, 3)
    game.objects["b"].reset_for_zone_change()
    assert (ch(game, "b").power, ch(game, "b").toughness) == (2, 2)


def _new_object(oid, name):
    definition, script = card(name)
    return objects.GameObject(oid, definition, script, "P1", "P1", "battlefield", 99)


def test_an_object_put_in_place_of_another_by_id_has_its_own_characteristics():
    """A new object (CR 400.7) put in the game's objects under the id of Grizzly Bears (2/2) has
    its own characteristics: Typhoid Rats, 1/1 with deathtouch."""
    game = new_game(obj("b", "Grizzly Bears"))
    assert (ch(game, "b").name, ch(game, "b").power) == ("Grizzly Bears", 2)
    game.objects["b"] = _new_object("b", "Typhoid Rats")
    found = ch(game, "b")
    assert (found.name, found.power, found.toughness, "deathtouch" in found.keywords) == ("Typhoid Rats", 1, 1, True)


def test_an_object_put_in_place_of_another_by_update_has_its_own_characteristics():
    """As above, the new object put in by ``update`` (or ``setdefault``, ``|=``)."""
    game = new_game(obj("b", "Grizzly Bears"))
    assert ch(game, "b").name == "Grizzly Bears"
    game.objects.update({"b": _new_object("b", "Typhoid Rats")})
    assert (ch(game, "b").name, ch(game, "b").power) == ("Typhoid Rats", 1)


def test_a_thought_vessel_entering_between_two_reads_takes_the_maximum_hand_size_away():
    """Thought Vessel: "You have no maximum hand size" (CR 402.2) applies while it is on the
    battlefield (CR 611.3a): P1's maximum is seven, then none once the Vessel is on the
    battlefield, though the permanents with that ability were found in the state before."""
    game = new_game(obj("b", "Grizzly Bears"), obj("v", "Thought Vessel", zone="hand"))
    assert game.observe()["players"]["P1"]["max_hand_size"] == 7
    game.objects["v"].zone = "battlefield"
    assert game.observe()["players"]["P1"]["max_hand_size"] is None


def test_the_battlefield_follows_the_order_of_the_objects():
    """The permanents are listed in the order of the game's objects (an object moved to the end
    of it, as a card put on top of a library is, comes last), though none of them changed."""
    game = new_game(obj("b1", "Grizzly Bears"), obj("b2", "Grizzly Bears"))
    assert ch(game, "b1") is not None and [o.id for o in game.battlefield()] == ["b1", "b2"]
    game.objects["b1"] = game.objects.pop("b1")
    assert ch(game, "b1") is not None and [o.id for o in game.battlefield()] == ["b2", "b1"]


def test_a_permanent_naming_protection_entering_between_two_reads_makes_protection_possible():
    """Stonecoil Serpent ("protection from multicolored", CR 702.16) entering the battlefield makes
    protection possible (``reference_engine.game.protection_possible``), though whether a
    permanent's text named it was found in the state before, with Grizzly Bears alone there."""
    from reference_engine.game import protection_possible

    game = new_game(obj("b", "Grizzly Bears"), obj("s", "Stonecoil Serpent", zone="hand"))
    assert ch(game, "b") is not None and not protection_possible(game)
    game.objects["s"].zone = "battlefield"
    assert ch(game, "b") is not None and protection_possible(game)


def test_objects_rebound_to_a_new_dict_are_all_looked_at_again():
    """The game's ``objects`` rebound to a new dict (as a fork of the engine may do) holding a
    Glorious Anthem that entered with it ("Creatures you control get +1/+1", layer 7c, CR 613.4c):
    Grizzly Bears, unchanged themselves, are 3/3, though the new dict's count of changes in place
    is that of the old one."""
    game = new_game(obj("b", "Grizzly Bears"))
    assert ch(game, "b").power == 2
    game.objects = {**game.objects, "ga": _new_object("ga", "Glorious Anthem")}
    assert (ch(game, "b").power, ch(game, "b").toughness) == (3, 3)


def test_a_resolved_effect_changed_in_place_is_seen():
    """A resolved effect (CR 611.2) "Grizzly Bears get +2/+2" makes them 4/4 (layer 7c, CR 613.4c);
    its bonus changed in place to +0/-3 makes them 2/-1, though the game's list of effects is the
    same list, with the same effect, as in the state before."""
    game = new_game(obj("b", "Grizzly Bears"))
    game.effects.append(objects.PTEffect("b", "7c", 2, 2, game._tick()))
    assert (ch(game, "b").power, ch(game, "b").toughness) == (4, 4)
    game.effects[0].power, game.effects[0].toughness = 0, -3
    assert (ch(game, "b").power, ch(game, "b").toughness) == (2, -1)


def test_a_resolved_effect_added_in_place_or_by_rebinding_is_seen():
    """Resolved effects (CR 611.2) added to the game's list in place, then by rebinding the list
    to a new one: Grizzly Bears are 2/2, 3/3 with "+1/+1" (layer 7c, CR 613.4c), then 1/1 with
    "-1/-1" in its place (the list rebound, no other change)."""
    game = new_game(obj("b", "Grizzly Bears"))
    assert (ch(game, "b").power, ch(game, "b").toughness) == (2, 2)
    game.effects.append(objects.PTEffect("b", "7c", 1, 1, game._tick()))
    assert (ch(game, "b").power, ch(game, "b").toughness) == (3, 3)
    game.effects = [objects.PTEffect("b", "7c", -1, -1, game._tick())]
    assert (ch(game, "b").power, ch(game, "b").toughness) == (1, 1)
