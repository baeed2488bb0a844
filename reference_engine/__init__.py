"""rulesfuzz's reference rules engine: small, readable, and correct for the rules in scope.

It is the oracle that forks are compared to. Entry point: :class:`ReferenceEngine`,
whose ``new_game(board)`` returns a :class:`Game` with ``apply(event, decider)`` and
``observe()``. The harness reaches it only through ``harness.adapters.reference``.
"""

from .cards import playable_cards
from .errors import BadBoard, EngineError, IllegalAction, UnknownCard, Unsupported
from .game import CAPABILITIES, ENGINE_NAME, ENGINE_VERSION, Game, ReferenceEngine

__all__ = [
    "BadBoard", "CAPABILITIES", "ENGINE_NAME", "ENGINE_VERSION", "EngineError", "Game",
    "IllegalAction", "ReferenceEngine", "UnknownCard", "Unsupported", "playable_cards",
]
