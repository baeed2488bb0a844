"""``--keep-going``: every distinct finding of a run, each shrunk on its own, with its own replay file."""

from __future__ import annotations

import json

from harness.interfaces.cli import main
from harness.reporting.findings import finding_key
from harness.connection.loading import load_engine
from harness.running.runner import run
from invariants import Violation
from invariants.differential import observation_diff

from .conftest import FORKS, ROOT

TWO_BUGS = '''
from harness.connection.loading import load_engine

fork = load_engine("examples/forks/umbra_taps_creature.py:engine")


class TwoBugs:
    """The umbra-taps fork (umbra_armor.not_regeneration) that also crashes in every cleanup step."""

    info = fork.info

    def new_game(self, board):
        game = fork.new_game(board)

        class Game:
            def apply(self, event, decider):
                if event["type"] == "cleanup":
                    raise ZeroDivisionError("cleanup divides by zero")
                return game.apply(event, decider)

            def observe(self):
                return game.observe()

        return Game()


engine = TwoBugs()
'''


def two_bugs(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    path = tmp_path / "two_bugs.py"
    path.write_text(TWO_BUGS)
    return f"{path}:engine"


def test_keep_going_reports_each_distinct_finding_once_with_its_own_replay_file(tmp_path, monkeypatch, capsys, outside_coverage):
    spec = two_bugs(tmp_path, monkeypatch)
    out_dir = tmp_path / "out"
    # Seed 1 finds both bugs within its first 2 examples: 50 leave the run long enough to go on past them.
    code = main(["run", "--engine", spec, "--keep-going", "--max-examples", "50", "--seed", "1",
                 "--replay-dir", str(out_dir), "--database", "none", "--quiet"])
    out = capsys.readouterr().out
    assert code == 1, out
    files = sorted(out_dir.glob("*.json"))
    keys = [json.loads(f.read_text())["key"] for f in files]
    # a crash's key names its site: the exception type and the engine's innermost frame
    assert "generic.engine_does_not_raise[ZeroDivisionError@two_bugs.py:apply]" in keys
    assert any(k.startswith("umbra_armor.") for k in keys)
    assert len(keys) == len(set(keys))  # one file per distinct key
    assert "distinct finding(s)" in out and all(k in out for k in keys)
    # Shrinking did not slip: each file fails with its own key, and minimally.
    crash = json.loads(next(f for f in files if "engine_does_not_raise" in f.name).read_text())
    assert crash["violation"]["invariant"] == "generic.engine_does_not_raise"
    assert [s["event"]["type"] for s in crash["steps"]] == ["cleanup"]
    for f in files:
        assert main(["replay", str(f), "--engine", spec]) == 1
    assert not list(out_dir.glob("*pending*"))


def test_without_keep_going_the_run_stops_at_its_first_finding(tmp_path, monkeypatch):
    spec = two_bugs(tmp_path, monkeypatch)
    engine = load_engine(spec)
    result = run(engine, max_examples=300, seed=1, database=None, replay_dir=tmp_path / "out")
    assert len(result.findings) == 1
    assert len(list((tmp_path / "out").glob("*.json"))) == 1


def test_later_failures_of_a_found_key_are_counted_not_reported(tmp_path, outside_coverage):
    """Without shrinking, every example counted is a generated one: the run went on after its finding
    (seed 1 finds it at its 3rd example) through the whole budget, counting the repeats."""
    fork = load_engine(f"{FORKS / 'umbra_taps_creature.py'}:engine")
    result = run(fork, max_examples=100, seed=1, database=None, keep_going=True, shrink=False)
    keys = [f.key for f in result.findings]
    assert len(keys) == len(set(keys)) >= 1
    assert result.findings[0].examples_to_find < 100
    assert sum(f.repeats for f in result.findings) > 0
    # the budget is a total: after the chunk of 25 examples that found it, the run went on through the other 75
    assert result.stats.examples >= 75


def test_differential_keys_name_the_first_differing_field_with_ids_wildcarded():
    fork = {"players": {"P1": {"life": 20, "lost": False}}, "objects": {
        "c7": {"name": "Grizzly Bears", "zone": "battlefield", "tapped": True, "damage": 0}},
        "zones": {"battlefield": ["c7"]}, "log": []}
    reference = {**fork, "objects": {"c7": {**fork["objects"]["c7"], "tapped": False}}}
    messages = observation_diff(fork, reference)
    key = finding_key(Violation("differential.matches_reference", 1, tuple(messages)))
    assert key == "differential.matches_reference[objects.*.tapped]"
    other_object = {**fork, "objects": {"x9": fork["objects"]["c7"]}, "zones": {"battlefield": ["x9"]}}
    again = observation_diff(other_object, {**other_object, "objects": {"x9": reference["objects"]["c7"]}})
    assert finding_key(Violation("differential.matches_reference", 3, tuple(again))) == key  # ids wildcarded
    assert finding_key(Violation("umbra_armor.mandatory", 2, ("x",))) == "umbra_armor.mandatory"
