"""The cleanup step (CR 514.2): what ends there, and what doesn't.

CR 514.2: "all damage marked on permanents (including phased-out permanents) is removed
and all 'until end of turn' and 'this turn' effects end." In scope: marked damage (CR
120.6), "until end of turn" power/toughness effects (CR 611.2a, 613.4), regeneration
shields, which are "this turn" effects (CR 701.15a: "The next time [permanent] would be
destroyed this turn"), and combat status (combat is over by then, CR 511.3). Nothing
else ends: counters, tapped status, attachments, control (the control-changing effects
in scope last indefinitely) and life totals stay; a permanent leaves only by a
state-based action checked during the step (CR 514.3a), e.g. a creature whose toughness
drops to 0 when a +N/+N effect ends.
"""

from __future__ import annotations

from .base import Transition, invariant


def _cleanup(t: Transition) -> bool:
    return t.illegal is None and t.event.get("type") == "cleanup"


@invariant("cleanup.everything_that_ends_does", rules=("514.2", "120.6", "611.2a", "701.15a", "511.3"),
           requires=("cleanup",), on=("cleanup",))
def everything_that_ends_does(t: Transition):
    """After the cleanup step no permanent has damage marked, an "until end of turn" effect,
    a regeneration shield or a combat status."""
    if not _cleanup(t):
        return None
    out = []
    for oid, o in t.after["objects"].items():
        if o["zone"] != "battlefield":
            continue
        if o["damage"]:
            out.append(f"{oid} ({o['name']}) still has {o['damage']} damage marked after the cleanup step")
        if o["regeneration_shields"]:
            out.append(f"{oid} ({o['name']}) still has {o['regeneration_shields']} regeneration shield(s) after the "
                       f"cleanup step (a shield lasts this turn)")
        if o["combat"] is not None:
            out.append(f"{oid} ({o['name']}) is still {o['combat']} after the cleanup step")
        lasting = [e for e in o.get("pt_effects") or () if isinstance(e, dict) and e.get("until_end_of_turn")]
        if lasting:
            out.append(f"{oid} ({o['name']}) still has until-end-of-turn effects {lasting} after the cleanup step")
    return out


def _host_gone(t: Transition, host) -> bool:
    """Whether the permanent ``host`` (an attachment's, before the step) left the battlefield during
    it or stopped being a creature (an until-end-of-turn effect ended): an Equipment then becomes
    unattached by a state-based action (CR 301.5c, 704.5n)."""
    after = t.after["objects"].get(host) if isinstance(host, str) else None
    return after is None or after.get("zone") != "battlefield" or "Creature" not in (after.get("types") or ())


def _left_by_a_state_based_action(oid: str, before: dict, logged: dict | None) -> list[str]:
    """A permanent leaves the battlefield in the cleanup step only by a state-based action (CR 514.3a),
    judged from the cause of its logged zone change (``logged``; nothing to judge without one)."""
    cause = (logged or {}).get("cause")
    if not isinstance(cause, dict):
        return []  # no cause logged (log.zone_change_causes not claimed): nothing to judge
    if cause.get("event") != "state_based_action" and not str(cause.get("by", "")).startswith("704."):
        return [f"{oid} ({before['name']}) left the battlefield in the cleanup step with cause {cause}, "
                f"not by a state-based action"]
    return []


#: What the cleanup step doesn't end (CR 514.2: only damage and "until end of turn" effects end).
_STAYS = ("counters", "tapped", "attached_to", "controller", "owner")


def _nothing_else_changed(t: Transition, oid: str, before: dict, after: dict) -> list[str]:
    """Counters, tapped status, attachment, controller and owner of a permanent that stays stay too."""
    out = []
    for field in _STAYS:
        if field == "attached_to" and after[field] is None and _host_gone(t, before[field]):
            continue  # a state-based action unattached it: its creature died (301.5c, 704.5n)
        if before[field] != after[field]:
            out.append(f"{oid} ({before['name']}): {field} changed from {before[field]!r} to {after[field]!r} "
                       f"in the cleanup step")
    return out


@invariant("cleanup.nothing_else_ends", rules=("514.2", "514.3a", "122.1", "400.7"), requires=("cleanup",),
           on=("cleanup",))
def nothing_else_ends(t: Transition):
    """The cleanup step ends nothing else: counters, tapped status, attachments, controllers,
    owners and life totals stay, and a permanent leaves the battlefield only by a state-based action."""
    if not _cleanup(t):
        return None
    out = []
    left = {e.get("object"): e for e in t.log if e.get("kind") == "zone_change" and e.get("from") == "battlefield"}
    for oid, before in t.before["objects"].items():
        if before["zone"] != "battlefield":
            continue
        after = t.after["objects"].get(oid)
        if after is None or after["zone"] != "battlefield":
            out += _left_by_a_state_based_action(oid, before, left.get(oid))
        else:
            out += _nothing_else_changed(t, oid, before, after)
    for pid, p in t.before["players"].items():
        if (t.after["players"].get(pid) or {}).get("life") != p["life"]:
            out.append(f"{pid}'s life changed in the cleanup step from {p['life']} to "
                       f"{(t.after['players'].get(pid) or {}).get('life')!r}: expected it unchanged")
    return out
