"""Named rules properties over engine-neutral observations, each citing its CR rules.

Importing this package registers every invariant in :data:`REGISTRY`.
"""

from . import damage, differential, generic, layers_and_copies, legend_rule, regeneration, umbra_armor  # noqa: F401
from .base import (
    REGISTRY, Decision, Invariant, ScenarioRun, Transition, Violation, invariant, ruling_text, select,
)

__all__ = ["REGISTRY", "Decision", "Invariant", "ScenarioRun", "Transition", "Violation", "invariant", "ruling_text", "select"]
