"""The garbage collector during a run (:mod:`harness.running.collector`) and examples that free their
games by reference counting (``EngineMachine.release``).

On the tiny engine (written from scratch, examples/engines/tiny) and on the reference engine.
"""

from __future__ import annotations

import gc
import weakref

import pytest

import harness.running.machine as machine_module
from harness.running import collector, explore
from harness.running.execution import Stats
from harness.connection.loading import load_engine
from harness.running.machine import make_machine
from harness.running.runner import run

from .conftest import watching

TINY = "examples/engines/tiny/engine.py"


@pytest.mark.parametrize("explore_mode", [False, True])
def test_a_run_freezes_what_exists_and_collects_the_young_less_often_then_restores_both(explore_mode):
    before = gc.get_threshold()
    seen: list = []

    def note(event):  # the frozen count once: gc.get_freeze_count walks every frozen object
        seen.append((gc.get_threshold()[0], None if seen else gc.get_freeze_count()))

    run(watching(load_engine(TINY + ":engine"), note), max_examples=5, seed=0, database=None, explore=explore_mode)
    assert seen and all(t == max(before[0], collector.YOUNG_THRESHOLD) for t, _ in seen)
    assert seen[0][1] > 1000  # modules, card data, strategies
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_the_collector_is_restored_when_the_block_raises():
    before = gc.get_threshold()
    with pytest.raises(RuntimeError):
        with collector.tuned():
            assert gc.get_freeze_count() > 0
            raise RuntimeError
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_a_higher_threshold_of_the_caller_is_kept():
    before = gc.get_threshold()
    gc.set_threshold(collector.YOUNG_THRESHOLD * 3, *before[1:])
    try:
        with collector.tuned():
            assert gc.get_threshold()[0] == collector.YOUNG_THRESHOLD * 3
    finally:
        gc.set_threshold(*before)


@pytest.mark.parametrize("spec", [TINY + ":engine", TINY + ":buggy", "reference"])
def test_each_example_frees_its_session_without_the_cyclic_collector(monkeypatch, spec):
    """Hypothesis's machine is in a reference cycle; the session (game, every observation) it
    held is freed when the example ends, by reference counting alone: with the collector off,
    no session of a finished example is left alive, whether it ended normally, with a finding
    or declined."""
    alive: list[weakref.ref] = []

    class Tracked(machine_module.Session):
        def __init__(self, *args, **kwargs):
            alive.append(weakref.ref(self))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(machine_module, "Session", Tracked)
    machine = make_machine(load_engine(spec), [], [], Stats())
    outcomes = set()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for index in range(12):
            try:
                explore.run_one(machine, explore.example_seed(1, index), 10)
                outcomes.add("ran")
            except explore.ExampleDeclined:
                outcomes.add("declined")
            except Exception as exc:  # noqa: BLE001  a finding: the example ended by raising
                outcomes.add(type(exc).__name__)
                del exc
        assert alive and "ran" in outcomes
        assert [r for r in alive if r() is not None] == []
    finally:
        if was_enabled:
            gc.enable()


def test_a_freeze_of_the_caller_and_of_an_outer_run_is_kept():
    """Was: a run's end unfroze every frozen object, those a process froze itself (a server
    that forks) and, for a run inside a run, the outer run's for the rest of it."""
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector.tuned():
            pass
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
    with collector.tuned():
        with collector.tuned():
            pass
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
