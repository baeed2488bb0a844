"""The state machine's rules, one mixin class per rules area.

Each module holds one :class:`~harness.rules.base.RulesArea` subclass whose
``@rule`` methods build events of that area; ``harness.running.machine.EngineMachine``
inherits them all (Hypothesis collects rules over the class's MRO). See
``harness.running.machine`` for how a new area is added.
"""

from .base import CARD_LISTS, DECLARED_ONLY, REQUIRES, RulesArea, needs, objects
from .chance import ChanceRules
from .combat import CombatRules
from .control import ControlRules
from .destruction import DestructionRules
from .layers import LayersRules
from .mana import ManaRules
from .modelled import ModelledRules
from .permanents import PermanentRules
from .search import SearchRules
from .stack import StackRules
from .playtest import PlaytestRules
from .steps import StepsRules
from .umbra import UmbraRules
from .zones import ZoneRules

#: The rules-area mixins the machine inherits, in MRO order.
AREAS: tuple[type[RulesArea], ...] = (StackRules, DestructionRules, UmbraRules, PermanentRules, LayersRules, ControlRules,
                                       ManaRules, ChanceRules, SearchRules, PlaytestRules, ModelledRules,
                                       ZoneRules, StepsRules, CombatRules)

__all__ = ["AREAS", "CARD_LISTS", "DECLARED_ONLY", "REQUIRES", "ChanceRules", "CombatRules", "ControlRules", "DestructionRules", "LayersRules", "ManaRules",
           "ModelledRules", "PermanentRules", "PlaytestRules",
           "RulesArea", "SearchRules", "StackRules", "StepsRules", "UmbraRules", "ZoneRules", "needs", "objects"]
