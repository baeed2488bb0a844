"""Scenario tests: zone changes by effects (capability ``zones``): exile, return to hand, flicker.

Every expected value is worked out by hand from the rules, one rule a test: a card goes to its
owner's exile or hand (CR 400.3, 108.3, 701.11a) as a new object that remembers nothing
(400.7); a flickered card returns with a new id under its owner's control (610.3c), summoning
sick (302.6), its enters abilities triggering (603.6a), X = 0 (107.3m); a token ceases to exist
after its move (111.7, 704.5d) and never returns (111.8); Auras left behind go to their owners'
graveyards (704.5m), Equipment stays unattached (704.5n); umbra armor and regeneration replace
destruction only (702.89a, 701.15a), and nothing dies (700.4). Then the invariants of
:mod:`invariants.zone_changes` on hand-made wrong observations, and the generation of the
events by the state machine (counts, not time).
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

import cards
from cards import reader
from cards.model import Affected, Effect
from harness.adapters.reference import ReferenceAdapter
from harness.protocol import CAPABILITIES, Transition
from harness.running.runner import run
from invariants import REGISTRY
from reference_engine import IllegalAction, ReferenceEngine, Unsupported

from .scenario_helpers import Decider, aura, board, obj


def new_game(*objects):
    return ReferenceEngine().new_game(board(*objects))


def play(game, event, *answers):
    decider = Decider(*answers)
    game.apply(event, decider)
    assert decider.answers == [], f"scripted answers not used: {decider.answers}"
    return game.observe(), decider.asked


def exile(oid):
    return {"type": "exile", "object": oid}


def bounce(oid):
    return {"type": "return_to_hand", "object": oid}


def flicker(oid, new_id):
    return {"type": "flicker", "object": oid, "id": new_id}


def zone_change(oid, src, dst, cause, **extra):
    return {"kind": "zone_change", "object": oid, "from": src, "to": dst, "cause": cause, **extra}


EXILE = {"event": "exile", "by": "exile effect"}
BOUNCE = {"event": "return_to_hand", "by": "return effect"}
FLICKER = {"event": "flicker", "by": "flicker effect"}


# --------------------------------------------------------------------------- where it goes (400.3, 108.3)

def test_an_exiled_permanent_goes_to_its_owners_exile():
    """CR 701.11a, 400.3: P1's Bears that P2 controls is exiled into P1's exile zone."""
    game = new_game(obj("bears", "Grizzly Bears", controller="P2"))
    obs, asked = play(game, exile("bears"))
    assert asked == []
    assert obs["zones"]["exile"] == {"P1": ["bears"], "P2": []} and obs["zones"]["battlefield"] == []
    bears = obs["objects"]["bears"]
    assert (bears["zone"], bears["owner"], bears["controller"]) == ("exile", "P1", "P1")
    assert obs["log"] == [zone_change("bears", "battlefield", "exile", EXILE)]


def test_a_permanent_returned_to_hand_goes_to_its_owners_hand():
    """CR 400.3, 108.3: the owner's hand, not the controller's."""
    game = new_game(obj("bears", "Grizzly Bears", owner="P2", controller="P1"))
    obs, _ = play(game, bounce("bears"))
    assert obs["zones"]["hand"] == {"P1": [], "P2": ["bears"]}
    assert (obs["objects"]["bears"]["zone"], obs["objects"]["bears"]["owner"]) == ("hand", "P2")
    assert obs["log"] == [zone_change("bears", "battlefield", "hand", BOUNCE)]


def test_the_card_in_its_new_zone_remembers_nothing():
    """CR 400.7: counters, damage, tapped status, combat status and regeneration shields stay behind."""
    game = new_game(obj("boa", "River Boa", tapped=True, damage=1, combat="attacking", counters={"+1/+1": 2},
                        regeneration_shields=1))
    obs, _ = play(game, bounce("boa"))
    boa = obs["objects"]["boa"]
    assert (boa["counters"], boa["damage"], boa["tapped"], boa["combat"], boa["regeneration_shields"]) == \
        ({}, 0, False, None, 0)


@pytest.mark.parametrize("event", [exile("gone"), bounce("gone"), flicker("gone", "n1"), exile("nobody"),
                                   flicker("bears", "bears"), flicker("bears", "gone"), flicker("bears", "P2"),
                                   flicker("bears", ""), {"type": "flicker", "object": "bears"}])
def test_moves_of_what_isnt_on_the_battlefield_or_to_a_used_id_are_refused(event):
    """An effect moves a permanent; an object in a graveyard (a new object, CR 400.7) or an id already
    used for the returned card is refused, and nothing changes."""
    game = new_game(obj("bears", "Grizzly Bears"), obj("gone", "Grizzly Bears", zone="graveyard"))
    before = game.observe()
    with pytest.raises(IllegalAction):
        game.apply(event, Decider())
    assert game.observe() == before


# --------------------------------------------------------------------------- flicker (400.7, 610.3c, 302.6)

def test_a_flickered_creature_returns_as_a_new_object():
    """CR 400.7, 610.3c: the card returns with the new id, under its owner's control (P2 had
    gained control of it), with no counters, damage, shield or combat status, summoning sick
    (302.6); the old object is gone from the game."""
    game = new_game(obj("boa", "River Boa", controller="P2", damage=1, combat="blocking", counters={"+1/+1": 1},
                        regeneration_shields=1))
    obs, asked = play(game, flicker("boa", "boa2"))
    assert asked == [] and "boa" not in obs["objects"]
    new = obs["objects"]["boa2"]
    assert (new["zone"], new["owner"], new["controller"]) == ("battlefield", "P1", "P1")
    assert (new["counters"], new["damage"], new["regeneration_shields"], new["combat"], new["tapped"]) == \
        ({}, 0, 0, None, False)
    assert new["summoning_sick"] is True
    assert (new["power"], new["toughness"]) == (2, 1)  # River Boa as printed
    assert obs["log"] == [zone_change("boa", "battlefield", "exile", FLICKER),
                          zone_change("boa2", "exile", "battlefield", FLICKER, previous="boa")]


def test_a_regeneration_shield_does_not_survive_a_flicker():
    """CR 400.7, 701.15a (public bug report "a regeneration shield survives a zone change"): the
    returned River Boa has no shield, so destroying it puts it into its owner's graveyard."""
    game = new_game(obj("boa", "River Boa", regeneration_shields=1))
    play(game, flicker("boa", "boa2"))
    obs, _ = play(game, {"type": "destroy", "targets": ["boa2"], "cant_be_regenerated": False})
    assert obs["objects"]["boa2"]["zone"] == "graveyard" and obs["zones"]["graveyard"]["P1"] == ["boa2"]
    assert not any(e["kind"] == "replacement" for e in obs["log"])


def test_a_flickered_creature_s_enters_ability_triggers():
    """CR 603.6a: Nekrataal returns as a new object and its enters ability destroys the only
    nonartifact, nonblack creature (asked of nobody: one legal target), Grizzly Bears."""
    game = new_game(obj("nek", "Nekrataal"), obj("bears", "Grizzly Bears", owner="P2"))
    obs, asked = play(game, flicker("nek", "nek2"))
    assert asked == []
    assert {"kind": "trigger", "source": "nek2", "ability": "enters", "controller": "P1"} in obs["log"]
    assert obs["objects"]["bears"]["zone"] == "graveyard" and obs["zones"]["graveyard"]["P2"] == ["bears"]


def test_a_flickered_x_creature_returns_with_x_zero():
    """CR 107.3m, 400.7: Endless One ("enters with X +1/+1 counters") isn't cast as it returns, so X
    is 0: a 0/0 with no counters, put into its owner's graveyard (704.5f)."""
    game = new_game(obj("one", "Endless One", counters={"+1/+1": 3}))
    obs, _ = play(game, flicker("one", "one2"))
    assert obs["objects"]["one2"]["zone"] == "graveyard" and obs["objects"]["one2"]["counters"] == {}
    assert obs["log"][-1] == zone_change("one2", "battlefield", "graveyard",
                                         {"event": "state_based_action", "rule": "704.5f"})


def test_a_flickered_token_does_not_return():
    """CR 111.8: a token that left the battlefield can't come back; it ceases to exist in exile (704.5d)."""
    game = new_game(obj("tok", "Grizzly Bears", token=True))
    obs, _ = play(game, flicker("tok", "tok2"))
    assert "tok" not in obs["objects"] and "tok2" not in obs["objects"]
    assert obs["log"] == [zone_change("tok", "battlefield", "exile", FLICKER),
                          zone_change("tok", "exile", None, {"event": "state_based_action", "rule": "704.5d"})]


@pytest.mark.parametrize("card, reason", [("Hyena Umbra", "flicker:Aura"), ("Clone", "flicker:enters as a copy")])
def test_a_return_that_needs_a_choice_is_declined(card, reason):
    """An Aura returning chooses what it enchants (CR 303.4f), a Clone what it copies (707.5): not
    modelled, so the engine declines before changing anything."""
    fields = {"attached_to": "bears"} if card == "Hyena Umbra" else {}
    game = new_game(obj("bears", "Grizzly Bears"), obj("x", card, **fields))
    before = game.observe()
    with pytest.raises(Unsupported) as declined:
        game.apply(flicker("x", "x2"), Decider())
    assert declined.value.reason == reason and game.observe() == before


# --------------------------------------------------------------------------- what stays behind (704.5m, 704.5n)

@pytest.mark.parametrize("event", [exile("bears"), bounce("bears"), flicker("bears", "b2")])
def test_an_umbra_aura_left_behind_goes_to_its_owners_graveyard(event):
    """CR 704.5m, 303.4c: the Aura enchants nothing any more (the returned card is a new object); it
    goes to its owner's graveyard (P2's Hyena Umbra). Umbra armor replaces destruction only
    (702.89a): no replacement."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("h", "Hyena Umbra", "bears", owner="P2"))
    obs, _ = play(game, event)
    assert obs["objects"]["h"]["zone"] == "graveyard" and obs["zones"]["graveyard"] == {"P1": [], "P2": ["h"]}
    assert obs["log"][-1] == zone_change("h", "battlefield", "graveyard",
                                         {"event": "state_based_action", "rule": "704.5m"})
    assert not any(e["kind"] == "replacement" for e in obs["log"])
    assert "bears" not in obs["zones"]["battlefield"]


@pytest.mark.parametrize("event", [exile("bears"), bounce("bears"), flicker("bears", "b2")])
def test_equipment_left_behind_stays_on_the_battlefield_unattached(event):
    """CR 704.5n, 301.5c: Sword of the Meek equipped the Bears; it stays on the battlefield, attached
    to nothing (not to the new object the flickered card is)."""
    game = new_game(obj("bears", "Grizzly Bears"), obj("sword", "Sword of the Meek", attached_to="bears"))
    obs, _ = play(game, event)
    sword = obs["objects"]["sword"]
    assert (sword["zone"], sword["attached_to"]) == ("battlefield", None)
    assert {"kind": "unattached", "object": "sword", "rule": "704.5n"} in obs["log"]


@pytest.mark.parametrize("event, zone", [(exile("tok"), "exile"), (bounce("tok"), "hand")])
def test_a_token_moves_then_ceases_to_exist(event, zone):
    """CR 111.7, 704.5d: the token goes to that zone, then ceases to exist (logged in that order)."""
    game = new_game(obj("tok", "Grizzly Bears", token=True))
    obs, _ = play(game, event)
    assert "tok" not in obs["objects"]
    assert obs["log"] == [zone_change("tok", "battlefield", zone, EXILE if zone == "exile" else BOUNCE),
                          zone_change("tok", zone, None, {"event": "state_based_action", "rule": "704.5d"})]


@pytest.mark.parametrize("event", [exile("hw"), bounce("hw")])
def test_an_exiled_or_bounced_creature_does_not_die(event):
    """CR 700.4, 603.6c: Hangarback Walker with two +1/+1 counters is not put into a graveyard, so its
    dies ability doesn't trigger: no Thopter."""
    game = new_game(obj("hw", "Hangarback Walker", counters={"+1/+1": 2}))
    obs, _ = play(game, event)
    assert not any(e["kind"] == "trigger" for e in obs["log"])
    assert list(obs["objects"]) == ["hw"]


def test_regeneration_does_not_replace_an_exile():
    """CR 701.15a: a shield replaces destruction; an exiled River Boa with a shield is exiled."""
    game = new_game(obj("boa", "River Boa", regeneration_shields=2))
    obs, _ = play(game, exile("boa"))
    assert obs["objects"]["boa"]["zone"] == "exile" and obs["objects"]["boa"]["regeneration_shields"] == 0


# --------------------------------------------------------------------------- the invariants on wrong observations

def _transition(objects, event, change):
    """The reference engine's step for ``event``, with ``change(after)`` applied to its observation
    after: a hand-made wrong step."""
    game = new_game(*objects)
    before = game.observe()
    game.apply(event, Decider())
    after = copy.deepcopy(game.observe())
    change(after)
    return Transition(before, event, after)


def _check(name, t):
    return REGISTRY[name].check(t)


def test_each_invariant_holds_on_the_reference_s_steps():
    steps = [
        ([obj("bears", "Grizzly Bears", controller="P2", counters={"+1/+1": 1}),
          aura("h", "Hyena Umbra", "bears", owner="P2"), obj("sword", "Sword of the Meek", attached_to="bears")],
         ev) for ev in (exile("bears"), bounce("bears"), flicker("bears", "b2"))
    ] + [([obj("tok", "Grizzly Bears", token=True)], ev) for ev in (exile("tok"), flicker("tok", "t2"))] + [
        ([obj("nek", "Nekrataal"), obj("bears", "Grizzly Bears")], flicker("nek", "n2"))]
    names = [n for n in REGISTRY if n.startswith("zones.") and REGISTRY[n].scope == "step"]
    for objects, event in steps:
        t = _transition(objects, event, lambda after: None)
        complaints = {n: r for n in names if (r := _check(n, t))}
        assert complaints == {}, event


def _set(path_value):
    def change(after):
        for (oid, field), value in path_value.items():
            after["objects"][oid][field] = value
    return change


def test_moved_to_its_owners_zone_finds_a_card_in_its_controllers_hand():
    def wrong(after):
        after["zones"]["hand"] = {"P1": [], "P2": ["bears"]}
    t = _transition([obj("bears", "Grizzly Bears", controller="P2")], bounce("bears"), wrong)
    assert any("400.3" in m for m in _check("zones.moved_to_its_owners_zone", t))


def test_left_with_no_memory_finds_a_shield_in_exile():
    t = _transition([obj("boa", "River Boa", regeneration_shields=1)], exile("boa"),
                    _set({("boa", "regeneration_shields"): 1}))
    assert any("400.7" in m for m in _check("zones.left_with_no_memory", t))


def test_the_flicker_invariants_find_a_returned_card_that_remembers():
    t = _transition([obj("bears", "Grizzly Bears", counters={"+1/+1": 1})], flicker("bears", "b2"),
                    _set({("b2", "counters"): {"+1/+1": 1}, ("b2", "summoning_sick"): False, ("b2", "controller"): "P2"}))
    assert _check("zones.returned_object_remembers_nothing", t)
    assert _check("zones.returned_creature_is_summoning_sick", t)
    assert any("610.3c" in m for m in _check("zones.flicker_returns_a_new_object", t))


def test_flicker_returns_a_new_object_finds_a_card_kept_under_its_old_id():
    def wrong(after):
        after["objects"]["bears"] = {**after["objects"]["b2"], "zone": "exile"}
        after["zones"]["exile"]["P1"] = ["bears"]
    t = _transition([obj("bears", "Grizzly Bears")], flicker("bears", "b2"), wrong)
    assert any("two objects" in m for m in _check("zones.flicker_returns_a_new_object", t))


def test_the_enters_ability_invariant_finds_a_return_that_didnt_trigger():
    def wrong(after):
        after["log"] = [e for e in after["log"] if e["kind"] != "trigger"]
    t = _transition([obj("nek", "Nekrataal"), obj("bears", "Grizzly Bears")], flicker("nek", "n2"), wrong)
    assert _check("zones.returned_card_enters_abilities_trigger", t)


def test_the_attachment_invariants_find_auras_and_equipment_left_attached():
    def wrong(after):
        after["objects"]["h"].update(zone="battlefield", attached_to="bears")
        after["zones"]["graveyard"]["P1"] = []
        after["zones"]["battlefield"].append("h")
        after["objects"]["sword"]["attached_to"] = "bears"
    t = _transition([obj("bears", "Grizzly Bears"), aura("h", "Hyena Umbra", "bears"),
                     obj("sword", "Sword of the Meek", attached_to="bears")], exile("bears"), wrong)
    assert _check("zones.auras_left_behind_go_to_the_graveyard", t)
    assert _check("zones.equipment_left_behind_stays_unattached", t)


def test_token_ceases_to_exist_finds_a_token_alive_in_exile():
    def wrong(after):
        after["objects"]["tok"] = {**t0.before["objects"]["tok"], "zone": "exile", "token": True}
        after["zones"]["exile"]["P1"] = ["tok"]
        after["zones"]["battlefield"] = []
    t0 = _transition([obj("tok", "Grizzly Bears", token=True)], exile("tok"), lambda a: None)
    t = _transition([obj("tok", "Grizzly Bears", token=True)], exile("tok"), wrong)
    assert any("704.5d" in m for m in _check("zones.token_ceases_to_exist", t))


def test_not_destruction_finds_umbra_armor_applied_to_an_exile():
    def wrong(after):
        after["log"].insert(1, {"kind": "replacement", "effect": "umbra armor", "source": "h", "affected": "bears"})
    t = _transition([obj("bears", "Grizzly Bears"), aura("h", "Hyena Umbra", "bears")], exile("bears"), wrong)
    assert any("702.89a" in m for m in _check("zones.not_destruction", t))


# --------------------------------------------------------------------------- generation

def test_the_capability_is_declared_and_claimed():
    row = CAPABILITIES["zones"]
    assert row.events == ("exile", "return_to_hand", "flicker") and "400.7" in row.rules
    assert "zones" in ReferenceAdapter().info.capabilities


def test_the_machine_generates_zone_changes_and_the_reference_stays_clean(outside_coverage):
    result = run(ReferenceAdapter(), max_examples=80, seed=7, database=None, shrink=False)
    assert result.violation is None, result.violations
    events = result.stats.events
    moves = [events.get(kind, 0) for kind in ("exile", "return_to_hand", "flicker")]
    assert min(moves) > 0 and sum(moves) >= 15, events
    applied = result.stats.applicable
    for name in ("zones.moved_to_its_owners_zone", "zones.flicker_returns_a_new_object",
                 "zones.auras_left_behind_go_to_the_graveyard"):
        assert applied.get(name, 0) > 0, name


def test_an_engine_without_the_capability_gets_no_zone_changes(outside_coverage):
    engine = ReferenceAdapter()
    engine.info = replace(engine.info, capabilities=engine.info.capabilities - {"zones"})
    result = run(engine, max_examples=30, seed=7, database=None, shrink=False)
    assert not {"exile", "return_to_hand", "flicker"} & set(result.stats.events)
    assert not [n for n, inv in REGISTRY.items() if "zones" in inv.requires and n in result.stats.checked]


# --------------------------------------------------------------------------- cards: the reader's zone templates

def _modern(text, types=("Instant",), name="Test Card"):
    creature = "Creature" in types
    return cards.Card(name=name, mana_cost="{2}", supertypes=(), types=tuple(types), subtypes=(), colors=(),
                      power=2 if creature else None, toughness=2 if creature else None, oracle_text=text)


def _effects(card):
    found = reader.read(card)
    assert found.modelled, found.unread
    return [(a.kind, a.template, a.trigger, a.effects) for a in found.abilities]


@pytest.mark.parametrize("old, new, effect", [
    ("Boomerang", "Return target permanent to its owner's hand.",
     Effect("return_to_hand", Affected("target", "permanent"))),
    ("Evacuation", "Return all creatures to their owners' hands.", Effect("return_to_hand", Affected("each"))),
    ("Angelic Edict", "Exile target creature or enchantment.",
     Effect("exile", Affected("target", "permanent", ("creature or enchantment",)))),
    ("Cloudshift", "Exile target creature you control, then return that card to the battlefield under your control.",
     Effect("flicker", Affected("target", "creature", ("you control",)), returns_under="you")),
])
def test_spells_that_move_permanents_read_the_same_in_both_templatings(old, new, effect):
    """The 2018-2020 Oracle text of a database card and today's wording of the same effect read as one
    model: exile (CR 701.11a), return to its owner's hand (400.3), exile then return (610.3c)."""
    assert _effects(cards.database()[old]) == _effects(_modern(new))
    (kind, template, _, effects), = _effects(_modern(new))
    assert kind == "spell" and effects == (effect,)
    assert template == {"exile": "spell: exile", "return_to_hand": "spell: return to hand",
                        "flicker": "spell: flicker"}[effect.action]


def test_an_enters_ability_that_returns_a_creature_reads_in_both_templatings():
    """Man-o'-War (old: "When Man-o'-War enters the battlefield, ...") and today's "When this creature enters"."""
    old = _effects(cards.database()["Man-o'-War"])
    new = _effects(_modern("When this creature enters, return target creature to its owner's hand.", ("Creature",)))
    assert old == new == [("triggered", "enters trigger", "enters",
                           (Effect("return_to_hand", Affected("target", "creature")),))]
    assert _effects(cards.database()["Flickering Spirit"])[-1][3] == (
        Effect("flicker", Affected("self", "permanent")),)


@pytest.mark.parametrize("text, types", [
    ("When this creature dies, return it to its owner's hand.", ("Creature",)),  # the card in the graveyard
    ("Exile target card from a graveyard.", ("Instant",)),  # not a permanent
    ("Exile target nontoken permanent, then return it to the battlefield under its owner's control.", ("Instant",)),
    ("Return target creature card from your graveyard to your hand.", ("Sorcery",)),
])
def test_zone_changes_the_project_doesnt_play_stay_unread(text, types):
    """Kept unmodelled: a dies ability moving the card from its new zone (CR 400.7e, 603.6c), a card in a
    graveyard, a filter not read (nontoken)."""
    assert not reader.read(_modern(text, types)).modelled


# --------------------------------------------------------------------------- cards: the reference engine plays them

def cast(card, *targets, by="P1"):
    return {"type": "cast", "card": card, "controller": by, "targets": list(targets)}


def test_boomerang_returns_a_stolen_permanent_to_its_owners_hand():
    """Boomerang: "Return target permanent to its owner's hand." (CR 400.3): P2's Bears under P1's control."""
    game = new_game(obj("bears", "Grizzly Bears", owner="P2", controller="P1"))
    obs, _ = play(game, cast("Boomerang", "bears"))
    assert obs["zones"]["hand"] == {"P1": [], "P2": ["bears"]}
    assert obs["log"] == [zone_change("bears", "battlefield", "hand", {"event": "return_to_hand", "by": "Boomerang"})]


def test_evacuation_returns_every_creature_at_once():
    """Evacuation: "Return all creatures to their owners' hands." Cards to their owners' hands, a token
    ceases to exist (704.5d), an Aura left behind goes to its owner's graveyard (704.5m)."""
    game = new_game(obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats", owner="P2"),
                    obj("tok", "Grizzly Bears", token=True), aura("h", "Hyena Umbra", "rats"))
    obs, _ = play(game, cast("Evacuation"))
    assert obs["zones"]["hand"] == {"P1": ["bears"], "P2": ["rats"]} and "tok" not in obs["objects"]
    assert obs["zones"]["graveyard"]["P1"] == ["h"] and obs["zones"]["battlefield"] == []


def test_cloudshift_returns_the_card_under_its_casters_control():
    """Cloudshift: "... then return that card to the battlefield under your control." P1 controls P2's
    Bears: it returns as a new object (named "<id>.returned"), P2's card under P1's control (CR 108.3)."""
    game = new_game(obj("bears", "Grizzly Bears", owner="P2", controller="P1", counters={"+1/+1": 1}))
    obs, _ = play(game, cast("Cloudshift", "bears"))
    new = obs["objects"]["bears.returned"]
    assert "bears" not in obs["objects"]
    assert (new["owner"], new["controller"], new["counters"], new["summoning_sick"]) == ("P2", "P1", {}, True)


def test_angelic_edict_exiles_an_enchantment_and_umbra_armor_does_nothing():
    """Angelic Edict exiles target creature or enchantment (CR 701.11a); on an enchanted creature, umbra
    armor doesn't apply (702.89a: destruction only)."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("h", "Hyena Umbra", "bears"))
    obs, _ = play(game, cast("Angelic Edict", "bears"))
    assert obs["zones"]["exile"]["P1"] == ["bears"] and obs["zones"]["graveyard"]["P1"] == ["h"]
    assert not any(e["kind"] == "replacement" for e in obs["log"])


def test_man_o_war_returns_the_creature_its_controller_chooses():
    """Man-o'-War's enters ability targets any creature (itself included, CR 115.1): P1 chooses P2's Bears."""
    game = new_game(obj("bears", "Grizzly Bears", owner="P2"))
    obs, asked = play(game, {"type": "put_onto_battlefield", "id": "mow", "card": "Man-o'-War", "controller": "P1"},
                      "bears")
    assert asked == [("P1", "target", ["bears", "mow"])]
    assert obs["zones"]["hand"]["P2"] == ["bears"] and obs["objects"]["mow"]["zone"] == "battlefield"


def test_blinking_spirit_returns_itself_to_its_owners_hand():
    """Blinking Spirit: "{0}: Return ~ to its owner's hand." (an activated ability, CR 602)."""
    game = new_game(obj("spirit", "Blinking Spirit", owner="P2", controller="P1"))
    obs, _ = play(game, {"type": "activate", "object": "spirit", "ability": 0})
    assert obs["zones"]["hand"]["P2"] == ["spirit"]


def test_the_invariants_check_a_modelled_spell_s_moves():
    """The zone invariants judge a cast Boomerang from its model: the card in its controller's hand is wrong."""
    def wrong(after):
        after["zones"]["hand"] = {"P1": ["bears"], "P2": []}
    t = _transition([obj("bears", "Grizzly Bears", owner="P2", controller="P1")], cast("Boomerang", "bears"), wrong)
    assert any("400.3" in m for m in _check("zones.moved_to_its_owners_zone", t))


# --------------------------------------------------------------------------- cards: leaves-the-battlefield abilities

def test_a_leaves_the_battlefield_ability_reads_in_both_templatings():
    """Thragtusk's "When Thragtusk leaves the battlefield, create a 3/3 green Beast creature token." and
    today's "When this creature leaves the battlefield, ..." (CR 603.6c)."""
    old = _effects(cards.database()["Thragtusk"])[-1]
    new = _effects(_modern("When this creature leaves the battlefield, create a 3/3 green Beast creature token.",
                           ("Creature",)))[-1]
    assert old == new and new[:3] == ("triggered", "leaves the battlefield trigger", "leaves the battlefield")


@pytest.mark.parametrize("event", [exile("t"), bounce("t"), {"type": "destroy", "targets": ["t"]}])
def test_a_leaves_the_battlefield_ability_triggers_whatever_the_zone(event):
    """CR 603.6c: Thragtusk exiled, returned to hand or destroyed: its controller gets a 3/3 Beast."""
    game = new_game(obj("t", "Thragtusk", owner="P2", controller="P1"))
    obs, _ = play(game, event)
    assert {"kind": "trigger", "source": "t", "ability": "leaves the battlefield", "controller": "P1"} in obs["log"]
    beast = obs["objects"]["t.token1"]
    assert (beast["name"], beast["controller"], beast["power"], beast["toughness"]) == ("Beast Token", "P1", 3, 3)


def test_a_flickered_thragtusk_leaves_and_enters():
    """CR 603.6c, 603.6a: its leaves ability (a Beast) and the new object's enters ability (5 life)
    trigger in the same event; its controller orders them (603.3b)."""
    game = new_game(obj("t", "Thragtusk"))
    obs, asked = play(game, flicker("t", "t2"), "enters:t2")
    assert asked == [("P1", "trigger_order", ["leaves the battlefield:t", "enters:t2"])]
    assert obs["players"]["P1"]["life"] == 25 and obs["objects"]["t.token1"]["name"] == "Beast Token"


def test_the_leaves_invariant_finds_an_ability_that_didnt_trigger():
    def wrong(after):
        after["log"] = [e for e in after["log"] if e["kind"] == "zone_change" and e["object"] == "t"]
    t = _transition([obj("t", "Thragtusk")], exile("t"), wrong)
    assert any("603.6c" in m for m in _check("zones.leaves_the_battlefield_abilities_trigger", t))
    assert _check("zones.leaves_the_battlefield_abilities_trigger",
                  _transition([obj("t", "Thragtusk")], exile("t"), lambda a: None)) == []
