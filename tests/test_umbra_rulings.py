"""Scenario tests: every umbra armor ruling, played out on the reference engine.

Each test is one judge-style scenario: a small board, one or two events, and the exact
expected result: zones, damage, tapped and combat status, the log's causes, and who was
asked which choice. Docstrings quote the CR rule or the Gatherer ruling they encode
(``invariants/data/rulings.json``; CR 702.89 is umbra armor). The last test checks that
every umbra armor ruling in that file has at least one scenario here.

Cards used (printed P/T): Grizzly Bears 2/2 (green), River Boa 2/1 (regenerates),
Typhoid Rats 1/1 (deathtouch), Darksteel Myr 0/1 (indestructible), Isamaru 2/2
(legendary), Umbra Mystic 2/2. Hyena Umbra +1/+1, Spider Umbra +1/+1, Boar Umbra +3/+3,
Crab Umbra and Felidar Umbra +0/+0; Dog Umbra has umbra armor only while its controller
controls the enchanted creature.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reference_engine import ReferenceEngine

from .scenario_helpers import Decider, aura, obj

# --------------------------------------------------------------------------- helpers


def new_game(*objects, life=20):
    board = {"players": [{"id": "P1", "life": life}, {"id": "P2", "life": life}], "objects": list(objects)}
    return ReferenceEngine().new_game(board)


def play(game, event, *answers):
    """Apply ``event`` with scripted ``answers``; return (observation, questions asked)."""
    decider = Decider(*answers)
    game.apply(event, decider)
    assert decider.answers == [], f"scripted answers not used: {decider.answers}"
    return game.observe(), decider.asked


def cast(card, *targets, by="P2"):
    return {"type": "cast", "card": card, "controller": by, "targets": list(targets)}


def damage(source, target, amount):
    return {"type": "damage", "source": source, "target": target, "amount": amount}


def moves(obs):
    """Zone changes in the last event's log: [(object, to, cause)]."""
    return [(e["object"], e["to"], e["cause"]) for e in obs["log"] if e["kind"] == "zone_change"]


def replacements(obs):
    return [e for e in obs["log"] if e["kind"] == "replacement"]


def kinds(obs):
    return [e["kind"] for e in obs["log"]]


def destroyed_by(by):
    return {"event": "destroy", "by": by}


def sba(rule):
    return {"event": "state_based_action", "rule": rule}


def umbra(aura_id, creature):
    return {"kind": "replacement", "effect": "umbra armor", "source": aura_id, "affected": creature}


def assert_saved(obs, creature, aura_id, owner="P1", tapped=False, combat=None):
    """The creature is on the battlefield, undamaged, untouched; the Aura is in its owner's graveyard."""
    c = obs["objects"][creature]
    assert c["zone"] == "battlefield"
    assert c["damage"] == 0
    assert c["tapped"] is tapped
    assert c["combat"] == combat
    assert obs["objects"][aura_id]["zone"] == "graveyard"
    assert obs["objects"][aura_id]["attached_to"] is None
    assert aura_id in obs["zones"]["graveyard"][owner]
    assert creature in obs["zones"]["battlefield"]
    assert "tapped" not in kinds(obs) and "removed_from_combat" not in kinds(obs)


#: ruling text prefix -> tests that encode it; filled by @ruling, checked by the last test.
COVERED: dict[str, list[str]] = {}


def ruling(*prefixes):
    """Register the test as a scenario for the rulings whose text starts with a prefix.

    Prefixes are matched after normalising the 2010-2019 "totem armor" wording to
    "umbra armor" (CR 702.89b).
    """

    def register(fn):
        for prefix in prefixes:
            COVERED.setdefault(prefix, []).append(fn.__name__)
        return fn

    return register


UMBRA_AURAS = [
    "Hyena Umbra", "Bear Umbra", "Snake Umbra", "Spider Umbra", "Boar Umbra", "Eel Umbra",
    "Eland Umbra", "Drake Umbra", "Mammoth Umbra", "Felidar Umbra", "Crab Umbra",
    "Indrik Umbra", "Treefolk Umbra", "Octopus Umbra",
]

# ------------------------------------------------------------- mandatory (702.89a)


@ruling("Umbra armor's effect is mandatory.")
@pytest.mark.parametrize("spell", ["Murder", "Doom Blade", "Breathe Your Last"])
def test_destroy_spell_is_replaced_mandatorily(spell):
    """Ruling (2010-06-15, 2024-06-07): "Umbra armor's effect is mandatory. If the enchanted
    creature would be destroyed, you must remove all damage from it (if it has any) and
    destroy the Aura that has umbra armor instead." CR 702.89a.

    Grizzly Bears (3/3 with Hyena Umbra, 1 damage marked) is the target of a destroy
    spell: it stays, its damage becomes 0, and Hyena Umbra goes to its owner's
    graveyard, destroyed by the spell. Nobody is asked anything: one replacement effect
    applies, and it is not optional.
    """
    game = new_game(obj("bears", "Grizzly Bears", damage=1), aura("hyena", "Hyena Umbra", "bears"))
    obs, asked = play(game, cast(spell, "bears"))
    assert asked == []
    assert_saved(obs, "bears", "hyena")
    expected = [
        umbra("hyena", "bears"),
        {"kind": "damage_removed", "object": "bears", "amount": 1},
        {"kind": "zone_change", "object": "hyena", "from": "battlefield", "to": "graveyard",
         "cause": destroyed_by(spell)},
    ]
    if spell == "Breathe Your Last":  # one colour (green): gains 1, last known information
        expected.append({"kind": "life_gained", "player": "P2", "amount": 1})
    assert obs["log"] == expected
    assert (obs["objects"]["bears"]["power"], obs["objects"]["bears"]["toughness"]) == (2, 2)


@ruling("Umbra armor's effect is mandatory.")
@pytest.mark.parametrize("umbra_aura", UMBRA_AURAS)
def test_every_printed_umbra_aura_saves_its_creature(umbra_aura):
    """CR 702.89a: "If enchanted permanent would be destroyed, instead remove all damage
    marked on it and destroy this Aura." Every umbra Aura in the pool, Murder on the
    enchanted Grizzly Bears: the bears stay, the Aura is destroyed by Murder."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("a", umbra_aura, "bears"))
    obs, asked = play(game, cast("Murder", "bears"))
    assert asked == []
    assert_saved(obs, "bears", "a")
    assert moves(obs) == [("a", "graveyard", destroyed_by("Murder"))]


@ruling("Umbra armor's effect is mandatory.")
def test_mandatory_even_when_the_creature_has_no_damage():
    """Ruling (Dog Umbra, Bear Umbra, ...): "remove all damage from it (if it has any)".
    With no damage marked the Aura is still destroyed, and no damage removal is logged."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("crab", "Crab Umbra", "bears"))
    obs, asked = play(game, {"type": "destroy", "targets": ["bears"]})
    assert asked == []
    assert_saved(obs, "bears", "crab")
    assert obs["log"] == [
        umbra("crab", "bears"),
        {"kind": "zone_change", "object": "crab", "from": "battlefield", "to": "graveyard",
         "cause": destroyed_by("destroy effect")},
    ]


# --------------------------------------------------- lethal damage and causes


@ruling("Umbra armor's effect is applied no matter why")
@pytest.mark.parametrize("spell, amount", [("Shock", 2), ("Lightning Bolt", 3)])
def test_lethal_damage_from_a_spell_is_replaced(spell, amount):
    """Ruling (Felidar Umbra, Octopus Umbra; Hyena Umbra 2010-06-15): "Umbra armor's effect
    is applied no matter why the enchanted creature would be destroyed: because it's been
    dealt lethal damage, or because it's being affected by an effect that says to
    'destroy' it." CR 704.5g, 702.89a.

    Grizzly Bears with Hyena Umbra (3/3) has 1 damage; the spell's damage makes it lethal.
    """
    game = new_game(obj("bears", "Grizzly Bears", damage=3 - amount), aura("hyena", "Hyena Umbra", "bears"))
    obs, asked = play(game, cast(spell, "bears"))
    assert asked == []
    assert_saved(obs, "bears", "hyena")
    assert obs["log"] == [
        {"kind": "damage", "source": spell, "target": "bears", "amount": amount, "deathtouch": False},
        umbra("hyena", "bears"),
        {"kind": "damage_removed", "object": "bears", "amount": 3},
        {"kind": "zone_change", "object": "hyena", "from": "battlefield", "to": "graveyard",
         "cause": destroyed_by("704.5g")},
    ]


@ruling(
    "Umbra armor's effect is applied no matter why",
    "If a spell or ability says that it would \"destroy\"",
)
def test_lethal_damage_from_a_creature_is_replaced_by_the_game_rules():
    """Ruling (Indrik Umbra 2024-06-07): "if a spell or ability deals lethal damage to a
    creature enchanted with an Aura that has umbra armor, the game rules regarding lethal
    damage cause the Aura to be destroyed, not that spell or ability." CR 704.5g.

    A Grizzly Bears (P2) deals 3 damage to P1's Grizzly Bears with Hyena Umbra (3/3),
    as in a fight: the Aura is destroyed by 704.5g.
    """
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        obj("foe", "Grizzly Bears", owner="P2"),
    )
    obs, asked = play(game, damage("foe", "bears", 3))
    assert asked == []
    assert_saved(obs, "bears", "hyena")
    assert moves(obs) == [("hyena", "graveyard", destroyed_by("704.5g"))]
    assert obs["objects"]["foe"]["damage"] == 0


@ruling("If a spell or ability says that it would \"destroy\"")
def test_destroy_spell_is_what_destroys_the_aura():
    """Ruling (Indrik Umbra, Mammoth Umbra, Dog Umbra 2024-06-07): "If a spell or ability
    says that it would 'destroy' a creature enchanted with an Aura that has umbra armor,
    that spell or ability is what causes the Aura to be destroyed instead."

    Same creature, same Aura, two ways: Murder (the spell destroys the Aura) and Lightning
    Bolt (the lethal-damage state-based action destroys it)."""
    murdered = new_game(obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"))
    obs, _ = play(murdered, cast("Murder", "bears"))
    assert moves(obs) == [("hyena", "graveyard", destroyed_by("Murder"))]
    bolted = new_game(obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"))
    obs, _ = play(bolted, cast("Lightning Bolt", "bears"))
    assert moves(obs) == [("hyena", "graveyard", destroyed_by("704.5g"))]


def test_non_lethal_damage_leaves_the_aura_alone():
    """CR 704.5g: only damage >= toughness is lethal. Shock (2) on Grizzly Bears with
    Hyena Umbra (3/3): 2 damage stays marked, no replacement, no zone change."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"))
    obs, asked = play(game, cast("Shock", "bears"))
    assert asked == []
    assert obs["objects"]["bears"]["damage"] == 2
    assert obs["objects"]["hyena"]["zone"] == "battlefield"
    assert moves(obs) == [] and replacements(obs) == []


# ------------------------------------------- several state-based actions at once


@ruling("If a creature enchanted with an Aura that has umbra armor would be destroyed by multiple state-based actions")
def test_deathtouch_and_lethal_damage_cost_one_aura():
    """Ruling (Umbra Mystic, Indrik Umbra 2024-06-07): "If a creature enchanted with an Aura
    that has umbra armor would be destroyed by multiple state-based actions at the same
    time (most likely because a creature with deathtouch has dealt damage to that
    creature greater than or equal to its toughness), umbra armor's effect will replace
    all of them and save the creature." CR 704.5g, 704.5h.

    Typhoid Rats (deathtouch) deals 3 damage to Grizzly Bears with Hyena Umbra (3/3).
    """
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        obj("rats", "Typhoid Rats", owner="P2"),
    )
    obs, asked = play(game, damage("rats", "bears", 3))
    assert asked == []
    assert_saved(obs, "bears", "hyena")
    assert obs["log"][0] == {"kind": "damage", "source": "rats", "target": "bears", "amount": 3, "deathtouch": True}
    assert replacements(obs) == [umbra("hyena", "bears")]
    [(moved, to, cause)] = moves(obs)
    assert (moved, to) == ("hyena", "graveyard")
    assert cause["event"] == "destroy" and cause["by"] in {"704.5g", "704.5h"}


@ruling("If a creature enchanted with an Aura that has umbra armor would be destroyed by multiple state-based actions")
def test_deathtouch_and_lethal_damage_with_two_umbras_cost_only_one():
    """Same ruling, with two umbra Auras on the creature: the two state-based actions are
    one destruction event, so the controller chooses once and only one Aura is lost.

    Grizzly Bears with Hyena Umbra and Spider Umbra (4/4); Typhoid Rats deals 4 damage.
    """
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        aura("spider", "Spider Umbra", "bears"), obj("rats", "Typhoid Rats", owner="P2"),
    )
    obs, asked = play(game, damage("rats", "bears", 4), "umbra armor:spider")
    assert asked == [("P1", "replacement_effect", ["umbra armor:hyena", "umbra armor:spider"])]
    assert_saved(obs, "bears", "spider")
    assert obs["objects"]["hyena"]["zone"] == "battlefield"
    assert obs["objects"]["hyena"]["attached_to"] == "bears"
    assert [m[0] for m in moves(obs)] == ["spider"]
    assert (obs["objects"]["bears"]["power"], obs["objects"]["bears"]["toughness"]) == (3, 3)


def test_deathtouch_damage_alone_is_replaced_by_704_5h():
    """CR 704.5h: a creature dealt damage by a deathtouch source is destroyed, even by 1
    damage. Typhoid Rats deals 1 to Grizzly Bears with Hyena Umbra (3/3): the Aura is
    destroyed by 704.5h, the damage is removed."""
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        obj("rats", "Typhoid Rats", owner="P2"),
    )
    obs, asked = play(game, damage("rats", "bears", 1))
    assert asked == []
    assert_saved(obs, "bears", "hyena")
    assert obs["log"][1:] == [
        umbra("hyena", "bears"),
        {"kind": "damage_removed", "object": "bears", "amount": 1},
        {"kind": "zone_change", "object": "hyena", "from": "battlefield", "to": "graveyard",
         "cause": destroyed_by("704.5h")},
    ]


# ---------------------------------------- graveyard for other reasons (701.7b)


@ruling("Umbra armor has no effect if the enchanted")
def test_sacrifice_is_not_replaced():
    """Ruling (Indrik Umbra 2024-06-07, Hyena Umbra 2013-07-01): "Umbra armor has no effect
    if the enchanted creature is put into a graveyard for any other reason, such as if
    it's sacrificed". CR 701.17a, 701.7b (sacrificing is not destroying).

    Grizzly Bears with Hyena Umbra is sacrificed: it goes to the graveyard; the Aura
    follows by 704.5m (put into the graveyard, not destroyed)."""
    game = new_game(obj("bears", "Grizzly Bears", damage=1), aura("hyena", "Hyena Umbra", "bears"))
    obs, asked = play(game, {"type": "sacrifice", "object": "bears"})
    assert asked == []
    assert replacements(obs) == []
    assert moves(obs) == [
        ("bears", "graveyard", {"event": "sacrifice", "by": "P1"}),
        ("hyena", "graveyard", sba("704.5m")),
    ]
    assert obs["zones"]["battlefield"] == []
    assert obs["zones"]["graveyard"]["P1"] == ["bears", "hyena"]


@ruling("Umbra armor has no effect if the enchanted")
@pytest.mark.parametrize("keep", ["isamaru", "isamaru2"])
def test_legend_rule_is_not_replaced(keep):
    """Same ruling: "... if the 'legend rule' applies to it". CR 704.5j: "that player
    chooses one of them, and the rest are put into their owners' graveyards."

    P1 controls Isamaru, Hound of Konda with Hyena Umbra; a second Isamaru enters under
    P1's control. P1 (the controller) is asked "legend_rule" with both ids. Whichever
    Isamaru goes, it is put into the graveyard by 704.5j, not destroyed: the Aura does not
    save it, and if it was on that Isamaru, it follows by 704.5m.
    """
    game = new_game(obj("isamaru", "Isamaru, Hound of Konda"), aura("hyena", "Hyena Umbra", "isamaru"))
    event = {"type": "put_onto_battlefield", "id": "isamaru2", "card": "Isamaru, Hound of Konda", "controller": "P1"}
    obs, asked = play(game, event, keep)
    assert asked == [("P1", "legend_rule", ["isamaru", "isamaru2"])]
    assert replacements(obs) == []
    gone = "isamaru2" if keep == "isamaru" else "isamaru"
    assert obs["objects"][keep]["zone"] == "battlefield"
    assert obs["objects"][gone]["zone"] == "graveyard"
    expected = [("isamaru2", "battlefield", {"event": "put_onto_battlefield"}),
                (gone, "graveyard", sba("704.5j"))]
    if gone == "isamaru":
        expected.append(("hyena", "graveyard", sba("704.5m")))
    assert moves(obs) == expected
    assert obs["objects"]["hyena"]["zone"] == ("battlefield" if keep == "isamaru" else "graveyard")


def test_legend_rule_is_per_controller():
    """CR 704.5j applies to legendary permanents "controlled by the same player": one
    Isamaru for each player is not a legend-rule case, and nobody is asked."""
    game = new_game(obj("isamaru", "Isamaru, Hound of Konda"))
    event = {"type": "put_onto_battlefield", "id": "isamaru2", "card": "Isamaru, Hound of Konda", "controller": "P2"}
    obs, asked = play(game, event)
    assert asked == []
    assert obs["zones"]["battlefield"] == ["isamaru", "isamaru2"]


@ruling("Umbra armor has no effect if the enchanted")
def test_toughness_zero_is_not_replaced():
    """Same ruling: "... or if its toughness is 0 or less". CR 704.5f: the creature is put
    into its owner's graveyard (not destroyed).

    Grizzly Bears with Hyena Umbra (3/3) gets -3/-3: toughness 0. It goes by 704.5f, and
    Hyena Umbra by 704.5m in the next state-based action check."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"))
    obs, asked = play(game, {"type": "modify_pt", "object": "bears", "power": -3, "toughness": -3})
    assert asked == []
    assert replacements(obs) == []
    assert moves(obs) == [("bears", "graveyard", sba("704.5f")), ("hyena", "graveyard", sba("704.5m"))]


@ruling("Umbra armor has no effect if the enchanted")
def test_negative_toughness_with_lethal_damage_is_704_5f_not_destruction():
    """CR 704.5f/704.5g: lethal damage only destroys a creature whose toughness is greater
    than 0. Grizzly Bears with Spider Umbra (3/3) and 2 damage gets -4/-4 (toughness -1):
    704.5f puts it into the graveyard, so umbra armor has nothing to replace."""
    game = new_game(obj("bears", "Grizzly Bears", damage=2), aura("spider", "Spider Umbra", "bears"))
    obs, asked = play(game, {"type": "modify_pt", "object": "bears", "power": -4, "toughness": -4})
    assert asked == []
    assert replacements(obs) == []
    assert moves(obs) == [("bears", "graveyard", sba("704.5f")), ("spider", "graveyard", sba("704.5m"))]


# -------------------------------------------- destroying the Aura and creature


@ruling("If a spell or ability (such as Planar Cleansing) would destroy both", "If a spell or ability would destroy both")
@pytest.mark.parametrize("targets", [["bears", "boar"], ["boar", "bears"]])
def test_destroying_aura_and_creature_at_once(targets):
    """Ruling (Boar Umbra, Felidar Umbra 2024-06-07): "If a spell or ability would destroy
    both an Aura with umbra armor and the creature it's enchanting at the same time, umbra
    armor's effect will save the enchanted creature from being destroyed. Instead, the
    spell or ability will destroy the Aura in two different ways at the same time, but the
    result is the same as destroying it once." CR 701.7.

    In either target order: the bears stay with damage 0, Boar Umbra goes to the
    graveyard exactly once."""
    game = new_game(obj("bears", "Grizzly Bears", damage=4), aura("boar", "Boar Umbra", "bears"))
    obs, asked = play(game, {"type": "destroy", "targets": targets})
    assert asked == []
    assert_saved(obs, "bears", "boar")
    assert moves(obs) == [("boar", "graveyard", destroyed_by("destroy effect"))]
    assert obs["zones"]["graveyard"]["P1"] == ["boar"]


@ruling("If a spell or ability (such as Planar Cleansing) would destroy both", "If a spell or ability would destroy both")
def test_destroying_one_of_two_umbras_and_the_creature_lets_the_controller_choose():
    """Same ruling, with a second umbra Aura: the destroy effect targets the creature and
    Hyena Umbra. P1 may apply the Spider Umbra's umbra armor instead: then both Auras go
    and the creature stays. (CR 616.1: the affected object's controller chooses.)"""
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        aura("spider", "Spider Umbra", "bears"),
    )
    obs, asked = play(game, {"type": "destroy", "targets": ["bears", "hyena"]}, "umbra armor:spider")
    assert asked == [("P1", "replacement_effect", ["umbra armor:hyena", "umbra armor:spider"])]
    assert obs["objects"]["bears"]["zone"] == "battlefield"
    assert sorted(m[0] for m in moves(obs)) == ["hyena", "spider"]
    assert all(m[2] == destroyed_by("destroy effect") for m in moves(obs))


# ------------------------------------------------ not regeneration (701.15)


@ruling("Umbra armor's effect is not regeneration.")
@pytest.mark.parametrize("status", ["attacking", "blocking"])
def test_untapped_creature_in_combat_stays_untapped_and_in_combat(status):
    """Ruling (Mammoth Umbra, Boar Umbra 2024-06-07): "Umbra armor's effect is not
    regeneration. Specifically, if umbra armor's effect is applied, the enchanted creature
    does not become tapped and is not removed from combat as a result." Compare CR
    701.15a (regeneration taps and removes from combat)."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"))
    play(game, {"type": "set_combat", "object": "bears", "status": status})
    obs, asked = play(game, cast("Murder", "bears"))
    assert asked == []
    assert_saved(obs, "bears", "hyena", tapped=False, combat=status)


@ruling("Umbra armor's effect is not regeneration.")
def test_tapped_attacking_creature_saved_by_lethal_damage_stays_tapped_and_attacking():
    """Same ruling, through lethal damage: an attacking, tapped Grizzly Bears with Hyena
    Umbra is dealt 3 damage by a blocker; it stays tapped and attacking."""
    game = new_game(
        obj("bears", "Grizzly Bears", tapped=True, combat="attacking"),
        aura("hyena", "Hyena Umbra", "bears"),
        obj("blocker", "Grizzly Bears", owner="P2", combat="blocking"),
    )
    obs, asked = play(game, damage("blocker", "bears", 3))
    assert asked == []
    assert_saved(obs, "bears", "hyena", tapped=True, combat="attacking")


@ruling("Umbra armor's effect is not regeneration.")
def test_wrath_of_god_cant_be_regenerated_does_not_stop_umbra_armor():
    """Same ruling: "Effects that say the enchanted creature can't be regenerated won't
    prevent umbra armor's effect from being applied." Wrath of God: "Destroy all
    creatures. They can't be regenerated."

    P1's attacking Grizzly Bears with Boar Umbra survives (untapped, attacking, damage 0);
    P2's unenchanted Grizzly Bears is destroyed by Wrath of God."""
    game = new_game(
        obj("bears", "Grizzly Bears", damage=1, combat="attacking"), aura("boar", "Boar Umbra", "bears"),
        obj("other", "Grizzly Bears", owner="P2"),
    )
    obs, asked = play(game, cast("Wrath of God", by="P1"))
    assert asked == []
    assert_saved(obs, "bears", "boar", combat="attacking")
    assert sorted(moves(obs)) == [
        ("boar", "graveyard", destroyed_by("Wrath of God")),
        ("other", "graveyard", destroyed_by("Wrath of God")),
    ]
    assert obs["zones"]["graveyard"] == {"P1": ["boar"], "P2": ["other"]}


def test_wrath_of_god_with_a_regeneration_shield_and_no_umbra_destroys():
    """CR 701.15c: effects that say a permanent can't be regenerated cause regeneration
    shields to not be applied. River Boa with a regeneration shield (activated this turn)
    is destroyed by Wrath of God; the shield does not follow it to the graveyard."""
    game = new_game(obj("boa", "River Boa"))
    obs, _ = play(game, {"type": "activate_regeneration", "object": "boa"})
    assert obs["objects"]["boa"]["regeneration_shields"] == 1
    obs, asked = play(game, cast("Wrath of God", by="P2"))
    assert asked == []
    assert moves(obs) == [("boa", "graveyard", destroyed_by("Wrath of God"))]
    assert obs["objects"]["boa"]["regeneration_shields"] == 0
    assert replacements(obs) == []


def test_cant_be_regenerated_destroy_with_shield_and_umbra_uses_umbra_without_asking():
    """Umbra armor ruling ("can't be regenerated" doesn't stop umbra armor) with CR
    701.15c: River Boa has a regeneration shield and Hyena Umbra; a destroy effect that
    says it can't be regenerated leaves umbra armor as the only applicable replacement, so
    no choice is asked, the Aura is destroyed and the shield remains unused."""
    game = new_game(obj("boa", "River Boa", regeneration_shields=1), aura("hyena", "Hyena Umbra", "boa"))
    obs, asked = play(game, {"type": "destroy", "targets": ["boa"], "cant_be_regenerated": True})
    assert asked == []
    assert_saved(obs, "boa", "hyena")
    assert obs["objects"]["boa"]["regeneration_shields"] == 1


# ---------------------------------------------- regeneration and umbra armor


@ruling("Say you control a permanent enchanted with an Aura that has umbra armor, and the enchanted permanent has gained")
def test_regeneration_shield_and_umbra_armor_choose_umbra_then_regeneration():
    """Ruling (Hyena Umbra 2010-06-15): "Say you control a permanent enchanted with an Aura
    that has totem [umbra] armor, and the enchanted permanent has gained a regeneration
    shield. The next time it would be destroyed, you choose whether to apply the
    regeneration effect or the totem armor effect. The other effect is unused and
    remains, in case the permanent would be destroyed again." CR 616.1, 701.15a.

    River Boa (attacking, 2 damage) with Hyena Umbra and one shield. Murder: P1 chooses
    umbra armor; the shield stays 1. Second Murder: only regeneration is left, so it
    applies without a question: damage removed, Boa tapped and removed from combat.
    """
    game = new_game(obj("boa", "River Boa", damage=1, combat="attacking"), aura("hyena", "Hyena Umbra", "boa"))
    play(game, {"type": "activate_regeneration", "object": "boa"})
    obs, asked = play(game, cast("Murder", "boa"), "umbra armor:hyena")
    assert asked == [("P1", "replacement_effect", ["umbra armor:hyena", "regeneration"])]
    assert_saved(obs, "boa", "hyena", combat="attacking")
    assert obs["objects"]["boa"]["regeneration_shields"] == 1

    play(game, cast("Shock", "boa"))  # River Boa is 2/1 again: Shock's 2 damage is lethal
    obs = game.observe()
    assert obs["objects"]["boa"]["zone"] == "battlefield"
    assert obs["log"][1:] == [
        {"kind": "replacement", "effect": "regeneration", "affected": "boa"},
        {"kind": "damage_removed", "object": "boa", "amount": 2},
        {"kind": "tapped", "object": "boa"},
        {"kind": "removed_from_combat", "object": "boa"},
    ]
    boa = obs["objects"]["boa"]
    assert (boa["damage"], boa["tapped"], boa["combat"], boa["regeneration_shields"]) == (0, True, None, 0)


@ruling("Say you control a permanent enchanted with an Aura that has umbra armor, and the enchanted permanent has gained")
def test_regeneration_shield_and_umbra_armor_choose_regeneration_then_umbra():
    """Same ruling, the other choice: P1 applies regeneration first (Boa tapped, shield
    used, Aura stays); the next destroy uses umbra armor with no question asked."""
    game = new_game(obj("boa", "River Boa", regeneration_shields=1), aura("hyena", "Hyena Umbra", "boa"))
    obs, asked = play(game, cast("Murder", "boa"), "regeneration")
    assert asked == [("P1", "replacement_effect", ["umbra armor:hyena", "regeneration"])]
    boa = obs["objects"]["boa"]
    assert (boa["zone"], boa["tapped"], boa["regeneration_shields"]) == ("battlefield", True, 0)
    assert obs["objects"]["hyena"]["zone"] == "battlefield"
    assert moves(obs) == []

    obs, asked = play(game, cast("Murder", "boa"))
    assert asked == []
    assert_saved(obs, "boa", "hyena", tapped=True)
    assert moves(obs) == [("hyena", "graveyard", destroyed_by("Murder"))]


@ruling("Say you control a permanent enchanted with an Aura that has umbra armor, and that Aura has gained")
def test_aura_with_a_regeneration_shield_regenerates_and_nothing_is_destroyed():
    """Ruling (Hyena Umbra 2013-07-01): "Say you control a permanent enchanted with an Aura
    that has totem [umbra] armor, and that Aura has gained a regeneration shield. The next
    time the enchanted permanent would be destroyed, the Aura would be destroyed instead
    -- but it regenerates, so nothing is destroyed at all." CR 616.1f, 701.15a.

    (No card in the pool gives an Aura a shield; the board sets one.) Murder on the
    bears: umbra armor applies, then regeneration replaces the Aura's destruction: the Aura
    stays, tapped, its shield used; nothing changes zone."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears", regeneration_shields=1))
    obs, asked = play(game, cast("Murder", "bears"))
    assert asked == []
    assert moves(obs) == []
    assert [(e["effect"], e["affected"]) for e in replacements(obs)] == [("umbra armor", "bears"), ("regeneration", "hyena")]
    hyena = obs["objects"]["hyena"]
    assert (hyena["zone"], hyena["attached_to"], hyena["tapped"], hyena["regeneration_shields"]) == (
        "battlefield", "bears", True, 0)
    assert obs["objects"]["bears"]["tapped"] is False


# -------------------------------------------------------- indestructible


@ruling("If a creature enchanted with an Aura that has umbra armor has indestructible", "If a creature has indestructible and is enchanted")
@pytest.mark.parametrize("event", [
    cast("Murder", "myr"),
    cast("Wrath of God"),
    {"type": "destroy", "targets": ["myr"]},
])
def test_indestructible_creature_destroy_does_nothing(event):
    """Ruling (Umbra Mystic, Bear Umbra 2024-06-07): "If a creature enchanted with an Aura
    that has umbra armor has indestructible, lethal damage and effects that try to destroy
    it simply have no effect. Umbra armor won't do anything because it won't have to."
    CR 702.12b.

    Darksteel Myr (indestructible) with Hyena Umbra: destroying it does nothing at all:
    the log is empty, the Aura stays."""
    game = new_game(obj("myr", "Darksteel Myr", damage=1), aura("hyena", "Hyena Umbra", "myr"))
    obs, asked = play(game, event)
    assert asked == []
    assert obs["log"] == []
    assert obs["objects"]["hyena"]["zone"] == "battlefield"
    assert obs["objects"]["myr"]["damage"] == 1


@ruling("If a creature enchanted with an Aura that has umbra armor has indestructible", "If a creature has indestructible and is enchanted")
@pytest.mark.parametrize("event, marked", [
    (cast("Lightning Bolt", "myr"), 3),
    (damage("rats", "myr", 1), 1),  # deathtouch: 704.5h is ignored too
    (damage("rats", "myr", 5), 5),
])
def test_indestructible_creature_lethal_damage_stays_marked(event, marked):
    """Same ruling and CR 702.12b ("they ignore the state-based action that checks for
    lethal damage"): the damage stays marked on Darksteel Myr (1/2 with Hyena Umbra),
    no replacement applies, the Aura stays."""
    game = new_game(
        obj("myr", "Darksteel Myr"), aura("hyena", "Hyena Umbra", "myr"),
        obj("rats", "Typhoid Rats", owner="P2"),
    )
    obs, asked = play(game, event)
    assert asked == []
    assert obs["objects"]["myr"]["damage"] == marked
    assert obs["objects"]["hyena"]["zone"] == "battlefield"
    assert moves(obs) == [] and replacements(obs) == []
    assert kinds(obs) == ["damage"]


# --------------------------------------- several umbra Auras; who chooses


@ruling("If a permanent you control is enchanted with multiple Auras", "If a creature you control is enchanted with multiple Auras")
@pytest.mark.parametrize("choice", ["hyena", "spider", "boar"])
def test_several_umbra_auras_exactly_one_destroyed_controller_chooses(choice):
    """Ruling (Umbra Mystic 2024-06-07): "If a creature you control is enchanted with
    multiple Auras that have umbra armor, and the enchanted creature would be destroyed,
    one of those Auras is destroyed instead -- but only one of them. You choose which one
    because you control the enchanted creature." CR 616.1.

    Grizzly Bears with Hyena, Spider and Boar Umbra (7/7), Murder cast by P2: P1 is asked
    once, options in timestamp order; exactly the chosen Aura goes."""
    auras = ["hyena", "spider", "boar"]
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        aura("spider", "Spider Umbra", "bears"), aura("boar", "Boar Umbra", "bears"),
    )
    obs, asked = play(game, cast("Murder", "bears"), f"umbra armor:{choice}")
    assert asked == [("P1", "replacement_effect", [f"umbra armor:{a}" for a in auras])]
    assert_saved(obs, "bears", choice)
    assert moves(obs) == [(choice, "graveyard", destroyed_by("Murder"))]
    for other in set(auras) - {choice}:
        assert obs["objects"][other]["zone"] == "battlefield"
        assert obs["objects"][other]["attached_to"] == "bears"


@ruling("If a permanent you control would be destroyed, and it's enchanted by an Aura with umbra armor")
@pytest.mark.parametrize("choice", ["hyena", "spider"])
def test_the_creatures_controller_chooses_even_the_opponents_aura(choice):
    """Ruling (Umbra Mystic 2010-06-15): "If a permanent you control would be destroyed,
    and it's enchanted by an Aura with umbra armor, it doesn't matter who controls that
    Aura. The umbra armor effect is mandatory. If that permanent is enchanted by multiple
    Auras, you choose which one is destroyed, regardless of who controls them."

    P1's Grizzly Bears has P1's Hyena Umbra and P2's Spider Umbra (owned by P2); P2 casts
    Murder. P1 (not P2, who controls the Aura and the spell) is asked; the destroyed Aura
    goes to its owner's graveyard."""
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        aura("spider", "Spider Umbra", "bears", owner="P2"),
    )
    obs, asked = play(game, cast("Murder", "bears", by="P2"), f"umbra armor:{choice}")
    assert asked == [("P1", "replacement_effect", ["umbra armor:hyena", "umbra armor:spider"])]
    owner = "P2" if choice == "spider" else "P1"
    assert_saved(obs, "bears", choice, owner=owner)
    assert obs["zones"]["graveyard"][owner] == [choice]


@ruling("If a permanent you control would be destroyed, and it's enchanted by an Aura with umbra armor")
def test_opponents_only_umbra_aura_saves_my_creature_without_asking():
    """Same ruling ("it doesn't matter who controls that Aura. The umbra armor effect is
    mandatory"): Boar Umbra, owned by P1 but controlled by P2, on P1's Grizzly Bears; P2
    casts Murder. Nobody is asked; the Aura goes to its owner's (P1's) graveyard (CR
    701.7a), where it is a new object and is reported with its owner as controller
    (CR 400.7)."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("boar", "Boar Umbra", "bears", controller="P2"))
    obs, asked = play(game, cast("Murder", "bears", by="P2"))
    assert asked == []
    assert_saved(obs, "bears", "boar", owner="P1")
    assert obs["objects"]["boar"]["controller"] == "P1"


# ------------------------------------------------------- Umbra Mystic, Dog Umbra


@ruling("Umbra Mystic grants umbra armor to Auras attached to permanents you control")
def test_umbra_mystic_grants_umbra_armor_to_an_opponents_aura_on_my_creature():
    """Ruling (Umbra Mystic 2010-06-15): "Umbra Mystic grants umbra armor to Auras attached
    to permanents you control, regardless of who controls those Auras." Oracle: "Auras
    attached to permanents you control have umbra armor." CR 613.1f (layer 6).

    P2's Dog Umbra on P1's Grizzly Bears has no umbra armor of its own (another player
    controls the enchanted creature); P1's Umbra Mystic gives it umbra armor, so Murder
    destroys the Dog Umbra instead."""
    game = new_game(
        obj("mystic", "Umbra Mystic"), obj("bears", "Grizzly Bears"),
        aura("dog", "Dog Umbra", "bears", owner="P2"),
    )
    assert "umbra armor" in game.observe()["objects"]["dog"]["keywords"]
    obs, asked = play(game, cast("Murder", "bears", by="P2"))
    assert asked == []
    assert_saved(obs, "bears", "dog", owner="P2")
    assert moves(obs) == [("dog", "graveyard", destroyed_by("Murder"))]


@ruling("Umbra Mystic grants umbra armor to Auras attached to permanents you control")
def test_umbra_mystic_does_not_grant_to_my_aura_on_an_opponents_creature():
    """Same ruling: "Conversely, it doesn't grant umbra armor to Auras you control that are
    attached to permanents controlled by other players."

    P1 controls Umbra Mystic and a Dog Umbra on P2's Grizzly Bears (no umbra armor: P1
    doesn't control the creature). Murder destroys the bears; the Dog Umbra goes by
    704.5m."""
    game = new_game(
        obj("mystic", "Umbra Mystic"), obj("bears", "Grizzly Bears", owner="P2"),
        aura("dog", "Dog Umbra", "bears"),
    )
    assert "umbra armor" not in game.observe()["objects"]["dog"]["keywords"]
    obs, asked = play(game, cast("Murder", "bears", by="P1"))
    assert asked == []
    assert replacements(obs) == []
    assert moves(obs) == [("bears", "graveyard", destroyed_by("Murder")), ("dog", "graveyard", sba("704.5m"))]


@ruling("Umbra Mystic grants umbra armor to Auras attached to permanents you control")
def test_umbra_mystic_leaving_the_battlefield_removes_the_granted_umbra_armor():
    """Umbra Mystic's ability is a static ability (CR 604.2): once the Mystic is gone, P2's
    Dog Umbra on P1's creature no longer has umbra armor, and Murder destroys the
    creature."""
    game = new_game(
        obj("mystic", "Umbra Mystic"), obj("bears", "Grizzly Bears"),
        aura("dog", "Dog Umbra", "bears", owner="P2"),
    )
    play(game, {"type": "sacrifice", "object": "mystic"})
    assert "umbra armor" not in game.observe()["objects"]["dog"]["keywords"]
    obs, _ = play(game, cast("Murder", "bears"))
    assert moves(obs) == [("bears", "graveyard", destroyed_by("Murder")), ("dog", "graveyard", sba("704.5m"))]


@ruling("Umbra Mystic grants umbra armor to Auras attached to permanents you control")
def test_wrath_of_god_destroys_umbra_mystic_but_its_grant_still_saves():
    """CR 614.12 and 608.2: replacement effects are checked before the event, while Umbra
    Mystic is still on the battlefield. Wrath of God destroys Umbra Mystic and P1's
    Grizzly Bears at once; P2's Dog Umbra on the bears has umbra armor from the Mystic at
    that moment, so the bears survive and the Dog Umbra is destroyed."""
    game = new_game(
        obj("mystic", "Umbra Mystic"), obj("bears", "Grizzly Bears"),
        aura("dog", "Dog Umbra", "bears", owner="P2"),
    )
    obs, asked = play(game, cast("Wrath of God"))
    assert asked == []
    assert_saved(obs, "bears", "dog", owner="P2")
    assert sorted(moves(obs)) == [
        ("dog", "graveyard", destroyed_by("Wrath of God")),
        ("mystic", "graveyard", destroyed_by("Wrath of God")),
    ]


@ruling("Multiple instances of umbra armor on the same Aura are redundant.")
def test_umbra_mystic_on_a_printed_umbra_is_redundant():
    """Ruling (Umbra Mystic 2010-06-15): "Multiple instances of umbra armor on the same Aura
    are redundant." CR 702.89a. Hyena Umbra (printed umbra armor) on P1's bears, P1 controls
    Umbra Mystic: the Aura is one option, not two, so nobody is asked, and it is destroyed
    once."""
    game = new_game(
        obj("mystic", "Umbra Mystic"), obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
    )
    assert game.observe()["objects"]["hyena"]["keywords"].count("umbra armor") == 1
    obs, asked = play(game, cast("Murder", "bears"))
    assert asked == []
    assert_saved(obs, "bears", "hyena")
    assert replacements(obs) == [umbra("hyena", "bears")]


@ruling("Umbra Mystic grants umbra armor to Auras attached to permanents you control")
def test_umbra_mystic_pool_choice_includes_granted_and_printed_umbras():
    """Umbra Mystic ruling (2010-06-15, several Auras, "you choose which one is destroyed,
    regardless of who controls them"): P1's bears have P2's Dog Umbra (umbra armor from
    P1's Mystic) and P1's Hyena Umbra (printed): both are options for P1."""
    game = new_game(
        obj("mystic", "Umbra Mystic"), obj("bears", "Grizzly Bears"),
        aura("dog", "Dog Umbra", "bears", owner="P2"), aura("hyena", "Hyena Umbra", "bears"),
    )
    obs, asked = play(game, cast("Murder", "bears", by="P2"), "umbra armor:dog")
    assert asked == [("P1", "replacement_effect", ["umbra armor:dog", "umbra armor:hyena"])]
    assert_saved(obs, "bears", "dog", owner="P2")
    assert obs["objects"]["hyena"]["zone"] == "battlefield"


def test_non_umbra_aura_without_mystic_is_not_in_the_pool():
    """CR 702.89a: only Auras with umbra armor replace destruction. Dog Umbra controlled by
    P2 on P1's bears (no Umbra Mystic) has no umbra armor, so with Hyena Umbra also
    attached, Hyena's umbra armor is the only option: no question, Hyena goes."""
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("dog", "Dog Umbra", "bears", owner="P2"),
        aura("hyena", "Hyena Umbra", "bears"),
    )
    obs, asked = play(game, cast("Murder", "bears"))
    assert asked == []
    assert_saved(obs, "bears", "hyena")
    assert obs["objects"]["dog"]["zone"] == "battlefield"


@ruling("Umbra armor's effect is mandatory.")
def test_dog_umbra_has_umbra_armor_when_its_controller_controls_the_creature():
    """Dog Umbra (Oracle): "As long as another player controls enchanted creature, it can't
    attack or block. Otherwise, this Aura has umbra armor." Dog Umbra ruling: "Umbra
    armor's effect is mandatory." P1's Dog Umbra on P1's bears: Murder destroys the Aura."""
    game = new_game(obj("bears", "Grizzly Bears", damage=1), aura("dog", "Dog Umbra", "bears"))
    assert "umbra armor" in game.observe()["objects"]["dog"]["keywords"]
    obs, asked = play(game, cast("Murder", "bears"))
    assert asked == []
    assert_saved(obs, "bears", "dog")
    assert moves(obs) == [("dog", "graveyard", destroyed_by("Murder"))]


def test_dog_umbra_has_no_umbra_armor_on_an_opponents_creature():
    """Dog Umbra (Oracle): umbra armor only "otherwise", i.e. when no other player controls
    the enchanted creature. P2's Dog Umbra on P1's bears: Lightning Bolt destroys the bears
    (704.5g) and the Dog Umbra follows by 704.5m."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("dog", "Dog Umbra", "bears", owner="P2"))
    assert "umbra armor" not in game.observe()["objects"]["dog"]["keywords"]
    obs, asked = play(game, cast("Lightning Bolt", "bears"))
    assert asked == []
    assert replacements(obs) == []
    assert moves(obs) == [("bears", "graveyard", destroyed_by("704.5g")), ("dog", "graveyard", sba("704.5m"))]
    assert obs["zones"]["graveyard"] == {"P1": ["bears"], "P2": ["dog"]}


def mask(oid, on, owner="P1"):
    """Estrid, the Masked's Mask token: "a white Aura enchantment token named Mask attached to
    another target permanent. The token has enchant permanent and umbra armor."
    """
    return obj(oid, "Mask", owner, token=True, attached_to=on)


@ruling("All _Rise of the Eldrazi_ cards printed with umbra armor")
def test_umbra_armor_works_the_same_on_a_noncreature_permanent():
    """Ruling (Umbra Mystic 2010-06-15): "... Umbra Mystic grants umbra armor to Auras attached
    to any permanent you control, not just creatures. The ability works the same way even if
    the Aura is enchanting a land, an artifact, or any other permanent." A Mask (enchant
    permanent, umbra armor) on P1's Hyena Umbra, an enchantment: destroying the Hyena Umbra
    destroys the Mask instead (CR 702.89a); the Mask, a token, then ceases to exist (704.5d).
    With Umbra Mystic beside it nothing changes (its grant is redundant, CR 702.89: multiple
    instances)."""
    for mystic in ((), (obj("mystic", "Umbra Mystic"),)):
        game = new_game(obj("bears", "Grizzly Bears"), aura("h", "Hyena Umbra", "bears"), mask("m", "h"), *mystic)
        assert "umbra armor" in game.observe()["objects"]["m"]["keywords"]
        obs, asked = play(game, {"type": "destroy", "targets": ["h"], "cant_be_regenerated": False})
        assert asked == []
        assert replacements(obs) == [umbra("m", "h")]
        assert obs["objects"]["h"]["zone"] == "battlefield" and obs["objects"]["h"]["attached_to"] == "bears"
        assert "m" not in obs["objects"]
        assert moves(obs) == [("m", "graveyard", destroyed_by("destroy effect")), ("m", None, sba("704.5d"))]


@ruling("Say you control a permanent that's enchanted by an Aura you control, and that Aura is itself enchanted")
def test_umbra_armor_chain_through_an_enchanted_aura():
    """Ruling (Umbra Mystic 2010-06-15): "Say you control a permanent that's enchanted by an Aura
    you control, and that Aura is itself enchanted by an Aura. If the permanent would be
    destroyed, instead the first Aura is destroyed... but since that Aura would be destroyed,
    instead the second Aura is destroyed." Bears enchanted by Hyena Umbra, itself enchanted by
    a Mask: Murder destroys only the Mask; the Bears (damage removed) and Hyena Umbra stay."""
    game = new_game(obj("bears", "Grizzly Bears", damage=1), aura("h", "Hyena Umbra", "bears"), mask("m", "h"))
    obs, asked = play(game, cast("Murder", "bears"))
    assert asked == []
    assert replacements(obs) == [umbra("h", "bears"), umbra("m", "h")]
    assert obs["objects"]["bears"]["zone"] == "battlefield" and obs["objects"]["bears"]["damage"] == 0
    assert obs["objects"]["h"]["zone"] == "battlefield" and obs["objects"]["h"]["attached_to"] == "bears"
    assert "m" not in obs["objects"]
    assert moves(obs) == [("m", "graveyard", destroyed_by("Murder")), ("m", None, sba("704.5d"))]


# ----------------------------------------------------------- Felidar Umbra


@ruling("It's not possible for Felidar Umbra to save two creatures")
def test_felidar_umbra_saves_only_the_creature_it_enchants():
    """Ruling (Felidar Umbra): "It's not possible for Felidar Umbra to save two creatures
    that are being destroyed simultaneously." Wrath of God with Felidar Umbra on one of
    P1's two Grizzly Bears: that one survives, the other is destroyed."""
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("felidar", "Felidar Umbra", "bears"),
        obj("bears2", "Grizzly Bears"),
    )
    obs, asked = play(game, cast("Wrath of God"))
    assert asked == []
    assert_saved(obs, "bears", "felidar")
    assert sorted(moves(obs)) == [
        ("bears2", "graveyard", destroyed_by("Wrath of God")),
        ("felidar", "graveyard", destroyed_by("Wrath of God")),
    ]


def test_felidar_umbra_lifelink_and_attach_moves_it():
    """Felidar Umbra (Oracle): "Enchanted creature has lifelink. {1}{W}: Attach this Aura to
    target creature you control." CR 702.15b (lifelink: damage dealt causes its
    controller to gain that much life), 613.7e (an Aura gets a new timestamp when
    attached).

    The enchanted bears deal 2 to P2: P1 gains 2. Felidar moves to the other bears: the
    first loses lifelink, the second has it, and its damage now gains life; the Aura's
    umbra armor now protects the second bears."""
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("felidar", "Felidar Umbra", "bears"),
        obj("bears2", "Grizzly Bears"), obj("foe", "Grizzly Bears", owner="P2"),
    )
    obs, _ = play(game, damage("bears", "P2", 2))
    assert obs["players"]["P1"]["life"] == 22 and obs["players"]["P2"]["life"] == 18
    assert obs["log"] == [
        {"kind": "damage", "source": "bears", "target": "P2", "amount": 2, "deathtouch": False},
        {"kind": "life_gained", "player": "P1", "amount": 2},
    ]
    obs, asked = play(game, {"type": "attach", "aura": "felidar", "to": "bears2"})
    assert asked == []
    assert obs["log"] == [{"kind": "attached", "object": "felidar", "to": "bears2"}]
    assert obs["objects"]["felidar"]["attached_to"] == "bears2"
    assert "lifelink" not in obs["objects"]["bears"]["keywords"]
    assert "lifelink" in obs["objects"]["bears2"]["keywords"]

    obs, _ = play(game, damage("bears", "foe", 1))
    assert obs["players"]["P1"]["life"] == 22  # no lifelink any more
    obs, _ = play(game, damage("bears2", "foe", 1))
    assert obs["players"]["P1"]["life"] == 23
    assert obs["objects"]["foe"]["zone"] == "graveyard"  # 2 damage on a 2/2

    obs, _ = play(game, cast("Murder", "bears2"))
    assert_saved(obs, "bears2", "felidar")
    obs, _ = play(game, cast("Murder", "bears"))
    assert moves(obs) == [("bears", "graveyard", destroyed_by("Murder"))]


def test_felidar_umbra_lifelink_gains_life_for_the_creatures_controller():
    """CR 702.15b: "Damage dealt by a source with lifelink causes that source's controller
    to gain that much life". P1 controls a Grizzly Bears owned by P2, enchanted with P2's
    Felidar Umbra: when it deals 2 damage to P2, P1 (its controller, not its owner and not
    the Aura's controller) gains 2."""
    game = new_game(
        obj("bears", "Grizzly Bears", owner="P2", controller="P1"),
        aura("felidar", "Felidar Umbra", "bears", owner="P2"),
    )
    obs, _ = play(game, damage("bears", "P2", 2))
    assert {p: (v["life"], v["lost"]) for p, v in obs["players"].items()} == {"P1": (22, False), "P2": (18, False)}
    assert obs["log"][-1] == {"kind": "life_gained", "player": "P1", "amount": 2}


# ------------------------------------------------------------ cleanup (514.2)


def test_cleanup_removes_damage_effects_shields_and_combat():
    """CR 514.2: in the cleanup step "all damage marked on permanents ... is removed and
    all 'until end of turn' and 'this turn' effects end", which includes regeneration
    shields (CR 701.15a: "the next time ... this turn"). The two happen at once, so a
    creature kept alive by Giant Growth with 4 damage survives.

    River Boa (attacking) with Hyena Umbra: Giant Growth (6/5), a shield, 4 damage.
    After cleanup: 3/2, no damage, no shield, not in combat, Aura still attached."""
    game = new_game(obj("boa", "River Boa", combat="attacking"), aura("hyena", "Hyena Umbra", "boa"))
    play(game, cast("Giant Growth", "boa", by="P1"))
    play(game, {"type": "activate_regeneration", "object": "boa"})
    obs, _ = play(game, damage("boa", "boa", 4))
    boa = obs["objects"]["boa"]
    assert (boa["power"], boa["toughness"], boa["damage"], boa["regeneration_shields"]) == (6, 5, 4, 1)

    obs, asked = play(game, {"type": "cleanup"})
    assert asked == []
    boa = obs["objects"]["boa"]
    assert (boa["zone"], boa["power"], boa["toughness"], boa["damage"]) == ("battlefield", 3, 2, 0)
    assert (boa["regeneration_shields"], boa["combat"], boa["tapped"]) == (0, None, False)
    assert obs["objects"]["hyena"]["attached_to"] == "boa"
    assert obs["log"] == [{"kind": "damage_removed", "object": "boa", "amount": 4}]

    # The shield ended: the next destroy uses umbra armor without a question.
    obs, asked = play(game, cast("Murder", "boa"))
    assert asked == []
    assert_saved(obs, "boa", "hyena")


def test_cleanup_ends_minus_n_effects_and_the_umbra_is_not_involved():
    """CR 514.2 and 611.2a: a -1/-1 until end of turn effect ends at cleanup, restoring
    toughness; no Aura is used."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"))
    obs, _ = play(game, {"type": "modify_pt", "object": "bears", "power": -1, "toughness": -1})
    assert (obs["objects"]["bears"]["power"], obs["objects"]["bears"]["toughness"]) == (2, 2)
    obs, _ = play(game, {"type": "cleanup"})
    assert (obs["objects"]["bears"]["power"], obs["objects"]["bears"]["toughness"]) == (3, 3)
    assert obs["log"] == []


# ----------------------------------------------------------------- rename


@ruling("Some printings of this card refer to the ability")
@pytest.mark.parametrize("umbra_aura", UMBRA_AURAS)
def test_totem_armor_is_now_called_umbra_armor(umbra_aura):
    """Ruling (Bear Umbra, Boar Umbra): "Some printings of this card refer to the ability
    'totem armor'. This ability's name has been replaced with 'umbra armor'. This change
    does not affect the gameplay function of this card." CR 702.89b.

    The observed keyword is "umbra armor" (never "totem armor")."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("a", umbra_aura, "bears"))
    keywords = game.observe()["objects"]["a"]["keywords"]
    assert "umbra armor" in keywords
    assert "totem armor" not in keywords


# ------------------------------------------------------ every ruling is covered


RULINGS_FILE = Path(__file__).resolve().parents[1] / "invariants" / "data" / "rulings.json"


def _normalise(text: str) -> str:
    return text.replace("Totem armor", "Umbra armor").replace("totem armor", "umbra armor")


def test_every_umbra_armor_ruling_has_a_scenario():
    """Every ruling in the project's rulings data that is about umbra armor (it names the
    keyword, or is Felidar Umbra's "save two creatures" ruling) is encoded by at least
    one test above, registered with @ruling. Rulings about other abilities (Indrik
    Umbra's blocking, Octopus Umbra's base P/T, Penumbra Umbra's copy, ...) are out of
    this file's scope."""
    rulings = json.loads(RULINGS_FILE.read_text(encoding="utf-8"))
    about_umbra_armor = [
        _normalise(r["text"]) for r in rulings
        if "umbra armor" in _normalise(r["text"]).lower() or "save two creatures" in r["text"]
    ]
    assert len(about_umbra_armor) > 40
    uncovered = [t for t in about_umbra_armor if not any(t.startswith(p) for p in COVERED)]
    assert uncovered == []
    names = set(globals())
    assert all(name in names for tests in COVERED.values() for name in tests)
    # A skipped test is no scenario: none of the registered tests may be skipped.
    skipped = [name for tests in COVERED.values() for name in tests
               if any(m.name in ("skip", "skipif", "xfail") for m in getattr(globals()[name], "pytestmark", ()))]
    assert skipped == []
