"""Helpers that read observations and predict what an event must destroy.

These are deliberately not an engine: they predict only the direct, unambiguous effects
of one event on the observation before it (CR 701.7, 704.5f-h, 701.17a), which is all the
rules invariants need to decide whether they apply.
"""

from __future__ import annotations

from .card_abilities import damage_spells, destroy_spells, has_keyword, has_umbra_armor
from .views import per_observation, per_step

SBA_DESTROY_RULES = ("704.5g", "704.5h")


def on_battlefield(obs: dict, oid) -> bool:
    obj = obs["objects"].get(oid) if isinstance(oid, str) else None
    return obj is not None and obj["zone"] == "battlefield"


def is_creature(obj: dict) -> bool:
    return "Creature" in obj["types"]


def umbra_auras(obs: dict, oid: str) -> list[str]:
    """Ids of Auras with umbra armor attached to ``oid`` on the battlefield (CR 702.89a).

    Whether an Aura has umbra armor is worked out from its card and the board
    (:func:`invariants.card_abilities.has_umbra_armor`), not from the keywords the
    engine reports.
    """
    return [aid for aid in _attached_on_battlefield(obs).get(oid, ()) if has_umbra_armor(obs, aid)]


@per_observation
def _attached_on_battlefield(obs: dict) -> dict:
    """The ids of the objects on the battlefield attached to each object (``attached_to``; None:
    attached to nothing), by that object's id, each in the order of ``obs``'s objects (a shared
    view, :mod:`.views`: one pass over the objects for every creature :func:`umbra_auras` is asked of)."""
    found: dict = {}
    for aid, a in obs["objects"].items():
        if a["zone"] == "battlefield":
            found.setdefault(a["attached_to"], []).append(aid)
    return {host: tuple(ids) for host, ids in found.items()}


def _destroyed_by_a_spell(before: dict, event: dict) -> dict[str, dict]:
    """Creatures a cast destroy spell (701.7a), Wrath of God or damage spell (704.5g/h) would destroy."""
    objs = before["objects"]
    found: dict[str, dict] = {}
    name = event.get("card")
    targets = event.get("targets") or []
    if name in destroy_spells() and len(targets) == 1 and on_battlefield(before, targets[0]):
        target = objs[targets[0]]
        if is_creature(target) and destroy_spells()[name] not in target["colors"]:
            found[targets[0]] = {"by": name, "rules": ["701.7a"], "cant_be_regenerated": False, "amount": 0}
    elif name == "Wrath of God" and not targets:
        for oid, obj in objs.items():
            if obj["zone"] == "battlefield" and is_creature(obj):
                found[oid] = {"by": name, "rules": ["701.7a"], "cant_be_regenerated": True, "amount": 0}
    elif name in damage_spells() and len(targets) == 1:
        found.update(_lethal(before, targets[0], damage_spells()[name], False))
    return found


def _destroyed_by_an_effect(before: dict, event: dict) -> dict[str, dict]:
    """Creatures the ``destroy`` event (distinct targets, all on the battlefield) would destroy (701.7a)."""
    objs = before["objects"]
    found: dict[str, dict] = {}
    targets = event.get("targets") or []
    if targets and len(set(targets)) == len(targets) and all(on_battlefield(before, t) for t in targets):
        for t in targets:
            if is_creature(objs[t]):
                found[t] = {"by": "destroy effect", "rules": ["701.7a"],
                            "cant_be_regenerated": bool(event.get("cant_be_regenerated")), "amount": 0}
    return found


def _destroyed_by_damage(before: dict, event: dict) -> dict[str, dict]:
    """The creature a ``damage`` event from a permanent would destroy (704.5g lethal damage, 704.5h deathtouch)."""
    source, amount = event.get("source"), event.get("amount")
    if on_battlefield(before, source) and isinstance(amount, int) and amount >= 1:
        return _lethal(before, event.get("target"), amount, has_keyword(before["objects"][source], "deathtouch"))
    return {}


#: The event types that can destroy, each with what it would destroy.
_DESTROYERS = {"cast": _destroyed_by_a_spell, "destroy": _destroyed_by_an_effect, "damage": _destroyed_by_damage}
#: The event types :func:`would_be_destroyed` predicts destructions of (for any other: none).
DESTROYING_EVENTS = tuple(_DESTROYERS)


def would_be_destroyed(before: dict, event: dict) -> dict[str, dict]:
    """Creatures ``event`` would destroy, predicted from ``before``.

    Returns ``{id: {"by": NAME or RULE, "rules": [...], "cant_be_regenerated": bool,
    "amount": damage dealt or 0}}``: ``by`` is the spell's name for a destroy spell, the
    string ``"destroy effect"`` for the ``destroy`` event, and the state-based action
    (``"704.5g"`` lethal damage, ``"704.5h"`` deathtouch) for damage. Indestructible
    creatures are included (the caller decides); illegal events predict nothing.
    """
    kind = event.get("type")
    predict = _DESTROYERS.get(kind) if isinstance(kind, str) else None
    return predict(before, event) if predict is not None else {}


@per_step
def destroyed_in_step(t) -> dict[str, dict]:
    """:func:`would_be_destroyed` of the step ``t`` (a Transition: its observation before and its event),
    one dict for every check of the step (:func:`.views.per_step`: callers must not change it)."""
    return would_be_destroyed(t.before, t.event)


def _lethal(before, target, amount, deathtouch) -> dict[str, dict]:
    if not on_battlefield(before, target):
        return {}
    obj = before["objects"][target]
    if not is_creature(obj) or obj["toughness"] is None or obj["toughness"] <= 0:
        return {}
    rules = []
    if obj["damage"] + amount >= obj["toughness"]:
        rules.append("704.5g")
    if deathtouch:
        rules.append("704.5h")
    if not rules:
        return {}
    return {target: {"by": rules[0], "rules": rules, "cant_be_regenerated": False, "amount": amount}}


def leaves_without_destruction(before: dict, event: dict) -> dict[str, str]:
    """Creatures ``event`` puts into the graveyard without destroying them.

    ``{id: rule}``: sacrifice (701.17a) and toughness 0 or less from -N/-N (704.5f).
    The legend rule (704.5j) is read from the log by the caller, since the controller
    chooses which legend stays.
    """
    kind = event.get("type")  # one of LEAVING_EVENTS, or nothing leaves
    if kind == "sacrifice" and on_battlefield(before, event.get("object")):
        return {event["object"]: "701.17a"}
    if kind == "modify_pt" and on_battlefield(before, event.get("object")):
        obj = before["objects"][event["object"]]
        t = event.get("toughness")
        if is_creature(obj) and isinstance(t, int) and not isinstance(t, bool) and isinstance(
            event.get("power"), int
        ) and obj["toughness"] + t <= 0:
            return {event["object"]: "704.5f"}
    return {}


#: The event types :func:`leaves_without_destruction` finds creatures leaving by (for any other: none).
LEAVING_EVENTS = ("sacrifice", "modify_pt")


def zone_changes(log: list[dict]) -> dict[str, dict]:
    """The last zone_change log entry of each object in ``log``."""
    return {e["object"]: e for e in log if e.get("kind") == "zone_change"}


def left_battlefield(log: list[dict]) -> dict[str, dict]:
    """The zone_change entry that took each object off the battlefield.

    A token's later "ceases to exist" entry (CR 111.7, 704.5d) is not the one that
    says why it left.
    """
    return {e["object"]: e for e in log if e.get("kind") == "zone_change" and e.get("from") == "battlefield"}


def cause_of(entry: dict | None) -> dict | None:
    """The ``cause`` of a ``zone_change`` log entry, or None when the entry (or its cause) is
    absent: an engine that doesn't claim ``log.zone_change_causes`` need not log causes, so a
    check reading one is not applicable without it (it derives what the observations show)."""
    cause = (entry or {}).get("cause")
    return cause if isinstance(cause, dict) else None


def controller_as_it_last_existed(t, oid: str | None) -> str | None:
    """The controller of ``oid`` at the end of ``t``'s event or as it last existed on the
    battlefield: as before the event, unless the event gave control of it to another player
    (``change_control``, CR 613.1b). None if it wasn't in the game before."""
    if t.event.get("type") == "change_control" and t.event.get("object") == oid:
        return t.event.get("controller")
    before = t.before["objects"].get(oid)
    return before["controller"] if before is not None else None
