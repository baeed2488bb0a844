"""What one run (:func:`harness.running.runner.run`) keeps while its driver runs examples
(:mod:`harness.running.drivers`): the invariants it checks, its statistics and recorder, the
state machine, and its findings as they come.

Both drivers hand failures to the same :class:`RunState`: :meth:`RunState.settle` makes one
step's violations a new finding, or a repeat of one already reported; :meth:`RunState.finish`
reduces (within the budget), saves and records a new finding; :meth:`RunState.wrap_up` ends
the run with the failures seen but not yet reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import invariants as invariant_registry

from harness.running import explore as explore_corpus
from harness.running import interrupts
from harness.generation import hypothesis_shim
from harness.running import scenario as scenario_file
from harness.running.databases import ReplayCounter
from harness.running.decider import ReplayDiverged
from harness.running.execution import BoardRejected, Declined, EngineTimeout, Stats
from harness.reporting.findings import (
    CRASH,
    Finding,
    primary_first,
    violation_json,
    related_keys,
    step_key,
    violation_keys,
)
from harness.protocol import Violation
from harness.running.recording import Recorder, file_stem
from harness.running.settings import RunSettings

NOT_DETERMINISTIC = "generic.determinism"
#: Crash sites of faults of an engine's process or the wire, not of its rules code
#: (:func:`harness.reporting.findings.process_fault`, a hang): one that happens once is reported as itself.
PROCESS_FAULTS = ("not_json", "not_jsonrpc", "protocol_error", "exit", "timeout")


@dataclass
class RunResult:
    """The outcome of :func:`harness.running.runner.run`.

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
    #: How the examples came about, as Hypothesis counted them (:func:`harness.running.drivers.count_outcomes`):
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


def _guided_chunk(stats: Stats, chunk: int) -> int:
    """Start linking what each step exercised to its machine rule and cards (for
    :mod:`harness.generation.guidance`) and return the chunk size of a guided run (its weights are
    refreshed between chunks)."""
    from harness.generation.guidance import GUIDED_CHUNK

    stats.coverage.links = {}
    return min(chunk, GUIDED_CHUNK)


def _violations_of(recorded: dict) -> list[Violation]:
    """The violations of a scenario the recorder kept (its ``violation`` and ``also_violated``)."""
    return [Violation(found["invariant"], found["step"], tuple(found["messages"]))
            for found in [recorded["violation"], *recorded.get("also_violated", [])]]


class RunState:
    """One run of ``engine`` under ``settings`` (module docstring); ``make_machine`` is
    :func:`harness.running.machine.make_machine` (the runner's, looked up when the run starts)."""

    def __init__(self, engine, settings: RunSettings, against, database, progress, make_machine):
        from harness.generation.plan import effective_capabilities  # claimed and implied by the engine's cards

        self.engine, self.settings, self.against, self.database = engine, settings, against, database
        self.progress = progress
        capabilities = set(effective_capabilities(engine.info)) | ({"differential"} if against is not None else set())
        skipped = {invariant_registry.REGISTRY[name].name for name in settings.skip_invariants}
        names = settings.invariant_names
        would_check = [i.name for scope in ("step", "scenario")
                       for i in invariant_registry.select(capabilities, names, scope)]
        self.step_invariants = [i for i in invariant_registry.select(capabilities, names, "step")
                                if i.name not in skipped]
        self.scenario_invariants = [i for i in invariant_registry.select(capabilities, names, "scenario")
                                    if i.name not in skipped]
        self.stats = stats = Stats()
        self.started = self._last_progress = time.perf_counter()
        replay_dir = settings.replay_dir
        self.recorder = Recorder(Path(replay_dir) if replay_dir else None, engine, settings.seed, self.tick)
        self.machine = make_machine(engine, self.step_invariants, self.scenario_invariants, stats, self.recorder,
                                    settings.step_timeout, against, coverage_guided=settings.coverage_guided)
        self.chunk = _guided_chunk(stats, settings.chunk) if settings.coverage_guided else settings.chunk
        self.result = RunResult(engine.info.name, stats,
                                invariants=[i.name for i in self.step_invariants + self.scenario_invariants],
                                skipped=[name for name in would_check if name in skipped])
        self.digest = (safe_name(engine.info.name) + ("+differential" if against is not None else "")).encode()
        # Saved failures Hypothesis replays first: a finding first seen among them says so.
        self.counter = ReplayCounter(database, lambda: stats.examples) if database is not None else None
        self.from_database: set[str] = set()

    def tick(self, line_of) -> None:
        """Call ``progress`` with a progress line (``line_of()`` and the figures so far), every 2 s at most."""
        if self.progress is not None and time.perf_counter() - self._last_progress >= 2.0:
            self._last_progress = time.perf_counter()
            self.progress(f"  ... {line_of()} ({self.stats.examples} examples, {self.stats.steps} steps, "
                          f"{self._last_progress - self.started:.1f} s)")

    def stop(self) -> bool:
        """Whether the run ends now: a finding was made, without ``keep_going``."""
        return bool(self.result.findings) and not self.settings.keep_going

    def note_replayed(self) -> None:
        """Note the keys first seen on a saved failure Hypothesis replayed (:class:`ReplayCounter`)."""
        if self.counter is not None:
            recorder = self.recorder
            self.from_database.update(k for k in recorder.keys()
                                      if self.counter.replayed(recorder.first_example.get(k)))

    # ----------------------------------------------------------------------- findings
    def finish(self, key: str, violations: list[Violation], scenario: dict, cut: bool, reduce: bool = True,
               group: str | None = None) -> None:
        """Reduce (within the budget), save and record one new finding (``group``: the key its
        failures were raised and recorded under, when not ``key``, :meth:`EngineMachine._found`)."""
        group = group or key
        recorder, machine = self.recorder, self.machine
        finding = Finding(key, list(violations), scenario,
                          examples_to_find=recorder.first_example.get(group, recorder.first_example.get(key)),
                          seconds_to_find=recorder.first_seconds.get(group, recorder.first_seconds.get(key)),
                          shrink_cut_short=cut, from_database=key in self.from_database or group in self.from_database)
        if self.settings.shrink and reduce and not cut:
            self._reduce(finding, key, scenario)
        finding.scenario["key"] = key
        if self.settings.replay_dir is not None:
            path = replay_file_path(self.settings.replay_dir, self.engine.info.name, key, finding.scenario)
            finding.replay_path = scenario_file.save(finding.scenario, path)
            recorder.forget(key)
            recorder.forget(group)
        self.result.findings.append(finding)
        # Invariants that failed on the same step are part of this finding (one bug can break
        # several, e.g. 704.5h and a destruction that left nothing on the battlefield): their keys
        # are found too, so the same bug is not reported again under another key.
        joined = {key, group, *related_keys(violations), *related_keys(finding.violations)}
        machine.found_keys.update(joined)
        for k in joined:
            machine.finding_of.setdefault(k, key)

    def _reduce(self, finding: Finding, key: str, scenario: dict) -> None:
        """Reduce ``finding``'s scenario (:mod:`harness.running.reduce`): its budget is in replays;
        the run's time left (``max_seconds``), if it has a budget, caps it too."""
        from harness.running.reduce import SAFETY_SECONDS, reduce_scenario

        remaining = interrupts.remaining()
        if remaining is None or remaining > 0:
            reduced = reduce_scenario(self.engine, scenario, self.step_invariants, self.scenario_invariants,
                                      self.against,
                                      max_seconds=SAFETY_SECONDS if remaining is None else min(SAFETY_SECONDS, remaining),
                                      step_timeout=self.settings.step_timeout, key=key)
            if reduced is not scenario:
                found = [reduced["violation"], *reduced.get("also_violated", [])]
                finding.violations = [Violation(v["invariant"], v["step"], tuple(v["messages"])) for v in found]
                finding.scenario = reduced

    def settle(self, group: str, violations: list[Violation], scenario: dict, cut: bool) -> None:
        """The failure of ``group`` (one step's violations): a new finding keyed by
        :func:`~harness.reporting.findings.step_key`, unless one of its keys belongs to a finding already
        reported: then it is that finding again (a repeat), and its keys join that finding."""
        machine = self.machine
        keys = violation_keys(violations)
        mine = {group, *related_keys(violations)}
        known = next((k for k in (group, *keys, *sorted(mine)) if k in machine.found_keys), None)
        if known is not None:
            finding = machine.finding_of.get(known, known)
            self.recorder.repeat(finding)
            machine.found_keys.update(mine)
            for k in mine:
                machine.finding_of.setdefault(k, finding)
            self.recorder.forget(group)
            return
        key = step_key(violations, keys)
        self.finish(key, primary_first(violations, key, keys), scenario, cut, group=group)

    def replay_corpus(self) -> None:
        """Replay the scenarios earlier explorations kept in the database (:mod:`harness.running.explore`):
        each that still fails with a finding not yet found is a finding, said to come from the database."""
        for saved in explore_corpus.saved_scenarios(self.database, self.digest):
            interrupts.check()
            if self._corpus_finding(saved) and not self.settings.keep_going:
                return

    def _corpus_finding(self, saved: dict) -> bool:
        """Replay one saved scenario; whether it made a new finding."""
        engine, machine = self.engine, self.machine
        try:
            replayed = scenario_file.replay(engine, saved, self.step_invariants, self.scenario_invariants,
                                            against=self.against, keep_session=True,
                                            step_timeout=self.settings.step_timeout)
        except (ReplayDiverged, BoardRejected, Declined, EngineTimeout):
            return False
        pairs = [(v, k) for v, k in zip(replayed.violations, violation_keys(replayed.violations))
                 if k not in machine.found_keys]
        if not pairs:
            return False
        same = [v for v in replayed.violations if v.step == pairs[0][0].step]  # one step: one finding
        if related_keys(same) & machine.found_keys:
            return False  # a reported finding's step again
        key = step_key(same)
        fresh = primary_first(same, key)
        scenario = scenario_file.build(saved["board"], replayed.kept_session.steps[: fresh[0].step], fresh, engine,
                                       self.settings.seed)
        self.from_database.add(key)
        self.recorder.first_example.setdefault(key, self.stats.examples)
        self.recorder.first_seconds.setdefault(key, time.perf_counter() - self.started)
        self.finish(key, fresh, scenario, False)
        return True

    def finish_flaky(self, exc: BaseException) -> None:
        """The engine behaved differently when Hypothesis ran the same example again: report that, with
        the scenario that failed (or, if none did, the last one run). Not reduced: it would not replay."""
        recorder = self.recorder
        key = next((k for k in recorder.keys() if k not in self.machine.found_keys), None)
        scenario = dict(recorder.best[key]) if key is not None else recorder.last_scenario()
        recorded = scenario.get("violation") if key is not None else None
        site = key[len(CRASH) + 1:-1] if key is not None and key.startswith(CRASH + "[") else ""
        if key is not None and recorded and site.split(" ")[0] in PROCESS_FAULTS:
            self._fault_once(key, recorded, scenario)
            return
        said = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        first = (f"{key} failed" if key else "the example ran") + " once" + (
            f" ({'; '.join(recorded['messages'][:2])})" if recorded else "") + ", and the same board, events and decisions"
        message = (f"the engine is not deterministic across games: {first} behaved differently when run again "
                   f"in a new game (state kept between games: a leak, a cache, a global counter?). "
                   f"Hypothesis: {type(exc).__name__}: {said}")
        violations = [Violation(NOT_DETERMINISTIC, len(scenario["steps"]), (message,))]
        scenario["violation"] = violation_json(violations[0])
        self.machine.found_keys.update(recorder.keys())
        recorder.first_example.setdefault(NOT_DETERMINISTIC, recorder.first_example.get(key) if key else None)
        recorder.first_seconds.setdefault(NOT_DETERMINISTIC, recorder.first_seconds.get(key) if key else None)
        self.finish(NOT_DETERMINISTIC, violations, scenario, False, reduce=False)
        for folded in recorder.keys():  # their failures are this finding's: no pending file of theirs is left
            recorder.forget(folded)

    def _fault_once(self, key: str, recorded: dict, scenario: dict) -> None:
        """A protocol error (a garbage line, a wrong id, a blank line), a process's death or a
        hang that happened once: a finding of its own kind, with its own messages, not a
        determinism one that drops them."""
        note = ("it happened once: Hypothesis ran the same board, events and decisions again and it did "
                "not happen again (a one-off fault of the engine or its process, or state kept between games)")
        violations = [Violation(recorded["invariant"], recorded["step"], (*recorded["messages"], note))]
        self.machine.found_keys.add(key)
        self.finish(key, violations, scenario, False, reduce=False)

    # ----------------------------------------------------------------------- the end
    def wrap_up(self) -> RunResult:
        """End the run: failures seen but not yet reported (the run was cut short while
        shrinking) are settled with the smallest scenario seen of each, said to be not fully
        shrunk; the rest of the run's result is filled in."""
        recorder, machine, result = self.recorder, self.machine, self.result
        for key in recorder.keys():
            if key not in machine.found_keys and (self.settings.keep_going or not result.findings):
                best = recorder.best[key]
                self.settle(key, _violations_of(best), best, True)
        result.also_seen = [key for key in recorder.keys() if key not in machine.found_keys]
        for key in result.also_seen:  # seen on the way (Hypothesis shrinks one bug without --keep-going)
            recorder.forget(key)
        result.rule_coverage = self.stats.coverage.report(self.step_invariants + self.scenario_invariants,
                                                          machine.plan.cards)
        result.seconds = time.perf_counter() - self.started
        for finding in result.findings:
            finding.repeats = recorder.repeats.get(finding.key, 0)
        hypothesis_shim.forget_machine(machine, "engine", "against", "recorder")  # they go with the run
        return result
