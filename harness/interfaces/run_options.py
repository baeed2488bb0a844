"""The options of ``rulesfuzz run`` for CI and scale: settings from ``pyproject.toml`` and
``--profile``, ``--workers`` and ``--shard``, and the ``--json`` / ``--junit-xml`` reports.

Each function raises :class:`OptionError` for bad usage or input (the command line prints
it as one line and exits 2).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from harness.reporting import report
from harness.protocol import RulesfuzzError


#: The key this module's run options had before they became a RunSettings: Hypothesis mixes the
#: project's string constants into what it generates, so it is kept (as harness.interfaces.console
#: keeps its former path) until a change that re-pins the suite's seed-pinned tests drops it.
_FORMER_OPTION = "invariant_names"


class OptionError(ValueError, RulesfuzzError):
    """A bad option value, setting or report path; the message says which and why."""


def apply_settings(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """For ``run``: the settings of ``[tool.rulesfuzz]`` of the nearest pyproject.toml and of
    ``--profile NAME`` become the run options' defaults (the command line overrides them).
    Raises OptionError for a bad setting or an unknown profile (:mod:`harness.interfaces.config`)."""
    from harness.interfaces.config import ConfigError, load_settings

    command = next((a for a in argv if not a.startswith("-")), None)
    if command != "run":
        return
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--profile")
    known, _ = early.parse_known_args(argv)
    run = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["run"]
    try:
        settings, _ = load_settings(run, known.profile)
    except ConfigError as exc:
        raise OptionError(str(exc)) from None
    run.set_defaults(**settings)
    for action in run._actions:
        if action.dest in settings:
            action.required = False


def check_slots(args) -> None:
    """Parse --workers and --shard in place (``args.workers``: int, ``args.shard``: (K, N) or None). Raises OptionError."""
    from harness.running.workers import SlotError, parse_shard, parse_workers

    try:
        args.workers = parse_workers(getattr(args, "workers", 1))
        args.shard = parse_shard(args.shard) if getattr(args, "shard", None) else None
    except SlotError as exc:
        raise OptionError(str(exc)) from None


def fuzz(args, engine, against, database, progress, measure=None):
    """One run: in this process, or cut into slots (--workers, --shard; :mod:`harness.running.workers`);
    ``measure`` is what worker processes measure for --engine-coverage (:mod:`harness.connection.engine_coverage`)."""
    from harness.running.runner import run
    from harness.running.settings import settings_from_args

    chosen = settings_from_args(args)
    if args.workers == 1 and args.shard is None:
        return run(engine, chosen, database=database, progress=progress, against=against)
    from harness.running.workers import SlotJob, run_slots, slots

    picked = slots(args.max_examples, args.seed, args.workers, args.shard)
    if not picked:
        raise OptionError(f"--max-examples {args.max_examples} leaves this part of the run no example "
                          f"(it is the whole run's budget, split over shards and workers)")
    import cards

    oracle = cards.overlay_files()  # the --oracle files this process loaded: every worker loads them too
    jobs = [SlotJob(slot, args.engine, args.against, args.database, chosen.replay_dir, args.isolate, args.quiet,
                    chosen.replace(replay_dir=None), oracle) for slot in picked]
    return run_slots(jobs, engine.info.name, args.workers, measure, getattr(args, "supervised", False))


def check_report_path(flag: str, path: str) -> None:
    """Refuse a report file the run could not write: a missing or unwritable folder, or a folder. Raises OptionError."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise OptionError(f"{flag} {path}: no folder {folder}")
    if Path(path).is_dir():
        raise OptionError(f"{flag} {path}: is a folder, not a file")
    if not os.access(folder, os.W_OK) or (Path(path).exists() and not os.access(path, os.W_OK)):
        raise OptionError(f"{flag} {path}: not writable")
    _probe(flag, path, folder)


def _probe(flag: str, path, folder: Path) -> None:
    """Make (and remove) a file in ``folder``: os.access says yes to root everywhere (/proc).
    Raises OptionError."""
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".rulesfuzz-write-test-"):
            pass
    except OSError as exc:
        raise OptionError(f"{flag} {path}: can't write in {folder} ({exc.strerror or exc})") from None


def check_replay_dir(flag: str, path: str) -> None:
    """Refuse, before fuzzing, a replay folder the run could not write its replay files to (a
    file, below a file, or in a folder that isn't writable), so no finding is left without
    its replay file. Raises OptionError."""
    replay_dir = Path(path)
    if replay_dir.exists() and not replay_dir.is_dir():
        raise OptionError(f"{flag} {replay_dir}: is a file, not a folder")
    existing = next(p for p in [replay_dir, *replay_dir.absolute().parents] if p.exists())
    if not existing.is_dir():
        raise OptionError(f"{flag} {replay_dir}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK):
        raise OptionError(f"{flag} {replay_dir}: {existing} is not writable")
    _probe(flag, replay_dir, existing)


class ReportNotWritten(OSError, RulesfuzzError):
    """A --json or --junit-xml report that could not be written at the end of a run (a disk that
    filled up, a path the check before the run could not see through); its text is one line
    naming the option and the file."""


def write_reports(args, result, engine, against, status: str, replay: str, extra: dict | None = None,
                  error: str | None = None) -> None:
    """The --json and --junit-xml reports of a run (each only when asked for); ``extra``
    adds top-level entries to the --json report (``rule_coverage``, ``engine_coverage``).
    ``error`` is the message of a run that failed before its end (status ``failed``, exit 3):
    a ``--workers`` process died or raised; ``result`` then holds what the slots that ended found.
    Raises :class:`ReportNotWritten` when a report can't be written (the first that can't, once
    both were tried)."""
    unwritten = None
    if args.json_path:
        options = {"max_examples": args.max_examples, "max_seconds": args.max_seconds, "seed": args.seed,
                   "steps": args.steps, "step_timeout": args.step_timeout, "invariants": args.invariants,
                   "skip_invariants": getattr(args, "skip_invariants", None),
                   "database": args.database, "replay_dir": args.replay_dir, "keep_going": args.keep_going,
                   "baseline": getattr(args, "baseline", None), "workers": getattr(args, "workers", 1),
                   "shard": "/".join(map(str, args.shard)) if getattr(args, "shard", None) else None,
                   "profile": getattr(args, "profile", None), "explore": not getattr(args, "hypothesis", False),
                   "coverage_guided": getattr(args, "coverage_guided", False),
                   "engine_coverage": getattr(args, "engine_coverage", None),
                   "oracle": getattr(args, "oracle", None)}
        payload = report.run_report(result, engine, against, options, replay, error)
        payload.update(extra or {})
        try:
            Path(args.json_path).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:  # the JUnit report is still written
            unwritten = ReportNotWritten(f"--json {args.json_path}: can't write the report: {exc.strerror or exc}")
    if getattr(args, "junit_path", None):
        from harness.reporting.junit import junit_xml, write_junit

        if status == "declined":
            error = f"{engine.info.name} declined most examples at new_game or their first event: nothing was tested"
        elif status == "untested":
            error = report.untested_message("--max-seconds", args.max_seconds)
        elif status == "refused":
            error = report.refused_message(engine.info.name, result.stats)
        properties = {"seed": args.seed, "max_examples": args.max_examples, "max_seconds": args.max_seconds,
                      "against": args.against}
        try:
            write_junit(args.junit_path, junit_xml(result, engine.info.name, replay, properties, error, status))
        except OSError as exc:
            unwritten = unwritten or ReportNotWritten(f"--junit-xml {args.junit_path}: can't write the report: "
                                                      f"{exc.strerror or exc}")
    if unwritten is not None:
        raise unwritten


def report_before_failure(args, result, known: dict[str, str]) -> None:
    """Print the findings of the slots that ended before a worker failed (``result``: their merged
    :class:`harness.running.runner.RunResult`, or None), each with its replay file and command, and
    ``known`` (finding key to baseline reason) marking those of the baseline."""
    if result is None or not result.findings:
        return
    for finding in result.findings:
        finding.known = known.get(finding.key)
    replay = report.replay_command(args.engine, args.against)
    for finding in result.findings:
        print()
        print(report.describe_finding(finding, replay))
    print(f"\n{len(result.findings)} finding(s) of the slots that ended before a worker failed (below), "
          f"with their replay files in {args.replay_dir}.", flush=True)


def write_failed_reports(args, failed, engine, against) -> None:
    """The --json and --junit-xml reports of a run a worker process ended early: status
    ``failed`` (exit 3), its error, and what the slots that ended found (``failed.result``, a
    :class:`harness.running.workers.WorkerFailed`)."""
    from harness.running.execution import Stats
    from harness.running.runner import RunResult

    result = failed.result if failed.result is not None else RunResult(engine=engine.info.name, stats=Stats())
    try:
        write_reports(args, result, engine, against, "failed", report.replay_command(args.engine, args.against),
                      error=str(failed))
    except ReportNotWritten as exc:  # said in one line; the run still fails with exit 3
        print(f"rulesfuzz: error: {exc}", file=sys.stderr)
