"""The differential oracle: a fork's observation must equal the reference engine's.

Given the same board, events and decisions, a correct fork of the reference engine
observes exactly what the reference does after every event (CR 613.1 characteristics,
400.1 zones, 120.3 damage, ...). Fields the fork declares it does not model
(``EngineInfo.ignored_fields``) are not compared.
"""

from __future__ import annotations

import json

from .base import Transition, invariant

DIFFERENTIAL = "differential"  # pseudo-capability added by the runner when --against is given


def _canonical_log(log: list[dict]) -> list[str]:
    return sorted(json.dumps(entry, sort_keys=True) for entry in log)


def observation_diff(fork: dict, reference: dict, ignored=frozenset(), limit: int = 12) -> list[str]:
    """Readable differences between two observations: which object or player, which field, both values."""
    out = []
    for pid in sorted(set(fork.get("players", {})) | set(reference.get("players", {}))):
        a, b = fork["players"].get(pid), reference["players"].get(pid)
        if a != b:
            out.append(f"player {pid}: fork {a} vs reference {b}")
    objs_a, objs_b = fork.get("objects", {}), reference.get("objects", {})
    for oid in sorted(set(objs_a) | set(objs_b)):
        a, b = objs_a.get(oid), objs_b.get(oid)
        if a is None or b is None:
            out.append(f"object {oid}: {'missing in fork' if a is None else 'missing in reference'}")
            continue
        for key in sorted(set(a) | set(b)):
            if key in ignored:
                continue
            if a.get(key) != b.get(key):
                out.append(f"object {oid} ({b.get('name')}) {key}: fork {a.get(key)!r} vs reference {b.get(key)!r}")
    if "log" not in ignored and _canonical_log(fork.get("log", [])) != _canonical_log(reference.get("log", [])):
        only_fork = sorted(set(_canonical_log(fork.get("log", []))) - set(_canonical_log(reference.get("log", []))))
        only_ref = sorted(set(_canonical_log(reference.get("log", []))) - set(_canonical_log(fork.get("log", []))))
        out.append(f"log: only in fork {only_fork[:3]}, only in reference {only_ref[:3]}")
    return out[:limit] + ([f"... and {len(out) - limit} more differences"] if len(out) > limit else [])


@invariant("differential.matches_reference", rules=("613.1", "400.1", "120.3"), family="differential",
           requires=(DIFFERENTIAL,))
def matches_reference(t: Transition):
    """After every event the fork's observation equals the reference engine's, given the same decisions.

    Also: both engines refuse the same events.
    """
    if t.reference is None:
        return None
    fork_illegal, ref_illegal = t.illegal is not None, t.reference.get("illegal") is not None
    if fork_illegal != ref_illegal:
        return [f"the fork {'refused' if fork_illegal else 'performed'} the event "
                f"({t.illegal or 'legal'}) but the reference {'refused' if ref_illegal else 'performed'} it "
                f"({t.reference.get('illegal') or 'legal'})"]
    if fork_illegal:
        return []
    return observation_diff(t.after, t.reference["after"], t.reference.get("ignored", frozenset()))
