"""pytest plugin: ``pytest --rulesfuzz-engine=SPEC`` fuzzes an engine as one test item.

Registered through the ``pytest11`` entry point. Options, as those of ``rulesfuzz run``
that CI needs: ``--rulesfuzz-engine`` (``--engine``), ``--rulesfuzz-against``,
``--rulesfuzz-examples`` (``--max-examples``), ``--rulesfuzz-max-seconds``,
``--rulesfuzz-seed``, ``--rulesfuzz-database``, ``--rulesfuzz-baseline``,
``--rulesfuzz-keep-going``, ``--rulesfuzz-replay-dir`` and ``--rulesfuzz-skip-invariant``
(repeatable). With ``--rulesfuzz-profile NAME``
(or whenever the item runs) the settings of ``[tool.rulesfuzz]`` of the nearest
``pyproject.toml`` and of that profile fill in what the command line doesn't give
(:mod:`harness.config`), so ``pytest --rulesfuzz-profile gate`` is the CI gate; the settings
``steps``, ``step-timeout``, ``invariant``, ``isolate``, ``explore`` and ``coverage-guided``
apply to the item's run as to ``rulesfuzz run`` (:data:`SETTINGS`), and ``oracle`` (files of
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
"""

from __future__ import annotations

import pytest

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
            "coverage_guided": False, "oracle": None}


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


def _resolve(config) -> dict | None:
    """The item's options: the command line's, else the settings of ``[tool.rulesfuzz]`` (and of
    ``--rulesfuzz-profile``) when fuzzing at all, else the defaults. None: no item (neither
    ``--rulesfuzz-engine`` nor ``--rulesfuzz-profile``). Raises ``pytest.UsageError``."""
    profile = config.getoption("rulesfuzz_profile")
    if not config.getoption("rulesfuzz_engine") and not profile:
        return None
    import argparse

    from harness.cli import build_parser
    from harness.config import ConfigError, load_settings

    run_parser = next(a for a in build_parser()._actions
                      if isinstance(a, argparse._SubParsersAction)).choices["run"]
    try:
        settings, _ = load_settings(run_parser, profile, profile_flag="--rulesfuzz-profile")
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from None
    resolved = {}
    for name, (setting, default) in OPTIONS.items():
        given = config.getoption(name)
        resolved[name] = given if given is not None else settings.get(setting, default)
    for setting, default in SETTINGS.items():
        resolved[setting] = settings.get(setting, default)
    if not resolved["rulesfuzz_engine"]:
        raise pytest.UsageError(f"--rulesfuzz-profile {profile}: no engine (give --rulesfuzz-engine, or engine in "
                                f"[tool.rulesfuzz] of pyproject.toml)")
    return resolved


def pytest_configure(config):
    config.addinivalue_line("markers", f"{MARKER}: the rulesfuzz item fuzzing --rulesfuzz-engine")
    options = config._rulesfuzz = _resolve(config)
    if options is None:
        return
    from harness import baseline as baseline_file
    from harness.runner import database_from
    from harness.run_options import OptionError, check_replay_dir

    from harness.cli import skipped_invariants_problem

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
    if options["rulesfuzz_examples"] < 1:
        raise pytest.UsageError("--rulesfuzz-examples: expected a positive number")
    seconds = options["rulesfuzz_max_seconds"]
    if seconds is not None and not 0 < seconds < float("inf"):
        raise pytest.UsageError("--rulesfuzz-max-seconds: expected a positive number")
    try:
        database_from(options["rulesfuzz_database"])
    except ValueError as exc:
        raise pytest.UsageError(f"--rulesfuzz-database: {exc}") from None
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


class RulesfuzzFailure(Exception):
    """A new finding (or a run that tested nothing) of the plugin's test item."""


class RulesfuzzItem(pytest.Item):
    """The test item fuzzing ``spec`` with the ``--rulesfuzz-*`` options."""

    def __init__(self, *, spec, **kwargs):
        super().__init__(**kwargs)
        self.spec = spec
        self.add_marker(MARKER)

    def _engine(self, spec: str, isolate: bool = False):
        from harness.loading import EngineLoadError, load_engine

        try:
            return load_engine(spec, step_timeout=self.config._rulesfuzz["step_timeout"], isolate=isolate)
        except EngineLoadError as exc:
            raise RulesfuzzFailure(f"rulesfuzz: error: {exc}") from None

    def runtest(self):
        from harness import report
        from harness.runner import database_from, run

        option = self.config._rulesfuzz.__getitem__
        engine = self._engine(self.spec, option("isolate"))
        against_spec = option("rulesfuzz_against")
        against = self._engine(against_spec) if against_spec else None
        result = run(engine, max_examples=option("rulesfuzz_examples"), max_seconds=option("rulesfuzz_max_seconds"),
                     seed=option("rulesfuzz_seed"), replay_dir=option("rulesfuzz_replay_dir"),
                     database=database_from(option("rulesfuzz_database")), against=against,
                     keep_going=option("rulesfuzz_keep_going"),
                     skip_invariants=option("rulesfuzz_skip_invariant") or (), steps_per_example=option("steps"),
                     step_timeout=option("step_timeout"), invariant_names=option("invariants"),
                     explore=option("explore"), coverage_guided=option("coverage_guided"))
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
        yield RulesfuzzItem.from_parent(self, name=f"rulesfuzz_engine[{self.spec}]", spec=self.spec)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """The session's collection also yields the rulesfuzz collector (after the test files), so
    its item is collected, counted and reported like any other, then selected by -k, -m and
    --deselect."""
    report = yield
    options = getattr(collector.config, "_rulesfuzz", None)
    spec = options["rulesfuzz_engine"] if options else None
    if spec and isinstance(collector, pytest.Session) and report.passed:
        report.result.append(RulesfuzzCollector.from_parent(collector, name="rulesfuzz", nodeid="rulesfuzz",
                                                            spec=spec))
    return report
