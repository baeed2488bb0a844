"""Scenario reduction after Hypothesis has shrunk a failure.

Hypothesis shrinks the choices behind an example; it can stop in a local minimum where a
step or a board object is still there only because removing it changes how later draws
are read. This pass works on the scenario itself, like delta debugging: it drops one step
or one board object (with the Auras attached to it) at a time, or puts the permanent a
step puts onto the battlefield on the board instead, replays, and keeps the change when
the same invariant still fails. Decisions are re-recorded from the replay.
"""

from __future__ import annotations

import time

from harness.running.decider import ReplayDiverged
from harness.running.execution import BoardRejected, Declined, EngineTimeout


#: The wall-clock cap of a reduction, in seconds, when nothing shorter is asked for: a safety net
#: (Hypothesis gives its own shrinking 300 s), not the budget: ``max_replays`` decides how far a
#: reduction goes, so its result does not depend on how fast or loaded the machine is.
SAFETY_SECONDS = 300

#: The fields of a plain ``put_onto_battlefield`` event, one a board object can stand for.
_PLAIN_ENTRY = {"type", "id", "card", "controller", "owner"}


def _with_entered_object(board: dict, event: dict) -> dict | None:
    """``board`` with the permanent a plain ``put_onto_battlefield`` ``event`` puts onto the
    battlefield already there (same id, card, controller and owner), or None for any other
    event. Replaying without the event then tells whether the failure needs the object to
    enter during the scenario (an enters trigger, CR 603.6a) or only to be there."""
    if event.get("type") != "put_onto_battlefield" or set(event) - _PLAIN_ENTRY \
            or any(o.get("id") == event.get("id") for o in board.get("objects", ())):
        return None
    entered = {"id": event["id"], "card": event["card"], "owner": event.get("owner", event["controller"]),
               "controller": event["controller"]}
    return {**board, "objects": [*board.get("objects", ()), entered]}


def _size(scenario: dict) -> tuple[int, int]:
    return len(scenario["steps"]), len(scenario["board"]["objects"])


def _plain(steps: list) -> list[dict]:
    """``steps`` as a scenario to replay gives them: their events and decisions."""
    return [{k: v for k, v in s.items() if k in ("event", "decisions")} for s in steps]


def _without_a_step(best: dict):
    """``(board, steps)`` of ``best`` without one of its steps, the last first."""
    for i in reversed(range(len(best["steps"]))):
        yield best["board"], _plain(best["steps"][:i] + best["steps"][i + 1:])


def _entered_on_the_board(best: dict):
    """``(board, steps)`` of ``best`` with a permanent a step puts onto the battlefield on the
    board instead (:func:`_with_entered_object`), the first first."""
    for i, step in enumerate(best["steps"]):
        board = _with_entered_object(best["board"], step["event"])
        if board is not None:
            yield board, _plain(best["steps"][:i] + best["steps"][i + 1:])


def _without_an_object(best: dict):
    """``(board, steps)`` of ``best`` without one board object (and the Auras attached to it), the last first."""
    objects = best["board"]["objects"]
    for obj in reversed(objects):
        gone = {obj["id"]} | {o["id"] for o in objects if o.get("attached_to") == obj["id"]}
        yield {**best["board"], "objects": [o for o in objects if o["id"] not in gone]}, _plain(best["steps"])


#: The ways of making a scenario smaller, tried in this order: the first that keeps the
#: finding is kept, and the search starts again from the first.
_PASSES = (_without_a_step, _entered_on_the_board, _without_an_object)


def _key_of(scenario: dict) -> str | None:
    """The finding key of ``scenario``'s violation (None without one)."""
    from harness.protocol import Violation
    from harness.reporting.findings import violation_keys

    if "violation" not in scenario:
        return None
    found = [scenario["violation"], *scenario.get("also_violated", ())]
    return violation_keys([Violation(v["invariant"], v.get("step", 0), tuple(v.get("messages", ())))
                           for v in found])[0]


class _Attempts:
    """Replays of variants of ``scenario`` on ``engine``, within ``max_replays`` and ``max_seconds`` (None: no cap)."""

    def __init__(self, engine, scenario: dict, invariants: tuple, against, max_replays: int,
                 max_seconds: float | None, step_timeout: float | None, key: str):
        self.engine, self.scenario, self.invariants, self.against = engine, scenario, invariants, against
        self.budget = max_replays
        self.deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        self.step_timeout, self.key = step_timeout, key

    def __call__(self, board: dict, steps: list) -> dict | None:
        """The re-recorded scenario if it still fails with the key, else None."""
        from harness.running import scenario as scenario_file
        from harness.reporting.findings import primary_first, violation_keys

        if self.budget <= 0 or (self.deadline is not None and time.perf_counter() > self.deadline):
            self.budget = 0
            return None
        self.budget -= 1
        candidate = {"format": scenario_file.FORMAT, "board": board, "steps": steps}
        step_invariants, scenario_invariants = self.invariants
        try:
            result = scenario_file.replay(self.engine, candidate, step_invariants, scenario_invariants,
                                          against=self.against, keep_session=True, step_timeout=self.step_timeout)
        except (BoardRejected, Declined, ReplayDiverged, EngineTimeout):
            return None
        keys = violation_keys(result.violations)
        if self.key not in keys:  # a crash elsewhere, another difference: another finding
            return None
        first = primary_first(result.violations, self.key, keys)[0]
        same_step = [v for v in result.violations if v.step == first.step]
        others = [v for v in same_step if v is not first]
        session = result.kept_session
        rebuilt = scenario_file.build(board, session.steps[: first.step], [first, *others])
        if session.output:
            rebuilt["engine_output"] = session.output
        for field in ("engine", "seed"):
            if field in self.scenario:
                rebuilt[field] = self.scenario[field]
        return rebuilt


def reduce_scenario(engine, scenario: dict, step_invariants, scenario_invariants=(), against=None,
                    max_replays: int = 400, max_seconds: float | None = SAFETY_SECONDS,
                    step_timeout: float | None = 10.0,
                    key: str | None = None) -> dict:
    """The smallest variant of ``scenario`` that still fails with the same finding key
    (:func:`harness.reporting.findings.violation_keys`: a crash at the same site, a difference caught by
    the same invariant; ``key`` defaults to that of its violation).

    Returns ``scenario`` itself when nothing can be removed. ``max_replays`` is the budget
    that decides how far it goes (each replay is one run of the scenario on ``engine``), so
    the same scenario on the same engine reduces the same on any machine. ``max_seconds``
    (None: none) is a wall-clock cap on top, a safety net by default (:data:`SAFETY_SECONDS`;
    an engine that hangs costs ``step_timeout`` seconds per replay), shorter only when the
    run's own time budget (``--max-seconds``) has less left.
    """
    if key is None:
        key = _key_of(scenario)
    if key is None:
        return scenario
    attempt = _Attempts(engine, scenario, (step_invariants, scenario_invariants), against, max_replays,
                        max_seconds, step_timeout, key)
    best = scenario
    while attempt.budget > 0:
        better = next((found for variants in _PASSES for board, steps in variants(best)
                       for found in [attempt(board, steps)] if found is not None and _size(found) < _size(best)),
                      None)
        if better is None:
            break
        best = better
    return best
