"""Every registered invariant can pass and can fail, on minimal synthetic transitions.

For each invariant in :data:`invariants.REGISTRY`, :data:`CASES` holds a builder of a
transition where the property holds (``check`` returns ``[]``), a builder of one where it
is broken (``check`` returns messages), and a word the failure message must contain. The
tests iterate the registry, so an invariant registered without a case here fails a test.

Observations are plain dicts in the protocol's shape (``harness/protocol.py``), built by
:func:`observation` from a few object specs. Every "holds" transition is a correct step
of a correct engine, so :func:`test_a_correct_step_satisfies_every_invariant` also checks
it against all the other invariants. CR numbers are those of the rules effective
2025-02-07; rulings are quoted from ``invariants/data/rulings.json``.

Cards as observed (computed P/T): Grizzly Bears 2/2; Hyena Umbra gives +1/+1 and first
strike, Spider Umbra +1/+1 and reach, Boar Umbra +3/+3; River Boa 2/1 regenerates;
Darksteel Myr 0/1 indestructible; Typhoid Rats 1/1 deathtouch; Isamaru 2/2 legendary.

The layers, counters and copies cases (``invariants/layers_and_copies.py``) need the optional
observation fields (``copiable``, ``pt_effects``, ``mana_value``): :func:`seen` fills an
object's printed characteristics from the neutral card data (``cards``), and each case states,
with the rule, what its event changes. No expected value comes from running an engine. Their
broken transitions are those observations altered (:func:`with_after`).
"""

from __future__ import annotations

import copy
from typing import NamedTuple
from collections.abc import Callable

import pytest

import cards
from invariants import REGISTRY, Decision, ScenarioRun, Transition

from . import mana_invariant_cases
from .chance_cases import CASES as CHANCE_CASES
from .chance_cases import MORE_BROKEN as CHANCE_MORE_BROKEN
from .impostor_cases import CASES as IMPOSTOR_CASES
from .impostor_cases import MORE_BROKEN as IMPOSTOR_MORE_BROKEN
from .impostor_cases import MORE_HOLDS as IMPOSTOR_MORE_HOLDS
from .playtest_cases import CASES as PLAYTEST_CASES
from . import template_cases
from .observations import HIDDEN_ZONES, PLAYERS, card, observation, step  # noqa: F401
from . import cast_permanent_cases
from . import steps_cases  # noqa: E402  (invariants/steps.py, actions.py, game_amounts.py)
from . import zone_cases  # invariants/zone_changes.py
from . import stack_cases  # invariants/stack.py
from . import combat_cases  # invariants/combat.py

# --------------------------------------------------------------------------- observation builders


def creature(name: str = "Grizzly Bears", power: int = 2, toughness: int = 2, **fields) -> dict:
    return card(name, types=fields.pop("types", ["Creature"]), power=power, toughness=toughness, **fields)


def umbra(on: str, name: str = "Hyena Umbra", **fields) -> dict:
    """An Aura with umbra armor (CR 702.89a) attached to ``on``."""
    return card(name, types=["Enchantment"], subtypes=["Aura"], keywords=["umbra armor"], attached_to=on, **fields)


# A permanent put into its owner's graveyard is a new object with no permanent state (CR 400.7).
GRAVEYARD = {"zone": "graveyard", "attached_to": None, "damage": 0, "tapped": False, "combat": None}
BEARS_ALONE = {"power": 2, "toughness": 2, "keywords": []}  # Grizzly Bears once Hyena Umbra is gone

# --------------------------------------------------------------------------- events and log entries


def cast(name: str, *targets: str) -> dict:
    return {"type": "cast", "card": name, "controller": "P2", "targets": list(targets)}


def zone_change(oid: str, to: str | None = "graveyard", frm: str | None = "battlefield", **cause) -> dict:
    return {"kind": "zone_change", "object": oid, "from": frm, "to": to, "cause": cause}


def destroyed(oid: str, by: str) -> dict:
    return zone_change(oid, event="destroy", by=by)


def sba(oid: str, rule: str, frm: str = "battlefield", to: str | None = "graveyard") -> dict:
    return zone_change(oid, to, frm, event="state_based_action", rule=rule)


def umbra_replaces(aura: str, affected: str) -> dict:
    return {"kind": "replacement", "effect": "umbra armor", "source": aura, "affected": affected}


def dealt(source: str, target: str, amount: int, deathtouch: bool = False) -> dict:
    return {"kind": "damage", "source": source, "target": target, "amount": amount, "deathtouch": deathtouch}


def choice(options: tuple, answer: str, player: str = "P1") -> Decision:
    return Decision(player, "replacement_effect", options, answer)


MURDER = cast("Murder", "b")

# --------------------------------------------------------------------------- boards


def enchanted_bears(**bears) -> dict:
    """Grizzly Bears ``b`` enchanted by Hyena Umbra ``h``: a 3/3 with first strike."""
    return observation({
        "b": creature(power=3, toughness=3, keywords=["first strike"], colors=["G"], **bears),
        "h": umbra("b"),
    })


def bears_with_two_umbras() -> dict:
    """P1's Grizzly Bears ``b`` (4/4) enchanted by P2's Hyena Umbra ``h`` and P1's Spider Umbra ``s``."""
    return observation({
        "b": creature(power=4, toughness=4, keywords=["first strike", "reach"], colors=["G"]),
        "h": umbra("b", owner="P2"),
        "s": umbra("b", name="Spider Umbra"),
    })


def plain_bears(**bears) -> dict:
    return observation({"b": creature(colors=["G"], **bears)})


def saved(before: dict, by: str, *, prefix=(), dealt_now: int = 0, aura: str = "h", **creature_fields) -> dict:
    """``before`` after umbra armor saved ``b``: all damage removed, ``aura`` destroyed by ``by``
    instead (CR 702.89a), ``creature_fields`` the creature's new characteristics."""
    removed = before["objects"]["b"]["damage"] + dealt_now
    log = [*prefix, umbra_replaces(aura, "b")]
    log += [{"kind": "damage_removed", "object": "b", "amount": removed}] if removed else []
    log.append(destroyed(aura, by))
    return step(before, {"b": {"damage": 0, **creature_fields}, aura: GRAVEYARD}, log)


def died(before: dict, by: str, auras=("h",)) -> dict:
    """``before`` after ``b`` was destroyed by ``by``; its Auras follow by 704.5m."""
    return step(before, {"b": GRAVEYARD, **{a: GRAVEYARD for a in auras}},
                [destroyed("b", by), *(sba(a, "704.5m") for a in auras)])


# --------------------------------------------------------------------------- umbra armor (CR 702.89)


def murder_saves_bears() -> Transition:
    """Ruling (Hyena Umbra 2010-06-15): "Totem armor's effect is mandatory ... you must remove
    all damage from it and destroy the Aura ... instead" (CR 702.89a, 614.1a)."""
    before = enchanted_bears(damage=1)
    return Transition(before, MURDER, saved(before, "Murder", **BEARS_ALONE))


def murder_kills_enchanted_bears() -> Transition:
    """Broken CR 702.89a: Murder destroys the creature although it wears an umbra Aura."""
    before = enchanted_bears(damage=1)
    return Transition(before, MURDER, died(before, "Murder"))


def saved_but_damage_kept() -> Transition:
    """Broken CR 702.89a ("instead remove all damage marked on it"): the Aura went, the damage stayed."""
    before = enchanted_bears(damage=1)
    return Transition(before, MURDER, step(saved(before, "Murder", **BEARS_ALONE), {"b": {"damage": 1}}))


def dog_umbra_board(dog_controller: str, mystic: str | None = None, listed: bool = True) -> dict:
    """P1's Grizzly Bears ``b`` (2/2) with a Dog Umbra ``d`` controlled by ``dog_controller``
    ("As long as another player controls enchanted creature, it can't attack or block.
    Otherwise, this Aura has umbra armor."), and an Umbra Mystic ``m`` controlled by
    ``mystic`` if given ("Auras attached to permanents you control have umbra armor").
    ``listed``: whether the engine lists umbra armor among Dog Umbra's keywords."""
    objects = {"b": creature(colors=["G"]),
               "d": card("Dog Umbra", types=["Enchantment"], subtypes=["Aura"], attached_to="b", owner=dog_controller,
                         colors=["W"], keywords=["flash", "umbra armor"] if listed else ["flash"])}
    if mystic:
        objects["m"] = creature("Umbra Mystic", owner=mystic, colors=["W"])
    return observation(objects)


def dog_umbra_saves(dog_controller: str, mystic: str | None = None, listed: bool = True) -> Transition:
    """Murder on the Bears, saved by the Dog Umbra's umbra armor."""
    before = dog_umbra_board(dog_controller, mystic, listed)
    return Transition(before, MURDER, saved(before, "Murder", aura="d"))


TWO_UMBRAS = choice(("umbra armor:h", "umbra armor:s"), "umbra armor:h")


def one_of_two_umbras_destroyed(decisions=(TWO_UMBRAS,)) -> Transition:
    """Ruling (Umbra Mystic 2024-06-07): with several umbra Auras "one of those Auras is destroyed
    instead -- but only one of them. You choose which one" (CR 616.1, 616.1f)."""
    before = bears_with_two_umbras()
    after = saved(before, "Murder", power=3, toughness=3, keywords=["reach"])
    return Transition(before, MURDER, after, decisions=list(decisions))


def both_umbras_destroyed() -> Transition:
    """Broken CR 616.1f: after one umbra armor replaced the destruction, the other no longer applies."""
    before = bears_with_two_umbras()
    after = step(before, {"b": BEARS_ALONE, "h": GRAVEYARD, "s": GRAVEYARD},
                 [umbra_replaces("h", "b"), destroyed("h", "Murder"), umbra_replaces("s", "b"),
                  destroyed("s", "Murder")])
    return Transition(before, MURDER, after, decisions=[TWO_UMBRAS])


def shock_saved_aura_destroyed_by(by: str) -> Transition:
    """Shock deals lethal damage (1 + 2 >= 3) to the enchanted Bears; the Aura is destroyed by ``by``."""
    before = enchanted_bears(damage=1)
    after = saved(before, by, prefix=[dealt("Shock", "b", 2)], dealt_now=2, **BEARS_ALONE)
    return Transition(before, cast("Shock", "b"), after)


def deathtouch_board() -> dict:
    """Typhoid Rats ``r`` (P2, deathtouch) and the enchanted Bears with 2 damage marked."""
    before = enchanted_bears(damage=2)
    before["objects"]["r"] = creature("Typhoid Rats", 1, 1, owner="P2", colors=["B"], keywords=["deathtouch"])
    return observation(before["objects"])


RATS_HIT_BEARS = {"type": "damage", "source": "r", "target": "b", "amount": 1}


def deathtouch_lethal_saved() -> Transition:
    """Ruling (Umbra Mystic 2024-06-07): destroyed "by multiple state-based actions at the same time
    (... deathtouch ...), umbra armor's effect will replace all of them" (CR 704.5g, 704.5h, 704.3)."""
    before = deathtouch_board()
    after = saved(before, "704.5g", prefix=[dealt("r", "b", 1, deathtouch=True)], dealt_now=1, **BEARS_ALONE)
    return Transition(before, RATS_HIT_BEARS, after)


def deathtouch_lethal_kills() -> Transition:
    """Broken: umbra armor replaced only one of the two simultaneous state-based actions."""
    before = deathtouch_board()
    after = step(before, {"b": GRAVEYARD, "h": GRAVEYARD},
                 [dealt("r", "b", 1, deathtouch=True), destroyed("b", "704.5h"), sba("h", "704.5m")])
    return Transition(before, RATS_HIT_BEARS, after)


def deathtouch_ignored() -> Transition:
    """Broken CR 704.5h: 1 damage from Typhoid Rats (deathtouch) on the enchanted Bears (3/3, no
    damage): the Bears stay, damaged, their Aura untouched, and no replacement effect is logged."""
    before = enchanted_bears()
    before["objects"]["r"] = creature("Typhoid Rats", 1, 1, owner="P2", colors=["B"], keywords=["deathtouch"])
    before = observation(before["objects"])
    return Transition(before, RATS_HIT_BEARS, step(before, {"b": {"damage": 1}}, [dealt("r", "b", 1, True)]))


def rats_kill_bears() -> Transition:
    """Typhoid Rats deals 1 damage to a 2/2 Grizzly Bears: not lethal, but deathtouch (CR 702.2b, 704.5h)."""
    before = observation({"b": creature(colors=["G"]),
                          "r": creature("Typhoid Rats", 1, 1, owner="P2", colors=["B"], keywords=["deathtouch"])})
    after = step(before, {"b": GRAVEYARD}, [dealt("r", "b", 1, True), destroyed("b", "704.5h")])
    return Transition(before, RATS_HIT_BEARS, after)


def rats_hit_myr() -> Transition:
    """Typhoid Rats deals 1 damage to Darksteel Myr: indestructible, it isn't destroyed by 704.5h (CR 702.12b)."""
    before = observation({"m": creature("Darksteel Myr", 0, 1, types=["Artifact", "Creature"],
                                        keywords=["indestructible"]),
                          "r": creature("Typhoid Rats", 1, 1, owner="P2", colors=["B"], keywords=["deathtouch"])})
    event = {"type": "damage", "source": "r", "target": "m", "amount": 1}
    return Transition(before, event, step(before, {"m": {"damage": 1}}, [dealt("r", "m", 1, True)]))


DESTROY_BOTH = {"type": "destroy", "targets": ["b", "h"], "cant_be_regenerated": False}


def destroy_both_saves_creature() -> Transition:
    """Ruling (Hyena Umbra 2010-06-15): an effect that destroys both the creature and its umbra
    Aura saves the creature; "the result is the same as destroying [the Aura] once" (CR 701.7a)."""
    before = enchanted_bears()
    return Transition(before, DESTROY_BOTH, saved(before, "destroy effect", **BEARS_ALONE))


def destroy_both_kills_both() -> Transition:
    """Broken: the creature is destroyed along with its umbra Aura."""
    before = enchanted_bears()
    after = step(before, {"b": GRAVEYARD, "h": GRAVEYARD}, [destroyed("b", "destroy effect"),
                                                           destroyed("h", "destroy effect")])
    return Transition(before, DESTROY_BOTH, after)


def destroy_both_keeps_the_aura() -> Transition:
    """Broken: the creature is saved but the Aura the effect destroys stays on the battlefield."""
    before = enchanted_bears()
    return Transition(before, DESTROY_BOTH, step(before, {}, [umbra_replaces("h", "b")]))


def myr_board() -> dict:
    """Darksteel Myr ``m`` (indestructible) enchanted by Hyena Umbra: a 1/2."""
    return observation({
        "m": creature("Darksteel Myr", 1, 2, types=["Artifact", "Creature"],
                      keywords=["indestructible", "first strike"]),
        "h": umbra("m"),
    })


BOLT_MYR = cast("Lightning Bolt", "m")


def bolt_marks_damage_on_myr() -> Transition:
    """Ruling (Umbra Mystic 2024-06-07): with indestructible, "lethal damage and effects that try to
    destroy it simply have no effect. Umbra armor won't do anything" (CR 702.12b)."""
    before = myr_board()
    return Transition(before, BOLT_MYR, step(before, {"m": {"damage": 3}}, [dealt("Lightning Bolt", "m", 3)]))


def umbra_armor_applied_to_myr() -> Transition:
    """Broken CR 702.12b: the indestructible Myr lost its Aura and its damage as if umbra armor applied."""
    before = myr_board()
    after = step(before, {"m": {"power": 0, "toughness": 1, "keywords": ["indestructible"]}, "h": GRAVEYARD},
                 [dealt("Lightning Bolt", "m", 3), umbra_replaces("h", "m"),
                  {"kind": "damage_removed", "object": "m", "amount": 3}, destroyed("h", "704.5g")])
    return Transition(before, BOLT_MYR, after)


def indestructible_myr_dies() -> Transition:
    """Broken CR 702.12b: lethal damage destroyed an indestructible creature."""
    before = myr_board()
    after = step(before, {"m": GRAVEYARD, "h": GRAVEYARD},
                 [dealt("Lightning Bolt", "m", 3), destroyed("m", "704.5g"), sba("h", "704.5m")])
    return Transition(before, BOLT_MYR, after)


def blocker_saved(**bears_after) -> Transition:
    """Ruling (Hyena Umbra 2010-06-15): "Totem armor's effect is not regeneration ... the enchanted
    permanent does not become tapped and is not removed from combat" (CR 701.15a)."""
    before = enchanted_bears(combat="blocking")
    return Transition(before, MURDER, saved(before, "Murder", **BEARS_ALONE, **bears_after))


def wrath_saves_bears() -> Transition:
    """Ruling (Hyena Umbra 2010-06-15): "Effects that say the enchanted permanent can't be regenerated
    ... won't prevent totem armor's effect" (CR 701.15c)."""
    before = enchanted_bears()
    return Transition(before, cast("Wrath of God"), saved(before, "Wrath of God", **BEARS_ALONE))


def wrath_kills_enchanted_bears() -> Transition:
    """Broken CR 701.15c: "can't be regenerated" wrongly stopped umbra armor."""
    before = enchanted_bears()
    return Transition(before, cast("Wrath of God"), died(before, "Wrath of God"))


def two_umbras_chosen_by(player: str, destroyed_aura: str = "h", asked: bool = True) -> Transition:
    """Ruling (Umbra Mystic 2010-06-15): "you choose which one is destroyed, regardless of who
    controls them" (CR 616.1: the affected object's controller chooses)."""
    before = bears_with_two_umbras()
    kept_keyword = "reach" if destroyed_aura == "h" else "first strike"
    after = saved(before, "Murder", aura=destroyed_aura, power=3, toughness=3, keywords=[kept_keyword])
    decisions = [choice(("umbra armor:h", "umbra armor:s"), "umbra armor:h", player)] if asked else []
    return Transition(before, MURDER, after, decisions=decisions)


def boa_board() -> dict:
    """River Boa ``b`` (2/1, one regeneration shield) enchanted by Hyena Umbra: a 3/2."""
    return observation({
        "b": creature("River Boa", 3, 2, colors=["G"], keywords=["islandwalk", "first strike"],
                      regeneration_shields=1),
        "h": umbra("b"),
    })


UMBRA_OR_REGENERATION = ("umbra armor:h", "regeneration")


def boa_regenerates(asked: bool = True) -> Transition:
    """Ruling (Hyena Umbra 2010-06-15): with a regeneration shield "you choose whether to apply the
    regeneration effect or the totem armor effect. The other effect is unused and remains"
    (CR 616.1, 701.15a)."""
    before = boa_board()
    after = step(before, {"b": {"tapped": True, "regeneration_shields": 0}},
                 [{"kind": "replacement", "effect": "regeneration", "affected": "b"},
                  {"kind": "tapped", "object": "b"}])
    decisions = [choice(UMBRA_OR_REGENERATION, "regeneration")] if asked else []
    return Transition(before, MURDER, after, decisions=decisions)


def boa_saved_by_umbra(asked: bool = True) -> Transition:
    """The umbra armor branch of the same choice: the Aura goes, the shield remains."""
    before = boa_board()
    after = saved(before, "Murder", power=2, toughness=1, keywords=["islandwalk"])
    decisions = [choice(UMBRA_OR_REGENERATION, "umbra armor:h")] if asked else []
    return Transition(before, MURDER, after, decisions=decisions)


def boa_uses_both() -> Transition:
    """Broken CR 616.1f: both the shield and the Aura were used up for one destruction."""
    before = boa_board()
    after = step(before, {"b": {"tapped": True, "regeneration_shields": 0, "power": 2, "toughness": 1,
                                "keywords": ["islandwalk"]}, "h": GRAVEYARD},
                 [umbra_replaces("h", "b"), destroyed("h", "Murder"),
                  {"kind": "replacement", "effect": "regeneration", "affected": "b"}])
    return Transition(before, MURDER, after, decisions=[choice(UMBRA_OR_REGENERATION, "regeneration")])


SACRIFICE = {"type": "sacrifice", "object": "b"}


def sacrificed_with_umbra() -> Transition:
    """Ruling (Indrik Umbra 2024-06-07): "Umbra armor has no effect if the enchanted creature is put
    into a graveyard for any other reason, such as if it's sacrificed" (CR 701.17a, 704.5m)."""
    before = enchanted_bears()
    after = step(before, {"b": GRAVEYARD, "h": GRAVEYARD},
                 [zone_change("b", event="sacrifice", by="P1"), sba("h", "704.5m")])
    return Transition(before, SACRIFICE, after)


def sacrifice_replaced_by_umbra() -> Transition:
    """Broken CR 701.17a: sacrifice isn't destruction, yet umbra armor saved the creature."""
    before = enchanted_bears()
    return Transition(before, SACRIFICE, saved(before, "sacrifice", **BEARS_ALONE))


def shrunk_to_zero_with_umbra() -> Transition:
    """The same ruling for "if its toughness is 0 or less" (CR 704.5f): -3/-3 on the 3/3."""
    before = enchanted_bears()
    after = step(before, {"b": GRAVEYARD, "h": GRAVEYARD}, [sba("b", "704.5f"), sba("h", "704.5m")])
    return Transition(before, {"type": "modify_pt", "object": "b", "power": -3, "toughness": -3}, after)


def legend_rule_with_umbra(aura_cause: dict) -> Transition:
    """The same ruling for "the legend rule" (CR 704.5j): a second Isamaru enters, P1 keeps the new one."""
    before = observation({
        "i": creature("Isamaru, Hound of Konda", 3, 3, supertypes=["Legendary"], keywords=["first strike"]),
        "h": umbra("i"),
    })
    new = creature("Isamaru, Hound of Konda", supertypes=["Legendary"], summoning_sick=True)
    after = step(before, {"i": GRAVEYARD, "h": GRAVEYARD, "i2": new},
                 [zone_change("i2", "battlefield", None, event="put_onto_battlefield"),
                  sba("i", "704.5j"), zone_change("h", **aura_cause)])
    event = {"type": "put_onto_battlefield", "id": "i2", "card": "Isamaru, Hound of Konda", "controller": "P1",
             "attach_to": None}
    return Transition(before, event, after, decisions=[Decision("P1", "legend_rule", ("i", "i2"), "i2")])


# --------------------------------------------------------------------------- generic properties


def murdered_bears() -> Transition:
    """Murder destroys an unenchanted Grizzly Bears (CR 701.7a): it goes to its owner's graveyard."""
    before = plain_bears()
    return Transition(before, MURDER, step(before, {"b": GRAVEYARD}, [destroyed("b", "Murder")]))


def with_after(t: Transition, mutate: Callable[[dict], None]) -> Transition:
    """``t`` with its ``after`` observation altered in place by ``mutate`` (on a copy)."""
    after = copy.deepcopy(t.after)
    mutate(after)
    return Transition(t.before, t.event, after, t.illegal, t.decisions, t.error, t.reference)


def engine_raised() -> Transition:
    """The engine crashed instead of performing or refusing the event (CR 104.3: the game can't go on)."""
    t = murdered_bears()
    return Transition(t.before, t.event, t.before, error="engine raised KeyError: 'b'")


def set_field(oid: str, **fields) -> Callable[[dict], None]:
    return lambda obs: obs["objects"][oid].update(fields)


def murdered_token() -> Transition:
    """A token put into a graveyard ceases to exist (CR 111.7, 704.5d); the log says so."""
    before = plain_bears(token=True)
    after = step(before, {"b": None}, [destroyed("b", "Murder"), sba("b", "704.5d", frm="graveyard", to=None)])
    return Transition(before, MURDER, after)


def put_onto_battlefield() -> Transition:
    """A new object, created by the event that names its id."""
    before = plain_bears()
    event = {"type": "put_onto_battlefield", "id": "x", "card": "Grizzly Bears", "controller": "P1", "attach_to": None}
    after = step(before, {"x": creature(summoning_sick=True)},
                 [zone_change("x", "battlefield", None, event="put_onto_battlefield")])
    return Transition(before, event, after)


def bears_survive_shock(damage_after: int, **after_fields) -> Transition:
    """Shock deals 2 to a 2/2; with ``damage_after=2`` the engine forgot 704.5g (lethal damage)."""
    before = plain_bears()
    after = step(before, {"b": {"damage": damage_after, **after_fields}}, [dealt("Shock", "b", 2)])
    return Transition(before, cast("Shock", "b"), after)


def bears_dealt_one() -> Transition:
    """Another Grizzly Bears ``o`` deals 1 damage to the 2/2 ``b`` (a fight): 1 damage stays marked,
    not lethal (CR 120.3, 704.5g)."""
    before = observation({"b": creature(colors=["G"]), "o": creature(colors=["G"], owner="P2")})
    after = step(before, {"b": {"damage": 1}}, [dealt("o", "b", 1)])
    return Transition(before, {"type": "damage", "source": "o", "target": "b", "amount": 1}, after)


def shock_at_player(life_after: dict) -> Transition:
    """P2's Shock deals 2 damage to P1 (CR 120.3a: P1 loses 2 life); ``life_after`` is what the engine shows."""
    before = plain_bears()
    after = step(before, {}, [dealt("Shock", "P1", 2)], life=life_after)
    return Transition(before, cast("Shock", "P1"), after)


def bears_hit_player(life_after: dict, keywords=()) -> Transition:
    """Grizzly Bears (P1's) deals 2 damage to P2; with lifelink P1 gains 2 (CR 702.15b)."""
    before = plain_bears(keywords=list(keywords))
    after = step(before, {}, [dealt("b", "P2", 2)], life=life_after)
    return Transition(before, {"type": "damage", "source": "b", "target": "P2", "amount": 2}, after)


def refused_murder(after_fields: dict | None = None) -> Transition:
    """Murder targeting a card in a graveyard is refused (CR 115.1, 601.2c); the game is unchanged."""
    before = plain_bears(zone="graveyard")
    after = step(before, {"b": after_fields}) if after_fields else copy.deepcopy(before)
    return Transition(before, MURDER, after, illegal="not_on_battlefield")


def replayed(differently: Callable[[list], list] | None = None) -> ScenarioRun:
    """A two-observation run whose replay returns ``differently(observations)`` (default: the same)."""
    t = murdered_bears()
    observations = [t.before, t.after]
    return ScenarioRun(board={}, events=[t.event], observations=observations,
                       replay=lambda: (differently or list)(copy.deepcopy(observations)))


def against_reference(reference_after: Callable[[dict], None] | None = None, illegal=None,
                      ignored=frozenset()) -> Transition:
    """The fork's Murder step, with the reference engine's observation (altered by ``reference_after``)."""
    t = murdered_bears()
    ref = copy.deepcopy(t.after)
    if reference_after:
        reference_after(ref)
    t.reference = {"after": ref, "illegal": illegal, "ignored": frozenset(ignored)}
    return t


def both_refused() -> Transition:
    """Both engines refuse the same event: nothing to compare."""
    t = refused_murder()
    t.reference = {"after": copy.deepcopy(t.before), "illegal": "not_on_battlefield", "ignored": frozenset()}
    return t


def reversed_log(obs: dict) -> None:
    """Log entries in another order (the differential oracle compares them as a multiset)."""
    obs["log"].reverse()


# --------------------------------------------------------------------------- layers, counters and copies
# (The cases built by hand from the rules and the card data follow below.)


def growth(oid: str) -> dict:
    return {"type": "cast", "card": "Giant Growth", "controller": "P1", "targets": [oid]}


def enters(oid: str, name: str, controller: str = "P1", **fields) -> dict:
    return {"type": "put_onto_battlefield", "id": oid, "card": name, "controller": controller, "attach_to": None,
            **fields}


def pt(oid: str, power: int, toughness: int) -> Callable[[dict], None]:
    return set_field(oid, power=power, toughness=toughness)


def both(*mutations: Callable[[dict], None]) -> Callable[[dict], None]:
    return lambda obs: [m(obs) for m in mutations]


def drop_log(*kinds: str, obj: str | None = None) -> Callable[[dict], None]:
    """Remove the log entries of those kinds (about ``obj`` only, if given)."""
    def mutate(obs):
        obs["log"] = [e for e in obs["log"] if not (e["kind"] in kinds and obj in (None, e.get("object"),
                                                                                     e.get("source")))]
    return mutate


# --------------------------------------------------------------------------- layers, counters and copies
# Observations built by hand from the rules and the neutral card data (``cards``), never from an
# engine: :func:`seen` fills an object's printed characteristics and copiable values from its
# Oracle card, and each case states the fields its event changes, worked out in its docstring.
# Cards: Grizzly Bears {1}{G} 2/2; Octopus Umbra sets base P/T 8/8 (layer 7b); Hyena Umbra +1/+1 and
# first strike; Giant Growth +3/+3 until end of turn (7c); Penumbra Umbra: "When this Aura is put into
# a graveyard from the battlefield, create a token that's a copy of enchanted creature, except it's
# black"; Clone {3}{U} 0/0; Hangarback Walker {X}{X} 0/0 artifact; Nekrataal {2}{B}{B} 2/1 first
# strike, "When this creature enters, destroy target nonartifact, nonblack creature".


def _copiable(c: cards.Card) -> dict:
    keywords = sorted(k for k in c.keywords if not k.startswith(("enchant ", "protection ")))
    return {"name": c.name, "mana_cost": c.mana_cost, "supertypes": list(c.supertypes), "types": list(c.types),
            "subtypes": list(c.subtypes), "colors": list(c.colors), "keywords": keywords, "power": c.power,
            "toughness": c.toughness}


def seen(name: str, **fields) -> dict:
    """An observed permanent whose characteristics are those printed on the Oracle card ``name``
    (CR 109.3; copiable values, CR 707.2, for a creature), with ``fields`` overriding them; on
    the battlefield, untapped, P1's, no effects (``pt_effects`` lists those that apply)."""
    c = cards.card(name)
    printed = _copiable(c)
    creature_ = "Creature" in c.types
    obj = card(name, supertypes=printed["supertypes"], types=printed["types"], subtypes=printed["subtypes"],
               colors=printed["colors"], keywords=printed["keywords"], power=c.power, toughness=c.toughness,
               mana_value=c.mana_value, copiable=dict(printed) if creature_ else None, pt_effects=[])
    if "colors" in fields and obj["copiable"] is not None and fields.get("token"):
        obj["copiable"]["colors"] = list(fields["colors"])  # a token copy with an exception (CR 707.9b)
    obj.update(fields)
    obj["controller"] = fields.get("controller") or obj["owner"]
    return obj


def gone(name: str, owner: str = "P1") -> dict:
    """``name``'s card in its owner's graveyard: a new object with its printed characteristics and
    none of its permanent state (CR 400.7)."""
    return {**seen(name, owner=owner), **GRAVEYARD, "copiable": None, "controller": owner}


def effect(layer: str, power, toughness, source: str, until_end_of_turn: bool = True) -> dict:
    """One entry of ``pt_effects`` (CR 613.7)."""
    return {"layer": layer, "power": power, "toughness": toughness, "source": source,
            "until_end_of_turn": until_end_of_turn}


OCTOPUS_8_8 = effect("7b", 8, 8, "o", False)
GROWTH = effect("7c", 3, 3, "Giant Growth")
SWITCH = effect("7d", None, None, "switch_pt")


def enters_log(oid: str, **cause) -> dict:
    return zone_change(oid, "battlefield", None, **(cause or {"event": "put_onto_battlefield"}))


def octopus_bears_switched() -> Transition:
    """Octopus Umbra ruling: its 8/8 "overwrites all previous effects that set the creature's base
    power and toughness. Any power- or toughness-modifying effects ... will apply". A +1/+0
    counter (7c, CR 122.1a) makes the Bears 9/8; switching (7d, CR 613.4d) after it: 8/9."""
    before = observation({"b": seen("Grizzly Bears", counters={"+1/+0": 1}, power=9, toughness=8,
                                    pt_effects=[OCTOPUS_8_8]),
                          "o": seen("Octopus Umbra", attached_to="b")})
    after = step(before, {"b": {"power": 8, "toughness": 9, "pt_effects": [OCTOPUS_8_8, SWITCH]}})
    return Transition(before, {"type": "switch_pt", "object": "b"}, after)


SET_0_4 = effect("7b", 0, 4, "set_base_pt")


def octopus_joins() -> Transition:
    """Bears (a +1/+1 counter, base 0/4 until end of turn, Giant Growth: 4/8) gets Octopus Umbra:
    its 8/8 has the latest timestamp (CR 613.7e) and overwrites 0/4; Giant Growth and the counter
    still apply on top (CR 613.4c, Octopus Umbra ruling): 12/12."""
    before = observation({"b": seen("Grizzly Bears", counters={"+1/+1": 1}, power=4, toughness=8,
                                    pt_effects=[SET_0_4, GROWTH])})
    after = step(before, {"b": {"power": 12, "toughness": 12, "pt_effects": [SET_0_4, GROWTH, OCTOPUS_8_8]},
                          "o": seen("Octopus Umbra", attached_to="b")}, [enters_log("o")])
    return Transition(before, enters("o", "Octopus Umbra", attach_to="b"), after)


ANTHEM = {"type": "create_effect", "affects": "creatures_you_control", "controller": "P1", "power": 1,
          "toughness": 1}
ANTHEM_1_1 = effect("7c", 1, 1, "create_effect")


def anthem() -> Transition:
    """"Creatures you control get +1/+1 until end of turn" affects P1's Bears only (CR 611.2c): 3/3."""
    before = observation({"b": seen("Grizzly Bears"), "c": seen("Grizzly Bears", owner="P2")})
    return Transition(before, ANTHEM, step(before, {"b": {"power": 3, "toughness": 3, "pt_effects": [ANTHEM_1_1]}}))


def cleanup_after_growth() -> Transition:
    """In the cleanup step Giant Growth ends (CR 514.2); Octopus Umbra's static effect stays:
    11/11 becomes 8/8."""
    before = observation({"b": seen("Grizzly Bears", power=11, toughness=11, pt_effects=[OCTOPUS_8_8, GROWTH]),
                          "o": seen("Octopus Umbra", attached_to="b")})
    return Transition(before, {"type": "cleanup"}, step(before, {"b": {"power": 8, "toughness": 8,
                                                                       "pt_effects": [OCTOPUS_8_8]}}))


def counters_annihilate() -> Transition:
    """A -1/-1 counter on a Bears with two +1/+1 counters (4/4): one pair is removed (CR 704.5q): 3/3."""
    before = observation({"b": seen("Grizzly Bears", counters={"+1/+1": 2}, power=4, toughness=4)})
    after = step(before, {"b": {"counters": {"+1/+1": 1}, "power": 3, "toughness": 3}}, [
        {"kind": "counters_added", "object": "b", "counter": "-1/-1", "amount": 1},
        {"kind": "counters_removed", "object": "b", "rule": "704.5q", "amount": 1}])
    return Transition(before, {"type": "add_counters", "object": "b", "kind": "-1/-1", "amount": 1}, after)


def umbra_saves_bears_with_counter() -> Transition:
    """Umbra armor removes all damage, not counters (CR 702.89a, 122.1): the Bears (a +1/+1 counter,
    Hyena Umbra: 4/4 first strike, 1 damage) keeps its counter and is 3/3 without the Aura."""
    before = observation({"b": seen("Grizzly Bears", counters={"+1/+1": 1}, damage=1, power=4, toughness=4,
                                    keywords=["first strike"], pt_effects=[effect("7c", 1, 1, "h", False)]),
                          "h": seen("Hyena Umbra", attached_to="b")})
    return Transition(before, MURDER, saved(before, "Murder", power=3, toughness=3, keywords=[], pt_effects=[]))


def clone_copies_octopus_bears() -> Transition:
    """Clone copies a Bears enchanted by Octopus Umbra (8/8): only copiable values are copied
    (CR 707.2, 613.2c), so P2's Clone is a 2/2 green Grizzly Bears with no effect on it."""
    before = observation({"b": seen("Grizzly Bears", power=8, toughness=8, pt_effects=[OCTOPUS_8_8]),
                          "o": seen("Octopus Umbra", attached_to="b")})
    after = step(before, {"c": seen("Grizzly Bears", owner="P2", summoning_sick=True)},
                 [enters_log("c", event="put_onto_battlefield", copy_of="b")])
    return Transition(before, enters("c", "Clone", "P2", copy_of="b"), after)


def counterpart_copies_tapped_bears() -> Transition:
    """Penumbra Umbra ruling (the same for Cackling Counterpart): a copy "doesn't copy whether that
    creature is tapped or untapped, whether it has any counters on it or Auras ... attached"
    (CR 707.2): the token of a tapped, damaged Bears with two +1/+1 counters and Hyena Umbra
    (5/5 first strike) is an untapped 2/2 Grizzly Bears token of P1's with nothing on it."""
    before = observation({"b": seen("Grizzly Bears", tapped=True, counters={"+1/+1": 2}, damage=1, power=5,
                                    toughness=5, keywords=["first strike"],
                                    pt_effects=[effect("7c", 1, 1, "h", False)]),
                          "h": seen("Hyena Umbra", attached_to="b")})
    after = step(before, {"t": seen("Grizzly Bears", token=True, summoning_sick=True)},
                 [enters_log("t", event="create_token", by="Cackling Counterpart", copy_of="b")])
    return Transition(before, {"type": "cast", "card": "Cackling Counterpart", "controller": "P1", "targets": ["b"],
                               "token_ids": ["t"]}, after)


def clone_copies_walker() -> Transition:
    """Penumbra Umbra ruling: "If the copied creature has {X} in its mana cost, X is 0" (CR 107.3m):
    a Clone of a Hangarback Walker with two counters enters with none, dies as a 0/0 (704.5f) and,
    as the Walker it copied, its dies ability triggers and makes no Thopter. In the graveyard it is a
    Clone card again (CR 400.7)."""
    before = observation({"w": seen("Hangarback Walker", counters={"+1/+1": 2}, power=2, toughness=2)})
    after = step(before, {"c": gone("Clone")}, [
        enters_log("c", event="put_onto_battlefield", copy_of="w"), sba("c", "704.5f"),
        {"kind": "trigger", "source": "c", "ability": "dies", "controller": "P1"}])
    return Transition(before, enters("c", "Clone", copy_of="w"), after)


def clone_copies_nekrataal() -> Transition:
    """Penumbra Umbra ruling: "Any enters abilities of the copied creature will trigger" (CR 603.6a,
    707.5): a Clone of Nekrataal destroys P2's Bears, the only nonartifact, nonblack creature."""
    before = observation({"n": seen("Nekrataal"), "b": seen("Grizzly Bears", owner="P2")})
    after = step(before, {"c": seen("Nekrataal", summoning_sick=True), "b": gone("Grizzly Bears", "P2")}, [
        enters_log("c", event="put_onto_battlefield", copy_of="n"),
        {"kind": "trigger", "source": "c", "ability": "enters", "controller": "P1"}, destroyed("b", "Nekrataal")])
    return Transition(before, enters("c", "Clone", copy_of="n"), after)


def penumbra_host_sacrificed() -> Transition:
    """Penumbra Umbra ruling: "If the enchanted creature is no longer on the battlefield, the copy
    ... uses the copiable values of the creature as it last existed on the battlefield": the
    Bears (a +1/+1 counter) is sacrificed, the Aura follows (704.5m), its ability makes a black
    2/2 Grizzly Bears token for P1, with no counter."""
    before = observation({"b": seen("Grizzly Bears", counters={"+1/+1": 1}, power=3, toughness=3),
                          "p": seen("Penumbra Umbra", attached_to="b")})
    after = step(before, {"b": gone("Grizzly Bears"), "p": gone("Penumbra Umbra"),
                          "p.token": seen("Grizzly Bears", token=True, colors=["B"], summoning_sick=True)}, [
        zone_change("b", event="sacrifice", by="P1"), sba("p", "704.5m"),
        {"kind": "trigger", "source": "p", "ability": "put into a graveyard", "controller": "P1"},
        enters_log("p.token", event="create_token", by="p", copy_of="b")])
    return Transition(before, SACRIFICE_HOST, after)


def set_base_pt_over_octopus() -> Transition:
    """A later "base power and toughness 0/1" overwrites Octopus Umbra's 8/8 (CR 613.7); Giant
    Growth and the +1/+1 and +1/+0 counters still apply: 13/12 becomes 5/5."""
    before = observation({"b": seen("Grizzly Bears", counters={"+1/+1": 1, "+1/+0": 1}, power=13, toughness=12,
                                    pt_effects=[OCTOPUS_8_8, GROWTH]),
                          "o": seen("Octopus Umbra", attached_to="b")})
    after = step(before, {"b": {"power": 5, "toughness": 5,
                                "pt_effects": [OCTOPUS_8_8, GROWTH, effect("7b", 0, 1, "set_base_pt")]}})
    return Transition(before, {"type": "set_base_pt", "object": "b", "power": 0, "toughness": 1}, after)


def octopus_moved() -> Transition:
    """Octopus Umbra moved from Bears ``c`` onto ``b`` (base 1/1 until end of turn): it gets a new
    timestamp (CR 613.7e) and overwrites the 1/1: ``b`` is 8/8, ``c`` 2/2 again."""
    set_1_1 = effect("7b", 1, 1, "set_base_pt")
    before = observation({"b": seen("Grizzly Bears", power=1, toughness=1, pt_effects=[set_1_1]),
                          "c": seen("Grizzly Bears", power=8, toughness=8, pt_effects=[OCTOPUS_8_8]),
                          "o": seen("Octopus Umbra", attached_to="c")})
    after = step(before, {"b": {"power": 8, "toughness": 8, "pt_effects": [set_1_1, OCTOPUS_8_8]},
                          "c": {"power": 2, "toughness": 2, "pt_effects": []}, "o": {"attached_to": "b"}},
                 [{"kind": "attached", "object": "o", "to": "b"}])
    return Transition(before, {"type": "attach", "aura": "o", "to": "b"}, after)


def enters_after_anthem() -> Transition:
    """A Bears that enters after the anthem resolved isn't affected by it (CR 611.2c): a 2/2."""
    before = observation({"b": seen("Grizzly Bears", power=3, toughness=3, pt_effects=[ANTHEM_1_1])})
    after = step(before, {"x": seen("Grizzly Bears", summoning_sick=True)}, [enters_log("x")])
    return Transition(before, enters("x", "Grizzly Bears"), after)


def octopus_switched_then_murdered() -> Transition:
    """Murder on a switched Bears with Octopus Umbra and two +1/+0 counters (10/8 switched: 8/10):
    umbra armor saves it, its counters stay, and the switch applies to 2/2 plus the counters: 2/4."""
    before = observation({"b": seen("Grizzly Bears", counters={"+1/+0": 2}, power=8, toughness=10,
                                    pt_effects=[OCTOPUS_8_8, SWITCH]),
                          "o": seen("Octopus Umbra", attached_to="b")})
    return Transition(before, MURDER, saved(before, "Murder", aura="o", power=2, toughness=4, pt_effects=[SWITCH]))


SACRIFICE_HOST = {"type": "sacrifice", "object": "b"}
BLACK_BEARS = {**_copiable(cards.card("Grizzly Bears")), "colors": ["B"]}


def clone_copies_penumbra_token() -> Transition:
    """Penumbra Umbra ruling: the token's black is part of its copiable values (CR 707.9b), so P2's
    Clone of Penumbra Umbra's token is a black Grizzly Bears."""
    before = observation({"p.token": seen("Grizzly Bears", token=True, colors=["B"])})
    after = step(before, {"c": seen("Grizzly Bears", owner="P2", colors=["B"], copiable=dict(BLACK_BEARS),
                                    summoning_sick=True)},
                 [enters_log("c", event="put_onto_battlefield", copy_of="p.token")])
    return Transition(before, enters("c", "Clone", "P2", copy_of="p.token"), after)


def walker_cast_with_x(x: int = 2) -> Transition:
    """A Hangarback Walker cast with X = 2 enters with two +1/+1 counters (CR 107.3m): a 2/2 whose
    mana value is 0 on the battlefield (CR 107.3g)."""
    before = observation({})
    after = step(before, {"w": seen("Hangarback Walker", counters={"+1/+1": x}, power=x, toughness=x,
                                    summoning_sick=True)},
                 [enters_log("w"), {"kind": "counters_added", "object": "w", "counter": "+1/+1", "amount": x}])
    return Transition(before, enters("w", "Hangarback Walker", x=x), after)


def nekrataal_without_target() -> Transition:
    """Nekrataal's enters ability triggers; the only creature is black Nekrataal itself, no legal
    target, so the ability is removed from the stack (CR 603.3d)."""
    before = observation({})
    after = step(before, {"n": seen("Nekrataal", summoning_sick=True)}, [
        enters_log("n"), {"kind": "trigger", "source": "n", "ability": "enters", "controller": "P1"},
        {"kind": "trigger_removed", "source": "n", "reason": "no legal target"}])
    return Transition(before, enters("n", "Nekrataal"), after)


def penumbra_board(host: str = "Grizzly Bears", **host_fields) -> dict:
    """P1's ``host`` ``b`` with P1's Penumbra Umbra ``p`` (no power/toughness effect)."""
    return {"b": seen(host, **host_fields), "p": seen("Penumbra Umbra", attached_to="b")}


def penumbra_destroyed_instead(spell: str, event: dict) -> Transition:
    """``spell`` would destroy the Bears; umbra armor destroys Penumbra Umbra instead (CR 702.89a),
    which still goes to the graveyard from the battlefield: its ability makes a black token copy of
    the Bears, still on the battlefield, for P1."""
    before = observation(penumbra_board())
    after = step(before, {"p": gone("Penumbra Umbra"),
                          "p.token": seen("Grizzly Bears", token=True, colors=["B"], summoning_sick=True)}, [
        umbra_replaces("p", "b"), destroyed("p", spell),
        {"kind": "trigger", "source": "p", "ability": "put into a graveyard", "controller": "P1"},
        enters_log("p.token", event="create_token", by="p", copy_of="b")])
    return Transition(before, event, after)


def penumbra_umbra_armor() -> Transition:
    return penumbra_destroyed_instead("Murder", MURDER)


def penumbra_wrath() -> Transition:
    """Wrath of God: umbra armor saves the Bears, the destroyed Penumbra Umbra makes a token."""
    return penumbra_destroyed_instead("Wrath of God", cast("Wrath of God"))


def penumbra_nekrataal() -> Transition:
    """Penumbra Umbra on a sacrificed, tapped Nekrataal with a counter: the black token copy (no
    counter, untapped) has Nekrataal's enters ability, which triggers and destroys P2's Bears, the
    only nonartifact, nonblack creature (Penumbra Umbra ruling)."""
    before = observation({**penumbra_board("Nekrataal", tapped=True, counters={"+1/+1": 1}, power=3, toughness=2),
                          "c": seen("Grizzly Bears", owner="P2")})
    after = step(before, {"b": gone("Nekrataal"), "p": gone("Penumbra Umbra"), "c": gone("Grizzly Bears", "P2"),
                          "p.token": seen("Nekrataal", token=True, colors=["B"], summoning_sick=True)}, [
        zone_change("b", event="sacrifice", by="P1"), sba("p", "704.5m"),
        {"kind": "trigger", "source": "p", "ability": "put into a graveyard", "controller": "P1"},
        enters_log("p.token", event="create_token", by="p", copy_of="b"),
        {"kind": "trigger", "source": "p.token", "ability": "enters", "controller": "P1"},
        destroyed("c", "Nekrataal")])
    return Transition(before, SACRIFICE_HOST, after)


THOPTER = {"name": "Thopter Token", "mana_cost": "", "supertypes": [], "types": ["Artifact", "Creature"],
           "subtypes": ["Thopter"], "colors": [], "keywords": ["flying"], "power": 1, "toughness": 1}


def penumbra_walker() -> Transition:
    """Penumbra Umbra on a sacrificed Hangarback Walker (two +1/+1 counters): the Walker dies with its
    counters (two Thopters, CR 603.10a); the Aura follows (704.5m) and its black token copy has X = 0
    (Penumbra Umbra ruling), dies as a 0/0 (704.5f), makes no Thopter and ceases to exist (704.5d).
    P1 orders the two abilities (CR 603.3b); the Penumbra Umbra's, put on the stack last, resolves first."""
    before = observation(penumbra_board("Hangarback Walker", counters={"+1/+1": 2}, power=2, toughness=2))
    thopter = creature("Thopter Token", 1, 1, token=True, types=["Artifact", "Creature"], subtypes=["Thopter"],
                       keywords=["flying"], summoning_sick=True, mana_value=0, copiable=dict(THOPTER), pt_effects=[])
    after = step(before, {"b": gone("Hangarback Walker"), "p": gone("Penumbra Umbra"),
                          "b.thopter1": thopter, "b.thopter2": dict(thopter)}, [
        zone_change("b", event="sacrifice", by="P1"),
        {"kind": "trigger", "source": "b", "ability": "dies", "controller": "P1"}, sba("p", "704.5m"),
        {"kind": "trigger", "source": "p", "ability": "put into a graveyard", "controller": "P1"},
        enters_log("p.token", event="create_token", by="p", copy_of="b"), sba("p.token", "704.5f"),
        {"kind": "trigger", "source": "p.token", "ability": "dies", "controller": "P1"},
        sba("p.token", "704.5d", frm="graveyard", to=None),
        enters_log("b.thopter1", event="create_token", by="b"), enters_log("b.thopter2", event="create_token", by="b")])
    order = Decision("P1", "trigger_order", ("dies:b", "put into a graveyard:p"), "dies:b")
    return Transition(before, SACRIFICE_HOST, after, decisions=[order])


def octopus_earlier_effect_first(obs: dict) -> None:
    """Broken CR 613.7e: Octopus Umbra's effect applied before the earlier 0/4 (4/8 instead of 12/12)."""
    b = obs["objects"]["b"]
    b["pt_effects"] = [b["pt_effects"][2], *b["pt_effects"][:2]]
    b.update(power=4, toughness=8)


def anthem_effect(obs: dict, oid: str) -> None:
    """``oid`` wrongly affected by the anthem: +1/+1."""
    o = obs["objects"][oid]
    o["pt_effects"].append({"layer": "7c", "power": 1, "toughness": 1, "source": "create_effect",
                            "until_end_of_turn": True})
    o.update(power=o["power"] + 1, toughness=o["toughness"] + 1)


def growth_kept(obs: dict) -> None:
    obs["objects"]["b"]["pt_effects"].append({"layer": "7c", "power": 3, "toughness": 3, "source": "Giant Growth",
                                              "until_end_of_turn": True})
    obs["objects"]["b"].update(power=11, toughness=11)


def clone_got_x_counters(obs: dict) -> None:
    """Broken CR 107.3m: the Clone of the Walker entered with the original's X."""
    obs["log"].insert(1, {"kind": "counters_added", "object": "c", "counter": "+1/+1", "amount": 2})


def clone_trigger_missed() -> Transition:
    """Broken CR 603.6a: the Clone of Nekrataal entered, its enters ability never triggered."""
    t = clone_copies_nekrataal()
    objects = {**t.after["objects"], "b": t.before["objects"]["b"]}
    return Transition(t.before, t.event, observation(objects, t.after["log"][:1]))


def no_penumbra_token(obs: dict) -> None:
    """Broken: Penumbra Umbra's ability triggered but no token was created."""
    drop_log("zone_change", obj="p.token")(obs)
    del obs["objects"]["p.token"]
    obs["zones"]["battlefield"].remove("p.token")


# --------------------------------------------------------------------------- regeneration and the legend rule
# Built by hand from the rules: Drudge Skeletons (1/1, "{B}: Regenerate") with a regeneration
# shield; Isamaru, Hound of Konda (2/2 legendary).


def skeletons(**fields) -> dict:
    """P1's Drudge Skeletons ``b`` (1/1, "{B}: Regenerate") with one regeneration shield."""
    return {"b": seen("Drudge Skeletons", regeneration_shields=1, **fields)}


def skeletons_regenerated() -> Transition:
    """Murder on a blocking Drudge Skeletons with a shield: "instead remove all damage marked on it
    and its controller taps it. If it's an attacking or blocking creature, remove it from combat"
    (CR 701.15a): tapped, out of combat, no shield left."""
    before = observation(skeletons(combat="blocking"))
    after = step(before, {"b": {"tapped": True, "combat": None, "regeneration_shields": 0}}, [
        {"kind": "replacement", "effect": "regeneration", "affected": "b"}, {"kind": "tapped", "object": "b"},
        {"kind": "removed_from_combat", "object": "b"}])
    return Transition(before, MURDER, after)


def wrath_on_shielded_skeletons() -> Transition:
    """Wrath of God: "They can't be regenerated": the shield is not applied, the Skeletons die (CR 701.15c)."""
    before = observation(skeletons())
    return Transition(before, cast("Wrath of God"), step(before, {"b": gone("Drudge Skeletons")},
                                                         [destroyed("b", "Wrath of God")]))


def destroy_cant_be_regenerated_with_umbra() -> Transition:
    """A "can't be regenerated" destroy effect on a shielded Skeletons wearing Hyena Umbra (2/2 first
    strike): umbra armor still saves it (Hyena Umbra ruling 2010-06-15), and the shield is unused
    (CR 701.15c): a 1/1 with its shield."""
    before = observation({**skeletons(power=2, toughness=2, keywords=["first strike"],
                                      pt_effects=[effect("7c", 1, 1, "h", False)]),
                          "h": seen("Hyena Umbra", attached_to="b")})
    return Transition(before, {"type": "destroy", "targets": ["b"], "cant_be_regenerated": True},
                      saved(before, "destroy effect", power=1, toughness=1, keywords=[], pt_effects=[]))


def regenerated_anyway(obs: dict) -> None:
    """Broken CR 701.15c: the Skeletons were regenerated by Wrath of God."""
    obs["zones"]["graveyard"]["P1"].remove("b")
    obs["zones"]["battlefield"].append("b")
    obs["objects"]["b"].update(zone="battlefield", tapped=True)
    obs["log"] = [{"kind": "replacement", "effect": "regeneration", "affected": "b"}, {"kind": "tapped", "object": "b"}]


def shield_used_without_log(obs: dict) -> None:
    """Broken CR 701.15c: umbra armor saved the Skeletons, and the shield was used up as well."""
    obs["objects"]["b"]["regeneration_shields"] = 0


ISAMARU = "Isamaru, Hound of Konda"


def second_isamaru(keep: str = "j", controller: str = "P1") -> Transition:
    """A second Isamaru enters under ``controller`` while P1 controls one: with the same controller,
    "that player chooses one of them, and the rest are put into their owners' graveyards" (CR 704.5j);
    under another controller both stay."""
    before = observation({"i": seen(ISAMARU)})
    changes = {"j": seen(ISAMARU, owner=controller, summoning_sick=True)}
    log = [enters_log("j")]
    decisions = []
    if controller == "P1":
        loser = "i" if keep == "j" else "j"
        changes[loser] = gone(ISAMARU)
        log.append(sba(loser, "704.5j"))
        decisions.append(Decision("P1", "legend_rule", ("i", "j"), keep))
    return Transition(before, enters("j", ISAMARU, controller), step(before, changes, log), decisions=decisions)


def legend_rule_decision(**changes) -> Callable[[], Transition]:
    """The same-controller step with its legend rule decision altered (``None``: nobody was asked)."""
    def build():
        t = second_isamaru()
        d = t.decisions[0]
        decisions = [] if changes.get("asked") is False else [
            Decision(changes.get("player", d.player), d.kind, d.options, changes.get("answer", d.answer))]
        return Transition(t.before, t.event, t.after, decisions=decisions)
    return build


def kept_one_in_graveyard(obs: dict) -> None:
    """Broken CR 704.5j: P1 chose to keep the new Isamaru ``j``, yet both went to the graveyard."""
    obs["zones"]["battlefield"].remove("j")
    obs["zones"]["graveyard"]["P1"].append("j")
    obs["objects"]["j"].update(zone="graveyard", summoning_sick=False, copiable=None)
    obs["log"].append(sba("j", "704.5j"))


def unchosen_destroyed(obs: dict) -> None:
    """Broken CR 704.5j: the legend not chosen was destroyed instead of put into the graveyard by the rule."""
    obs["log"][1]["cause"] = {"event": "destroy", "by": "704.5j"}


def legend_rule_across_controllers(obs: dict) -> None:
    """Broken CR 704.5j: P1's Isamaru was put into the graveyard although P2 controls the other one."""
    obs["zones"]["battlefield"].remove("i")
    obs["zones"]["graveyard"]["P1"].append("i")
    obs["objects"]["i"].update(zone="graveyard", copiable=None)
    obs["log"].append(sba("i", "704.5j"))


# --------------------------------------------------------------------------- cleanup (CR 514.2)


def end_of_turn_bears() -> dict:
    """P1's Grizzly Bears with a +1/+1 counter and Giant Growth (+3/+3 until end of turn): 6/6,
    tapped, attacking, 1 damage marked, one regeneration shield."""
    return observation({"b": creature(power=6, toughness=6, colors=["G"], tapped=True, combat="attacking", damage=1,
                                      regeneration_shields=1, counters={"+1/+1": 1},
                                      pt_effects=[{"layer": "7c", "power": 3, "toughness": 3,
                                                   "source": "Giant Growth", "until_end_of_turn": True}])})


CLEANUP = {"type": "cleanup"}


def cleanup_step(**after_fields) -> Transition:
    """CR 514.2: damage is removed, Giant Growth and the shield ("this turn") end, combat is over;
    the counter and the tapped status stay: a tapped 3/3."""
    before = end_of_turn_bears()
    fields = {"damage": 0, "regeneration_shields": 0, "combat": None, "pt_effects": [], "power": 3, "toughness": 3,
              **after_fields}
    return Transition(before, CLEANUP, step(before, {"b": fields},
                                            [{"kind": "damage_removed", "object": "b", "amount": 1}]))


def cleanup_kills_shrunk_bears(cause: dict | None = None) -> Transition:
    """Bears with two -1/-1 counters and Giant Growth (3/3): when Giant Growth ends it is 0/0 and a
    state-based action checked in the cleanup step puts it into the graveyard (CR 514.3a, 704.5f)."""
    before = observation({"b": creature(power=3, toughness=3, colors=["G"], counters={"-1/-1": 2},
                                        pt_effects=[{"layer": "7c", "power": 3, "toughness": 3,
                                                     "source": "Giant Growth", "until_end_of_turn": True}])})
    cause = cause or {"event": "state_based_action", "rule": "704.5f"}
    after = step(before, {"b": {**GRAVEYARD, "power": 2, "toughness": 2, "counters": {}, "pt_effects": []}},
                 [{"kind": "zone_change", "object": "b", "from": "battlefield", "to": "graveyard", "cause": cause}])
    return Transition(before, CLEANUP, after)


# --------------------------------------------------------------------------- triggered abilities (CR 603)


def walker_dies(thopter: dict | None = None, trigger_controller: str = "P2", thopters: int = 1) -> Transition:
    """P1 owns a Hangarback Walker (0/0, "When this dies, create a 1/1 colorless Thopter artifact
    creature token with flying for each +1/+1 counter on it") that P2 controls, with one +1/+1
    counter. A -1/-1 counter makes it 0/0: it dies (704.5f) with its +1/+1 counter (CR 704.3,
    603.10a), goes to its owner's graveyard, and its controller as it last existed, P2, gets one
    Thopter (CR 603.3a, 111.2)."""
    before = observation({"w": creature("Hangarback Walker", 1, 1, owner="P1", controller="P2",
                                        types=["Artifact", "Creature"], subtypes=["Construct"],
                                        counters={"+1/+1": 1})})
    token = {**creature("Thopter Token", 1, 1, owner="P2", token=True, types=["Artifact", "Creature"],
                        subtypes=["Thopter"], keywords=["flying"], summoning_sick=True), **(thopter or {})}
    made = {f"w.thopter{i}": token for i in range(1, thopters + 1)}
    log = [{"kind": "counters_added", "object": "w", "counter": "-1/-1", "amount": 1}, sba("w", "704.5f"),
           {"kind": "trigger", "source": "w", "ability": "dies", "controller": trigger_controller},
           *(zone_change(oid, "battlefield", None, event="create_token", by="w") for oid in made)]
    after = step(before, {"w": {**GRAVEYARD, "controller": "P1", "counters": {}, "power": 0, "toughness": 0},
                          **made}, log)
    return Transition(before, {"type": "add_counters", "object": "w", "kind": "-1/-1", "amount": 1}, after)


# --------------------------------------------------------------------------- control and zones


GAIN_BEARS = {"type": "change_control", "object": "b", "controller": "P2"}


def bears_stolen(**after_fields) -> Transition:
    """P2 gains control of P1's attacking, tapped Bears (CR 613.1b): P2's now, still P1's card,
    removed from combat (CR 506.4), summoning sick (CR 302.6), still tapped."""
    before = plain_bears(tapped=True, combat="attacking")
    fields = {"controller": "P2", "combat": None, "summoning_sick": True, **after_fields}
    return Transition(before, GAIN_BEARS, step(before, {"b": fields}, [
        {"kind": "control_changed", "object": "b", "from": "P1", "to": "P2"},
        {"kind": "removed_from_combat", "object": "b"}]))


def legend_stolen(chooser: str = "P2") -> Transition:
    """P2 controls Isamaru ``j`` and gains control of P1's Isamaru ``i``: P2 chooses which stays
    (704.5j); ``i`` goes to its owner P1's graveyard."""
    before = observation({"j": creature(ISAMARU, owner="P2", supertypes=["Legendary"], colors=["W"]),
                          "i": creature(ISAMARU, supertypes=["Legendary"], colors=["W"])})
    event = {"type": "change_control", "object": "i", "controller": "P2"}
    after = step(before, {"i": GRAVEYARD}, [{"kind": "control_changed", "object": "i", "from": "P1", "to": "P2"},
                                           sba("i", "704.5j")])
    return Transition(before, event, after, decisions=[Decision(chooser, "legend_rule", ("j", "i"), "j")])


def sacrifice_did_nothing() -> Transition:
    """Broken CR 701.17a: the sacrificed Bears stay on the battlefield."""
    before = plain_bears()
    return Transition(before, SACRIFICE, step(before, {}))


def stolen_bears_murdered(graveyard_of: str = "P1") -> Transition:
    """P1's Bears that P2 controls are Murdered: they go to their owner P1's graveyard (CR 404.1)."""
    before = observation({"b": creature(colors=["G"], controller="P2")})
    after = step(before, {"b": {**GRAVEYARD, "controller": "P1"}}, [destroyed("b", "Murder")])
    if graveyard_of != "P1":
        after["zones"]["graveyard"]["P1"].remove("b")
        after["zones"]["graveyard"][graveyard_of].append("b")
    return Transition(before, MURDER, after)


# --------------------------------------------------------------------------- the table


class Case(NamedTuple):
    """How to prove an invariant can pass and can fail."""

    holds: Callable[[], Transition | ScenarioRun]
    broken: Callable[[], Transition | ScenarioRun]
    says: str  # a word the failure message must contain


CASES: dict[str, Case] = {
    # umbra armor, CR 702.89a
    "umbra_armor.mandatory": Case(murder_saves_bears, murder_kills_enchanted_bears, "graveyard"),
    "umbra_armor.removes_damage": Case(murder_saves_bears, saved_but_damage_kept, "damage marked"),
    "umbra_armor.exactly_one_aura": Case(one_of_two_umbras_destroyed, both_umbras_destroyed, "expected 1"),
    "umbra_armor.aura_destroyed_by_the_same_cause": Case(
        lambda: shock_saved_aura_destroyed_by("704.5g"), lambda: shock_saved_aura_destroyed_by("Shock"), "704.5g"),
    "umbra_armor.simultaneous_state_based_actions": Case(deathtouch_lethal_saved, deathtouch_lethal_kills,
                                                         "deathtouch"),
    "umbra_armor.destroyed_together_with_its_aura": Case(destroy_both_saves_creature, destroy_both_kills_both,
                                                         "must be saved"),
    "umbra_armor.indestructible": Case(bolt_marks_damage_on_myr, umbra_armor_applied_to_myr, "must not apply"),
    "umbra_armor.not_regeneration": Case(blocker_saved, lambda: blocker_saved(tapped=True, combat=None),
                                         "combat status"),
    "umbra_armor.ignores_cant_be_regenerated": Case(wrath_saves_bears, wrath_kills_enchanted_bears,
                                                    "can't be regenerated"),
    "umbra_armor.controller_chooses_the_aura": Case(lambda: two_umbras_chosen_by("P1"),
                                                    lambda: two_umbras_chosen_by("P2"), "its controller P1 must"),
    "umbra_armor.or_regeneration_the_other_remains": Case(boa_regenerates, boa_uses_both, "exactly one"),
    "umbra_armor.only_on_destruction": Case(sacrificed_with_umbra, sacrifice_replaced_by_umbra, "must not save it"),
    # Dog Umbra of P2 on P1's Bears has no umbra armor, whatever keywords the engine lists.
    "umbra_armor.only_auras_that_have_it": Case(murder_saves_bears, lambda: dog_umbra_saves("P2"),
                                                "has no umbra armor"),
    # layers, CR 613
    "layers.power_toughness_in_layer_order": Case(
        octopus_bears_switched, lambda: with_after(octopus_bears_switched(), pt("b", 9, 8)), "in layer order"),
    "layers.later_setting_effect_wins": Case(
        octopus_joins, lambda: with_after(octopus_joins(), octopus_earlier_effect_first), "is not the latest"),
    "layers.modifying_effects_and_counters_still_apply": Case(
        octopus_joins, lambda: with_after(octopus_joins(), both(
            lambda o: o["objects"]["b"]["pt_effects"].pop(1), pt("b", 9, 9))), "modifying effects changed"),
    "layers.resolved_effects_affect_a_fixed_set": Case(
        anthem, lambda: with_after(anthem(), lambda o: anthem_effect(o, "c")), "expected 0"),
    "layers.until_end_of_turn_effects_end": Case(
        cleanup_after_growth, lambda: with_after(cleanup_after_growth(), growth_kept), "after cleanup"),
    # counters, CR 122 and 704.5q
    "counters.change_only_by_counter_events": Case(
        counters_annihilate, lambda: with_after(counters_annihilate(), set_field("b", counters={}, power=2,
                                                                                   toughness=2)),
        "annihilates 1 pair(s), but it now has {}"),
    "counters.umbra_armor_removes_damage_not_counters": Case(
        umbra_saves_bears_with_counter,
        lambda: with_after(umbra_saves_bears_with_counter(), set_field("b", counters={}, power=2, toughness=2)),
        "saved by umbra armor"),
    # copies, CR 707
    "copies.copiable_values_only": Case(
        clone_copies_octopus_bears,
        lambda: with_after(clone_copies_octopus_bears(), lambda o: o["objects"]["c"]["copiable"].update(
            power=8, toughness=8) or o["objects"]["c"].update(power=8, toughness=8)),
        "power 8 instead of 2"),
    "copies.status_counters_and_auras_not_copied": Case(
        counterpart_copies_tapped_bears,
        lambda: with_after(counterpart_copies_tapped_bears(), set_field("t", counters={"+1/+1": 2}, power=4,
                                                                        toughness=4)),
        "has counters"),
    "copies.x_is_zero": Case(clone_copies_walker, lambda: with_after(clone_copies_walker(), clone_got_x_counters),
                             "X is 0 for a copy"),
    "copies.enters_abilities_trigger": Case(clone_copies_nekrataal, clone_trigger_missed, "did not trigger"),
    "copies.penumbra_umbra_copies_the_enchanted_creature": Case(
        penumbra_host_sacrificed, lambda: with_after(penumbra_host_sacrificed(), set_field("p.token", colors=["G"])),
        "expected a black"),
    # regeneration, CR 701.15
    "regeneration.taps_and_removes_from_combat": Case(
        skeletons_regenerated, lambda: with_after(skeletons_regenerated(), set_field("b", tapped=False)),
        "is untapped"),
    "regeneration.not_when_cant_be_regenerated": Case(
        wrath_on_shielded_skeletons, lambda: with_after(wrath_on_shielded_skeletons(), regenerated_anyway),
        "can't be regenerated (Wrath of God) but was regenerated"),
    # the legend rule, CR 704.5j
    "legend_rule.controller_chooses": Case(
        second_isamaru, legend_rule_decision(asked=False), "was not asked which to keep"),
    "legend_rule.same_controller_only": Case(
        second_isamaru, lambda: with_after(second_isamaru(controller="P2"), legend_rule_across_controllers),
        "controlled no other legend of that name"),
    # the cleanup step, CR 514.2
    "cleanup.everything_that_ends_does": Case(cleanup_step, lambda: cleanup_step(damage=1), "damage marked"),
    "cleanup.nothing_else_ends": Case(cleanup_step, lambda: cleanup_step(tapped=False), "tapped changed"),
    # triggered abilities, CR 603
    "triggers.tokens_per_counter_as_it_last_existed": Case(walker_dies, lambda: walker_dies(thopters=0),
                                                           "made 0 token(s)"),
    "triggers.controller_is_the_sources": Case(walker_dies, lambda: walker_dies(trigger_controller="P1"),
                                               "its source's controller was P2"),
    # control and ownership, CR 108.3, 613.1b
    "control.gains_control_and_nothing_else": Case(bears_stolen, lambda: bears_stolen(combat="attacking"),
                                                   "still attacking"),
    "control.legend_rule_asks_the_new_controller": Case(legend_stolen, lambda: legend_stolen("P1"),
                                                        "who controls them, must"),
    "generic.owner_never_changes": Case(murdered_bears, lambda: with_after(murdered_bears(), set_field(
        "b", owner="P2")), "now owned by P2"),
    "generic.new_objects_owned_by_their_controller": Case(
        put_onto_battlefield, lambda: with_after(put_onto_battlefield(), set_field("x", owner="P2")),
        "is owned by P2"),
    # zones and destinations, CR 400.3, 701.7a, 701.17a
    "zones.sacrificed_goes_to_its_owners_graveyard": Case(sacrificed_with_umbra, sacrifice_did_nothing,
                                                          "still on the battlefield"),
    "zones.destroyed_without_replacement_leaves": Case(
        murdered_bears, lambda: with_after(murdered_bears(), set_field("b", zone="battlefield")),
        "still on the battlefield"),
    "zones.destroyed_unless_replaced": Case(murder_saves_bears, deathtouch_ignored,
                                            "no replacement effect replaced its destruction"),
    "zones.graveyard_is_the_owners": Case(stolen_bears_murdered, lambda: stolen_bears_murdered("P2"),
                                          "graveyard of ['P2']"),
    # generic
    "generic.engine_does_not_raise": Case(murdered_bears, engine_raised, "KeyError"),
    "generic.observation_shape": Case(murdered_bears, lambda: with_after(murdered_bears(), set_field("b", damage=-1)),
                                      "negative"),
    "generic.json_round_trip": Case(murdered_bears,
                                    lambda: with_after(murdered_bears(), set_field("b", colors=("G",))),
                                    "not plain JSON"),
    "generic.one_zone_per_object": Case(
        murdered_bears, lambda: with_after(murdered_bears(), lambda o: o["zones"]["battlefield"].append("b")),
        "2 zones"),
    "generic.objects_conserved": Case(murdered_token,
                                      lambda: with_after(murdered_token(), lambda o: o["log"].pop()), "vanished"),
    # state-based actions left pending, one invariant per rule of CR 704.5
    "sba.life_total": Case(lambda: shock_at_player({"P1": 18, "P2": 20}),
                           lambda: with_after(murdered_bears(), lambda o: o["players"]["P2"].update(life=0)), "704.5a"),
    "sba.token_zone": Case(murdered_token, lambda: with_after(
        murdered_token(), lambda o: o["objects"].update(b=card("Grizzly Bears", token=True, **GRAVEYARD))), "704.5d"),
    "sba.zero_toughness": Case(bears_dealt_one, lambda: bears_survive_shock(0, toughness=0), "704.5f"),
    "sba.lethal_damage": Case(bears_dealt_one, lambda: bears_survive_shock(2), "704.5g"),
    "sba.deathtouch_damage": Case(deathtouch_lethal_saved, deathtouch_ignored, "704.5h"),
    "sba.legend_rule": Case(second_isamaru, lambda: with_after(
        put_onto_battlefield(), lambda o: [o["objects"][x].update(supertypes=["Legendary"]) for x in ("b", "x")]),
        "704.5j"),
    "sba.unattached_aura": Case(one_of_two_umbras_destroyed, lambda: with_after(  # the Aura stayed on the dead Bears
        murder_kills_enchanted_bears(), set_field("h", zone="battlefield", attached_to="b")), "704.5m"),
    "sba.counter_annihilation": Case(counters_annihilate, lambda: bears_survive_shock(
        0, counters={"+1/+1": 1, "-1/-1": 1}), "704.5q"),
    "generic.illegal_changes_nothing": Case(refused_murder, lambda: refused_murder({"zone": "exile"}),
                                            "changed objects"),
    "generic.damage_only_on_battlefield": Case(
        murdered_bears, lambda: with_after(murdered_bears(), set_field("b", damage=2)), "kept permanent state"),
    "generic.determinism": Case(replayed, lambda: replayed(lambda obs: [obs[0], plain_bears(damage=1)]),
                                "differs after step 1"),
    "damage.player_loses_life": Case(lambda: shock_at_player({"P1": 18, "P2": 20}),
                                     lambda: shock_at_player({"P1": 20, "P2": 18}), "expected 18"),
    # differential
    "differential.matches_reference": Case(against_reference,
                                           lambda: against_reference(set_field("b", zone="exile")),
                                           "vs reference 'exile'"),
}

# More ways to break an invariant (name, broken builder, word in the message).
MORE_BROKEN = [
    ("control.gains_control_and_nothing_else", lambda: bears_stolen(summoning_sick=False), "not summoning sick"),
    ("control.gains_control_and_nothing_else", lambda: bears_stolen(controller="P1"), "is controlled by P1"),
    ("control.gains_control_and_nothing_else", lambda: bears_stolen(tapped=False), "tapped changed"),
    ("generic.new_objects_owned_by_their_controller",
     lambda: with_after(walker_dies(), set_field("w.thopter1", owner="P1")), "is owned by P1"),
    ("zones.destroyed_without_replacement_leaves",
     lambda: with_after(stolen_bears_murdered(), set_field("b", zone="exile")), "is in the exile"),
    ("cleanup.everything_that_ends_does", lambda: cleanup_step(regeneration_shields=1), "regeneration shield"),
    ("cleanup.everything_that_ends_does", lambda: cleanup_step(combat="attacking"), "still attacking"),
    ("cleanup.everything_that_ends_does", lambda: cleanup_step(pt_effects=end_of_turn_bears()["objects"]["b"][
        "pt_effects"], power=6, toughness=6), "until-end-of-turn effects"),
    ("cleanup.nothing_else_ends", lambda: cleanup_step(counters={}, power=2, toughness=2), "counters changed"),
    ("cleanup.nothing_else_ends", lambda: cleanup_kills_shrunk_bears({"event": "destroy", "by": "cleanup"}),
     "not by a state-based action"),
    ("triggers.tokens_per_counter_as_it_last_existed", lambda: walker_dies(thopters=2), "made 2 token(s)"),
    ("triggers.tokens_per_counter_as_it_last_existed", lambda: walker_dies({"owner": "P1", "controller": "P1"}),
     "token of P2"),
    # P2's Umbra Mystic grants nothing to an Aura on P1's Bears, even an Aura P2 controls.
    ("umbra_armor.only_auras_that_have_it", lambda: dog_umbra_saves("P2", mystic="P2"), "has no umbra armor"),
    # P1's Dog Umbra on P1's Bears has umbra armor although the engine doesn't list it: Murder must not kill them.
    ("umbra_armor.mandatory", lambda: Transition(dog_umbra_board("P1", listed=False), MURDER,
                                                 died(dog_umbra_board("P1", listed=False), "Murder", auras=("d",))),
     "graveyard"),
    ("umbra_armor.destroyed_together_with_its_aura", destroy_both_keeps_the_aura, "must not stay"),
    ("umbra_armor.indestructible", indestructible_myr_dies, "left the battlefield"),
    ("umbra_armor.not_regeneration", lambda: blocker_saved(tapped=True), "tapped status"),
    ("umbra_armor.controller_chooses_the_aura", lambda: two_umbras_chosen_by("P1", asked=False), "nobody was asked"),
    ("umbra_armor.controller_chooses_the_aura", lambda: two_umbras_chosen_by("P1", destroyed_aura="s"),
     "were destroyed"),
    ("umbra_armor.or_regeneration_the_other_remains", lambda: boa_saved_by_umbra(asked=False), "was not asked"),
    ("umbra_armor.only_on_destruction", lambda: legend_rule_with_umbra({"event": "destroy", "by": "704.5j"}),
     "was destroyed"),
    ("layers.power_toughness_in_layer_order",  # 0/4 applied after Octopus Umbra's 8/8, against 613.7e
     lambda: with_after(octopus_joins(), pt("b", 4, 8)), "in layer order"),
    ("layers.later_setting_effect_wins", lambda: with_after(octopus_joins(), lambda o: o["objects"]["b"][
        "pt_effects"].pop(0)), "earlier setting effects on b changed"),
    ("layers.modifying_effects_and_counters_still_apply",
     lambda: with_after(octopus_joins(), set_field("b", counters={}, power=11, toughness=11)), "counters changed"),
    ("layers.modifying_effects_and_counters_still_apply",  # the effects are listed but not applied on top
     lambda: with_after(set_base_pt_over_octopus(), pt("b", 0, 1)), "on top gives 5/5"),
    ("layers.resolved_effects_affect_a_fixed_set", lambda: with_after(anthem(), lambda o: o["objects"]["b"][
        "pt_effects"].clear() or o["objects"]["b"].update(power=2, toughness=2)), "added 0 effect(s)"),
    ("layers.resolved_effects_affect_a_fixed_set",
     lambda: with_after(enters_after_anthem(), lambda o: anthem_effect(o, "x")), "entered during this event"),
    ("counters.change_only_by_counter_events",  # a setting effect wiped out the counters
     lambda: with_after(set_base_pt_over_octopus(), set_field("b", counters={}, power=3, toughness=4)),
     "but it now has {}"),
    ("copies.copiable_values_only",
     lambda: with_after(clone_copies_penumbra_token(), set_field("c", colors=["G"])), "expected 'Grizzly Bears' ['B']"),
    ("copies.status_counters_and_auras_not_copied",
     lambda: with_after(counterpart_copies_tapped_bears(), set_field("t", tapped=True)), "is tapped"),
    ("copies.status_counters_and_auras_not_copied",
     lambda: with_after(counterpart_copies_tapped_bears(), lambda o: o["objects"]["h"].update(attached_to="t")),
     "has Auras ['h'] attached"),
    ("copies.status_counters_and_auras_not_copied",
     lambda: with_after(penumbra_host_sacrificed(), set_field("p.token", controller="P2")), "not by its creator P1"),
    ("copies.x_is_zero", lambda: with_after(walker_cast_with_x(), both(
        drop_log("counters_added"), set_field("w", counters={}, power=0, toughness=0))), "entered with 0"),
    ("copies.x_is_zero", lambda: with_after(walker_cast_with_x(), set_field("w", mana_value=4)),
     "X is 0 on the battlefield: 0"),
    ("copies.penumbra_umbra_copies_the_enchanted_creature",
     lambda: with_after(penumbra_host_sacrificed(), no_penumbra_token), "no token copy of b"),
    ("copies.penumbra_umbra_copies_the_enchanted_creature",
     lambda: with_after(penumbra_host_sacrificed(), drop_log("trigger")), "did not trigger"),
    ("copies.penumbra_umbra_copies_the_enchanted_creature",
     lambda: with_after(penumbra_umbra_armor(), set_field("p.token", controller="P2")),
     "it must be a token of the Aura's controller P1"),
    ("copies.penumbra_umbra_copies_the_enchanted_creature",  # the copy took the Bears' +1/+1 counter as P/T
     lambda: with_after(penumbra_host_sacrificed(), lambda o: o["objects"]["p.token"]["copiable"].update(
         power=3, toughness=3)), "expected a black 'Grizzly Bears' 2/2 as b last existed"),
    ("generic.observation_shape", lambda: with_after(murdered_bears(), lambda o: o["objects"]["b"].pop("toughness")),
     "has no 'toughness'"),
    ("generic.json_round_trip", lambda: with_after(murdered_bears(), set_field("b", counters={"+1/+1"})),
     "a set"),
    ("generic.one_zone_per_object", lambda: with_after(murdered_bears(), set_field("b", zone="exile")),
     "but its zone is exile"),
    ("generic.one_zone_per_object", lambda: with_after(murdered_bears(), set_field("b", owner="P2")), "400.3"),
    ("generic.objects_conserved", lambda: with_after(murdered_bears(), lambda o: o["objects"].update(z=creature())),
     "appeared without being created"),
    ("sba.deathtouch_damage", lambda: with_after(  # the log says no deathtouch; the card data says Typhoid Rats has it
        deathtouch_ignored(), lambda o: o["log"][0].update(deathtouch=False)), "deathtouch source r"),
    ("sba.deathtouch_damage", lambda: with_after(  # an indestructible creature survives 704.5h, not a 2/2 Bears
        deathtouch_ignored(), set_field("b", keywords=["indestructible"])), "704.5h"),
    ("sba.lethal_damage", lambda: with_after(  # 704.5g reads indestructible from the card data too
        bears_survive_shock(2), set_field("b", keywords=["indestructible"])), "704.5g"),
    ("generic.determinism", lambda: replayed(lambda obs: obs[:1]), "produced 1 observations"),
    ("differential.matches_reference", lambda: against_reference(illegal="illegal_target"), "reference refused"),
    ("damage.player_loses_life", lambda: bears_hit_player({"P1": 20, "P2": 18}, ["lifelink"]), "expected 22"),
    ("damage.player_loses_life", lambda: bears_hit_player({"P1": 20, "P2": 16}), "expected 18"),
    ("differential.matches_reference", lambda: against_reference(lambda o: o["log"].clear()), "only in the engine"),
    ("regeneration.taps_and_removes_from_combat",
     lambda: with_after(skeletons_regenerated(), set_field("b", combat="blocking")), "is still blocking"),
    ("regeneration.taps_and_removes_from_combat",
     lambda: with_after(skeletons_regenerated(), set_field("b", damage=1)), "still has 1 damage"),
    ("regeneration.taps_and_removes_from_combat",
     lambda: with_after(skeletons_regenerated(), set_field("b", regeneration_shields=1)), "shields went from 1 to 1"),
    ("regeneration.not_when_cant_be_regenerated",
     lambda: with_after(destroy_cant_be_regenerated_with_umbra(), shield_used_without_log),
     "used a regeneration shield (1 -> 0)"),
    ("legend_rule.controller_chooses", legend_rule_decision(player="P2"), "their controller P1 must"),
    ("legend_rule.controller_chooses", lambda: with_after(second_isamaru(), kept_one_in_graveyard),
     "was chosen to stay under the legend rule but is in the graveyard"),
    ("legend_rule.controller_chooses", lambda: with_after(second_isamaru(), unchosen_destroyed),
     "must be put into the graveyard by the state-based action 704.5j"),
]

# More correct steps the invariant must accept (name, holds builder).
# Mana and activation costs (invariants/mana.py): their cases live in tests/mana_invariant_cases.py.
CASES.update(mana_invariant_cases.CASES)
MORE_BROKEN += mana_invariant_cases.MORE_BROKEN

MORE_HOLDS = [
    ("zones.destroyed_unless_replaced", boa_regenerates),
    ("zones.destroyed_unless_replaced", destroy_both_saves_creature),
    ("zones.destroyed_unless_replaced", murdered_bears),
    ("generic.new_objects_owned_by_their_controller", walker_dies),
    ("zones.destroyed_without_replacement_leaves", stolen_bears_murdered),
    ("zones.graveyard_is_the_owners", walker_dies),
    ("cleanup.nothing_else_ends", cleanup_kills_shrunk_bears),
    ("cleanup.everything_that_ends_does", cleanup_kills_shrunk_bears),
    # Dog Umbra of the creature's controller has umbra armor even if the engine doesn't list it;
    # P1's Umbra Mystic grants it to P2's Dog Umbra on P1's Bears (ruling Umbra Mystic 2010-06-15).
    ("umbra_armor.only_auras_that_have_it", lambda: dog_umbra_saves("P1", listed=False)),
    ("umbra_armor.only_auras_that_have_it", lambda: dog_umbra_saves("P2", mystic="P1", listed=False)),
    ("umbra_armor.mandatory", lambda: dog_umbra_saves("P1", listed=False)),
    ("umbra_armor.mandatory", wrath_saves_bears),
    ("umbra_armor.mandatory", deathtouch_lethal_saved),
    ("umbra_armor.removes_damage", lambda: shock_saved_aura_destroyed_by("704.5g")),
    ("umbra_armor.exactly_one_aura", destroy_both_saves_creature),
    ("umbra_armor.exactly_one_aura", boa_regenerates),
    ("umbra_armor.aura_destroyed_by_the_same_cause", murder_saves_bears),
    ("umbra_armor.aura_destroyed_by_the_same_cause", destroy_both_saves_creature),
    ("umbra_armor.or_regeneration_the_other_remains", boa_saved_by_umbra),
    ("umbra_armor.only_on_destruction", shrunk_to_zero_with_umbra),
    ("umbra_armor.only_on_destruction", lambda: legend_rule_with_umbra({"event": "state_based_action",
                                                                         "rule": "704.5m"})),
    ("layers.power_toughness_in_layer_order", octopus_joins),
    ("layers.power_toughness_in_layer_order", octopus_switched_then_murdered),
    ("layers.later_setting_effect_wins", set_base_pt_over_octopus),
    ("layers.later_setting_effect_wins", octopus_moved),
    ("layers.modifying_effects_and_counters_still_apply", set_base_pt_over_octopus),
    ("layers.modifying_effects_and_counters_still_apply", octopus_moved),
    ("layers.resolved_effects_affect_a_fixed_set", enters_after_anthem),
    ("layers.resolved_effects_affect_a_fixed_set", penumbra_host_sacrificed),
    ("counters.change_only_by_counter_events", set_base_pt_over_octopus),
    ("counters.change_only_by_counter_events", octopus_switched_then_murdered),
    ("counters.umbra_armor_removes_damage_not_counters", octopus_switched_then_murdered),
    ("copies.copiable_values_only", clone_copies_penumbra_token),
    ("copies.copiable_values_only", penumbra_nekrataal),
    ("copies.status_counters_and_auras_not_copied", penumbra_nekrataal),
    ("copies.status_counters_and_auras_not_copied", clone_copies_octopus_bears),
    ("copies.x_is_zero", walker_cast_with_x),
    ("copies.x_is_zero", penumbra_walker),
    ("copies.enters_abilities_trigger", nekrataal_without_target),
    ("copies.enters_abilities_trigger", penumbra_nekrataal),
    ("copies.penumbra_umbra_copies_the_enchanted_creature", penumbra_umbra_armor),
    ("copies.penumbra_umbra_copies_the_enchanted_creature", penumbra_wrath),
    ("copies.penumbra_umbra_copies_the_enchanted_creature", penumbra_walker),
    ("regeneration.taps_and_removes_from_combat", boa_regenerates),
    ("regeneration.not_when_cant_be_regenerated", destroy_cant_be_regenerated_with_umbra),
    ("legend_rule.controller_chooses", lambda: second_isamaru(keep="i")),
    ("legend_rule.controller_chooses", lambda: legend_rule_with_umbra({"event": "state_based_action",
                                                                        "rule": "704.5m"})),
    ("legend_rule.same_controller_only", lambda: legend_rule_with_umbra({"event": "state_based_action",
                                                                        "rule": "704.5m"})),
    ("generic.objects_conserved", put_onto_battlefield),
    ("sba.lethal_damage", bolt_marks_damage_on_myr),  # indestructible: 702.12b
    ("sba.deathtouch_damage", rats_kill_bears),  # 704.5h destroyed it
    ("sba.deathtouch_damage", rats_hit_myr),  # indestructible: 702.12b
    ("differential.matches_reference", lambda: against_reference(reversed_log)),  # log order is not compared
    ("damage.player_loses_life", lambda: bears_hit_player({"P1": 22, "P2": 18}, ["lifelink"])),
    ("differential.matches_reference",
     lambda: against_reference(set_field("b", summoning_sick=True), ignored={"summoning_sick"})),
    ("differential.matches_reference", both_refused),
]


CASES.update({name: Case(*case) for name, case in CHANCE_CASES.items()})
MORE_BROKEN += CHANCE_MORE_BROKEN
CASES.update({name: Case(*case) for name, case in IMPOSTOR_CASES.items()})
MORE_BROKEN += IMPOSTOR_MORE_BROKEN
MORE_HOLDS += IMPOSTOR_MORE_HOLDS
CASES.update({name: Case(*case) for name, case in PLAYTEST_CASES.items()})
CASES.update({name: Case(*case) for name, case in template_cases.CASES.items()})  # invariants/templates.py & co
MORE_BROKEN += template_cases.MORE_BROKEN
MORE_HOLDS += template_cases.MORE_HOLDS
CASES.update({name: Case(*case) for name, case in cast_permanent_cases.CASES.items()})  # permanent spells
MORE_BROKEN += cast_permanent_cases.MORE_BROKEN
MORE_HOLDS += cast_permanent_cases.MORE_HOLDS
CASES.update({name: Case(*case) for name, case in steps_cases.CASES.items()})  # steps, small actions, game amounts
MORE_BROKEN += steps_cases.MORE_BROKEN
MORE_HOLDS += steps_cases.MORE_HOLDS
CASES.update({name: Case(*case) for name, case in zone_cases.CASES.items()})  # exile, return to hand, flicker
MORE_BROKEN += zone_cases.MORE_BROKEN
MORE_HOLDS += zone_cases.MORE_HOLDS
CASES.update({name: Case(*case) for name, case in stack_cases.CASES.items()})  # the stack and priority
MORE_BROKEN += stack_cases.MORE_BROKEN
MORE_HOLDS += stack_cases.MORE_HOLDS
CASES.update({name: Case(*case) for name, case in combat_cases.CASES.items()})  # combat, CR 506-511
MORE_BROKEN += combat_cases.MORE_BROKEN
MORE_HOLDS += combat_cases.MORE_HOLDS

# --------------------------------------------------------------------------- tests


def _case(name: str) -> Case:
    if name not in CASES:
        pytest.fail(f"invariant {name} is registered but has no passing/failing case in CASES")
    return CASES[name]


def test_every_registered_invariant_has_a_case():
    """A new invariant must come with proof that it can pass and can fail."""
    assert sorted(REGISTRY.keys() - CASES.keys()) == []
    assert sorted(CASES.keys() - REGISTRY.keys()) == [], "cases for invariants that are not registered"
    assert {name for name, *_ in MORE_BROKEN + MORE_HOLDS} <= CASES.keys()


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_holds(name):
    """The property holds on a correct step: ``check`` returns [] (applicable, no violation)."""
    assert REGISTRY[name].check(_case(name).holds()) == []


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_broken(name):
    """The property is broken: ``check`` returns messages that say what is wrong."""
    case = _case(name)
    messages = REGISTRY[name].check(case.broken())
    assert messages, f"{name} did not notice the broken transition"
    assert all(isinstance(m, str) and m for m in messages)
    assert any(case.says in m for m in messages), messages


@pytest.mark.parametrize("name, broken, says", MORE_BROKEN, ids=[f"{n}-{w}" for n, _, w in MORE_BROKEN])
def test_more_ways_to_break(name, broken, says):
    messages = REGISTRY[name].check(broken())
    assert messages and any(says in m for m in messages), messages


@pytest.mark.parametrize("name, holds", MORE_HOLDS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(MORE_HOLDS)])
def test_more_correct_steps(name, holds):
    assert REGISTRY[name].check(holds()) == []


def _correct_steps():
    """Every step-scope "holds" builder of the tables."""
    for name, case in CASES.items():
        if name in REGISTRY and REGISTRY[name].scope == "step":
            yield pytest.param(case.holds, id=name)
    for i, (name, holds) in enumerate(MORE_HOLDS):
        yield pytest.param(holds, id=f"{name}-{i}")


@pytest.mark.parametrize("holds", list(_correct_steps()))
def test_a_correct_step_satisfies_every_invariant(holds):
    """Each "holds" transition is a correct step, so no invariant may object to it.

    This keeps the synthetic observations honest (well formed, zones consistent, no pending
    state-based action) and catches false positives of one invariant on another's scenario.
    """
    t = holds()
    complaints = {
        inv.name: result for inv in REGISTRY.values()
        if inv.scope == "step" and (result := inv.check(t))
    }
    assert complaints == {}


def _unrelated_steps():
    """Steps no umbra armor rule is about: the cleanup step, a refused Murder (nothing happened), an attack."""
    before = enchanted_bears(damage=1)
    yield pytest.param("cleanup", Transition(before, {"type": "cleanup"}, step(before, {"b": {"damage": 0}})),
                       id="cleanup")
    yield pytest.param("refused", Transition(before, cast("Murder", "h"), copy.deepcopy(before),
                                             illegal="illegal_target"), id="refused")
    yield pytest.param("attack", Transition(before, {"type": "set_combat", "object": "b", "status": "attacking"},
                                            step(before, {"b": {"combat": "attacking", "tapped": True}})), id="attack")


# (invariant, step) pairs where the step is within the invariant's rule, so the property must hold
# (``[]``) rather than not apply: the cleanup step is when "until end of turn" effects end (CR 514.2),
# and no legal step but a counter event may change a permanent's counters (CR 122.1, 122.3).
IN_SCOPE = {
    ("layers.until_end_of_turn_effects_end", "cleanup"),
    ("cleanup.everything_that_ends_does", "cleanup"),
    ("cleanup.nothing_else_ends", "cleanup"),
}


@pytest.mark.parametrize("step_id, t", list(_unrelated_steps()))
@pytest.mark.parametrize("name", sorted(n for n, inv in REGISTRY.items()
                                         if inv.family == "rules" and inv.scope == "step"))  # a scenario check takes a run
def test_rules_invariants_do_not_apply_to_unrelated_events(name, step_id, t):
    """A rules invariant returns None (not applicable) when the event can't involve its rule."""
    assert REGISTRY[name].check(t) == ([] if (name, step_id) in IN_SCOPE else None)


@pytest.mark.parametrize("name, t", [
    *((name, refused_murder()) for name in REGISTRY if name.startswith("sba.")),  # nothing happened (CR 704.3)
    ("sba.deathtouch_damage", bears_dealt_one()),  # no deathtouch source dealt damage
    ("sba.unattached_aura", murdered_bears()),  # no Aura
    ("sba.counter_annihilation", murdered_bears()),  # no counters
    ("sba.legend_rule", murdered_bears()),  # no legendary permanent
    ("generic.illegal_changes_nothing", murdered_bears()),  # the event was performed
    ("differential.matches_reference", murdered_bears()),  # no reference engine given
])
def test_other_invariants_not_applicable(name, t):
    assert REGISTRY[name].check(t) is None


# --------------------------------------------------------------------------- tokens
# A token that leaves the battlefield then ceases to exist (CR 111.7, 704.5d): its last log
# entry is the 704.5d one, and the invariants must read the entry that took it off the
# battlefield instead.


def test_mandatory_token_saved_then_dies_of_toughness_zero():
    """A token Bears (2/2, -3/-3 until end of turn) wearing Boar Umbra (+3/+3) is Murdered: umbra
    armor saves it (CR 702.89a), then it dies of toughness -1 (704.5f) and ceases to exist (704.5d).
    The reference engine produces exactly this; umbra armor did save it, so nothing is violated."""
    before = observation({
        "b": creature(power=2, toughness=2, colors=["G"], token=True),
        "u": umbra("b", name="Boar Umbra", colors=["G"]),
    })
    after = step(before, {"b": None, "u": GRAVEYARD},
                 [umbra_replaces("u", "b"), destroyed("u", "Murder"), sba("b", "704.5f"),
                  sba("b", "704.5d", frm="graveyard", to=None)])
    t = Transition(before, MURDER, after)
    assert REGISTRY["umbra_armor.mandatory"].check(t) == []
    # The same step with a nontoken Bears is accepted: only the token's last log entry differs.
    nontoken_before = step(before, {"b": {"token": False}})
    nontoken = Transition(nontoken_before, MURDER, step(after, {"b": {**creature(colors=["G"]), **GRAVEYARD}},
                                                        after["log"][:-1]))
    assert REGISTRY["umbra_armor.mandatory"].check(nontoken) == []


def test_exactly_one_aura_token_aura_destroyed_instead():
    """A token Hyena Umbra is destroyed instead of the Bears (CR 702.89a) and then ceases to exist
    (704.5d): exactly one umbra Aura was destroyed, as the reference engine does it."""
    before = enchanted_bears()
    before["objects"]["h"]["token"] = True
    before = observation(before["objects"])
    after = step(saved(before, "Murder", **BEARS_ALONE), {"h": None})
    after["log"].append(sba("h", "704.5d", frm="graveyard", to=None))
    t = Transition(before, MURDER, after)
    assert REGISTRY["umbra_armor.exactly_one_aura"].check(t) == []
    assert REGISTRY["umbra_armor.simultaneous_state_based_actions"].check(t) is None  # (not this event)


def test_what_spells_and_permanents_do_is_read_from_oracle_text():
    """The invariants' card facts come from the card data: "Destroy target creature." (Murder,
    Breathe Your Last), "Destroy target nonblack creature." (Doom Blade), "deals 2/3 damage to any
    target" (Shock, Lightning Bolt), "enters with X +1/+1 counters" (CR 107.3m), "When ... enters"
    (CR 603.6a), "Enchanted creature has base power and toughness 8/8" (Octopus Umbra, layer 7b)."""
    from invariants import card_abilities as facts

    assert facts.destroy_spells() == {"Murder": None, "Breathe Your Last": None, "Doom Blade": "B"}
    assert facts.damage_spells() == {"Shock": 2, "Lightning Bolt": 3}
    assert facts.x_counter_cards() == {"Hangarback Walker", "Endless One", "Stonecoil Serpent", "Hydroid Krasis"}
    assert facts.enters_trigger_cards() == {"Nekrataal", "Goblin Engineer"}
    assert facts.setting_auras() == {"Octopus Umbra"}
