"""Scenario files on disk: their formats, reading and checking one (the schema, the size limits,
the vocabulary) and writing one. :mod:`harness.running.scenario` (which re-exports all of it)
says what the formats mean and replays them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from harness.wire import vocabulary
from harness.protocol import Violation
from harness.reporting.findings import violation_json
from harness.protocol import RulesfuzzError

#: The format ``rulesfuzz run`` writes.
FORMAT = "rulesfuzz-scenario/2"
#: The format whose ``expect`` compares dicts by subset, still read with that meaning.
FORMAT_1 = "rulesfuzz-scenario/1"
#: The format whose ``expect`` may state the log and the decisions of a step and the board before
#: the first event (``expect_initial``), replayed strictly by default.
FORMAT_3 = "rulesfuzz-scenario/3"
#: The fields of ``expect`` (and ``expect_initial``) only ``rulesfuzz-scenario/3`` has.
V3_EXPECT = ("log", "log_exact", "log_ordered", "decisions")


class ScenarioError(RulesfuzzError):
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


def located(source: str, where: str, message: str) -> str:
    """``"FILE: step N: PATH: message"``: a problem at ``where`` (a schema path such as
    ``steps/2/expect/log/0``) named with its step, numbered from 1 as replay numbers them
    (``before the first event`` for ``expect_initial``)."""
    parts = where.split("/")
    if len(parts) > 1 and parts[0] == "steps" and parts[1].isdigit():
        return f"{source}: step {int(parts[1]) + 1}: {where}: {message}"
    if parts[0] == "expect_initial":
        return f"{source}: before the first event: {where}: {message}"
    return f"{source}: {where}: {message}"


def version_problem(data) -> tuple[str, str] | None:
    """``(path, message)`` for the first field of ``rulesfuzz-scenario/3`` in a file of another
    format (``expect_initial``; ``log``, ``log_exact``, ``log_ordered`` or ``decisions`` in a
    step's ``expect``), or None. Checked before the schema, which says the same less plainly."""
    if not isinstance(data, dict) or data.get("format") == FORMAT_3 or not isinstance(data.get("format"), str):
        return None
    needs = f'needs "format": "{FORMAT_3}" (this file is {data["format"]})'
    if "expect_initial" in data:
        return "expect_initial", f"an expectation before the first event {needs}"
    steps = data.get("steps")
    for i, step in enumerate(steps if isinstance(steps, list) else ()):
        expect = step.get("expect") if isinstance(step, dict) else None
        if not isinstance(expect, dict):
            continue
        for name in V3_EXPECT:
            if name in expect:
                return f"steps/{i}/expect/{name}", f"expect.{name} {needs}"
    return None


def validate(data, source: str = "scenario") -> dict:
    """Check ``data`` against the schema; raises :class:`ScenarioError` naming the first bad field
    and its step (:func:`located`), or a scenario past the size limits (:func:`size_problem`)."""
    size_problem(data, source)
    found = version_problem(data)
    if found is not None:
        raise ScenarioError(located(source, *found))
    validator = jsonschema.Draft202012Validator(schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
        raise ScenarioError(located(source, where, err.message))
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
    the harness's vocabulary (:mod:`harness.wire.vocabulary`): an unknown event type, card or
    field value, or a board no engine should accept. Such a file is malformed, not a
    scenario an engine refuses."""
    for problem in vocabulary.scenario_problems(data):
        where, _, message = problem.partition(": ")
        raise ScenarioError(located(source, where, message))


def build(board: Mapping[str, Any], steps: list[dict], violations: Sequence[Violation] = (), engine=None,
          seed=None) -> dict:
    """A scenario dict from a board and recorded steps (as :class:`Session` records them).

    ``violation`` holds the first of ``violations``; ``also_violated`` the others.
    ``allow_refusals`` is set: the steps were generated, and any of them may be refused by
    another engine (the fixed one) without failing the replay.
    """
    scenario = {"format": FORMAT, "board": board, "steps": [dict(s) for s in steps], "allow_refusals": True}
    if violations:
        scenario["violation"] = violation_json(violations[0])
        if len(violations) > 1:
            scenario["also_violated"] = [violation_json(v) for v in violations[1:]]
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
