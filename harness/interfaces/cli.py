"""The ``rulesfuzz`` command line.

Exit codes: 0 no violation; 1 a violation (or, for ``replay``, an expectation that does
not hold); 2 bad usage or bad input (engine, scenario file, board); 130 interrupted
before anything was found.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import invariants as invariant_registry

from harness.reporting import baseline as baseline_file
from harness.running import interrupts
from harness.reporting import report, rule_coverage
from harness.interfaces import run_options
from harness.running import scenario as scenario_file
from harness.running.decider import ReplayDiverged
from harness.running.execution import BoardRejected, Declined, EngineTimeout
from harness.connection.loading import EngineLoadError, closing_process_engines, load_engine
from harness.running.workers import WorkerFailed
from harness.protocol import RulesfuzzError
from harness.interfaces.parser import build_parser
from harness.running.settings import mode_problem
from harness.interfaces.pipes import _ClosedPipeSafe, _quiet_broken_pipe

EXIT_OK, EXIT_VIOLATION, EXIT_BAD_INPUT, EXIT_HARNESS_FAILED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class BadInput(RulesfuzzError):
    """Bad usage or input: printed as one line, exit 2."""


def _load_oracle(args) -> None:
    """Load the ``--oracle`` files (:func:`cards.load_oracle_file`), in order. Raises
    :class:`BadInput` for a missing, unreadable or malformed file."""
    import cards

    for path in getattr(args, "oracle", None) or ():
        try:
            cards.load_oracle_file(path)
        except cards.OracleFileError as exc:
            raise BadInput(f"--oracle {exc}") from None


def _engine(spec: str, args=None, isolate: bool = False):
    from harness.running.monitor import loading

    try:
        with loading():  # a supervised run: an engine ending the process as it loads can't load (exit 2)
            return load_engine(spec, step_timeout=getattr(args, "step_timeout", 10.0), isolate=isolate)
    except EngineLoadError as exc:
        raise BadInput(str(exc)) from None


def cmd_run(args) -> int:
    """``rulesfuzz run``: its exit code. The engine processes it started (``exec:``, ``--isolate``)
    are shut down when it ends, however it ends (not left to the garbage collector)."""
    _load_oracle(args)  # before the engines load: they may read the files' cards
    with closing_process_engines() as loaded:
        return _run_loaded(args, loaded)


def _run_loaded(args, loaded: list) -> int:
    """:func:`cmd_run` with each engine it loads appended to ``loaded``."""
    from harness.running.runner import database_from

    engine = _engine(args.engine, args, args.isolate)
    loaded.append(engine)
    against = _engine(args.against, args) if args.against else None
    loaded.append(against)
    try:
        database = database_from(args.database)
    except ValueError as exc:
        raise BadInput(f"--database: {exc}") from None
    if args.invariants:
        unknown = [n for n in args.invariants if n not in invariant_registry.REGISTRY]
        if unknown:
            raise BadInput(f"unknown invariant(s) {unknown}; see `rulesfuzz invariants`")
    problem = skipped_invariants_problem(args.invariants, args.skip_invariants, "--skip-invariant")
    if problem:
        raise BadInput(problem)
    if args.invariants and "differential.matches_reference" in args.invariants and not args.against:
        raise BadInput("--invariant differential.matches_reference needs --against ENGINE (it compares two engines)")
    try:
        known = baseline_file.load(args.baseline) if args.baseline else {}
    except baseline_file.BaselineError as exc:
        raise BadInput(f"--baseline: {exc}") from None
    _check_output_paths(args)
    problem = mode_problem(getattr(args, "explore", False), getattr(args, "hypothesis", False), "--")
    if problem:
        raise BadInput(problem)
    run_options.check_slots(args)

    def progress(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    with interrupts.sigint_flag():  # from the header on, a Ctrl-C ends the run with its summary
        return _run_and_report(args, engine, against, database, progress, known)


def skipped_invariants_problem(chosen, skipped, flag: str) -> str | None:
    """Why invariants ``skipped`` (names given with ``flag``) can't be skipped from ``chosen``
    (the ``--invariant`` names, or None: all), in one line; None when they can."""
    if not skipped:
        return None
    unknown = [n for n in skipped if n not in invariant_registry.REGISTRY]
    if unknown:
        return f"{flag}: unknown invariant(s) {unknown}; see `rulesfuzz invariants`"
    if chosen and not set(chosen) - set(skipped):
        return f"{flag}: skips every invariant given with --invariant ({', '.join(chosen)}): nothing left to check"
    return None


def _check_output_paths(args) -> None:
    """Refuse, before fuzzing, a --json file or --replay-dir the run could not write to, so
    no finding is lost at the end of a run. Raises :class:`BadInput`."""
    for flag, path in (("--json", args.json_path), ("--junit-xml", getattr(args, "junit_path", None))):
        if path:
            run_options.check_report_path(flag, path)
    run_options.check_replay_dir("--replay-dir", args.replay_dir)


def _engine_coverage(args, engine):
    """The :class:`~harness.connection.engine_coverage.EngineCoverage` of ``--engine-coverage``, or None
    (not asked for; or not applicable to the engine, which is said on stderr). Raises
    :class:`BadInput` for a data file that can't be written."""
    if not args.engine_coverage:
        return None
    from harness.connection.engine_coverage import EngineCoverage, NotApplicable

    target = Path(args.engine_coverage)
    if target.is_dir() or not target.resolve().parent.is_dir():
        raise BadInput(f"--engine-coverage {args.engine_coverage}: not a file in an existing folder")
    try:
        return EngineCoverage(engine, target, in_workers=args.workers > 1)
    except NotApplicable as exc:
        print(f"rulesfuzz: {exc}", file=sys.stderr)
        return None


def _run_and_report(args, engine, against, database, progress, known: dict[str, str]) -> int:
    _print_header(args, engine, against)
    from harness.running import monitor

    if monitor.ACTIVE is not None:
        monitor.ACTIVE.meta(engine.info.name, engine.info.version, args.seed)
    measuring = _engine_coverage(args, engine)
    with measuring if measuring is not None else contextlib.nullcontext():
        try:
            result = run_options.fuzz(args, engine, against, database, progress,
                                      measuring.for_workers() if measuring is not None and measuring.in_workers else None)
        except WorkerFailed as failed:  # exit 3; what the slots that ended found is reported first
            run_options.report_before_failure(args, failed.result, known)
            run_options.write_failed_reports(args, failed, engine, against)
            raise
    coverage_summary = measuring.summary() if measuring is not None else None
    for finding in result.findings:
        finding.known = known.get(finding.key)
    replay = _print_result(args, result, coverage_summary)
    status = report.run_status(result)
    if status in ("passed", "interrupted"):
        breakdown = report.example_breakdown(result.stats.examples, result.examples_by_outcome)
        print(f"\nNo violation in {result.stats.examples} examples ({result.stats.steps} steps, {result.seconds:.1f} s)"
              + (f": {breakdown}." if breakdown else "."))
    extra = {"rule_coverage": result.rule_coverage} if result.rule_coverage else {}
    if coverage_summary is not None:
        extra["engine_coverage"] = coverage_summary.to_json()
    try:
        run_options.write_reports(args, result, engine, against, status, replay, extra)
    except run_options.ReportNotWritten as exc:  # it passed the check before the run: the findings above stand
        print(f"rulesfuzz: error: {exc}", file=sys.stderr)
        return report.STATUS_EXIT[status] if status in ("findings", "interrupted") else EXIT_BAD_INPUT
    _refuse_untested(args, engine, result, status)
    return report.STATUS_EXIT[status]


def _print_header(args, engine, against) -> None:
    """The run's first line: the engine, the mode, the seed and the budgets."""
    mode = f" against {against.info.name}" if against is not None else ""
    split = (f", {args.workers} workers" if args.workers > 1 else "") + (
        f", shard {args.shard[0]}/{args.shard[1]}" if args.shard else "")
    print(f"rulesfuzz: fuzzing {engine.info.name} {engine.info.version}{mode} (seed {args.seed}, "
          f"{args.max_examples} examples{f', {args.max_seconds:g} s' if args.max_seconds else ''}{split})", flush=True)


def _print_result(args, result, coverage_summary) -> str:
    """Print the run's statistics, findings and coverage; returns the replay command of its findings."""
    print()
    print(report.describe_stats(result.stats, result.invariants, result.skipped, result.examples_by_outcome))
    if result.cut_short:
        print(f"\nThe run was cut short ({result.cut_short}) after {result.seconds:.1f} s.")
    replay = report.replay_command(args.engine, args.against)
    for finding in result.findings:
        print()
        print(report.describe_finding(finding, replay))
    if result.findings:
        print()
        print(report.describe_findings_table(result.findings))
        if getattr(args, "no_shrink", False):
            print("Not shrunk (--no-shrink): each replay file holds its finding's example as it was found.")
    if result.also_seen:
        print(f"Also failed on the way, not reported: {', '.join(result.also_seen)} (--keep-going reports every "
              f"distinct finding)")
    if result.rule_coverage:
        print()
        print(rule_coverage.describe(result.rule_coverage))
    if coverage_summary is not None:
        print()
        print(coverage_summary.describe())
    return replay


def _refuse_untested(args, engine, result, status: str) -> None:
    """Raise :class:`BadInput` for a run that tested nothing (exit 2): out of time before any
    example, every event refused, or every example declined at its start."""
    if status == "untested":
        raise BadInput(report.untested_message("--max-seconds", args.max_seconds))
    if status == "refused":
        raise BadInput(report.refused_message(engine.info.name, result.stats))
    if status == "declined":
        top = "; ".join(f"{reason} ({n})" for reason, n in result.stats.top_declines())
        raise BadInput(f"{engine.info.name} declined {result.stats.early_declines} of {result.stats.examples} examples "
                       f"at new_game or their first event (top reasons: {top}): what it declares (EngineInfo.cards, "
                       f"capabilities) and what it accepts disagree, so this run tested nothing")


def cmd_replay(args) -> int:
    """``rulesfuzz replay``: its exit code. The engine processes it started (``exec:``, ``--isolate``)
    are shut down when it ends, however it ends, as :func:`cmd_run`'s."""
    _load_oracle(args)
    with closing_process_engines() as loaded:
        loaded.append(_engine(args.engine, args, args.isolate))
        loaded.append(_engine(args.against, args) if args.against else None)
        return _replay_loaded(args, *loaded)


def _replay_loaded(args, engine, against) -> int:
    folder = Path(args.file)
    if not folder.is_dir():
        return _replay_file(args, folder, engine, against)
    files = sorted(p for p in folder.glob("*.json") if not p.name.endswith("-pending.json"))
    if not files:
        raise BadInput(f"{folder}: no scenario files (*.json) in this folder")
    outcomes = {}
    for path in files:
        print(f"=== {path}")
        try:
            outcomes[path] = "pass" if _replay_file(args, path, engine, against) == EXIT_OK else "FAIL"
        except BadInput as exc:
            print(f"rulesfuzz: error: {exc}", file=sys.stderr, flush=True)  # errors on stderr, as for one file
            outcomes[path] = "bad input"
        print()
    for path, outcome in outcomes.items():
        print(f"{outcome:<9} {path}")
    failed = sum(1 for o in outcomes.values() if o == "FAIL")
    bad = sum(1 for o in outcomes.values() if o == "bad input")
    print(f"{len(files)} scenario(s): {len(files) - failed - bad} pass, {failed} fail, {bad} bad input")
    if failed:
        return EXIT_VIOLATION
    if bad:
        raise BadInput(f"{folder}: {bad} scenario file(s) are bad input (see above)")
    return EXIT_OK


def _replay_file(args, path, engine, against) -> int:
    """Replay one scenario file; returns 0 (passes) or 1 (fails). Raises :class:`BadInput`."""
    try:
        scenario = scenario_file.load(path)
    except scenario_file.ScenarioError as exc:
        raise BadInput(str(exc)) from None
    found = [scenario.get("violation") or {}, *(scenario.get("also_violated") or ())]
    if against is None and any(str(v.get("invariant", "")).startswith("differential.") for v in found):
        # Without --against no invariant compares two engines: the finding would pass unseen.
        key = scenario.get("key") or found[0].get("invariant")
        raise BadInput(f"{path}: its finding is a difference from another engine ({key}): replay it with "
                       f"--against ENGINE, as the run that found it (e.g. --against reference)")
    from harness.generation.plan import effective_capabilities  # claimed and implied by the engine's cards

    capabilities = set(effective_capabilities(engine.info)) | ({"differential"} if against is not None else set())
    steps = invariant_registry.select(capabilities, scope="step")
    whole = invariant_registry.select(capabilities, scope="scenario")
    try:
        result = scenario_file.replay(engine, scenario, steps, whole, step_timeout=args.step_timeout,
                                      against=against, strict=getattr(args, "strict", None))
    except BoardRejected as exc:
        raise BadInput(f"{path}: not a legal board: {exc}") from None
    except (ReplayDiverged, EngineTimeout) as exc:
        raise BadInput(f"{path}: {exc}") from None
    except Declined as exc:
        raise BadInput(f"{path}: the {exc} (Unsupported: it can't judge this scenario)") from None
    print(report.describe_scenario(scenario))
    if scenario_file.format_note(scenario):
        print(f"note: {scenario_file.format_note(scenario)}")
    for step, note in result.notes:
        print(f"note: step {step}: {note}")
    for violation in result.violations:
        print()
        print(report.describe_violation(violation))
    for step, why in result.refused:
        print(f"\nREFUSED at step {step}: {why}")
    for step, diff in result.mismatches:
        print(f"\nEXPECTATION {'before the first event' if step == 0 else f'at step {step}'}: {diff}")
    if result.unanswered is not None:
        print(f"\nUNANSWERED: {result.unanswered[1]} (strict replay: record the answer in the step's "
              f"\"decisions\", or replay with --no-strict to answer the first option)")
    if result.ok:
        print(f"\nNo violation: {result.steps_run} step(s) replayed on {engine.info.name}.")
        return EXIT_OK
    return EXIT_VIOLATION


def cmd_baseline(args) -> int:
    try:
        data = baseline_file.from_report(args.report)
    except baseline_file.BaselineError as exc:
        raise BadInput(str(exc)) from None
    text = json.dumps(data, indent=2) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
        return EXIT_OK
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"--output {args.output}: can't write: {exc.strerror or exc}") from None
    print(f"rulesfuzz: wrote {args.output}: {len(data['findings'])} known finding(s); edit each reason before use")
    return EXIT_OK


def cmd_check(args) -> int:
    from harness.running.conformance import check

    _load_oracle(args)
    try:
        engine = load_engine(args.engine, step_timeout=args.step_timeout, isolate=args.isolate)
    except EngineLoadError as exc:
        if not exc.engine_fault:
            raise BadInput(str(exc)) from None
        lines = str(exc).splitlines() or [""]  # the engine started but broke the protocol: its stderr follows
        print("\n".join([f"FAIL  initialize: {lines[0]}", *(f"    {line}" for line in lines[1:])]))
        return EXIT_VIOLATION
    with closing_process_engines([engine]):
        results = check(engine)
    for result in results:
        print(result)
    failed = sum(not r.ok for r in results)
    print(f"{len(results) - failed} of {len(results)} checks passed")
    return EXIT_VIOLATION if failed else EXIT_OK


def cmd_invariants(args) -> int:
    items = list(invariant_registry.REGISTRY.values())
    if args.json:
        print(json.dumps([i.to_json() for i in items], indent=2))
        return EXIT_OK
    for inv in items:
        print(f"{inv.name}  [{inv.family}{', per scenario' if inv.scope == 'scenario' else ''}]")
        print(f"    {inv.summary}")
        print(f"    rules: CR {', '.join(inv.rules) if inv.rules else '-'}")
        for key in inv.rulings:
            print(f"    ruling: {key.split(':')[0]}")
        print(f"    requires: {', '.join(sorted(inv.requires)) or '-'}")
    return EXIT_OK


def cmd_cards(args) -> int:
    import cards

    from harness.adapters.reference import not_modelled

    _load_oracle(args)
    if sum(bool(x) for x in (args.name, args.stats, args.engine)) > 1:
        raise BadInput("cards: give one of NAME, --stats and --engine")
    if args.stats:
        from cards.stats import stats_lines

        print("\n".join(stats_lines()))
        return EXIT_OK
    if args.name:
        return _card_model(args)
    if args.engine:
        return _engine_cards(args)
    rows = []
    for record in cards.to_json():
        gaps = not_modelled(record["name"])
        rows.append({**record, "reference_plays": gaps is not None, "reference_not_modelled": gaps or []})
    # then the --oracle files' cards outside the pool (the pool wins for its names)
    for name in sorted(set(cards.overlay()) - set(cards.pool())):
        rows.append({**cards.card(name).to_json(), "name": name, "reference_plays": False,
                     "reference_not_modelled": [], "oracle_file": cards.overlay()[name]["source"]})
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    for row in rows:
        if row.get("oracle_file"):
            extra = f"   ({row['oracle_file']}; the reference engine does not play it)"
        elif not row["reference_plays"]:
            extra = "   (the reference engine does not play it)"
        elif row["reference_not_modelled"]:
            extra = f"   (not modelled: {'; '.join(row['reference_not_modelled'])})"
        else:
            extra = ""
        print(f"{row['name']}{extra}")
    return EXIT_OK


def _card_model(args) -> int:
    """``rulesfuzz cards NAME``: how the card's Oracle text was read (``--json``: its model)."""
    import cards
    from cards.reader import model
    from cards.stats import describe

    try:
        found = model(args.name)
    except cards.UnknownCardName as exc:
        raise BadInput(str(exc)) from None
    facts = cards.card(args.name).to_json()  # the characteristics an engine observes (CR 109.3)
    if args.json:
        print(json.dumps({**found.to_json(), "card": facts}, indent=2))
    else:
        lines = describe(found)
        type_line = " ".join(facts["supertypes"] + facts["types"])
        if facts["subtypes"]:
            type_line += " — " + " ".join(facts["subtypes"])
        pt = f" {facts['power']}/{facts['toughness']}" if facts["power"] is not None else ""
        colors = "".join(facts["colors"]) or "colorless"
        keywords = f", keywords: {', '.join(sorted(facts['keywords']))}" if facts["keywords"] else ""
        lines.insert(1, f"  {facts['mana_cost'] or '(no mana cost)'} {type_line}{pt} ({colors}{keywords})")
        print("\n".join(lines))
    return EXIT_OK


def _engine_cards(args) -> int:
    """``rulesfuzz cards --engine E``: each card the engine declares, modelled or not, with the
    sentences the reader did not read (``--json``: one object per card)."""
    import cards
    from cards.reader import model

    engine = _engine(args.engine, args)
    info = engine.info
    declared = getattr(info, "cards", None)
    rows = []
    for name in sorted(declared or ()):
        try:
            found = model(name)
        except cards.UnknownCardName as exc:
            rows.append({"name": name, "known": False, "modelled": False, "unread": [],
                         "closest": exc.closest})
            continue
        rows.append({"name": name, "known": True, "modelled": found.modelled, "hand_written": found.hand_written,
                     "templates": list(found.templates), "unread": list(found.unread)})
    if args.json:
        print(json.dumps({"engine": {"name": info.name, "version": info.version}, "cards": rows}, indent=2))
        return EXIT_OK
    modelled = sum(r["modelled"] for r in rows)
    print(f"engine {info.name} {info.version}: {modelled} of {len(rows)} declared cards modelled")
    for row in rows:
        if not row["known"]:
            near = f" (closest: {', '.join(row['closest'])})" if row["closest"] else ""
            print(f"  {row['name']}: unknown card{near}")
        elif row["modelled"]:
            print(f"  {row['name']}: modelled{' (hand-written)' if row['hand_written'] else ''}")
        else:
            n = len(row["unread"])
            print(f"  {row['name']}: unmodelled ({n} sentence{'' if n == 1 else 's'} not read)")
            for text in row["unread"]:
                print(f"      not read: {text}")
    return EXIT_OK


def cmd_plan(args) -> int:
    _load_oracle(args)
    engine = _engine(args.engine, args)
    report = _plan_report(engine.info)
    if args.json:
        print(json.dumps(report, indent=2))
        return EXIT_OK
    _print_plan(engine.info, report)
    return EXIT_OK


def _plan_report(info) -> dict:
    """What ``rulesfuzz plan`` says of an engine (``info``: its EngineInfo), as its ``--json`` prints it."""
    from harness.running.machine import EngineMachine, rule_gates
    from harness.generation.plan import Plan

    plan = Plan.for_info(info)  # claimed capabilities and those its cards imply
    gates = rule_gates(EngineMachine, plan)
    invariants: dict[str, str | None] = {}  # name -> None if it runs, else why not
    for inv in invariant_registry.REGISTRY.values():
        missing = sorted(inv.requires - plan.capabilities)
        if inv.family == "differential":
            invariants[inv.name] = "used with --against"
        else:
            invariants[inv.name] = f"needs capability {', '.join(missing)}" if missing else None
    return {
        "engine": {"name": info.name, "version": info.version},
        "cards": sorted(plan.cards),
        "cards_of_rules_areas": dict(sorted(plan.area_cards.items())),  # beyond the generator lists
        "cards_left_out": dict(sorted(plan.left_out_cards.items())),
        "board_features": sorted(plan.features),
        "board_features_left_out": dict(sorted(plan.left_out_features.items())),
        "events": sorted(n for n, why in gates.items() if why is None),
        "events_left_out": {n: why for n, why in sorted(gates.items()) if why},
        "invariants": sorted(n for n, why in invariants.items() if why is None),
        "invariants_left_out": {n: why for n, why in sorted(invariants.items()) if why},
        "capabilities_claimed": sorted(plan.claimed),
        "capabilities_implied": dict(sorted(plan.implied.items())),
        "cards_unmodelled": {n: list(unread) for n, unread in sorted(plan.unmodelled.items())},
    }


def _print_plan(info, report: dict) -> None:
    """``rulesfuzz plan``'s text: ``report`` (:func:`_plan_report`) by part."""
    print(f"engine {info.name} {info.version}")
    for cap, why in report["capabilities_implied"].items():
        print(f"implied: {cap}: {why}")
    for name, unread in report["cards_unmodelled"].items():
        print(f"unmodelled (never generated): {name}: not read: {' | '.join(unread)}")
    for key, title in (("cards", "cards"), ("board_features", "board features"), ("events", "events (rules)"),
                       ("invariants", "invariants")):
        print(f"{title} ({len(report[key])}): {', '.join(report[key]) or '-'}")
        if key == "cards":
            by_area: dict[str, list[str]] = {}
            for name, why in report["cards_of_rules_areas"].items():
                by_area.setdefault(why, []).append(name)
            for why, names in by_area.items():
                print(f"  put there by the {why}: {', '.join(names)}")
        for name, why in report[f"{key}_left_out"].items():
            print(f"  left out: {name}: {why}")


def cmd_reference(args) -> int:
    """Print the contract reference as ``python3 -m harness.interfaces.contract`` renders it."""
    from harness.interfaces.contract import render

    sys.stdout.write(render())
    return EXIT_OK


def main(argv=None, supervise: bool = False) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit code. With
    ``supervise`` (the ``rulesfuzz`` command, :mod:`harness.interfaces.console`), ``run`` fuzzes in a child
    process this one supervises (:mod:`harness.running.supervisor`), unless ``--unsupervised``."""
    with _ClosedPipeSafe.installed():
        return _main(argv, supervise)


def _main(argv, supervise: bool) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else [str(a) for a in argv]
    try:
        run_options.apply_settings(parser, argv)
    except run_options.OptionError as exc:
        print(f"rulesfuzz: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    args = parser.parse_args(argv)
    handler = {"run": cmd_run, "replay": cmd_replay, "invariants": cmd_invariants, "check": cmd_check,
               "baseline": cmd_baseline, "cards": cmd_cards, "plan": cmd_plan,
               "reference": cmd_reference}[args.command]
    if supervise and args.command == "run" and not args.unsupervised:
        from harness.interfaces.supervised_end import report_end
        from harness.running.supervisor import supervise as supervised

        return supervised(args, lambda: _handle(handler, args), report_end)
    return _handle(handler, args)


def _handle(handler, args) -> int:
    """``handler(args)``, its errors reported as the exit codes say (README "Exit codes")."""
    try:
        return handler(args)
    except (BadInput, run_options.OptionError) as exc:
        print(f"rulesfuzz: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except WorkerFailed as exc:  # a worker process died or raised: no result to report
        print(f"rulesfuzz: error: {exc}", file=sys.stderr)
        return EXIT_HARNESS_FAILED
    except KeyboardInterrupt:
        print("rulesfuzz: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # output piped into a command that stopped reading (head, grep -m1)
        _quiet_broken_pipe()
        return 141  # as if killed by SIGPIPE: the result could not be reported
    except Exception:  # noqa: BLE001  a bug of rulesfuzz itself, not of the engine or the input
        import traceback

        traceback.print_exc()
        print(f"rulesfuzz: internal error (a bug of rulesfuzz {report.version()}, not of your engine): please "
              f"report it with the command line and the traceback above", file=sys.stderr)
        return EXIT_HARNESS_FAILED


if __name__ == "__main__":
    sys.exit(main())
