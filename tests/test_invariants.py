"""Every registered invariant can pass and can fail, on minimal synthetic transitions.

For each invariant in :data:`invariants.REGISTRY`, :data:`CASES` holds a builder of a
transition where the property holds (``check`` returns ``[]``), a builder of one where it
is broken (``check`` returns messages), and a word the failure message must contain. The
tests iterate the registry, so an invariant registered without a case here fails a test
(except the optional ``layers.``/``copies.``/``counters.`` families, written elsewhere).

Observations are plain dicts in the protocol's shape (``harness/protocol.py``), built by
:func:`observation` from a few object specs. Every "holds" transition is a correct step
of a correct engine, so :func:`test_a_correct_step_satisfies_every_invariant` also checks
it against all the other invariants. CR numbers are those of the rules effective
2025-02-07; rulings are quoted from ``invariants/data/rulings.json``.

Cards as observed (computed P/T): Grizzly Bears 2/2; Hyena Umbra gives +1/+1 and first
strike, Spider Umbra +1/+1 and reach, Boar Umbra +3/+3; River Boa 2/1 regenerates;
Darksteel Myr 0/1 indestructible; Typhoid Rats 1/1 deathtouch; Isamaru 2/2 legendary.
"""

from __future__ import annotations

import copy
from typing import Callable, NamedTuple

import pytest

from invariants import REGISTRY, Decision, ScenarioRun, Transition

OPTIONAL_PREFIXES = ("layers.", "copies.", "counters.")  # invariants/layers_and_copies.py, tested with it
PLAYERS = ("P1", "P2")
HIDDEN_ZONES = ("library", "hand", "graveyard", "exile")

# --------------------------------------------------------------------------- observation builders


def card(name: str, **fields) -> dict:
    """One observed object with every protocol field: by default an untapped, undamaged
    permanent on the battlefield that P1 owns and controls (``controller`` follows ``owner``)."""
    obj = {
        "name": name, "zone": "battlefield", "owner": "P1", "controller": None, "token": False, "tapped": False,
        "summoning_sick": False, "damage": 0, "counters": {}, "attached_to": None, "combat": None,
        "regeneration_shields": 0, "supertypes": [], "types": [], "subtypes": [], "colors": [], "keywords": [],
        "power": None, "toughness": None,
    }
    obj.update(fields)
    obj["controller"] = obj["controller"] or obj["owner"]
    return obj


def creature(name: str = "Grizzly Bears", power: int = 2, toughness: int = 2, **fields) -> dict:
    return card(name, types=fields.pop("types", ["Creature"]), power=power, toughness=toughness, **fields)


def umbra(on: str, name: str = "Hyena Umbra", **fields) -> dict:
    """An Aura with umbra armor (CR 702.89a) attached to ``on``."""
    return card(name, types=["Enchantment"], subtypes=["Aura"], keywords=["umbra armor"], attached_to=on, **fields)


def observation(objects: dict[str, dict], log=(), life: dict | None = None) -> dict:
    """A protocol observation of ``objects`` (id -> object); zones are derived from each
    object's ``zone`` and ``owner`` (CR 400.3)."""
    zones: dict = {"battlefield": [], **{z: {p: [] for p in PLAYERS} for z in HIDDEN_ZONES}}
    for oid, obj in objects.items():
        if obj["zone"] == "battlefield":
            zones["battlefield"].append(oid)
        else:
            zones[obj["zone"]][obj["owner"]].append(oid)
    life = life or {}
    return {
        "players": {p: {"life": life.get(p, 20), "lost": False} for p in PLAYERS},
        "objects": copy.deepcopy(objects), "zones": zones, "log": list(log),
    }


def step(before: dict, changes: dict[str, dict | None], log=(), life: dict | None = None) -> dict:
    """The observation after an event: ``before`` with some objects' fields changed
    (``None``: the object ceased to exist) or new objects added, and the event's log."""
    objects = copy.deepcopy(before["objects"])
    for oid, fields in changes.items():
        if fields is None:
            del objects[oid]
        else:
            objects[oid] = {**objects.get(oid, {}), **fields}
    life = life or {p: v["life"] for p, v in before["players"].items()}
    return observation(objects, log, life)


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
    # generic
    "generic.engine_does_not_raise": Case(murdered_bears, engine_raised, "KeyError"),
    "generic.observation_shape": Case(murdered_bears, lambda: with_after(murdered_bears(), set_field("b", damage=-1)),
                                      "negative"),
    "generic.json_round_trip": Case(murdered_bears,
                                    lambda: with_after(murdered_bears(), set_field("b", colors=("G",))),
                                    "round trip"),
    "generic.one_zone_per_object": Case(
        murdered_bears, lambda: with_after(murdered_bears(), lambda o: o["zones"]["battlefield"].append("b")),
        "2 zones"),
    "generic.objects_conserved": Case(murdered_token,
                                      lambda: with_after(murdered_token(), lambda o: o["log"].pop()), "vanished"),
    "generic.no_pending_state_based_actions": Case(lambda: bears_survive_shock(0), lambda: bears_survive_shock(2),
                                                   "704.5g"),
    "generic.illegal_changes_nothing": Case(refused_murder, lambda: refused_murder({"zone": "exile"}),
                                            "changed objects"),
    "generic.damage_only_on_battlefield": Case(
        murdered_bears, lambda: with_after(murdered_bears(), set_field("b", damage=2)), "kept permanent state"),
    "generic.determinism": Case(replayed, lambda: replayed(lambda obs: [obs[0], plain_bears(damage=1)]),
                                "differs after step 1"),
    # differential
    "differential.matches_reference": Case(against_reference,
                                           lambda: against_reference(set_field("b", zone="exile")),
                                           "vs reference 'exile'"),
}

# More ways to break an invariant (name, broken builder, word in the message).
MORE_BROKEN = [
    ("umbra_armor.destroyed_together_with_its_aura", destroy_both_keeps_the_aura, "must not stay"),
    ("umbra_armor.indestructible", indestructible_myr_dies, "left the battlefield"),
    ("umbra_armor.not_regeneration", lambda: blocker_saved(tapped=True), "tapped status"),
    ("umbra_armor.controller_chooses_the_aura", lambda: two_umbras_chosen_by("P1", asked=False), "nobody was asked"),
    ("umbra_armor.controller_chooses_the_aura", lambda: two_umbras_chosen_by("P1", destroyed_aura="s"),
     "were destroyed"),
    ("umbra_armor.or_regeneration_the_other_remains", lambda: boa_saved_by_umbra(asked=False), "was not asked"),
    ("umbra_armor.only_on_destruction", lambda: legend_rule_with_umbra({"event": "destroy", "by": "704.5j"}),
     "was destroyed"),
    ("generic.observation_shape", lambda: with_after(murdered_bears(), lambda o: o["objects"]["b"].pop("toughness")),
     "has no 'toughness'"),
    ("generic.json_round_trip", lambda: with_after(murdered_bears(), set_field("b", counters={"+1/+1"})),
     "not JSON-serialisable"),
    ("generic.one_zone_per_object", lambda: with_after(murdered_bears(), set_field("b", zone="exile")),
     "but its zone is exile"),
    ("generic.one_zone_per_object", lambda: with_after(murdered_bears(), set_field("b", owner="P2")), "400.3"),
    ("generic.objects_conserved", lambda: with_after(murdered_bears(), lambda o: o["objects"].update(z=creature())),
     "appeared without being created"),
    ("generic.no_pending_state_based_actions", lambda: bears_survive_shock(0, toughness=0), "704.5f"),
    ("generic.no_pending_state_based_actions", lambda: bears_survive_shock(0, counters={"+1/+1": 1, "-1/-1": 1}),
     "704.5q"),
    ("generic.no_pending_state_based_actions",
     lambda: with_after(murdered_bears(), lambda o: o["players"]["P2"].update(life=0)), "704.5a"),
    ("generic.no_pending_state_based_actions", lambda: with_after(  # the Aura stayed on the dead Bears
        murder_kills_enchanted_bears(), set_field("h", zone="battlefield", attached_to="b")), "704.5m"),
    ("generic.no_pending_state_based_actions", lambda: with_after(
        put_onto_battlefield(), lambda o: [o["objects"][x].update(supertypes=["Legendary"]) for x in ("b", "x")]),
     "704.5j"),
    ("generic.no_pending_state_based_actions", lambda: with_after(
        murdered_token(), lambda o: o["objects"].update(b=card("Grizzly Bears", token=True, **GRAVEYARD))),
     "704.5d"),
    ("generic.determinism", lambda: replayed(lambda obs: obs[:1]), "produced 1 observations"),
    ("differential.matches_reference", lambda: against_reference(illegal="illegal_target"), "reference refused"),
    ("differential.matches_reference", lambda: against_reference(lambda o: o["log"].clear()), "only in fork"),
]

# More correct steps the invariant must accept (name, holds builder).
MORE_HOLDS = [
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
    ("generic.objects_conserved", put_onto_battlefield),
    ("generic.no_pending_state_based_actions", bolt_marks_damage_on_myr),  # indestructible: 702.12b
    ("differential.matches_reference", lambda: against_reference(reversed_log)),  # log order is not compared
    ("differential.matches_reference",
     lambda: against_reference(set_field("b", summoning_sick=True), ignored={"summoning_sick"})),
    ("differential.matches_reference", both_refused),
]


# --------------------------------------------------------------------------- tests


def _optional(name: str) -> bool:
    return name.startswith(OPTIONAL_PREFIXES)


def _case(name: str) -> Case:
    if name not in CASES:
        if _optional(name):
            pytest.skip(f"{name} is tested with invariants/layers_and_copies.py")
        pytest.fail(f"invariant {name} is registered but has no passing/failing case in CASES")
    return CASES[name]


def test_every_registered_invariant_has_a_case():
    """A new invariant must come with proof that it can pass and can fail."""
    required = {name for name in REGISTRY if not _optional(name)}
    assert sorted(required - CASES.keys()) == []
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


@pytest.mark.parametrize("holds", _correct_steps())
def test_a_correct_step_satisfies_every_invariant(holds):
    """Each "holds" transition is a correct step, so no invariant may object to it.

    This keeps the synthetic observations honest (well formed, zones consistent, no pending
    state-based action) and catches false positives of one invariant on another's scenario.
    """
    t = holds()
    complaints = {
        inv.name: result for inv in REGISTRY.values()
        if inv.scope == "step" and not _optional(inv.name) and (result := inv.check(t))
    }
    assert complaints == {}


def _unrelated_steps():
    """Steps no rules invariant is about: the cleanup step, and a refused Murder (nothing happened)."""
    before = enchanted_bears(damage=1)
    yield pytest.param(Transition(before, {"type": "cleanup"}, step(before, {"b": {"damage": 0}})), id="cleanup")
    yield pytest.param(Transition(before, cast("Murder", "h"), copy.deepcopy(before), illegal="illegal_target"),
                       id="refused")
    yield pytest.param(Transition(before, {"type": "set_combat", "object": "b", "status": "attacking"},
                                  step(before, {"b": {"combat": "attacking", "tapped": True}})), id="attack")


@pytest.mark.parametrize("t", _unrelated_steps())
@pytest.mark.parametrize("name", sorted(n for n, inv in REGISTRY.items() if inv.family == "rules"))
def test_rules_invariants_do_not_apply_to_unrelated_events(name, t):
    """A rules invariant returns None (not applicable) when the event can't involve its rule."""
    if _optional(name) and name not in CASES:
        pytest.skip(f"{name} is tested with invariants/layers_and_copies.py")
    assert REGISTRY[name].check(t) is None


@pytest.mark.parametrize("name, t", [
    ("generic.no_pending_state_based_actions", refused_murder()),  # nothing happened (CR 704.3)
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
