"""Control and ownership (CR 108.3, 108.4, 110.2, 111.2, 400.3, 613.1b, 506.4, 302.6).

The owner of a card is the player who started the game with it, the owner of a token the
player under whose control it was created (CR 108.3, 111.2); ownership never changes.
Objects go to their owner's graveyard, library, hand (CR 400.3, 404.1). A control-changing
effect (the ``change_control`` event, capability ``control_change``) changes who controls a
permanent and nothing else about it, but removes it from combat (CR 506.4) and makes a
creature summoning sick (CR 302.6); whose choice a later rule asks for (the legend rule,
CR 704.5j) follows the new controller.
"""

from __future__ import annotations

from typing import cast

from harness import decisions as D
from .base import Decision, Transition, invariant
from .observed import cause_of, left_battlefield
from .on_change import changed_objects


@invariant("generic.owner_never_changes", rules=("108.3", "111.2"), family="generic")
def owner_never_changes(t: Transition):
    """Every object keeps its owner, whatever happens to it (control changes and zone changes included).

    Read on change only (:func:`invariants.on_change.changed_objects`): an object equal to its
    version before has its owner; with two or more found, all are read again, in their order before."""
    changed = changed_objects(t.after, t.before)
    if not changed:
        return []  # every object as it was
    old = t.before["objects"]
    out = [f"{oid} ({before['name']}) was owned by {before['owner']} and is now owned by {after['owner']}"
           for oid, after in changed.items()
           if (before := old.get(oid)) is not None and after["owner"] != before["owner"]]
    return out if len(out) < 2 else _owners_changed(t)


def _owners_changed(t: Transition) -> list[str]:
    """What :func:`owner_never_changes` finds, every object read, in their order before the event."""
    out = []
    for oid, before in t.before["objects"].items():
        after = t.after["objects"].get(oid)
        if after is not None and after["owner"] != before["owner"]:
            out.append(f"{oid} ({before['name']}) was owned by {before['owner']} and is now owned by {after['owner']}")
    return out


@invariant("generic.new_objects_owned_by_their_controller", refused=False,
           rules=("110.2", "111.2", "108.3"), family="generic",
           on_log=("zone_change",))
def new_objects_owned_by_their_controller(t: Transition):
    """An object created or put onto the battlefield from outside the game by this event is owned and
    controlled by the player under whose control it entered (a token's owner is the player who
    created it, CR 111.2)."""
    if t.illegal is not None:
        return None
    new = [e["object"] for e in t.log if e.get("kind") == "zone_change" and e.get("from") is None
           and e.get("to") == "battlefield" and e.get("object") not in t.before["objects"]]
    if not new:
        return None
    out = []
    for oid in new:
        obj = t.after["objects"].get(oid)
        if obj is None or obj["zone"] != "battlefield":
            continue
        if t.event.get("type") == "put_onto_battlefield" and t.event.get("id") == oid \
                and obj["controller"] != t.event.get("controller"):
            out.append(f"{oid} entered under {obj['controller']}'s control; the event put it under "
                       f"{t.event.get('controller')}'s")
        if obj["owner"] != obj["controller"]:
            out.append(f"{oid} ({obj['name']}) entered under {obj['controller']}'s control but is owned by "
                       f"{obj['owner']}")
    return out


@invariant("control.gains_control_and_nothing_else", refused=False, rules=("613.1b", "506.4", "302.6", "108.3"),
           requires=("control_change",), on=("change_control",))
def gains_control_and_nothing_else(t: Transition):
    """After "P gains control of X": X is P's (unless a state-based action then took it off the
    battlefield), still owned by its owner; if its controller changed, it is removed from combat
    and a creature is summoning sick; its damage, counters, tapped status and attachment are unchanged."""
    if t.illegal is not None or t.event.get("type") != "change_control":
        return None
    oid, controller = t.event.get("object"), t.event.get("controller")
    before, after = t.before["objects"].get(oid), t.after["objects"].get(oid)
    if before is None or after is None or before["zone"] != "battlefield":
        return None
    oid = cast(str, oid)  # a key of objects
    if after["zone"] != "battlefield":
        cause = cause_of(left_battlefield(t.log).get(oid))
        if cause is not None and cause.get("event") != "state_based_action":  # no cause logged: nothing to judge
            return [f"{oid} left the battlefield when {controller} gained control of it (cause {cause})"]
        return []
    out = []
    if after["controller"] != controller:
        out.append(f"{controller} gained control of {oid} but it is controlled by {after['controller']}")
    if before["controller"] != controller and after["combat"] is not None:
        out.append(f"{oid} changed control and is still {after['combat']} (CR 506.4: removed from combat)")
    if before["controller"] != controller and "Creature" in after["types"] and not after["summoning_sick"]:
        out.append(f"creature {oid} came under {controller}'s control and is not summoning sick (CR 302.6)")
    for field in ("damage", "counters", "tapped", "attached_to", "owner"):
        if before[field] != after[field]:
            out.append(f"{oid}'s {field} changed from {before[field]!r} to {after[field]!r} when its control changed")
    return out


def _legends_of_the_same_name(t: Transition, oid: str, gained: dict, controller) -> list[str]:
    """The legends other than ``oid`` with its name that ``controller`` controlled before (CR 704.5j)."""
    return [m for m, o in t.before["objects"].items() if m != oid and o["zone"] == "battlefield"
            and o["controller"] == controller and o["name"] == gained["name"] and "Legendary" in o["supertypes"]]


def _kept_one(t: Transition, controller, group: list[str], asked: Decision) -> list[str]:
    """The new controller chose which legend stays; the others left the battlefield (CR 704.5j)."""
    out = []
    if asked.player != controller:
        out.append(f"{asked.player} chose which legend to keep; {controller}, who controls them, must")
    for other in group:
        if other != asked.answer and (t.after["objects"].get(other) or {}).get("zone") == "battlefield":
            out.append(f"{other} was not kept under the legend rule but is still on the battlefield")
    return out


@invariant("control.legend_rule_asks_the_new_controller", refused=False, rules=("704.5j", "613.1b"),
           requires=("control_change", "legend_rule"), on=("change_control",))
def legend_rule_asks_the_new_controller(t: Transition):
    """Gaining control of a legend with the name of one you control: you choose which one stays
    (the legend rule counts the permanents each player controls now); the other goes to its
    owner's graveyard."""
    if t.illegal is not None or t.event.get("type") != "change_control":
        return None
    oid, controller = t.event.get("object"), t.event.get("controller")
    gained = t.before["objects"].get(oid)
    if gained is None or gained["zone"] != "battlefield" or "Legendary" not in gained["supertypes"]:
        return None
    oid = cast(str, oid)  # a key of objects
    mates = _legends_of_the_same_name(t, oid, gained, controller)
    if not mates:
        return None
    group = sorted([oid, *mates])
    asked = [d for d in t.decisions if d.kind == D.LEGEND_RULE and set(group) <= set(d.options)]
    if not asked:
        if D.unknown_asked(t.decisions):  # asked under a kind the table does not know
            return None
        return [f"{controller} gained control of legend {oid} and controls {mates} of the same name, but was not "
                f"asked which to keep"]
    return _kept_one(t, controller, group, asked[0])
