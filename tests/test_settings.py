"""Settings in [tool.rulesfuzz] of the user's pyproject.toml, profiles (--profile gate / explore /
the user's), command-line precedence, and bad settings as one line with exit 2. The engine
named in the settings is the tiny engine written from scratch (examples/engines/tiny)."""

from __future__ import annotations

import json

import pytest

from harness.interfaces.cli import build_parser, main
from harness.interfaces.config import BUILTIN_PROFILES, find_pyproject, load_settings

from .conftest import ROOT, one_error_line, project

TINY = str(ROOT / "examples/engines/tiny/engine.py")


def run_parser():
    import argparse

    parser = build_parser()
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["run"]


def test_settings_from_the_nearest_pyproject_with_the_command_line_overriding(tmp_path, monkeypatch, capsys):
    project(tmp_path, f'[tool.rulesfuzz]\nengine = "{TINY}:engine"\nmax-examples = 6\ndatabase = "none"\n'
                      f'replay-dir = "out/replays"\njson = "out/run.json"\nquiet = true\n')
    (tmp_path / "out").mkdir()
    inner = tmp_path / "src" / "deep"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)  # found from the working folder upward; paths relative to the file's folder
    assert find_pyproject() == tmp_path / "pyproject.toml"
    assert main(["run"]) == 0
    report = json.loads((tmp_path / "out" / "run.json").read_text())
    assert report["engine"]["name"] == "tiny"
    assert report["options"]["max_examples"] == 6
    assert report["options"]["replay_dir"] == str(tmp_path / "out" / "replays")
    assert main(["run", "--max-examples", "4"]) == 0  # the command line wins
    assert json.loads((tmp_path / "out" / "run.json").read_text())["options"]["max_examples"] == 4


def test_an_exec_engine_of_the_settings_starts_from_any_working_folder(tmp_path, monkeypatch, capsys):
    """`engine = "exec:node engines/engine.js"`: the file is found from the pyproject.toml's folder
    (the Node.js example engine, written from scratch), as a path/to/file.py:attr engine is; the
    command (node) is still looked up in PATH, even beside a folder of that name, and words that
    name no file are kept as they are (quoted ones too)."""
    import shutil

    if shutil.which("node") is None:
        pytest.fail("node is not installed; .ci/run installs it")
    (tmp_path / "engines").mkdir()
    (tmp_path / "engines" / "engine.js").symlink_to(ROOT / "examples/engines/node/engine.js")
    (tmp_path / "node").mkdir()
    inner = tmp_path / "src"
    inner.mkdir()
    monkeypatch.chdir(inner)
    project(tmp_path, '[tool.rulesfuzz]\nengine = "exec:node engines/engine.js --bug \'not a file\'"\n')
    settings, _ = load_settings(run_parser())
    assert settings["engine"] == f"exec:node {tmp_path / 'engines' / 'engine.js'} --bug 'not a file'"
    project(tmp_path, '[tool.rulesfuzz]\nengine = "exec:node engines/engine.js"\nmax-examples = 3\n'
                      'database = "none"\nreplay-dir = "replays"\nquiet = true\n')
    assert main(["run"]) == 0, capsys.readouterr().err


def test_a_user_profile_extends_the_built_in_gate_profile(tmp_path, monkeypatch, capsys):
    project(tmp_path, f'[tool.rulesfuzz]\nengine = "{TINY}:engine"\ndatabase = "none"\nseed = 5\n\n'
                      f'[tool.rulesfuzz.profiles.gate]\nmax-examples = 8\njunit-xml = "gate.xml"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--profile", "gate", "--json", "gate.json", "--quiet"]) == 0
    options = json.loads((tmp_path / "gate.json").read_text())["options"]
    # From the built-in gate profile: a fixed seed (over the file's seed 5) and --keep-going;
    # from the user's gate profile: the budget and the JUnit report.
    assert (options["seed"], options["keep_going"], options["max_examples"]) == (0, True, 8)
    assert (tmp_path / "gate.xml").is_file()


def test_built_in_profiles_gate_is_deterministic_and_explore_is_larger():
    gate, _ = load_settings(run_parser(), "gate", start=ROOT / "examples")
    explore, _ = load_settings(run_parser(), "explore", start=ROOT / "examples")
    assert gate["seed"] == 0 and "max_seconds" not in gate  # a fixed seed, a budget in examples only
    assert gate["keep_going"] and explore["keep_going"]
    assert explore["max_examples"] > gate["max_examples"] and explore["max_seconds"] > 0
    assert explore["workers"] == "auto"
    # both explore, as every run does by default (issue "Speed"); neither asks for Hypothesis's engine
    assert not {"explore", "hypothesis"} & (set(gate) | set(explore))
    assert set(BUILTIN_PROFILES) == {"gate", "explore"}


@pytest.mark.parametrize("text, argv, words", [
    ('[tool.rulesfuzz]\nmax-exampels = 3\n', [], "unknown key 'max-exampels'"),
    ('[tool.rulesfuzz]\nmax-examples = "many"\n', [], "max-examples = 'many'"),
    ('[tool.rulesfuzz]\nmax-examples = 0\n', [], "expected a positive number"),
    ('[tool.rulesfuzz]\nmax-examples = 1.5\n', [], "max-examples = 1.5: expected a whole number"),
    ('[tool.rulesfuzz]\nkeep-going = "yes"\n', [], "expected true or false"),
    ('[tool.rulesfuzz]\ninvariant = "generic.determinism"\n', [], "expected a list of strings"),
    ('[tool.rulesfuzz]\nseed = [1]\n', [], "expected a string or a number"),
    ('[tool.rulesfuzz.profiles.nightly]\nstep = 3\n', [], "[tool.rulesfuzz.profiles.nightly]: unknown key 'step'"),
    ('[tool.rulesfuzz]\nprofiles = 3\n', [], "must hold tables"),
    ('[tool.rulesfuzz]\nseed = 1\n', ["--profile", "nightly"], "--profile nightly: no such profile; known: explore, gate"),
    ('[tool.rulesfuzz\nseed = 1\n', [], "not valid TOML"),
])
def test_bad_settings_are_one_line_exit_2(text, argv, words, tmp_path, monkeypatch, capsys):
    project(tmp_path, text)
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--engine", f"{TINY}:engine", "--database", "none", *argv]) == 2
    line = one_error_line(capsys)
    assert words in line and "pyproject.toml" in line or argv, line


def test_settings_apply_only_to_run(tmp_path, monkeypatch, capsys):
    project(tmp_path, '[tool.rulesfuzz]\nbogus = 1\n')
    monkeypatch.chdir(tmp_path)
    assert main(["invariants"]) == 0  # other commands don't read [tool.rulesfuzz]
