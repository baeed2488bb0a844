"""The exit-code contract of every command (README "Exit codes"), and bad input as one line with exit 2."""

from __future__ import annotations

import json

import pytest

from harness.cli import main
from harness.runner import run

from .conftest import FORKS, ROOT

FORK = f"{FORKS / 'umbra_taps_creature.py'}:engine"


def one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, captured.err
    return lines[0]


def test_steps_1_runs_one_event_and_finds_a_one_event_bug(reference, tmp_path, capsys):
    """Was: --steps 1 ran no event at all, and the buggy fork passed with exit 0."""
    assert run(reference, max_examples=10, steps_per_example=1, database=None).stats.steps >= 5
    assert main(["run", "--engine", FORK, "--steps", "1", "--max-examples", "300", "--seed", "1", "--database",
                 "none", "--quiet", "--replay-dir", str(tmp_path)]) == 1


def test_the_differential_invariant_without_against_is_bad_usage(tmp_path, capsys):
    assert main(["run", "--engine", "reference", "--invariant", "differential.matches_reference",
                 "--replay-dir", str(tmp_path)]) == 2
    assert "needs --against" in one_error_line(capsys)


@pytest.mark.parametrize("spec, words", [
    ("bogus://x", "unknown scheme 'bogus'"),
    ("redis://127.0.0.1:1/0", "no Redis server answers"),
    ("{file}", "is a file"),
    ("/proc/rulesfuzz-db", "can't write there"),
])
def test_an_unusable_database_is_bad_input(spec, words, tmp_path, capsys):
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    assert main(["run", "--engine", "reference", "--database", spec.format(file=a_file),
                 "--replay-dir", str(tmp_path / "out")]) == 2
    assert words in one_error_line(capsys)
    assert not (tmp_path / "bogus:").exists()


def test_replay_dir_that_is_a_file_and_json_into_a_missing_folder_are_bad_input(tmp_path, capsys):
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    assert main(["run", "--engine", "reference", "--replay-dir", str(a_file)]) == 2
    assert "is a file" in one_error_line(capsys)
    assert main(["run", "--engine", "reference", "--replay-dir", str(tmp_path), "--json",
                 str(tmp_path / "missing" / "run.json")]) == 2
    assert "no folder" in one_error_line(capsys)


@pytest.mark.parametrize("content, words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "not UTF-8"),
    ('{"format": "rulesfuzz-scenario/1"}'.encode("utf-16"), "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
])
def test_binary_utf16_and_deeply_nested_scenario_files_are_bad_input(content, words, tmp_path, capsys):
    path = tmp_path / "odd.json"
    path.write_bytes(content)
    assert main(["replay", str(path), "--engine", "reference"]) == 2
    assert words in one_error_line(capsys)


def test_a_bug_of_rulesfuzz_itself_exits_3_with_a_bug_report_hint(monkeypatch, tmp_path, capsys):
    import harness.runner

    def broken(*args, **kwargs):
        raise AttributeError("'NoneType' object has no attribute 'steps'")

    monkeypatch.setattr(harness.runner, "run", broken)
    assert main(["run", "--engine", "reference", "--replay-dir", str(tmp_path), "--database", "none"]) == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "please report it" in err


def test_readme_lists_the_exit_codes_of_every_command():
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Exit codes"):]
    for row in ("| `run` | 0 |", "| `run` | 1 |", "| `run` | 2 |", "| `run` | 3 |", "| `run` | 130 |",
                "| `replay` | 0 |", "| `replay` | 1 |", "| `replay` | 2 |",
                "| `check` | 0 |", "| `check` | 1 |", "| `check` | 2 |"):
        assert row in table, row
    from harness.report import STATUS_EXIT

    assert set(STATUS_EXIT.values()) == {0, 1, 2, 130}
    assert json.loads((ROOT / "harness/schema/run-report.schema.json").read_text())[
        "properties"]["exit_code"]["enum"] == [0, 1, 2, 130]
