"""Readable text for findings, scenarios and run summaries."""

from __future__ import annotations

import json

from invariants import REGISTRY, ruling_text


def describe_object(spec: dict) -> str:
    """One line for a board object, e.g. ``c0  Grizzly Bears (P1) tapped damage=1 -> a0``."""
    parts = [f"{spec['id']:<4} {spec['card']} ({spec.get('controller', spec['owner'])}"
             + (f", owned by {spec['owner']}" if spec.get("controller", spec["owner"]) != spec["owner"] else "") + ")"]
    if spec.get("zone", "battlefield") != "battlefield":
        parts.append(f"in {spec['zone']}")
    for flag in ("tapped", "token", "summoning_sick"):
        if spec.get(flag):
            parts.append(flag)
    for key in ("damage", "regeneration_shields", "combat"):
        if spec.get(key):
            parts.append(f"{key}={spec[key]}")
    if spec.get("counters"):
        parts.append(f"counters={spec['counters']}")
    if spec.get("attached_to"):
        parts.append(f"attached to {spec['attached_to']}")
    return " ".join(parts)


def describe_event(event: dict) -> str:
    """A compact one-line form of an event."""
    rest = {k: v for k, v in event.items() if k != "type"}
    return f"{event.get('type')} " + " ".join(f"{k}={json.dumps(v)}" for k, v in rest.items())


def describe_scenario(scenario: dict) -> str:
    """The board, events and decisions of a scenario, as a judge would write them."""
    lines = ["Board:"]
    for player in scenario["board"]["players"]:
        lines.append(f"  {player['id']}: {player.get('life', 20)} life")
    for spec in scenario["board"]["objects"]:
        lines.append("  " + describe_object(spec))
    lines.append("Events:")
    for i, step in enumerate(scenario["steps"], start=1):
        refused = f"   [refused: {step['illegal']}]" if step.get("illegal") else ""
        lines.append(f"  {i}. {describe_event(step['event'])}{refused}")
        for d in step.get("decisions", ()):
            options = f" among {d['options']}" if d.get("options") else ""
            lines.append(f"       {d.get('player')} chose {d['answer']!r} for {d['kind']}{options}")
    return "\n".join(lines)


def describe_violation(violation) -> str:
    """The invariant, its rules and rulings, and what went wrong."""
    inv = REGISTRY.get(violation.invariant)
    lines = [f"VIOLATION {violation.invariant} at step {violation.step}"]
    if inv is not None:
        lines.append(f"  {inv.summary}")
        if inv.rules:
            lines.append(f"  Rules: CR {', '.join(inv.rules)}")
        for key in inv.rulings:
            lines.append(f"  Ruling ({key.split(':')[0]}): {ruling_text(key)}")
    for message in violation.messages:
        lines.append(f"  - {message}")
    return "\n".join(lines)


def describe_stats(stats, invariant_names) -> str:
    """The run summary: examples, steps, and per invariant how often it was checked and applied."""
    data = stats.to_json()
    lines = [f"examples: {data['examples']}   steps: {data['steps']}   refused events: {data['illegal_events']}",
             "events: " + ", ".join(f"{k} {v}" for k, v in data["events"].items())]
    declined = data["declined"]
    if declined["total"]:
        reasons = ", ".join(f"{reason} {n}" for reason, n in declined["by_reason"].items())
        lines.append(f"declined (Unsupported, not blamed): {declined['total']} examples, {declined['early']} at "
                     f"new_game or their first event: {reasons}")
    if data["interactions"]:
        lines.append("interactions: " + ", ".join(f"{k} {v}" for k, v in data["interactions"].items()))
    lines.append(f"{'invariant':<48} {'checked':>9} {'applicable':>11}")
    for name in invariant_names:
        counts = data["invariants"].get(name, {"checked": 0, "applicable": 0})
        lines.append(f"{name:<48} {counts['checked']:>9} {counts['applicable']:>11}")
    return "\n".join(lines)
