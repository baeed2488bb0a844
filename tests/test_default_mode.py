"""Exploration is the default generator of `rulesfuzz run` and of the pytest plugin's item;
Hypothesis's engine is one option away (`--hypothesis`, `hypothesis = true`), and the two
together are bad usage (issue "Speed", item 4: the quick bug-finding benchmark found every
mutant in both modes in fewer examples exploring; docs/running.md). The engine is the tiny
engine written from scratch (examples/engines/tiny)."""

from __future__ import annotations

import json

import pytest

from harness.interfaces.cli import main

from .conftest import ROOT, one_error_line, project

TINY = str(ROOT / "examples/engines/tiny/engine.py")

pytest_plugins = ["pytester"]


def _run(tmp_path, *extra) -> tuple[int, dict]:
    report = tmp_path / "run.json"
    code = main(["run", "--engine", f"{TINY}:engine", "--max-examples", "12", "--database", "none", "--quiet",
                 "--replay-dir", str(tmp_path / "replays"), "--json", str(report), *extra])
    return code, json.loads(report.read_text())


@pytest.mark.parametrize("extra, explored", [((), True), (("--explore",), True), (("--hypothesis",), False)])
def test_a_run_explores_unless_told_to_use_hypothesis(tmp_path, capsys, monkeypatch, extra, explored):
    from harness.running import drivers

    chunks = {"explore": 0, "hypothesis": 0}
    for name, cls in (("explore", drivers.ExploreDriver), ("hypothesis", drivers.HypothesisDriver)):
        def counted(self, run, n, index, _real=cls.run_chunk, _name=name):
            chunks[_name] += 1
            return _real(self, run, n, index)
        monkeypatch.setattr(cls, "run_chunk", counted)
    code, report = _run(tmp_path, *extra)
    out = capsys.readouterr().out
    assert code == 0, out
    assert report["options"]["explore"] is explored
    assert (chunks["explore"] > 0, chunks["hypothesis"] > 0) == (explored, not explored)
    # the summary counts Hypothesis's examples as generated
    final = next(line for line in out.splitlines() if line.startswith("No violation in "))
    assert ("12 generated within the --max-examples budget" in final) is not explored, final


@pytest.mark.parametrize("argv, text", [
    (["--explore", "--hypothesis"], ""),
    ([], "[tool.rulesfuzz]\nexplore = true\nhypothesis = true\n"),
    (["--hypothesis"], "[tool.rulesfuzz]\nexplore = true\n"),
])
def test_exploring_and_hypothesis_together_are_one_line_exit_2(tmp_path, monkeypatch, capsys, argv, text):
    if text:
        project(tmp_path, text)
    monkeypatch.chdir(tmp_path)
    code = main(["run", "--engine", f"{TINY}:engine", "--max-examples", "3", "--database", "none", *argv])
    assert code == 2
    line = one_error_line(capsys)
    assert "--explore and --hypothesis" in line and "choose one" in line


def test_hypothesis_in_the_settings_file_selects_hypothesiss_engine(tmp_path, monkeypatch, capsys):
    project(tmp_path, "[tool.rulesfuzz]\nhypothesis = true\n")
    monkeypatch.chdir(tmp_path)
    code, report = _run(tmp_path)
    assert code == 0 and report["options"]["explore"] is False
    assert "12 generated within the --max-examples budget" in capsys.readouterr().out


def _item(pytester, *extra):
    pytester.makepyfile("def test_nothing():\n    pass\n")
    return pytester.runpytest("-p", "no:xdist", f"--rulesfuzz-engine={TINY}:engine", "--rulesfuzz-examples=8",
                              "--rulesfuzz-database=none", "--rulesfuzz-replay-dir", str(pytester.path / "r"),
                              "-p", "no:cacheprovider", *extra)


def test_the_plugins_item_explores_unless_hypothesis_is_set(pytester, monkeypatch):
    seen = []
    import harness.running.runner as runner

    real = runner.run

    def spy(engine, settings=None, **kwargs):
        seen.append(settings.explore)
        return real(engine, settings, **kwargs)

    monkeypatch.setattr(runner, "run", spy)
    assert _item(pytester).ret == 0
    pytester.makepyprojecttoml("[tool.rulesfuzz]\nhypothesis = true\n")
    assert _item(pytester).ret == 0
    assert seen == [True, False]
    pytester.makepyprojecttoml("[tool.rulesfuzz]\nhypothesis = true\nexplore = true\n")
    both = _item(pytester)
    assert both.ret == 4  # pytest's usage error
    assert any("explore and hypothesis" in line and "choose one" in line for line in both.stderr.lines)


def test_the_gate_profile_explores_deterministically(tmp_path, monkeypatch, capsys):
    """`--profile gate` (seed 0, a budget in examples) on the tiny engine's buggy variant: two runs
    give the same findings, found at the same examples, with the same reduced scenarios."""
    monkeypatch.chdir(tmp_path)
    reports = []
    for name in ("first", "second"):
        report = tmp_path / f"{name}.json"
        code = main(["run", "--profile", "gate", "--engine", f"{TINY}:buggy", "--max-examples", "60",
                     "--database", "none", "--quiet", "--replay-dir", str(tmp_path / name), "--json", str(report)])
        assert code == 1, capsys.readouterr().out
        reports.append(json.loads(report.read_text()))
    first, second = ([(f["key"], f["examples_to_find"], f["scenario"]["steps"], f["scenario"]["board"])
                      for f in r["findings"]] for r in reports)
    assert first and first == second
    assert reports[0]["options"]["explore"] is True and reports[0]["options"]["seed"] == 0
    assert reports[0]["stats"]["steps"] == reports[1]["stats"]["steps"]
