"""The contract reference (docs/reference.md) is what the code that enforces the contract generates,
the contract has no gap, the log table is enforced, and docs/protocol.md's examples are what the
reference engine answers."""

from __future__ import annotations

import collections
import copy
import enum
import dataclasses
import io
import json
import re

import pytest

from harness.interfaces import contract
from harness import decisions, serve
from harness.wire import log_kinds, schemas
from harness.interfaces.cli import main as cli_main
from harness.running.decider import REFERENCE_ONLY, ReplayDecider, same_options
from harness.running.execution import Session, Stats
from harness.connection.loading import load_engine
from harness.running.oracle import Oracle
from harness.generation.plan import effective_capabilities
from harness.protocol import CAPABILITIES, ERROR_CODES, Capability, Transition
from harness.serve import Server
from invariants import REGISTRY
from invariants.differential import LOG_KINDS, differences
from invariants.generic import observation_problems

from .conftest import ROOT, board

PROTOCOL_MD = ROOT / "docs" / "protocol.md"
ENGINES_MD = ROOT / "docs" / "engines.md"


# --------------------------------------------------------------------------- the reference itself
def test_the_reference_is_what_the_code_generates():
    diff = contract.drift()
    assert not diff, f"docs/reference.md is stale: run `{contract.COMMAND}`\n" + "".join(diff[:60])


def test_the_contract_has_no_gap():
    """Every event type has a description, every capability event is in the schema, every decision
    kind lists its fixed labels, every board and observation field says what it holds."""
    assert contract.problems() == []


def test_an_event_type_without_a_description_is_a_gap_that_names_it(monkeypatch):
    event = copy.deepcopy(schemas.load("event"))
    branch = next(b for b in event["allOf"] if b["if"]["properties"]["type"]["const"] == "sacrifice")
    del branch["then"]["description"]
    real = schemas.load
    monkeypatch.setattr(schemas, "load", lambda name: event if name == "event" else real(name))
    gaps = contract.problems()
    assert any("'sacrifice' has no description" in g for g in gaps), gaps
    assert "**No description**" in contract.render()


def test_a_capability_event_missing_from_the_schema_is_a_gap(monkeypatch):
    monkeypatch.setitem(CAPABILITIES, "teleportation", Capability("teleportation", "teleports", ("0",),
                                                                  events=("teleport:far",)))
    assert any("'teleportation' generates event 'teleport:far'" in g for g in contract.problems())


def test_a_decision_kind_lacking_its_labels_is_a_gap(monkeypatch):
    vote = decisions.DecisionKind("vote", "each player", "`grace`, `condemnation`", ("701.38",))
    monkeypatch.setattr(decisions, "TABLE", (*decisions.TABLE, vote))
    assert any("'vote' lacks labels ['grace', 'condemnation']" in g for g in contract.problems())
    monkeypatch.setattr(decisions, "TABLE", (*decisions.TABLE[:-1], dataclasses.replace(
        vote, labels=("grace", "condemnation"))))
    assert not any("'vote'" in g for g in contract.problems())


def test_check_fails_on_a_stale_reference_and_names_the_command(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "docs" / "reference.md"
    stale.parent.mkdir()
    stale.write_text(contract.render().replace("## Events", "## Events (edited by hand)"), encoding="utf-8")
    monkeypatch.setattr(contract, "_ROOT", tmp_path)
    assert contract.main(["--check"]) == 1
    out = capsys.readouterr()
    assert "-## Events (edited by hand)" in out.out and "+## Events" in out.out
    assert contract.COMMAND in out.err
    assert contract.main(["--write"]) == 0 and contract.main(["--check"]) == 0


def test_rulesfuzz_reference_prints_the_reference(capsys):
    assert cli_main(["reference"]) == 0
    assert capsys.readouterr().out == contract.render()


def test_the_reference_covers_every_table_it_renders():
    text = contract.render()
    for etype in schemas.load("event")["properties"]["type"]["enum"]:
        assert f"### Event `{etype}`" in text
    for cap in CAPABILITIES:
        assert f"### Capability `{cap}`" in text
    for kind in log_kinds.KINDS:
        assert f"### Log entry `{kind.kind}`" in text
    for kind in decisions.TABLE:
        assert f"| `{kind.kind}` |" in text
    for name, code in ERROR_CODES.items():
        assert f"| `{name}` | {code} |" in text


# --------------------------------------------------------------------------- the log table, enforced
def _obs(log: list) -> dict:
    bears = {"name": "Grizzly Bears", "zone": "graveyard", "owner": "P1", "controller": "P1", "token": False,
             "tapped": False, "summoning_sick": False, "damage": 0, "counters": {}, "attached_to": None,
             "combat": None, "regeneration_shields": 0, "supertypes": [], "types": ["Creature"],
             "subtypes": ["Bear"], "colors": ["G"], "keywords": [], "power": 2, "toughness": 2}
    return {"players": {"P1": {"life": 20, "lost": False}}, "objects": {"o1": bears},
            "zones": {"battlefield": [], "graveyard": {"P1": ["o1"]}}, "log": log}


def test_a_log_entry_of_an_unknown_kind_is_a_shape_problem_naming_it_and_the_kinds():
    problems = observation_problems(_obs([{"kind": "teleported", "object": "o1"}]), reuse=False)
    assert len(problems) == 1 and problems[0].startswith("log[0]")
    assert "unknown kind 'teleported'" in problems[0] and "zone_change" in problems[0]


@pytest.mark.parametrize("entry, says", [
    ({"kind": "damage", "source": "o1", "target": "o1", "amount": 2}, "has no 'deathtouch'"),
    ({"kind": "damage", "source": "o1", "target": "o1", "amount": True, "deathtouch": False}, "amount = True"),
    ({"kind": "zone_change", "object": "o1", "from": "battlefield", "to": "graveyard",
      "cause": {"event": "state_based_action", "rule": "704.5g"}}, '{"event": "destroy", "by": "704.5g"}'),
    ({"kind": "zone_change", "object": "o1", "from": "battlefield", "to": "graveyard",
      "cause": {"event": "teleport"}}, "unknown cause event 'teleport'"),
    ({"kind": "zone_change", "object": "o1", "from": "battlefield", "to": "limbo"}, "'limbo' is not a zone"),
    ({"kind": "zone_change", "object": "o1", "from": "battlefield", "to": "graveyard",
      "cause": {"event": "destroy"}}, "cause has no 'by'"),
])
def test_a_malformed_log_entry_is_reported_with_what_is_wrong(entry, says):
    problems = observation_problems(_obs([entry]), reuse=False)
    assert len(problems) == 1 and says in problems[0], problems


def test_the_causes_the_contract_names_are_accepted():
    log = [
        {"kind": "zone_change", "object": "o1", "from": "battlefield", "to": "graveyard",
         "cause": {"event": "destroy", "by": "704.5g"}},
        {"kind": "zone_change", "object": "o1", "from": "battlefield", "to": None,  # a token ceases to exist
         "cause": {"event": "state_based_action", "rule": "704.5d"}},
        {"kind": "zone_change", "object": "o1", "from": "battlefield", "to": "exile",  # an event type's cause
         "cause": {"event": "exile", "by": "exile effect"}},
        {"kind": "zone_change", "object": "o1", "from": None, "to": "battlefield"},  # no cause: not claimed
    ]
    assert observation_problems(_obs(log), reuse=False) == []


def _reference_sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "reference_engine").glob("*.py")))


def test_every_kind_and_cause_the_reference_engine_logs_is_in_the_table():
    """Read from the reference engine's source: each ``{"kind": ...}`` it logs and each cause event."""
    source = _reference_sources()
    kinds = set(re.findall(r'log\.append\(\s*\{"kind": "([a-z_]+)"', source))
    kinds |= set(re.findall(r'entries\.(?:insert\(0, |append\()\{"kind": "([a-z_]+)"', source))
    kinds |= {"tapped", "untapped"}  # costs.set_tapped: "tapped" if tapped else "untapped"
    assert len(kinds) >= 20
    known = {k.kind for k in log_kinds.KINDS}
    assert kinds - known == set()
    causes = set(re.findall(r'\{"event": "([a-z_]+)"', source))
    events = set(schemas.load("event")["properties"]["type"]["enum"])
    assert causes - {c.event for c in log_kinds.CAUSES} - events == set()


def test_every_kind_the_differential_oracle_gates_is_in_the_table():
    assert set(LOG_KINDS) - {k.kind for k in log_kinds.KINDS} == set()


# --------------------------------------------------------------------------- docs/protocol.md, run
_ELIDED = "\u2026elided\u2026"
_MORE = "\u2026more\u2026"


def _messages(block: str) -> list[dict]:
    """The messages of one ```json block of docs/protocol.md: one per balanced top-level object
    (wrapped over lines for reading), ``{...}`` and ``[...]`` standing for elided values and
    ``, ...}`` for elided fields."""
    text = block.replace("{...}", json.dumps(_ELIDED)).replace("[...]", json.dumps(_ELIDED))
    text = re.sub(r",\s*\.\.\.\s*}", f', "{_MORE}": true}}', text)
    out, depth, start, in_string, escape = [], 0, None, False, False
    for i, ch in enumerate(text):
        if in_string:
            escape = ch == "\\" and not escape
            if ch == '"' and not escape:
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch == "{":
            start = i if depth == 0 else start
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append(json.loads(text[start:i + 1]))
    return out


def _doc_messages() -> list[dict]:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    blocks = re.findall(r"^\s*```json\n(.*?)^\s*```", text, flags=re.S | re.M)
    return [m for block in blocks for m in _messages(block)]


def _matches(doc, actual, path="") -> list[str]:
    """Where ``doc`` (with elisions) differs from ``actual``; an error's ``message`` is free text."""
    if doc == _ELIDED:
        return []
    if isinstance(doc, dict) and isinstance(actual, dict):
        keys = set(doc) - {_MORE}
        out = [] if _MORE in doc or keys == set(actual) else [f"{path}: keys {sorted(keys)} vs {sorted(actual)}"]
        for key in keys:
            if key == "message" and path.endswith("error"):
                continue
            out += _matches(doc[key], actual.get(key), f"{path}.{key}") if key in actual else [f"{path}.{key} missing"]
        return out
    if isinstance(doc, list) and isinstance(actual, list) and len(doc) == len(actual):
        return [p for i, (d, a) in enumerate(zip(doc, actual)) for p in _matches(d, a, f"{path}[{i}]")]
    return [] if doc == actual else [f"{path}: documented {doc!r}, the reference engine {actual!r}"]


def _fill(doc, actual):
    """``doc`` with its elided parts taken from ``actual``."""
    if doc == _ELIDED:
        return actual
    if isinstance(doc, dict) and isinstance(actual, dict):
        return {**actual, **{k: _fill(v, actual.get(k)) for k, v in doc.items() if k != _MORE}} if _MORE in doc \
            else {k: _fill(v, actual.get(k)) for k, v in doc.items()}
    if isinstance(doc, list) and isinstance(actual, list):
        return [_fill(d, a) for d, a in zip(doc, actual)]
    return doc


def _serve(requests: list[dict], answers=()) -> list[dict]:
    """Every message the reference engine sends, answering ``requests`` through harness.serve's
    server (in-process), ``answers`` given to its callbacks in order."""
    out = io.BytesIO()
    server = Server(load_engine("reference"), io.BytesIO(), out)
    pending = list(answers)
    server.receive = lambda: pending.pop(0)
    for request in requests:
        try:
            server.handle(request)
        except serve._Stop:  # shutdown
            break
    return [json.loads(line) for line in out.getvalue().decode().splitlines()]


def _exchange() -> tuple[list[dict], list[dict]]:
    """The documented messages of the main exchange (new_game onwards, the harness's requests and
    the engine's answers) and the reference engine's answers to those requests."""
    docs = [m for m in _doc_messages() if isinstance(m.get("id"), int) or m.get("method") == "dispose"]
    requests = [m for m in docs if "method" in m and m["method"] != "initialize"]
    return docs, _serve(requests)


def test_every_message_of_the_protocol_page_matches_the_schemas():
    """Each message of every JSON block, its elided parts filled from what the reference engine
    answered to the same request."""
    messages = _doc_messages()
    assert len(messages) >= 15
    _, actual = _exchange()
    answers = {m["id"]: m for m in actual if "id" in m and "method" not in m}
    methods: dict = {}
    for message in messages:
        if "method" in message:
            methods[message.get("id")] = message["method"]
        method = message.get("method") or methods[message["id"]]
        filled = _fill(message, answers.get(message.get("id"))) if "method" not in message else message
        assert _ELIDED not in json.dumps(filled), message
        assert not schemas.message_problems(filled, method), (message, schemas.message_problems(filled, method))


def test_the_protocol_page_exchange_is_what_the_reference_engine_answers():
    docs, actual = _exchange()
    by_id = {m["id"]: m for m in actual if "id" in m}
    answered = [m for m in docs if "method" not in m and m["id"] != 1]  # initialize's answer is tiny-node's
    assert {m["id"] for m in answered} >= {2, 3, 4, 5, 9}
    for message in answered:
        assert not _matches(message, by_id[message["id"]]), _matches(message, by_id[message["id"]])


def test_the_initialize_example_declares_known_capabilities_and_cards():
    import cards

    info = next(m for m in _doc_messages() if m.get("id") == 1 and "result" in m)["result"]
    assert set(info["capabilities"]) <= set(CAPABILITIES)
    assert all(cards.card(name).name == name for name in info["cards"])


def test_the_protocol_page_apply_example_passes_the_invariants():
    """The documented apply (Grizzly Bears deals itself 2 damage): the observation before and the
    documented one after, its elisions filled from the reference engine, break no invariant of the
    reference engine's capabilities (the lethal-damage death logged as a destruction, CR 704.5g)."""
    docs, actual = _exchange()
    by_id = {m["id"]: m for m in actual if "id" in m}
    doc = {m["id"]: m for m in docs if "method" not in m}
    before = by_id[2]["result"]["observation"]
    after = _fill(doc[3]["result"]["observation"], by_id[3]["result"]["observation"])
    assert after["log"][-1]["cause"] == {"event": "destroy", "by": "704.5g"}
    event = next(m for m in docs if m.get("id") == 3 and "method" in m)["params"]["event"]
    transition = Transition(before, event, after)
    capabilities = effective_capabilities(load_engine("reference").info)
    checked = [inv for inv in REGISTRY.values() if inv.scope == "step" and inv.requires <= capabilities]
    assert len(checked) > 50
    broken = {inv.name: inv.check(transition) for inv in checked}
    assert {name: m for name, m in broken.items() if m} == {}
    assert observation_problems(after, reuse=False) == []
    # The cause it had before (a state_based_action 704.5g) is rejected by the log table.
    old = copy.deepcopy(after)
    old["log"][-1]["cause"] = {"event": "state_based_action", "rule": "704.5g"}
    assert observation_problems(old, reuse=False)


def test_the_choose_example_is_the_question_the_reference_engine_asks():
    doc = next(m for m in _doc_messages() if m.get("method") == "choose")
    answer = next(m for m in _doc_messages() if m.get("id") == doc["id"] and "result" in m)
    spec = board({"id": "b", "card": "Grizzly Bears"}, {"id": "u1", "card": "Hyena Umbra", "attached_to": "b"},
                 {"id": "u2", "card": "Boar Umbra", "attached_to": "b"})
    replies = _serve([{"jsonrpc": "2.0", "id": 1, "method": "new_game", "params": {"board": spec}},
                      {"jsonrpc": "2.0", "id": 2, "method": "apply", "params": {
                          "game": "g1", "observe": True, "event": {"type": "destroy", "targets": ["b"]}}}],
                     answers=[answer])
    asked = next(r for r in replies if r.get("method") == "choose")
    assert asked["params"] == doc["params"]
    result = next(r for r in replies if r.get("id") == 2)["result"]["observation"]
    assert result["objects"]["u2"]["zone"] == "graveyard" and result["objects"]["u1"]["zone"] == "battlefield"


def test_the_protocol_page_error_table_lists_every_error_code():
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (-?\d+) \| `([a-z_]+)` \|", text, flags=re.M))
    assert {name: int(code) for code, name in rows.items()} == ERROR_CODES


def test_the_docs_link_the_reference():
    assert "](reference.md)" in PROTOCOL_MD.read_text(encoding="utf-8")
    assert "](docs/reference.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_minimum_names_every_log_kind_compared_for_every_engine():
    """A log kind the differential oracle compares whatever the engine claims is named in docs/engines.md's
    minimum: logging only damage, zone_change and player_lost is not enough for a clean run against the
    reference when the cards gain life, remove damage, tap or attach."""
    minimum = ENGINES_MD.read_text(encoding="utf-8").split("## The minimum", 1)[1].split("\n- **Time**", 1)[0]
    always = [k.kind for k in log_kinds.KINDS if k.kind not in LOG_KINDS]
    assert "zone_change" in always and "life_gained" in always
    assert [k for k in always if f"`{k}`" not in minimum] == []


# --------------------------------------------------------------------------- differential decisions
class _ReversedOptions:
    """A decider seen through an engine that lists every question's options in reverse order."""

    def __init__(self, decider):
        self.decider = decider

    def choose(self, player, kind, options):
        return self.decider.choose(player, kind, list(reversed(options)))

    def flip_coin(self, player):
        return self.decider.flip_coin(player)

    def roll_die(self, player, sides):
        return self.decider.roll_die(player, sides)


class _Engine:
    """The reference engine, asking its questions with the options reversed (``reverse``) or
    answering them itself with the first option, never asking (``silent``)."""

    def __init__(self, mode: str):
        self.inner = load_engine("reference")
        self.info = self.inner.info
        self.mode = mode

    def new_game(self, spec):
        game, mode = self.inner.new_game(spec), self.mode

        class Game:
            def apply(self, event, decider):
                if mode == "silent":
                    decider = _FirstOption()
                return game.apply(event, _ReversedOptions(decider))

            def observe(self):
                return game.observe()

        return Game()


class _FirstOption:
    def choose(self, player, kind, options):
        return options[0]

    def flip_coin(self, player):
        return "heads"

    def roll_die(self, player, sides):
        return 1


TWO_UMBRAS = board({"id": "b", "card": "Grizzly Bears"}, {"id": "u1", "card": "Hyena Umbra", "attached_to": "b"},
                   {"id": "u2", "card": "Boar Umbra", "attached_to": "b"})
DESTROY = {"type": "destroy", "targets": ["b"]}


def test_options_are_the_same_in_any_order():
    assert same_options(["umbra armor:u1", "umbra armor:u2"], ["umbra armor:u2", "umbra armor:u1"])
    assert not same_options(["a", "b"], ["a", "c"]) and not same_options(["a", "a"], ["a"])


def test_a_differential_run_gives_the_reference_the_engines_answer_whatever_the_option_order():
    """The engine lists the umbra Auras in the other order and its controller picks the first it
    lists (u2): the reference engine, given that answer for the same question, destroys u2 too."""
    engine = _Engine("reverse")
    game = engine.new_game(copy.deepcopy(TWO_UMBRAS))
    asked = ReplayDecider([], strict=False)  # answers each question with its first option, records it
    game.apply(copy.deepcopy(DESTROY), asked)
    assert [d.options for d in asked.asked] == [("umbra armor:u2", "umbra armor:u1")]
    oracle = Oracle(load_engine("reference"), engine.info, copy.deepcopy(TWO_UMBRAS))
    reference = oracle.step(copy.deepcopy(DESTROY), asked.asked, _FirstOption())  # the fallback would pick u1
    after = game.observe()
    assert after["objects"]["u2"]["zone"] == "graveyard"
    assert differences(after, reference["after"], oracle.scope) == []


def test_a_question_only_the_reference_asks_is_labelled_and_kept_from_the_engines_decisions():
    engine = _Engine("silent")
    session = Session(engine, copy.deepcopy(TWO_UMBRAS), [i for i in REGISTRY.values() if i.scope == "step"], Stats(),
                      None,
                      against=load_engine("reference"))
    decider = ReplayDecider([], strict=False)
    session.step(copy.deepcopy(DESTROY), decider)
    recorded = session.steps[-1]["decisions"]
    assert [(d["kind"], d.get("asked_by")) for d in recorded] == [("replacement_effect", REFERENCE_ONLY)]
    from harness.reporting.report import describe_scenario

    text = describe_scenario({"board": TWO_UMBRAS, "steps": session.steps})
    assert "asked of the reference engine only" in text


@pytest.mark.parametrize("value", ["c1", "", 0, 3, True, False, None, {}, {"W": 1}, [], ["c1"], 1.5, (), b"x",
                                   collections.OrderedDict(), enum.IntEnum("Small", "ONE").ONE])
def test_a_log_field_takes_a_value_of_its_exact_types_as_its_json_types_do(value):
    """``Field.exact_types`` (the types :func:`log_kinds.entry_problem` accepts without asking
    ``Field.accepts``): every value of one is accepted, a bool never for an integer field."""
    fields = [f for k in log_kinds.KINDS for f in k.fields] + [f for c in log_kinds.CAUSES for f in c.fields]
    assert {types for f in fields for types in f.types} == {"string", "integer", "boolean", "object", "array", "null"}
    for spec in fields:
        if type(value) in spec.exact_types:
            assert spec.accepts(value), (spec.name, spec.types, value)
