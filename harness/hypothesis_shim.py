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
  is reproducible and still replays saved failures first.
"""

from __future__ import annotations

from hypothesis import seed as hypothesis_seed
from hypothesis import settings as Settings
from hypothesis import stateful
from hypothesis.stateful import get_state_machine_test

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
    return test
