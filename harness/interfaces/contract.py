"""The engine contract reference, ``docs/reference.md``, generated from the code that enforces it.

``python3 -m harness.interfaces.contract`` prints it; ``--write`` writes ``docs/reference.md``; ``--check``
exits 1 when the file differs from what the code generates (printing a unified diff) or when
the contract has a gap (:func:`problems`). ``rulesfuzz reference`` prints it too.

Nothing is copied here: every fact is read from where it is enforced.

* capabilities: :data:`harness.protocol.CAPABILITIES` (summary, CR rules, board features,
  events, details), joined with :data:`invariants.REGISTRY` (each invariant names the
  capabilities it requires, as ``rulesfuzz plan`` joins them) and with
  :mod:`harness.generation.plan` (``CARD_IMPLIED``, ``SPELL_IMPLIED``, ``TEMPLATE_FEATURES``,
  :func:`harness.generation.plan.implied_capabilities`);
* events: ``harness/schema/event.schema.json``, one ``allOf`` branch per type whose ``then``
  has the type's ``description``, required fields and ranges;
* the board and the observation: ``board.schema.json``, ``observation.schema.json`` (each
  field's ``description``), :data:`harness.wire.vocabulary.DEFINED_TOKENS`;
* log entries and zone-change causes: :data:`harness.wire.log_kinds.KINDS` and
  :data:`harness.wire.log_kinds.CAUSES` (checked on every observation), with
  :data:`invariants.differential.LOG_KINDS` (which capability makes an entry compared);
* decisions: :data:`harness.decisions.TABLE`;
* differential conventions: :data:`invariants.differential.CONVENTIONS` and the scope tables
  ``OPTIONAL_FIELDS``, ``OPTIONAL_PLAYER_FIELDS``;
* the wire protocol: ``ENGINE_METHODS``, ``HARNESS_METHODS``, ``ERROR_CODES``,
  ``PROTOCOL_VERSION`` and ``messages.schema.json``.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path
from typing import Any
from collections.abc import Iterable

from harness.interfaces.contract_problems import CARD_FEATURE, event_branches, problems, resolve as _resolve, \
    sources as _sources

#: Where the reference lives, relative to the project root.
REFERENCE = Path("docs") / "reference.md"
#: The command that regenerates it.
COMMAND = "python3 -m harness.interfaces.contract --write"
_ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- Markdown helpers
def _md(text: str) -> str:
    """``text`` (docstring or schema prose) as Markdown: RST ``code`` becomes `code`, lines are
    joined, and outside code spans ``<`` is escaped (``<source id>`` is no HTML tag)."""
    text = " ".join(re.sub(r":[a-z]+:`", "`", str(text)).replace("``", "`").replace("**", "").split())
    parts = text.split("`")
    for i in range(0, len(parts), 2):  # outside code spans
        parts[i] = parts[i].replace("<", "&lt;")
    return "`".join(parts)


def _cell(text: str) -> str:
    """``text`` for a table cell: Markdown, with ``|`` escaped."""
    return _md(text).replace("|", "\\|") or " "


def _code(values: Iterable[Any]) -> str:
    return ", ".join(f"`{v}`" for v in values) or "—"


def _table(header: Iterable[str], rows: Iterable[Iterable[str]]) -> list[str]:
    header = list(header)
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(rows_ for rows_ in row) + " |" for row in rows]
    return out + [""]


def _rules(rules: Iterable[str]) -> str:
    rules = list(rules)
    return f"CR {', '.join(rules)}" if rules else "—"


# --------------------------------------------------------------------------- JSON Schema helpers


def _type(spec: dict) -> str:
    """A field's JSON type as a reader says it: ``string``, ``integer or null``, ``array of
    string``, an enum's values."""
    if "const" in spec:
        return f"`{_json(spec['const'])}`"
    if "enum" in spec:
        return " or ".join(f"`{_json(v)}`" for v in spec["enum"])
    kind = spec.get("type")
    names = [kind] if isinstance(kind, str) else list(kind or [])
    if "array" in names and isinstance(spec.get("items"), dict) and spec["items"].get("type"):
        names[names.index("array")] = f"array of {spec['items']['type']}"
    if "object" in names and isinstance(spec.get("additionalProperties"), dict) \
            and spec["additionalProperties"].get("type"):
        names[names.index("object")] = f"object of {spec['additionalProperties']['type']}"
    return " or ".join(names) or "any"


def _json(value: Any) -> str:
    import json

    return json.dumps(value)


def _range(spec: dict) -> str:
    """A field's constraints: ``>= 1``, ``at least 1 item``, ``distinct``, a pattern."""
    out = []
    for key, say in (("minimum", ">= {}"), ("maximum", "<= {}"), ("minLength", "at least {} character(s)"),
                     ("minItems", "at least {} item(s)")):
        if key in spec:
            out.append(say.format(spec[key]))
    if spec.get("uniqueItems"):
        out.append("distinct")
    if "pattern" in spec:
        out.append(f"matches `{spec['pattern']}`")
    items = spec.get("items")
    items = items if isinstance(items, dict) else {}
    if items.get("minimum") is not None:
        out.append(f"items >= {items['minimum']}")
    extra = spec.get("additionalProperties")
    extra = extra if isinstance(extra, dict) else {}
    if extra.get("minimum") is not None:
        out.append(f"values >= {extra['minimum']}")
    return ", ".join(out)


# --------------------------------------------------------------------------- the sources
def _event_fields(schema: dict, branch: dict) -> list[tuple[str, bool, dict]]:
    """``(field, required, merged spec)`` of one event type: its required fields, then the
    optional ones its branch names; each spec is the top-level property with the branch's
    refinements."""
    required = list(branch.get("required", ()))
    names = required + [n for n in branch.get("properties", {}) if n not in required]
    top = schema.get("properties", {})
    return [(n, n in required, {**top.get(n, {}), **branch.get("properties", {}).get(n, {})}) for n in names]


def _capability_events(capabilities) -> dict[str, list[tuple[str, str]]]:
    """Event type -> ``(capability, variant)`` of each capability that generates it."""
    out: dict[str, list[tuple[str, str]]] = {}
    for cap in capabilities.values():
        for name in cap.events:
            out.setdefault(name.split(":", 1)[0], []).append((cap.name, name))
    return out


def _card_features(plan, registry) -> dict[str, str]:
    """The card features (names ``cards:...``: implied by a plan's cards, never claimed) the
    invariants require -> what implies them: a template (``harness.generation.plan.TEMPLATE_FEATURES``), or
    what :func:`harness.generation.plan.implied_capabilities` reads from a card."""
    templates: dict[str, list[str]] = {}
    for template, feature in plan.TEMPLATE_FEATURES.items():
        templates.setdefault(feature, []).append(template)
    needed = {need for inv in registry.values() for need in inv.requires if need.startswith(CARD_FEATURE)}
    return {feature: (f"a card with the {' or '.join(f'`{t}`' for t in templates[feature])} template"
                      if feature in templates else "a card of the plan (`harness.generation.plan.implied_capabilities`)")
            for feature in sorted(needed | set(templates))}


# --------------------------------------------------------------------------- rendering
def render() -> str:
    """The whole reference as Markdown."""
    src = _sources()
    lines = [
        "# The engine contract reference",
        "",
        f"<!-- Generated by `{COMMAND}` from the code that enforces the contract (harness/interfaces/contract.py); "
        f"do not edit: edit the sources it names. -->",
        "",
        "Everything an engine author needs to know, generated from the code that enforces it, so it can't drift "
        f"(`{COMMAND}` regenerates it; `python3 -m harness.interfaces.contract --check` fails when it is stale). The protocol "
        "itself (how an engine is called, in-process or over JSON-RPC) is [the wire protocol](protocol.md).",
        "",
        "- [Capabilities](#capabilities): what an engine may claim, and the events, board features and invariants "
        "each unlocks",
        "- [Events](#events): every event type, what it means, its fields",
        "- [Boards](#boards) and [observations](#observations): every field",
        "- [Log entries](#log-entries): every kind, its fields, and the causes of a zone change",
        "- [Decisions](#decisions): every kind of question an engine asks its decider, and its options",
        "- [Differential conventions](#differential-conventions): what `--against reference` normalises, and what "
        "the reference engine does that is compared as it is",
        "- [Wire protocol: methods and error codes](#wire-protocol-methods-and-error-codes)",
        "",
    ]
    for section in (_capabilities, _events, _boards, _observations, _log, _decisions, _conventions, _wire):
        lines += section(src)
    gaps = problems()
    if gaps:
        lines += ["## Gaps", "", "The contract has gaps the code must fill (`python3 -m harness.interfaces.contract --check`):",
                  ""] + [f"- {_md(g)}" for g in gaps] + [""]
    return "\n".join(lines).rstrip() + "\n"


def _capabilities(src) -> list[str]:
    protocol, registry, plan, differential = src["protocol"], src["registry"], src["plan"], src["differential"]
    caps = protocol.CAPABILITIES
    lines = ["## Capabilities", "",
             f"An engine claims capabilities by name (`EngineInfo.capabilities`; {len(caps)} names, the table "
             "`harness.protocol.CAPABILITIES`; an unknown name fails `rulesfuzz check`). A capability unlocks the "
             "events and board features generation uses, and the invariants whose required capabilities are all "
             "claimed or implied (`invariants.REGISTRY`; `rulesfuzz plan --engine E` shows the join for one "
             "engine).", "",
             _md(_paragraph(plan.__doc__, "**Implied capabilities.**").removeprefix("**Implied capabilities.**")), "",
             f"A declared card needing only {_code(sorted(plan.CARD_IMPLIED))} is generated without a claim and "
             f"implies them; an instant's or sorcery's own effect needs {_code(sorted(plan.SPELL_IMPLIED))} without "
             "a claim (casting a declared spell is the card's event).", ""]
    lines += _table(("capability", "summary", "rules", "events", "board features"),
                    ((f"[`{c.name}`](#{_anchor('capability ' + c.name)})", _cell(c.summary), _rules(c.rules), _cell(_code(c.events)),
                      _cell(_code(c.board_features))) for c in caps.values()))
    by_cap: dict[str, list] = {}
    for inv in registry.values():
        for need in sorted(inv.requires):
            by_cap.setdefault(need, []).append(inv)
    for cap in caps.values():
        lines += [f"### Capability `{cap.name}`", "", f"{_md(cap.summary)} ({_rules(cap.rules)}).", ""]
        if cap.events:
            lines.append(f"- Events: {', '.join(_event_link(e) for e in cap.events)}")
        if cap.board_features:
            lines.append(f"- Board features: {_code(cap.board_features)}")
        if cap.name in plan.CARD_IMPLIED:
            lines.append("- Implied by a declared card that has it (`harness.generation.plan.CARD_IMPLIED`).")
        if cap.name in plan.SPELL_IMPLIED:
            lines.append("- Needed by a declared spell's own effect without a claim (`harness.generation.plan.SPELL_IMPLIED`).")
        lines.append(f"- Invariants it unlocks: {_invariant_list(by_cap.get(cap.name, ()), cap.name)}")
        lines.append("")
        if cap.details:
            lines += [_md(cap.details), ""]
    always = [inv for inv in registry.values() if not inv.requires]
    lines += ["### Always checked", "",
              f"Invariants that require no capability (checked for every engine): {_invariant_list(always, '')}", ""]
    features = _card_features(plan, registry)
    lines += ["### Card features", "",
              "Names of the form `cards:...` are never claimed: a plan has one when a card it plays has the "
              "template (`harness.generation.plan.TEMPLATE_FEATURES`), and the invariants of that template are checked only "
              "then.", ""]
    lines += _table(("card feature", "implied by", "invariants"),
                    ((f"`{f}`", _cell(why), _cell(_invariant_list(by_cap.get(f, ()), f)))
                     for f, why in sorted(features.items())))
    lines += [f"The differential invariants require `{differential.DIFFERENTIAL}`, added by `--against`: "
              f"{_invariant_list(by_cap.get(differential.DIFFERENTIAL, ()), differential.DIFFERENTIAL)}.", ""]
    return lines


def _paragraph(doc: str, start: str) -> str:
    """The paragraph of ``doc`` that begins with ``start`` (a docstring's blank-line-separated part)."""
    return next(p for p in doc.split("\n\n") if p.strip().startswith(start)).strip()


def _anchor(name: str) -> str:
    """The anchor MkDocs's toc gives a heading ``name`` (lower case, dots and spaces dropped or dashed)."""
    slug = re.sub(r"[^\w\s-]", "", name.lower()).strip()
    return re.sub(r"[-\s]+", "-", slug)


def _event_link(name: str) -> str:
    base, _, variant = name.partition(":")
    return f"[`{base}`](#{_anchor('event ' + base)})" + (f" ({_md(variant)})" if variant else "")


def _invariant_list(invs, cap: str) -> str:
    items = []
    for inv in sorted(invs, key=lambda i: i.name):
        others = sorted(inv.requires - {cap})
        items.append(f"`{inv.name}`" + (f" (with {', '.join(f'`{o}`' for o in others)})" if others else ""))
    return ", ".join(items) or "—"


def _events(src) -> list[str]:
    schema = src["schemas"].load("event")
    makers = _capability_events(src["protocol"].CAPABILITIES)
    lines = ["## Events", "",
             _md(schema.get("description", "")), "",
             f"{len(schema['properties']['type']['enum'])} event types (`harness/schema/event.schema.json`: each "
             "type's branch has its description, required fields and ranges; `harness/wire/vocabulary.py` also checks "
             "the cards an event names). An engine that doesn't model an event raises `Unsupported`; one the rules "
             "don't allow raises `IllegalAction` and changes nothing. Expect many refusals: the generator aims some "
             "events on purpose at objects that left the battlefield or never existed, and at targets a spell "
             "can't have, which a correct engine refuses; refusals of what the engine claims are counted, and a "
             "run where most of them are refused exits 2 (\"Refusals\" in docs/running.md). A field an event's "
             "table doesn't list as required may be absent or, where its type allows, null.", "",
             "The cards an engine declares bring events with no claim at all: `put_onto_battlefield` of its "
             "creatures, Auras, Equipment and anthems (an Aura or Equipment attached to a legal creature), "
             "`cast` of its instants and sorceries (destroy, damage, sweepers, pump, -N/-N, counters, tokens, "
             "life and draw, exile and return spells), and `attach` of its Auras and Equipment; the "
             "capabilities below add the rest. `rulesfuzz plan --engine E` lists the rules a run of E uses.", ""]
    for etype, branch in event_branches(schema).items():
        lines += [f"### Event `{etype}`", ""]
        lines += [_md(branch["description"]) if branch.get("description") else
                  "**No description** (a gap: see below).", ""]
        generated = makers.get(etype, ())
        if generated:
            lines += ["Generated for: " + ", ".join(
                f"`{cap}`" + (f" ({_md(name.partition(':')[2])})" if ":" in name else "")
                for cap, name in generated) + ".", ""]
        else:
            lines += ["No capability names it: generated where the cards of the plan call for it.", ""]
        fields = [("`type`", "yes", f"`\"{etype}\"`", "", "")] + [
            (f"`{n}`", "yes" if req else "no", _cell(_type(spec)), _cell(_range(spec)),
             _cell(spec.get("description", ""))) for n, req, spec in _event_fields(schema, branch)]
        lines += _table(_FIELD_HEADER, fields)
    return lines


#: The columns of a table of an event's, a board's or an observation's fields.
_FIELD_HEADER = ("field", "required", "type", "range", "description")


def _field_table(schema: dict, spec: dict) -> list[str]:
    """The table of the fields of ``spec`` (``schema`` or a part of it), required as ``spec`` says."""
    required = set(spec.get("required", ()))
    rows: list[tuple[str, ...]] = []
    for name, field in spec.get("properties", {}).items():
        field = _resolve(field, schema)
        rows.append((f"`{name}`", "yes" if name in required else "no", _cell(_type(field)), _cell(_range(field)),
                     _cell(field.get("description", ""))))
    return _table(_FIELD_HEADER, rows)


def _field_tables(schema: dict, players: dict, obj: dict) -> list[str]:
    """The tables of the fields of a board or an observation (``schema``), of each player and of each object."""
    return (_field_table(schema, schema) + ["Each player:", ""] + _field_table(schema, players)
            + ["Each object:", ""] + _field_table(schema, obj))


def _boards(src) -> list[str]:
    schema = src["schemas"].load("board")
    players = schema["properties"]["players"]
    obj = _resolve(schema["$defs"]["object"], schema)
    lines = ["## Boards", "", _md(schema.get("description", "")), ""]
    lines += _field_tables(schema, players["items"], obj)
    lines += ["Tokens an effect defines, which a board object may name with `\"token\": true` "
              "(`harness.wire.vocabulary.DEFINED_TOKENS`):", ""]
    lines += _table(("token", "card types"), ((f"`{name}`", ", ".join(sorted(types)))
                                               for name, types in src["vocabulary"].DEFINED_TOKENS.items()))
    return lines


def _observations(src) -> list[str]:
    schema = src["schemas"].load("observation")
    differential = src["differential"]
    players = schema["properties"]["players"]["additionalProperties"]
    obj = schema["$defs"]["object"]
    lines = ["## Observations", "", _md(schema.get("description", "")),
             "", "What `game.observe()` returns (`harness/schema/observation.schema.json`; `generic.observation_shape` "
             "checks it after every event):", ""]
    lines += _field_tables(schema, players, obj)
    optional = [(f"`objects.*.{name}`", "when the engine's observation has it" if caps is None else
                 "with " + " or ".join(f"`{c}`" for c in caps)) for name, caps in differential.OPTIONAL_FIELDS.items()]
    optional += [(f"`players.*.{name}`", f"with `{cap}`") for name, cap in differential.OPTIONAL_PLAYER_FIELDS.items()]
    lines += ["A differential run compares these fields only as follows (`invariants.differential.OPTIONAL_FIELDS`, "
              "`OPTIONAL_PLAYER_FIELDS`); every other field always, unless the engine names it in `ignored_fields`:",
              ""]
    lines += _table(("field", "compared"), optional)
    return lines


def _log(src) -> list[str]:
    log_kinds, differential = src["log_kinds"], src["differential"]
    lines = ["## Log entries", "",
             f"An observation's `log` lists what the last event did, in order: {len(log_kinds.KINDS)} kinds "
             "(`harness.wire.log_kinds.KINDS`). Every entry is checked (`generic.observation_shape`): an unknown "
             "kind, a required field missing or of the wrong type, a zone that isn't one, or a zone change of an "
             "unknown cause is a finding naming the entry. Entries may carry more fields than listed. A "
             "differential run compares an entry only when the engine claims its capability (`invariants."
             "differential.LOG_KINDS`; \"always\": for every engine), a `zone_change`'s `cause` only with "
             "`log.zone_change_causes`.", ""]
    lines += _table(("kind", "what it reports", "rules", "compared"),
                    ((f"[`{k.kind}`](#{_anchor('log entry ' + k.kind)})", _cell(k.summary), _rules(k.rules),
                      f"`{differential.LOG_KINDS[k.kind]}`" if k.kind in differential.LOG_KINDS else "always")
                     for k in log_kinds.KINDS))
    header = ("field", "required", "type", "description")
    for kind in log_kinds.KINDS:
        lines += [f"### Log entry `{kind.kind}`", "", f"{_md(kind.summary)[:1].upper()}{_md(kind.summary)[1:]} "
                                          f"({_rules(kind.rules)}).", ""]
        lines += _table(header, [("`kind`", "yes", f"`\"{kind.kind}\"`", "")] + [
            (f"`{f.name}`", "yes" if f.required else "no", " or ".join(f.types), _cell(f.description))
            for f in kind.fields])
    lines += ["### Zone change causes", "",
              "A `zone_change`'s `cause` is `{\"event\": EVENT, ...}`, one of these "
              "(`harness.wire.log_kinds.CAUSES`), or `{\"event\": TYPE, \"by\": ...}` for a zone change by an event "
              "type of the vocabulary that no row names (e.g. `exile`). A token that ceases to exist is a move to "
              "`null` with cause `{\"event\": \"state_based_action\", \"rule\": \"704.5d\"}`.", ""]
    lines += _table(("event", "meaning", "rules", "fields"),
                    ((f"`{c.event}`", _cell(c.summary), _rules(c.rules),
                      _cell("; ".join(f"`{f.name}`{'' if f.required else ' (optional)'}: {f.description}"
                                      for f in c.fields) or "—")) for c in log_kinds.CAUSES))
    return lines


def _decisions(src) -> list[str]:
    decisions = src["decisions"]
    lines = ["## Decisions", "",
             "An engine asks `decider.choose(player, kind, options)` for every choice a player makes, and "
             "`decider.flip_coin(player)` / `decider.roll_die(player, sides)` for chance: the kind names the "
             "question, the options are strings of a fixed form (the constants of `harness.decisions`). "
             f"{len(decisions.TABLE)} kinds (`harness.decisions.TABLE`):", ""]
    lines += _table(("kind", "method", "who is asked", "options", "fixed labels", "rules"),
                    ((f"`{k.kind}`", f"`{k.method}`", _cell(k.asked), _cell(k.options), _code(k.labels),
                      _rules(k.rules)) for k in decisions.TABLE))
    lines += [_md(_paragraph(decisions.__doc__, "A question of a kind the table doesn't know")), ""]
    return lines


def _conventions(src) -> list[str]:
    differential = src["differential"]
    lines = ["## Differential conventions", "",
             "With `--against reference` an engine's observation after every event must equal the reference "
             "engine's, given the same decisions, for what the engine declares (`invariants.differential`). Where "
             "two correct engines may differ, the oracle either normalises (relaxed) or compares the reference "
             "engine's convention as it is (an engine matches it, or names the field in `ignored_fields`; "
             "`invariants.differential.CONVENTIONS`):", ""]
    lines += _table(("what", "relaxed?", "how", "rules"),
                    ((_cell(c.subject), "relaxed" if c.relaxed else "compared as it is", _cell(c.how),
                      _rules(c.rules)) for c in differential.CONVENTIONS))
    return lines


def _wire(src) -> list[str]:
    protocol, schemas = src["protocol"], src["schemas"]
    messages = schemas.load("messages")
    defs = messages["$defs"]

    def params(method: str) -> str:
        spec = _resolve(defs.get(f"{method}_params", {}), messages)
        required = set(spec.get("required", ()))
        return ", ".join(f"`{n}`" + ("" if n in required else " (optional)") for n in spec.get("properties", {})) \
            or "—"

    lines = ["## Wire protocol: methods and error codes", "",
             f"Protocol version {protocol.PROTOCOL_VERSION} (`harness.protocol.PROTOCOL_VERSION`); every message's "
             "shape is `harness/schema/messages.schema.json`, the exchange is [the wire protocol](protocol.md).", ""]
    lines += _table(("method", "called by", "params"),
                    [(f"`{m}`", "the harness", params(m)) for m in protocol.ENGINE_METHODS]
                    + [(f"`{m}`", "the engine, during `apply`", params(m)) for m in protocol.HARNESS_METHODS])
    lines += _table(("error", "code"), ((f"`{name}`", str(code)) for name, code in protocol.ERROR_CODES.items()))
    return lines


# --------------------------------------------------------------------------- the command
def reference_path(root: Path | None = None) -> Path:
    return (root or _ROOT) / REFERENCE


def drift(root: Path | None = None) -> list[str]:
    """The unified diff from ``docs/reference.md`` to what the code generates (empty: up to date)."""
    path = reference_path(root)
    current = path.read_text(encoding="utf-8") if path.is_file() else ""
    return list(difflib.unified_diff(current.splitlines(keepends=True), render().splitlines(keepends=True),
                                     fromfile=str(REFERENCE), tofile=f"{REFERENCE} (generated)"))


def main(argv: list[str] | None = None) -> int:
    """``--write``: write docs/reference.md; ``--check``: 1 when it is stale or the contract has a
    gap; neither: print it. Returns the exit code."""
    parser = argparse.ArgumentParser(prog="python3 -m harness.interfaces.contract", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help=f"write {REFERENCE}")
    mode.add_argument("--check", action="store_true", help=f"exit 1 if {REFERENCE} is stale or the contract has a gap")
    args = parser.parse_args(argv)
    gaps = problems()
    for gap in gaps:
        print(f"contract gap: {gap}", file=sys.stderr)
    if args.write:
        reference_path().write_text(render(), encoding="utf-8")
        print(f"wrote {REFERENCE}", file=sys.stderr)
        return 1 if gaps else 0
    if args.check:
        diff = drift()
        if diff:
            sys.stdout.writelines(diff)
            print(f"{REFERENCE} is stale: run `{COMMAND}`", file=sys.stderr)
        return 1 if diff or gaps else 0
    sys.stdout.write(render())
    return 1 if gaps else 0


if __name__ == "__main__":
    raise SystemExit(main())
