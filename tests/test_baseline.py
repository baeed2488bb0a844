"""Regression baselines (``--baseline``, ``rulesfuzz baseline --from``) and folders of scenarios (``replay DIR``)."""

from __future__ import annotations

import json
import shutil

import pytest

from harness.interfaces.cli import main

from .conftest import FORKS, ROOT

FORK = f"{FORKS / 'umbra_taps_creature.py'}:engine"


def run_fork(folder, *extra, database="none") -> int:
    # --no-shrink: baselines match findings by key (shrinking keeps it) and a replay folder replays
    # whatever its files hold; nothing here depends on a finding's size.
    return main(["run", "--engine", FORK, "--max-examples", "300", "--seed", "1", "--replay-dir",
                 str(folder / "replays"), "--database", str(database), "--quiet", "--no-shrink", *map(str, extra)])


@pytest.fixture(scope="module")
def found(tmp_path_factory):
    """One run of the fork from an empty example database: its folder holds ``run.json``, the replay file
    in ``replays/`` and the database ``db``. Later runs given that database replay the saved failure first
    (as CI runs with a shared database do) instead of finding it again."""
    folder = tmp_path_factory.mktemp("found")
    assert run_fork(folder, "--json", folder / "run.json", database=folder / "db") == 1
    return folder


def test_a_baseline_from_a_run_report_makes_the_same_findings_known(found, tmp_path, capsys):
    key = json.loads((found / "run.json").read_text())["findings"][0]["key"]
    assert main(["baseline", "--from", str(found / "run.json"), "--output", str(tmp_path / "base.json")]) == 0
    baseline = json.loads((tmp_path / "base.json").read_text())
    assert [f["key"] for f in baseline["findings"]] == [key] and baseline["findings"][0]["reason"]
    capsys.readouterr()
    # Known findings are still reported, and the run passes.
    assert run_fork(tmp_path, "--baseline", tmp_path / "base.json", "--json", tmp_path / "again.json",
                    database=found / "db") == 0
    out = capsys.readouterr().out
    assert "KNOWN (baseline:" in out and f"VIOLATION {key.split('[')[0]}" in out
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["status"] == "known_findings_only" and again["exit_code"] == 0
    assert again["findings"][0]["known"] == baseline["findings"][0]["reason"]
    # A baseline that knows something else does not hide the finding.
    other = {"format": "rulesfuzz-baseline/1", "findings": [{"key": "legend_rule.controller_chooses", "reason": "x"}]}
    (tmp_path / "other.json").write_text(json.dumps(other))
    assert run_fork(tmp_path, "--baseline", tmp_path / "other.json", database=found / "db") == 1


def test_bad_baselines_and_reports_are_bad_input(tmp_path, capsys):
    (tmp_path / "bad.json").write_text('{"format": "rulesfuzz-baseline/1", "findings": [{"key": "x"}]}')
    assert run_fork(tmp_path, "--baseline", tmp_path / "bad.json") == 2
    assert "'reason' is a required property" in capsys.readouterr().err
    assert main(["baseline", "--from", str(tmp_path / "bad.json")]) == 2
    assert "not a rulesfuzz run report" in capsys.readouterr().err
    assert main(["baseline", "--from", str(tmp_path / "absent.json")]) == 2


def test_replay_of_a_folder_replays_every_scenario(found, tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(ROOT / "examples/scenarios/wrath_with_two_umbras.json", corpus / "a_wrath.json")
    assert main(["replay", str(corpus), "--engine", "reference"]) == 0
    [replay_file] = (found / "replays").glob("*.json")
    shutil.copy(replay_file, corpus / "b_found.json")
    capsys.readouterr()
    assert main(["replay", str(corpus), "--engine", FORK]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "b_found.json" in out and "2 scenario(s)" in out
    assert main(["replay", str(corpus), "--engine", "reference"]) == 0  # the corpus passes on a correct engine
    (corpus / "c_bad.json").write_text("{not json")
    assert main(["replay", str(corpus), "--engine", "reference"]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["replay", str(empty), "--engine", "reference"]) == 2
