"""pytest plugin: ``pytest --rulesfuzz-engine=SPEC`` fuzzes an engine as one test item.

Registered through the ``pytest11`` entry point. Options, as those of ``rulesfuzz run``
that CI needs: ``--rulesfuzz-engine`` (``--engine``), ``--rulesfuzz-against``,
``--rulesfuzz-examples`` (``--max-examples``), ``--rulesfuzz-max-seconds``,
``--rulesfuzz-seed``, ``--rulesfuzz-database``, ``--rulesfuzz-baseline``,
``--rulesfuzz-keep-going``, ``--rulesfuzz-replay-dir`` and ``--rulesfuzz-skip-invariant``
(repeatable). With ``--rulesfuzz-profile NAME``
(or whenever the item runs) the settings of ``[tool.rulesfuzz]`` of the nearest
``pyproject.toml`` and of that profile fill in what the command line doesn't give
(:mod:`harness.interfaces.config`), so ``pytest --rulesfuzz-profile gate`` is the CI gate; the settings
``steps``, ``step-timeout``, ``invariant``, ``isolate``, ``explore``, ``hypothesis``,
``coverage-guided`` and ``no-shrink`` apply to the item's run as to ``rulesfuzz run`` (:data:`SETTINGS`:
the item explores unless ``hypothesis = true``), and ``oracle`` (files of
cards, ``rulesfuzz run --oracle``) is loaded into the pytest process as it starts.

The item ``rulesfuzz::rulesfuzz_engine[SPEC]`` is collected with the session's own
collectors, so it is counted and reported like any test, and ``-k``, ``-m rulesfuzz``
(its marker), ``--collect-only`` and ``--deselect`` treat it like any test. It fails when the run has a new finding (one
that the baseline doesn't know), with the report of ``rulesfuzz run``: every finding's
invariant, rules, rulings and shrunk scenario, its replay file, and last the command that
replays it. It also fails when the engine declined most examples (nothing was tested). A
bad option value (an unusable database, a bad baseline, a budget that isn't positive)
stops pytest with a usage error naming the option; an engine that can't load fails the
item with one line.

Under HypoFuzz (``hypothesis fuzz -- --rulesfuzz-engine=SPEC ...``, :func:`in_hypofuzz_run`) the
item is a ``pytest.Function`` whose function is the engine's state-machine test
(:func:`hypofuzz_test`), which HypoFuzz drives itself, for as long as it runs, on every worker
(docs/running-at-scale.md): ``--rulesfuzz-database`` (a directory or ``redis://``) becomes the
session's default Hypothesis database, the one HypoFuzz keeps its corpus, failures and dashboard
in. The plugin's item on the same database (``pytest --rulesfuzz-engine=SPEC``, the CI gate)
replays the failures HypoFuzz saved first (:func:`adopt_hypofuzz_failures`), with the usual report.
"""

from __future__ import annotations

from typing import Any

import pytest
from harness.protocol import RulesfuzzError

MARKER = "rulesfuzz"


#: Plugin option -> (the ``rulesfuzz run`` setting it mirrors, its default when neither gives it).
OPTIONS = {
    "rulesfuzz_engine": ("engine", None),
    "rulesfuzz_against": ("against", None),
    "rulesfuzz_examples": ("max_examples", 200),
    "rulesfuzz_max_seconds": ("max_seconds", None),
    "rulesfuzz_seed": ("seed", 0),
    "rulesfuzz_database": ("database", ".hypothesis/rulesfuzz"),
    "rulesfuzz_baseline": ("baseline", None),
    "rulesfuzz_keep_going": ("keep_going", False),
    "rulesfuzz_replay_dir": ("replay_dir", "rulesfuzz-replays"),
    "rulesfuzz_skip_invariant": ("skip_invariants", None),
}

#: Settings of ``[tool.rulesfuzz]`` (and profiles) the item's run takes that have no plugin
#: option: setting (the ``rulesfuzz run`` option's dest) -> its default. The others
#: (``workers``, ``shard``, ``json``, ``junit-xml``, ``engine-coverage``, ``quiet``) are
#: ``rulesfuzz run``'s own: the item is one run in the pytest process.
SETTINGS = {"steps": 20, "step_timeout": 10.0, "invariants": None, "isolate": False, "explore": False,
            "hypothesis": False, "coverage_guided": False, "no_shrink": False, "oracle": None}


def pytest_addoption(parser):
    group = parser.getgroup("rulesfuzz")
    group.addoption("--rulesfuzz-engine", default=None, help="engine to fuzz, as for `rulesfuzz run --engine`")
    group.addoption("--rulesfuzz-profile", default=None, metavar="NAME",
                    help="fuzz with the settings of [tool.rulesfuzz] and this profile of pyproject.toml, as "
                         "`rulesfuzz run --profile` (built-in: gate, explore)")
    group.addoption("--rulesfuzz-against", default=None, metavar="ENGINE",
                    help="differential mode: compare with this engine (e.g. 'reference'), as for --against")
    group.addoption("--rulesfuzz-examples", type=int, default=None, help="examples to generate (default 200)")
    group.addoption("--rulesfuzz-max-seconds", type=float, default=None, help="wall-time budget in seconds")
    group.addoption("--rulesfuzz-seed", type=int, default=None, help="seed (default 0)")
    group.addoption("--rulesfuzz-database", default=None,
                    help="example database: a directory, redis://host:port/db, 'memory' or 'none' "
                         "(default .hypothesis/rulesfuzz)")
    group.addoption("--rulesfuzz-baseline", default=None, metavar="FILE",
                    help="known findings (rulesfuzz baseline): the test fails only on new ones")
    group.addoption("--rulesfuzz-keep-going", action="store_true", default=None,
                    help="report every distinct finding, not only the first")
    group.addoption("--rulesfuzz-replay-dir", default=None, help="where replay files go (default ./rulesfuzz-replays)")
    group.addoption("--rulesfuzz-skip-invariant", action="append", default=None, metavar="NAME",
                    help="don't check this invariant (repeatable), as `rulesfuzz run --skip-invariant`")


#: The session's resolved rulesfuzz options (:func:`_resolve`), kept in the pytest config's stash.
_OPTIONS = pytest.StashKey[dict[str, Any] | None]()


def _options(config: pytest.Config) -> dict[str, Any]:
    """The resolved options of a session fuzzing an engine (only such a session has rulesfuzz's item)."""
    options = config.stash.get(_OPTIONS, None)
    assert options is not None
    return options


def _resolve(config) -> dict | None:
    """The item's options: the command line's, else the settings of ``[tool.rulesfuzz]`` (and of
    ``--rulesfuzz-profile``) when fuzzing at all, else the defaults. None: no item (neither
    ``--rulesfuzz-engine`` nor ``--rulesfuzz-profile``). Raises ``pytest.UsageError``."""
    profile = config.getoption("rulesfuzz_profile")
    if not config.getoption("rulesfuzz_engine") and not profile:
        return None
    import argparse

    from harness.interfaces.cli import build_parser
    from harness.interfaces.config import ConfigError, load_settings

    run_parser = next(a for a in build_parser()._actions
                      if isinstance(a, argparse._SubParsersAction)).choices["run"]
    try:
        settings, _ = load_settings(run_parser, profile, profile_flag="--rulesfuzz-profile")
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from None
    resolved: dict[str, Any] = {}
    for name, (setting, default) in OPTIONS.items():
        given = config.getoption(name)
        resolved[name] = given if given is not None else settings.get(setting, default)
    for setting, fallback in SETTINGS.items():
        resolved[setting] = settings.get(setting, fallback)
    if not resolved["rulesfuzz_engine"]:
        raise pytest.UsageError(f"--rulesfuzz-profile {profile}: no engine (give --rulesfuzz-engine, or engine in "
                                f"[tool.rulesfuzz] of pyproject.toml)")
    return resolved


def pytest_configure(config):
    config.addinivalue_line("markers", f"{MARKER}: the rulesfuzz item fuzzing --rulesfuzz-engine")
    options = config.stash[_OPTIONS] = _resolve(config)
    if options is None:
        return
    from harness.reporting import baseline as baseline_file
    from harness.running.runner import database_from
    from harness.interfaces.run_options import OptionError, check_replay_dir

    from harness.interfaces.cli import skipped_invariants_problem
    from harness.running.settings import mode_problem

    from invariants import REGISTRY

    chosen = options["invariants"]
    unknown = [n for n in chosen or () if n not in REGISTRY]
    if unknown:
        raise pytest.UsageError(f"[tool.rulesfuzz] invariant: unknown invariant(s) {unknown}; "
                                f"see `rulesfuzz invariants`")
    if chosen and "differential.matches_reference" in chosen and not options["rulesfuzz_against"]:
        raise pytest.UsageError("[tool.rulesfuzz] invariant: differential.matches_reference needs an engine to "
                                "compare with (--rulesfuzz-against, or against in [tool.rulesfuzz])")
    problem = skipped_invariants_problem(chosen, options["rulesfuzz_skip_invariant"], "--rulesfuzz-skip-invariant")
    if problem:
        raise pytest.UsageError(problem)
    problem = mode_problem(options["explore"], options["hypothesis"])
    if problem:
        raise pytest.UsageError(f"[tool.rulesfuzz] {problem}")
    if options["rulesfuzz_examples"] < 1:
        raise pytest.UsageError("--rulesfuzz-examples: expected a positive number")
    seconds = options["rulesfuzz_max_seconds"]
    if seconds is not None and not 0 < seconds < float("inf"):
        raise pytest.UsageError("--rulesfuzz-max-seconds: expected a positive number")
    try:
        database = database_from(options["rulesfuzz_database"])
    except ValueError as exc:
        raise pytest.UsageError(f"--rulesfuzz-database: {exc}") from None
    config._rulesfuzz_hypofuzz = in_hypofuzz_run()
    if config._rulesfuzz_hypofuzz:
        _share_database_with_hypofuzz(options["rulesfuzz_database"], database)
    try:
        check_replay_dir("--rulesfuzz-replay-dir", options["rulesfuzz_replay_dir"])
    except OptionError as exc:
        raise pytest.UsageError(str(exc)) from None
    path = options["rulesfuzz_baseline"]
    try:
        config._rulesfuzz_known = baseline_file.load(path) if path else {}
    except baseline_file.BaselineError as exc:
        raise pytest.UsageError(f"--rulesfuzz-baseline: {exc}") from None
    _load_oracle(options["oracle"])


def _load_oracle(paths) -> None:
    """The ``oracle`` files of ``[tool.rulesfuzz]`` (paths relative to its pyproject.toml),
    loaded into this process (:func:`cards.load_oracle_file`). Raises ``pytest.UsageError``."""
    import cards

    for path in paths or ():
        try:
            cards.load_oracle_file(path)
        except cards.OracleFileError as exc:
            raise pytest.UsageError(f"[tool.rulesfuzz] oracle: {exc}") from None


def in_hypofuzz_run() -> bool:
    """Whether HypoFuzz (``hypothesis fuzz``: its collection, dashboard and workers) runs this
    pytest session. HypoFuzz is never imported here: only asked when it runs."""
    import sys

    detection = sys.modules.get("hypofuzz.detection")
    return bool(detection is not None and detection.in_hypofuzz_run())


#: The Hypothesis settings profile the plugin loads under HypoFuzz: the current default's
#: settings with ``--rulesfuzz-database`` as the database, not derandomized (with ``CI`` set the
#: default is Hypothesis's ``ci`` profile, derandomized, and HypoFuzz leaves out a derandomized test).
HYPOFUZZ_PROFILE = "rulesfuzz-hypofuzz"


def _share_database_with_hypofuzz(spec, database) -> None:
    """Make ``database`` (of ``--rulesfuzz-database``) the default Hypothesis database of this
    process: HypoFuzz fuzzes only tests whose database is the default one, and keeps its corpus,
    failures and reports (its dashboard) there. Raises ``pytest.UsageError`` for one that can't be
    shared between HypoFuzz's processes."""
    from hypothesis import settings
    from hypothesis.database import InMemoryExampleDatabase

    if database is None or isinstance(database, InMemoryExampleDatabase):
        raise pytest.UsageError(f"--rulesfuzz-database {spec}: HypoFuzz's workers and dashboard share the example "
                                f"database: give a directory or redis://host:port/db")
    settings.register_profile(HYPOFUZZ_PROFILE, database=database, derandomize=False)
    settings.load_profile(HYPOFUZZ_PROFILE)


def _selected_invariants(engine, against, invariant_names, skip_invariants):
    """``(step invariants, scenario invariants)`` checked on ``engine``, as :func:`harness.running.runner.run` selects them."""
    import invariants as registry

    from harness.generation.plan import effective_capabilities

    capabilities = set(effective_capabilities(engine.info)) | ({"differential"} if against is not None else set())
    skipped = {registry.REGISTRY[name].name for name in skip_invariants or ()}
    return tuple([i for i in registry.select(capabilities, invariant_names, scope) if i.name not in skipped]
                 for scope in ("step", "scenario"))


def run_digest(engine, against) -> bytes:
    """What :func:`harness.running.runner.run` mixes into its database key for ``engine`` (and differential mode)."""
    from harness.running.runner import safe_name

    return (safe_name(engine.info.name) + ("+differential" if against is not None else "")).encode()


def hypofuzz_test(engine, *, database, against=None, invariant_names=None, skip_invariants=(),
                  steps_per_example: int = 20, step_timeout: float | None = 10.0, replay_dir=None):
    """The Hypothesis test HypoFuzz drives for ``engine``: the state machine :func:`harness.running.runner.run`
    runs, with its invariants, steps and step timeout, under settings whose database is
    ``database`` (HypoFuzz's). Each failure's smallest scenario so far is kept in
    ``replay_dir`` as ``<engine>-<key>-pending.json`` (a replay file for ``rulesfuzz replay``)."""
    from pathlib import Path

    from hypothesis import HealthCheck, Verbosity, settings

    from harness.generation import hypothesis_shim
    from harness.running.execution import Stats
    from harness.running.machine import make_machine
    from harness.running.recording import Recorder

    step, scenario = _selected_invariants(engine, against, invariant_names, skip_invariants)
    recorder = Recorder(Path(replay_dir) if replay_dir else None, engine, 0, None)
    machine = make_machine(engine, step, scenario, Stats(), recorder, step_timeout, against)
    chosen = settings(database=database, stateful_step_count=steps_per_example + 1,  # + the board
                      deadline=None, print_blob=False, verbosity=Verbosity.quiet, derandomize=False,
                      # HypoFuzz leaves out tests that suppress nested_given (there is no nesting here)
                      suppress_health_check=[h for h in HealthCheck if h.name != "nested_given"])
    return hypothesis_shim.machine_test(machine, chosen, seed=0, digest=run_digest(engine, against))


def adopt_hypofuzz_failures(database, nodeid: str, digest: bytes) -> int:
    """Copy the failures HypoFuzz saved for the plugin's item ``nodeid`` in ``database`` (under its
    key: Hypothesis's key of the state-machine test with the node id mixed in) to the key of
    :func:`harness.running.runner.run` with ``digest``, which replays saved failures first. Returns how many."""
    from harness.generation import hypothesis_shim

    theirs, ours = hypothesis_shim.state_machine_key(nodeid.encode()), hypothesis_shim.state_machine_key(digest)
    mine = set(database.fetch(ours))
    copied = [value for value in database.fetch(theirs) if value not in mine]
    for value in copied:
        database.save(ours, value)
    return len(copied)


class RulesfuzzFailure(RulesfuzzError):
    """A new finding (or a run that tested nothing) of the plugin's test item."""


class RulesfuzzItem(pytest.Item):
    """The test item fuzzing ``spec`` with the ``--rulesfuzz-*`` options."""

    def __init__(self, *, spec, **kwargs):
        super().__init__(**kwargs)
        self.spec = spec
        self.add_marker(MARKER)

    def _engine(self, spec: str, isolate: bool = False):
        from harness.connection.loading import EngineLoadError, load_engine

        try:
            return load_engine(spec, step_timeout=_options(self.config)["step_timeout"], isolate=isolate)
        except EngineLoadError as exc:
            raise RulesfuzzFailure(f"rulesfuzz: error: {exc}") from None

    def runtest(self):
        """Fuzz the engine; the engine processes it started are shut down when it ends, however it ends."""
        from harness.connection.loading import close_process_engine

        option = _options(self.config).__getitem__
        engine = self._engine(self.spec, option("isolate"))
        against_spec = option("rulesfuzz_against")
        against = None
        try:
            against = self._engine(against_spec) if against_spec else None
            self._fuzz(engine, against, against_spec, option)
        finally:
            close_process_engine(engine)
            close_process_engine(against)

    def _fuzz(self, engine, against, against_spec, option) -> None:
        from harness.reporting import report
        from harness.running.runner import database_from, run
        from harness.running.settings import RunSettings

        database = database_from(option("rulesfuzz_database"))
        if database is not None:
            adopt_hypofuzz_failures(database, self.nodeid, run_digest(engine, against))
        chosen = RunSettings(max_examples=option("rulesfuzz_examples"), max_seconds=option("rulesfuzz_max_seconds"),
                             seed=option("rulesfuzz_seed"), replay_dir=option("rulesfuzz_replay_dir"),
                             keep_going=option("rulesfuzz_keep_going"),
                             skip_invariants=option("rulesfuzz_skip_invariant") or (),
                             steps_per_example=option("steps"), step_timeout=option("step_timeout"),
                             invariant_names=option("invariants"), explore=not option("hypothesis"),
                             coverage_guided=option("coverage_guided"), shrink=not option("no_shrink"))
        result = run(engine, chosen, database=database, against=against)
        known = getattr(self.config, "_rulesfuzz_known", {})
        for finding in result.findings:
            finding.known = known.get(finding.key)
        status = report.run_status(result)
        if status == "declined":
            top = "; ".join(f"{reason} ({n})" for reason, n in result.stats.top_declines())
            raise RulesfuzzFailure(f"{engine.info.name} declined most examples at new_game or their first event "
                                   f"(top reasons: {top}): nothing was tested")
        if status == "untested":
            raise RulesfuzzFailure(report.untested_message("--rulesfuzz-max-seconds", option("rulesfuzz_max_seconds")))
        if status != "findings":
            return
        command = report.replay_command(self.spec, against_spec)
        new = [f for f in result.findings if not f.known]
        parts = [report.describe_findings_table(result.findings)] if len(result.findings) > 1 else []
        if option("no_shrink"):
            parts.insert(0, "Not shrunk (no-shrink = true): each replay file holds its finding's example as it was found.")
        parts += [report.describe_finding(finding, command) for finding in new]
        raise RulesfuzzFailure("\n\n".join(parts))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RulesfuzzFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"rulesfuzz[{self.spec}]"


class RulesfuzzCollector(pytest.Collector):
    def __init__(self, *, spec, **kwargs):
        super().__init__(**kwargs)
        self.spec = spec

    def collect(self):
        name = f"rulesfuzz_engine[{self.spec}]"
        if not getattr(self.config, "_rulesfuzz_hypofuzz", False):
            yield RulesfuzzItem.from_parent(self, name=name, spec=self.spec)
            return
        from hypothesis import settings

        from harness.connection.loading import EngineLoadError, load_engine

        option = _options(self.config).__getitem__
        try:
            engine = load_engine(self.spec, step_timeout=option("step_timeout"), isolate=option("isolate"))
            against_spec = option("rulesfuzz_against")
            against = load_engine(against_spec, step_timeout=option("step_timeout")) if against_spec else None
        except EngineLoadError as exc:
            raise self.CollectError(f"rulesfuzz: error: {exc}") from None
        test = hypofuzz_test(engine, database=settings().database, against=against,
                             invariant_names=option("invariants"), skip_invariants=option("rulesfuzz_skip_invariant"),
                             steps_per_example=option("steps"), step_timeout=option("step_timeout"),
                             replay_dir=option("rulesfuzz_replay_dir"))
        yield RulesfuzzFunction.from_parent(self, name=name, callobj=test, spec=self.spec)


class RulesfuzzFunction(pytest.Function):
    """The item under HypoFuzz: a ``pytest.Function`` of the engine's Hypothesis test
    (:func:`hypofuzz_test`), which HypoFuzz collects and drives (pytest alone would run it as a
    Hypothesis test with the profile's settings)."""

    def __init__(self, *, spec, **kwargs):
        super().__init__(**kwargs)
        self.spec = spec
        self.add_marker(MARKER)

    def reportinfo(self):
        return self.path, None, f"rulesfuzz[{self.spec}]"


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """The session's collection also yields the rulesfuzz collector (after the test files), so
    its item is collected, counted and reported like any other, then selected by -k, -m and
    --deselect."""
    report = yield
    options = collector.config.stash.get(_OPTIONS, None)
    spec = options["rulesfuzz_engine"] if options else None
    if spec and isinstance(collector, pytest.Session) and report.passed:
        report.result.append(RulesfuzzCollector.from_parent(collector, name="rulesfuzz", nodeid="rulesfuzz",
                                                            spec=spec))
    return report
