"""``rulesfuzz run --no-shrink``: a finding is reported as it was found, neither shrunk nor reduced.

It is still a finding (exit 1, its violation printed, a replay file that replays it); the
summary says it was not shrunk, and no example runs in Hypothesis's shrink phase (the summary's
example breakdown names those: "run while shrinking a finding"). Misused (a value, or a value
of the wrong type in ``[tool.rulesfuzz]``) it is bad usage: one line, exit 2.
"""

from __future__ import annotations

import json

import pytest

from harness.interfaces.cli import main

from .conftest import FORKS, ROOT, one_error_line, project

TINY_BUGGY = f"{ROOT / 'examples/engines/tiny/engine.py'}:buggy"
NOT_SHRUNK = "Not shrunk (--no-shrink)"
SHRINKING = "run while shrinking a finding"  # the example breakdown's part for the shrink phase


def _run(engine: str, folder, *extra) -> tuple[int, dict]:
    code = main(["run", "--engine", engine, "--max-examples", "30", "--replay-dir", str(folder / "replays"),
                 "--database", "none", "--quiet", "--json", str(folder / "run.json"), *map(str, extra)])
    return code, json.loads((folder / "run.json").read_text())


def test_a_finding_not_shrunk_is_still_reported_with_its_replay_file(tmp_path, capsys):
    """The tiny engine's planted bugs, with and without --no-shrink (seed 0): the same finding,
    found at the same example (shrinking starts after it), shrunk only without the option."""
    (tmp_path / "shrunk").mkdir()
    (tmp_path / "as-found").mkdir()
    # Hypothesis's engine: its shrink phase's examples are what the summary counts
    shrunk_code, shrunk = _run(TINY_BUGGY, tmp_path / "shrunk", "--hypothesis")
    shrunk_out = capsys.readouterr().out
    code, report = _run(TINY_BUGGY, tmp_path / "as-found", "--hypothesis", "--no-shrink")
    out = capsys.readouterr().out
    assert shrunk_code == code == 1 and report["status"] == "findings" and report["exit_code"] == 1
    assert SHRINKING in shrunk_out and NOT_SHRUNK not in shrunk_out  # what tells the two apart
    assert SHRINKING not in out and NOT_SHRUNK in out and "VIOLATION " in out
    [finding] = report["findings"]
    assert [f["key"] for f in shrunk["findings"]] == [finding["key"]]
    assert shrunk["findings"][0]["examples_to_find"] == finding["examples_to_find"]
    files = list((tmp_path / "as-found" / "replays").glob("*.json"))
    assert [str(f) for f in files] == [finding["replay_file"]]
    assert main(["replay", str(files[0]), "--engine", TINY_BUGGY]) == 1
    assert f"VIOLATION {finding['scenario']['violation']['invariant']}" in capsys.readouterr().out
    assert main(["replay", str(files[0]), "--engine", "reference"]) == 0  # the bug is the engine's


def test_a_fork_finding_not_shrunk_replays_to_the_same_violation(tmp_path, capsys):
    """A fork of the reference engine (umbra armor that taps the creature it saves, CR 702.89a):
    the example as found, every event of it, is written and replays; the reference engine passes it."""
    spec = f"{FORKS / 'umbra_taps_creature.py'}:engine"
    code, report = _run(spec, tmp_path, "--no-shrink", "--seed", 2, "--max-examples", 500)
    out = capsys.readouterr().out
    assert code == 1 and NOT_SHRUNK in out and SHRINKING not in out
    [finding] = report["findings"]
    assert finding["key"].startswith("umbra_armor.")
    assert main(["replay", finding["replay_file"], "--engine", spec]) == 1
    assert f"VIOLATION {finding['scenario']['violation']['invariant']}" in capsys.readouterr().out
    assert main(["replay", finding["replay_file"], "--engine", "reference"]) == 0


def test_no_shrink_in_the_settings_file(tmp_path, monkeypatch, capsys):
    """``no-shrink = true`` in [tool.rulesfuzz] is --no-shrink."""
    project(tmp_path, f'[tool.rulesfuzz]\nengine = "{TINY_BUGGY}"\nno-shrink = true\ndatabase = "none"\nquiet = true\n')
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--max-examples", "30"]) == 1
    out = capsys.readouterr().out
    assert NOT_SHRUNK in out and SHRINKING not in out


def test_no_shrink_takes_no_value(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["run", "--engine", "reference", "--no-shrink=yes"])
    assert exc.value.code == 2
    line = one_error_line(capsys)
    assert "--no-shrink: ignored explicit argument 'yes'" in line and "--help" in line


def test_no_shrink_in_the_settings_file_must_be_true_or_false(tmp_path, monkeypatch, capsys):
    project(tmp_path, '[tool.rulesfuzz]\nengine = "reference"\nno-shrink = "yes"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["run"]) == 2
    line = one_error_line(capsys)
    assert "no-shrink = 'yes': expected true or false" in line
