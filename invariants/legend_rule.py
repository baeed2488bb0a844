"""The legend rule (CR 704.5j): the controller chooses which legend stays.

"If two or more legendary permanents with the same name are controlled by the same
player, that player chooses one of them, and the rest are put into their owners'
graveyards." It is a state-based action, not destruction.
"""

from __future__ import annotations

from typing import cast

from harness import decisions as D
from .base import Transition, invariant
from .observed import cause_of, controller_as_it_last_existed, left_battlefield


def _legends(obs: dict) -> dict[tuple, list[str]]:
    groups: dict[tuple, list[str]] = {}
    for oid, o in obs["objects"].items():
        if o["zone"] == "battlefield" and "Legendary" in o["supertypes"]:
            groups.setdefault((o["controller"], o["name"]), []).append(oid)
    return groups


def _chosen_stays(t: Transition, oid: str, zone) -> list[str]:
    """The legend chosen stays on the battlefield (CR 704.5j)."""
    if zone != "battlefield" and not any(e.get("kind") == "trigger" for e in t.log):
        # (a triggered ability of the event may have dealt it lethal damage after the legend rule)
        return [f"{oid} was chosen to stay under the legend rule but is "
                f"{f'in the {zone}' if zone else 'no longer observed'}: expected it still on the "
                f"battlefield"]
    return []


def _the_rest_go_to_the_graveyard(oid: str, zone, cause: dict | None) -> list[str]:
    """A legend not chosen is put into its owner's graveyard by the state-based action (CR 704.5j)."""
    if zone == "battlefield":
        return [f"{oid} was not chosen under the legend rule but is still on the battlefield: expected it in "
                f"its owner's graveyard, logged as a zone_change with cause "
                f"{{\"event\": \"state_based_action\", \"rule\": \"704.5j\"}}"]
    if cause is not None and (cause.get("event") != "state_based_action"
                              or cause.get("rule") not in ("704.5j", "704.5f")):
        # (704.5f: it had toughness 0 as well; all state-based actions happen at once)
        return [f"{oid} left under the legend rule with cause {cause}; it must be put into the graveyard "
                f"by the state-based action 704.5j"]
    return []


@invariant("legend_rule.controller_chooses", refused=False, rules=("704.5j",), requires=("legend_rule",),
           on=("put_onto_battlefield",))
def controller_chooses(t: Transition):
    """A legend entering under a player who controls one of the same name: that player chooses one to keep.

    The one chosen stays; the others are put into their owners' graveyards by the legend
    rule (a state-based action, not destruction, so umbra armor can't save them).
    """
    if t.illegal is not None or t.event.get("type") != "put_onto_battlefield":
        return None
    new = t.event.get("id")
    entered = t.after["objects"].get(new)
    if entered is None or new in t.before["objects"] or "Legendary" not in entered["supertypes"]:
        return None
    new = cast(str, new)  # a key of objects
    controller = t.event.get("controller")
    group = _legends(t.before).get((controller, entered["name"]), []) + [new]
    if len(group) < 2:
        return None
    asked = [d for d in t.decisions if d.kind == D.LEGEND_RULE and set(group) <= set(d.options)]
    if not asked:
        if D.unknown_asked(t.decisions):  # asked under a kind the table does not know
            return None
        return [f"{controller} controls legends {group} named {entered['name']} and was not asked which to keep"]
    decision = asked[0]
    out = []
    if decision.player != controller:
        out.append(f"{decision.player} chose which of {group} to keep; their controller {controller} must")
    changes = left_battlefield(t.log)
    for oid in group:
        zone = t.after["objects"].get(oid, {}).get("zone")
        if oid == decision.answer:
            out += _chosen_stays(t, oid, zone)
        else:
            out += _the_rest_go_to_the_graveyard(oid, zone, cause_of(changes.get(oid)))
    return out


def _as_the_rule_saw_them(t: Transition) -> dict[str, dict]:
    """Each object on the battlefield before or new after, with its controller when the legend rule
    applied, and a new copy's copied name and supertypes (CR 707.2)."""
    seen = {}
    for oid in set(t.before["objects"]) | set(t.after["objects"]):
        o = t.before["objects"].get(oid) or t.after["objects"][oid]
        if oid in t.before["objects"] and o["zone"] != "battlefield":
            continue
        if oid in t.before["objects"]:  # its controller when the rule applied
            o = dict(o, controller=controller_as_it_last_existed(t, oid))
        else:
            # A new object: it entered under the event's controller, as a copy if the
            # event says so (CR 707.2); off the battlefield it shows its card's values.
            o = dict(o, controller=t.event.get("controller", o["controller"]))
            copied = t.before["objects"].get(t.event.get("copy_of") or "")
            if copied is not None:
                o.update(name=copied["name"], supertypes=copied["supertypes"])
        seen[oid] = o
    return seen


@invariant("legend_rule.same_controller_only", refused=False,
           rules=("704.5j",), requires=("legend_rule",), on_log=("zone_change",))
def same_controller_only(t: Transition):
    """The legend rule only applies to legends controlled by the same player.

    Every permanent put into a graveyard by 704.5j had a legendary permanent of the same
    name under the same controller.
    """
    if t.illegal is not None:
        return None
    ruled = [oid for oid, e in left_battlefield(t.log).items() if (e.get("cause") or {}).get("rule") == "704.5j"]
    if not ruled:
        return None
    seen = _as_the_rule_saw_them(t)
    out = []
    for oid in ruled:
        me = seen.get(oid)
        if me is None:
            continue
        mates = [other for other, o in seen.items() if other != oid and o["name"] == me["name"]
                 and o["controller"] == me["controller"] and "Legendary" in o["supertypes"]]
        if not mates:
            out.append(f"{oid} ({me['name']}, {me['controller']}) was put into the graveyard by the legend rule, "
                       f"but its controller controlled no other legend of that name")
    return out
