"""The exit-code contract of every command (README "Exit codes"), and bad input as one line with exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib

import pytest

from harness.interfaces.cli import main
from harness.running.runner import run

from .conftest import FORKS, ROOT, one_error_line

FORK = f"{FORKS / 'umbra_taps_creature.py'}:engine"


def test_steps_1_runs_one_event_and_finds_a_one_event_bug(reference, tmp_path, capsys):
    """Was: --steps 1 ran no event at all, and the buggy fork passed with exit 0."""
    assert run(reference, max_examples=10, steps_per_example=1, database=None).stats.steps >= 5
    assert main(["run", "--engine", FORK, "--steps", "1", "--max-examples", "300", "--seed", "1", "--database",
                 "none", "--quiet", "--replay-dir", str(tmp_path), "--no-shrink"]) == 1  # the verdict, not its size


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


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc (Linux)")
def test_output_paths_where_no_file_can_be_made_are_bad_input_before_the_run(tmp_path, capsys):
    """No file can be made in /proc, though root passes its os.access check: found before the run
    (a finding's replay file could not be written there), not a traceback once the bug of the tiny
    engine (written from scratch) is found."""
    tiny = ROOT / "examples/engines/tiny/engine.py"
    assert main(["run", "--engine", f"{tiny}:buggy", "--replay-dir", "/proc/rulesfuzz-replays", "--database",
                 "none", "--max-examples", "50", "--quiet"]) == 2
    assert "--replay-dir /proc/rulesfuzz-replays" in one_error_line(capsys)
    for flag in ("--json", "--junit-xml"):  # the reports too, rather than at the end of the run
        assert main(["run", "--engine", f"{tiny}:buggy", "--replay-dir", str(tmp_path), flag, "/proc/report",
                     "--database", "none", "--max-examples", "50", "--quiet"]) == 2
        assert f"{flag} /proc/report" in one_error_line(capsys)


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
    import harness.running.runner

    def broken(*args, **kwargs):
        raise AttributeError("'NoneType' object has no attribute 'steps'")

    monkeypatch.setattr(harness.running.runner, "run", broken)
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
    from harness.reporting.report import STATUS_EXIT

    assert set(STATUS_EXIT.values()) == {0, 1, 2, 3, 130}
    assert json.loads((ROOT / "harness/schema/run-report.schema.json").read_text())[
        "properties"]["exit_code"]["enum"] == [0, 1, 2, 3, 130]


# ---------------------------------------------------------------- replay: refused steps and declines

TINY = f"{ROOT / 'examples/engines/tiny/engine.py'}:engine"


def murder_twice(step_extra: dict | None = None) -> dict:
    """Murder Grizzly Bears twice: the second has no legal target (CR 601.2c, 608.2b) and is refused."""
    murder = {"type": "cast", "card": "Murder", "controller": "P2", "targets": ["bears"]}
    return {"format": "rulesfuzz-scenario/2",
            "board": {"players": [{"id": "P1"}, {"id": "P2"}],
                      "objects": [{"id": "bears", "card": "Grizzly Bears", "owner": "P1"}]},
            "steps": [{"event": murder}, {"event": dict(murder), **(step_extra or {})}]}


@pytest.mark.parametrize("engine", ["reference", TINY])
def test_a_refused_step_fails_the_replay(engine, tmp_path, capsys):
    """Was: a step the engine refused (IllegalAction) replayed as "No violation", exit 0."""
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(murder_twice()))
    assert main(["replay", str(path), "--engine", engine]) == 1
    out = capsys.readouterr().out
    assert "REFUSED at step 2: the engine refused the event (IllegalAction" in out and "No violation" not in out


@pytest.mark.parametrize("engine", ["reference", TINY])
@pytest.mark.parametrize("extra", [{"illegal": True}, {"illegal": "not_on_battlefield"},
                                   {"expect": {"illegal": True}}])
def test_a_refused_step_that_says_illegal_passes(engine, extra, tmp_path, capsys):
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(murder_twice(extra)))
    assert main(["replay", str(path), "--engine", engine]) == 0, capsys.readouterr().out


def one_event(event: dict, objects: list | None = None) -> dict:
    return {"format": "rulesfuzz-scenario/2",
            "board": {"players": [{"id": "P1"}, {"id": "P2"}],
                      "objects": objects if objects is not None else [
                          {"id": "bears", "card": "Grizzly Bears", "owner": "P1"},
                          {"id": "rats", "card": "Typhoid Rats", "owner": "P2"}]},
            "steps": [{"event": event}]}


@pytest.mark.parametrize("engine", ["reference", TINY])
@pytest.mark.parametrize("event, words", [
    ({"type": "destory", "targets": ["bears"]}, "steps/0/event/type: unknown event type 'destory'"),
    ({"type": "cast", "card": "Lightening Bolt", "controller": "P2", "targets": ["bears"]},
     "steps/0/event/card: unknown card 'Lightening Bolt'"),
    ({"type": "cast", "card": "Grizzly Bears", "controller": "P2", "targets": []},
     "steps/0/event/card: Grizzly Bears is not an instant or sorcery"),
    ({"type": "damage", "source": "rats", "target": "bears", "amount": -2},
     "steps/0/event/amount: -2 is less than the minimum of 1"),
    ({"type": "add_counters", "object": "bears", "kind": "+1/+1", "amount": -1},
     "steps/0/event/amount: -1 is less than the minimum of 1"),
    ({"type": "damage", "source": "rats", "target": "bears"}, "steps/0/event: 'amount' is a required property"),
    ({"type": "put_onto_battlefield", "id": "new", "card": "Murder", "controller": "P1"},
     "steps/0/event/card: Murder is not a permanent card"),
])
def test_an_event_outside_the_vocabulary_is_bad_input(engine, event, words, tmp_path, capsys):
    """Was: the engine refused these (IllegalAction) and replay said "No violation", exit 0."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(one_event(event)))
    assert main(["replay", str(path), "--engine", engine]) == 2
    line = one_error_line(capsys)
    assert words in line and str(path) in line


@pytest.mark.parametrize("objects, words", [
    ([{"id": "f", "card": "Forest", "owner": "P1"}, {"id": "u", "card": "Boar Umbra", "owner": "P1",
                                                      "attached_to": "f"}],
     "board/objects/1/attached_to: Boar Umbra has 'enchant creature': 'f' is not a creature"),
    ([{"id": "m", "card": "Murder", "owner": "P1"}], "board/objects/0: Murder is not a permanent card"),
    ([{"id": "P1", "card": "Grizzly Bears", "owner": "P1"}], "board/objects/0/id: duplicate id 'P1'"),
    ([{"id": "b", "card": "Grizzly Bears", "owner": "P3"}], "board/objects/0/owner: 'P3' is not a player"),
    ([{"id": "b", "card": "Grizzly Bears", "owner": "P1", "zone": "hand", "tapped": True}],
     "board/objects/0: only permanents can be tapped"),
    ([{"id": "f", "card": "Forest", "owner": "P1"}, {"id": "s", "card": "Sword of the Meek", "owner": "P1",
                                                      "attached_to": "f"}],
     "board/objects/1/attached_to: an Equipment is attached only to a creature (CR 301.5c)"),
    ([{"id": "f", "card": "Forest", "owner": "P1"}, {"id": "g", "card": "Forest", "owner": "P1",
                                                      "attached_to": "f"}],
     "board/objects/1/attached_to: only an Aura or an Equipment is attached here, not Forest"),
    # Indrik Umbra is green and white: Stonecoil Serpent's protection from multicolored (CR 702.16c).
    ([{"id": "s", "card": "Stonecoil Serpent", "owner": "P1"}, {"id": "u", "card": "Indrik Umbra", "owner": "P1",
                                                                 "attached_to": "s"}],
     "board/objects/1/attached_to: Stonecoil Serpent has protection from multicolored: Indrik Umbra can't be "
     "attached to 's' (CR 702.16c, 702.16d)"),
])
def test_a_board_outside_the_vocabulary_is_bad_input_on_any_engine(objects, words, tmp_path, capsys):
    """Judged by the harness (cards and the rules of the board), not by asking the reference engine."""
    path = tmp_path / "board.json"
    path.write_text(json.dumps({"format": "rulesfuzz-scenario/2", "steps": [],
                                "board": {"players": [{"id": "P1"}, {"id": "P2"}], "objects": objects}}))
    assert main(["replay", str(path), "--engine", TINY]) == 2
    assert words in one_error_line(capsys)


def test_unsupported_during_replay_exits_2_with_the_reason(tmp_path, capsys):
    """The tiny engine plays no Lightning Bolt (a card of the pool): it declines the step, which
    is neither a pass nor a failure."""
    path = tmp_path / "bolt.json"
    path.write_text(json.dumps(one_event({"type": "cast", "card": "Lightning Bolt", "controller": "P2",
                                          "targets": ["bears"]})))
    assert main(["replay", str(path), "--engine", TINY]) == 2
    line = one_error_line(capsys)
    assert "declined step 1: card:Lightning Bolt" in line and "Unsupported" in line
    assert main(["replay", str(path), "--engine", "reference"]) == 0  # 3 damage to a 2/2: legal, no violation


def test_the_vocabulary_is_every_event_type_the_reference_engine_performs():
    """harness.wire.vocabulary reads the event schema, not an engine; the two must agree."""
    from harness.wire.vocabulary import event_types
    from reference_engine.events import HANDLERS

    assert set(event_types()) == set(HANDLERS)


def test_a_monocolored_aura_or_colorless_equipment_on_a_protected_creature_is_in_the_vocabulary():
    """CR 702.16c: protection from multicolored stops only multicolored Auras; Boar Umbra is green
    only and Sword of the Meek colorless, so both may be attached to Stonecoil Serpent."""
    from harness.wire.vocabulary import scenario_problems

    board = {"players": [{"id": "P1"}, {"id": "P2"}],
             "objects": [{"id": "s", "card": "Stonecoil Serpent", "owner": "P1"},
                         {"id": "u", "card": "Boar Umbra", "owner": "P1", "attached_to": "s"},
                         {"id": "w", "card": "Sword of the Meek", "owner": "P1", "attached_to": "s"}]}
    assert list(scenario_problems({"board": board, "steps": []})) == []


def test_an_equipment_attached_to_a_creature_is_in_the_vocabulary():
    """CR 301.5c: an Equipment is attached to a creature (Sword of the Meek on Grizzly Bears)."""
    from harness.wire.vocabulary import scenario_problems

    board = {"players": [{"id": "P1"}, {"id": "P2"}],
             "objects": [{"id": "b", "card": "Grizzly Bears", "owner": "P1"},
                         {"id": "s", "card": "Sword of the Meek", "owner": "P1", "attached_to": "b"}]}
    assert list(scenario_problems({"board": board, "steps": []})) == []


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_time_budget_that_ends_before_the_first_step_is_not_a_pass(workers, tmp_path, capsys):
    """Was: --max-seconds too short for one step ran 0 examples and exited 0, as if the engine
    had passed. Now it is status ``untested``, one line and exit 2, in every report (the tiny
    engine written from scratch, in this process and over worker processes)."""
    import jsonschema

    from harness.reporting.report import run_report_schema

    tiny = f"{ROOT / 'examples/engines/tiny/engine.py'}:engine"
    assert main(["run", "--engine", tiny, "--max-seconds", "0.000001", "--max-examples", "1000", "--database", "none",
                 "--replay-dir", str(tmp_path / "replays"), "--json", str(tmp_path / "run.json"), "--junit-xml",
                 str(tmp_path / "run.xml"), "--quiet", "--workers", workers]) == 2
    line = one_error_line(capsys)
    assert "--max-seconds 1e-06" in line and "ran out before the first step: nothing was tested" in line
    data = json.loads((tmp_path / "run.json").read_text())
    jsonschema.validate(data, run_report_schema())
    assert (data["status"], data["exit_code"], data["stats"]["steps"], data["cut_short"]) == (
        "untested", 2, 0, "time budget")
    assert 'type="untested"' in (tmp_path / "run.xml").read_text()
    assert "No violation" not in capsys.readouterr().out


# ---------------------------------------------------------------- Ctrl-C while rulesfuzz starts

CTRL_C_DURING_IMPORT = """
import os, signal, sys

class CtrlCAtImport:  # a Ctrl-C that lands while the command line is being imported
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlCAtImport())
from harness.interfaces.console import main
sys.exit(main(["run", "--engine", "reference", "--max-examples", "1"]))
"""


@pytest.mark.parametrize("module", ["hypothesis", "invariants"])
def test_a_ctrl_c_while_rulesfuzz_imports_is_one_line_and_exit_130(module):
    """A Ctrl-C in the first tenths of a second, while the command line is still being imported
    (Hypothesis, the invariants), is the one line and exit 130 of any other Ctrl-C with nothing
    found (README "Exit codes"), not Python's traceback of the import it landed in."""
    done = subprocess.run([sys.executable, "-c", CTRL_C_DURING_IMPORT.format(module=module)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 130, done.stderr
    assert done.stderr == "rulesfuzz: interrupted\n"


def test_the_console_script_and_python_m_harness_start_through_the_same_guard():
    from harness.interfaces import console

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["rulesfuzz"] == "harness.interfaces.console:main"
    assert "from harness.interfaces.console import main" in (ROOT / "harness/__main__.py").read_text(encoding="utf-8")
    assert console.main(["invariants"]) == 0
