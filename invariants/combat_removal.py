"""Removal from combat (capability ``combat``; CR 506.4, 511.3): a creature stays in combat until it
leaves the battlefield, changes control or regenerates, and the end of combat removes every creature.

Worked out, like :mod:`invariants.combat`, from the boards before and after the event.
"""

from __future__ import annotations

from .base import Transition, invariant
from .combat import COMBAT, _is_creature, _live, _objects

_UMBRA_RULING = "Hyena Umbra 2010-06-15: Totem armor's effect is not regeneration"


def _end_of_combat(t: Transition, kind: str) -> list[str]:
    """After ``end_of_combat`` no creature is in combat and no combat is observed (CR 511.3); the
    cleanup step's own checks are elsewhere."""
    out: list[str] = []
    if kind == "end_of_combat":
        out += [f"{oid} ({o['name']}) is still {o['combat']} after the end of combat (CR 511.3)"
                for oid, o in _objects(t.after).items() if o.get("zone") == "battlefield" and o.get("combat")]
        if "combat" in t.after:
            out.append("a combat is still observed after end_of_combat (CR 511.3)")
    return out


def _removed(oid: str, before: dict, after: dict) -> list[str] | None:
    """A creature that changed control or regenerated is removed from combat (CR 506.4, 701.15a):
    the problems with it, or None when neither happened."""
    regenerated = (after.get("regeneration_shields") or 0) < (before.get("regeneration_shields") or 0)
    if after.get("controller") == before.get("controller") and not regenerated:
        return None
    if after.get("combat") is None:
        return []
    why = "changed control" if after.get("controller") != before.get("controller") else "regenerated"
    return [f"{oid} ({before['name']}) {why} but is still {after['combat']} (CR 506.4, 701.15a)"]


def _stays_in_combat(t: Transition, oid: str, before: dict, after: dict) -> list[str]:
    """A creature not removed from combat keeps its status (CR 506.4; umbra armor's saving is not
    regeneration, ruling), a blocker its attacker while it attacks (509.1g), a blocked attacker
    stays blocked (509.1h)."""
    status = before.get("combat")
    if after.get("combat") != status:
        before_objs, after_objs = _objects(t.before), _objects(t.after)
        saved = [aid for aid, a in before_objs.items() if a.get("attached_to") == oid and a.get("zone") == "battlefield"
                 and (after_objs.get(aid) or {}).get("zone") != "battlefield"]
        because = f" (its Aura {saved[0]} left: umbra armor saved it, which is not regeneration)" if saved else ""
        return [f"{oid} ({before['name']}) was {status} and is {after.get('combat')} without leaving the "
                f"battlefield, changing control or regenerating{because} (CR 506.4)"]
    out = []
    attacker = before.get("blocking")
    if status == "blocking" and attacker and (_live(t.after, attacker) or {}).get("combat") == "attacking" \
            and after.get("blocking") != attacker:
        out.append(f"{oid} ({before['name']}) blocked {attacker} and is observed blocking {after.get('blocking')!r} "
                   f"while {attacker} still attacks (CR 509.1g, 506.4)")
    if status == "attacking" and before.get("blocked") is True and after.get("blocked") is not True:
        out.append(f"{oid} ({before['name']}) was blocked and is observed blocked={after.get('blocked')!r}: it "
                   f"stays blocked while it attacks (CR 509.1h)")
    return out


def _combatant_problems(t: Transition, kind: str | None, oid: str, before: dict) -> list[str]:
    """The problems with ``oid``, in combat on the battlefield before the event (the caller picks
    them), once it was performed."""
    after = _live(t.after, oid)
    if after is None or not _is_creature(after):
        return []  # it left the battlefield or stopped being a creature (CR 506.4)
    if kind == "set_combat" and t.event.get("object") == oid:
        return []  # an effect set its status
    removed = _removed(oid, before, after)
    return removed if removed is not None else _stays_in_combat(t, oid, before, after)


@invariant("combat.removal_from_combat", refused=False,
           rules=("506.4", "701.15a", "509.1h", "511.3"), rulings=(_UMBRA_RULING,),
           requires=COMBAT)
def removal_from_combat(t: Transition):
    """A creature stays in combat until it is removed: it leaves, changes control or regenerates (506.4).

    "A permanent is removed from combat if it leaves the battlefield, if its controller changes, ...
    if an effect specifically removes it from combat, ... or if it's an attacking or blocking
    creature that regenerates" (CR 506.4, 701.15a). Umbra armor's effect is not regeneration: the
    saved creature "is not removed from combat" (ruling). Otherwise it keeps its status, a blocker
    keeps blocking its attacker while that one attacks, and a blocked attacker stays blocked (509.1h).
    end_of_combat removes every creature (511.3).
    """
    if "combat" not in t.before or t.illegal is not None or t.error is not None:
        return None
    kind = t.event.get("type")
    if kind in ("end_of_combat", "cleanup"):
        return _end_of_combat(t, kind)
    out = []
    for oid, before in _objects(t.before).items():
        if before.get("combat") is not None and before.get("zone") == "battlefield":  # in combat before
            out += _combatant_problems(t, kind, oid, before)
    return out
