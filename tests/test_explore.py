"""``run(explore=True)`` / ``rulesfuzz run --explore`` (:mod:`harness.running.explore`): the
machine's rules run on plain random draws outside Hypothesis's engine; failures are
reduced (:mod:`harness.running.reduce`), saved in the example database, replayed first on the
next run.

On the tiny engine (written from scratch, examples/engines/tiny): its three planted bugs
are found, each reduced to at most two events, each with a replay file that replays; the
next run on the same example database replays them first; a run on the fixed engine is
clean. On the reference engine: every rule of the machine runs, and a mutant is found.
"""

from __future__ import annotations

import json

import pytest

from harness.interfaces import cli
from harness.connection.loading import load_engine
from harness.running.runner import database_from, run

TINY = "examples/engines/tiny/engine.py"
#: The tiny engine's planted bugs by the key of their finding; the deathtouch bug also breaks
#: zones.destroyed_without_replacement_leaves on the same step, part of the same finding.
PLANTED = {"generic.damage_only_on_battlefield", "damage.player_loses_life", "sba.deathtouch_damage"}


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    where = tmp_path_factory.mktemp("explore")
    database = database_from(str(where / "db"))
    result = run(load_engine(f"{TINY}:buggy"), max_examples=300, seed=0, database=database, explore=True,
                 keep_going=True, replay_dir=where / "out")
    return where, database, result


def test_explore_finds_every_planted_bug_and_shrinks_each(first_run):
    _, _, result = first_run
    assert {f.key for f in result.findings} == PLANTED
    for finding in result.findings:
        assert len(finding.scenario["steps"]) <= 2, finding.key  # reduced (harness.running.reduce): at most two events
        assert len(finding.scenario["board"]["objects"]) <= 2, finding.key
        assert not finding.shrink_cut_short


def test_each_finding_replays_from_its_file(first_run, capsys):
    _, _, result = first_run
    for finding in result.findings:
        assert cli.main(["replay", str(finding.replay_path), "--engine", f"{TINY}:buggy"]) == 1
        assert cli.main(["replay", str(finding.replay_path), "--engine", f"{TINY}:engine"]) == 0
    capsys.readouterr()


def test_the_next_run_replays_saved_failures_first(first_run):
    where, database, _ = first_run
    again = run(load_engine(f"{TINY}:buggy"), max_examples=300, seed=9, database=database, explore=True,
                keep_going=True, replay_dir=where / "again")
    assert {f.key for f in again.findings} == PLANTED
    assert all(f.from_database for f in again.findings)  # replayed from the corpus, before any example
    assert all(f.examples_to_find == 0 for f in again.findings)


def test_saved_failures_are_looked_for_only_in_a_database(monkeypatch):
    """An exploration without an example database has no saved failures to replay first, so
    it makes no Hypothesis test to look them up; with one, it does (and finds none here)."""
    from harness.running import drivers
    from hypothesis.database import InMemoryExampleDatabase

    made = []
    original = drivers.hypothesis_test
    monkeypatch.setattr(drivers, "hypothesis_test", lambda *args: made.append(args) or original(*args))
    run(load_engine(f"{TINY}:engine"), max_examples=2, seed=4, database=None, explore=True)
    assert made == []
    run(load_engine(f"{TINY}:engine"), max_examples=2, seed=4, database=InMemoryExampleDatabase(), explore=True)
    assert len(made) == 1


def test_explore_is_clean_on_a_correct_engine_and_deterministic():
    runs = [run(load_engine(f"{TINY}:engine"), max_examples=60, seed=4, database=None, explore=True)
            for _ in range(2)]
    assert all(r.violation is None for r in runs)
    assert runs[0].stats.steps == runs[1].stats.steps > 0
    assert runs[0].stats.events == runs[1].stats.events


def test_explore_on_the_reference_engine_with_a_mutant(outside_coverage):
    from tests.mutants import load

    result = run(load("umbra_taps_creature"), max_examples=300, seed=0, database=None, explore=True)
    assert result.violation is not None and result.violation.invariant.startswith("umbra_armor.")
    assert len(result.scenario["steps"]) <= 2


def test_the_command_line_takes_explore(tmp_path, capsys):
    report = tmp_path / "run.json"
    code = cli.main(["run", "--engine", f"{TINY}:buggy", "--explore", "--max-examples", "200", "--database", "none",
                     "--replay-dir", str(tmp_path / "out"), "--json", str(report), "--quiet"])
    assert code == 1
    data = json.loads(report.read_text())
    assert data["options"]["explore"] is True and data["findings"]
    capsys.readouterr()


def test_every_rule_of_the_machine_runs_and_the_same_seed_runs_the_same_examples(monkeypatch, outside_coverage):
    """Every strategy of every rule and board can be drawn at random (else TypeError), and
    each rule is picked; a seed gives the same events twice."""
    from harness.running import explore
    from harness.generation import hypothesis_shim
    from harness.running.execution import Stats
    from harness.running.machine import make_machine

    engine = load_engine("reference")
    ran: list[str] = []
    original = explore._run_rule

    def counting(machine, rule, data, bundles):
        ran.append(rule.function.__name__)
        return original(machine, rule, data, bundles)

    monkeypatch.setattr(explore, "_run_rule", counting)
    events = []
    for _ in range(2):
        stats = Stats()
        machine = make_machine(engine, [], [], stats)
        for index in range(60):
            try:
                explore.run_one(machine, explore.example_seed(3, index), 20)
            except explore.ExampleDeclined:
                pass
        events.append(dict(stats.events))
    assert events[0] == events[1] and sum(events[0].values()) > 60 * 10
    assert hypothesis_shim.rule_names(machine) <= set(ran)


def test_the_corpus_keeps_scenarios_per_engine_smallest_first_and_skips_junk():
    from hypothesis.database import InMemoryExampleDatabase

    from harness.running import explore

    db = InMemoryExampleDatabase()
    big = {"board": {"objects": [{"id": "a"}, {"id": "b"}]}, "steps": [{"event": {}}, {"event": {}}]}
    small = {"board": {"objects": []}, "steps": [{"event": {}}]}
    explore.save_scenario(db, b"engine-a", big)
    explore.save_scenario(db, b"engine-a", small)
    db.save(explore.corpus_key(b"engine-a"), b"not json")
    db.save(explore.corpus_key(b"engine-a"), b"[1, 2]")
    assert explore.saved_scenarios(db, b"engine-a") == [small, big]
    assert explore.saved_scenarios(db, b"engine-b") == [] and explore.saved_scenarios(None, b"engine-a") == []
    explore.save_scenario(None, b"engine-a", small)  # no database: nothing to do


def test_a_rule_is_drawn_among_those_that_can_run_in_the_same_order_from_the_same_seed():
    """_pick_rule draws rules in a random order until one can run (its Bundles hold something, its
    preconditions hold): a rule drawn that can't run is swapped with the last one left and dropped.
    Its list of the rules left is made only once the first drawn can't run; the rules drawn are
    those of the plain swap-and-drop draw, from the same seed."""
    from random import Random
    from types import SimpleNamespace

    from harness.running.explore import _pick_rule

    def plain_pick(rules, rng, machine):
        candidates = list(range(len(rules)))
        while candidates:
            j = rng.randrange(len(candidates))
            rule = rules[candidates[j]]
            if all(p(machine) for p in rule.preconditions):
                return rule
            candidates[j] = candidates[-1]
            candidates.pop()
        return None

    machine = SimpleNamespace(coverage_guided=False)
    for seed in range(200):
        shape = Random(seed)
        runs = [shape.random() < 0.3 for _ in range(shape.randint(1, 12))]
        rules = [SimpleNamespace(bundles=(), preconditions=(lambda m, ok=ok: ok,), name=i) for i, ok in enumerate(runs)]
        fast, slow = Random(seed), Random(seed)
        for _ in range(5):
            assert _pick_rule(machine, rules, fast, {}) is plain_pick(rules, slow, machine)
        assert fast.random() == slow.random()


def test_an_explored_machine_is_freed_when_its_example_ends():
    """Exploration makes its machines without Hypothesis's own state of a run (its rule strategy
    holds the machine in a reference cycle): the machine, its session and every observation go
    with the last reference, not at the next collection."""
    import gc
    import weakref

    from harness.adapters.reference import ReferenceAdapter
    from harness.running import explore
    from harness.running.machine import make_machine

    machine_class = make_machine(ReferenceAdapter(), [])
    enabled = gc.isenabled()
    gc.disable()
    try:
        machine = explore.run_one(machine_class, explore.example_seed(0, 1), 5)
        assert not hasattr(machine, "_rules_strategy")
        gone = weakref.ref(machine)
        del machine
        assert gone() is None
    finally:
        if enabled:
            gc.enable()
