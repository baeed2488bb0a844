"""The sources of the contract reference (:mod:`harness.interfaces.contract`) and its gaps.

:func:`sources` imports everything the reference reads; :func:`event_branches` reads the event
schema's branches; :func:`problems` lists every gap in the contract the reference would have
to paper over (``python3 -m harness.interfaces.contract --check`` fails on one). The
reference's Markdown is rendered by :mod:`harness.interfaces.contract`, which imports this
module (never the other way).
"""

from __future__ import annotations

import re

#: The prefix of a card feature: a name invariants may require that a plan's cards imply, never claimed.
CARD_FEATURE = "cards:"


def resolve(spec: dict, schema: dict) -> dict:
    """``spec`` with a local ``$ref`` (``#/$defs/x``) merged in (its own keys win)."""
    ref = spec.get("$ref", "")
    if ref.startswith("#/$defs/"):
        target = schema["$defs"][ref.rsplit("/", 1)[1]]
        return {**resolve(target, schema), **{k: v for k, v in spec.items() if k != "$ref"}}
    return spec


def sources() -> dict:
    """Everything the reference reads, imported here (the registry imports the whole harness)."""
    import invariants
    from invariants import differential

    from harness import decisions, protocol
    from harness.wire import log_kinds, schemas, vocabulary
    from harness.generation import plan

    return {"protocol": protocol, "registry": invariants.REGISTRY, "plan": plan, "differential": differential,
            "decisions": decisions, "log_kinds": log_kinds, "schemas": schemas, "vocabulary": vocabulary}


def event_branches(schema: dict | None = None) -> dict[str, dict]:
    """Event type -> the ``then`` of its ``allOf`` branch in the event schema (``{}`` for a type
    of the enum without a branch), in the enum's order."""
    if schema is None:
        from harness.wire import schemas

        schema = schemas.load("event")
    branches = {}
    for entry in schema.get("allOf", ()):
        const = (((entry.get("if") or {}).get("properties") or {}).get("type") or {}).get("const")
        if const is not None:
            branches[const] = entry.get("then") or {}
    return {t: branches.get(t, {}) for t in schema["properties"]["type"]["enum"]}


_BACKQUOTED = re.compile(r"`([^`]+)`")


def _fixed_labels_missing(kind) -> list[str]:
    """The backquoted fixed options of a decision kind's ``options`` text (no ``<...>``
    placeholder) that its ``labels`` don't list."""
    return [word for word in _BACKQUOTED.findall(kind.options) if "<" not in word and word not in kind.labels]


#: Words an event's description may put in backticks as observation or log fields, not its own.
_OBSERVED_NAMES = frozenset({"object", "tapped", "source"})


def problems() -> list[str]:
    """Every gap in the contract the reference would have to paper over, one line each (empty:
    none): an event type without a description (its schema branch's ``then``), a capability
    event the schema doesn't have, an invariant requiring a name that is no capability and no
    card feature, a decision kind without who, options or rules, or whose fixed options its
    labels don't list, an observation or board field without a description, a log kind
    compared by the differential oracle that the log table doesn't have, a log kind or cause
    without a summary or field descriptions."""
    src = sources()
    event_schema = src["schemas"].load("event")
    branches = event_branches(event_schema)
    return [*_event_problems(event_schema, branches), *_capability_problems(src, branches),
            *_decision_and_field_problems(src), *_log_problems(src)]


def _event_problems(event_schema: dict, branches: dict[str, dict]) -> list[str]:
    """problems() of the event schema's branches: a description, and every field it names listed."""
    out = []
    for etype, branch in branches.items():
        if not branch:
            out.append(f"event type {etype!r} has no allOf branch in harness/schema/event.schema.json")
        elif not str(branch.get("description", "")).strip():
            out.append(f"event type {etype!r} has no description (the \"description\" of its branch's \"then\" in "
                       f"harness/schema/event.schema.json)")
        else:  # a field the description names must be in the event's field table
            listed = set(branch.get("required", ())) | set(branch.get("properties", {}))
            named = set(re.findall(r"`([a-z_]+)`", branch["description"])) & set(event_schema.get("properties", {}))
            named -= _OBSERVED_NAMES  # a description may name what the event changes
            for field_name in sorted(named - listed - {"type"}):
                out.append(f"event type {etype!r}: its description names the field {field_name!r}, which its branch "
                           f"doesn't list (\"properties\" of its \"then\" in harness/schema/event.schema.json)")
    return out


def _capability_problems(src: dict, branches: dict[str, dict]) -> list[str]:
    """problems() of the capability table (events in the schema, no empty board feature) and of
    what invariants require."""
    protocol, registry, differential = src["protocol"], src["registry"], src["differential"]
    out = []
    for cap in protocol.CAPABILITIES.values():
        for name in cap.events:
            if name.split(":", 1)[0] not in branches:
                out.append(f"capability {cap.name!r} generates event {name!r}, whose type is not in the event schema")
        for feature in cap.board_features:
            if not feature:
                out.append(f"capability {cap.name!r} has an empty board feature")
    for inv in registry.values():
        for need in inv.requires:
            if need not in protocol.CAPABILITIES and need != differential.DIFFERENTIAL \
                    and not need.startswith(CARD_FEATURE):
                out.append(f"invariant {inv.name!r} requires {need!r}: no capability of harness.protocol."
                           f"CAPABILITIES, no card feature ({CARD_FEATURE}...) and not 'differential'")
    return out


def _decision_and_field_problems(src: dict) -> list[str]:
    """problems() of the decision kinds (who, options, rules, labels) and of the board's and
    observation's fields (a description each)."""
    schemas = src["schemas"]
    out = []
    for kind in src["decisions"].TABLE:
        for key in ("asked", "options", "rules"):
            if not getattr(kind, key):
                out.append(f"decision kind {kind.kind!r} has no {key}")
        missing = _fixed_labels_missing(kind)
        if missing:
            out.append(f"decision kind {kind.kind!r} lacks labels {missing} (its options name them; "
                       f"harness/decisions.py DecisionKind.labels)")
    for name in ("board", "observation"):
        for where, spec in _schema_fields(schemas.load(name)):
            if not str(spec.get("description", "")).strip():
                out.append(f"{name} field {where} has no description (harness/schema/{name}.schema.json)")
    return out


def _log_problems(src: dict) -> list[str]:
    """problems() of the log table (kinds the differential oracle compares, summaries, field
    descriptions) and of the differential's optional fields."""
    protocol, differential = src["protocol"], src["differential"]
    schemas, log_kinds = src["schemas"], src["log_kinds"]
    out = []
    kinds = {k.kind for k in log_kinds.KINDS}
    for kind, cap in differential.LOG_KINDS.items():
        if kind not in kinds:
            out.append(f"invariants.differential.LOG_KINDS names log kind {kind!r}, which harness.wire.log_kinds "
                       f"doesn't have")
        if cap not in protocol.CAPABILITIES:
            out.append(f"invariants.differential.LOG_KINDS: {kind!r} is compared with {cap!r}, not a capability")
    for row in (*log_kinds.KINDS, *log_kinds.CAUSES):
        name = getattr(row, "kind", None) or f"cause {row.event}"
        if not row.summary:
            out.append(f"log {name!r} has no summary")
        out += [f"log {name!r} field {f.name!r} has no description" for f in row.fields if not f.description]
    for field_name in differential.OPTIONAL_FIELDS:
        if field_name not in schemas.load("observation")["$defs"]["object"]["properties"]:
            out.append(f"invariants.differential.OPTIONAL_FIELDS names {field_name!r}, not an observed object field")
    return out


def _schema_fields(schema: dict) -> list[tuple[str, dict]]:
    """``(path, spec)`` of every field a reader of a board or observation meets: top-level
    properties, players' and objects' fields."""
    out = [(name, spec) for name, spec in schema.get("properties", {}).items()]
    players = schema.get("properties", {}).get("players", {})
    player_props = (players.get("items") or players.get("additionalProperties") or {}).get("properties", {})
    out += [(f"players.*.{n}", s) for n, s in player_props.items()]
    objects = resolve(schema.get("$defs", {}).get("object", {}), schema)
    out += [(f"objects.*.{n}", s) for n, s in objects.get("properties", {}).items()]
    return out
