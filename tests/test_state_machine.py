"""The state machine against the clean reference engine, and the machinery around it."""

from __future__ import annotations

import json

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

import invariants
from harness.adapters.reference import ReferenceAdapter
from harness.running.execution import Stats
from harness.running.machine import Recorder, make_machine
from harness.running.runner import run


@pytest.mark.parametrize(("seed", "explore"), [(0, False), (1, True), (2, True)])
def test_reference_engine_runs_clean(seed, explore, outside_coverage):
    """A few hundred examples per seed, every invariant, no violation: with Hypothesis's engine
    and exploring (the default of ``rulesfuzz run``)."""
    result = run(ReferenceAdapter(), max_examples=150, seed=seed, database=None, explore=explore)
    assert result.violation is None, json.dumps(result.scenario, indent=1)
    stats = result.stats.to_json()
    assert stats["examples"] >= 150
    # The generators reach the interactions the rulings talk about.
    for interaction in ("replacement: umbra armor", "replacement: regeneration", "state-based action 704.5g",
                        "state-based action 704.5j", "state-based action 704.5m"):
        assert stats["interactions"].get(interaction, 0) > 0, interaction
    for name in ("umbra_armor.mandatory", "umbra_armor.controller_chooses_the_aura", "umbra_armor.only_on_destruction",
                 "umbra_armor.indestructible", "umbra_armor.or_regeneration_the_other_remains"):
        assert stats["invariants"][name]["applicable"] > 0, name


def test_reference_against_itself_is_clean(outside_coverage):
    result = run(ReferenceAdapter(), against=ReferenceAdapter(), max_examples=100, seed=3, database=None, explore=True)
    assert result.violation is None
    assert result.stats.to_json()["invariants"]["differential.matches_reference"]["applicable"] > 0


def test_machine_runs_under_plain_hypothesis(outside_coverage):
    """The machine is an ordinary RuleBasedStateMachine: Hypothesis's own runner drives it."""
    engine = ReferenceAdapter()
    stats = Stats()
    machine = make_machine(engine, invariants.select(engine.info.capabilities),
                           invariants.select(engine.info.capabilities, scope="scenario"), stats, Recorder())
    run_state_machine_as_test(machine, settings=settings(max_examples=30, stateful_step_count=10, deadline=None,
                                                         database=None))
    assert stats.examples >= 30 and stats.steps > 0


def test_runs_are_reproducible_from_the_seed(outside_coverage):
    first = run(ReferenceAdapter(), max_examples=30, seed=7, database=None).stats.to_json()
    second = run(ReferenceAdapter(), max_examples=30, seed=7, database=None).stats.to_json()
    assert first == second


def test_failures_are_saved_and_replayed_from_the_example_database(tmp_path, outside_coverage):
    """A failure found once is replayed first by the next run (Hypothesis's example database)."""
    from harness.connection.loading import load_engine
    from harness.running.runner import database_from

    from .conftest import FORKS

    fork = load_engine(f"{FORKS / 'umbra_destroys_every_aura.py'}:engine")
    db = database_from(str(tmp_path / "db"))
    first = run(fork, max_examples=500, seed=4, database=db, shrink=False)
    assert first.violation is not None
    assert any((tmp_path / "db").rglob("*")), "the failure was saved"
    again = run(fork, max_examples=500, seed=99, database=db, shrink=False)
    assert again.violation is not None
    assert again.examples_to_failure <= 5  # saved examples are replayed before new ones
