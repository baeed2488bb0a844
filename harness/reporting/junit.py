"""CI reports: a run as one test case per invariant, in JUnit XML (``--junit-xml FILE``) and JSON.

CI systems (GitHub Actions, GitLab, Jenkins) show JUnit XML as test results, so a rules
bug shows up like a failing test: the test case of the invariant it breaks fails, with
the CR rules and rulings the invariant encodes, the shrunk scenario, the replay file and
the command that replays it. :func:`harness.reporting.report.invariant_cases` is what both the XML
and the ``invariants`` list of the ``--json`` report (:func:`harness.reporting.report.run_report`) are made from.

The XML follows the common JUnit shape (the schema Jenkins and the
``junit-10.xsd`` of Apache Ant use): ``<testsuites>`` holding one ``<testsuite>``, one
``<testcase classname="rulesfuzz.<engine>" name="<invariant>">`` per invariant, each with
at most one ``<failure message type>`` or ``<skipped message>`` (a finding the baseline
knows: exit 0) and a ``<system-out>`` saying how often it was checked and applied.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import overload

from harness.reporting import report
from harness.reporting.report import invariant_cases

__all__ = ["invariant_cases", "junit_xml", "write_junit"]


def junit_xml(result, engine_name: str, replay_command: str = "", properties: dict | None = None,
              error: str | None = None, error_type: str = "declined") -> ET.ElementTree:
    """The JUnit XML tree of a run: one ``<testcase>`` per invariant (:func:`invariant_cases`).

    ``properties`` (e.g. the seed and budgets) become ``<property name value>`` elements;
    ``error`` (the run tested nothing: most examples declined, or the time budget ran out
    before the first step: ``error_type`` ``"declined"`` or ``"untested"``; or the run failed
    before its end, a ``--workers`` process died or raised: ``"failed"``) adds a test case
    ``run`` with an ``<error>`` of that type: its first line is the message, the whole of it
    (a traceback) the text. Times are the run's wall time in seconds, on the suite.
    """
    cases = invariant_cases(result, replay_command)
    failures = sum(c["status"] == "failed" for c in cases)
    skipped = sum(c["status"] in ("known", "skipped") for c in cases)
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
        elif case["status"] == "skipped":
            ET.SubElement(element, "skipped", {"message": "not checked: --skip-invariant (a known gap of the engine)"})
        rules = f"CR {', '.join(case['rules'])}; " if case["rules"] else ""
        ET.SubElement(element, "system-out").text = (
            f"{rules}checked {case['checked']} times, applied {case['applicable']} times")
    if error is not None:
        element = ET.SubElement(suite, "testcase", {"classname": classname, "name": "run", "time": "0"})
        failure = ET.SubElement(element, "error", {"message": error.splitlines()[0] if error else "", "type": error_type})
        if "\n" in error:
            failure.text = error
    ET.indent(root)
    for node in root.iter():  # an engine's output may hold control characters (ANSI colours, NUL)
        node.text, node.tail = _xml_chars(node.text), _xml_chars(node.tail)
        node.attrib = {name: _xml_chars(value) for name, value in node.attrib.items()}
    return ET.ElementTree(root)


#: Characters XML 1.0 doesn't allow (https://www.w3.org/TR/xml/#charsets): C0 controls but
#: tab, newline and carriage return; surrogates; U+FFFE, U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@overload
def _xml_chars(text: str) -> str: ...
@overload
def _xml_chars(text: None) -> None: ...
def _xml_chars(text: str | None) -> str | None:
    """``text`` with each character XML 1.0 doesn't allow written as ``\\xNN`` (``\\x1b[31m``
    of a coloured log line): ElementTree writes them as they are, and no XML parser reads that."""
    if text is None:
        return None
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


def write_junit(path, tree: ET.ElementTree) -> Path:
    """Write ``tree`` to ``path`` (UTF-8, with an XML declaration); returns the path. Raises OSError."""
    path = Path(path)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return path
