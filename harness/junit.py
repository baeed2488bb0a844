"""CI reports: a run as one test case per invariant, in JUnit XML (``--junit-xml FILE``) and JSON.

CI systems (GitHub Actions, GitLab, Jenkins) show JUnit XML as test results, so a rules
bug shows up like a failing test: the test case of the invariant it breaks fails, with
the CR rules and rulings the invariant encodes, the shrunk scenario, the replay file and
the command that replays it. :func:`invariant_cases` is what both the XML and the
``invariants`` list of the ``--json`` report (:func:`harness.report.run_report`) are made from.

The XML follows the common JUnit shape (the schema Jenkins and the
``junit-10.xsd`` of Apache Ant use): ``<testsuites>`` holding one ``<testsuite>``, one
``<testcase classname="rulesfuzz.<engine>" name="<invariant>">`` per invariant, each with
at most one ``<failure message type>`` or ``<skipped message>`` (a finding the baseline
knows: exit 0) and a ``<system-out>`` saying how often it was checked and applied.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from invariants import REGISTRY, ruling_text

from . import report

#: A test case's status: ``passed``, ``failed`` (a new finding), ``known`` (every finding is in the baseline).
CASE_STATUSES = ("passed", "failed", "known")


def invariant_cases(result, replay_command: str = "") -> list[dict]:
    """One dict per invariant of the run, in the run's order, then any invariant only a finding names.

    Each: ``{"name", "rules": [CR numbers], "rulings": [ruling texts], "checked", "applicable",
    "status": "passed"|"failed"|"known", "findings": [{"key", "known", "message", "text",
    "replay_file", "replay_command"}]}``. A finding counts against every invariant broken on
    its failing step (the first gives its key). ``text`` is the whole report of the finding
    (:func:`harness.report.describe_finding`): rules, rulings, shrunk scenario, replay file
    and the command that replays it (``replay_command`` with ``{file}`` in it).
    """
    stats = result.stats
    names = list(dict.fromkeys([*result.invariants,
                                *(v.invariant for f in result.findings for v in f.violations)]))
    cases = []
    for name in names:
        inv = REGISTRY.get(name)
        found = [f for f in result.findings if any(v.invariant == name for v in f.violations)]
        entries = []
        for finding in found:
            violation = next(v for v in finding.violations if v.invariant == name)
            rules = f"CR {', '.join(inv.rules)}: " if inv is not None and inv.rules else ""
            where = f" (replay file {finding.replay_path})" if finding.replay_path else ""
            entries.append({
                "key": finding.key, "known": finding.known,
                "message": f"{finding.key} at step {violation.step}: {rules}"
                           f"{violation.messages[0] if violation.messages else ''}{where}",
                "text": report.describe_finding(finding, replay_command),
                "replay_file": str(finding.replay_path) if finding.replay_path else None,
                "replay_command": (replay_command.format(file=finding.replay_path)
                                   if replay_command and finding.replay_path else None),
            })
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
    return cases


def junit_xml(result, engine_name: str, replay_command: str = "", properties: dict | None = None,
              error: str | None = None) -> ET.ElementTree:
    """The JUnit XML tree of a run: one ``<testcase>`` per invariant (:func:`invariant_cases`).

    ``properties`` (e.g. the seed and budgets) become ``<property name value>`` elements;
    ``error`` (the run tested nothing: most examples declined) adds a test case ``run``
    with an ``<error>``. Times are the run's wall time in seconds, on the suite.
    """
    cases = invariant_cases(result, replay_command)
    failures = sum(c["status"] == "failed" for c in cases)
    skipped = sum(c["status"] == "known" for c in cases)
    counts = {"tests": str(len(cases) + (error is not None)), "failures": str(failures),
              "errors": str(int(error is not None)), "skipped": str(skipped), "time": f"{result.seconds:.3f}"}
    root = ET.Element("testsuites", {"name": "rulesfuzz", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": f"rulesfuzz.{engine_name}", **counts})
    props = ET.SubElement(suite, "properties")
    for name, value in {"rulesfuzz_version": report.version(), "examples": result.stats.examples,
                        "steps": result.stats.steps, "cut_short": result.cut_short, **(properties or {})}.items():
        if value is not None:
            ET.SubElement(props, "property", {"name": name, "value": str(value)})
    classname = f"rulesfuzz.{engine_name}"
    for case in cases:
        element = ET.SubElement(suite, "testcase", {"classname": classname, "name": case["name"], "time": "0"})
        if case["status"] == "failed":
            new = [e for e in case["findings"] if e["known"] is None]
            failure = ET.SubElement(element, "failure", {"message": new[0]["message"], "type": new[0]["key"]})
            failure.text = "\n\n".join(e["text"] for e in new)
        elif case["status"] == "known":
            reasons = "; ".join(f"{e['key']}: {e['known']}" for e in case["findings"])
            ET.SubElement(element, "skipped", {"message": f"known finding (baseline): {reasons}"})
        rules = f"CR {', '.join(case['rules'])}; " if case["rules"] else ""
        ET.SubElement(element, "system-out").text = (
            f"{rules}checked {case['checked']} times, applied {case['applicable']} times")
    if error is not None:
        element = ET.SubElement(suite, "testcase", {"classname": classname, "name": "run", "time": "0"})
        ET.SubElement(element, "error", {"message": error, "type": "declined"})
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(path, tree: ET.ElementTree) -> Path:
    """Write ``tree`` to ``path`` (UTF-8, with an XML declaration); returns the path. Raises OSError."""
    path = Path(path)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return path
