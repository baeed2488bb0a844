"""Scenario files, ``rulesfuzz-scenario/2``: ``expect`` compares each field exactly, keeps
players and objects by id as a subset, and says an object does not exist with ``null``;
``rulesfuzz-scenario/1`` files keep their old subset meaning and replay says so.

Expected values come from the rules: counters stay on a permanent that nothing changes
(CR 122.1), leave with it when it goes to a graveyard (CR 122.2, 400.7), and a token
that leaves the battlefield ceases to exist (CR 111.7, 704.5d).
"""

from __future__ import annotations

import json

import pytest

from harness.running import scenario as scenario_file
from harness.interfaces.cli import main

from .conftest import ROOT, one_error_line

TINY = f"{ROOT / 'examples/engines/tiny/engine.py'}:engine"


def write(tmp_path, scenario: dict, name: str = "scenario.json"):
    path = tmp_path / name
    path.write_text(json.dumps(scenario), encoding="utf-8")
    return str(path)


def countered_bears(fmt: str, expect: dict, event: dict | None = None) -> dict:
    """Grizzly Bears with one +1/+1 counter; one event that doesn't touch its counters."""
    return {
        "format": fmt,
        "board": {"players": [{"id": "P1"}, {"id": "P2"}],
                  "objects": [{"id": "bears", "card": "Grizzly Bears", "owner": "P1", "counters": {"+1/+1": 1}}]},
        "steps": [{"event": event or {"type": "modify_pt", "object": "bears", "power": 1, "toughness": 1},
                   "expect": expect}],
    }


def test_an_empty_counters_field_means_no_counters(tmp_path, capsys):
    """Was: ``"counters": {}`` passed whatever the counters were (dicts compared by subset)."""
    path = write(tmp_path, countered_bears(scenario_file.FORMAT, {"objects": {"bears": {"counters": {}}}}))
    assert main(["replay", path, "--engine", "reference"]) == 1
    out = capsys.readouterr().out
    assert "EXPECTATION at step 1: objects.bears.counters: expected exactly {}, got {'+1/+1': 1}" in out
    assert "also has ['+1/+1']" in out


def test_a_counters_field_with_the_right_counters_passes(tmp_path, capsys):
    expect = {"objects": {"bears": {"counters": {"+1/+1": 1}, "power": 4, "toughness": 4}}}  # 2/2 +1/+1 counter +1/+1
    assert main(["replay", write(tmp_path, countered_bears(scenario_file.FORMAT, expect)), "--engine",
                 "reference"]) == 0
    assert "No violation" in capsys.readouterr().out


def test_a_dict_field_with_fewer_keys_than_observed_fails(tmp_path, capsys):
    """A counters field naming one kind of the two on the permanent is not a subset match any more."""
    scenario = countered_bears(scenario_file.FORMAT, {"objects": {"bears": {"counters": {"+1/+1": 1}}}},
                               {"type": "add_counters", "object": "bears", "kind": "+1/+0", "amount": 1})
    assert main(["replay", write(tmp_path, scenario), "--engine", "reference"]) == 1
    assert "objects.bears.counters: expected exactly {'+1/+1': 1}" in capsys.readouterr().out


def test_a_format_1_file_keeps_its_subset_meaning_and_replay_says_so_in_one_line(tmp_path, capsys):
    path = write(tmp_path, countered_bears(scenario_file.FORMAT_1, {"objects": {"bears": {"counters": {}}}}))
    assert main(["replay", path, "--engine", "reference"]) == 0
    out = capsys.readouterr().out
    notes = [line for line in out.splitlines() if "rulesfuzz-scenario/1" in line]
    assert len(notes) == 1 and notes[0].startswith("note: ") and "subset" in notes[0], out
    assert "No violation" in out


def test_a_format_2_file_says_nothing_about_its_format(tmp_path, capsys):
    path = write(tmp_path, countered_bears(scenario_file.FORMAT, {"objects": {"bears": {"counters": {"+1/+1": 1}}}}))
    assert main(["replay", path, "--engine", "reference"]) == 0
    assert "rulesfuzz-scenario/1" not in capsys.readouterr().out


def destroy_token_and_bears(fmt: str, expect_objects: dict) -> dict:
    return {
        "format": fmt,
        "board": {"players": [{"id": "P1"}, {"id": "P2"}],
                  "objects": [{"id": "soldier", "card": "Soldier Token", "token": True, "owner": "P1"},
                              {"id": "bears", "card": "Grizzly Bears", "owner": "P1", "counters": {"+1/+1": 1}}]},
        "steps": [{"event": {"type": "destroy", "targets": ["soldier", "bears"], "cant_be_regenerated": False},
                   "expect": {"objects": expect_objects}}],
    }


def test_null_says_an_object_does_not_exist(tmp_path, capsys):
    """The destroyed token ceased to exist (CR 111.7, 704.5d); the card is in its owner's
    graveyard without its counter (CR 122.2, 400.7)."""
    expect = {"soldier": None, "bears": {"zone": "graveyard", "counters": {}}, "never-was": None}
    assert main(["replay", write(tmp_path, destroy_token_and_bears(scenario_file.FORMAT, expect)), "--engine",
                 "reference"]) == 0


def test_null_fails_for_an_object_that_still_exists(tmp_path, capsys):
    path = write(tmp_path, destroy_token_and_bears(scenario_file.FORMAT, {"bears": None}))
    assert main(["replay", path, "--engine", "reference"]) == 1
    assert "objects.bears: expected no such object, but it exists (in the graveyard)" in capsys.readouterr().out


def test_an_object_expected_to_exist_that_does_not_fails(tmp_path, capsys):
    path = write(tmp_path, destroy_token_and_bears(scenario_file.FORMAT, {"soldier": {"zone": "graveyard"}}))
    assert main(["replay", path, "--engine", "reference"]) == 1
    assert "objects.soldier: expected {'zone': 'graveyard'}, but there is no such object" in capsys.readouterr().out


def test_a_format_1_file_cannot_say_absent(tmp_path, capsys):
    path = write(tmp_path, destroy_token_and_bears(scenario_file.FORMAT_1, {"soldier": None}))
    assert main(["replay", path, "--engine", "reference"]) == 2
    line = one_error_line(capsys)
    assert "steps/0/expect/objects/soldier" in line and "is not of type 'object'" in line


def test_zones_are_compared_exactly_per_player_named(tmp_path, capsys):
    scenario = destroy_token_and_bears(scenario_file.FORMAT, {})
    scenario["steps"][0]["expect"] = {"zones": {"battlefield": [], "graveyard": {"P1": ["bears"]}}}
    assert main(["replay", write(tmp_path, scenario), "--engine", "reference"]) == 0
    scenario["steps"][0]["expect"] = {"zones": {"graveyard": {"P1": []}}}
    assert main(["replay", write(tmp_path, scenario), "--engine", "reference"]) == 1
    assert "zones.graveyard.P1: expected [], got ['bears']" in capsys.readouterr().out


def test_fields_compare_as_json_true_is_not_1():
    assert scenario_file.same_json({"a": [1, {"b": True}]}, {"a": [1, {"b": True}]})
    assert not scenario_file.same_json(True, 1) and not scenario_file.same_json(0, False)
    assert not scenario_file.same_json([1, 2], [2, 1]) and not scenario_file.same_json({}, {"x": 0})
    assert scenario_file.exact_differences({"objects": {"o": {"tapped": 1}}},
                                           {"objects": {"o": {"tapped": True}}}) == [
        "objects.o.tapped: expected 1, got True"]


def test_players_and_objects_are_kept_by_id_as_a_subset():
    observation = {"players": {"P1": {"life": 20, "lost": False}, "P2": {"life": 18, "lost": False}},
                   "objects": {"a": {"zone": "battlefield", "counters": {}}, "b": {"zone": "hand"}}}
    assert scenario_file.exact_differences({"players": {"P2": {"life": 18}}, "objects": {"a": {"counters": {}}}},
                                           observation) == []
    assert scenario_file.exact_differences({"players": {"P3": {"life": 20}}}, observation) == [
        "players.P3: expected {'life': 20}, but there is no such player"]


@pytest.mark.parametrize("expect, code", [
    ({"objects": {"bears": {"zone": "graveyard", "damage": 0, "counters": {}}, "gone": None}}, 0),
    ({"objects": {"bears": {"zone": "battlefield"}}}, 1),
    ({"objects": {"bears": None}}, 1),
])
def test_the_tiny_engine_is_judged_by_exact_fields_and_absence(expect, code, tmp_path, capsys):
    """The tiny engine (written from scratch): Murder puts Grizzly Bears into its owner's graveyard (CR 701.7a)."""
    scenario = {"format": scenario_file.FORMAT,
                "board": {"players": [{"id": "P1"}, {"id": "P2"}],
                          "objects": [{"id": "bears", "card": "Grizzly Bears", "owner": "P1"}]},
                "steps": [{"event": {"type": "cast", "card": "Murder", "controller": "P2", "targets": ["bears"]},
                           "expect": expect}]}
    assert main(["replay", write(tmp_path, scenario), "--engine", TINY]) == code, capsys.readouterr().out


def test_the_example_of_docs_scenarios_md_replays(tmp_path, capsys):
    """The documented example passes on the reference engine; its refused step passes only
    because it says ``"illegal": true``."""
    text = (ROOT / "docs/scenarios.md").read_text(encoding="utf-8")
    example = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    assert main(["replay", write(tmp_path, example), "--engine", "reference"]) == 0
    del example["steps"][1]["illegal"]
    assert main(["replay", write(tmp_path, example), "--engine", "reference"]) == 1
    assert "REFUSED at step 2" in capsys.readouterr().out


def test_a_generated_scenario_may_have_steps_the_fixed_engine_refuses(tmp_path, capsys):
    """Files written by ``rulesfuzz run`` say ``allow_refusals``: their events were generated, so
    an engine without the bug may refuse one (here a sacrifice of an object the board lacks)."""
    scenario = scenario_file.build({"players": [{"id": "P1"}, {"id": "P2"}], "objects": []},
                                   [{"event": {"type": "sacrifice", "object": "c0"}, "decisions": []}])
    assert scenario["allow_refusals"] is True
    assert main(["replay", write(tmp_path, scenario), "--engine", "reference"]) == 0
    del scenario["allow_refusals"]
    assert main(["replay", write(tmp_path, scenario), "--engine", "reference"]) == 1
    assert "REFUSED at step 1" in capsys.readouterr().out
    scenario["format"] = scenario_file.FORMAT_1  # a /1 file written by rulesfuzz run: refusals allowed, as before
    scenario["violation"] = {"invariant": "generic.engine_does_not_raise", "step": 1, "messages": ["crashed"]}
    assert main(["replay", write(tmp_path, scenario), "--engine", "reference"]) == 0
