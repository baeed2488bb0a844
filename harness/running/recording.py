"""Recording findings: the smallest failing scenario kept on disk, and the exception
that ends a failing example.

:class:`Recorder` writes the smallest failing scenario of each finding key as soon as it
is found, so an interrupted run loses nothing; :class:`InvariantViolation` is what the
state machine raises (Hypothesis then shrinks the example), one subclass per finding key; :func:`scenario_run` gives scenario-scope
invariants a finished session.
"""

from __future__ import annotations

import hashlib
import time

from harness.running import scenario as scenario_file
from harness.running.execution import Session, scenario_run
from harness.reporting.findings import step_key
from harness.protocol import Violation
from harness.protocol import RulesfuzzError

__all__ = ["InvariantViolation", "Recorder", "scenario_run", "violation_class"]


#: The longest stem of a replay file name, in UTF-8 bytes: file systems take 255 bytes per
#: name, and the stem gets ``-pending.json`` or ``-N.json`` after it.
STEM_BYTES = 150


def file_stem(engine_name: str, key: str) -> str:
    """``<engine>-<key>`` for a replay file name: every character but letters, digits and ``-_.``
    replaced by ``_``; past :data:`STEM_BYTES` (an engine's long name, a long key) cut, with 8 hex
    digits of the whole text's SHA-256 after it, so two long names stay apart."""
    text = f"{engine_name}-{key}"
    stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in text)
    if len(stem.encode()) <= STEM_BYTES:
        return stem
    cut = stem.encode()[:STEM_BYTES - 9].decode("utf-8", "ignore")
    return f"{cut}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


class InvariantViolation(AssertionError, RulesfuzzError):
    """Raised by the machine when a step breaks an invariant; carries the scenario and the finding's key.

    Each key raises its own subclass (:func:`violation_class`): Hypothesis tells bugs apart
    by exception type, so it shrinks each finding on its own and never slips to another.
    """

    def __init__(self, violations: list[Violation], scenario: dict, key: str | None = None):
        self.violations = violations
        self.scenario = scenario
        self.key = key if key is not None else step_key(violations)
        first = violations[0]
        super().__init__(f"{first.invariant} at step {first.step}: {'; '.join(first.messages)}")


_VIOLATION_CLASSES: dict[str, type] = {}


def violation_class(key: str) -> type:
    """The :class:`InvariantViolation` subclass raised for findings with ``key`` (one per key)."""
    if key not in _VIOLATION_CLASSES:
        name = "Finding_" + "".join(c if c.isalnum() else "_" for c in key)
        _VIOLATION_CLASSES[key] = type(name, (InvariantViolation,), {"__module__": __name__})
    return _VIOLATION_CLASSES[key]


class Recorder:
    """Keeps the smallest failing scenario seen so far of each finding key, on disk as it is found.

    Smallest means fewest steps, then fewest board objects, then fewest decisions. With a
    ``folder``, the best scenario of ``key`` is written to
    ``<folder>/<engine>-<key>-pending.json`` (until :meth:`forget`), so a run that is
    killed loses nothing. ``first_example[key]`` / ``first_seconds[key]`` say when each
    key was first seen; ``repeats[key]`` counts later failures of a key already found;
    ``tick(line_of)`` reports progress while shrinking.
    """

    def __init__(self, folder=None, engine=None, seed=None, tick=None):
        self.folder = folder
        self.engine = engine
        self.seed = seed
        self.tick = tick
        self.best: dict[str, dict] = {}
        self.failures = 0
        # None for a finding no failing example came before (an engine not deterministic across games)
        self.first_example: dict[str, int | None] = {}
        self.first_seconds: dict[str, float | None] = {}
        self.repeats: dict[str, int] = {}
        self.started = time.perf_counter()
        self._last: tuple | None = None

    @staticmethod
    def size(scenario: dict) -> tuple:
        return (len(scenario["steps"]), len(scenario["board"]["objects"]),
                sum(len(s.get("decisions", ())) for s in scenario["steps"]))

    def keys(self) -> list[str]:
        """The keys seen, in the order first seen."""
        return list(self.best)

    def pending_path(self, key: str):
        if self.folder is None:
            return None
        return self.folder / f"{file_stem(self.engine.info.name, key)}-pending.json"

    def found(self, key: str, scenario: dict, examples: int) -> None:
        self.failures += 1
        if key not in self.first_example:
            self.first_example[key] = examples
            self.first_seconds[key] = time.perf_counter() - self.started
        best = self.best.get(key)
        if best is None or self.size(scenario) < self.size(best):
            self.best[key] = scenario
            path = self.pending_path(key)
            if path is not None:
                scenario_file.save(scenario, path)
        if self.tick is not None:
            steps, objects, _ = self.size(self.best[key])
            self.tick(lambda: f"shrinking {key}: {steps} events, {objects} objects so far")

    def repeat(self, key: str) -> None:
        """A later example failed with ``key``, already found: counted, not reported."""
        self.repeats[key] = self.repeats.get(key, 0) + 1

    def forget(self, key: str) -> None:
        """``key`` has its replay file: remove its pending file."""
        path = self.pending_path(key)
        if path is not None and path.exists():
            path.unlink()

    def ran(self, board: dict, steps: list) -> None:
        """The last example run (for a report when nothing else failed)."""
        self._last = (board, steps)

    def last_scenario(self) -> dict:
        board, steps = self._last if self._last else ({"players": [], "objects": []}, [])
        return scenario_file.build(board, steps, (), self.engine, self.seed)

    def violation(self, session: Session, violations: list[Violation], engine, examples: int,
                  key: str | None = None) -> InvariantViolation:
        """Record the scenario of ``session`` broken by ``violations`` (the first gives ``key``);
        returns the exception to raise: an instance of :func:`violation_class` of the key."""
        key = key if key is not None else step_key(violations)
        scenario = scenario_file.build(session.board, session.steps, violations, engine, self.seed)
        if session.output:
            scenario["engine_output"] = session.output
        self.found(key, scenario, examples)
        return violation_class(key)(violations, scenario, key)

