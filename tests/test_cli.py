"""The ``rulesfuzz`` command line: exit codes, reports, replay files, bad input."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys

import jsonschema
import pytest

from harness.interfaces.cli import main
from harness.reporting.report import run_report_schema

from .conftest import FORKS, ROOT, one_error_line

FORK_FILES = sorted(p.name for p in FORKS.glob("*.py"))


def run_cli(*args) -> int:
    return main([str(a) for a in args])


def test_reference_engine_passes(tmp_path, capsys):
    # The exit code and summary of a clean run; test_state_machine runs the reference engine for longer.
    code = run_cli("run", "--engine", "reference", "--max-examples", 50, "--replay-dir", tmp_path,
                   "--database", "none", "--quiet")
    out = capsys.readouterr().out
    assert code == 0, out
    assert "No violation" in out
    assert "umbra_armor.mandatory" in out and "checked" in out
    assert not list(tmp_path.iterdir())


#: The seed of each example fork's run: each finds its bug within 35 examples; Hypothesis's
#: shrinking takes most of a run (with seed 1 the sacrifice fork shrank for 40 s of the suite).
FORK_SEEDS = {"umbra_saves_sacrificed.py": 2, "umbra_destroys_every_aura.py": 1, "umbra_taps_creature.py": 1}


@pytest.fixture(scope="module")
def fork_run(tmp_path_factory):
    """``fork_run(fork, capsys)``: the CLI run of an example fork (its seed in :data:`FORK_SEEDS`, with
    ``--json``), run once per module: ``(exit code, output, folder)``, the folder holding ``replays/``
    and ``run.json``."""
    runs = {}

    def fork_run(fork, capsys):
        if fork not in runs:
            folder = tmp_path_factory.mktemp(fork.removesuffix(".py"))
            code = run_cli("run", "--engine", f"{FORKS / fork}:engine", "--max-examples", 500, "--replay-dir",
                           folder / "replays", "--database", "none", "--quiet", "--seed", FORK_SEEDS[fork], "--json",
                           folder / "run.json")
            runs[fork] = code, capsys.readouterr().out, folder
        return runs[fork]

    return fork_run


@pytest.mark.parametrize("fork", FORK_FILES)
def test_each_example_fork_is_caught_and_replays(fork, fork_run, capsys, outside_coverage):
    """Each planted bug is found, shrunk to at most 3 events, written, and replays to the same violation."""
    spec = f"{FORKS / fork}:engine"
    code, out, folder = fork_run(fork, capsys)
    assert code == 1, out
    assert "Rules: CR" in out
    # An umbra armor ruling, or (the fork that sacrifices through destroy, with no decider) the
    # sacrifice rule itself when an indestructible creature is sacrificed first, or an edict whose
    # creature the player didn't choose (CR 701.17a).
    assert ("VIOLATION umbra_armor." in out and "Ruling" in out) or (
        fork == "umbra_saves_sacrificed.py" and ("VIOLATION zones.sacrificed_goes_to_its_owners_graveyard" in out
                                                 or "VIOLATION edict.player_chooses" in out))
    files = list((folder / "replays").glob("*.json"))
    assert len(files) == 1
    scenario = json.loads(files[0].read_text())
    assert len(scenario["steps"]) <= 3
    invariant = scenario["violation"]["invariant"]
    assert run_cli("replay", files[0], "--engine", spec) == 1
    assert f"VIOLATION {invariant}" in capsys.readouterr().out
    # The same scenario is clean on the reference engine.
    assert run_cli("replay", files[0], "--engine", "reference") == 0


def test_differential_mode_reports_the_field_that_differs(tmp_path, capsys):
    # --no-shrink: what is asserted is the failing step's report, the same shrunk or not (shrinking
    # took 20 s of the suite under coverage; the fork's fixture above asserts on shrunk scenarios).
    spec = f"{FORKS / 'umbra_taps_creature.py'}:engine"
    code = run_cli("run", "--engine", spec, "--against", "reference", "--max-examples", 500, "--replay-dir",
                   tmp_path, "--database", "none", "--quiet", "--seed", 2, "--no-shrink")
    out = capsys.readouterr().out
    assert code == 1
    assert "VIOLATION differential.matches_reference" in out
    assert "tapped: engine True vs reference False" in out
    assert "VIOLATION umbra_armor.not_regeneration" in out  # the invariants still run on the fork


def test_json_summary(tmp_path, capsys):
    out_file = tmp_path / "summary.json"
    code = run_cli("run", "--engine", "reference", "--max-examples", 20, "--replay-dir", tmp_path,
                   "--database", "none", "--quiet", "--json", out_file)
    assert code == 0
    data = json.loads(out_file.read_text())
    jsonschema.validate(data, run_report_schema())
    assert data["status"] == "passed" and data["exit_code"] == 0 and data["findings"] == []
    assert data["options"]["max_examples"] == 20 and data["rulesfuzz_version"]
    assert data["stats"]["examples"] >= 20
    assert data["stats"]["invariants"]["generic.objects_conserved"]["checked"] == data["stats"]["steps"]


def test_json_report_of_a_finding_has_its_key_scenario_and_replay_file(fork_run, capsys):
    code, _, folder = fork_run("umbra_taps_creature.py", capsys)
    assert code == 1
    data = json.loads((folder / "run.json").read_text())
    jsonschema.validate(data, run_report_schema())
    assert data["status"] == "findings" and data["exit_code"] == 1
    [finding] = data["findings"]
    assert finding["key"].startswith("umbra_armor.") and finding["scenario"]["steps"]
    written = json.loads(open(finding["replay_file"]).read())
    assert written["key"] == finding["key"]
    assert written["format"] == "rulesfuzz-scenario/2"  # files written by the harness have exact expectations


def test_invariants_lists_rules_and_capabilities(capsys):
    assert run_cli("invariants") == 0
    out = capsys.readouterr().out
    assert "umbra_armor.only_on_destruction" in out and "702.89a" in out and "requires:" in out
    assert run_cli("invariants", "--json") == 0
    items = json.loads(capsys.readouterr().out)
    assert all(item["rules"] or item["family"] == "differential" for item in items)


def test_cards_lists_not_modelled_abilities(capsys):
    assert run_cli("cards") == 0
    out = capsys.readouterr().out
    assert "Eel Umbra" in out and "not modelled" in out


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("spec, words", [
    ("no_such_module_xyz:engine", "can't import"),
    ("examples/forks/does_not_exist.py:engine", "no file"),
    ("examples/forks/umbra_taps_creature.py:nope", "no attribute"),
    ("examples/forks/umbra_taps_creature.py", "expected 'reference'"),
    ("json:decoder", "no 'info'"),
    ("json:dumps", "calling dumps() failed"),
])
def test_engine_that_cannot_be_loaded(spec, words, capsys, tmp_path):
    os.chdir(ROOT)
    assert run_cli("run", "--engine", spec, "--replay-dir", tmp_path) == 2
    assert words in one_error_line(capsys)


def test_engine_whose_import_raises(tmp_path, capsys):
    bad = tmp_path / "bad_engine.py"
    bad.write_text("raise RuntimeError('boom at import')\n")
    assert run_cli("replay", ROOT / "examples/scenarios/wrath_with_two_umbras.json", "--engine", f"{bad}:engine") == 2
    assert "boom at import" in one_error_line(capsys)


@pytest.mark.parametrize("source, spec, words", [
    ("import sys\nsys.exit(3)\n", "{path}:engine", "importing"),  # a script's sys.exit() at import
    ("def make():\n    raise SystemExit('no licence')\n", "{path}:make", "calling make() failed"),
])
@pytest.mark.parametrize("command", ["run", "check", "plan"])
def test_engine_that_exits_while_loading_is_bad_input_not_a_silent_exit(source, spec, words, command, tmp_path,
                                                                        capsys):
    # sys.exit() is SystemExit, not Exception: it used to end rulesfuzz with the engine's code (3,
    # "rulesfuzz itself failed") and no message at all.
    path = tmp_path / "exits_engine.py"
    path.write_text(source)
    assert run_cli(command, "--engine", spec.format(path=path)) == 2
    line = one_error_line(capsys)
    assert words in line and "SystemExit" in line


@pytest.mark.parametrize("content, words", [
    ("{not json", "not JSON"),
    ('{"format": "rulesfuzz-scenario/1", "steps": []}', "'board' is a required property"),
    ('{"format": "rulesfuzz-scenario/1", "board": {"players": [{"id": "P1"}], "objects": [{"id": "x", "card": "Grizzly Bears"}]}, "steps": []}',
     "board/objects/0: 'owner' is a required property"),
    ('{"format": "rulesfuzz-scenario/1", "board": {"players": [{"id": "P1"}], "objects": []}, "steps": [{"event": {}}]}',
     "steps/0/event: 'type' is a required property"),
    ('[1, 2]', "is not of type 'object'"),
])
def test_malformed_scenario_file(content, words, tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert run_cli("replay", path, "--engine", "reference") == 2
    line = one_error_line(capsys)
    assert words in line and str(path) in line


def test_missing_scenario_file(tmp_path, capsys):
    assert run_cli("replay", tmp_path / "absent.json", "--engine", "reference") == 2
    assert "can't read" in one_error_line(capsys)


def test_unknown_card_name_in_scenario(tmp_path, capsys):
    path = tmp_path / "unknown.json"
    path.write_text(json.dumps({"format": "rulesfuzz-scenario/1", "board": {
        "players": [{"id": "P1"}], "objects": [{"id": "x", "card": "Grizzly Bear", "owner": "P1"}]}, "steps": []}))
    assert run_cli("replay", path, "--engine", "reference") == 2
    line = one_error_line(capsys)
    assert "board/objects/0/card" in line and "Grizzly Bear" in line


def test_bad_board_value_in_scenario(tmp_path, capsys):
    path = tmp_path / "aura.json"
    path.write_text(json.dumps({"format": "rulesfuzz-scenario/1", "board": {
        "players": [{"id": "P1"}], "objects": [{"id": "a", "card": "Boar Umbra", "owner": "P1"}]}, "steps": []}))
    assert run_cli("replay", path, "--engine", "reference") == 2
    assert "not attached" in one_error_line(capsys)


@pytest.mark.parametrize("argv, words", [
    (["run"], "the following arguments are required: --engine"),
    (["run", "--engine", "reference", "--max-examples", "-3"], "expected a positive number"),
    (["run", "--engine", "reference", "--no-such-option"], "unrecognized arguments: --no-such-option"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    ([], "the following arguments are required"),
])
def test_bad_usage_exits_2_in_one_line(argv, words, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    line = one_error_line(capsys)  # README: bad usage or input is always one line on stderr
    assert words in line and "--help" in line, line


@pytest.mark.parametrize("option", ["--step-timeout", "--max-seconds"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0"])
def test_a_time_that_is_not_a_positive_finite_number_is_bad_usage(option, value, capsys):
    # --step-timeout inf ended in an OverflowError (exit 3) at the first engine call; nan was
    # blamed on the engine (--step-timeout) or ran as no budget at all (--max-seconds).
    with pytest.raises(SystemExit) as exc:
        main(["run", "--engine", "reference", f"{option}={value}"])
    assert exc.value.code == 2
    assert f"argument {option}: expected a positive number" in capsys.readouterr().err


def test_unknown_invariant_name(capsys, tmp_path):
    assert run_cli("run", "--engine", "reference", "--invariant", "umbra_armor.nope", "--replay-dir", tmp_path) == 2
    assert "unknown invariant" in one_error_line(capsys)


def test_unknown_skipped_invariant_name(capsys, tmp_path):
    assert run_cli("run", "--engine", "reference", "--skip-invariant", "sba.nope", "--replay-dir", tmp_path) == 2
    assert one_error_line(capsys) == ("rulesfuzz: error: --skip-invariant: unknown invariant(s) ['sba.nope']; "
                                      "see `rulesfuzz invariants`")


def test_skipping_every_chosen_invariant_leaves_nothing_to_check(capsys, tmp_path):
    assert run_cli("run", "--engine", "reference", "--invariant", "sba.lethal_damage", "--skip-invariant",
                   "sba.lethal_damage", "--replay-dir", tmp_path) == 2
    assert "nothing left to check" in one_error_line(capsys)


# ---------------------------------------------------------------- engines that misbehave

MISBEHAVING = '''
from harness.adapters.reference import ReferenceAdapter, ReferenceGame


class Wrapped(ReferenceAdapter):
    def new_game(self, board):
        game = super().new_game(board)
        return {cls}(game._game)


class Raises(ReferenceGame):
    def apply(self, event, decider):
        if event["type"] == "cleanup":
            raise ZeroDivisionError("division by zero in cleanup")
        return super().apply(event, decider)


class Hangs(ReferenceGame):
    def apply(self, event, decider):
        if event["type"] == "cleanup":
            while True:
                pass
        return super().apply(event, decider)


class Garbage(ReferenceGame):
    def observe(self):
        obs = super().observe()
        for obj in obs["objects"].values():
            obj["damage"] = "lots"
        return obs


engine = Wrapped()
'''


@pytest.mark.parametrize("cls, words", [
    ("Raises", "engine raised ZeroDivisionError"),
    ("Hangs", "did not return"),
    ("Garbage", "damage = 'lots' has the wrong type"),
])
def test_engine_that_raises_hangs_or_returns_garbage(cls, words, tmp_path, capsys):
    # --no-shrink: what is asserted holds of the finding as found (shrinking a hang waits out the
    # step timeout at every shrink step that still hangs: 20 s of the suite); tests/test_faults.py
    # shrinks such findings.
    path = tmp_path / f"{cls.lower()}_engine.py"
    path.write_text(MISBEHAVING.replace("{cls}", cls))
    code = run_cli("run", "--engine", f"{path}:engine", "--max-examples", 50, "--replay-dir", tmp_path / "out",
                   "--database", "none", "--quiet", "--step-timeout", 0.2, "--no-shrink")
    out = capsys.readouterr().out
    assert code == 1
    assert words in out
    assert list((tmp_path / "out").glob("*.json")), "the finding must be kept as a replay file"


def test_interrupted_run_keeps_its_finding(tmp_path, default_sigint):
    """Ctrl-C while shrinking: the smallest scenario seen so far is on disk and replays."""
    from harness.connection.loading import load_engine
    from harness.running.runner import run

    fork = load_engine(f"{FORKS / 'umbra_taps_creature.py'}:engine")

    class InterruptAfter:
        info = fork.info

        def __init__(self):
            self.calls = 0

        def new_game(self, board):
            outer, game = self, fork.new_game(board)

            class Game:
                def apply(self, event, decider):
                    if any(tmp_path.glob("*-pending.json")):  # a failure was seen: shrinking
                        outer.calls += 1
                        if outer.calls == 20:
                            os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C
                    return game.apply(event, decider)

                def observe(self):
                    return game.observe()

            return Game()

    result = run(InterruptAfter(), max_examples=1000, seed=1, replay_dir=tmp_path, database=None)
    assert result.cut_short == "interrupted"
    assert result.violation is not None and result.replay_path is not None and result.replay_path.exists()
    assert main(["replay", str(result.replay_path), "--engine", f"{FORKS / 'umbra_taps_creature.py'}:engine"]) == 1


def test_max_seconds_cuts_the_run_short(tmp_path, capsys):
    """The deadline may land anywhere, inside a draw of a decision too: it ends the run, never as
    a finding (the draw is shielded: tests/test_verdicts.py, test_the_time_budget_never_interrupts_a_draw).
    3 s: far more than a first step takes even on a loaded machine (a budget that ends before the
    first step is another verdict, exit 2: tests/test_exit_codes.py); the examples can't run out."""
    code = run_cli("run", "--engine", "reference", "--max-examples", 1000000, "--max-seconds", 3,
                   "--replay-dir", tmp_path, "--database", "none", "--quiet")
    assert code == 0
    assert "cut short (time budget)" in capsys.readouterr().out


def test_the_replay_it_line_quotes_an_exec_spec_and_a_path_with_spaces(tmp_path, capsys):
    """The tiny engine (written from scratch) behind the wire protocol: the printed command,
    pasted into a shell, replays the finding (was: the exec: spec's spaces split it apart)."""
    spec = f"exec:{sys.executable} -m harness.serve {ROOT / 'examples/engines/tiny/engine.py'}:buggy"
    replay_dir = tmp_path / "replay files"
    assert run_cli("run", "--engine", spec, "--max-examples", 300, "--database", "none", "--quiet",
                   "--replay-dir", replay_dir) == 1
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("Replay it:"))
    command = shlex.split(line[len("Replay it:"):])
    assert command[:2] == ["rulesfuzz", "replay"] and command[3:] == ["--engine", spec]
    assert command[2].startswith(str(replay_dir)) and os.path.exists(command[2])
    assert main(command[1:]) == 1


def test_the_replay_command_survives_braces_and_spaces():
    from harness.reporting.report import fill_replay_command, replay_command

    spec, against = 'exec:node -e "run({strict: true})"', "exec:python3 ref engine.py"
    filled = fill_replay_command(replay_command(spec, against), "/tmp/a b/{x}.json")
    assert shlex.split(filled) == ["rulesfuzz", "replay", "/tmp/a b/{x}.json", "--engine", spec, "--against", against]


def test_the_summary_table_fits_the_longest_invariant_name():
    """Each invariant's counts line up under the headers, whatever the length of its name."""
    from harness.running.execution import Stats
    from harness.reporting.report import describe_stats

    long_name = "copies.penumbra_umbra_copies_the_enchanted_creature"
    stats = Stats()
    stats.checked.update({long_name: 12, "sba.life_total": 3})
    stats.applicable.update({long_name: 4, "sba.life_total": 3})
    lines = describe_stats(stats, [long_name, "sba.life_total"]).splitlines()
    rows = lines[lines.index(next(line for line in lines if line.startswith("invariant "))):]
    assert [row.split() for row in rows] == [["invariant", "checked", "applicable"], [long_name, "12", "4"],
                                             ["sba.life_total", "3", "3"]]
    assert len({len(row) for row in rows}) == 1  # the columns line up


LONG_NAMED_TINY = """
import dataclasses
import sys

sys.path.insert(0, {root!r})
from examples.engines.tiny.engine import BUGS, TinyEngine

engine = TinyEngine(bugs=BUGS)
engine.info = dataclasses.replace(engine.info, name={name!r})
"""


@pytest.mark.parametrize("name", ["tiny-" + "x" * 300, "moteur-" + "é" * 120])
def test_an_engine_with_a_long_name_gets_replay_files_that_fit_and_replay(name, tmp_path, capsys):
    """File systems take 255 bytes per name: a replay file named after a 300-character engine name
    (or 120 two-byte letters) failed with 'File name too long' (exit 3, the finding's replay file
    lost). The name is cut, with a hash of the whole name; the file replays."""
    path = tmp_path / "long_named.py"
    path.write_text(LONG_NAMED_TINY.format(root=str(ROOT), name=name))
    replays = tmp_path / "replays"
    assert run_cli("run", "--engine", f"{path}:engine", "--max-examples", 30, "--database", "none", "--quiet",
                   "--replay-dir", replays) == 1
    files = list(replays.glob("*.json"))
    assert len(files) == 1 and len(files[0].name.encode()) <= 255 and files[0].name.startswith(name[:20])
    assert run_cli("replay", files[0], "--engine", f"{path}:engine") == 1
