"""Scenario files: the replay format, shared by ``rulesfuzz run`` and ``rulesfuzz replay``.

A scenario is JSON (schema: ``harness/schema/scenario.schema.json``)::

    {"format": "rulesfuzz-scenario/1",
     "board": BoardSpec,
     "steps": [{"event": Event, "decisions": [Decision...], "expect": {...}}],
     "violation": {...}}

``expect`` is a partial observation compared after its step: only the fields it names
are checked, so a maintainer can write a scenario from a bug report by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema

from .decider import ReplayDecider, ReplayDiverged
from .execution import BoardRejected, Session, Stats, scenario_run
from .protocol import Violation

FORMAT = "rulesfuzz-scenario/1"


class ScenarioError(Exception):
    """A scenario file that can't be read or doesn't follow the schema; says where."""


@lru_cache(maxsize=1)
def schema() -> dict:
    """The JSON Schema of scenario files (shipped as package data)."""
    return json.loads(resources.files("harness").joinpath("schema/scenario.schema.json").read_text("utf-8"))


def validate(data, source: str = "scenario") -> dict:
    """Check ``data`` against the schema; raises :class:`ScenarioError` naming the first bad field."""
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
    unknown_event_types(data, str(path))
    return data


def unknown_event_types(data: dict, source: str = "scenario") -> None:
    """Raise :class:`ScenarioError` for the first step whose event type is outside the
    protocol's vocabulary (the event types the reference engine performs; see
    :mod:`harness.protocol`): such a file is malformed, not a scenario an engine refuses."""
    from reference_engine.events import HANDLERS

    for i, step in enumerate(data["steps"]):
        kind = step["event"]["type"]
        if kind not in HANDLERS:
            raise ScenarioError(f"{source}: steps/{i}/event/type: unknown event type {kind!r} "
                                f"(the vocabulary: {', '.join(sorted(HANDLERS))})")


def build(board: dict, steps: list[dict], violations: list[Violation] = (), engine=None, seed=None) -> dict:
    """A scenario dict from a board and recorded steps (as :class:`Session` records them).

    ``violation`` holds the first of ``violations``; ``also_violated`` the others.
    """
    scenario = {"format": FORMAT, "board": board, "steps": [dict(s) for s in steps]}
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
    """Paths where ``actual`` differs from the partial ``expected`` (dicts compared by subset)."""
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


@dataclass
class ReplayResult:
    """What a replay found: invariant violations and expectation mismatches, by step.

    ``notes`` say where the engine asked for decisions other than those recorded.
    """

    violations: list[Violation] = field(default_factory=list)
    mismatches: list[tuple[int, str]] = field(default_factory=list)
    steps_run: int = 0
    notes: list[tuple[int, str]] = field(default_factory=list)
    session: object = None

    @property
    def ok(self) -> bool:
        return not self.violations and not self.mismatches


def board_problem(board: dict) -> str | None:
    """Why ``board`` is not a legal position, as the reference engine judges it, or None.

    ``run`` and ``replay`` agree: an engine that raises on a board the reference engine
    accepts has a finding (``generic.engine_does_not_raise`` at step 0); a board the
    reference engine rejects too is bad input.
    """
    from .adapters.reference import ReferenceAdapter
    from .protocol import Unsupported

    try:
        ReferenceAdapter().new_game(json.loads(json.dumps(board)))
    except Unsupported:
        return None
    except Exception as exc:  # noqa: BLE001  the reference engine's BadBoard, UnknownCard, ...
        return str(exc)
    return None


def replay(engine, scenario: dict, invariants, scenario_invariants=(), step_timeout: float | None = 10.0,
           against=None, keep_session: bool = False) -> ReplayResult:
    """Run ``scenario`` on ``engine`` deterministically, checking invariants and expectations.

    Raises ``execution.BoardRejected`` if the board is not a legal position (the engine
    raised on it and so does the reference engine: :func:`board_problem`),
    ``execution.Declined`` if the engine raises ``Unsupported``, and
    :class:`ReplayDiverged` if it asks for a die roll or coin flip the scenario lacks.
    """
    result = ReplayResult()
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
        expect = step.get("expect")
        if expect is not None:
            illegal = session.steps[-1].get("illegal")
            expected_illegal = expect.get("illegal")
            if expected_illegal is not None and bool(expected_illegal) != bool(illegal) or (
                isinstance(expected_illegal, str) and expected_illegal != illegal
            ):
                result.mismatches.append((index, f"illegal: expected {expected_illegal!r}, got {illegal!r}"))
            partial = {k: v for k, v in expect.items() if k != "illegal"}
            for diff in differences(partial, session.observation):
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


__all__ = ["FORMAT", "ReplayDiverged", "ReplayResult", "ScenarioError", "build", "differences", "load", "replay",
           "save", "schema", "validate"]
