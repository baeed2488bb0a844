"""Scenario tests: state-based actions are one event, and leaving looks back in time.

CR 704.3: "all applicable state-based actions are performed simultaneously as a single
event". CR 603.10a: leaves-the-battlefield abilities "look back in time": they trigger
based on the object as it existed before the event, and CR 608.2h: an effect that needs
information about an object that left uses its last known information. So a permanent
that leaves in a check leaves with everything it had when the check began (its
counters, its controller, what it enchanted), even when another state-based action of
the same check (704.5q: +1/+1 and -1/-1 counters are removed in pairs) would change it.

Every expected value below is worked out from those rules and the Oracle text, not
from running the engine. Cards: Hangarback Walker {X}{X} 0/0 artifact creature, "When
this dies, create a 1/1 colorless Thopter artifact creature token with flying for each
+1/+1 counter on it."; Penumbra Umbra ("enchant creature you control"; when put into a
graveyard from the battlefield, a black token copy of enchanted creature); Boar Umbra
+3/+3 with umbra armor; Typhoid Rats 1/1 deathtouch; Grizzly Bears 2/2.
"""

from __future__ import annotations

from reference_engine import ReferenceEngine

from .scenario_helpers import Decider, aura, board, obj


def play(game, event, *answers):
    decider = Decider(*answers)
    game.apply(event, decider)
    assert decider.answers == [], f"scripted answers not used: {decider.answers}"
    return game.observe(), decider.asked


def minus(oid, amount=1):
    return {"type": "add_counters", "object": oid, "kind": "-1/-1", "amount": amount}


def thopters(obs, source):
    """The Thopter tokens created by ``source``'s dies ability in the last event: {id: object}."""
    made = [e["object"] for e in obs["log"] if e["kind"] == "zone_change" and e["from"] is None
            and e["cause"] == {"event": "create_token", "by": source}]
    return {oid: obs["objects"][oid] for oid in made}


def assert_thopter(token, controller):
    """A 1/1 colorless Thopter artifact creature token with flying (Hangarback Walker's Oracle text)."""
    assert (token["name"], token["token"], token["zone"]) == ("Thopter Token", True, "battlefield")
    assert (token["power"], token["toughness"], token["colors"]) == (1, 1, [])
    assert set(token["types"]) == {"Artifact", "Creature"} and token["subtypes"] == ["Thopter"]
    assert "flying" in token["keywords"]
    assert token["controller"] == controller and token["owner"] == controller  # CR 111.2


def test_hangarback_at_toughness_0_with_a_counter_pair_dies_with_its_counter():
    """Hangarback Walker (0/0) with one +1/+1 counter gets a -1/-1 counter: it is 0/0. In the
    next check 704.5f (toughness 0) and 704.5q (remove the pair) apply together (CR 704.3);
    it dies as it was, with its +1/+1 counter (CR 603.10a), so it makes one Thopter."""
    game = ReferenceEngine().new_game(board(obj("hw", "Hangarback Walker", counters={"+1/+1": 1})))
    obs, asked = play(game, minus("hw"))
    assert asked == []
    assert obs["objects"]["hw"]["zone"] == "graveyard" and obs["zones"]["graveyard"]["P1"] == ["hw"]
    leaving = [e for e in obs["log"] if e["kind"] == "zone_change" and e["object"] == "hw"]
    assert leaving == [{"kind": "zone_change", "object": "hw", "from": "battlefield", "to": "graveyard",
                        "cause": {"event": "state_based_action", "rule": "704.5f"}}]
    assert {"kind": "trigger", "source": "hw", "ability": "dies", "controller": "P1"} in obs["log"]
    made = thopters(obs, "hw")
    assert list(made) == ["hw.thopter1"]
    assert_thopter(made["hw.thopter1"], "P1")
    # The pair was not removed from the Walker before it left: nothing was removed at all.
    assert not [e for e in obs["log"] if e["kind"] == "counters_removed"]


def test_hangarback_with_lethal_damage_and_a_counter_pair_counts_every_plus_counter():
    """Hangarback Walker with two +1/+1 counters (2/2) and 1 damage gets a -1/-1 counter:
    1/1 with 1 damage. 704.5g (lethal damage, destroyed) and 704.5q apply together; it dies
    with two +1/+1 counters, so two Thopters."""
    game = ReferenceEngine().new_game(board(obj("hw", "Hangarback Walker", counters={"+1/+1": 2}, damage=1)))
    obs, _ = play(game, minus("hw"))
    assert obs["objects"]["hw"]["zone"] == "graveyard"
    assert [e["cause"] for e in obs["log"] if e["kind"] == "zone_change" and e["object"] == "hw"] == [
        {"event": "destroy", "by": "704.5g"}]
    made = thopters(obs, "hw")
    assert sorted(made) == ["hw.thopter1", "hw.thopter2"]
    for token in made.values():
        assert_thopter(token, "P1")


def test_a_surviving_permanent_loses_its_counter_pairs_in_the_same_check():
    """704.5q still applies to what stays: Hangarback Walker with three +1/+1 counters gets a
    -1/-1 counter; it is 2/2, nothing else applies, and one pair is removed: two +1/+1 left."""
    game = ReferenceEngine().new_game(board(obj("hw", "Hangarback Walker", counters={"+1/+1": 3})))
    obs, _ = play(game, minus("hw"))
    walker = obs["objects"]["hw"]
    assert (walker["zone"], walker["counters"], walker["power"], walker["toughness"]) == (
        "battlefield", {"+1/+1": 2}, 2, 2)
    assert {"kind": "counters_removed", "object": "hw", "rule": "704.5q", "amount": 1} in obs["log"]
    assert thopters(obs, "hw") == {}


def test_the_walker_saved_by_umbra_armor_loses_its_pair_then_dies_at_0_0():
    """Boar Umbra (+3/+3) on a Hangarback Walker with one +1/+1 counter and 3 damage (4/4):
    a -1/-1 counter makes it 3/3 with 3 damage. Check 1: 704.5g would destroy it; umbra
    armor replaces that (CR 702.89a: remove all damage, destroy the Aura instead), so it
    stays, and 704.5q removes its pair in the same check. Check 2: without the Aura and the
    counters it is 0/0 and goes to the graveyard (704.5f) with no +1/+1 counter, so its
    ability makes no Thopter (CR 603.10a: as it last existed)."""
    game = ReferenceEngine().new_game(board(obj("hw", "Hangarback Walker", counters={"+1/+1": 1}, damage=3),
                                            aura("boar", "Boar Umbra", "hw")))
    obs, _ = play(game, minus("hw"))
    assert obs["objects"]["boar"]["zone"] == "graveyard"
    assert obs["objects"]["hw"]["zone"] == "graveyard"
    causes = [e["cause"] for e in obs["log"] if e["kind"] == "zone_change" and e["from"] == "battlefield"]
    assert causes == [{"event": "destroy", "by": "704.5g"}, {"event": "state_based_action", "rule": "704.5f"}]
    assert {"kind": "counters_removed", "object": "hw", "rule": "704.5q", "amount": 1} in obs["log"]
    assert thopters(obs, "hw") == {}


def test_thopters_go_to_the_walkers_controller_as_it_last_existed():
    """P1 owns a Hangarback Walker (two +1/+1 counters) that P2 controls. It dies: it goes to
    its owner's graveyard (CR 400.3, 404.1) and its controller as it last existed controls
    the triggered ability (CR 603.3a), so P2 creates, owns and controls both Thopters."""
    game = ReferenceEngine().new_game(board(obj("hw", "Hangarback Walker", controller="P2",
                                                counters={"+1/+1": 2})))
    obs, _ = play(game, {"type": "cast", "card": "Murder", "controller": "P1", "targets": ["hw"]})
    assert obs["zones"]["graveyard"] == {"P1": ["hw"], "P2": []}
    assert obs["objects"]["hw"]["controller"] == "P1"  # off the battlefield: its owner (CR 108.4a)
    assert {"kind": "trigger", "source": "hw", "ability": "dies", "controller": "P2"} in obs["log"]
    made = thopters(obs, "hw")
    assert len(made) == 2
    for token in made.values():
        assert_thopter(token, "P2")


def test_sacrificed_walker_counts_the_counters_it_had():
    """Sacrifice (CR 701.17a) is dying too (CR 700.4): three +1/+1 counters, three Thopters."""
    game = ReferenceEngine().new_game(board(obj("hw", "Hangarback Walker", counters={"+1/+1": 3})))
    obs, _ = play(game, {"type": "sacrifice", "object": "hw"})
    assert len(thopters(obs, "hw")) == 3


def test_deathtouch_and_a_counter_pair_in_one_check():
    """Typhoid Rats (deathtouch) deals 1 damage to a Hangarback Walker with three +1/+1
    counters (3/3): 704.5h destroys it; it dies with its three counters: three Thopters,
    P1's (the Walker's controller), not P2's (the controller of the damage source)."""
    game = ReferenceEngine().new_game(board(obj("hw", "Hangarback Walker", counters={"+1/+1": 3}),
                                            obj("rats", "Typhoid Rats", owner="P2")))
    obs, _ = play(game, {"type": "damage", "source": "rats", "target": "hw", "amount": 1})
    assert [e["cause"] for e in obs["log"] if e["kind"] == "zone_change" and e["object"] == "hw"] == [
        {"event": "destroy", "by": "704.5h"}]
    made = thopters(obs, "hw")
    assert len(made) == 3
    for token in made.values():
        assert_thopter(token, "P1")


def test_penumbra_umbra_copies_the_walker_as_it_last_existed():
    """Penumbra Umbra on a Hangarback Walker (one +1/+1 counter) that gets a -1/-1 counter.
    Check 1: the Walker dies (704.5f) with its counter: one Thopter. Check 2: Penumbra Umbra
    is attached to nothing (704.5m) and goes to the graveyard; its ability copies the Walker
    as it last existed (Penumbra Umbra ruling 2024-11-08): a black Hangarback Walker token
    with X = 0, so no counters; it is 0/0 and dies (704.5f) with no +1/+1 counter: no Thopter.
    Both abilities are P1's, so P1 orders them (CR 603.3b); the order changes nothing here.
    The token, off the battlefield, ceases to exist (704.5d)."""
    game = ReferenceEngine().new_game(board(obj("hw", "Hangarback Walker", counters={"+1/+1": 1}),
                                            aura("pen", "Penumbra Umbra", "hw")))
    obs, asked = play(game, minus("hw"), "dies:hw")
    assert asked == [("P1", "trigger_order", ["dies:hw", "put into a graveyard:pen"])]
    assert len(thopters(obs, "hw")) == 1
    assert "pen.token" not in obs["objects"]
    assert {"kind": "zone_change", "object": "pen.token", "from": None, "to": "battlefield",
            "cause": {"event": "create_token", "by": "pen", "copy_of": "hw"}} in obs["log"]
    assert {"kind": "trigger", "source": "pen.token", "ability": "dies", "controller": "P1"} in obs["log"]
    assert thopters(obs, "pen.token") == {}
    causes = {e["object"]: e["cause"] for e in obs["log"] if e["kind"] == "zone_change" and e["from"] == "battlefield"}
    assert causes == {"hw": {"event": "state_based_action", "rule": "704.5f"},
                      "pen": {"event": "state_based_action", "rule": "704.5m"},
                      "pen.token": {"event": "state_based_action", "rule": "704.5f"}}


def test_penumbra_umbra_and_its_creature_destroyed_together_copy_the_creature():
    """One destroy effect destroys Grizzly Bears and their Penumbra Umbra at once: umbra
    armor saves the Bears, and the Aura is destroyed "in two different ways at the same
    time" (ruling Hyena Umbra 2010-06-15). Penumbra Umbra's ability then copies the Bears,
    still on the battlefield: a black 2/2 Grizzly Bears token of P1's."""
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears"), aura("pen", "Penumbra Umbra", "bears")))
    obs, _ = play(game, {"type": "destroy", "targets": ["bears", "pen"], "cant_be_regenerated": False})
    assert obs["objects"]["bears"]["zone"] == "battlefield"
    token = obs["objects"]["pen.token"]
    assert (token["name"], token["colors"], token["controller"], token["power"]) == ("Grizzly Bears", ["B"], "P1", 2)
