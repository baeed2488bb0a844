"""Named rules properties over engine-neutral observations, each citing its CR rules.

Importing this package registers every invariant in :data:`REGISTRY`.
"""

from . import (  # noqa: F401
    chance, cleanup, control, damage, differential, generic, layers_and_copies, legend_rule, mana, names_and_searches,
    playtest, regeneration, state_based_actions, triggers, zones, umbra_armor, zone_changes,
)
from . import spell_effects, static_bonuses, templates  # noqa: F401  the card model's templates, checked
from . import combat, combat_damage, combat_removal  # noqa: F401  declarations, damage, removal (capability combat)
from . import actions, game_amounts, steps  # noqa: F401  steps, edicts, 0 damage, put tapped; amounts from the game
from . import stack  # noqa: F401  the stack and priority (capability stack)
from .base import (
    REGISTRY, Decision, Invariant, ScenarioRun, Transition, Violation, invariant, ruling_text, select,
)

__all__ = ["REGISTRY", "Decision", "Invariant", "ScenarioRun", "Transition", "Violation", "invariant", "ruling_text", "select"]
