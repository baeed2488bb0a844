"""The state machine's rules, one mixin class per rules area.

Each module holds one :class:`~harness.rules.base.RulesArea` subclass whose
``@rule`` methods build events of that area; ``harness.running.machine.EngineMachine``
inherits them all (Hypothesis collects rules over the class's MRO). See
``harness.running.machine`` for how a new area is added.
"""

from .base import CARD_LISTS, DECLARED_ONLY, REQUIRES, RulesArea, needs, objects
from .chance import ChanceActions
from .combat import CombatActions
from .control import ControlActions
from .destruction import DestructionActions
from .layers import LayersActions
from .mana import ManaActions
from .modelled import ModelledActions
from .permanents import PermanentActions
from .search import SearchActions
from .stack import StackActions
from .playtest import PlaytestActions
from .steps import StepsActions
from .umbra import UmbraActions
from .zones import ZoneActions

#: The rules-area mixins the machine inherits, in MRO order.
AREAS: tuple[type[RulesArea], ...] = (StackActions, DestructionActions, UmbraActions, PermanentActions, LayersActions, ControlActions,
                                       ManaActions, ChanceActions, SearchActions, PlaytestActions, ModelledActions,
                                       ZoneActions, StepsActions, CombatActions)

__all__ = ["AREAS", "CARD_LISTS", "DECLARED_ONLY", "REQUIRES", "ChanceActions", "CombatActions", "ControlActions", "DestructionActions", "LayersActions", "ManaActions",
           "ModelledActions", "PermanentActions", "PlaytestActions",
           "RulesArea", "SearchActions", "StackActions", "StepsActions", "UmbraActions", "ZoneActions", "needs", "objects"]
