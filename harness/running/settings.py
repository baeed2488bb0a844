"""A run's settings: one immutable value, built once (by the command line, the pytest plugin,
a test, a worker for its slot) and passed down to :func:`harness.running.runner.run`, its
drivers (:mod:`harness.running.drivers`) and the workers of a run cut into slots
(:mod:`harness.running.workers`).

It holds plain values only (picklable: a worker process gets it as it is). What a run is
handed as live objects (the engine, the reference engine of differential mode, the example
database, the progress callback) are arguments of :func:`harness.running.runner.run` of their own.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RunSettings:
    """What a run does, as :func:`harness.running.runner.run` documents each of them.

    ``max_examples`` bounds generated examples and ``max_seconds`` wall time, over the whole
    run; ``seed`` makes it reproducible; ``replay_dir`` is where replay files go (None: none
    written); ``invariant_names`` selects invariants (None: those the capabilities select) and
    ``skip_invariants`` leaves some out; ``steps_per_example`` bounds the events of an example;
    ``chunk`` is how many examples one Hypothesis test runs (each chunk has a seed of its own);
    ``step_timeout`` bounds each engine call in seconds; ``shrink`` shrinks and reduces
    findings; ``keep_going`` goes on past the first finding; ``explore`` runs examples outside
    Hypothesis's engine (:class:`harness.running.drivers.ExploreDriver`: the default of ``rulesfuzz
    run`` and the pytest plugin, :func:`settings_from_args`; False here, for the Python API's
    callers, which Hypothesis's engine has served since the start); ``coverage_guided``
    weights draws toward what was least exercised (:mod:`harness.generation.guidance`).
    """

    max_examples: int = 100
    max_seconds: float | None = None
    seed: int = 0
    replay_dir: str | Path | None = None
    invariant_names: tuple[str, ...] | list[str] | None = None
    skip_invariants: tuple[str, ...] | list[str] = ()
    steps_per_example: int = 20
    chunk: int = 25
    step_timeout: float | None = 10.0
    shrink: bool = True
    keep_going: bool = False
    explore: bool = False
    coverage_guided: bool = False

    def replace(self, **changes) -> RunSettings:
        """These settings with ``changes`` (field names); raises TypeError for an unknown one."""
        return dataclasses.replace(self, **changes) if changes else self


def mode_problem(explore: bool, hypothesis: bool, flag: str = "") -> str | None:
    """Why a run can't have both ``explore`` and ``hypothesis`` set (from the command line,
    ``[tool.rulesfuzz]`` or a profile), in one line; None when it can. Exploration is the
    default, Hypothesis's engine one option away (``--hypothesis``); ``flag`` is put before
    each name (``--`` on the command line)."""
    if explore and hypothesis:
        return (f"{flag}explore and {flag}hypothesis: one engine generates a run's examples, exploration (the "
                f"default) or Hypothesis's; choose one")
    return None


def settings_from_args(args) -> RunSettings:
    """The settings of a ``rulesfuzz run`` command line (its parsed ``args``): exploration
    unless ``--hypothesis`` (the two together are refused before, :func:`mode_problem`)."""
    return RunSettings(max_examples=args.max_examples, max_seconds=args.max_seconds, seed=args.seed,
                       replay_dir=args.replay_dir, invariant_names=args.invariants,
                       skip_invariants=tuple(getattr(args, "skip_invariants", None) or ()),
                       steps_per_example=args.steps, step_timeout=args.step_timeout, keep_going=args.keep_going,
                       shrink=not getattr(args, "no_shrink", False),
                       explore=not getattr(args, "hypothesis", False),
                       coverage_guided=getattr(args, "coverage_guided", False))
