"""Readable text for findings, scenarios and run summaries."""

from __future__ import annotations

import json

from invariants import REGISTRY, ruling_text

from harness.decisions import REFERENCE_ONLY


def describe_object(spec: dict) -> str:
    """One line for a board object, e.g. ``c0  Grizzly Bears (P1) tapped damage=1 -> a0``."""
    parts = [f"{spec['id']:<4} {spec['card']} ({spec.get('controller', spec['owner'])}"
             + (f", owned by {spec['owner']}" if spec.get("controller", spec["owner"]) != spec["owner"] else "") + ")"]
    if spec.get("zone", "battlefield") != "battlefield":
        parts.append(f"in {spec['zone']}")
    for flag in ("tapped", "token", "summoning_sick"):
        if spec.get(flag):
            parts.append(flag)
    for key in ("damage", "regeneration_shields", "combat"):
        if spec.get(key):
            parts.append(f"{key}={spec[key]}")
    if spec.get("counters"):
        parts.append(f"counters={spec['counters']}")
    if spec.get("attached_to"):
        parts.append(f"attached to {spec['attached_to']}")
    return " ".join(parts)


def describe_event(event: dict) -> str:
    """A compact one-line form of an event."""
    rest = {k: v for k, v in event.items() if k != "type"}
    return f"{event.get('type')} " + " ".join(f"{k}={json.dumps(v)}" for k, v in rest.items())


#: Board objects and events :func:`describe_scenario` prints before summarising the rest.
DESCRIBE_LIMIT = 60


def describe_scenario(scenario: dict, limit: int = DESCRIBE_LIMIT) -> str:
    """The board, events and decisions of a scenario, as a judge would write them.

    Past ``limit`` objects only the first ``limit`` are listed, and past ``limit`` events the
    first and last ``limit // 2`` (a finding's step is usually the last), each with a line
    saying how many were left out: a huge scenario prints a page, not a book."""
    lines = ["Board:"]
    for player in scenario["board"]["players"]:
        lines.append(f"  {player['id']}: {player.get('life', 20)} life")
    objects = scenario["board"]["objects"]
    for spec in objects[:limit]:
        lines.append("  " + describe_object(spec))
    if len(objects) > limit:
        lines.append(f"  ... and {len(objects) - limit:,} more objects")
    lines.append("Events:")
    steps = scenario["steps"]
    shown = range(len(steps)) if len(steps) <= limit else [*range(limit // 2), *range(len(steps) - limit // 2,
                                                                                      len(steps))]
    last = -1
    for index in shown:
        step, i = steps[index], index + 1
        if index != last + 1:
            lines.append(f"  ... {index - last - 1:,} more events ...")
        last = index
        refused = f"   [refused: {step['illegal']}]" if step.get("illegal") else ""
        lines.append(f"  {i}. {describe_event(step['event'])}{refused}")
        for d in step.get("decisions", ()):
            options = f" among {d['options']}" if d.get("options") else ""
            whose = " (asked of the reference engine only)" if d.get("asked_by") == REFERENCE_ONLY else ""
            lines.append(f"       {d.get('player')} chose {d['answer']!r} for {d['kind']}{options}{whose}")
    return "\n".join(lines)


def describe_violation(violation) -> str:
    """The invariant, its rules and rulings, and what went wrong."""
    inv = REGISTRY.get(violation.invariant)
    lines = [f"VIOLATION {violation.invariant} at step {violation.step}"]
    if inv is not None:
        lines.append(f"  {inv.summary}")
        if inv.rules:
            lines.append(f"  Rules: CR {', '.join(inv.rules)}")
        for key in inv.rulings:
            lines.append(f"  Ruling ({key.split(':')[0]}): {ruling_text(key)}")
    for message in violation.messages:
        lines.append(f"  - {message}")
    return "\n".join(lines)


#: The parts of a run's examples (``RunResult.examples_by_outcome``), in the order the summary
#: names them, each with what it means.
OUTCOMES = (
    ("generated", "generated within the --max-examples budget"),
    ("explored", "explored (--explore)"),
    ("replayed", "replayed from the example database (failures an earlier run saved, run first)"),
    ("overrun", "cut off when Hypothesis's choice buffer ran out mid-example (overrun: not counted toward the "
                "budget, but their steps until then were checked)"),
    ("rejected", "declined by the engine or discarded by Hypothesis (not counted toward the budget)"),
    ("shrinking", "run while shrinking a finding"),
)


def example_breakdown(examples: int, outcomes: dict | None) -> str | None:
    """Why a run has ``examples`` examples, from how they came about (``outcomes``:
    ``RunResult.examples_by_outcome``): ``"500 generated within the --max-examples budget + 72
    cut off when ..."``; None when there is nothing to explain (no breakdown, or every example
    generated within the budget)."""
    outcomes = {k: n for k, n in (outcomes or {}).items() if n}
    if not outcomes or set(outcomes) <= {"generated", "explored"} and sum(outcomes.values()) == examples:
        return None
    parts = [f"{outcomes[key]} {what}" for key, what in OUTCOMES if outcomes.get(key)]
    counted = sum(outcomes.values())
    if examples > counted:
        parts.append(f"{examples - counted} outside Hypothesis's phases (a finding run again to report it, or an "
                     f"example cut short when the run stopped)")
    elif examples < counted:
        parts.append(f"(Hypothesis counts {counted} test cases: {counted - examples} ended before their board was "
                     f"drawn)")
    return " + ".join(parts)


def describe_stats(stats, invariant_names, skipped=(), outcomes=None) -> str:
    """The run summary: examples (with what they are, from ``outcomes``, ``RunResult.examples_by_outcome``:
    :func:`example_breakdown`), steps, and per invariant how often it was checked and applied;
    then the ``skipped`` invariants (``--skip-invariant``: the engine's known gaps), if any."""
    data = stats.to_json()
    lines = [f"examples: {data['examples']}   steps: {data['steps']}   refused events: {data['illegal_events']}"]
    breakdown = example_breakdown(data["examples"], outcomes)
    if breakdown:
        lines.append(f"  the {data['examples']} examples: {breakdown}")
    lines.append("events: " + ", ".join(f"{k} {v}" for k, v in data["events"].items()))
    declined = data["declined"]
    if declined["total"]:
        reasons = ", ".join(f"{reason} {n}" for reason, n in declined["by_reason"].items())
        lines.append(f"declined (Unsupported, not blamed): {declined['total']} examples, {declined['early']} at "
                     f"new_game or their first event: {reasons}")
    if data["interactions"]:
        lines.append("interactions: " + ", ".join(f"{k} {v}" for k, v in data["interactions"].items()))
    width = max([len("invariant"), *map(len, invariant_names)])  # the longest name sets the column
    lines.append(f"{'invariant':<{width}} {'checked':>9} {'applicable':>11}")
    for name in invariant_names:
        counts = data["invariants"].get(name, {"checked": 0, "applicable": 0})
        lines.append(f"{name:<{width}} {counts['checked']:>9} {counts['applicable']:>11}")
    if skipped:
        lines.append(f"skipped, not checked (--skip-invariant: a known gap): {', '.join(skipped)}")
    return "\n".join(lines)


def describe_finding(finding, replay_command: str = "") -> str:
    """One finding: its key, every violation of the failing step, the scenario, the engine's
    output tail, and the replay file with the command that replays it (``{file}`` in
    ``replay_command`` is replaced by the file)."""
    lines = []
    if finding.known:
        lines.append(f"KNOWN (baseline: {finding.known})")
    if finding.from_database:
        lines.append("REPLAYED from the example database: a failure saved by an earlier run (or another "
                     "shard), replayed first")
    for violation in finding.violations:
        lines.append(describe_violation(violation))
        lines.append("")
    lines.append(describe_scenario(finding.scenario))
    output = finding.scenario.get("engine_output")
    if output:
        tail = output.rstrip("\n").splitlines()[-20:]
        lines.append(f"Engine output (last {len(tail)} lines of the failing step):")
        lines.extend(f"  | {line}" for line in tail)
    if finding.shrink_cut_short:
        lines.append("(not fully shrunk: the run was cut short while shrinking)")
    for note in finding.notes:
        lines.append(f"note: {note}")
    if finding.replay_path is not None:
        lines.append(f"Replay file: {finding.replay_path}")
        if replay_command:
            lines.append(f"Replay it:   {fill_replay_command(replay_command, finding.replay_path)}")
    return "\n".join(lines)


def describe_findings_table(findings) -> str:
    """The table of distinct findings: key, rules, examples to find, shrunk size, replay file."""
    rows = [("finding", "rules", "examples", "shrunk", "replay file")]
    for f in findings:
        inv = REGISTRY.get(f.violation.invariant)
        rules = ", ".join(inv.rules) if inv and inv.rules else "-"
        events, objects = f.size
        rows.append((f.key + (" (known)" if f.known else ""), rules,
                     str(f.examples_to_find) if f.examples_to_find is not None else "-",
                     f"{events} ev, {objects} obj" + ("*" if f.shrink_cut_short else ""),
                     str(f.replay_path) if f.replay_path else "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    new = sum(1 for f in findings if not f.known)
    lines = [f"{len(findings)} distinct finding(s), {new} new:"]
    lines += ["  " + "  ".join(cell.ljust(widths[i]) if i < 4 else cell for i, cell in enumerate(row)) for row in rows]
    return "\n".join(lines)


REPORT_FORMAT = "rulesfuzz-run-report/1"

#: Run statuses and their exit codes (README "Exit codes").
STATUS_EXIT = {"passed": 0, "known_findings_only": 0, "findings": 1, "declined": 2, "untested": 2,
               "refused": 2, "failed": 3, "interrupted": 130}


def version() -> str:
    """The installed rulesfuzz version (``"unknown"`` when run from a source tree that isn't installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("rulesfuzz")
    except PackageNotFoundError:
        return "unknown"


def run_status(result) -> str:
    """The status of a run result (see :data:`STATUS_EXIT`)."""
    if any(not f.known for f in result.findings):
        return "findings"
    if result.findings:
        return "known_findings_only"
    if result.stats.mostly_declined():
        return "declined"
    if result.stats.steps == 0 and result.cut_short == "time budget":
        return "untested"
    if result.cut_short != "interrupted" and result.stats.mostly_refused():
        return "refused"
    return "interrupted" if result.cut_short == "interrupted" else "passed"


def refused_message(engine_name: str, stats) -> str:
    """The one line of a run whose engine refused too much to have been tested (status
    ``refused``, exit 2: :meth:`harness.running.execution.Stats.mostly_refused`), with the top reasons."""
    refused, steps = stats.counted_steps()
    top = "; ".join(f"{reason} ({n})" for reason, n in stats.top_refusals())
    never = stats.never_accepted()
    reasons = [f"refused {refused} of {steps} events as illegal"] if refused * 2 > steps or not never else []
    if never:  # both can hold: say both
        reasons.append(f"never accepted {', '.join(never)}")
    why = f"{engine_name} " + " and ".join(reasons)
    return (f"{why} (events aimed at objects off the battlefield not counted; top reasons: {top}): what it "
            f"declares (capabilities, EngineInfo.cards) and what it accepts disagree, so this run tested nothing")


def untested_message(flag: str, max_seconds: float) -> str:
    """The one line of a run whose time budget (``flag`` ``max_seconds``, in seconds) ran out
    before its first step: status ``untested``, exit 2, since nothing was tested."""
    return (f"the time budget ({flag} {max_seconds:g}) ran out before the first step: nothing was tested; "
            f"give the run more time")


def replay_command(engine_spec: str, against_spec: str | None = None) -> str:
    """The command that replays a finding of a run of ``engine_spec``, with ``{file}`` where the
    replay file goes, e.g. ``rulesfuzz replay {file} --engine 'exec:node engine.js'``: specs
    quoted for a POSIX shell (``exec:`` specs contain spaces), braces in them escaped for
    :func:`fill_replay_command`, which puts in the file, quoted too."""
    import shlex

    def quoted(spec: str) -> str:
        return shlex.quote(spec).replace("{", "{{").replace("}", "}}")

    again = f" --against {quoted(against_spec)}" if against_spec else ""
    return f"rulesfuzz replay {{file}} --engine {quoted(engine_spec)}{again}"


def fill_replay_command(template: str, path) -> str | None:
    """``template`` (:func:`replay_command`) with the replay file ``path`` quoted for the shell
    in it; None without a template or a path."""
    import shlex

    if not template or path is None:
        return None
    return template.format(file=shlex.quote(str(path)))


def run_report(result, engine, against, options: dict, replay_command: str = "", error: str | None = None) -> dict:
    """The ``--json`` report of a run (schema: ``harness/schema/run-report.schema.json``).

    Its ``invariants`` list is the run as test cases, one per invariant, as in the
    ``--junit-xml`` report (:func:`invariant_cases`); ``replay_command`` is the
    command template of :func:`replay_command`. ``error`` (the message of a run that failed
    before its end: a ``--workers`` process died or raised) makes the status ``failed``
    (exit 3), ``result`` then holding what the slots that ended found.
    """
    status = "failed" if error is not None else run_status(result)
    findings = []
    for finding in result.findings:
        data = finding.to_json()
        data["replay_command"] = fill_replay_command(replay_command, finding.replay_path)
        findings.append(data)
    return {
        "format": REPORT_FORMAT, "status": status, "exit_code": STATUS_EXIT[status], "rulesfuzz_version": version(),
        "engine": {"name": engine.info.name, "version": engine.info.version},
        "against": {"name": against.info.name, "version": against.info.version} if against is not None else None,
        "options": options, "seconds": round(result.seconds, 3), "cut_short": result.cut_short,
        "stats": result.stats.to_json(), "findings": findings,
        "invariants": invariant_cases(result, replay_command),
        "also_seen": list(result.also_seen),
        "slots": result.slots,
        "error": error,
    }


def invariant_cases(result, replay_command: str = "") -> list[dict]:
    """One dict per invariant of the run, in the run's order, then any invariant only a finding names.

    Each: ``{"name", "rules": [CR numbers], "rulings": [ruling texts], "checked", "applicable",
    "status": "passed"|"failed"|"known"|"skipped", "findings": [{"key", "known", "message", "text",
    "replay_file", "replay_command"}]}``. A finding counts against every invariant broken on
    its failing step (the first gives its key). An invariant ``--skip-invariant`` left out
    (``result.skipped``) is a case of status ``skipped``, checked 0 times. ``text`` is the whole report of the finding
    (:func:`harness.reporting.report.describe_finding`): rules, rulings, shrunk scenario, replay file
    and the command that replays it (``replay_command`` with ``{file}`` in it).
    """
    stats = result.stats
    names = list(dict.fromkeys([*result.invariants,
                                *(v.invariant for f in result.findings for v in f.violations)]))
    cases = []
    for name in names:
        inv = REGISTRY.get(name)
        found = [f for f in result.findings if any(v.invariant == name for v in f.violations)]
        entries = [_finding_entry(finding, name, inv, replay_command) for finding in found]
        if any(e["known"] is None for e in entries):
            status = "failed"
        else:
            status = "known" if entries else "passed"
        cases.append({
            "name": name, "rules": list(inv.rules) if inv else [],
            "rulings": [ruling_text(key) for key in inv.rulings] if inv else [],
            "checked": stats.checked.get(name, 0), "applicable": stats.applicable.get(name, 0),
            "status": status, "findings": entries,
        })
    for name in getattr(result, "skipped", ()):  # --skip-invariant: the run's known gaps, never silent
        inv = REGISTRY.get(name)
        if name not in names:
            cases.append({"name": name, "rules": list(inv.rules) if inv else [],
                          "rulings": [ruling_text(key) for key in inv.rulings] if inv else [],
                          "checked": 0, "applicable": 0, "status": "skipped", "findings": []})
    return cases


def _finding_entry(finding, name: str, inv, replay_command: str) -> dict:
    """invariant_cases' entry of ``finding`` in the case of invariant ``name`` (``inv``: its
    registry entry, or None)."""
    violation = next(v for v in finding.violations if v.invariant == name)
    rules = f"CR {', '.join(inv.rules)}: " if inv is not None and inv.rules else ""
    where = f" (replay file {finding.replay_path})" if finding.replay_path else ""
    return {
        "key": finding.key, "known": finding.known,
        "message": f"{finding.key} at step {violation.step}: {rules}"
                   f"{violation.messages[0] if violation.messages else ''}{where}",
        "text": describe_finding(finding, replay_command),
        "replay_file": str(finding.replay_path) if finding.replay_path else None,
        "replay_command": fill_replay_command(replay_command, finding.replay_path),
    }


def run_report_schema() -> dict:
    """The JSON Schema of :func:`run_report` (shipped as package data)."""
    from importlib import resources

    return json.loads(resources.files("harness").joinpath("schema/run-report.schema.json").read_text("utf-8"))
