"""The Hypothesis shim: the database key mixes in a digest, and a seed keeps the database on."""

from __future__ import annotations

import unittest

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase
from hypothesis.stateful import RuleBasedStateMachine, rule

from harness.hypothesis_shim import machine_test


class Big(Exception):
    pass


class Machine(RuleBasedStateMachine):
    @rule(n=st.integers(0, 100))
    def step(self, n):
        if n > 90:
            raise Big(n)


class Recording(RuleBasedStateMachine):
    seen: list = []

    @rule(n=st.integers(0, 100))
    def step(self, n):
        Recording.seen.append(n)


def chosen(database, phases, max_examples=200):
    return settings(database=database, phases=phases, max_examples=max_examples, deadline=None,
                    suppress_health_check=list(HealthCheck), stateful_step_count=3)


def test_saved_failures_are_replayed_first_under_the_same_digest_only():
    db = InMemoryExampleDatabase()
    with pytest.raises(Big):
        machine_test(Machine, chosen(db, [Phase.generate, Phase.shrink]), seed=1, digest=b"engine-a")()
    assert db.data  # the seed did not switch the database off
    reuse_only = chosen(db, [Phase.reuse])
    with pytest.raises(Big):
        machine_test(Machine, reuse_only, seed=2, digest=b"engine-a")()
    with pytest.raises(unittest.SkipTest):  # another engine: nothing saved, so nothing to run
        machine_test(Machine, reuse_only, seed=2, digest=b"engine-b")()


def test_a_seed_makes_a_run_reproducible():
    runs = []
    for _ in range(2):
        Recording.seen = []
        machine_test(Recording, chosen(None, [Phase.generate], max_examples=5), seed=7, digest=b"x")()
        runs.append(list(Recording.seen))
    assert runs[0] == runs[1] and runs[0]


# ------------------------------------------------------------------ exploration outside Hypothesis's engine
from harness import hypothesis_shim as shim  # noqa: E402


def _explore_until_big(test, tries=200):
    for i in range(tries):
        data = shim.random_data(i)
        try:
            shim.run_example(test, data)
        except Big as exc:
            return data, exc.args[0]
        except shim.EXAMPLE_DISCARDED:
            continue
    raise AssertionError("no example reached n > 90")


def test_an_example_run_outside_the_engine_is_deterministic_from_its_seed():
    test = machine_test(Recording, chosen(None, [Phase.generate]), seed=0, digest=b"x")
    seen = []
    for _ in range(2):
        Recording.seen = []
        data = shim.random_data(42)
        shim.run_example(test, data)
        seen.append((list(Recording.seen), tuple(data.choices)))
    assert seen[0] == seen[1] and seen[0][0]


def test_the_database_key_is_the_one_hypothesis_saves_failures_under():
    db = InMemoryExampleDatabase()
    test = machine_test(Machine, chosen(db, [Phase.generate, Phase.shrink]), seed=1, digest=b"engine-a")
    with pytest.raises(Big):
        test()
    assert list(db.fetch(shim.database_key(test)))
    other = machine_test(Machine, chosen(db, [Phase.generate]), seed=1, digest=b"engine-b")
    assert shim.database_key(other) != shim.database_key(test)


def test_a_failure_found_outside_the_engine_is_replayed_first_and_shrunk_by_hypothesis():
    """Its choices, saved under the test's key, are what Hypothesis replays first (the reuse
    phase alone fails) and shrinks: toward the smallest failing draw, 91."""
    explore = machine_test(Machine, chosen(None, [Phase.generate]), seed=0, digest=b"engine-a")
    data, found = _explore_until_big(explore)
    db = InMemoryExampleDatabase()
    shim.save_example(db, explore, data)
    with pytest.raises(Big):  # the reuse phase alone: no generation, so the saved example fails
        machine_test(Machine, chosen(db, [Phase.reuse]), seed=3, digest=b"engine-a")()
    with pytest.raises(Big) as raised:
        machine_test(Machine, chosen(db, [Phase.reuse, Phase.shrink]), seed=3, digest=b"engine-a")()
    assert 91 <= raised.value.args[0] <= found
    assert shim.settings_of(explore).stateful_step_count == 3
