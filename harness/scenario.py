"""Scenario files: the replay format, shared by ``rulesfuzz run`` and ``rulesfuzz replay``.

A scenario is JSON (schema: ``harness/schema/scenario.schema.json``)::

    {"format": "rulesfuzz-scenario/2",
     "board": BoardSpec,
     "steps": [{"event": Event, "decisions": [Decision...], "illegal": true, "expect": {...}}],
     "violation": {...}}

``expect`` is a partial observation compared after its step, so a maintainer can write a
scenario from a bug report by hand (:func:`expectation_differences`). In
``rulesfuzz-scenario/2`` players and objects are kept by id as a subset (an id not named
is not checked), ``"objects": {"ID": null}`` says that object does not exist, and every
field named is compared exactly: ``"counters": {}`` means no counters at all.
``rulesfuzz-scenario/1`` files are still read with their old meaning (every dict compared
by subset, so ``"counters": {}`` held whatever the counters were); :func:`format_note`
says so. A step the engine refuses (``IllegalAction``) fails the replay unless the step
says ``"illegal"`` (``true``, or the reason code ``rulesfuzz run`` recorded), or the
scenario says ``"allow_refusals": true`` (files ``rulesfuzz run`` writes: their events were
generated, so an engine may refuse any of them, as during the run).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema

from .decider import ReplayDecider, ReplayDiverged
from . import vocabulary
from .execution import BoardRejected, Session, Stats, scenario_run
from .protocol import Violation

#: The format ``rulesfuzz run`` writes.
FORMAT = "rulesfuzz-scenario/2"
#: The format whose ``expect`` compares dicts by subset, still read with that meaning.
FORMAT_1 = "rulesfuzz-scenario/1"


class ScenarioError(Exception):
    """A scenario file that can't be read or doesn't follow the schema; says where."""


#: The largest scenario read: objects on the board and steps. Far above anything the harness
#: generates or shrinks to (boards of a dozen objects, examples of tens of steps): a file past
#: them is bad input, not hours of replay and pages of board lines.
MAX_OBJECTS = 10_000
MAX_STEPS = 10_000
#: The largest scenario file read, in bytes (a file at both limits is a few megabytes).
MAX_BYTES = 64 * 1024 * 1024


def size_problem(data, source: str = "scenario") -> None:
    """Raise :class:`ScenarioError` if ``data`` has more than :data:`MAX_OBJECTS` objects or
    :data:`MAX_STEPS` steps (checked before the schema: counting is cheap, validating isn't)."""
    if not isinstance(data, dict):
        return
    board = data.get("board")
    objects = board.get("objects") if isinstance(board, dict) else None
    if isinstance(objects, list) and len(objects) > MAX_OBJECTS:
        raise ScenarioError(f"{source}: board/objects: {len(objects):,} objects, more than the limit of "
                            f"{MAX_OBJECTS:,} (a scenario this large is not one the harness wrote)")
    steps = data.get("steps")
    if isinstance(steps, list) and len(steps) > MAX_STEPS:
        raise ScenarioError(f"{source}: steps: {len(steps):,} steps, more than the limit of {MAX_STEPS:,} "
                            f"(a scenario this large is not one the harness wrote)")


@lru_cache(maxsize=1)
def schema() -> dict:
    """The JSON Schema of scenario files (shipped as package data)."""
    return json.loads(resources.files("harness").joinpath("schema/scenario.schema.json").read_text("utf-8"))


def validate(data, source: str = "scenario") -> dict:
    """Check ``data`` against the schema; raises :class:`ScenarioError` naming the first bad field
    (or a scenario past the size limits, :func:`size_problem`)."""
    size_problem(data, source)
    validator = jsonschema.Draft202012Validator(schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
        raise ScenarioError(f"{source}: {where}: {err.message}")
    return data


def load(path) -> dict:
    """Read and validate a scenario file. Raises :class:`ScenarioError`."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ScenarioError(f"{path}: {path.stat().st_size:,} bytes, more than the limit of {MAX_BYTES:,} "
                                f"for a scenario file")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"{path}: can't read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {exc.start}); scenario files are UTF-8 JSON") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: not a scenario: JSON nested too deeply") from None
    try:
        validate(data, str(path))
    except RecursionError:
        raise ScenarioError(f"{path}: not a scenario: JSON nested too deeply") from None
    vocabulary_problem(data, str(path))
    return data


def vocabulary_problem(data: dict, source: str = "scenario") -> None:
    """Raise :class:`ScenarioError` for the first thing a schema-valid scenario says outside
    the harness's vocabulary (:mod:`harness.vocabulary`): an unknown event type, card or
    field value, or a board no engine should accept. Such a file is malformed, not a
    scenario an engine refuses."""
    for problem in vocabulary.scenario_problems(data):
        raise ScenarioError(f"{source}: {problem}")


def build(board: dict, steps: list[dict], violations: list[Violation] = (), engine=None, seed=None) -> dict:
    """A scenario dict from a board and recorded steps (as :class:`Session` records them).

    ``violation`` holds the first of ``violations``; ``also_violated`` the others.
    ``allow_refusals`` is set: the steps were generated, and any of them may be refused by
    another engine (the fixed one) without failing the replay.
    """
    scenario = {"format": FORMAT, "board": board, "steps": [dict(s) for s in steps], "allow_refusals": True}
    if violations:
        scenario["violation"] = violations[0].to_json()
        if len(violations) > 1:
            scenario["also_violated"] = [v.to_json() for v in violations[1:]]
    if engine is not None:
        scenario["engine"] = {"name": engine.info.name, "version": engine.info.version}
    if seed is not None:
        scenario["seed"] = seed
    return scenario


def save(scenario: dict, path) -> Path:
    """Write ``scenario`` as indented JSON to ``path`` (parents created); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(scenario, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def differences(expected, actual, where: str = "") -> list[str]:
    """Paths where ``actual`` differs from the partial ``expected``, every dict compared by
    subset: the meaning of ``expect`` in ``rulesfuzz-scenario/1`` files."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where or '(top)'}: expected an object, got {actual!r}"]
        out = []
        for key, value in expected.items():
            path = f"{where}.{key}" if where else str(key)
            if key not in actual:
                out.append(f"{path}: expected {value!r}, but there is no such field")
            else:
                out.extend(differences(value, actual[key], path))
        return out
    if expected != actual:
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


def same_json(a, b) -> bool:
    """Whether two JSON values are equal as JSON: ``true`` is not ``1``, dicts are equal
    only with the same keys, lists only in the same order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _field_difference(path: str, expected, actual) -> str | None:
    if same_json(expected, actual):
        return None
    if isinstance(expected, dict) and isinstance(actual, dict):
        extra = sorted(set(actual) - set(expected))
        missing = sorted(set(expected) - set(actual))
        detail = "".join([f"; also has {extra}" if extra else "", f"; lacks {missing}" if missing else ""])
        return f"{path}: expected exactly {expected!r}, got {actual!r}{detail}"
    return f"{path}: expected {expected!r}, got {actual!r}"


def exact_differences(expect: dict, observation: dict) -> list[str]:
    """Paths where ``observation`` differs from ``expect`` as ``rulesfuzz-scenario/2`` reads it.

    ``expect["players"]`` and ``expect["objects"]`` map ids to fields: ids not named are
    not checked; each named field is compared exactly (:func:`same_json`: a dict such as
    ``counters`` or ``mana_pool`` means exactly those keys, a list exactly those items in
    that order). ``"objects": {"ID": null}`` expects no object ``ID`` in the observation
    (it never existed or ceased to exist, e.g. a token that left the battlefield, CR
    111.7, 704.5d). ``expect["zones"]`` maps zone names to their exact content; a zone kept
    per player (``graveyard``, ``hand``, ``library``, ``exile``) is checked for the players
    named only.
    """
    out = []
    for section, noun in (("players", "player"), ("objects", "object")):
        actual_section = observation.get(section)
        actual_section = actual_section if isinstance(actual_section, dict) else {}
        for oid, fields in (expect.get(section) or {}).items():
            where = f"{section}.{oid}"
            if fields is None:
                if oid in actual_section:
                    zone = actual_section[oid].get("zone") if isinstance(actual_section[oid], dict) else None
                    out.append(f"{where}: expected no such {noun}, but it exists"
                               + (f" (in the {zone})" if zone else ""))
                continue
            if oid not in actual_section:
                out.append(f"{where}: expected {fields!r}, but there is no such {noun}")
                continue
            actual = actual_section[oid]
            if not isinstance(actual, dict):
                out.append(f"{where}: expected an object, got {actual!r}")
                continue
            for name, value in fields.items():
                if name not in actual:
                    out.append(f"{where}.{name}: expected {value!r}, but there is no such field")
                else:
                    diff = _field_difference(f"{where}.{name}", value, actual[name])
                    if diff:
                        out.append(diff)
    zones = observation.get("zones") if isinstance(observation.get("zones"), dict) else {}
    for zone, content in (expect.get("zones") or {}).items():
        where = f"zones.{zone}"
        if zone not in zones:
            out.append(f"{where}: expected {content!r}, but there is no such zone")
        elif isinstance(content, dict) and isinstance(zones[zone], dict):
            for player, cards in content.items():
                if player not in zones[zone]:
                    out.append(f"{where}.{player}: expected {cards!r}, but there is no such player")
                else:
                    diff = _field_difference(f"{where}.{player}", cards, zones[zone][player])
                    if diff:
                        out.append(diff)
        else:
            diff = _field_difference(where, content, zones[zone])
            if diff:
                out.append(diff)
    return out


def expectation_differences(scenario: dict, expect: dict, observation: dict) -> list[str]:
    """The differences between ``observation`` and the ``expect`` of one step of ``scenario``
    (the ``illegal`` key aside), read as the scenario's format says: exact fields for
    ``rulesfuzz-scenario/2`` (:func:`exact_differences`), subset for ``/1`` (:func:`differences`)."""
    partial = {k: v for k, v in expect.items() if k != "illegal"}
    if scenario.get("format") == FORMAT_1:
        return differences(partial, observation)
    return exact_differences(partial, observation)


def refusals_allowed(scenario: dict) -> bool:
    """Whether any step of ``scenario`` may be refused without failing its replay: its
    ``allow_refusals`` (set in files ``rulesfuzz run`` writes), by default true only for a
    ``rulesfuzz-scenario/1`` file written by ``rulesfuzz run`` (it has a ``violation``)."""
    return bool(scenario.get("allow_refusals", scenario.get("format") == FORMAT_1 and "violation" in scenario))


def format_note(scenario: dict) -> str | None:
    """One line for a replay of a ``rulesfuzz-scenario/1`` file (whose ``expect`` keeps its
    old, weaker meaning), or None."""
    if scenario.get("format") != FORMAT_1:
        return None
    return (f"{FORMAT_1} file: its expect is read with the old meaning (dicts compared by subset, so "
            f"\"counters\": {{}} holds whatever the counters are); {FORMAT} compares each field exactly and "
            f"says an object is absent with null")


@dataclass
class ReplayResult:
    """What a replay found: invariant violations and expectation mismatches, by step.

    ``notes`` say where the engine asked for decisions other than those recorded;
    ``refused`` the steps the engine refused (``IllegalAction``) that don't say
    ``"illegal"``: each fails the replay.
    """

    violations: list[Violation] = field(default_factory=list)
    mismatches: list[tuple[int, str]] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)
    steps_run: int = 0
    notes: list[tuple[int, str]] = field(default_factory=list)
    session: object = None

    @property
    def ok(self) -> bool:
        return not self.violations and not self.mismatches and not self.refused


def board_problem(board: dict) -> str | None:
    """Why ``board`` is not a legal position in the harness's vocabulary
    (:mod:`harness.vocabulary`), or None.

    ``run`` and ``replay`` agree: an engine that raises on a board in the vocabulary has a
    finding (``generic.engine_does_not_raise`` at step 0); a board outside it is bad input.
    """
    return next(iter(vocabulary.scenario_problems({"board": board, "steps": []})), None)


def replay(engine, scenario: dict, invariants, scenario_invariants=(), step_timeout: float | None = 10.0,
           against=None, keep_session: bool = False) -> ReplayResult:
    """Run ``scenario`` on ``engine`` deterministically, checking invariants and expectations.

    Raises ``execution.BoardRejected`` if the engine raised on a board that is not a legal
    position (:func:`board_problem`),
    ``execution.Declined`` if the engine raises ``Unsupported``, and
    :class:`ReplayDiverged` if it asks for a die roll or coin flip the scenario lacks.
    """
    result = ReplayResult()
    allow_refusals = refusals_allowed(scenario)
    session = Session(engine, scenario["board"], invariants, Stats(), step_timeout, against)
    if keep_session:
        result.session = session
    if session.initial_violations:
        problem = board_problem(scenario["board"])
        if problem is not None:  # a board no engine should accept: bad input, not a finding
            raise BoardRejected(problem)
        result.violations.extend(session.initial_violations)
        return result
    for index, step in enumerate(scenario["steps"], start=1):
        decider = ReplayDecider(step.get("decisions", []), strict=False)
        violations = session.step(step["event"], decider)
        result.steps_run = index
        result.violations.extend(violations)
        notes = decider.notes + [f"recorded decision {d} was not asked for" for d in decider.unused]
        result.notes.extend((index, n) for n in notes)
        illegal = session.steps[-1].get("illegal") if len(session.steps) == index else None
        expect = step.get("expect")
        if illegal and not allow_refusals and not step.get("illegal") and not (expect or {}).get("illegal"):
            result.refused.append((index, f"the engine refused the event (IllegalAction {illegal!r}); a step it "
                                          f"may refuse says \"illegal\": true"))
        if expect is not None:
            expected_illegal = expect.get("illegal")
            if expected_illegal is not None and bool(expected_illegal) != bool(illegal) or (
                isinstance(expected_illegal, str) and expected_illegal != illegal
            ):
                result.mismatches.append((index, f"illegal: expected {expected_illegal!r}, got {illegal!r}"))
            for diff in expectation_differences(scenario, expect, session.observation):
                result.mismatches.append((index, diff))
        if session.broken:
            break
    if not session.broken and scenario_invariants:
        run = scenario_run(engine, session)
        for inv in scenario_invariants:
            messages = inv.check(run)
            if messages:
                result.violations.append(Violation(inv.name, len(session.steps), tuple(messages)))
    return result


__all__ = ["FORMAT", "FORMAT_1", "ReplayDiverged", "ReplayResult", "ScenarioError", "build", "differences",
           "exact_differences", "expectation_differences", "format_note", "load", "refusals_allowed", "replay",
           "same_json", "save",
           "schema", "validate"]
