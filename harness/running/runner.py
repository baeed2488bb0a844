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
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis.errors import Flaky, Unsatisfiable

import invariants as invariant_registry

from harness.running import explore as explore_corpus
from harness.running import collector, interrupts
from harness.generation import hypothesis_shim
from harness.running import scenario as scenario_file
from harness.running.databases import ReplayCounter
from harness.running.decider import ReplayDiverged
from harness.running.execution import BoardRejected, Declined, EngineTimeout, Stats, alarm_handler
from harness.running.explore import explore as explore_examples
from harness.reporting.findings import (
    CRASH,
    Finding,
    primary_first,
    related_keys,
    scenario_size,
    step_key,
    violation_keys,
)
from harness.running.machine import make_machine
from harness.protocol import Violation
from harness.running.recording import InvariantViolation, Recorder, file_stem

NOT_DETERMINISTIC = "generic.determinism"
#: Crash sites of faults of an engine's process or the wire, not of its rules code
#: (:func:`harness.reporting.findings.process_fault`, a hang): one that happens once is reported as itself.
PROCESS_FAULTS = ("not_json", "not_jsonrpc", "protocol_error", "exit", "timeout")


@dataclass
class RunResult:
    """The outcome of :func:`run`.

    ``findings`` are the distinct findings in the order found (at most one without
    ``keep_going``); ``cut_short`` names why the run stopped early (``"interrupted"``,
    ``"time budget"``) or is None; ``seconds`` is wall time; ``invariants`` the names
    checked; ``also_seen`` other keys that failed but were not reported (without
    ``keep_going``). ``violation``, ``violations``, ``scenario``, ``replay_path``,
    ``examples_to_failure`` and ``seconds_to_failure`` are those of the first finding.
    """

    engine: str
    stats: Stats
    findings: list[Finding] = field(default_factory=list)
    cut_short: str | None = None
    seconds: float = 0.0
    invariants: list = field(default_factory=list)
    #: Invariants the run would have checked but ``--skip-invariant`` left out: an engine's
    #: known gap, listed in every report (text, ``--json``, ``--junit-xml``).
    skipped: list = field(default_factory=list)
    #: Keys that failed too but were not reported (without ``keep_going`` only the first is).
    also_seen: list = field(default_factory=list)
    #: CR rules, rulings and cards exercised, and those never (:meth:`harness.reporting.rule_coverage.RuleCoverage.report`).
    rule_coverage: dict = field(default_factory=dict)
    #: A run cut into slots (``--workers``, ``--shard``; :mod:`harness.running.workers`): ``{"slots": T,
    #: "taken": [slots each worker ran]}``; None for a run of one slot.
    slots: dict | None = None
    #: How the examples came about, as Hypothesis counted them (:func:`count_outcomes`):
    #: ``generated`` (within ``max_examples``), ``overrun`` (its choice buffer ran out mid-example:
    #: not counted toward the budget), ``rejected`` (declined, or a draw it discarded),
    #: ``replayed`` (saved failures of the example database), ``shrinking``, and with
    #: ``explore`` ``explored``. Empty when nothing was counted (a supervised crash's report).
    examples_by_outcome: dict = field(default_factory=dict)

    def _first(self, name, default=None):
        return getattr(self.findings[0], name) if self.findings else default

    violation = property(lambda self: self._first("violation"))
    violations = property(lambda self: self._first("violations", []))
    scenario = property(lambda self: self._first("scenario"))
    replay_path = property(lambda self: self._first("replay_path"))
    examples_to_failure = property(lambda self: self._first("examples_to_find"))
    seconds_to_failure = property(lambda self: self._first("seconds_to_find"))


class DatabaseError(ValueError):
    """An ``--database`` spec that can't be used; the message says why."""


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


def safe_name(text: str) -> str:
    """``text`` with every character but letters, digits, ``-_.`` replaced by ``_`` (for file names)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)


def replay_file_path(replay_dir, engine_name: str, key: str, scenario: dict) -> Path:
    """Where a finding's replay file goes: ``<engine>-<key>.json`` (:func:`file_stem`: a long
    engine name or key is cut), or ``-2``, ``-3``... when that name holds a different finding
    (another key or another scenario): never overwritten."""
    base = Path(replay_dir) / file_stem(engine_name, key)
    n = 1
    while True:
        path = base.with_name(base.name + (f"-{n}" if n > 1 else "") + ".json")
        if not path.exists():
            return path
        try:
            existing = scenario_file.load(path)
        except scenario_file.ScenarioError:
            existing = None
        if existing is not None and existing.get("key") == key and existing["board"] == scenario["board"] \
                and [s["event"] for s in existing["steps"]] == [s["event"] for s in scenario["steps"]]:
            return path  # the same finding again
        n += 1


def _raised_violations(exc: BaseException) -> list[InvariantViolation]:
    """The :class:`InvariantViolation` s in what Hypothesis raised (one, or a group of them)."""
    if isinstance(exc, InvariantViolation):
        return [exc]
    if isinstance(exc, BaseExceptionGroup) and not isinstance(exc, Flaky):
        return [v for inner in exc.exceptions for v in _raised_violations(inner)]
    return []


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


def _refresh_guidance(machine, stats: Stats) -> None:
    """In a coverage-guided run, reweight the card draws of the next chunk from the rule
    coverage so far (:mod:`harness.generation.guidance`); Hypothesis needs them fixed within a chunk."""
    guidance = getattr(machine.plan, "guidance", None)
    if guidance is not None:
        guidance.refresh(stats.coverage)


def _guided_chunk(stats: Stats, chunk: int) -> int:
    """Start linking what each step exercised to its machine rule and cards (for
    :mod:`harness.generation.guidance`) and return the chunk size of a guided run (its weights are
    refreshed between chunks)."""
    from harness.generation.guidance import GUIDED_CHUNK

    stats.coverage.links = {}
    return min(chunk, GUIDED_CHUNK)


def run(engine, *, max_examples: int = 100, max_seconds: float | None = None, seed: int = 0,
        replay_dir=None, invariant_names=None, steps_per_example: int = 20, chunk: int = 25,
        database=None, step_timeout: float | None = 10.0, progress=None, shrink: bool = True,
        against=None, keep_going: bool = False, explore: bool = False,
        coverage_guided: bool = False, skip_invariants=()) -> RunResult:
    """Fuzz ``engine`` (protocol :class:`harness.protocol.Engine`) until a finding (or, with
    ``keep_going``, until the budget ends).

    ``max_examples`` bounds generated examples and ``max_seconds`` wall time, over the
    whole run (generation, shrinking, reduction); ``steps_per_example`` is the number of
    events per example at most; ``step_timeout`` bounds each engine call in seconds;
    ``progress(line)`` is called with a progress line now and then (also while shrinking).
    ``against`` is a reference engine for differential mode. Replay files go to
    ``replay_dir`` (:func:`replay_file_path`). ``explore`` runs examples outside
    Hypothesis's engine and hands failures to it (module docstring). ``skip_invariants``
    names invariants not to check (of those ``invariant_names`` or the capabilities
    select). Raises KeyError for an unknown invariant name in either. ``coverage_guided`` weights the state machine's rule choices and
    card draws toward the rules, rulings and cards least exercised so far, in chunks of
    ``harness.generation.guidance.GUIDED_CHUNK`` examples (:mod:`harness.generation.guidance`).
    """
    from harness.generation.plan import effective_capabilities  # claimed and implied by the engine's cards

    capabilities = set(effective_capabilities(engine.info)) | ({"differential"} if against is not None else set())
    skipped = {invariant_registry.REGISTRY[name].name for name in skip_invariants}
    would_check = [i.name for scope in ("step", "scenario")
                   for i in invariant_registry.select(capabilities, invariant_names, scope)]
    step_invariants = [i for i in invariant_registry.select(capabilities, invariant_names, "step")
                       if i.name not in skipped]
    scenario_invariants = [i for i in invariant_registry.select(capabilities, invariant_names, "scenario")
                           if i.name not in skipped]
    stats = Stats()
    started = time.perf_counter()
    last_progress = [started]

    def tick(line_of) -> None:
        if progress is not None and time.perf_counter() - last_progress[0] >= 2.0:
            last_progress[0] = time.perf_counter()
            progress(f"  ... {line_of()} ({stats.examples} examples, {stats.steps} steps, "
                     f"{last_progress[0] - started:.1f} s)")

    recorder = Recorder(Path(replay_dir) if replay_dir else None, engine, seed, tick)
    machine = make_machine(engine, step_invariants, scenario_invariants, stats, recorder, step_timeout, against,
                           coverage_guided=coverage_guided)
    if coverage_guided:
        chunk = _guided_chunk(stats, chunk)
    result = RunResult(engine.info.name, stats, invariants=[i.name for i in step_invariants + scenario_invariants],
                       skipped=[name for name in would_check if name in skipped])
    digest = (safe_name(engine.info.name) + ("+differential" if against is not None else "")).encode()
    done = index = explored = 0
    # Saved failures Hypothesis replays first: a finding first seen among them says so.
    counter = ReplayCounter(database, lambda: stats.examples) if database is not None else None
    from_database: set[str] = set()

    def note_replayed() -> None:
        if counter is not None:
            from_database.update(k for k in recorder.keys() if counter.replayed(recorder.first_example.get(k)))

    def finish(key: str, violations: list[Violation], scenario: dict, cut: bool, reduce: bool = True,
               group: str | None = None) -> None:
        """Reduce (within the budget), save and record one new finding (``group``: the key its
        failures were raised and recorded under, when not ``key``, :meth:`EngineMachine._found`)."""
        group = group or key
        finding = Finding(key, list(violations), scenario,
                          examples_to_find=recorder.first_example.get(group, recorder.first_example.get(key)),
                          seconds_to_find=recorder.first_seconds.get(group, recorder.first_seconds.get(key)),
                          shrink_cut_short=cut, from_database=key in from_database or group in from_database)
        if shrink and reduce and not cut:
            from harness.running.reduce import reduce_scenario

            remaining = interrupts.remaining()
            if remaining is None or remaining > 0:
                reduced = reduce_scenario(engine, scenario, step_invariants, scenario_invariants, against,
                                          max_seconds=min(10.0, remaining if remaining is not None else 10.0),
                                          step_timeout=step_timeout, key=key)
                if reduced is not scenario:
                    found = [reduced["violation"], *reduced.get("also_violated", [])]
                    finding.violations = [Violation(v["invariant"], v["step"], tuple(v["messages"])) for v in found]
                    finding.scenario = reduced
        finding.scenario["key"] = key
        if replay_dir is not None:
            path = replay_file_path(replay_dir, engine.info.name, key, finding.scenario)
            finding.replay_path = scenario_file.save(finding.scenario, path)
            recorder.forget(key)
            recorder.forget(group)
        result.findings.append(finding)
        # Invariants that failed on the same step are part of this finding (one bug can break
        # several, e.g. 704.5h and a destruction that left nothing on the battlefield): their keys
        # are found too, so the same bug is not reported again under another key.
        joined = {key, group, *related_keys(violations), *related_keys(finding.violations)}
        machine.found_keys.update(joined)
        for k in joined:
            machine.finding_of.setdefault(k, key)

    def settle(group: str, violations: list[Violation], scenario: dict, cut: bool) -> None:
        """The failure of ``group`` (one step's violations): a new finding keyed by
        :func:`~harness.reporting.findings.step_key`, unless one of its keys belongs to a finding already
        reported: then it is that finding again (a repeat), and its keys join that finding."""
        keys = violation_keys(violations)
        mine = {group, *related_keys(violations)}
        known = next((k for k in (group, *keys, *sorted(mine)) if k in machine.found_keys), None)
        if known is not None:
            finding = machine.finding_of.get(known, known)
            recorder.repeat(finding)
            machine.found_keys.update(mine)
            for k in mine:
                machine.finding_of.setdefault(k, finding)
            recorder.forget(group)
            return
        key = step_key(violations, keys)
        finish(key, primary_first(violations, key, keys), scenario, cut, group=group)

    def replay_corpus() -> None:
        """Replay the scenarios earlier explorations kept in ``database`` (:mod:`harness.running.explore`):
        each that still fails with a finding not yet found is a finding, said to come from the database."""
        for saved in explore_corpus.saved_scenarios(database, digest):
            interrupts.check()
            try:
                replayed = scenario_file.replay(engine, saved, step_invariants, scenario_invariants, against=against,
                                                keep_session=True, step_timeout=step_timeout)
            except (ReplayDiverged, BoardRejected, Declined, EngineTimeout):
                continue
            pairs = [(v, k) for v, k in zip(replayed.violations, violation_keys(replayed.violations))
                     if k not in machine.found_keys]
            if pairs:
                same = [v for v in replayed.violations if v.step == pairs[0][0].step]  # one step: one finding
                if related_keys(same) & machine.found_keys:
                    continue  # a reported finding's step again
                key = step_key(same)
                fresh = primary_first(same, key)
                scenario = scenario_file.build(saved["board"], replayed.session.steps[: fresh[0].step], fresh, engine,
                                               seed)
                from_database.add(key)
                recorder.first_example.setdefault(key, stats.examples)
                recorder.first_seconds.setdefault(key, time.perf_counter() - started)
                finish(key, fresh, scenario, False)
                if not keep_going:
                    return

    def finish_flaky(exc: Flaky) -> None:
        """The engine behaved differently when Hypothesis ran the same example again: report that, with
        the scenario that failed (or, if none did, the last one run). Not reduced: it would not replay."""
        key = next((k for k in recorder.keys() if k not in machine.found_keys), None)
        scenario = dict(recorder.best[key]) if key is not None else recorder.last_scenario()
        recorded = scenario.get("violation") if key is not None else None
        site = key[len(CRASH) + 1:-1] if key is not None and key.startswith(CRASH + "[") else ""
        if recorded and site.split(" ")[0] in PROCESS_FAULTS:
            # A protocol error (a garbage line, a wrong id, a blank line), a process's death or a
            # hang that happened once: a finding of its own kind, with its own messages, not a
            # determinism one that drops them.
            note = ("it happened once: Hypothesis ran the same board, events and decisions again and it did "
                    "not happen again (a one-off fault of the engine or its process, or state kept between games)")
            violations = [Violation(recorded["invariant"], recorded["step"], (*recorded["messages"], note))]
            machine.found_keys.add(key)
            finish(key, violations, scenario, False, reduce=False)
            return
        said = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        first = (f"{key} failed" if key else "the example ran") + " once" + (
            f" ({'; '.join(recorded['messages'][:2])})" if recorded else "") + ", and the same board, events and decisions"
        message = (f"the engine is not deterministic across games: {first} behaved differently when run again "
                   f"in a new game (state kept between games: a leak, a cache, a global counter?). "
                   f"Hypothesis: {type(exc).__name__}: {said}")
        violations = [Violation(NOT_DETERMINISTIC, len(scenario["steps"]), (message,))]
        scenario["violation"] = violations[0].to_json()
        machine.found_keys.update(recorder.keys())
        recorder.first_example.setdefault(NOT_DETERMINISTIC, recorder.first_example.get(key))
        recorder.first_seconds.setdefault(NOT_DETERMINISTIC, recorder.first_seconds.get(key))
        finish(NOT_DETERMINISTIC, violations, scenario, False, reduce=False)
        for folded in recorder.keys():  # their failures are this finding's: no pending file of theirs is left
            recorder.forget(folded)

    try:
        with interrupts.sigint_flag(), interrupts.deadline(max_seconds), interrupts.armed(), collector.tuned(), \
                alarm_handler():
            while done < max_examples:
                interrupts.check()
                n = min(chunk, max_examples - done)
                reuse = [Phase.reuse] if not machine.found_keys else []  # keep saved failures of found keys
                test = hypothesis_shim.machine_test(machine, settings(
                    max_examples=n, stateful_step_count=steps_per_example + 1,  # + the board (initialize)
                    deadline=None, database=counter, suppress_health_check=list(HealthCheck),
                    report_multiple_bugs=keep_going, print_blob=False, verbosity=Verbosity.quiet,
                    phases=[Phase.explicit, *reuse, Phase.generate] + ([Phase.shrink] if shrink else []),
                ), seed=seed * 100_003 + index, digest=digest)
                index += 1
                _refresh_guidance(machine, stats)
                raised: list[InvariantViolation] = []
                if counter is not None:
                    counter.mark(stats.examples)
                if explore and index == 1:
                    replay_corpus()
                    if result.findings and not keep_going:
                        break
                if explore and index == 1 and _has_saved_failures(database, test):
                    # saved failures are replayed first (Hypothesis's reuse phase), then exploration
                    test = _replay_saved(test, counter, shrink)
                    n = 0
                elif explore:
                    found, ran, tried = explore_examples(machine, n, seed, steps_per_example, first=explored)
                    done += ran
                    explored += tried
                    outcomes = result.examples_by_outcome
                    outcomes["explored"] = outcomes.get("explored", 0) + ran
                    if tried > ran:
                        outcomes["rejected"] = outcomes.get("rejected", 0) + tried - ran
                    if not ran and found is None:  # every example was declined: the engine declines them all
                        break
                    reported = len(result.findings)
                    if found is not None:
                        settle(found.key, found.violations, found.scenario, False)
                    if len(result.findings) > reported:
                        explore_corpus.save_scenario(database, digest, result.findings[-1].scenario)
                    if result.findings and not keep_going:
                        break
                    tick(lambda: f"{len(result.findings)} finding(s)")
                    continue
                try:
                    try:
                        with hypothesis_shim.run_statistics(lambda figures: count_outcomes(result.examples_by_outcome, figures)):
                            test()
                    finally:
                        note_replayed()
                except Unsatisfiable:  # every example was rejected: the engine declined them all
                    break
                except Flaky as exc:
                    if interrupts.requested() or interrupts.remaining() == 0:
                        # the run was being stopped (Ctrl-C, --max-seconds) while Hypothesis ran an
                        # example again: a difference then is not the engine's to answer for
                        raise KeyboardInterrupt if interrupts.requested() else interrupts.BudgetExhausted
                    finish_flaky(exc)
                    break
                except BaseException as exc:
                    raised = _raised_violations(exc)
                    if not raised:
                        raise
                done += n
                for exc in sorted(raised, key=lambda e: scenario_size(e.scenario)):
                    settle(exc.key, exc.violations, exc.scenario, False)
                if result.findings and not keep_going:
                    break
                tick(lambda: f"{len(result.findings)} finding(s)")
    except interrupts.BudgetExhausted:
        result.cut_short = "time budget"
    except KeyboardInterrupt:
        result.cut_short = "interrupted"
    # Failures seen but not yet reported (the run was cut short while shrinking): the
    # smallest scenario seen of each is kept, and said to be not fully shrunk.
    for key in recorder.keys():
        if key not in machine.found_keys and (keep_going or not result.findings):
            best = recorder.best[key]
            settle(key, [Violation(**{k: (tuple(v) if k == "messages" else v) for k, v in found.items()
                                      if k in ("invariant", "step", "messages")})
                         for found in [best["violation"], *best.get("also_violated", [])]], best, True)
    result.also_seen = [key for key in recorder.keys() if key not in machine.found_keys]
    for key in result.also_seen:  # seen on the way (Hypothesis shrinks one bug without --keep-going)
        recorder.forget(key)
    result.rule_coverage = stats.coverage.report(step_invariants + scenario_invariants, machine.plan.cards)
    result.seconds = time.perf_counter() - started
    for finding in result.findings:
        finding.repeats = recorder.repeats.get(finding.key, 0)
    hypothesis_shim.forget_machine(machine, "engine", "against", "recorder")  # they go with the run
    return result
