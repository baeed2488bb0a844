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
