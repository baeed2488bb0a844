"""What a new user meets first: bad scenario files, bad output paths and the run's summary line.

Each case is one the command line must answer with one clear line and exit 2 (bad input),
or, for a finding, never with "No violation".
"""

from __future__ import annotations

import json

import pytest

from harness.interfaces.cli import main

from .conftest import FORKS, ROOT, one_error_line

WRATH = ROOT / "examples/scenarios/wrath_with_two_umbras.json"
FORK = f"{FORKS / 'umbra_taps_creature.py'}:engine"


def run_cli(*args) -> int:
    return main([str(a) for a in args])


def _wrath() -> dict:
    return json.loads(WRATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name, content, words", [
    ("binary", bytes(range(256)), "not UTF-8"),
    ("utf16", json.dumps(_wrath()).encode("utf-16"), "not UTF-8"),
    ("nested", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
])
def test_unreadable_scenario_bytes_are_bad_input(name, content, words, tmp_path, capsys):
    path = tmp_path / f"{name}.json"
    path.write_bytes(content)
    assert run_cli("replay", path, "--engine", "reference") == 2
    line = one_error_line(capsys)
    assert words in line and str(path) in line


def test_unknown_event_type_in_a_scenario_is_bad_input(tmp_path, capsys):
    """An event outside the protocol's vocabulary is a malformed file, not an engine's refusal
    (which would make the expectations fail and exit 1)."""
    data = _wrath()
    data["steps"][0]["event"] = {"type": "teleport", "object": "bears"}
    path = tmp_path / "teleport.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run_cli("replay", path, "--engine", "reference") == 2
    line = one_error_line(capsys)
    assert "steps/0/event/type" in line and "'teleport'" in line


def test_json_report_into_a_missing_folder_is_bad_input_before_the_run(tmp_path, capsys):
    target = tmp_path / "no-such-folder" / "run.json"
    assert run_cli("run", "--engine", "reference", "--max-examples", 5, "--database", "none", "--quiet",
                   "--replay-dir", tmp_path, "--json", target) == 2
    line = one_error_line(capsys)
    assert "--json" in line and "no-such-folder" in line
    assert "rulesfuzz: fuzzing" not in capsys.readouterr().out  # refused before fuzzing


@pytest.mark.parametrize("make", ["file", "under_a_file"])
def test_replay_dir_that_cannot_be_a_folder_is_bad_input_before_the_run(make, tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("")
    replay_dir = afile if make == "file" else afile / "replays"
    assert run_cli("run", "--engine", FORK, "--max-examples", 50, "--database", "none", "--quiet",
                   "--replay-dir", replay_dir) == 2
    assert "--replay-dir" in one_error_line(capsys)


def test_a_finding_is_never_summed_up_as_no_violation(tmp_path, capsys, outside_coverage):
    # Two events per example and --no-shrink: the summary line is what is tested, the same for the
    # finding shrunk or as found (shrinking it was most of the test's 6 s under coverage).
    code = run_cli("run", "--engine", FORK, "--max-examples", 200, "--database", "none", "--quiet",
                   "--replay-dir", tmp_path, "--steps", 2, "--no-shrink")
    out = capsys.readouterr().out
    assert code == 1, out
    assert "VIOLATION umbra_armor." in out
    assert "No violation" not in out


def test_readme_documents_every_command_and_run_option():
    """A new user learns the command line from README.md: every subcommand and every option of
    `rulesfuzz run` is there."""
    import argparse

    from harness.interfaces.cli import build_parser

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    missing = [f"rulesfuzz {name}" for name in commands if f"rulesfuzz {name}" not in readme]
    missing += [opt for action in commands["run"]._actions for opt in action.option_strings
                if opt.startswith("--") and opt != "--help" and opt not in readme]
    assert not missing, f"README.md doesn't mention {missing}"


NO_GAME_ENGINE = """
from harness.protocol import EngineInfo


class ReturnsNoGame:
    info = EngineInfo(name="no-game", version="1", capabilities=frozenset({"destroy"}))

    def new_game(self, board):
        return None


engine = ReturnsNoGame()
"""


def test_new_game_returning_no_game_is_a_finding_with_a_replay_file(tmp_path, capsys):
    """An engine whose new_game returns None broke the protocol on the board: a finding at step 0
    with its replay file (was a traceback and exit 1 with nothing written)."""
    engine_file = tmp_path / "no_game.py"
    engine_file.write_text(NO_GAME_ENGINE, encoding="utf-8")
    spec = f"{engine_file}:engine"
    tmp_path = tmp_path / "replays"
    assert run_cli("run", "--engine", spec, "--max-examples", 5, "--database", "none", "--quiet",
                   "--replay-dir", tmp_path) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert "VIOLATION generic.observation_shape at step 0" in out.out and "not a game" in out.out
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1
    assert run_cli("replay", files[0], "--engine", spec) == 1
