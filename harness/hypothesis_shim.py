"""The one place rulesfuzz reads Hypothesis internals (they may change between
Hypothesis releases; ``tests/test_harness_structure.py`` exercises every function here).
"""

from __future__ import annotations

from hypothesis import stateful

_RULE_MARKER = "hypothesis_stateful_rule"


def is_rule(function) -> bool:
    """Whether ``function`` was decorated with ``hypothesis.stateful.rule``."""
    return getattr(function, _RULE_MARKER, None) is not None


def rule_names(machine: type[stateful.RuleBasedStateMachine]) -> set[str]:
    """The names of the rules Hypothesis collects from ``machine`` (over its MRO)."""
    return {r.function.__name__ for r in machine.setup_state().rules}
