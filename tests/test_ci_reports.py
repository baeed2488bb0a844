"""CI reports: --junit-xml (one test case per invariant), the same in --json, --version, and a
finding replayed from the example database said to be so. Run on the tiny engine, written
from scratch (examples/engines/tiny/engine.py), whose planted bugs break CR 400.7 and 120.3a."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

import invariants as invariant_registry
from harness.interfaces.cli import main
from harness.reporting.report import run_report_schema

from .conftest import ROOT

TINY = str(ROOT / "examples/engines/tiny/engine.py")
BUGGY, CLEAN = f"{TINY}:buggy", f"{TINY}:engine"


def fuzz(tmp_path, engine, *extra, examples=60, database="none"):
    return main(["run", "--engine", engine, "--max-examples", str(examples), "--database", str(database), "--quiet",
                 "--replay-dir", str(tmp_path / "replays"), *map(str, extra)])


def junit_shape(path) -> ET.Element:
    """The suite of a JUnit XML file, after checking its shape: <testsuites> holding one
    <testsuite> whose counts match its <testcase>s, each with a classname and a name and at
    most one <failure>/<skipped>/<error>."""
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == 1
    suite = suites[0]
    cases = suite.findall("testcase")
    outcome = {"failure": 0, "skipped": 0, "error": 0}
    for case in cases:
        assert case.get("classname", "").startswith("rulesfuzz.") and case.get("name")
        verdicts = [child.tag for child in case if child.tag in outcome]
        assert len(verdicts) <= 1, ET.tostring(case)
        for tag in verdicts:
            outcome[tag] += 1
    for element in (root, suite):
        assert int(element.get("tests")) == len(cases)
        assert int(element.get("failures")) == outcome["failure"]
        assert int(element.get("skipped")) == outcome["skipped"]
        assert int(element.get("errors")) == outcome["error"]
        assert float(element.get("time")) >= 0
    names = [case.get("name") for case in cases]
    assert len(names) == len(set(names)), "one test case per invariant"
    return suite


KNOWN = "damage.player_loses_life"


@pytest.fixture(scope="module")
def buggy_run(tmp_path_factory):
    """One --keep-going run of the buggy tiny engine with a baseline that knows the CR 120.3a bug:
    (exit code, JUnit suite, JSON report, folder)."""
    folder = tmp_path_factory.mktemp("ci")
    (folder / "base.json").write_text(json.dumps({"format": "rulesfuzz-baseline/1", "findings": [
        {"key": KNOWN, "reason": "Shock's damage to a player: fixed in tiny 1.1"}]}))
    code = fuzz(folder, BUGGY, "--keep-going", "--baseline", folder / "base.json",
                "--junit-xml", folder / "r.xml", "--json", folder / "r.json")
    return code, junit_shape(folder / "r.xml"), json.loads((folder / "r.json").read_text()), folder


def test_junit_xml_fails_the_case_of_each_broken_invariant_with_rule_scenario_and_replay(buggy_run):
    code, suite, data, folder = buggy_run
    assert code == 1
    failed = {case.get("name"): case.find("failure") for case in suite.findall("testcase")
              if case.find("failure") is not None}
    new = "generic.damage_only_on_battlefield"
    assert new in failed and KNOWN not in failed, failed
    failure = failed[new]
    assert "CR 120.3, 400.7" in failure.get("message") and failure.get("type") == new
    replay_file = failure.get("message").rsplit("(replay file ", 1)[1].rstrip(")")
    assert Path(replay_file).parent.samefile(folder / "replays") and Path(replay_file).is_file()
    text = failure.text
    assert f"VIOLATION {new}" in text and "Rules: CR 120.3, 400.7" in text
    assert "Board:" in text and "Events:" in text  # the shrunk scenario
    assert text.rstrip().splitlines()[-1] == f"Replay it:   rulesfuzz replay {replay_file} --engine {BUGGY}"
    # The replay command of the report replays the bug: exit 1 on the buggy engine, 0 on the fixed one.
    assert main(["replay", replay_file, "--engine", BUGGY]) == 1
    assert main(["replay", replay_file, "--engine", CLEAN]) == 0
    # Every invariant the run checked is a test case; none the tiny engine's capabilities leave out.
    names = [case.get("name") for case in suite.findall("testcase")]
    assert set(data["stats"]["invariants"]) <= set(names)
    assert "umbra_armor.not_regeneration" not in names  # the tiny engine claims no umbra armor


def test_a_known_finding_is_a_skipped_test_case(buggy_run):
    _, suite, _, _ = buggy_run
    case = next(case for case in suite.findall("testcase") if case.get("name") == KNOWN)
    assert case.find("failure") is None
    assert "known finding (baseline): damage.player_loses_life: Shock's" in case.find("skipped").get("message")


def test_json_carries_the_same_test_cases_as_the_junit_xml(buggy_run):
    _, suite, data, _ = buggy_run
    jsonschema.validate(data, run_report_schema())
    by_name = {case["name"]: case for case in data["invariants"]}
    assert list(by_name) == [case.get("name") for case in suite.findall("testcase")]
    assert by_name[KNOWN]["status"] == "known"
    for case in suite.findall("testcase"):
        entry = by_name[case.get("name")]
        failure = case.find("failure")
        assert (entry["status"] == "failed") == (failure is not None)
        assert entry["rules"] == list(invariant_registry.REGISTRY[entry["name"]].rules)
        if failure is not None:
            assert entry["findings"][0]["message"] == failure.get("message")
            assert entry["findings"][0]["text"] == failure.text
    for finding in data["findings"]:
        assert finding["replay_command"] == f"rulesfuzz replay {finding['replay_file']} --engine {BUGGY}"


def test_a_clean_run_is_all_passing_test_cases(tmp_path, capsys):
    assert fuzz(tmp_path, CLEAN, "--junit-xml", tmp_path / "r.xml", examples=15) == 0
    suite = junit_shape(tmp_path / "r.xml")
    assert suite.findall("testcase") and all(len(case.findall("failure")) == 0 for case in suite.findall("testcase"))
    assert suite.get("failures") == "0"


@pytest.mark.parametrize("target, words", [("missing/r.xml", "no folder"), (".", "is a folder")])
def test_a_junit_xml_path_that_cant_be_written_is_one_line_exit_2(target, words, tmp_path, capsys):
    assert main(["run", "--engine", CLEAN, "--replay-dir", str(tmp_path), "--junit-xml", str(tmp_path / target)]) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "--junit-xml" in lines[0] and words in lines[0], err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("flag", ["--json", "--junit-xml"])
def test_a_report_that_fails_when_written_at_the_end_loses_no_finding(flag, tmp_path, capsys):
    """/dev/full passes the check before the run (a writable file in a folder) but every write to it
    fails (no space left on device), as a report on a disk that filled up during the run: one line,
    the finding still reported with its replay file and exit 1; the other report is still written;
    a clean run exits 2 (its report, asked for, is missing), never 3 with a traceback."""
    other = {"--json": ("--junit-xml", tmp_path / "r.xml"), "--junit-xml": ("--json", tmp_path / "r.json")}[flag]
    assert fuzz(tmp_path, BUGGY, flag, "/dev/full", *other, examples=30) == 1
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "/dev/full" in lines[0] and "can't write the report" in lines[0], err
    assert "Traceback" not in out + err and "VIOLATION" in out
    assert list((tmp_path / "replays").glob("tiny-buggy-*.json")) and other[1].stat().st_size > 0
    assert fuzz(tmp_path, CLEAN, flag, "/dev/full", examples=5) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1 and "/dev/full" in lines[0]


def test_version(capsys):
    import tomllib

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert capsys.readouterr().out.strip() == f"rulesfuzz {version}"


#: Each generator's finding replayed from the database: Hypothesis's as its first example (its
#: reuse phase), exploration's (the default) from its corpus before any example.
REPLAYED_AT = {"--hypothesis": 1, "--explore": 0}


@pytest.mark.parametrize("mode", sorted(REPLAYED_AT))
def test_a_failure_saved_in_the_example_database_is_said_to_be_replayed(tmp_path, capsys, mode):
    database = tmp_path / "db"
    assert fuzz(tmp_path, BUGGY, "--json", tmp_path / "first.json", mode, examples=40, database=database) == 1
    first = json.loads((tmp_path / "first.json").read_text())["findings"][0]
    assert not first["from_database"]
    assert "REPLAYED" not in capsys.readouterr().out
    # The next run with the same database replays the saved failure first, and says so.
    assert fuzz(tmp_path, BUGGY, "--json", tmp_path / "again.json", mode, examples=40, database=database) == 1
    again = json.loads((tmp_path / "again.json").read_text())["findings"][0]
    assert again["key"] == first["key"] and again["from_database"] and again["examples_to_find"] == REPLAYED_AT[mode]
    assert "REPLAYED from the example database" in capsys.readouterr().out
    # Another seed with an empty database finds bugs by generating them: not said to be replayed.
    assert fuzz(tmp_path, BUGGY, "--seed", "3", "--json", tmp_path / "fresh.json", mode, examples=40,
                database=tmp_path / "empty") == 1
    assert not json.loads((tmp_path / "fresh.json").read_text())["findings"][0]["from_database"]


DECLINING_ENGINE = """
from harness.protocol import EngineInfo, Unsupported


class Declining:
    info = EngineInfo(name="declining", version="1", capabilities=frozenset({"destroy", "damage"}))

    def new_game(self, board):
        raise Unsupported("board:anything", "this engine models nothing yet")


engine = Declining()
"""


def test_a_run_that_tested_nothing_is_an_error_test_case(tmp_path, capsys):
    """Most examples declined at once: exit 2 with one line, and the JUnit report says so as an error."""
    engine_file = tmp_path / "declining.py"
    engine_file.write_text(DECLINING_ENGINE, encoding="utf-8")
    assert fuzz(tmp_path, f"{engine_file}:engine", "--junit-xml", tmp_path / "r.xml", examples=2) == 2
    assert "declined" in capsys.readouterr().err
    suite = junit_shape(tmp_path / "r.xml")
    error = next(case for case in suite.findall("testcase") if case.get("name") == "run").find("error")
    assert "declining declined most examples" in error.get("message") and suite.get("errors") == "1"


COLOURED_LOG = """
import sys

sys.path.insert(0, {root!r})
from examples.engines.tiny.engine import BUGS, TinyEngine


class ColouredLog(TinyEngine):
    '''The buggy tiny engine, logging each event in colour (ANSI escapes) with a NUL byte.'''

    def new_game(self, board):
        game = super().new_game(board)
        apply = game.apply

        def logged(event, decider):
            print(f"\\x1b[31mapply\\x1b[0m {{event['type']}} \\x00\\x07")
            return apply(event, decider)

        game.apply = logged
        return game


engine = ColouredLog(bugs=BUGS)
"""


def test_control_characters_of_an_engine_s_output_leave_the_junit_xml_well_formed(tmp_path, capsys):
    """XML 1.0 allows no C0 control but tab and newlines: a finding's text, which carries the
    engine's last output lines, wrote ESC and NUL as they were and no CI could read the file."""
    path = tmp_path / "coloured.py"
    path.write_text(COLOURED_LOG.format(root=str(ROOT)))
    assert fuzz(tmp_path, f"{path}:engine", "--junit-xml", tmp_path / "r.xml", examples=30) == 1
    suite = junit_shape(tmp_path / "r.xml")  # parses
    text = "\n".join(f.text or "" for f in suite.iter("failure"))
    assert "\\x1b[31mapply\\x1b[0m" in text and "\\x00\\x07" in text
