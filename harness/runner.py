"""Running the state machine against an engine with a budget, and collecting findings.

:func:`run` drives Hypothesis in chunks of examples with seeds derived from the run's
seed, so ``--max-seconds`` is honoured between chunks and a run is reproducible. The
first violation stops the run after Hypothesis has shrunk it; the smallest failing
scenario is on disk as soon as it is seen, so Ctrl-C loses nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Unsatisfiable
from hypothesis.database import DirectoryBasedExampleDatabase, InMemoryExampleDatabase
from hypothesis.stateful import get_state_machine_test

import invariants as invariant_registry

from . import interrupts
from .execution import Stats
from .machine import InvariantViolation, Recorder, make_machine


@dataclass
class RunResult:
    """The outcome of :func:`run`.

    ``violation`` is the shrunk finding (None if none), ``violations`` every invariant
    that failed on the same step (e.g. both the differential oracle and a rule);
    ``scenario`` its replayable form;
    ``replay_path`` where it was written; ``cut_short`` names why the run stopped early
    (``"interrupted"``, ``"time budget"``) or is None; ``seconds`` is wall time.
    """

    engine: str
    stats: Stats
    violation: object | None = None
    violations: list = field(default_factory=list)
    scenario: dict | None = None
    replay_path: Path | None = None
    cut_short: str | None = None
    seconds: float = 0.0
    examples_to_failure: int | None = None
    seconds_to_failure: float | None = None
    invariants: list = field(default_factory=list)


def database_from(spec: str | None):
    """An example database from a CLI spec: a directory, ``redis://host:port/db``, ``memory`` or ``none``.

    Raises ValueError for a Redis URL when ``hypothesis[redis]`` is not installed.
    """
    if spec in (None, "none"):
        return None
    if spec == "memory":
        return InMemoryExampleDatabase()
    if spec.startswith("redis://"):
        try:
            import redis
            from hypothesis.extra.redis import RedisExampleDatabase
        except ImportError:
            raise ValueError("a Redis example database needs `pip install 'hypothesis[redis]'`") from None
        return RedisExampleDatabase(redis.Redis.from_url(spec), key_prefix=b"rulesfuzz:")
    return DirectoryBasedExampleDatabase(spec)


def run(engine, *, max_examples: int = 100, max_seconds: float | None = None, seed: int = 0,
        replay_dir=None, invariant_names=None, steps_per_example: int = 20, chunk: int = 25,
        database=None, step_timeout: float | None = 10.0, progress=None, shrink: bool = True,
        against=None) -> RunResult:
    """Fuzz ``engine`` (protocol :class:`harness.protocol.Engine`) until a violation or the budget ends.

    ``max_examples`` bounds generated examples; ``max_seconds`` bounds wall time
    (checked between chunks of ``chunk`` examples); ``progress(stats)`` is called after
    each chunk. ``against`` is a reference engine for differential mode: the same events
    and decisions go to both and their observations must agree. The replay file is ``replay_dir/<engine>-<invariant>.json``. Raises
    KeyError for an unknown invariant name; an engine that rejects generated boards is
    reported as a violation of ``generic.engine_does_not_raise``.
    """
    capabilities = set(engine.info.capabilities) | ({"differential"} if against is not None else set())
    step_invariants = invariant_registry.select(capabilities, invariant_names, "step")
    scenario_invariants = invariant_registry.select(capabilities, invariant_names, "scenario")
    stats = Stats()
    safe_name = "".join(c if c.isalnum() or c in "-_." else "_" for c in engine.info.name)
    pending_path = Path(replay_dir) / f"{safe_name}-pending.json" if replay_dir else None
    recorder = Recorder(pending_path, engine, seed)
    machine = make_machine(engine, step_invariants, scenario_invariants, stats, recorder, step_timeout, against)
    result = RunResult(engine.info.name, stats, invariants=[i.name for i in step_invariants + scenario_invariants])
    started = time.perf_counter()
    done = 0
    index = 0
    phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if shrink else [])
    try:
      with interrupts.sigint_flag(), interrupts.armed():
        while done < max_examples:
            if max_seconds is not None and time.perf_counter() - started >= max_seconds:
                result.cut_short = "time budget"
                break
            n = min(chunk, max_examples - done)
            test = get_state_machine_test(
                machine,
                settings=settings(
                    max_examples=n, stateful_step_count=steps_per_example, deadline=None, database=database,
                    suppress_health_check=list(HealthCheck), report_multiple_bugs=False, print_blob=False,
                    verbosity=Verbosity.quiet, phases=phases,
                ),
            )
            test.hypothesis.inner_test._hypothesis_internal_add_digest = (
                safe_name + ("+differential" if against is not None else "")).encode()
            # hypothesis.seed() also switches the example database off; we want both a
            # reproducible run and saved failures replayed first, so keep our settings.
            chosen = test._hypothesis_internal_use_settings
            hypothesis_seed(seed * 100_003 + index)(test)
            test._hypothesis_internal_use_settings = chosen
            index += 1
            try:
                test()
            except InvariantViolation as exc:
                result.violation = exc.violations[0]
                result.violations = list(exc.violations)
                result.scenario = exc.scenario
                result.examples_to_failure = recorder.first_failure_example
                break
            except Unsatisfiable:  # every example was rejected: the engine declined them all
                break
            done += n
            if progress is not None:
                progress(stats)
    except KeyboardInterrupt:
        result.cut_short = "interrupted"
        if recorder.best is not None and result.scenario is None:
            result.scenario = recorder.best
    if result.scenario is not None and shrink and result.cut_short is None:
        from .reduce import reduce_scenario

        reduced = reduce_scenario(engine, result.scenario, step_invariants, scenario_invariants, against,
                                  step_timeout=step_timeout)
        if reduced is not result.scenario:
            from .protocol import Violation

            result.scenario = reduced
            found = [reduced["violation"], *reduced.get("also_violated", [])]
            result.violations = [Violation(v["invariant"], v["step"], tuple(v["messages"])) for v in found]
            result.violation = result.violations[0]
    result.seconds = time.perf_counter() - started
    if result.scenario is not None:
        if recorder.first_failure_example is not None:
            result.examples_to_failure = recorder.first_failure_example
            result.seconds_to_failure = recorder.first_failure_seconds
        if replay_dir is not None:
            from . import scenario as scenario_file

            name = result.scenario.get("violation", {}).get("invariant", "violation")
            result.replay_path = scenario_file.save(result.scenario, Path(replay_dir) / f"{safe_name}-{name}.json")
            if pending_path is not None and pending_path.exists() and pending_path != result.replay_path:
                pending_path.unlink()
        if result.violation is None:
            from .protocol import Violation

            v = result.scenario.get("violation", {})
            result.violation = Violation(v.get("invariant", "?"), v.get("step", 0), tuple(v.get("messages", ())))
        if not result.violations:
            result.violations = [result.violation]
    return result
