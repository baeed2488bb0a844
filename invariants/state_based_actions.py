"""No state-based action left pending after an event (CR 704.3), one invariant per rule of 704.5.

"Whenever a player would get priority, the game checks for any of the listed conditions
for state-based actions, then performs all applicable state-based actions
simultaneously as a single event. If any state-based actions are performed as a result
of a check, the check is repeated" (CR 704.3). An engine performs an event and
everything that follows from it, so the observation after an event must show none of
the conditions of 704.5 that the engine claims to implement. Each invariant checks one
rule and needs that rule's capability (``harness.protocol.CAPABILITIES``): an engine
claims only the state-based actions it implements, and ``--invariant`` or
``--skip-invariant`` select them one by one.

Each returns None for a refused event (nothing happened, CR 704.3) and when the
observation after the event has nothing the rule is about (no token, no creature, ...).
Keywords are read from the card data (:mod:`invariants.card_abilities`), not from the
engine's account; toughness, counters and attachments are the observed ones (computed
after layers, CR 613).
"""

from __future__ import annotations

from .base import Transition, invariant
from .card_abilities import has_keyword
from .on_change import IdsWhere, Sound

#: The tokens, the creatures on the battlefield with a toughness and the permanents with counters of
#: the step's observations (kept on change: :mod:`.on_change`).
_TOKENS = IdsWhere(lambda o: bool(o["token"]))
_CREATURES = IdsWhere(lambda o: o["zone"] == "battlefield" and "Creature" in o["types"] and o["toughness"] is not None)
_COUNTERED = IdsWhere(lambda o: o["zone"] == "battlefield" and bool(o["counters"]))
#: The legendary permanents and the Auras on the battlefield (kept on change): those the legend rule and
#: CR 704.5m read, found in the order of ``objects``.
_LEGENDS = IdsWhere(lambda o: o["zone"] == "battlefield" and "Legendary" in o["supertypes"])
_AURAS = IdsWhere(lambda o: o["zone"] == "battlefield" and "Aura" in o["subtypes"])


def _in_order(objects: dict, ids: frozenset) -> list[tuple[str, dict]]:
    """``(id, object)`` of the objects of ``ids`` among ``objects`` (an observation's), in the order of ``objects``."""
    return [(oid, objects[oid]) for oid in filter(ids.__contains__, objects)]


@invariant("sba.life_total", refused=False, rules=("704.3", "704.5a"), requires=("sba.life_total",), family="generic")
def life_total(t: Transition):
    """704.5a: a player with 0 or less life has lost the game."""
    if t.illegal is not None:
        return None
    return [f"704.5a: {pid} has {p['life']} life and has not lost: expected players.{pid}.lost true"
            for pid, p in t.after["players"].items() if p["life"] <= 0 and not p["lost"]]


@invariant("sba.token_zone", rules=("704.3", "704.5d", "111.7"), requires=("sba.token_zone",), family="generic")
def token_zone(t: Transition):
    """704.5d: no token is in a zone other than the battlefield (it ceased to exist).

    Checked on change only (:mod:`.on_change`), as the other checks here but for the legend rule
    and Auras: after an observation found sound, the objects new or changed since."""
    before, tokens = _TOKENS.pair(t.before, t.after)
    out = [f"704.5d: token {oid} is in the {o['zone']}: expected it to have ceased to exist (gone from the "
           f"objects and zones, the log of this step with a zone_change entry for it with to null, e.g. "
           f'{{"kind": "zone_change", "object": "{oid}", "from": "{o["zone"]}", "to": null}})'
           for oid, o in _tokens_sound.to_read(t.before, t.after).items() if o["token"] and o["zone"] != "battlefield"]
    _tokens_sound.keep(t.after, out)
    if t.illegal is not None or (not tokens and not before):
        return None
    return out


_tokens_sound, _toughness_sound, _damage_sound, _counters_sound = Sound(), Sound(), Sound(), Sound()


@invariant("sba.zero_toughness", rules=("704.3", "704.5f"), requires=("sba.zero_toughness",), family="generic")
def zero_toughness(t: Transition):
    """704.5f: no creature on the battlefield has toughness 0 or less (indestructible or not)."""
    _, creatures = _CREATURES.pair(t.before, t.after)
    out = [f"704.5f: creature {oid} has toughness {o['toughness']} and is still on the battlefield: expected it in "
           f"its owner's graveyard" for oid, o in _toughness_sound.to_read(t.before, t.after).items()
           if oid in creatures and o["toughness"] <= 0]
    _toughness_sound.keep(t.after, out)
    return None if t.illegal is not None or not creatures else out


@invariant("sba.lethal_damage", rules=("704.3", "704.5g", "702.12b"), requires=("sba.lethal_damage",),
           family="generic")
def lethal_damage(t: Transition):
    """704.5g: no creature on the battlefield with toughness above 0 has damage marked on it at least equal
    to its toughness, unless it is indestructible (702.12b)."""
    _, creatures = _CREATURES.pair(t.before, t.after)
    out = [f"704.5g: creature {oid} has {o['damage']} damage and toughness {o['toughness']} and is still on the "
           f"battlefield: expected it destroyed (in its owner's graveyard), or a replacement effect that removed "
           f"the damage"
           for oid, o in _damage_sound.to_read(t.before, t.after).items()
           if oid in creatures and 0 < o["toughness"] <= o["damage"] and not has_keyword(o, "indestructible")]
    _damage_sound.keep(t.after, out)
    return None if t.illegal is not None or not creatures else out


def _has_deathtouch(entry: dict, before: dict, after: dict) -> bool:
    """Whether a damage entry's source has deathtouch: the entry says so, or the source permanent's
    card data (as it is after the event, or before it when it is gone)."""
    source = entry.get("source")
    source_obj = (after.get(source) or before.get(source)) if isinstance(source, str) else None
    return entry.get("deathtouch") is True or (source_obj is not None and has_keyword(source_obj, "deathtouch"))


def _dealt_deathtouch_damage(t: Transition) -> dict[str, str | None]:
    """``{creature: source}`` for each creature the log shows dealt a nonzero amount (702.2b) of damage by a
    deathtouch source."""
    before, after = t.before["objects"], t.after["objects"]
    dealt: dict[str, str | None] = {}
    for entry in t.log:
        if entry.get("kind") != "damage" or not isinstance(entry.get("amount"), int) or entry["amount"] <= 0:
            continue
        target = after.get(entry.get("target")) if isinstance(entry.get("target"), str) else None
        if _has_deathtouch(entry, before, after) and target is not None and "Creature" in (target.get("types") or ()):
            dealt[entry["target"]] = entry.get("source")
    return dealt


@invariant("sba.deathtouch_damage", refused=False, rules=("704.3", "704.5h", "702.2b", "702.12b"),
           requires=("sba.deathtouch_damage",), family="generic", on_log=("damage",))
def deathtouch_damage(t: Transition):
    """704.5h: a creature dealt damage by a deathtouch source during the event is no longer on the
    battlefield with that damage marked, unless it is indestructible (702.12b).

    Read from the event's log: each ``damage`` entry of a nonzero amount (702.2b: "any nonzero
    amount") to a creature, whose source has deathtouch (the source permanent's card data, or the
    entry's ``deathtouch``). Destruction replaced (regeneration, umbra armor) removes the damage,
    so a creature still on the battlefield with damage marked, and no replacement effect logged
    for it, was not destroyed. None when the event dealt no deathtouch damage to a creature.
    """
    if t.illegal is not None:
        return None
    dealt = _dealt_deathtouch_damage(t)
    if not dealt:
        return None
    replaced = {e.get("affected") for e in t.log if e.get("kind") == "replacement"}
    out = []
    for oid, source in dealt.items():
        o = t.after["objects"][oid]
        if o["zone"] == "battlefield" and o["damage"] > 0 and (o["toughness"] or 0) > 0 \
                and not has_keyword(o, "indestructible") and oid not in replaced:
            out.append(f"704.5h: creature {oid} was dealt damage by deathtouch source {source} and is still on the "
                       f"battlefield with {o['damage']} damage")
    return out


@invariant("sba.legend_rule", rules=("704.3", "704.5j"), requires=("legend_rule",), family="generic")
def legend_rule(t: Transition):
    """704.5j: no player controls two or more legendary permanents with the same name."""
    legendary = _LEGENDS.pair(t.before, t.after)[1]
    if t.illegal is not None or not legendary:
        return None
    if len(legendary) == 1:
        return []  # one legendary permanent: no two of one name
    legends: dict[tuple, list[str]] = {}
    for oid, o in _in_order(t.after["objects"], legendary):
        legends.setdefault((o["controller"], o["name"]), []).append(oid)
    return [f"704.5j: {controller} controls {len(ids)} legendary {name}: {ids}"
            for (controller, name), ids in legends.items() if len(ids) > 1]


@invariant("sba.unattached_aura", rules=("704.3", "704.5m"), requires=("sba.unattached_aura",), family="generic")
def unattached_aura(t: Transition):
    """704.5m: every Aura on the battlefield is attached to a permanent on the battlefield."""
    ids = _AURAS.pair(t.before, t.after)[1]
    if t.illegal is not None or not ids:
        return None
    objs = t.after["objects"]
    for oid in ids:  # a first pass in any order: the messages, in the order of the objects, only if one is found
        attached = objs[oid]["attached_to"]
        host = objs.get(attached) if isinstance(attached, str) else None
        if host is None or host["zone"] != "battlefield":
            break
    else:
        return []
    out = []
    for oid, o in _in_order(objs, ids):
        host = objs.get(o["attached_to"]) if isinstance(o["attached_to"], str) else None
        if host is None or host["zone"] != "battlefield":
            what = "nothing" if host is None and o["attached_to"] is None else (
                "no object of the game" if host is None else f"an object in the {host['zone']}")
            out.append(f"704.5m: Aura {oid} is attached to {o['attached_to']!r}, not a permanent ({what}): expected "
                       f"it in its owner's graveyard")
    return out


@invariant("sba.counter_annihilation", rules=("704.3", "704.5q"), requires=("sba.counter_annihilation",),
           family="generic")
def counter_annihilation(t: Transition):
    """704.5q: no permanent has both +1/+1 and -1/-1 counters on it."""
    _, countered = _COUNTERED.pair(t.before, t.after)
    out = [f"704.5q: {oid} has both +1/+1 and -1/-1 counters ({o['counters']}): expected N of each removed, N the "
           f"smaller count" for oid, o in _counters_sound.to_read(t.before, t.after).items()
           if oid in countered and o["counters"].get("+1/+1") and o["counters"].get("-1/-1")]
    _counters_sound.keep(t.after, out)
    return None if t.illegal is not None or not countered else out
