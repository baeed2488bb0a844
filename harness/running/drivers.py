"""How a run's examples are made and run: two drivers of one small interface.

:func:`drive` is the one run loop: it cuts the budget (``max_examples``) into chunks, and
for each reweights a coverage-guided run's draws, marks the example count for the replay
counter, hands the chunk to the driver, and stops at the first finding (without
``keep_going``), when the driver says so or when the budget is spent. A :class:`Driver`
runs one chunk and reports its failures to the run's :class:`~harness.running.run_state.RunState`:

* :class:`HypothesisDriver`: Hypothesis's engine runs the state machine, one test per chunk
  seeded from the run's seed and the chunk's number (it shrinks what it finds, replays the
  failures saved in the example database first);
* :class:`ExploreDriver` (``--explore``): the machine's own rules on plain random draws
  (:mod:`harness.running.explore`); its first chunk replays the scenarios earlier explorations
  kept, then the failures Hypothesis saved (a Hypothesis test that only replays them).
"""

from __future__ import annotations

from typing import Protocol

from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis.errors import Flaky, Unsatisfiable

from harness.running import explore as explore_corpus
from harness.running import interrupts
from harness.generation import hypothesis_shim
from harness.running.explore import explore as explore_examples
from harness.reporting.findings import scenario_size
from harness.running.recording import InvariantViolation
from harness.running.run_state import RunState

#: What each Hypothesis status of a test case of the generate phase is for the run's summary;
#: every test case of the reuse phase is ``replayed``, of the shrink (and explain) phase ``shrinking``.
GENERATE_OUTCOMES = {"valid": "generated", "interesting": "generated", "overrun": "overrun", "invalid": "rejected"}


def count_outcomes(outcomes: dict, statistics: dict) -> None:
    """Add to ``outcomes`` the test cases of one Hypothesis test run (``statistics``: what
    Hypothesis hands ``hypothesis.statistics.collector``, the figures of its pytest plugin's
    ``--hypothesis-show-statistics``: per phase, each test case's status)."""
    for phase, figures in statistics.items():
        if not phase.endswith("-phase") or not isinstance(figures, dict):
            continue
        for case in figures.get("test-cases") or ():
            if phase == "generate-phase":
                key = GENERATE_OUTCOMES.get(str(case.get("status")), "generated")
            else:
                key = "replayed" if phase == "reuse-phase" else "shrinking"
            outcomes[key] = outcomes.get(key, 0) + 1


class Driver(Protocol):
    """Runs the examples of one chunk of a run."""

    def run_chunk(self, run: RunState, n: int, index: int) -> int | None:
        """Run up to ``n`` examples as chunk number ``index`` (from 0) of ``run``, reporting its
        failures to ``run`` (:meth:`RunState.settle`); return how many count toward the budget,
        or None when the run ends here (every example declined, a finding that ends it)."""
        ...


def drive(run: RunState, driver: Driver) -> None:
    """The run loop (module docstring): chunks of ``run``'s budget, each run by ``driver``."""
    done = index = 0
    while done < run.settings.max_examples:
        interrupts.check()
        n = min(run.chunk, run.settings.max_examples - done)
        _refresh_guidance(run)
        if run.counter is not None:
            run.counter.mark(run.stats.examples)
        ran = driver.run_chunk(run, n, index)
        index += 1
        if ran is None:
            break
        done += ran
        if run.stop():
            break
        run.tick(lambda: f"{len(run.result.findings)} finding(s)")


def _refresh_guidance(run: RunState) -> None:
    """In a coverage-guided run, reweight the card draws of the next chunk from the rule
    coverage so far (:mod:`harness.generation.guidance`); Hypothesis needs them fixed within a chunk."""
    guidance = getattr(run.machine.plan, "guidance", None)
    if guidance is not None:
        guidance.refresh(run.stats.coverage)


# --------------------------------------------------------------------------- Hypothesis's engine
def hypothesis_test(run: RunState, n: int, index: int):
    """The Hypothesis test of chunk ``index`` of ``run``: ``n`` examples, seeded from the run's seed."""
    chosen = run.settings
    reuse = [Phase.reuse] if not run.machine.found_keys else []  # keep saved failures of found keys
    return hypothesis_shim.machine_test(run.machine, settings(
        max_examples=n, stateful_step_count=chosen.steps_per_example + 1,  # + the board (initialize)
        deadline=None, database=run.counter, suppress_health_check=list(HealthCheck),
        report_multiple_bugs=chosen.keep_going, print_blob=False, verbosity=Verbosity.quiet,
        phases=[Phase.explicit, *reuse, Phase.generate] + ([Phase.shrink] if chosen.shrink else []),
    ), seed=chosen.seed * 100_003 + index, digest=run.digest)


def run_test(run: RunState, test, n: int) -> int | None:
    """Run the Hypothesis ``test`` and settle what it raised (smallest scenario first); ``n``
    (its examples) or None when the run ends here (every example rejected, or the engine
    was not deterministic: that finding ends the run)."""
    raised: list[InvariantViolation] = []
    try:
        try:
            with hypothesis_shim.run_statistics(lambda figures: count_outcomes(run.result.examples_by_outcome,
                                                                               figures)):
                test()
        finally:
            run.note_replayed()
    except Unsatisfiable:  # every example was rejected: the engine declined them all
        return None
    except Flaky as exc:
        if interrupts.requested() or interrupts.remaining() == 0:
            # the run was being stopped (Ctrl-C, --max-seconds) while Hypothesis ran an
            # example again: a difference then is not the engine's to answer for
            raise (KeyboardInterrupt if interrupts.requested() else interrupts.BudgetExhausted) from exc
        run.finish_flaky(exc)
        return None
    except BaseException as exc:
        raised = _raised_violations(exc)
        if not raised:
            raise
    for found in sorted(raised, key=lambda e: scenario_size(e.scenario)):
        run.settle(found.key, found.violations, found.scenario, False)
    return n


def _raised_violations(exc: BaseException) -> list[InvariantViolation]:
    """The :class:`InvariantViolation` s in what Hypothesis raised (one, or a group of them)."""
    if isinstance(exc, InvariantViolation):
        return [exc]
    if isinstance(exc, BaseExceptionGroup) and not isinstance(exc, Flaky):
        return [v for inner in exc.exceptions for v in _raised_violations(inner)]
    return []


class HypothesisDriver:
    """Each chunk is one Hypothesis test (:func:`hypothesis_test`)."""

    def run_chunk(self, run: RunState, n: int, index: int) -> int | None:
        return run_test(run, hypothesis_test(run, n, index), n)


# --------------------------------------------------------------------------- exploration
def _has_saved_failures(database, test) -> bool:
    """Whether ``database`` holds failures saved under ``test``'s key (from an earlier run)."""
    if database is None:
        return False
    return any(True for _ in database.fetch(hypothesis_shim.database_key(test)))


def _replay_saved(test, database, shrink: bool):
    """A Hypothesis test that only replays (and shrinks) the failures saved in ``database``."""
    replay = settings(hypothesis_shim.settings_of(test), database=database,
                      phases=[Phase.explicit, Phase.reuse] + ([Phase.shrink] if shrink else []))
    return hypothesis_shim.machine_test(test.rulesfuzz_machine, replay, seed=0, digest=test.rulesfuzz_digest)


class ExploreDriver:
    """Each chunk runs examples outside Hypothesis's engine (:func:`harness.running.explore.explore`),
    numbered on from the last chunk's; a finding is settled as it is, and its (reduced)
    scenario kept in the example database for the next exploration."""

    def __init__(self) -> None:
        self.explored = 0  # examples tried so far, declined ones included

    def run_chunk(self, run: RunState, n: int, index: int) -> int | None:
        if index == 0:
            run.replay_corpus()
            if run.stop():
                return None
            # Without a database there is nothing saved: the test (whose database key reads the
            # machine's source, about 5 ms) is not made.
            test = hypothesis_test(run, n, index) if run.database is not None else None
            if test is not None and _has_saved_failures(run.database, test):
                # saved failures are replayed first (Hypothesis's reuse phase), then exploration
                return run_test(run, _replay_saved(test, run.counter, run.settings.shrink), 0)
        found, ran, tried = explore_examples(run.machine, n, run.settings.seed, run.settings.steps_per_example,
                                             first=self.explored)
        self.explored += tried
        outcomes = run.result.examples_by_outcome
        outcomes["explored"] = outcomes.get("explored", 0) + ran
        if tried > ran:
            outcomes["rejected"] = outcomes.get("rejected", 0) + tried - ran
        if not ran and found is None:  # every example was declined: the engine declines them all
            return None
        reported = len(run.result.findings)
        if found is not None:
            run.settle(found.key, found.violations, found.scenario, False)
        if len(run.result.findings) > reported:
            explore_corpus.save_scenario(run.database, run.digest, run.result.findings[-1].scenario)
        return ran
