"""One run loop (issue 24 item 2): a run's settings are one immutable value, and Hypothesis's
engine and --explore are two drivers of one interface. (No string or number literal here that
the project lacks: Hypothesis mixes the constants of loaded modules into what it generates.)"""

import dataclasses

import pytest

from harness.adapters.reference import ReferenceAdapter
from harness.running.drivers import Driver, ExploreDriver, HypothesisDriver
from harness.running.runner import run
from harness.running.settings import RunSettings
from harness.running.workers import Slot, SlotJob


def test_settings_are_immutable_and_replace_gives_a_new_value():
    chosen = RunSettings(max_examples=5, seed=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        chosen.seed = 4
    other = chosen.replace(seed=4)
    assert (chosen.seed, other.seed, other.max_examples) == (3, 4, 5)
    assert chosen.replace() is chosen
    with pytest.raises(TypeError):
        chosen.replace(no_such_setting=1)


def test_settings_and_keyword_arguments_make_the_same_run():
    by_keywords = run(ReferenceAdapter(), max_examples=6, seed=2, steps_per_example=4, database=None)
    by_settings = run(ReferenceAdapter(), RunSettings(max_examples=6, seed=2, steps_per_example=4), database=None)
    assert (by_keywords.stats.examples, by_keywords.stats.steps, by_keywords.examples_by_outcome) == \
        (by_settings.stats.examples, by_settings.stats.steps, by_settings.examples_by_outcome)


def test_a_slot_job_given_a_dict_of_fields_holds_settings():
    job = SlotJob(Slot(0, 1, 8, 0), "reference", None, None, None, False, True, {"keep_going": True})
    assert job.options == RunSettings(keep_going=True)


def test_the_explore_setting_picks_the_driver():
    """Each driver counts its examples as its own outcome: Hypothesis's as generated, exploration's as explored."""
    for explore, outcome in ((False, "generated"), (True, "explored")):
        result = run(ReferenceAdapter(), RunSettings(max_examples=6, seed=1, steps_per_example=4, explore=explore),
                     database=None)
        assert result.examples_by_outcome.get(outcome, 0) >= 6, result.examples_by_outcome
    drivers: list[Driver] = [HypothesisDriver(), ExploreDriver()]
    assert all(callable(driver.run_chunk) for driver in drivers)
