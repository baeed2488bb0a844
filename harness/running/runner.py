"""Running the state machine against an engine with a budget, and collecting findings.

:func:`run` drives Hypothesis in chunks of examples with seeds derived from the run's
seed, so a run is reproducible. Each finding is shrunk by Hypothesis, reduced
(:mod:`harness.running.reduce`) and written as a replay file; the smallest failing scenario of
every key is on disk as soon as it is seen, so a Ctrl-C or a crash loses nothing.

Without ``keep_going`` the run stops at its first finding. With it, the run goes on:
later failures of a key already found are counted, not reported again, and each
distinct key (:func:`harness.reporting.findings.violation_keys`: a crash's key names its site, a
difference another invariant caught has that invariant's key) gets its own finding and replay
file. The keys of every invariant that failed on a finding's failing step count as
found with it (one bug breaking two invariants is one finding). Hypothesis shrinks each key on its own (every key raises its own exception type,
which Hypothesis treats as a distinct bug), so shrinking never slips from one finding
to another. Budgets are totals over the whole run; ``max_seconds`` bounds everything,
shrinking and reduction included.

With ``explore``, examples run outside Hypothesis's engine (:mod:`harness.running.explore`: the
machine's own rules and strategies on plain random draws seeded from the run's seed: no
data tree, no spans, no mutation phase); a failing example is reduced by
:mod:`harness.running.reduce` and its scenario kept in the example database, where the next
exploration replays it first. Failures Hypothesis saved there (runs without
``explore``) are replayed first too.

The pieces: a run's settings are one immutable value (:class:`harness.running.settings.RunSettings`);
what the run keeps and how a failure becomes a finding is :class:`harness.running.run_state.RunState`;
the two ways of running examples (Hypothesis's engine, ``explore``) are the two drivers of
:mod:`harness.running.drivers`, under one run loop (:func:`harness.running.drivers.drive`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from harness.running import collector, interrupts
from harness.running.drivers import GENERATE_OUTCOMES, count_outcomes  # noqa: F401  (this module's, as before)
from harness.running.drivers import Driver, ExploreDriver, HypothesisDriver, drive
from harness.running.execution import alarm_handler
from harness.running.machine import make_machine
from harness.running.run_state import NOT_DETERMINISTIC, PROCESS_FAULTS, safe_name  # noqa: F401  (as before)
from harness.running.run_state import RunResult, RunState, replay_file_path  # noqa: F401
from harness.running.settings import RunSettings
from harness.protocol import RulesfuzzError


class DatabaseError(ValueError, RulesfuzzError):
    """An ``--database`` spec that can't be used; the message says why."""


def database_from(spec: str | None):
    """An example database from a CLI spec: a directory, ``redis://host:port/db``, ``memory`` or ``none``.

    Raises :class:`DatabaseError` for a spec that can't work: an unknown URL scheme, a
    path that is a file or can't be created or written, a Redis URL without
    ``hypothesis[redis]`` installed or with no server answering.
    """
    from hypothesis.database import DirectoryBasedExampleDatabase, InMemoryExampleDatabase

    if spec in (None, "none"):
        return None
    if spec == "memory":
        return InMemoryExampleDatabase()
    scheme, sep, _ = spec.partition("://")
    if sep and scheme in ("redis", "rediss", "unix"):
        try:
            import redis
            from hypothesis.extra.redis import RedisExampleDatabase
        except ImportError:
            raise DatabaseError("a Redis example database needs `pip install 'hypothesis[redis]'`") from None
        client = redis.Redis.from_url(spec, socket_connect_timeout=2, socket_timeout=5)
        try:
            client.ping()
        except Exception as exc:  # noqa: BLE001  redis' ConnectionError, TimeoutError, ResponseError...
            raise DatabaseError(f"{spec}: no Redis server answers ({type(exc).__name__}: {exc})") from None
        return RedisExampleDatabase(client, key_prefix=b"rulesfuzz:")
    if sep:
        raise DatabaseError(f"{spec}: unknown scheme {scheme!r}; expected a directory, redis://host:port/db, "
                            f"'memory' or 'none'")
    path = Path(spec)
    if path.exists() and not path.is_dir():
        raise DatabaseError(f"{spec}: is a file, not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".rulesfuzz-write-test-{os.getpid()}"  # one per process: workers open it at once
        probe.write_bytes(b"")
        probe.unlink(missing_ok=True)
    except OSError as exc:
        raise DatabaseError(f"{spec}: can't write there ({exc.strerror or exc})") from None
    return DirectoryBasedExampleDatabase(spec)


def run(engine, settings: RunSettings | None = None, *, against=None, database=None, progress=None,
        **options) -> RunResult:
    """Fuzz ``engine`` (protocol :class:`harness.protocol.Engine`) under ``settings`` (a
    :class:`~harness.running.settings.RunSettings`; or its fields as keyword ``options``, which
    also change those of ``settings``) until a finding (or, with ``keep_going``, until the
    budget ends).

    ``max_examples`` bounds generated examples and ``max_seconds`` wall time, over the
    whole run (generation, shrinking, reduction); ``steps_per_example`` is the number of
    events per example at most; ``step_timeout`` bounds each engine call in seconds;
    ``progress(line)`` is called with a progress line now and then (also while shrinking).
    ``against`` is a reference engine for differential mode; ``database`` the example
    database (a Hypothesis ``ExampleDatabase``, or None). Replay files go to
    ``replay_dir`` (:func:`replay_file_path`). ``explore`` runs examples outside
    Hypothesis's engine and hands failures to it (module docstring). ``skip_invariants``
    names invariants not to check (of those ``invariant_names`` or the capabilities
    select). Raises KeyError for an unknown invariant name in either. ``coverage_guided`` weights the state machine's rule choices and
    card draws toward the rules, rulings and cards least exercised so far, in chunks of
    ``harness.generation.guidance.GUIDED_CHUNK`` examples (:mod:`harness.generation.guidance`).
    """
    began = time.perf_counter()  # the time budget counts from the call: setting the run up is part of it
    chosen = (settings or RunSettings()).replace(**options)
    state = RunState(engine, chosen, against, database, progress, make_machine)
    driver: Driver = ExploreDriver() if chosen.explore else HypothesisDriver()
    try:
        with interrupts.sigint_flag(), interrupts.deadline(chosen.max_seconds, began), interrupts.armed(), \
                collector.tuned(), alarm_handler():
            drive(state, driver)
    except interrupts.BudgetExhausted:
        state.result.cut_short = "time budget"
    except KeyboardInterrupt:
        state.result.cut_short = "interrupted"
    return state.wrap_up()
