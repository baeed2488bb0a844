"""The one place rulesfuzz reads Hypothesis internals (they may change between Hypothesis
releases; ``tests/test_harness_structure.py`` and ``tests/test_hypothesis_shim.py``
exercise every function here).

What Hypothesis has no public API for:

* which methods are rules of a state machine (:func:`is_rule`, :func:`rule_names`);
* a stable **database key** for an engine's tests (Hypothesis keys stateful tests by the
  machine class's source, which is the same for every engine): :func:`machine_test`
  mixes a digest of the engine's name in, so saved failures of one engine are replayed
  first on its next run, never on another engine's;
* a **seed** that keeps the example database (``hypothesis.seed`` switches it off): a run
  is reproducible and still replays saved failures first;
* **exploration outside Hypothesis's engine** (``rulesfuzz run --explore``): one example
  of a machine test run on choices drawn at random (:func:`random_data`,
  :func:`run_example`), with no data tree, mutation or target phase, and a failing
  example's choices handed to Hypothesis through the example database
  (:func:`save_example`, under the key Hypothesis itself uses: :func:`database_key`), so
  Hypothesis replays it first, shrinks it and keeps the shrunk failure.
"""

from __future__ import annotations

from random import Random

from hypothesis import seed as hypothesis_seed
from hypothesis import settings as Settings
from hypothesis import stateful
from hypothesis.control import BuildContext
from hypothesis.database import ExampleDatabase, choices_to_bytes
from hypothesis.errors import StopTest, UnsatisfiedAssumption
from hypothesis.internal.conjecture.data import ConjectureData
from hypothesis.internal.reflection import function_digest
from hypothesis.stateful import get_state_machine_test
from hypothesis.strategies._internal.core import DataObject

#: What :func:`run_example` raises for an example that ends without a verdict: rejected
#: (``hypothesis.reject()``, an engine's decline) or out of choices.
EXAMPLE_DISCARDED = (UnsatisfiedAssumption, StopTest)

_RULE_MARKER = "hypothesis_stateful_rule"


def is_rule(function) -> bool:
    """Whether ``function`` was decorated with ``hypothesis.stateful.rule``."""
    return getattr(function, _RULE_MARKER, None) is not None


def rule_names(machine: type[stateful.RuleBasedStateMachine]) -> set[str]:
    """The names of the rules Hypothesis collects from ``machine`` (over its MRO)."""
    return {r.function.__name__ for r in machine.setup_state().rules}


def machine_test(machine, settings: Settings, seed: int, digest: bytes):
    """A callable running ``machine`` under ``settings`` with ``seed``, its database key mixed with ``digest``.

    Calling it raises what Hypothesis raises for a failure (the test's exception, or a
    ``BaseExceptionGroup`` of them with ``report_multiple_bugs``).
    """
    test = get_state_machine_test(machine, settings=settings)
    test.hypothesis.inner_test._hypothesis_internal_add_digest = digest
    chosen = test._hypothesis_internal_use_settings
    hypothesis_seed(seed)(test)
    test._hypothesis_internal_use_settings = chosen  # keep the database hypothesis.seed() switched off
    test.rulesfuzz_machine, test.rulesfuzz_digest = machine, digest
    return test


def random_data(seed: int) -> ConjectureData:
    """Choices drawn at random from ``seed`` (deterministic), for :func:`run_example`."""
    return ConjectureData(random=Random(seed))


def run_example(test, data: ConjectureData) -> None:
    """Run one example of ``test`` (from :func:`machine_test`) on ``data``, outside
    Hypothesis's engine: no data tree, no mutations, no health checks.

    Raises what the test raises (a failure), or one of :data:`EXAMPLE_DISCARDED` for an
    example without a verdict. ``data.choices`` is then the example's choice sequence.
    """
    inner = test.hypothesis.inner_test
    try:
        with BuildContext(data, is_final=False, wrapped_test=test):
            inner(DataObject(data))
    finally:
        data.freeze()


def database_key(test) -> bytes:
    """The key under which Hypothesis keeps ``test``'s failures in its example database."""
    return function_digest(test.hypothesis.inner_test)


def save_example(database: ExampleDatabase, test, data: ConjectureData) -> None:
    """Save the choices of ``data`` (after :func:`run_example`) as a failure of ``test``:
    the next run of ``test`` on ``database`` replays it first (Hypothesis's reuse phase),
    and, with shrinking on, shrinks it."""
    database.save(database_key(test), choices_to_bytes(data.choices))


def settings_of(test) -> Settings:
    """The settings ``test`` (from :func:`machine_test`) runs under."""
    return test._hypothesis_internal_use_settings
