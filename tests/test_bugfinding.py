"""The bug-finding benchmark, small: the harness must find every mutant of ``tests/mutants``.

A change that blinds the harness (a generator that no longer reaches an interaction, an
invariant that stops firing, a broken differential oracle) makes one of these fail.
The full benchmark, with timings, several seeds and the false-positive check, is
``python benchmarks/bugfinding.py``.

Every run has a fixed seed, an example budget (not a time budget, so a slow machine
doesn't fail it) and ``database=None``, so saved failures can't help; shrinking is off
(detection is what is tested here). The runs explore, as ``rulesfuzz run`` does by default
(:mod:`harness.running.explore`); Hypothesis's engine (``--hypothesis``) finding mutants is
tested in ``tests/test_benchmarks.py`` and measured over the whole corpus by the benchmark.
Each mutant is its own test, so ``pytest -n auto`` spreads them over the cores.
"""

from __future__ import annotations

import ast

import pytest

from harness.adapters.reference import ReferenceAdapter
from harness.connection.loading import load_engine
from harness.running.runner import run
from tests.mutants import MUTANTS

#: Examples each mutant may take. On seed 0, exploring, every mutant is found within about 310
#: examples (most within 20); the margin absorbs rules added to the state machine.
DIFFERENTIAL_BUDGET = 1500
INVARIANT_BUDGET = 2000
SEED = 0


@pytest.mark.parametrize("name", list(MUTANTS))
def test_the_harness_finds_the_mutant(name, outside_coverage):
    """Differential mode finds every mutant; the invariants alone find those without a known gap.

    The differential run checks every invariant too: when a rules or generic invariant
    fails on the same step as the differential oracle, the invariants have found the bug
    by themselves and no second run is needed.
    """
    mutant = MUTANTS[name]
    engine = mutant.load()
    result = run(engine, against=ReferenceAdapter(), max_examples=DIFFERENTIAL_BUDGET, seed=SEED, database=None,
                 shrink=False, explore=True)
    assert result.violation is not None, (
        f"differential mode missed mutant {name} ({mutant.bug}; CR {mutant.rule}) in {result.stats.examples} examples")
    if mutant.invariant_gap is not None:
        return
    if any(not v.invariant.startswith("differential.") for v in result.violations):
        return
    result = run(engine, max_examples=INVARIANT_BUDGET, seed=SEED, database=None, shrink=False, explore=True)
    assert result.violation is not None, (
        f"the invariants alone missed mutant {name} ({mutant.bug}; CR {mutant.rule}) in {result.stats.examples} "
        f"examples; if they can't be expected to find it, give the mutant an INVARIANT_GAP")


#: One mutant of each area that Hypothesis's engine finds in a few examples: its own generation
#: (strategies drawn through Hypothesis's data, not exploration's random draws) must not go blind.
HYPOTHESIS_SAMPLE = ("dog_umbra_ignores_its_condition", "combat_lethal_to_blocker_dropped",
                     "stack_resolves_before_all_pass", "opponent_calls_the_coin", "edict_engine_chooses",
                     "could_produce_ignores_replacements", "legend_rule_world_rule", "umbra_saves_sacrificed")
HYPOTHESIS_BUDGET = 300


@pytest.mark.parametrize("name", HYPOTHESIS_SAMPLE)
def test_hypothesiss_engine_finds_the_mutant(name, outside_coverage):
    """With ``--hypothesis`` the differential run finds a mutant of each area too."""
    mutant = MUTANTS[name]
    result = run(mutant.load(), against=ReferenceAdapter(), max_examples=HYPOTHESIS_BUDGET, seed=SEED, database=None,
                 shrink=False, explore=False)
    assert result.violation is not None, (
        f"Hypothesis's engine missed mutant {name} ({mutant.bug}; CR {mutant.rule}) in {result.stats.examples} examples")


@pytest.mark.parametrize("name", list(MUTANTS))
def test_mutant_is_documented_and_loadable(name):
    """Each mutant documents its bug and rule, has its own engine name, and loads from the CLI spec."""
    mutant = MUTANTS[name]
    docstring = ast.get_docstring(ast.parse(mutant.path.read_text(encoding="utf-8")))
    assert docstring and "Rule broken: CR" in docstring and "Bug:" in docstring, name
    assert mutant.rule and mutant.bug
    engine = load_engine(mutant.spec)
    assert engine.info.name == f"mutant-{name}"
    assert engine.info.capabilities == ReferenceAdapter().info.capabilities


def test_the_corpus_is_big_enough():
    assert len(MUTANTS) >= 20
    assert len({m.bug for m in MUTANTS.values()}) == len(MUTANTS)
