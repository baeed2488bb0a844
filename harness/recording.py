"""Recording findings: the smallest failing scenario kept on disk, and the exception
that ends a failing example.

:class:`Recorder` writes the smallest failing scenario as soon as it is found, so an
interrupted run loses nothing; :class:`InvariantViolation` is what the state machine
raises (Hypothesis then shrinks the example); :func:`scenario_run` gives scenario-scope
invariants a finished session.
"""

from __future__ import annotations

import time

from . import scenario as scenario_file
from .execution import Session, scenario_run
from .protocol import Violation

__all__ = ["InvariantViolation", "Recorder", "scenario_run"]


class InvariantViolation(AssertionError):
    """Raised by the machine when a step breaks an invariant; carries the scenario.

    ``violations`` is a non-empty list of :class:`Violation`; ``scenario`` the scenario
    dict (``harness.scenario`` format) that shows them.
    """

    def __init__(self, violations: list[Violation], scenario: dict):
        self.violations = violations
        self.scenario = scenario
        first = violations[0]
        super().__init__(f"{first.invariant} at step {first.step}: {'; '.join(first.messages)}")


class Recorder:
    """Keeps the smallest failing scenario seen so far and writes it to ``path``.

    Smallest means fewest steps, then fewest board objects, then fewest decisions.
    ``first_failure_example`` is the example count when the first failure was seen;
    ``failures`` counts failing examples (shrinking included); ``first_failure_seconds``
    the wall time from the recorder's creation to the first failure.
    """

    def __init__(self, path=None, engine=None, seed=None):
        self.path = path
        self.engine = engine
        self.seed = seed
        self.best: dict | None = None
        self.failures = 0
        self.first_failure_example: int | None = None
        self.started = time.perf_counter()
        self.first_failure_seconds: float | None = None

    @staticmethod
    def size(scenario: dict) -> tuple:
        return (len(scenario["steps"]), len(scenario["board"]["objects"]),
                sum(len(s.get("decisions", ())) for s in scenario["steps"]))

    def found(self, scenario: dict, examples: int) -> None:
        self.failures += 1
        if self.first_failure_example is None:
            self.first_failure_example = examples
            self.first_failure_seconds = time.perf_counter() - self.started
        if self.best is None or self.size(scenario) < self.size(self.best):
            self.best = scenario
            if self.path is not None:
                scenario_file.save(scenario, self.path)

    def violation(self, session: Session, violations: list[Violation], engine, examples: int) -> InvariantViolation:
        """Record the scenario of ``session`` broken by ``violations``; returns the exception to raise."""
        scenario = scenario_file.build(session.board, session.steps, violations, engine, self.seed)
        if session.output:
            scenario["engine_output"] = session.output
        self.found(scenario, examples)
        return InvariantViolation(violations, scenario)
