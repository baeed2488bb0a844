"""Scenario tests: layers (CR 613), counters (CR 122, 704.5q), copies (CR 707), X (CR 107.3m)
and triggered abilities (CR 603), with every Octopus Umbra and Penumbra Umbra ruling.

Each test is a judge-style scenario on the reference engine: a small board, a few events,
and the exact expected result. Docstrings quote the rule or the Gatherer ruling
(``invariants/data/rulings.json``). The last part runs scenarios through the harness:
every invariant holds on the reference engine, and each ``tests/mutants/layers_*.py``
mutant is caught by the invariant that encodes the rule it breaks.

Cards (printed P/T): Grizzly Bears 2/2 green; Clone and Mirror Image 0/0 blue; Hangarback
Walker {X}{X} 0/0 artifact; Endless One {X} 0/0; Stonecoil Serpent {X} 0/0; Hydroid Krasis
{X}{G}{U} 0/0; Nekrataal 2/1 black, "When this enters, destroy target nonartifact,
nonblack creature. It can't be regenerated."; Goblin Engineer 1/2, enters: search for an
artifact card and put it into your graveyard. Octopus Umbra: base P/T 8/8 (layer 7b).
Penumbra Umbra ("enchant creature you control"): when put into a graveyard from the
battlefield, create a token that's a copy of enchanted creature, except it's black.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from reference_engine import Game, IllegalAction
from reference_engine.cards import card

from .scenario_helpers import Decider, aura, board, new_game, obj, play

ROOT = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------------------- helpers


def put(oid, card, controller="P1", **extra):
    return {"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller, "attach_to": None,
            **extra}


def put_aura(oid, card, on, controller="P1"):
    return {"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller, "attach_to": on}


def cast(card, *targets, by="P1", **extra):
    return {"type": "cast", "card": card, "controller": by, "targets": list(targets), **extra}


def pt(obs, oid):
    o = obs["objects"][oid]
    return o["power"], o["toughness"]


def moves(obs):
    return [(e["object"], e["from"], e["to"], e["cause"]) for e in obs["log"] if e["kind"] == "zone_change"]


def created(by, copy_of=None):
    cause = {"event": "create_token", "by": by}
    if copy_of is not None:
        cause["copy_of"] = copy_of
    return cause


def sba(rule):
    return {"event": "state_based_action", "rule": rule}


def copiable_of(obs, oid):
    return obs["objects"][oid]["copiable"]


def except_black(values):
    return {**values, "colors": ["B"]}


# ------------------------------------------------------------- layer 7b (CR 613.4b)


def test_octopus_umbra_overwrites_earlier_setting_effects():
    """Octopus Umbra ruling: "Octopus Umbra overwrites all previous effects that set the
    creature's base power and toughness to specific values." CR 613.4b, 613.7: within
    layer 7b effects apply in timestamp order, the latest wins.

    Grizzly Bears get "base power and toughness 1/1 until end of turn"; then Octopus Umbra
    enters attached: 8/8. Both effects are listed, in timestamp order."""
    game = new_game(obj("bears", "Grizzly Bears"))
    obs, _ = play(game, {"type": "set_base_pt", "object": "bears", "power": 1, "toughness": 1})
    assert pt(obs, "bears") == (1, 1)
    obs, asked = play(game, put_aura("octo", "Octopus Umbra", "bears"))
    assert asked == []
    assert pt(obs, "bears") == (8, 8)
    assert [(e["layer"], e["source"]) for e in obs["objects"]["bears"]["pt_effects"]] == [
        ("7b", "set_base_pt"), ("7b", "octo")]


def test_a_later_setting_effect_overwrites_octopus_umbra():
    """Octopus Umbra ruling: "Any power- or toughness-setting effects that start to apply
    to a creature after Octopus Umbra becomes attached to it will overwrite this effect."
    CR 514.2: the "until end of turn" effect ends at cleanup and the 8/8 applies again."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("octo", "Octopus Umbra", "bears"))
    assert pt(game.observe(), "bears") == (8, 8)
    obs, _ = play(game, {"type": "set_base_pt", "object": "bears", "power": 1, "toughness": 3})
    assert pt(obs, "bears") == (1, 3)
    obs, _ = play(game, {"type": "cleanup"})
    assert pt(obs, "bears") == (8, 8)
    assert obs["objects"]["bears"]["pt_effects"] == [
        {"layer": "7b", "power": 8, "toughness": 8, "source": "octo", "until_end_of_turn": False}]


def test_octopus_umbra_moved_to_another_creature_gets_a_new_timestamp():
    """CR 613.7e: "An Aura ... receives a new timestamp each time it becomes attached to an
    object." So the Octopus Umbra ruling "overwrites all previous effects" holds after it
    moves: the second bears' earlier 1/1 setting effect is overwritten, and the first
    bears are 2/2 again."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("octo", "Octopus Umbra", "bears"),
                    obj("bears2", "Grizzly Bears"))
    play(game, {"type": "set_base_pt", "object": "bears2", "power": 1, "toughness": 1})
    obs, asked = play(game, {"type": "attach", "aura": "octo", "to": "bears2"})
    assert asked == []
    assert obs["log"] == [{"kind": "attached", "object": "octo", "to": "bears2"}]
    assert pt(obs, "bears2") == (8, 8)
    assert pt(obs, "bears") == (2, 2)


def test_modifying_effects_and_counters_apply_on_top_of_octopus_umbra():
    """Octopus Umbra ruling: "Any power- or toughness-modifying effects (those that give
    +N/+N, for example) and counters will apply to the creature's new base power and
    toughness, even if they started to apply before Octopus Umbra became attached."
    CR 613.4c, 122.1a (+X/+Y counters, asymmetric ones too).

    Grizzly Bears with two +1/+0 counters and a -1/-1 counter (3/1), Giant Growth (6/4),
    "creatures you control get +1/+1" (7/5); Octopus Umbra: 8/8 base, +3/+3, +1/+1,
    +2/+0, -1/-1 = 13/11. The counters and effects are unchanged."""
    game = new_game(obj("bears", "Grizzly Bears", counters={"+1/+0": 2, "-1/-1": 1}))
    assert pt(game.observe(), "bears") == (3, 1)
    play(game, cast("Giant Growth", "bears"))
    obs, _ = play(game, {"type": "create_effect", "affects": "creatures_you_control", "controller": "P1",
                         "power": 1, "toughness": 1})
    assert pt(obs, "bears") == (7, 5)
    obs, _ = play(game, put_aura("octo", "Octopus Umbra", "bears"))
    assert pt(obs, "bears") == (13, 11)
    assert obs["objects"]["bears"]["counters"] == {"+1/+0": 2, "-1/-1": 1}
    assert [(e["layer"], e["source"]) for e in obs["objects"]["bears"]["pt_effects"]] == [
        ("7c", "Giant Growth"), ("7c", "create_effect"), ("7b", "octo")]


def test_a_setting_effect_never_wipes_out_counters():
    """CR 613.4b/613.4c: setting effects (7b) apply before counters (7c), so "base power
    and toughness 0/0" on a creature with two +1/+1 counters leaves a 2/2, not a 0/0 put
    into the graveyard (704.5f)."""
    game = new_game(obj("bears", "Grizzly Bears", counters={"+1/+1": 2}))
    obs, _ = play(game, {"type": "set_base_pt", "object": "bears", "power": 0, "toughness": 0})
    assert pt(obs, "bears") == (2, 2)
    assert obs["objects"]["bears"]["zone"] == "battlefield"
    assert obs["objects"]["bears"]["counters"] == {"+1/+1": 2}


# ---------------------------------------------------------------- layer 7d


def test_switching_applies_after_counters_whatever_the_timestamps():
    """CR 613.4d: layer 7d (switch) after 7c (modifying effects and counters), in every case.
    The switch starts first; a +1/+0 counter put on later still applies before it:
    2/2 +1/+0 = 3/2, switched 2/3. Then base 0/4 (7b): 0/4 +1/+0 = 1/4, switched 4/1."""
    game = new_game(obj("bears", "Grizzly Bears"))
    play(game, {"type": "switch_pt", "object": "bears"})
    obs, _ = play(game, {"type": "add_counters", "object": "bears", "kind": "+1/+0", "amount": 1})
    assert obs["log"] == [{"kind": "counters_added", "object": "bears", "counter": "+1/+0", "amount": 1}]
    assert pt(obs, "bears") == (2, 3)
    obs, _ = play(game, {"type": "set_base_pt", "object": "bears", "power": 0, "toughness": 4})
    assert pt(obs, "bears") == (4, 1)
    obs, _ = play(game, {"type": "switch_pt", "object": "bears"})
    assert pt(obs, "bears") == (1, 4)  # two switches cancel out


def test_giant_growth_after_a_switch_still_applies_before_it():
    """CR 613.4c/d and the ruling's "whenever they started": Giant Growth after a switch on
    an Octopus Umbra creature with a +0/+1 counter: 8/8 +3/+3 +0/+1 = 11/12, switched 12/11."""
    game = new_game(obj("bears", "Grizzly Bears", counters={"+0/+1": 1}), aura("octo", "Octopus Umbra", "bears"))
    play(game, {"type": "switch_pt", "object": "bears"})
    obs, _ = play(game, cast("Giant Growth", "bears"))
    assert pt(obs, "bears") == (12, 11)


# --------------------------------------------------------------- counters


def test_plus_and_minus_counters_annihilate_as_a_state_based_action():
    """CR 704.5q, 122.3: "N +1/+1 and N -1/-1 counters are removed from it, where N is the
    smaller". Two +1/+1 counters, then three -1/-1 counters: one -1/-1 counter is left."""
    game = new_game(obj("bears", "Grizzly Bears", counters={"+1/+1": 2}))
    obs, _ = play(game, {"type": "add_counters", "object": "bears", "kind": "-1/-1", "amount": 3})
    assert obs["objects"]["bears"]["counters"] == {"-1/-1": 1}
    assert pt(obs, "bears") == (1, 1)
    assert obs["log"] == [
        {"kind": "counters_added", "object": "bears", "counter": "-1/-1", "amount": 3},
        {"kind": "counters_removed", "object": "bears", "rule": "704.5q", "amount": 2},
    ]


def test_asymmetric_counters_do_not_annihilate():
    """CR 704.5q names +1/+1 and -1/-1 counters only: +1/+0 and -0/-1 counters stay."""
    game = new_game(obj("bears", "Grizzly Bears", counters={"+1/+0": 1}))
    obs, _ = play(game, {"type": "add_counters", "object": "bears", "kind": "-0/-1", "amount": 1})
    assert obs["objects"]["bears"]["counters"] == {"+1/+0": 1, "-0/-1": 1}
    assert pt(obs, "bears") == (3, 1)
    assert [e["kind"] for e in obs["log"]] == ["counters_added"]


def test_umbra_armor_removes_damage_never_counters():
    """CR 702.89a: umbra armor "remove[s] all damage marked on it"; counters stay (CR 122).
    Grizzly Bears with a +1/+1 counter, 2 damage and Hyena Umbra (4/4): Murder destroys the
    Aura instead; the bears keep the counter (3/3) and have no damage."""
    game = new_game(obj("bears", "Grizzly Bears", counters={"+1/+1": 1}, damage=2),
                    aura("hyena", "Hyena Umbra", "bears"))
    obs, _ = play(game, cast("Murder", "bears", by="P2"))
    bears = obs["objects"]["bears"]
    assert (bears["zone"], bears["damage"], bears["counters"]) == ("battlefield", 0, {"+1/+1": 1})
    assert pt(obs, "bears") == (3, 3)


def test_an_anthem_affects_the_creatures_controlled_as_it_resolves():
    """CR 611.2c: a continuous effect from a resolving spell that modifies characteristics
    affects only the objects determined as it resolves. "Creatures you control get +1/+1
    until end of turn" (layer 7c): P1's bears 3/3, P2's rats unaffected, a creature P1 puts
    onto the battlefield later unaffected; cleanup ends it (CR 514.2)."""
    game = new_game(obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats", owner="P2"))
    obs, _ = play(game, {"type": "create_effect", "affects": "creatures_you_control", "controller": "P1",
                         "power": 1, "toughness": 1})
    assert (pt(obs, "bears"), pt(obs, "rats")) == ((3, 3), (1, 1))
    obs, _ = play(game, put("later", "Grizzly Bears"))
    assert pt(obs, "later") == (2, 2)
    assert obs["objects"]["later"]["pt_effects"] == []
    obs, _ = play(game, {"type": "cleanup"})
    assert pt(obs, "bears") == (2, 2)


# ------------------------------------------------------ Penumbra Umbra's copy


def _penumbra_board():
    return (
        obj("bears", "Grizzly Bears", tapped=True, damage=1, counters={"+1/+1": 2}, combat="attacking"),
        aura("octo", "Octopus Umbra", "bears"), aura("hyena", "Hyena Umbra", "bears"),
        aura("pen", "Penumbra Umbra", "bears"),
    )


def test_penumbra_token_copies_exactly_the_printed_values_except_colour():
    """Penumbra Umbra ruling (2024-11-08): "Except for its color, the token copies exactly
    what was printed on the original creature and nothing else ... It doesn't copy whether
    that creature is tapped or untapped, whether it has any counters on it or Auras and
    Equipment attached to it, and so on." CR 707.2, 707.9b.

    Tapped, attacking Grizzly Bears with 1 damage, two +1/+1 counters, Giant Growth,
    Octopus Umbra and Hyena Umbra (8/8 +3/+3 +2/+2 +1/+1 = 14/14). Murder: P1 chooses Penumbra Umbra for umbra
    armor; its trigger creates "pen.token": a black 2/2 Grizzly Bears, untapped, not in
    combat, no damage, counters, Auras or effects, P1's token."""
    game = new_game(*_penumbra_board())
    obs, _ = play(game, cast("Giant Growth", "bears"))
    assert pt(obs, "bears") == (14, 14)
    bears_copiable = copiable_of(obs, "bears")
    obs, asked = play(game, cast("Murder", "bears", by="P2"), "umbra armor:pen")
    assert asked == [("P1", "replacement_effect", ["umbra armor:octo", "umbra armor:hyena", "umbra armor:pen"])]
    assert obs["log"] == [
        {"kind": "replacement", "effect": "umbra armor", "source": "pen", "affected": "bears"},
        {"kind": "damage_removed", "object": "bears", "amount": 1},
        {"kind": "zone_change", "object": "pen", "from": "battlefield", "to": "graveyard",
         "cause": {"event": "destroy", "by": "Murder"}},
        {"kind": "trigger", "source": "pen", "ability": "put into a graveyard", "controller": "P1"},
        {"kind": "zone_change", "object": "pen.token", "from": None, "to": "battlefield",
         "cause": created("pen", "bears")},
    ]
    token = obs["objects"]["pen.token"]
    assert token["copiable"] == except_black(bears_copiable)
    assert (token["name"], token["colors"], token["types"], token["subtypes"]) == (
        "Grizzly Bears", ["B"], ["Creature"], ["Bear"])
    assert (token["power"], token["toughness"], token["mana_value"]) == (2, 2, 2)
    assert (token["tapped"], token["combat"], token["damage"], token["counters"], token["pt_effects"]) == (
        False, None, 0, {}, [])
    assert (token["token"], token["owner"], token["controller"], token["summoning_sick"]) == (True, "P1", "P1", True)
    assert not [a for a, o in obs["objects"].items() if o["attached_to"] == "pen.token"]
    assert obs["objects"]["bears"]["tapped"] is True  # the original is unchanged


def test_copy_of_a_token_copies_the_tokens_original_characteristics():
    """Penumbra Umbra ruling: "If the copied creature is a token, the new token that's
    created copies the original characteristics of that token". CR 111.3: a token's
    characteristics are those the creating effect defined (Raise the Alarm: a 1/1 white
    Soldier creature token, named "Soldier Token", CR 111.4).

    Cackling Counterpart copies a Soldier token with Giant Growth and a +1/+1 counter: a
    1/1 white Soldier Token."""
    game = new_game()
    obs, _ = play(game, cast("Raise the Alarm", token_ids=["s1", "s2"]))
    assert moves(obs) == [("s1", None, "battlefield", created("Raise the Alarm")),
                          ("s2", None, "battlefield", created("Raise the Alarm"))]
    soldier = obs["objects"]["s1"]
    assert (soldier["name"], soldier["colors"], soldier["subtypes"], pt(obs, "s1")) == (
        "Soldier Token", ["W"], ["Soldier"], (1, 1))
    play(game, cast("Giant Growth", "s1"))
    play(game, {"type": "add_counters", "object": "s1", "kind": "+1/+1", "amount": 1})
    obs, asked = play(game, cast("Cackling Counterpart", "s1", token_ids=["cc"]))
    assert asked == []
    assert moves(obs) == [("cc", None, "battlefield", created("Cackling Counterpart", "s1"))]
    cc = obs["objects"]["cc"]
    assert (cc["name"], cc["colors"], pt(obs, "cc"), cc["counters"], cc["token"]) == (
        "Soldier Token", ["W"], (1, 1), {}, True)
    assert cc["copiable"] == copiable_of(obs, "s1")


def test_penumbra_copy_of_a_token_that_ceased_to_exist():
    """Penumbra Umbra rulings: a copy of a token copies its original characteristics; "If the
    enchanted creature is no longer on the battlefield ..., use its copiable values as it
    last existed on the battlefield" (CR 608.2h), even after the token ceased to exist
    (CR 704.5d). Penumbra Umbra on a Soldier token with a +1/+1 counter; the token is
    sacrificed: the Aura goes by 704.5m and the trigger makes a black 1/1 Soldier Token."""
    game = new_game()
    play(game, cast("Raise the Alarm", token_ids=["s1", "s2"]))
    play(game, {"type": "add_counters", "object": "s1", "kind": "+1/+1", "amount": 1})
    play(game, put_aura("pen", "Penumbra Umbra", "s1"))
    obs, asked = play(game, {"type": "sacrifice", "object": "s1"})
    assert asked == []
    assert moves(obs) == [
        ("s1", "battlefield", "graveyard", {"event": "sacrifice", "by": "P1"}),
        ("s1", "graveyard", None, sba("704.5d")),
        ("pen", "battlefield", "graveyard", sba("704.5m")),
        ("pen.token", None, "battlefield", created("pen", "s1")),
    ]
    token = obs["objects"]["pen.token"]
    assert (token["name"], token["colors"], pt(obs, "pen.token"), token["counters"]) == (
        "Soldier Token", ["B"], (1, 1), {})


def test_a_copy_of_penumbra_umbras_token_is_black():
    """CR 707.9b: the exception of a copy effect ("except the token is black") becomes part
    of the copy's copiable values; Penumbra Umbra ruling: a copy of a token copies its
    original characteristics. Cackling Counterpart and Clone copying Penumbra Umbra's
    token are black Grizzly Bears too."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("pen", "Penumbra Umbra", "bears"))
    play(game, {"type": "sacrifice", "object": "pen"})
    obs, _ = play(game, cast("Cackling Counterpart", "pen.token", token_ids=["cc"]))
    assert (obs["objects"]["cc"]["name"], obs["objects"]["cc"]["colors"]) == ("Grizzly Bears", ["B"])
    obs, _ = play(game, put("clone", "Clone", copy_of="cc"))
    assert moves(obs) == [("clone", None, "battlefield", {"event": "put_onto_battlefield", "copy_of": "cc"})]
    clone = obs["objects"]["clone"]
    assert (clone["name"], clone["colors"], pt(obs, "clone"), clone["token"]) == ("Grizzly Bears", ["B"], (2, 2), False)


def test_penumbra_copy_of_a_clone_copies_what_the_clone_copies():
    """Penumbra Umbra ruling: "If the copied creature is copying something else, then the
    token enters the battlefield as whatever that creature copied, with the exception
    noted above." CR 707.3 (a copy of a copy). Clone entered as a copy of Grizzly Bears;
    Penumbra Umbra on the Clone; Murder on the Clone: the token is a black Grizzly Bears
    2/2, not a 0/0 Clone."""
    game = new_game(obj("bears", "Grizzly Bears", owner="P2"))
    obs, _ = play(game, put("clone", "Clone", copy_of="bears"))
    assert (obs["objects"]["clone"]["name"], pt(obs, "clone"), obs["objects"]["clone"]["colors"]) == (
        "Grizzly Bears", (2, 2), ["G"])
    play(game, put_aura("pen", "Penumbra Umbra", "clone"))
    obs, _ = play(game, cast("Murder", "clone", by="P2"))
    token = obs["objects"]["pen.token"]
    assert (token["name"], token["colors"], pt(obs, "pen.token")) == ("Grizzly Bears", ["B"], (2, 2))
    assert token["copiable"]["mana_cost"] == "{1}{G}"


def test_clone_of_a_clone_copies_what_it_copies():
    """CR 707.3: "Objects that copy the object will use the new copiable values." A second
    Clone copying the first (a copy of Grizzly Bears) is a Grizzly Bears."""
    game = new_game(obj("bears", "Grizzly Bears"))
    play(game, put("clone", "Clone", copy_of="bears"))
    obs, _ = play(game, put("clone2", "Clone", controller="P2", copy_of="clone"))
    assert obs["objects"]["clone2"]["copiable"] == copiable_of(obs, "bears")
    assert (obs["objects"]["clone2"]["name"], pt(obs, "clone2")) == ("Grizzly Bears", (2, 2))


def test_a_copy_does_not_copy_octopus_umbras_8_8():
    """CR 707.2: "Other effects ... are not copied": Clone copying Grizzly Bears enchanted by
    Octopus Umbra (8/8) and with Giant Growth is a 2/2."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("octo", "Octopus Umbra", "bears"))
    play(game, cast("Giant Growth", "bears"))
    obs, _ = play(game, put("clone", "Clone", copy_of="bears"))
    assert (pt(obs, "bears"), pt(obs, "clone")) == ((11, 11), (2, 2))


def test_penumbra_uses_last_known_information_when_the_creature_is_gone():
    """Penumbra Umbra ruling: "If the enchanted creature is no longer on the battlefield when
    Penumbra Umbra's second ability resolves, use its copiable values as it last existed
    on the battlefield." CR 608.2h, 603.10a. Clone copying Grizzly Bears with Penumbra
    Umbra is sacrificed: in the graveyard it is a Clone again, but the token is a black
    Grizzly Bears, its copiable values as it last existed."""
    game = new_game(obj("bears", "Grizzly Bears"))
    play(game, put("clone", "Clone", copy_of="bears"))
    play(game, put_aura("pen", "Penumbra Umbra", "clone"))
    obs, _ = play(game, {"type": "sacrifice", "object": "clone"})
    assert obs["objects"]["clone"]["zone"] == "graveyard"
    assert obs["objects"]["clone"]["name"] == "Clone"
    token = obs["objects"]["pen.token"]
    assert (token["name"], token["colors"], pt(obs, "pen.token")) == ("Grizzly Bears", ["B"], (2, 2))


def test_two_penumbra_triggers_are_ordered_by_their_controller():
    """CR 603.3b: abilities that triggered at once are put on the stack in the order their
    controller chooses; the last one put on the stack resolves first. Wrath of God: umbra
    armor destroys both Penumbra Umbras instead; P1 puts pen2's trigger first, so pen1's
    token is created first."""
    game = new_game(obj("b1", "Grizzly Bears"), aura("pen1", "Penumbra Umbra", "b1"),
                    obj("b2", "Typhoid Rats"), aura("pen2", "Penumbra Umbra", "b2"))
    obs, asked = play(game, cast("Wrath of God", by="P2"), "put into a graveyard:pen2")
    assert asked == [("P1", "trigger_order", ["put into a graveyard:pen1", "put into a graveyard:pen2"])]
    assert [m[0] for m in moves(obs) if m[1] is None] == ["pen1.token", "pen2.token"]
    assert obs["objects"]["pen2.token"]["name"] == "Typhoid Rats"
    assert obs["objects"]["pen2.token"]["keywords"] == ["deathtouch"]


# ------------------------------------------------------------------- X (107.3m)


def test_enters_with_x_counters_uses_the_spells_x():
    """CR 107.3m: an enters-with ability that refers to X uses the X of the spell that became
    the permanent, "although the value of X for that permanent is 0" (107.3g: mana value
    with X = 0). Hangarback Walker cast with X = 3; Hydroid Krasis with X = 1 (with X >= 2 its
    cast trigger, which the engine does not model, would gain life and draw cards: declined)."""
    game = new_game()
    obs, _ = play(game, put("hw", "Hangarback Walker", x=3))
    assert obs["log"][1:] == [{"kind": "counters_added", "object": "hw", "counter": "+1/+1", "amount": 3}]
    assert (pt(obs, "hw"), obs["objects"]["hw"]["mana_value"]) == ((3, 3), 0)
    obs, _ = play(game, put("krasis", "Hydroid Krasis", x=1))
    krasis = obs["objects"]["krasis"]
    assert (pt(obs, "krasis"), krasis["mana_value"], krasis["keywords"]) == ((1, 1), 2, ["flying", "trample"])
    obs, _ = play(game, put("one", "Endless One"))  # not cast: X is 0
    assert obs["objects"]["one"]["zone"] == "graveyard"


def test_a_copy_of_a_creature_cast_with_x_has_x_0():
    """Penumbra Umbra ruling: "If the copied creature has {X} in its mana cost, X is
    considered to be 0." CR 107.3m, 707.5 ("enters with" abilities of the copy apply).
    Cackling Counterpart copies Hangarback Walker (X = 3): the token enters with no
    counter, is a 0/0 and dies (704.5f); its dies ability triggers with no counters, so no
    Thopter; the token ceases to exist."""
    game = new_game()
    play(game, put("hw", "Hangarback Walker", x=3))
    obs, asked = play(game, cast("Cackling Counterpart", "hw", token_ids=["cc"]))
    assert asked == []
    assert obs["log"] == [
        {"kind": "zone_change", "object": "cc", "from": None, "to": "battlefield",
         "cause": created("Cackling Counterpart", "hw")},
        {"kind": "zone_change", "object": "cc", "from": "battlefield", "to": "graveyard", "cause": sba("704.5f")},
        {"kind": "trigger", "source": "cc", "ability": "dies", "controller": "P1"},
        {"kind": "zone_change", "object": "cc", "from": "graveyard", "to": None, "cause": sba("704.5d")},
    ]
    assert pt(obs, "hw") == (3, 3)


def test_penumbra_copy_of_endless_one_has_x_0():
    """Penumbra Umbra ruling (X is 0) with its trigger: Endless One cast with X = 2 and
    Penumbra Umbra; Murder: Penumbra Umbra is destroyed instead, its token copy of Endless
    One enters with no counters and is put into the graveyard (704.5f)."""
    game = new_game()
    play(game, put("one", "Endless One", x=2))
    play(game, put_aura("pen", "Penumbra Umbra", "one"))
    obs, _ = play(game, cast("Murder", "one", by="P2"))
    assert ("pen.token", None, "battlefield", created("pen", "one")) in moves(obs)
    assert ("pen.token", "battlefield", "graveyard", sba("704.5f")) in moves(obs)
    assert "pen.token" not in obs["objects"]
    assert pt(obs, "one") == (2, 2)


def test_clone_of_a_creature_cast_with_x_enters_with_none():
    """CR 707.5: "enters with" abilities of the copied object apply to a Clone, and CR
    107.3m: Clone was not cast with X, so X is 0: a Clone of Stonecoil Serpent (X = 2) is
    a 0/0 and dies."""
    game = new_game()
    play(game, put("snake", "Stonecoil Serpent", x=2))
    obs, _ = play(game, put("clone", "Clone", copy_of="snake"))
    assert ("clone", "battlefield", "graveyard", sba("704.5f")) in moves(obs)
    assert [e for e in obs["log"] if e["kind"] == "counters_added"] == []


def test_hangarback_walker_dies_and_makes_a_thopter_per_counter():
    """Hangarback Walker: "When this dies, create a 1/1 colorless Thopter artifact creature
    token with flying for each +1/+1 counter on it": it uses its counters as it last
    existed (CR 603.10a, 608.2h). Token ids are the source's id plus ``.thopter<n>``.
    A copy of a Thopter token is a Thopter (CR 111.3)."""
    game = new_game()
    play(game, put("hw", "Hangarback Walker", x=2))
    play(game, {"type": "add_counters", "object": "hw", "kind": "+1/+1", "amount": 1})
    obs, _ = play(game, cast("Murder", "hw", by="P2"))
    thopters = [m[0] for m in moves(obs) if m[1] is None]
    assert thopters == ["hw.thopter1", "hw.thopter2", "hw.thopter3"]
    thopter = obs["objects"]["hw.thopter1"]
    assert (thopter["name"], thopter["types"], thopter["colors"], thopter["keywords"], pt(obs, "hw.thopter1")) == (
        "Thopter Token", ["Artifact", "Creature"], [], ["flying"], (1, 1))
    obs, _ = play(game, cast("Cackling Counterpart", "hw.thopter1", token_ids=["cc"]))
    assert obs["objects"]["cc"]["copiable"] == copiable_of(obs, "hw.thopter1")


# -------------------------------------------------------- enters abilities


def test_enters_abilities_of_penumbra_umbras_token_trigger():
    """Penumbra Umbra ruling: "Any enters abilities of the copied creature will trigger when
    the token enters the battlefield." CR 603.6a, 603.3d (targets are chosen as the
    ability is put on the stack). Penumbra Umbra on Nekrataal is sacrificed: the token
    Nekrataal's ability triggers; P1 targets P2's River Boa, which is destroyed although
    it has a regeneration shield ("It can't be regenerated")."""
    game = new_game(obj("nek", "Nekrataal"), aura("pen", "Penumbra Umbra", "nek"),
                    obj("boa", "River Boa", owner="P2", regeneration_shields=1), obj("bears", "Grizzly Bears",
                                                                                    owner="P2"))
    obs, asked = play(game, {"type": "sacrifice", "object": "pen"}, "boa")
    assert asked == [("P1", "target", ["boa", "bears"])]
    assert obs["log"] == [
        {"kind": "zone_change", "object": "pen", "from": "battlefield", "to": "graveyard",
         "cause": {"event": "sacrifice", "by": "P1"}},
        {"kind": "trigger", "source": "pen", "ability": "put into a graveyard", "controller": "P1"},
        {"kind": "zone_change", "object": "pen.token", "from": None, "to": "battlefield",
         "cause": created("pen", "nek")},
        {"kind": "trigger", "source": "pen.token", "ability": "enters", "controller": "P1"},
        {"kind": "zone_change", "object": "boa", "from": "battlefield", "to": "graveyard",
         "cause": {"event": "destroy", "by": "Nekrataal"}},
    ]
    assert obs["objects"]["boa"]["zone"] == "graveyard"


def test_nekrataal_trigger_without_legal_target_is_removed():
    """CR 603.3d: a triggered ability with no legal target is removed from the stack. Only
    black and artifact creatures: Clone copying Nekrataal triggers and does nothing."""
    game = new_game(obj("nek", "Nekrataal"), obj("myr", "Darksteel Myr", owner="P2"))
    obs, asked = play(game, put("clone", "Clone", copy_of="nek"))
    assert asked == []
    assert obs["log"][1:] == [
        {"kind": "trigger", "source": "clone", "ability": "enters", "controller": "P1"},
        {"kind": "trigger_removed", "source": "clone", "reason": "no legal target"},
    ]


def test_clone_of_goblin_engineer_searches_the_library():
    """CR 707.5: "any enters-the-battlefield triggered abilities of the copy will have a
    chance to trigger". Clone copying Goblin Engineer: "you may search your library for
    an artifact card, put it into your graveyard" (P1 chooses Darksteel Myr; Grizzly Bears
    is not an artifact)."""
    game = new_game(obj("eng", "Goblin Engineer"), obj("myr", "Darksteel Myr", zone="library"),
                    obj("lib", "Grizzly Bears", zone="library"), obj("hw", "Hangarback Walker", owner="P2",
                                                                     zone="library"))
    obs, asked = play(game, put("clone", "Clone", copy_of="eng"), "myr")
    assert asked == [("P1", "search", ["nothing", "myr"])]
    assert moves(obs)[-1] == ("myr", "library", "graveyard", {"event": "search", "by": "Goblin Engineer"})
    assert obs["zones"]["graveyard"]["P1"] == ["myr"]


# -------------------------------------------------- copies and other rules


def test_a_clone_of_a_legend_is_legendary():
    """CR 707.2: the supertype is copied, so the legend rule (704.5j) applies to a Clone of
    Isamaru; P1 chooses which one stays."""
    game = new_game(obj("isamaru", "Isamaru, Hound of Konda"))
    obs, asked = play(game, put("clone", "Clone", copy_of="isamaru"), "clone")
    assert asked == [("P1", "legend_rule", ["isamaru", "clone"])]
    assert obs["objects"]["isamaru"]["zone"] == "graveyard"


def test_a_clone_of_umbra_mystic_grants_umbra_armor():
    """CR 707.2a: "A copy acquires the abilities of the object it's copying". A Clone of
    P2's Umbra Mystic, controlled by P1, gives umbra armor to Auras on P1's permanents."""
    game = new_game(obj("mystic", "Umbra Mystic", owner="P2"), obj("bears", "Grizzly Bears"),
                    aura("dog", "Dog Umbra", "bears", owner="P2"))
    assert "umbra armor" not in game.observe()["objects"]["dog"]["keywords"]
    obs, _ = play(game, put("clone", "Clone", copy_of="mystic"))
    assert "umbra armor" in obs["objects"]["dog"]["keywords"]


def test_a_clone_that_copies_nothing_is_a_0_0():
    """Clone: "You may have this creature enter as a copy": without a choice it is itself,
    a 0/0, and is put into the graveyard (704.5f)."""
    obs, _ = play(new_game(), put("clone", "Clone"))
    assert obs["objects"]["clone"]["zone"] == "graveyard"


# ------------------------------------------------------------- illegal events


def _illegal_board():
    return (
        obj("bears", "Grizzly Bears"), aura("octo", "Octopus Umbra", "bears"),
        obj("rats", "Typhoid Rats", owner="P2"), obj("dead", "Grizzly Bears", zone="graveyard"),
    )


ILLEGAL = [
    ({"type": "add_counters", "object": "bears", "kind": "charge", "amount": 1}, "bad_event"),
    ({"type": "add_counters", "object": "bears", "kind": "+1/+1", "amount": 0}, "bad_event"),
    ({"type": "add_counters", "object": "dead", "kind": "+1/+1", "amount": 1}, "not_on_battlefield"),
    ({"type": "set_base_pt", "object": "bears", "power": -1, "toughness": 1}, "bad_event"),
    ({"type": "set_base_pt", "object": "octo", "power": 1, "toughness": 1}, "illegal_target"),
    ({"type": "switch_pt", "object": "octo"}, "illegal_target"),
    ({"type": "switch_pt", "object": "ghost"}, "no_such_object"),
    ({"type": "create_effect", "affects": "all_creatures", "controller": "P1", "power": 1, "toughness": 1},
     "bad_event"),
    ({"type": "create_effect", "affects": "creatures_you_control", "controller": "P3", "power": 1,
      "toughness": 1}, "bad_event"),
    (cast("Cackling Counterpart", "rats", token_ids=["t"]), "illegal_target"),
    (cast("Cackling Counterpart", "bears", token_ids=["rats"]), "bad_event"),
    (cast("Cackling Counterpart", "bears"), "bad_event"),
    (cast("Cackling Counterpart", "bears", token_ids=["a", "b"]), "bad_event"),
    (cast("Raise the Alarm", token_ids=["a", "a"]), "bad_event"),
    (cast("Raise the Alarm", "bears", token_ids=["a", "b"]), "illegal_target"),
    (put("new", "Grizzly Bears", x=2), "bad_event"),
    (put("new", "Hangarback Walker", x=-1), "bad_event"),
    (put("new", "Grizzly Bears", copy_of="bears"), "bad_event"),
    (put("new", "Clone", copy_of="octo"), "illegal_target"),
    (put("new", "Clone", copy_of="dead"), "not_on_battlefield"),
    (put("new", "Mirror Image", copy_of="rats"), "illegal_choice"),
    (put("new", "Clone", copy_of="bears", x=1), "bad_event"),
    (put_aura("new", "Penumbra Umbra", "rats"), "illegal_attachment"),
]


@pytest.mark.parametrize("event, reason", ILLEGAL, ids=[f"{i}-{r}" for i, (_, r) in enumerate(ILLEGAL)])
def test_illegal_events_change_nothing(event, reason):
    """Engine protocol: an illegal event raises IllegalAction with a reason code and leaves
    the game unchanged. Penumbra Umbra is "Enchant creature you control" (CR 303.4a);
    Mirror Image copies "a creature you control"; Cackling Counterpart targets "creature
    you control"; new ids must be unused; only cards with {X} take an X."""
    game = new_game(*_illegal_board())
    play(game, cast("Shock", "P2"))
    before = copy.deepcopy(game.observe())
    with pytest.raises(IllegalAction) as info:
        game.apply(event, Decider())
    assert info.value.reason == reason
    assert game.observe() == before


# ------------------------------------------------------------ observation


def test_observation_fields_for_layers_and_copies_are_plain_json():
    """harness.protocol: per object ``mana_value`` (CR 202.3, X = 0), ``copiable`` (creatures on
    the battlefield: copiable values, CR 707.2; null otherwise) and ``pt_effects`` (layer,
    amounts, source, duration, in timestamp order)."""
    game = new_game(obj("bears", "Grizzly Bears", counters={"+1/+0": 1}), aura("boar", "Boar Umbra", "bears"),
                    obj("card", "Murder", zone="hand"))
    obs = game.observe()
    bears = obs["objects"]["bears"]
    assert bears["copiable"] == {"name": "Grizzly Bears", "mana_cost": "{1}{G}", "supertypes": [],
                                 "types": ["Creature"], "subtypes": ["Bear"], "colors": ["G"], "keywords": [],
                                 "power": 2, "toughness": 2}
    assert bears["pt_effects"] == [{"layer": "7c", "power": 3, "toughness": 3, "source": "boar",
                                    "until_end_of_turn": False}]
    assert (bears["mana_value"], pt(obs, "bears")) == (2, (6, 5))
    assert obs["objects"]["boar"]["copiable"] is None and obs["objects"]["card"]["copiable"] is None
    assert obs["objects"]["card"]["mana_value"] == 3
    assert json.loads(json.dumps(obs)) == obs


# ------------------------------------------------- the harness: invariants


def _session(engine, board_spec, events):
    """Run ``events`` (each ``(event, [answers])``) through a harness Session; return its violations."""
    import invariants
    from harness.running.decider import ReplayDecider
    from harness.running.execution import Session

    caps = set(engine.info.capabilities)
    session = Session(engine, board_spec, invariants.select(caps))
    found = []
    for event, answers in events:
        decider = ReplayDecider([{"kind": kind, "answer": answer} for kind, answer in answers], strict=False)
        found += session.step(event, decider)
    return found


LAYER_INVARIANTS = [
    "layers.power_toughness_in_layer_order", "layers.later_setting_effect_wins",
    "layers.modifying_effects_and_counters_still_apply", "layers.resolved_effects_affect_a_fixed_set",
    "layers.until_end_of_turn_effects_end", "counters.change_only_by_counter_events",
    "counters.umbra_armor_removes_damage_not_counters", "copies.copiable_values_only",
    "copies.status_counters_and_auras_not_copied", "copies.x_is_zero", "copies.enters_abilities_trigger",
    "copies.penumbra_umbra_copies_the_enchanted_creature",
]


def test_new_invariants_are_registered_with_their_rules_and_rulings():
    """Every ruling of Octopus Umbra and Penumbra Umbra about layers and copies is encoded by
    at least one registered invariant, which cites CR rules; ``rulesfuzz invariants``
    lists them."""
    from harness.interfaces.cli import main
    from invariants import REGISTRY, ruling_text

    for name in LAYER_INVARIANTS:
        assert REGISTRY[name].rules, name
    rulings = json.loads((ROOT / "invariants" / "data" / "rulings.json").read_text(encoding="utf-8"))
    about = [r["text"] for r in rulings if r["card"] in ("Octopus Umbra", "Penumbra Umbra")
             and "umbra armor" not in r["text"].lower() and "playtest" not in r["text"].lower()]
    assert len(about) == 8
    encoded = {ruling_text(key) for name in LAYER_INVARIANTS for key in REGISTRY[name].rulings}
    assert [text for text in about if text not in encoded] == []
    assert main(["invariants"]) == 0


SCENARIOS = {
    # name: (board objects, [(event, [(decision kind, answer)])])
    "octopus_and_setting_effects": (
        [obj("bears", "Grizzly Bears", counters={"+1/+0": 1}), obj("b2", "Grizzly Bears")],
        [(put_aura("octo", "Octopus Umbra", "bears"), []),
         ({"type": "set_base_pt", "object": "b2", "power": 1, "toughness": 1}, []),
         ({"type": "switch_pt", "object": "bears"}, []),
         ({"type": "set_base_pt", "object": "bears", "power": 0, "toughness": 3}, []),
         ({"type": "attach", "aura": "octo", "to": "b2"}, []),
         ({"type": "add_counters", "object": "b2", "kind": "-1/-1", "amount": 1}, []),
         ({"type": "cleanup"}, [])],
    ),
    "penumbra_copies": (
        [obj("bears", "Grizzly Bears", counters={"+1/+1": 2}, tapped=True), aura("pen", "Penumbra Umbra", "bears"),
         aura("hyena", "Hyena Umbra", "bears")],
        [(cast("Giant Growth", "bears"), []),
         (cast("Murder", "bears", by="P2"), [("replacement_effect", "umbra armor:pen")]),
         (cast("Cackling Counterpart", "pen.token", token_ids=["cc"]), []),
         (put("clone", "Clone", copy_of="cc"), []),
         (put_aura("pen2", "Penumbra Umbra", "clone"), []),
         ({"type": "sacrifice", "object": "clone"}, [])],
    ),
    "x_and_enters": (
        [obj("eng", "Goblin Engineer"), obj("myr", "Darksteel Myr", zone="library")],
        [(put("hw", "Hangarback Walker", x=2), []),
         (cast("Cackling Counterpart", "hw", token_ids=["cc"]), []),
         (put("clone", "Clone", copy_of="eng"), [("search", "myr")]),
         (put_aura("pen", "Penumbra Umbra", "hw"), []),
         (cast("Murder", "hw", by="P2"), [])],
    ),
    "counters_and_umbra": (
        [obj("bears", "Grizzly Bears", counters={"+1/+1": 1}, damage=1), aura("hyena", "Hyena Umbra", "bears")],
        [({"type": "add_counters", "object": "bears", "kind": "-1/-1", "amount": 3}, []),
         ({"type": "add_counters", "object": "bears", "kind": "+1/+1", "amount": 4}, []),
         (cast("Murder", "bears", by="P2"), []),
         ({"type": "create_effect", "affects": "creatures_you_control", "controller": "P1", "power": 1,
           "toughness": 0}, [])],
    ),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_invariant_holds_on_the_reference_engine(name):
    """No false positive: every selected invariant holds after every event of these
    scenarios on the reference engine."""
    from harness.adapters.reference import ReferenceAdapter

    objects, events = SCENARIOS[name]
    assert _session(ReferenceAdapter(), board(*objects), events) == []


# Each mutant, a scenario that shows its bug, and the invariant that must catch it.
MUTANT_CASES = {
    "layers_counters_after_switch": ("octopus_and_setting_effects", "layers.power_toughness_in_layer_order"),
    "layers_counters_before_setting": ("octopus_and_setting_effects", "layers.power_toughness_in_layer_order"),
    "layers_aura_setting_always_wins": ("octopus_and_setting_effects", "layers.power_toughness_in_layer_order"),
    "layers_attach_keeps_timestamp": ("octopus_and_setting_effects", "layers.later_setting_effect_wins"),
    "layers_token_copies_counters": ("penumbra_copies", "copies.status_counters_and_auras_not_copied"),
    "layers_copy_uses_computed_pt": ("penumbra_copies", "copies.copiable_values_only"),
    "layers_copy_of_token_copies_card": ("penumbra_copies", "copies.copiable_values_only"),
    "layers_penumbra_no_last_known": ("penumbra_copies", "copies.penumbra_umbra_copies_the_enchanted_creature"),
    "layers_copy_keeps_x": ("x_and_enters", "copies.x_is_zero"),
    "layers_copy_enters_no_trigger": ("x_and_enters", "copies.enters_abilities_trigger"),
    "layers_annihilation_removes_all": ("counters_and_umbra", "counters.change_only_by_counter_events"),
    "layers_umbra_removes_counters": ("counters_and_umbra", "counters.umbra_armor_removes_damage_not_counters"),
}


@pytest.mark.parametrize("mutant", sorted(MUTANT_CASES))
def test_each_layers_mutant_is_caught_by_its_invariant(mutant):
    """The benchmark's layers mutants (tests/mutants/layers_*.py): the scenario that shows
    the bug violates the invariant that encodes the rule (and the reference passes it)."""
    import importlib

    scenario, expected = MUTANT_CASES[mutant]
    objects, events = SCENARIOS[scenario]
    engine = importlib.import_module(f"tests.mutants.{mutant}").engine
    found = {v.invariant for v in _session(engine, board(*objects), events)}
    assert expected in found, found


def test_the_state_machine_finds_no_violation_on_the_reference_engine():
    """A short fuzzing run with only the layers and copies invariants: no false positive."""
    from harness.adapters.reference import ReferenceAdapter
    from harness.running.runner import run

    result = run(ReferenceAdapter(), max_examples=40, seed=7, database=None, invariant_names=LAYER_INVARIANTS)
    assert result.violation is None, result.violation
    assert result.stats.applicable.get("copies.copiable_values_only", 0) > 0


def test_the_mana_value_of_a_cost_is_kept_by_its_text_only():
    """:func:`invariants.copies.mana_value` keeps each cost string's value (X = 0, CR 107.3g); what is not a
    string is worked out each time, as before (no look-up by a value that can't be a key)."""
    from invariants import copies

    assert copies.mana_value("{X}{2}{G}") == 3 == copies.mana_value("{X}{2}{G}")
    assert copies.mana_value("") == 0 and copies.mana_value(None) == 0  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected string"):
        copies.mana_value(["{X}"])  # type: ignore[arg-type]


def test_a_permanent_enters_with_the_status_a_forks_copiable_values_give_it():
    """A permanent enters summoning sick if it is a creature (CR 302.6) and tapped if its copiable
    values say "This enters tapped" (CR 614.1c), read through the game's ``copiable_values`` (layer 1,
    CR 707.2): with a fork's, which gives Grizzly Bears Tranquil Cove's values, the Bears enter
    tapped and not summoning sick; with this engine's, untapped and summoning sick."""
    class CoveValues(Game):
        def copiable_values(self, obj):
            return card("Tranquil Cove") if obj.card.name == "Grizzly Bears" else super().copiable_values(obj)

    event = {"type": "put_onto_battlefield", "id": "b", "card": "Grizzly Bears", "controller": "P1"}
    fork = CoveValues(board())
    fork.apply(event, Decider())
    entry = fork.observe()["objects"]["b"]
    assert (entry["tapped"], entry["summoning_sick"]) == (True, False)
    game = new_game()
    game.apply(event, Decider())
    entry = game.observe()["objects"]["b"]
    assert (entry["tapped"], entry["summoning_sick"]) == (False, True)
