"""Scenario files: the replay format, shared by ``rulesfuzz run`` and ``rulesfuzz replay``.

A scenario is JSON (schema: ``harness/schema/scenario.schema.json``)::

    {"format": "rulesfuzz-scenario/3",
     "board": BoardSpec,
     "expect_initial": {...},
     "steps": [{"event": Event, "decisions": [Decision...], "illegal": true, "expect": {...}}],
     "violation": {...}}

``expect`` is a partial observation compared after its step, so a maintainer can write a
scenario from a bug report by hand (:func:`expectation_differences`). In
``rulesfuzz-scenario/2`` players and objects are kept by id as a subset (an id not named
is not checked), ``"objects": {"ID": null}`` says that object does not exist, and every
field named is compared exactly: ``"counters": {}`` means no counters at all.
``rulesfuzz-scenario/3`` reads ``expect`` as ``/2`` does and adds: ``log`` (entries the
step's log must hold, each matched as a subset of its own observed entry, in any order;
``log_exact``: nothing else logged; ``log_ordered``: in that order; :func:`log_differences`),
``decisions`` (every question asked during the step, options as a set;
:func:`decision_differences`) and ``expect_initial`` at the top (the observation after
``new_game``, before the first event). Replaying a ``/3`` file is *strict* by default: a
question the engine asks that no recorded answer covers fails the replay
(:class:`UnrecordedDecision`) instead of getting its first option; ``/1`` and ``/2`` files
replay as before unless ``strict=True`` (``rulesfuzz replay --strict``). Recorded answers
are matched in order with their options as a list in ``/1`` and ``/2``, in any order with
options as a set in ``/3`` (:class:`ScenarioDecider`).
``rulesfuzz-scenario/1`` files are still read with their old meaning (every dict compared
by subset, so ``"counters": {}`` held whatever the counters were); :func:`format_note`
says so. A step the engine refuses (``IllegalAction``) fails the replay unless the step
says ``"illegal"`` (``true``, or the reason code ``rulesfuzz run`` recorded), or the
scenario says ``"allow_refusals": true`` (files ``rulesfuzz run`` writes: their events were
generated, so an engine may refuse any of them, as during the run).

The files ``rulesfuzz run`` writes stay ``rulesfuzz-scenario/2`` (:data:`FORMAT`): they
record every question asked (so ``--strict`` replays them too), but a finding's file is
replayed on the *fixed* engine, which may rightly ask a question the buggy one didn't;
answering it with its first option, as ``/2`` does, keeps the regression corpus about the
rules, not about the questions.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, Sequence

import jsonschema

from harness.running.decider import (
    REFERENCE_ONLY,
    MirrorDecider,
    ReplayDecider,
    ReplayDiverged,
    _check_options,
    same_options,
)
from harness.wire import vocabulary
from harness.running.execution import BoardRejected, Session, Stats, scenario_run
from harness.protocol import Decision, Violation
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


def exact_differences(expect: dict, observation: Mapping[str, Any]) -> list[str]:
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
    zones = observation.get("zones")
    zones = zones if isinstance(zones, dict) else {}
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


def entry_matches(expected: dict, actual) -> bool:
    """Whether log entry ``actual`` holds every field of ``expected``: a dict field by subset
    (a ``cause`` may name its ``event`` only), any other field exactly (:func:`same_json`)."""
    if not isinstance(actual, dict):
        return False
    for key, value in expected.items():
        if key not in actual:
            return False
        if isinstance(value, dict):
            if not entry_matches(value, actual[key]):
                return False
        elif not same_json(value, actual[key]):
            return False
    return True


def _matching(patterns: list, items: list, fits) -> list[int | None]:
    """For each of ``patterns`` the index of the item it is matched with, or None: a largest
    one-to-one matching (``fits(pattern, item)``), so a broad pattern never takes the one
    item a narrower pattern needed (augmenting paths; logs are short)."""
    owner: dict[int, int] = {}  # item index -> pattern index

    def place(p: int, seen: set) -> bool:
        for i, item in enumerate(items):
            if i not in seen and fits(patterns[p], item):
                seen.add(i)
                if i not in owner or place(owner[i], seen):
                    owner[i] = p
                    return True
        return False

    for p in range(len(patterns)):
        place(p, set())
    out: list[int | None] = [None] * len(patterns)
    for i, p in owner.items():
        out[p] = i
    return out


def _short(value) -> str:
    return json.dumps(value, sort_keys=True)


def _unmatched_entry(pattern: dict, log: list) -> str:
    """Why no entry of ``log`` is left for ``pattern``: the entries it would match (each
    taken by another expected entry), or those of its kind, or the kinds logged."""
    fitting = [e for e in log if entry_matches(pattern, e)]
    if fitting:
        return (f"log: expected one more entry matching {_short(pattern)}: the step logged "
                f"{len(fitting)} such, each matched by another expected entry: {_short(fitting)}")
    kind = pattern.get("kind")
    same = [e for e in log if isinstance(e, dict) and e.get("kind") == kind]
    if same:
        seen = f"its {kind} entries: {_short(same)}"
    elif log:
        seen = f"it logged no {kind} entry (only {sorted({str(e.get('kind')) for e in log if isinstance(e, dict)})})"
    else:
        seen = "it logged nothing"
    return f"log: expected an entry matching {_short(pattern)}, but the step logged none; {seen}"


def log_differences(expect: dict, log: list) -> list[str]:
    """What is missing from (or extra in) the log of one step, as ``rulesfuzz-scenario/3``
    reads ``expect["log"]``: each entry listed is matched as a subset (:func:`entry_matches`)
    of an observed entry of its own, in any order; ``log_exact``: no other entry is logged;
    ``log_ordered``: the entries listed are logged in that order."""
    if "log" not in expect:
        return []
    patterns = list(expect["log"])
    log = list(log) if isinstance(log, list) else []
    exact, ordered = bool(expect.get("log_exact")), bool(expect.get("log_ordered"))
    out = []
    if ordered and exact:
        for i in range(max(len(patterns), len(log))):
            if i >= len(log):
                out.append(f"log[{i}]: expected an entry matching {_short(patterns[i])}, but the step logged "
                           f"only {len(log)} entries (log_exact, log_ordered)")
            elif i >= len(patterns):
                out.append(f"log[{i}]: the step also logged {_short(log[i])}, which no expected entry matches "
                           f"(log_exact)")
            elif not entry_matches(patterns[i], log[i]):
                out.append(f"log[{i}]: expected an entry matching {_short(patterns[i])}, got {_short(log[i])} "
                           f"(log_ordered)")
        return out
    taken = _matching(patterns, log, entry_matches)
    for pattern, index in zip(patterns, taken):
        if index is None:
            out.append(_unmatched_entry(pattern, log))
    if exact:
        used = {i for i in taken if i is not None}
        out.extend(f"log: the step also logged {_short(e)}, which no expected entry matches (log_exact)"
                   for i, e in enumerate(log) if i not in used)
    if ordered and not out:
        at = -1
        for k, pattern in enumerate(patterns):
            later = next((i for i in range(at + 1, len(log)) if entry_matches(pattern, log[i])), None)
            if later is None:
                out.append(f"log: expected an entry matching {_short(pattern)} after the one matching "
                           f"{_short(patterns[k - 1])} (log_ordered), but every such entry comes before it; "
                           f"the log: {_short(log)}")
                break
            at = later
    return out


def describe_question(kind, player, options) -> str:
    """``"replacement_effect of P1 with options [...]"``: one question, as replay names it."""
    who = "no player" if player is None else player
    if options is None:
        return f"{kind} of {who}"
    return f"{kind} of {who} with options {list(options)}"


def _question_fits(expected: dict, asked: dict) -> bool:
    if expected.get("kind") != asked.get("kind"):
        return False
    if "player" in expected and expected["player"] != asked.get("player"):
        return False
    if "options" in expected and set(expected["options"]) != set(asked.get("options") or ()):
        return False
    return True


def decision_differences(expected: list[dict], asked: list[dict]) -> list[str]:
    """The questions missing from, or extra in, ``asked`` (the decisions asked during one step,
    as recorded) for ``expect["decisions"]`` of ``rulesfuzz-scenario/3``: each listed question
    is matched with one asked question of its kind (and player and options as a set, when
    given), in any order; a question asked that none matches is extra."""
    taken = _matching(expected, asked, _question_fits)
    out = []
    named = [describe_question(d.get("kind"), d.get("player"), d.get("options")) for d in asked]
    for question, index in zip(expected, taken):
        if index is None:
            seen = f"it asked {'; '.join(named)}" if named else "it asked nothing"
            out.append(f"decisions: expected the engine to ask "
                       f"{describe_question(question['kind'], question.get('player'), question.get('options'))}, "
                       f"but it did not; {seen}")
    used = {i for i in taken if i is not None}
    for i, d in enumerate(asked):
        if i not in used:
            out.append(f"decisions: the engine also asked {named[i]}, which expect.decisions does not list")
    return out


def expectation_differences(scenario: dict, expect: dict, observation: Mapping[str, Any], asked: list[dict] | None = None,
                            log: list | None = None) -> list[str]:
    """The differences between ``observation`` and the ``expect`` of one step of ``scenario``
    (the ``illegal`` key aside), read as the scenario's format says: exact fields for
    ``rulesfuzz-scenario/2`` and ``/3`` (:func:`exact_differences`), subset for ``/1``
    (:func:`differences`); for ``/3`` also the step's ``log`` (default: the observation's;
    :func:`log_differences`) and the questions ``asked`` (:func:`decision_differences`)."""
    partial = {k: v for k, v in expect.items() if k != "illegal" and k not in V3_EXPECT}
    if scenario.get("format") == FORMAT_1:
        return differences(partial, observation)
    out = exact_differences(partial, observation)
    if scenario.get("format") == FORMAT_3:
        out.extend(log_differences(expect, observation.get("log", []) if log is None else log))
        if "decisions" in expect:
            out.extend(decision_differences(expect["decisions"], list(asked or ())))
    return out


def strict_by_default(scenario: dict) -> bool:
    """Whether ``scenario`` replays strictly unless told otherwise: ``rulesfuzz-scenario/3`` files."""
    return scenario.get("format") == FORMAT_3


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


class UnrecordedDecision(ReplayDiverged):
    """Strict replay: the engine asked a question no recorded answer of the step covers.

    A :class:`ReplayDiverged` (so it crosses an engine call as the harness's own, never
    blamed on the engine); :func:`replay` turns it into a failed replay at that step."""


class ScenarioDecider(ReplayDecider):
    """The recorded answers of one step of a scenario being replayed (``rulesfuzz replay``).

    A question is covered by a recorded decision of its kind, player (a record without
    ``player`` covers anyone's) and options (a record without ``options`` covers any),
    whose answer is one of the options. ``in_order`` (``/1``, ``/2``): records are taken
    in order, and those passed over to reach a match are dropped with a note, as
    :class:`~harness.running.decider.ReplayDecider` does; otherwise (``/3``) the first unused
    record that covers the question is taken, wherever it is. ``options_as_set``
    (``/3``): options are compared as a set. A question nothing covers is answered with
    its first option and a note, or with ``strict`` raises :class:`UnrecordedDecision`
    ("the engine asked KIND of PLAYER with options [...] at step N; the scenario recorded
    no answer"), kept in ``unanswered`` in case the engine swallows it.

    In differential mode the reference engine's questions the engine wasn't asked reach
    this decider through the :class:`~harness.running.decider.MirrorDecider` (the session records
    them labelled ``"asked_by": "reference"``); a record so labelled answers only the
    reference engine, and a strict failure on such a question names the reference engine.
    """

    def __init__(self, recorded, step: int, strict: bool, in_order: bool, options_as_set: bool):
        super().__init__(recorded, strict=False)
        self.step = step
        self.strict_answers = strict
        self.in_order = in_order
        self.options_as_set = options_as_set
        self.unanswered: str | None = None

    def _covers(self, rec, asker, player, kind, options) -> bool:
        if not isinstance(rec, dict) or rec.get("kind") != kind or rec.get("player") not in (None, player):
            return False
        if asker == "engine" and rec.get("asked_by") == REFERENCE_ONLY:
            return False
        if not options:
            return True
        recorded = rec.get("options") or options
        same = same_options(recorded, options) if self.options_as_set else list(recorded) == list(options)
        return same and rec.get("answer") in options

    def _ask(self, asker: str, player, kind, options):
        for i, rec in enumerate(self._recorded):
            if self._covers(rec, asker, player, kind, options):
                if self.in_order:
                    self.notes.extend(f"recorded decision {skipped} was not asked for" for skipped in self._recorded[:i])
                    del self._recorded[: i + 1]
                else:
                    del self._recorded[i]
                return self._answer(player, kind, options, rec.get("answer"))
        if self.strict_answers:
            question = (describe_question(kind, player, options) if options
                        else describe_question(kind, player, None) + " (a die roll)")
            self.unanswered = f"the {asker} asked {question} at step {self.step}; the scenario recorded no answer"
            raise UnrecordedDecision(self.unanswered)
        if not options:
            raise ReplayDiverged(f"{player!r} was asked {kind!r} [] but the scenario records no answer for it")
        self.notes.append(f"{player!r} was asked {kind!r} {list(options)} with no recorded answer: answered "
                          f"{options[0]!r}")
        return self._answer(player, kind, options, options[0])

    def _answer(self, player, kind, options, answer):
        self.asked.append(Decision(player, kind, tuple(options), answer))
        return answer

    @staticmethod
    def _asker() -> str:
        # Two frames up: whoever called choose/flip_coin/roll_die; the MirrorDecider for a
        # question of the reference engine's (differential mode).
        caller = sys._getframe(2).f_locals.get("self")
        return "reference engine" if isinstance(caller, MirrorDecider) else "engine"

    def choose(self, player, kind, options):
        asker = self._asker()
        return self._ask(asker, player, kind, _check_options(player, kind, options))

    def flip_coin(self, player):
        return self._ask(self._asker(), player, "coin_flip", ("heads", "tails"))

    def roll_die(self, player, sides):
        return self._ask(self._asker(), player, f"d{sides}", ())


@dataclass
class ReplayResult:
    """What a replay found: invariant violations and expectation mismatches, by step.

    ``notes`` say where the engine asked for decisions other than those recorded;
    ``refused`` the steps the engine refused (``IllegalAction``) that don't say
    ``"illegal"``: each fails the replay. ``mismatches`` at step 0 are those of
    ``expect_initial`` (before the first event). ``unanswered`` (strict replay): the step
    and message of a question no recorded answer covered; the replay stopped there.
    """

    violations: list[Violation] = field(default_factory=list)
    mismatches: list[tuple[int, str]] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)
    steps_run: int = 0
    notes: list[tuple[int, str]] = field(default_factory=list)
    session: Session | None = None  # the replay's session, with keep_session
    unanswered: tuple[int, str] | None = None
    strict: bool = False

    @property
    def ok(self) -> bool:
        return not self.violations and not self.mismatches and not self.refused and self.unanswered is None

    @property
    def kept_session(self) -> Session:
        """The session of a replay with ``keep_session``."""
        assert self.session is not None
        return self.session


def board_problem(board: dict) -> str | None:
    """Why ``board`` is not a legal position in the harness's vocabulary
    (:mod:`harness.wire.vocabulary`), or None.

    ``run`` and ``replay`` agree: an engine that raises on a board in the vocabulary has a
    finding (``generic.engine_does_not_raise`` at step 0); a board outside it is bad input.
    """
    return next(iter(vocabulary.scenario_problems({"board": board, "steps": []})), None)


def step_decider(scenario: dict, step: dict, index: int, strict: bool):
    """The decider of step ``index`` (from 1) of ``scenario``: the plain non-strict
    :class:`~harness.running.decider.ReplayDecider` for a ``/1`` or ``/2`` file replayed as before,
    else a :class:`ScenarioDecider` (in order for ``/1`` and ``/2``; any order, options as a
    set, for ``/3``)."""
    v3 = scenario.get("format") == FORMAT_3
    if not strict and not v3:
        return ReplayDecider(step.get("decisions", []), strict=False)
    return ScenarioDecider(step.get("decisions", []), index, strict, in_order=not v3, options_as_set=v3)


def replay(engine, scenario: dict, invariants, scenario_invariants=(), step_timeout: float | None = 10.0,
           against=None, keep_session: bool = False, strict: bool | None = None) -> ReplayResult:
    """Run ``scenario`` on ``engine`` deterministically, checking invariants and expectations.

    ``strict`` (None: :func:`strict_by_default`, true for ``rulesfuzz-scenario/3``): a
    question no recorded answer covers ends the replay as failed (``unanswered``) instead
    of getting its first option. Raises ``execution.BoardRejected`` if the engine raised on
    a board that is not a legal position (:func:`board_problem`),
    ``execution.Declined`` if the engine raises ``Unsupported``, and
    :class:`ReplayDiverged` if (not strict) it asks for a die roll the scenario lacks.
    """
    strict = strict_by_default(scenario) if strict is None else bool(strict)
    result = ReplayResult(strict=strict)
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
    if scenario.get("expect_initial") is not None:
        result.mismatches.extend((0, diff) for diff in
                                 expectation_differences(scenario, scenario["expect_initial"], session.observation))
    for index, step in enumerate(scenario["steps"], start=1):
        decider = step_decider(scenario, step, index, strict)
        try:
            violations = session.step(step["event"], decider)
        except UnrecordedDecision as exc:
            result.steps_run = index
            result.unanswered = (index, str(exc))
            return result  # the game is mid-event: nothing after this can be judged
        result.steps_run = index
        if getattr(decider, "unanswered", None):  # the engine caught it and went on: the step can't be judged
            result.unanswered = (index, decider.unanswered)
            return result
        result.violations.extend(violations)
        notes = decider.notes + [f"recorded decision {d} was not asked for" for d in decider.unused]
        result.notes.extend((index, n) for n in notes)
        recorded = session.steps[-1] if len(session.steps) == index else {}
        illegal = recorded.get("illegal")
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
            # The engine's questions: not those only the reference engine asked (differential mode).
            asked = [d for d in recorded.get("decisions", []) if d.get("asked_by") != REFERENCE_ONLY]
            # The log of this step: none for a refused event (the game is unchanged) or one
            # whose observation never came (a crash, a malformed observation).
            observed = len(session.observations) == index + 1
            log = session.observation.get("log", []) if observed and not illegal else []
            for diff in expectation_differences(scenario, expect, session.observation, asked, log):
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


__all__ = ["FORMAT", "FORMAT_1", "FORMAT_3", "ReplayDiverged", "ReplayResult", "ScenarioDecider", "ScenarioError",
           "UnrecordedDecision", "build", "decision_differences", "differences", "entry_matches", "exact_differences",
           "expectation_differences", "format_note", "load", "log_differences", "refusals_allowed", "replay",
           "same_json", "save", "schema", "strict_by_default", "validate"]
