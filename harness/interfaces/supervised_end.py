"""What the supervisor of a run reports when the fuzzing process ended without finishing
(:mod:`harness.running.supervisor`): the finding or failure, the summary and the ``--json`` and
``--junit-xml`` reports, written by the supervisor, which never loads the engine."""

from __future__ import annotations

import sys

from harness.running.monitor import ChildState
from harness.running.supervisor import Verdict, crash_key, crash_scenario, describe_exit, save_scenario  # noqa: F401


class _Info:
    def __init__(self, name: str, version: str):
        self.name, self.version = name, version


class _Named:
    """An engine's name and version only, for the reports the supervisor writes (it never loads the engine)."""

    def __init__(self, name: str, version: str):
        self.info = _Info(name, version)


def report_end(args, code: int, state: ChildState, judged: Verdict) -> int:
    """Print and write (``--json``, ``--junit-xml``) the outcome of a fuzzing process that ended
    with ``code`` without finishing its run; returns the run's exit code."""
    from harness.reporting import report
    from harness.interfaces import run_options
    from harness.running.execution import Stats
    from harness.reporting.findings import Finding
    from harness.running.runner import RunResult

    meta = state.meta or {}
    name = meta.get("name") or str(args.engine)
    engine = _Named(name, meta.get("version", ""))
    against = _Named(str(args.against), "") if getattr(args, "against", None) else None
    replay = report.replay_command(args.engine, getattr(args, "against", None))
    result = RunResult(name, Stats())
    if judged.kind == "engine_load":
        print(f"rulesfuzz: error: engine {args.engine} ended the process while loading ({describe_exit(code)})",
              file=sys.stderr)
        return 2
    if judged.kind == "finding":
        found = crash_scenario(state, code)
        key = crash_key(code)
        if found is None:  # engine code outside a game (its info, closing it): no scenario to replay
            from harness.protocol import Violation

            violations = [Violation("generic.engine_does_not_raise", 0,
                                    (f"the engine ended the fuzzing process ({describe_exit(code)}) outside a game",))]
            scenario = {"board": {"players": [], "objects": []}, "steps": []}
        else:
            violations, scenario = found
        finding = Finding(key, violations, scenario)
        finding.notes.append("the engine ended the fuzzing process: the run stopped here (run with --isolate to go "
                             "on past it, each crash a finding)")
        if found is not None:
            finding.replay_path = save_scenario(args.replay_dir, name, key, scenario)
        known: dict[str, str] = {}
        if getattr(args, "baseline", None):
            from harness.reporting import baseline as baseline_file

            try:
                known = baseline_file.load(args.baseline)
            except baseline_file.BaselineError:
                known = {}
        # as an unsupervised run treats a finding of the baseline (harness.reporting.baseline.Known: the key,
        # or its bare invariant name): reported, marked known, and no failure of the run
        finding.known = known.get(key)
        replay += " --isolate"  # replayed in a child process: the crash is a finding there too
        result.findings.append(finding)
        result.cut_short = "process ended"
        print()
        print(report.describe_finding(finding, replay))
        print()
        print(report.describe_findings_table(result.findings))
        what = f"a known finding (baseline: {finding.known})" if finding.known else "a finding"
        print(f"\nThe fuzzing process ended ({describe_exit(code)}) while the engine's code ran: {what} "
              f"(the run stopped there).", flush=True)
        status, error = report.run_status(result), None  # findings, or known_findings_only (exit 0)
    else:
        found = crash_scenario(state, code)
        kept = None
        if found is not None:
            scenario = found[1]
            scenario.pop("violation", None)
            scenario["key"] = f"rulesfuzz-failed[exit {code}]"
            kept = save_scenario(args.replay_dir, name, scenario["key"], scenario)
        error = (f"the fuzzing process ended ({describe_exit(code)}) outside the engine's code: a bug of rulesfuzz "
                 f"{report.version()}, not of your engine; please report it with the command line"
                 + (f" and the last example, kept in {kept}" if kept else ""))
        print(f"rulesfuzz: error: {error}", file=sys.stderr, flush=True)
        status = "failed"
    try:
        run_options.write_reports(args, result, engine, against, status, replay, error=error)
    except run_options.ReportNotWritten as exc:
        print(f"rulesfuzz: error: {exc}", file=sys.stderr)
    return report.STATUS_EXIT[status]

