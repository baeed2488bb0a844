"""Rule coverage: steps that exercised each CR rule, ruling and card; ``--coverage-guided``.

A rule counts when an invariant citing it *applied* to a step (not when it merely ran).
Tried on the tiny engine (written from scratch) and the reference engine.
"""

from __future__ import annotations

import json

import pytest

from harness.interfaces import cli
from harness.connection.loading import load_engine
from harness.reporting.rule_coverage import RuleCoverage, cards_of_step, describe, least_exercised
from harness.running.runner import run
from invariants import REGISTRY, select

from .scenario_helpers import Decider, obj
from .test_generic_rules import session
from .test_tiny_engine import tiny

TINY = "examples/engines/tiny/engine.py"


def test_a_sacrifice_exercises_the_sacrifice_rule_not_the_life_loss_rule():
    """Sacrificing Grizzly Bears applies zones.sacrificed_goes_to_its_owners_graveyard (CR
    701.17a, 404.1); damage.player_loses_life (CR 120.3a) runs but does not apply: no damage."""
    s = session(tiny.engine, obj("bears", "Grizzly Bears"))
    s.stats.coverage = RuleCoverage()
    assert s.step({"type": "sacrifice", "object": "bears"}, Decider()) == []
    rules = s.stats.coverage.rules
    assert rules["701.17a"] == 1 and rules["404.1"] == 1
    assert "120.3a" not in rules
    assert s.stats.checked["damage.player_loses_life"] == 1
    assert s.stats.coverage.cards == {"Grizzly Bears": 1}


def test_the_cards_of_a_step_are_named_by_the_event_or_its_objects():
    before = {"objects": {"b": {"name": "Grizzly Bears"}, "r": {"name": "Typhoid Rats"}}}
    after = {"objects": before["objects"], "log": [{"kind": "zone_change", "object": "b"}]}
    assert cards_of_step({"type": "cast", "card": "Murder", "targets": ["b"]}, before, after) == {
        "Murder", "Grizzly Bears"}
    assert cards_of_step({"type": "damage", "source": "r", "target": "P1", "amount": 1}, before,
                         {"objects": before["objects"], "log": []}) == {"Typhoid Rats"}


def test_a_run_reports_exercised_and_never_exercised_rules_and_cards():
    result = run(load_engine(f"{TINY}:engine"), max_examples=1, seed=0, database=None,
                 invariant_names=["damage.player_loses_life", "zones.sacrificed_goes_to_its_owners_graveyard"])
    report = result.rule_coverage
    assert set(report["rules"]["exercised"]) | set(report["rules"]["never"]) == {
        "120.3a", "702.15b", "701.17a", "400.3", "404.1"}
    assert report["rules"]["total"] == 5
    assert set(report["cards"]["exercised"]) | set(report["cards"]["never"]) == set(tiny.CARDS)
    assert all(0 < n <= result.stats.steps for n in report["rules"]["exercised"].values())
    assert "never:" in describe(report) or not (report["rules"]["never"] or report["cards"]["never"])


def test_a_longer_run_exercises_everything_the_tiny_engine_is_checked_for():
    result = run(load_engine(f"{TINY}:engine"), max_examples=60, seed=0, database=None)
    report = result.rule_coverage
    cited = {r for i in select(load_engine(f"{TINY}:engine").info.capabilities) for r in i.rules}
    assert cited <= set(report["rules"]["exercised"]) | set(report["rules"]["never"])
    assert report["cards"]["never"] == []  # 60 examples play each of its five cards


def test_the_command_line_prints_and_writes_rule_coverage(tmp_path, capsys):
    report = tmp_path / "run.json"
    code = cli.main(["run", "--engine", f"{TINY}:engine", "--max-examples", "20", "--database", "none", "--quiet",
                     "--coverage-guided", "--replay-dir", str(tmp_path / "out"), "--json", str(report)])
    out = capsys.readouterr().out
    assert code == 0
    assert "Rule coverage (steps where an invariant citing it applied):" in out
    assert "CR rules cited by the invariants:" in out and "cards of the plan:" in out
    data = json.loads(report.read_text())
    assert data["options"]["coverage_guided"] is True
    assert data["rule_coverage"]["cards"]["total"] == len(tiny.CARDS)
    assert set(data["rule_coverage"]["rules"]) == {"exercised", "never", "total"}


@pytest.mark.parametrize("name", ["umbra_armor.mandatory"])
def test_rulings_cited_are_counted(name):
    result = run(load_engine("reference"), max_examples=30, seed=0, database=None, invariant_names=[name])
    cited = set(REGISTRY[name].rulings)
    assert set(result.rule_coverage["rulings"]["exercised"]) | set(result.rule_coverage["rulings"]["never"]) == cited


def test_reports_of_worker_processes_merge():
    """Steps add up name by name; a name stays never exercised only if no part exercised it."""
    from harness.reporting.rule_coverage import merge_reports

    one = {"rules": {"exercised": {"701.17a": 2}, "never": ["120.3a"], "total": 2},
           "rulings": {"exercised": {}, "never": [], "total": 0},
           "cards": {"exercised": {"Grizzly Bears": 2}, "never": ["Murder"], "total": 2}}
    two = {"rules": {"exercised": {"701.17a": 1, "120.3a": 4}, "never": [], "total": 2},
           "rulings": {"exercised": {}, "never": [], "total": 0},
           "cards": {"exercised": {"Grizzly Bears": 1}, "never": ["Murder"], "total": 2}}
    merged = merge_reports([one, {}, two])
    assert merged["rules"] == {"exercised": {"120.3a": 4, "701.17a": 3}, "never": [], "total": 2}
    assert merged["cards"] == {"exercised": {"Grizzly Bears": 3}, "never": ["Murder"], "total": 2}
    assert merge_reports([{}, {}]) == {}


def test_a_run_over_two_workers_reports_rule_coverage(tmp_path, capsys):
    report = tmp_path / "run.json"
    code = cli.main(["run", "--engine", f"{TINY}:engine", "--max-examples", "20", "--workers", "2", "--database",
                     "none", "--quiet", "--replay-dir", str(tmp_path / "out"), "--json", str(report)])
    assert code == 0
    assert "Rule coverage (steps where an invariant citing it applied):" in capsys.readouterr().out
    data = json.loads(report.read_text())["rule_coverage"]
    assert data["cards"]["total"] == len(tiny.CARDS) and data["rules"]["exercised"]


def test_the_least_exercised_quarter_counts_never_exercised_names_as_zero():
    report = {"rules": {"exercised": {"701.17a": 5, "120.3a": 1, "404.1": 9}, "never": ["702.2b"], "total": 4},
              "rulings": {"exercised": {}, "never": [], "total": 0},
              "cards": {"exercised": {"Murder": 3, "Shock": 2, "Grizzly Bears": 7, "Typhoid Rats": 4, "Darksteel Myr": 8},
                        "never": [], "total": 5}}
    # a quarter of 4 rules is one (702.2b, 0 steps); of 5 cards, two (Shock 2, Murder 3)
    assert least_exercised(report) == {"rules": 0, "rulings": 0, "cards": 5}


def test_the_rules_and_rulings_of_applied_invariants_are_their_union_in_list_order():
    """Each list of applied invariants gives the union of their rules and of their rulings, built in
    the list's order (as a set comprehension builds it: the sets iterate alike), worked out once per list
    and made again for a list with other items at the same place."""
    from harness.reporting import rule_coverage

    invs = list(REGISTRY.values())
    for applied in (invs, invs[::3], invs[5:40], [], invs[::-1]):
        rules, rulings = rule_coverage._cited(applied)
        assert list(rules) == list({r for inv in applied for r in inv.rules})
        assert list(rulings) == list({r for inv in applied for r in inv.rulings})
        assert rule_coverage._cited(applied)[0] is rules  # kept
    applied = invs[:10]
    rules = rule_coverage._cited(applied)[0]
    other = next(inv for inv in invs[10:] if not set(inv.rules) <= rules)
    applied[0] = other
    assert rule_coverage._cited(applied)[0] == {r for inv in applied for r in inv.rules}


def test_rules_and_rulings_counted_when_read_are_those_counted_at_each_step_in_the_same_order():
    """A step adds one to the steps of its list of applied invariants; reading ``rules`` or ``rulings``
    adds them up, into dicts equal to counting every step at once, their names in the same order
    (a name first comes with the list of the step it first came at), also when read between steps."""
    import random

    from harness.reporting.rule_coverage import count_each

    invs = list(REGISTRY.values())
    rng = random.Random(7)
    lists = [rng.sample(invs, rng.randint(0, 12)) for _ in range(20)]
    coverage = RuleCoverage()
    rules: dict[str, int] = {}
    rulings: dict[str, int] = {}
    for step in range(300):
        applied = list(rng.choice(lists))
        coverage.record(applied, {}, {}, {}, [inv.name for inv in applied] if step % 2 else None)
        count_each(rules, {r for inv in applied for r in inv.rules})
        count_each(rulings, {r for inv in applied for r in inv.rulings})
        if step % 97 == 0:  # read during the run (coverage-guided runs do)
            assert list(coverage.rules.items()) == list(rules.items())
    assert list(coverage.rules.items()) == list(rules.items())
    assert list(coverage.rulings.items()) == list(rulings.items())
    assert not coverage.pending
