"""Umbra armor (CR 702.89), one invariant per Gatherer ruling.

CR 702.89a: "Umbra armor" means "If enchanted permanent would be destroyed, instead remove
all damage marked on it and destroy this Aura." It is a replacement effect (CR 614.1a),
so CR 616.1 governs the choice among several, and it applies only to destruction
(CR 701.7b), never to sacrifice (701.17a) or the legend rule or toughness 0 (704.5j, 704.5f).
"""

from __future__ import annotations

from harness import decisions as D
from .base import Transition, invariant
from .card_abilities import has_keyword, has_umbra_armor
from .observed import (DESTROYING_EVENTS, LEAVING_EVENTS, cause_of, left_battlefield, leaves_without_destruction,
                       umbra_auras, destroyed_in_step)
from .views import per_step

UMBRA = frozenset({"umbra_armor", "destroy"})


def _cases(t: Transition, *, indestructible: bool = False) -> list:
    """(id, prediction, umbra Aura ids, all its umbra Aura ids) for each creature with umbra armor the
    event would destroy, without indestructible (or with it: ``indestructible``); the Aura ids are
    those the event's ``destroy`` targets not (a shared list: callers must not change it)."""
    return _cases_of_the_step(t)[indestructible]


@per_step
def _cases_of_the_step(t: Transition) -> tuple[list, list]:
    """:func:`_cases` of the step, without indestructible and with it: computed once for every umbra check
    of the step (:func:`.views.per_step`)."""
    if t.illegal is not None:
        return [], []
    cases: tuple[list, list] = ([], [])
    targets = set(t.event.get("targets") or ()) if t.event.get("type") == "destroy" else set()
    for oid, prediction in destroyed_in_step(t).items():
        all_auras = umbra_auras(t.before, oid)
        if all_auras:
            indestructible = has_keyword(t.before["objects"][oid], "indestructible")
            cases[indestructible].append((oid, prediction, [a for a in all_auras if a not in targets], all_auras))
    return cases


def _regenerated(t: Transition, oid: str) -> bool:
    """Whether a regeneration shield replaced this destruction instead (CR 701.15a)."""
    before, after = t.before["objects"][oid], t.after["objects"].get(oid)
    if after is not None and after["zone"] == "battlefield":
        return after["regeneration_shields"] < before["regeneration_shields"]
    return any(e.get("kind") == "replacement" and e.get("effect") == "regeneration" and e.get("affected") == oid
               for e in t.log)


def _destroyed(t: Transition, oid: str) -> bool:
    """Whether ``oid`` left the battlefield other than by a later state-based action.

    A creature saved by umbra armor may still die right after, when losing the Aura's
    bonus leaves it with toughness 0 or less (704.5f): that is not a failure to save it.
    For an engine that logs no zone change for it, it counts as saved if one of its
    umbra Auras left the battlefield with it.
    """
    after = t.after["objects"].get(oid)
    if after is not None and after["zone"] == "battlefield":
        return False
    cause = cause_of(left_battlefield(t.log).get(oid))
    if cause is None:  # no zone change logged, or no cause (log.zone_change_causes): what the board shows
        return not _left(t, umbra_auras(t.before, oid))
    return cause.get("event") != "state_based_action" or cause.get("rule") != "704.5f"


def _left(t: Transition, auras) -> list[str]:
    """The Auras among ``auras`` no longer on the battlefield after the event."""
    return [a for a in auras if t.after["objects"].get(a, {}).get("zone") != "battlefield"]


def _unclear(t: Transition, oid: str, auras) -> bool:
    """Whether the log can't tell which of ``auras`` (attached to ``oid``) were destroyed instead:
    ``oid`` left the battlefield too and an Aura's zone change has no cause (an engine that doesn't
    claim ``log.zone_change_causes``), so it may have gone by 704.5m after its creature died. The
    count of Auras destroyed is then not judged."""
    if t.after["objects"].get(oid, {}).get("zone") == "battlefield":
        return False
    changes = left_battlefield(t.log)
    return any(cause_of(changes.get(a)) is None for a in _left(t, auras))


def _gone(t: Transition, auras) -> list[str]:
    """The Auras among ``auras`` destroyed by this event.

    An Aura put into the graveyard afterwards by a state-based action (704.5m, because
    its creature then died of toughness 0) was not destroyed instead of the creature.
    """
    changes = left_battlefield(t.log)
    return [a for a in _left(t, auras) if (cause_of(changes.get(a)) or {}).get("event") != "state_based_action"]


def _seen_instead(t: Transition, auras) -> str:
    """What the observation and the log show of ``auras`` (umbra Auras of a creature that would be
    destroyed): how many were destroyed instead, and those that left otherwise (a later
    state-based action) or stayed, so a message never counts an Aura that left as not gone."""
    gone = _gone(t, auras)
    seen = f"{len(gone)} of them destroyed instead" + (f" ({gone})" if gone else "")
    by_sba = [a for a in _left(t, auras) if a not in gone]
    if by_sba:
        causes = {a: cause_of(left_battlefield(t.log).get(a)) for a in by_sba}
        seen += (f"; {by_sba} left the battlefield by a state-based action afterwards, which is not being destroyed "
                 f"instead (logged cause{'s' if len(by_sba) > 1 else ''} "
                 f"{', '.join(f'{a}: {c}' for a, c in causes.items())})")
    stayed = [a for a in auras if a not in _left(t, auras)]
    if stayed:
        seen += f"; {stayed} still on the battlefield"
    return seen


def _expected_entry(aura: str, prediction: dict) -> str:
    """The log entry of ``aura`` destroyed instead of its creature, for a message."""
    by = prediction["by"] if not prediction["by"].startswith("704.") else prediction["rules"][0]
    return (f'{{"kind": "zone_change", "object": "{aura}", "from": "battlefield", "to": "graveyard", '
            f'"cause": {{"event": "destroy", "by": "{by}"}}}}')


@invariant(
    "umbra_armor.mandatory",
    rules=("702.89a", "614.1a"),
    rulings=("Treefolk Umbra 2019-06-14: Totem armor's effect is mandatory",
             "Hyena Umbra 2010-06-15: Totem armor's effect is applied no matter why"),
    requires=UMBRA,
    on=DESTROYING_EVENTS,
)
def mandatory(t: Transition):
    """A creature with an umbra Aura that would be destroyed stays on the battlefield.

    Whether it would be destroyed by a spell or effect that says "destroy" or by lethal
    or deathtouch damage (704.5g, 704.5h).
    """
    cases = _cases(t)
    if not cases:
        return None
    return [
        f"{oid} would be destroyed ({p['by']}) and has umbra Aura(s) {all_auras}, but is now "
        f"{'in the ' + t.after['objects'][oid]['zone'] if oid in t.after['objects'] else 'no longer observed'}: "
        f"expected it still on the battlefield and one of {all_auras} destroyed instead (CR 702.89a)"
        for oid, p, _, all_auras in cases
        if _destroyed(t, oid)
    ]


@invariant(
    "umbra_armor.removes_damage",
    rules=("702.89a",),
    rulings=("Umbra Mystic 2024-06-07: If a creature enchanted with an Aura that has umbra armor has indestructible",
             "Hyena Umbra 2010-06-15: Totem armor's effect is mandatory"),
    requires=UMBRA | {"damage"},
    on=DESTROYING_EVENTS,
)
def removes_damage(t: Transition):
    """When umbra armor saves a creature, all damage marked on it is removed."""
    cases = _cases(t)
    if not cases:
        return None
    out = []
    for oid, p, _, _ in cases:
        after = t.after["objects"].get(oid)
        if after and after["zone"] == "battlefield" and after["damage"] != 0:
            out.append(f"{oid} was saved from destruction ({p['by']}) but still has {after['damage']} damage marked")
    return out


@invariant(
    "umbra_armor.exactly_one_aura",
    rules=("702.89a", "616.1f"),
    rulings=("Umbra Mystic 2024-06-07: If a creature you control is enchanted with multiple Auras",),
    requires=UMBRA,
    on=DESTROYING_EVENTS,
)
def exactly_one_aura(t: Transition):
    """Exactly one of the creature's umbra Auras is destroyed instead, not two, not none.

    (Unless a regeneration shield was chosen instead: then none is.) Auras the event
    destroys directly are not counted.
    """
    cases = _cases(t)
    if not cases:
        return None
    out = []
    for oid, p, auras, all_auras in cases:
        if _unclear(t, oid, auras):
            continue
        gone = _gone(t, auras)
        if _regenerated(t, oid):
            allowed = {0}
        elif len(auras) < len(all_auras):
            # Some umbra Auras are destroyed by the event itself; choosing one of those
            # destroys no other Aura (ruling: "destroyed in two different ways").
            allowed = {0, 1}
        else:
            allowed = {1}
        if auras and len(gone) not in allowed:
            entry = ("" if 1 not in allowed else
                     f" (the log of this step with a zone_change entry for one of them, e.g. "
                     f"{_expected_entry(auras[0], p)})")
            out.append(f"{oid} would be destroyed ({p['by']}) with umbra Auras {auras}: expected "
                       f"{' or '.join(map(str, sorted(allowed)))} of them destroyed instead{entry}, saw "
                       f"{_seen_instead(t, auras)}")
    return out


@invariant(
    "umbra_armor.aura_destroyed_by_the_same_cause",
    rules=("702.89a", "701.7b", "704.5g"),
    rulings=("Indrik Umbra 2024-06-07: If a spell or ability says that it would \"destroy\"",),
    requires=UMBRA | {"log.zone_change_causes"},
    on=DESTROYING_EVENTS,
)
def aura_destroyed_by_the_same_cause(t: Transition):
    """The spell that would destroy the creature destroys the Aura; for lethal damage, the game rules do.

    The Aura's zone change is a destruction caused by the same spell, effect or
    state-based action that would have destroyed the creature.
    """
    cases = _cases(t)
    if not cases:
        return None
    changes = left_battlefield(t.log)
    out = []
    for oid, p, auras, _ in cases:
        for aid in _gone(t, auras):
            cause = changes.get(aid, {}).get("cause") or {}
            allowed = set(p["rules"]) if p["by"].startswith("704.") else {p["by"]}
            if cause.get("event") != "destroy" or cause.get("by") not in allowed:
                out.append(f"umbra Aura {aid} of {oid} left with cause {cause}, expected a destruction by "
                           f"{' or '.join(sorted(allowed))}")
    return out


@invariant(
    "umbra_armor.simultaneous_state_based_actions",
    rules=("702.89a", "704.5g", "704.5h", "704.3"),
    rulings=("Umbra Mystic 2024-06-07: If a creature enchanted with an Aura that has umbra armor would be "
             "destroyed by multiple",),
    requires=UMBRA | {"deathtouch"},
    on=DESTROYING_EVENTS,
)
def simultaneous_state_based_actions(t: Transition):
    """Lethal damage from a deathtouch source: one umbra armor replaces both destructions.

    Two state-based actions (704.5g and 704.5h) would destroy the creature at once; one
    Aura is destroyed and the creature survives.
    """
    cases = [c for c in _cases(t) if c[1]["rules"] == ["704.5g", "704.5h"]]
    if not cases:
        return None
    out = []
    for oid, _, auras, _ in cases:
        after = t.after["objects"].get(oid, {})
        gone = _gone(t, auras)
        if _destroyed(t, oid) or (len(gone) != 1 and not _regenerated(t, oid) and not _unclear(t, oid, auras)):
            where = f"in the {after['zone']}" if after else "no longer observed"
            out.append(f"{oid} took lethal deathtouch damage with umbra Auras {auras}: expected it saved (still on "
                       f"the battlefield) by exactly one of them destroyed instead, e.g. "
                       f"{_expected_entry(auras[0], {'by': '704.5g', 'rules': ['704.5g']})}; it is {where}, "
                       f"{_seen_instead(t, auras)}")
    return out


@invariant(
    "umbra_armor.destroyed_together_with_its_aura",
    rules=("702.89a", "701.7a"),
    rulings=("Hyena Umbra 2010-06-15: If a spell or ability (such as Planar Cleansing) would destroy both",),
    requires=UMBRA,
    on=("destroy",),
)
def destroyed_together_with_its_aura(t: Transition):
    """An effect that destroys both the creature and its umbra Aura at once saves the creature.

    The Aura is destroyed "in two different ways at the same time", which is the same as
    destroying it once.
    """
    if t.event.get("type") != "destroy":
        return None
    targets = set(t.event.get("targets") or ())
    cases = [c for c in _cases(t) if set(c[3]) & targets]
    if not cases:
        return None
    out = []
    for oid, _, _, all_auras in cases:
        if _destroyed(t, oid):
            out.append(f"{oid} and its umbra Aura(s) {sorted(set(all_auras) & targets)} were destroyed together; "
                       f"the creature must be saved")
        for aid in set(all_auras) & targets:
            if t.after["objects"].get(aid, {}).get("zone") == "battlefield":
                out.append(f"umbra Aura {aid} was destroyed by the effect and must not stay on the battlefield")
    return out


@invariant(
    "umbra_armor.indestructible",
    rules=("702.12b", "702.89a"),
    rulings=("Umbra Mystic 2024-06-07: If a creature enchanted with an Aura that has umbra armor has indestructible",),
    requires=UMBRA | {"indestructible"},
    on=DESTROYING_EVENTS,
)
def indestructible(t: Transition):
    """An indestructible creature isn't destroyed, so umbra armor does nothing.

    The creature and all its Auras stay, and damage stays marked on it.
    """
    cases = _cases(t, indestructible=True)
    if not cases:
        return None
    out = []
    for oid, p, auras, _ in cases:
        before, after = t.before["objects"][oid], t.after["objects"].get(oid, {})
        if _destroyed(t, oid):  # toughness 0 once an Aura the event destroyed is gone is no failure (704.5f)
            out.append(f"indestructible {oid} left the battlefield ({p['by']})")
        if _gone(t, auras):
            out.append(f"umbra Aura(s) {_gone(t, auras)} of indestructible {oid} left the battlefield ({p['by']})")
        if after.get("zone") == "battlefield" and after.get("damage", 0) < before["damage"] + p["amount"]:
            out.append(f"damage on indestructible {oid} went from {before['damage']} (+{p['amount']} dealt) to "
                       f"{after.get('damage')}: umbra armor must not apply")
    return out


@invariant(
    "umbra_armor.not_regeneration",
    rules=("702.89a", "701.15a"),
    rulings=("Hyena Umbra 2010-06-15: Totem armor's effect is not regeneration",),
    requires=UMBRA | {"combat_status"},
    on=DESTROYING_EVENTS,
)
def not_regeneration(t: Transition):
    """Umbra armor doesn't tap the creature or remove it from combat.

    Unlike regeneration (701.15a), the saved creature keeps its tapped and combat status.
    """
    cases = [c for c in _cases(t) if not _regenerated(t, c[0])]
    if not cases:
        return None
    out = []
    for oid, _, _, _ in cases:
        before, after = t.before["objects"][oid], t.after["objects"].get(oid, {})
        if after.get("zone") != "battlefield":
            continue
        if after["tapped"] != before["tapped"]:
            out.append(f"{oid} was saved by umbra armor and its tapped status changed {before['tapped']} -> "
                       f"{after['tapped']}")
        if after["combat"] != before["combat"]:
            out.append(f"{oid} was saved by umbra armor and its combat status changed {before['combat']} -> "
                       f"{after['combat']}")
    return out


@invariant(
    "umbra_armor.ignores_cant_be_regenerated",
    rules=("702.89a", "701.15c"),
    rulings=("Hyena Umbra 2010-06-15: Totem armor's effect is not regeneration",),
    requires=UMBRA,
    on=DESTROYING_EVENTS,
)
def ignores_cant_be_regenerated(t: Transition):
    """"Can't be regenerated" (Wrath of God) doesn't stop umbra armor; it still saves the creature."""
    cases = [c for c in _cases(t) if c[1]["cant_be_regenerated"]]
    if not cases:
        return None
    return [
        f"{oid} has umbra Aura(s) {all_auras} and was destroyed by {p['by']} ('can't be regenerated'), "
        f"but umbra armor must still apply"
        for oid, p, _, all_auras in cases
        if _destroyed(t, oid)
    ]


@invariant(
    "umbra_armor.controller_chooses_the_aura",
    rules=("616.1", "616.1e", "702.89a"),
    rulings=("Umbra Mystic 2010-06-15: If a permanent you control would be destroyed, and it's enchanted",
             "Umbra Mystic 2024-06-07: If a creature you control is enchanted with multiple Auras"),
    requires=UMBRA,
    on=DESTROYING_EVENTS,
)
def controller_chooses_the_aura(t: Transition):
    """With several umbra Auras, the enchanted creature's controller chooses which one is destroyed.

    It doesn't matter who controls the Auras (CR 616.1: the affected object's controller
    chooses among replacement effects); the Aura destroyed is the one chosen.
    """
    cases = [c for c in _cases(t) if len(c[2]) >= 2]
    if not cases:
        return None
    out = []
    for oid, _, auras, _all_auras in cases:
        controller = t.before["objects"][oid]["controller"]
        asked = [d for d in t.decisions if d.kind == D.REPLACEMENT_EFFECT
                 and {D.umbra_armor_option(a) for a in auras} <= set(d.options)]
        if not asked:
            if not D.unknown_asked(t.decisions):  # else asked under a kind the table does not know
                out.append(f"{oid} has umbra Auras {auras} but nobody was asked which one to destroy")
            continue
        decision = asked[0]
        if decision.player != controller:
            out.append(f"{decision.player} chose which umbra Aura of {oid} to destroy; its controller {controller} must")
        gone = [] if _unclear(t, oid, auras) else _gone(t, auras)
        answer = str(decision.answer)
        if answer.startswith(D.umbra_armor_option("")) and gone and gone != [answer.split(":", 1)[1]]:
            out.append(f"{controller} chose {answer} for {oid} but the Aura(s) {gone} were destroyed")
    return out


@invariant(
    "umbra_armor.or_regeneration_the_other_remains",
    rules=("616.1", "616.1f", "701.15a", "702.89a"),
    rulings=("Hyena Umbra 2010-06-15: Say you control a permanent enchanted with an Aura that has totem armor, "
             "and the enchanted permanent has gained",),
    requires=UMBRA | {"regeneration"},
    on=DESTROYING_EVENTS,
)
def or_regeneration_the_other_remains(t: Transition):
    """Umbra armor and a regeneration shield: the controller picks one; the other stays for next time.

    Exactly one of the two applies: either one Aura is destroyed and the shield stays,
    or the shield is used (the creature is tapped) and every Aura stays.
    """
    cases = [c for c in _cases(t) if c[2] and not c[1]["cant_be_regenerated"]
             and t.before["objects"][c[0]]["regeneration_shields"] > 0]
    if not cases:
        return None
    out = []
    for oid, _, auras, all_auras in cases:
        before, after = t.before["objects"][oid], t.after["objects"].get(oid, {})
        shields_used = before["regeneration_shields"] - after.get("regeneration_shields", 0)
        gone = _gone(t, auras)
        allowed = {(1, 0), (0, 1)} | ({(0, 0)} if len(auras) < len(all_auras) else set())
        if _destroyed(t, oid):
            out.append(f"{oid} had a regeneration shield and umbra Auras {auras} but was destroyed")
        elif after.get("zone") == "battlefield" and (shields_used, len(gone)) not in allowed:
            out.append(f"{oid}: {shields_used} regeneration shield(s) used and {len(gone)} umbra Aura(s) destroyed; "
                       f"exactly one of the two effects must apply")
        if not any(d.kind == D.REPLACEMENT_EFFECT and d.player == before["controller"] for d in t.decisions) \
                and not D.unknown_asked(t.decisions):
            out.append(f"{before['controller']} was not asked to choose between regeneration and umbra armor for {oid}")
    return out


@invariant(
    "umbra_armor.only_on_destruction", refused=False,
    rules=("702.89a", "701.17a", "704.5f", "704.5j"),
    rulings=("Indrik Umbra 2024-06-07: Umbra armor has no effect if the enchanted creature is put into a graveyard",),
    requires=UMBRA | {"sacrifice"},
    on=LEAVING_EVENTS, on_log=("zone_change",),
)
def only_on_destruction(t: Transition):
    """Sacrifice, the legend rule and toughness 0 or less aren't destruction: umbra armor does nothing.

    The creature goes to the graveyard; its umbra Auras are not destroyed instead (they
    go to the graveyard afterwards by 704.5m, unattached).
    """
    if t.illegal is not None:
        return None
    leaving = {oid: rule for oid, rule in leaves_without_destruction(t.before, t.event).items()
               if umbra_auras(t.before, oid)}
    changes = left_battlefield(t.log)
    for oid, entry in changes.items():
        if (entry.get("cause") or {}).get("rule") == "704.5j" and umbra_auras(t.before, oid):
            leaving[oid] = "704.5j"
    if not leaving:
        return None
    out = []
    for oid, rule in leaving.items():
        after = t.after["objects"].get(oid, {})
        if after.get("zone") == "battlefield":
            out.append(f"{oid} must go to the graveyard ({rule}); umbra armor must not save it")
        for aid in umbra_auras(t.before, oid):
            cause = (changes.get(aid) or {}).get("cause") or {}
            if cause.get("event") == "destroy":
                out.append(f"umbra Aura {aid} of {oid} was destroyed ({cause}) although {oid} left by {rule}")
    return out


@invariant(
    "umbra_armor.only_auras_that_have_it", refused=False,
    rules=("702.89a", "613.1f"),
    rulings=("Umbra Mystic 2010-06-15: Umbra Mystic grants umbra armor to Auras attached to permanents you control",),
    requires=frozenset({"umbra_armor", "log.replacement_effects"}),
    on_log=("replacement",),
)
def only_auras_that_have_it(t: Transition):
    """Umbra armor replaces a destruction only through an Aura that has umbra armor at that moment.

    Worked out from the card data and the board before the event, not from the keywords
    the engine lists: printed umbra armor; Dog Umbra only while its controller controls
    the enchanted creature; Umbra Mystic's grant counts the enchanted permanent's
    controller, not the Aura's.
    """
    if t.illegal is not None:
        return None
    used = [e for e in t.log if e.get("kind") == "replacement" and e.get("effect") == "umbra armor"]
    if not used:
        return None
    out = []
    for entry in used:
        aura, host = entry.get("source"), entry.get("affected")
        before = t.before["objects"].get(aura) if isinstance(aura, str) else None
        if not isinstance(aura, str) or before is None or before["zone"] != "battlefield" \
                or before["attached_to"] != host:
            continue  # entered or moved during the event: nothing to judge from the board before it
        if not has_umbra_armor(t.before, aura):
            out.append(f"umbra armor of {aura} ({before['name']}, controlled by {before['controller']}) replaced the "
                       f"destruction of {host} (controlled by {t.before['objects'].get(host, {}).get('controller')}), "
                       f"but that Aura has no umbra armor")
    return out
