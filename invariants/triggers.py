"""What triggered abilities did when they resolved (CR 603, 608.2h, 111.2).

Checked from the card data and the board, not from the engine's account: the number of
tokens an ability made is worked out from its Oracle text and the information it uses
(last known information for a source that left the battlefield, CR 603.10a, 608.2h),
and every token belongs to the ability's controller, the source's controller as it last
existed (CR 603.3a, 111.2).
"""

from __future__ import annotations

import re
from typing import cast

from harness import decisions as D
from .base import Transition, invariant
from .card_abilities import card_text
from .observed import controller_as_it_last_existed

#: "When <name> dies, create a P/T colorless <Subtype> artifact creature token with flying
#: for each +1/+1 counter on <name>." (Hangarback Walker)
_TOKENS_PER_COUNTER = re.compile(
    r"When (?P<name>[^,]+) dies, create an? (?P<p>\d+)/(?P<t>\d+) (?:colorless )?(?P<subtype>\w+) artifact creature "
    r"token with flying for each \+1/\+1 counter on (?:it|(?P=name))\.")


def _state_based(e: dict) -> bool:
    """Whether log entry ``e`` is a state-based action's (CR 704.3: those of one check happen at once)."""
    cause = e.get("cause")
    return str(e.get("rule", "")).startswith("704.") or (
        isinstance(cause, dict) and cause.get("event") == "state_based_action")


def _plus_counters_as_it_last_existed(t: Transition, oid: str) -> int:
    """+1/+1 counters on ``oid`` as it last existed on the battlefield: those before the event and
    those the event put on it before it left, less the +1/+1/-1/-1 pairs 704.5q removed in an
    earlier check of the event (an entry that is no state-based action's comes between the removal
    and its leaving). A pair removed in the check in which it died is removed at the same time, not
    before (CR 704.3, 704.5q), so it still counts."""
    count = t.before["objects"][oid]["counters"].get("+1/+1", 0)
    pending = 0  # removed by 704.5q in the check under way
    for e in t.log:
        if e.get("object") == oid:
            kind = e.get("kind")
            if kind == "zone_change" and e.get("from") == "battlefield":
                return count
            if kind == "counters_removed" and e.get("rule") == "704.5q":
                pending += e.get("amount", 0)
                continue
            if kind == "counters_added" and e.get("counter") == "+1/+1":
                count += e.get("amount", 0)
        if pending and not _state_based(e):  # the check is over: its pairs were removed before
            count, pending = count - pending, 0
    return count


def _created_by(t: Transition, source: str) -> list[str]:
    return [e["object"] for e in t.log if e.get("kind") == "zone_change" and e.get("from") is None
            and isinstance(e.get("cause"), dict) and e["cause"].get("event") == "create_token"
            and e["cause"].get("by") == source]


def _died(t: Transition) -> list[str]:
    """Creatures on the battlefield before the event that the log puts into a graveyard (CR 700.4)."""
    out = []
    for e in t.log:
        oid = e.get("object")
        before = t.before["objects"].get(oid) if isinstance(oid, str) else None
        if (e.get("kind") == "zone_change" and e.get("from") == "battlefield" and e.get("to") == "graveyard"
                and isinstance(oid, str) and before is not None and before["zone"] == "battlefield"
                and "Creature" in before["types"]):
            out.append(oid)
    return out


@invariant("triggers.tokens_per_counter_as_it_last_existed", refused=False,
           rules=("603.10a", "608.2h", "700.4", "111.2", "603.3a"),
           requires=("triggers", "counters"), on_log=("zone_change",))
def tokens_per_counter_as_it_last_existed(t: Transition):
    """A creature whose card says "When this dies, create a 1/1 ... Thopter ... for each +1/+1
    counter on it" makes exactly that many Thopters: counted as it last existed on the
    battlefield, each a 1/1 token of its controller as it last existed (Hangarback Walker).
    """
    if t.illegal is not None or any(p.get("lost") for p in t.after["players"].values()):
        return None
    out = []
    applicable = False
    for oid in _died(t):
        match = _TOKENS_PER_COUNTER.search(card_text(t.before["objects"][oid]["name"]))
        if match is None:
            continue
        applicable = True
        expected = _plus_counters_as_it_last_existed(t, oid)
        controller = controller_as_it_last_existed(t, oid)
        made = _created_by(t, oid)
        if len(made) != expected:
            out.append(f"{oid} ({t.before['objects'][oid]['name']}) died with {expected} +1/+1 counter(s) as it last "
                       f"existed but its ability made {len(made)} token(s) {made}")
        for token_id in made:
            token = t.after["objects"].get(token_id)
            if token is None or token["zone"] != "battlefield":
                continue
            name = f"{match['subtype']} Token"
            if (token["name"], token["owner"], token["controller"], token["token"]) != (name, controller, controller,
                                                                                          True):
                out.append(f"{token_id} is {token['name']!r} (token {token['token']}) owned by {token['owner']} and "
                           f"controlled by {token['controller']}; expected a {name!r} token of {controller}, the "
                           f"controller of {oid} as it last existed")
            copiable = token.get("copiable") or token
            if (copiable.get("power"), copiable.get("toughness")) != (int(match["p"]), int(match["t"])):
                out.append(f"{token_id} is {copiable.get('power')}/{copiable.get('toughness')}, expected "
                           f"{match['p']}/{match['t']}")
    return out if applicable else None


@invariant("triggers.controller_is_the_sources", refused=False,
           rules=("603.3a", "603.10a", "113.8"), requires=("triggers",),
           on_log=("trigger",))
def controller_is_the_sources(t: Transition):
    """A triggered ability is controlled by its source's controller when it triggered (as it last
    existed, for a source that left); that player puts it on the stack and orders it (CR 603.3b)."""
    if t.illegal is not None:
        return None
    triggers = [e for e in t.log if e.get("kind") == "trigger"]
    if not triggers:
        return None
    out = []
    for e in triggers:
        source = e.get("source")
        if source not in t.before["objects"] or t.before["objects"][source]["zone"] != "battlefield":
            continue  # entered during the event: its controller is judged where it entered
        expected = controller_as_it_last_existed(t, source)
        after = t.after["objects"].get(source)
        if after is not None and after["zone"] == "battlefield" and e.get("ability") == "enters":
            continue
        if e.get("controller") != expected:
            out.append(f"the {e.get('ability')} ability of {source} is controlled by {e.get('controller')}; its "
                       f"source's controller was {expected}")
    for d in t.decisions:
        if d.kind != D.TRIGGER_ORDER:
            continue
        for label in d.options:
            source = D.source_of(label)
            # a trigger entry's controller is a string (harness.wire.log_kinds)
            owners = {cast(str, e.get("controller")) for e in triggers if e.get("source") == source}
            if owners and d.player not in owners:
                out.append(f"{d.player} ordered the ability {label} controlled by {sorted(owners)}")
    return out
