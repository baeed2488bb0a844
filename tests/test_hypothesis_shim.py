"""The Hypothesis shim: the database key mixes in a digest, and a seed keeps the database on."""

from __future__ import annotations

import unittest

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase
from hypothesis.stateful import RuleBasedStateMachine, rule

from harness.generation.hypothesis_shim import machine_test


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


# ------------------------------------------------------------------ drawing at random (rulesfuzz run --explore)
from random import Random  # noqa: E402

from hypothesis.stateful import Bundle, initialize, multiple, precondition  # noqa: E402

from harness.generation import hypothesis_shim as shim  # noqa: E402


def _source(seed=0, **bundles):
    return shim.RandomSource(Random(seed), {k: list(v) for k, v in bundles.items()})


@st.composite
def _pairs(draw, low):
    a = draw(st.integers(low, low + 3))
    return (a, draw(st.sampled_from("xyz")))


DRAWN = {
    "integers": (st.integers(2, 5), lambda v: isinstance(v, int) and 2 <= v <= 5),
    "booleans": (st.booleans(), lambda v: isinstance(v, bool)),
    "none": (st.none(), lambda v: v is None),
    "just": (st.just("x"), lambda v: v == "x"),
    "sampled_from": (st.sampled_from(["a", "b", "c"]), lambda v: v in "abc"),
    "sampled_from, mapped and filtered": (st.sampled_from([1, 2, 3, 4]).filter(lambda n: n % 2).map(lambda n: n * 10),
                                          lambda v: v in (10, 30)),
    "one_of": (st.one_of(st.just(1), st.just("one")), lambda v: v in (1, "one")),
    "tuples": (st.tuples(st.integers(0, 1), st.just("t")), lambda v: v[0] in (0, 1) and v[1] == "t"),
    "fixed_dictionaries": (st.fixed_dictionaries({"k": st.integers(7, 7)}), lambda v: v == {"k": 7}),
    "lists": (st.lists(st.integers(0, 9), min_size=1, max_size=3), lambda v: 1 <= len(v) <= 3),
    "unique lists": (st.lists(st.integers(0, 2), min_size=2, max_size=3, unique=True),
                     lambda v: 2 <= len(v) == len(set(v)) <= 3),
    "dictionaries": (st.dictionaries(st.sampled_from("ab"), st.integers(1, 2), max_size=2),
                     lambda v: isinstance(v, dict) and set(v) <= {"a", "b"} and set(v.values()) <= {1, 2}),
    "permutations": (st.permutations([1, 2, 3]), lambda v: sorted(v) == [1, 2, 3]),
    "composite": (_pairs(10), lambda v: 10 <= v[0] <= 13 and v[1] in "xyz"),
    "deferred": (st.deferred(lambda: st.integers(3, 3)), lambda v: v == 3),
    # A template group, then a card of it (harness.generation.plan.Plan.choice for declared cards).
    "flatmap": (st.integers(0, 1).flatmap(lambda i: st.sampled_from((("a", "b"), ("c",))[i])), lambda v: v in "abc"),
    "filter": (st.integers(0, 9).filter(lambda n: n > 6), lambda v: v in (7, 8, 9)),
    "bundle": (Bundle("things"), lambda v: v in ("t1", "t2")),
    "list of a bundle": (st.lists(Bundle("things"), min_size=1, max_size=2, unique=True), lambda v: set(v) <= {"t1", "t2"}),
}


@pytest.mark.parametrize("name", sorted(DRAWN))
def test_each_strategy_the_rules_use_is_drawn_at_random_within_its_bounds(name):
    strategy, valid = DRAWN[name]
    values = [shim.draw_at_random(strategy, _source(seed, things=["t1", "t2"])) for seed in range(40)]
    assert all(valid(v) for v in values), values
    again = [shim.draw_at_random(strategy, _source(seed, things=["t1", "t2"])) for seed in range(40)]
    assert values == again  # the seed decides


def test_draws_vary_with_the_seed():
    values = {shim.draw_at_random(st.integers(0, 1000), _source(seed)) for seed in range(20)}
    assert len(values) > 10


def test_an_empty_bundle_a_filter_nothing_passes_and_an_unknown_strategy_raise():
    with pytest.raises(shim.EmptyBundle):
        shim.draw_at_random(Bundle("things"), _source())
    assert shim.draw_at_random(st.one_of(Bundle("things"), st.just(5)), _source()) == 5  # the non-empty branch
    with pytest.raises(shim.NothingSatisfies):
        shim.draw_at_random(st.sampled_from([1, 2]).filter(lambda n: n == 3), _source())
    with pytest.raises(shim.NothingSatisfies):
        shim.draw_at_random(st.integers(0, 3).filter(lambda n: str(n) == "x"), _source())
    with pytest.raises(TypeError, match="at random"):
        shim.draw_at_random(st.floats(0, 1), _source())
    with pytest.raises(TypeError, match="unbounded"):
        shim.draw_at_random(st.integers(), _source())


class Stack(RuleBasedStateMachine):
    items = Bundle("items")

    @initialize(target=items)
    def start(self):
        return multiple("a", "b")

    @rule(target=items, item=items)
    def copy(self, item):
        return item + "'"

    @precondition(lambda self: False)
    @rule()
    def never(self):
        raise AssertionError("a rule whose precondition is false ran")


def test_rule_records_give_initializers_rules_targets_and_preconditions():
    initializers, rules = shim.rules_of(Stack)
    assert [r.function.__name__ for r in initializers] == ["start"]
    by_name = {r.function.__name__: r for r in rules}
    assert set(by_name) == {"copy", "never"}
    assert by_name["copy"].targets == ("items",) and [b.name for b in by_name["copy"].bundles] == ["items"]
    assert [p(None) for p in by_name["never"].preconditions] == [False]
    assert shim.results_of(multiple("a", "b")) == ("a", "b") and shim.results_of("c") == ("c",)


# ------------------------------------------------------------------ the internals the shim reads, where it looks
def test_every_internal_the_shim_reads_is_where_it_looks():
    import hypothesis

    problems = shim.internals_problems()
    assert not problems, (f"Hypothesis {hypothesis.__version__} moved internals harness/generation/hypothesis_shim/ reads "
                          f"(adapt the shim, then the pin in pyproject.toml):\n  " + "\n  ".join(problems))


def test_a_moved_internal_is_named(monkeypatch):
    class Elsewhere:
        pass

    monkeypatch.setattr(shim, "FlatMapStrategy", Elsewhere)
    monkeypatch.setattr(shim, "_MISSING", [])
    missing = shim._internal("hypothesis.strategies._internal.nowhere", "GoneStrategy")
    assert not isinstance(st.just(1), missing)  # a stand-in nothing is an instance of
    problems = shim.internals_problems()
    assert any(p.startswith("hypothesis.strategies._internal.nowhere.GoneStrategy is gone") for p in problems), problems
    assert any("flatmap" in p and "not a Elsewhere" in p for p in problems), problems
    with pytest.raises(TypeError, match="FlatMapStrategy"):  # --explore refuses it, naming its class
        shim.draw_at_random(st.integers(0, 1).flatmap(st.just), _source())


class _Transformed:
    def __init__(self, transformations):
        self._transformations = transformations


def test_sampled_from_transformations_are_read_as_pairs_and_as_triples():
    double, odd = (lambda n: n * 2), (lambda n: n % 2)
    assert shim.sampled_transformations(_Transformed((("map", double), ("filter", odd)))) == (
        ("map", double), ("filter", odd))  # up to Hypothesis 6.166
    assert shim.sampled_transformations(_Transformed((("map", double, None), ("filter", odd, "here:1")))) == (
        ("map", double), ("filter", odd))  # since 6.167: the call's location too


def test_a_bundle_s_filter_map_and_consumes_are_honoured_at_random():
    # Since Hypothesis rewrote Bundle draws, Bundle.filter/.map keep the transformations in the
    # Bundle (before: a FilteredStrategy/MappedStrategy around it); both shapes draw alike.
    from hypothesis.stateful import consumes

    filtered = Bundle("things").filter(lambda v: v == "t2").map(str.upper)
    assert {shim.draw_at_random(filtered, _source(seed, things=["t1", "t2"])) for seed in range(20)} == {"T2"}
    source = _source(0, things=["t1", "t2"])
    drawn = {shim.draw_at_random(consumes(Bundle("things")), source) for _ in range(2)}
    assert drawn == {"t1", "t2"} and source.bundles["things"] == []  # each value consumed once
    with pytest.raises(shim.NothingSatisfies):
        shim.draw_at_random(Bundle("things").filter(lambda v: v == "t3"), _source(0, things=["t1"]))


def test_settings_of_gives_the_settings_a_machine_test_runs_under():
    db = InMemoryExampleDatabase()
    chosen_settings = chosen(db, [Phase.generate])
    test = machine_test(Machine, chosen_settings, seed=1, digest=b"x")
    assert shim.settings_of(test) is chosen_settings and shim.settings_of(test).database is db


def test_the_installed_hypothesis_is_within_the_pin(capsys):
    # .ci/run installs the newest Hypothesis the pin allows, so the shim is tested at the pin's upper bound.
    import tomllib
    from pathlib import Path

    import hypothesis
    from packaging.requirements import Requirement

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    pin = next(Requirement(d) for d in project["dependencies"] if Requirement(d).name == "hypothesis")
    with capsys.disabled():
        print(f"\nHypothesis {hypothesis.__version__} (pyproject.toml pins {pin.specifier})")
    assert pin.specifier.contains(hypothesis.__version__), (hypothesis.__version__, str(pin.specifier))
