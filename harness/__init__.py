"""rulesfuzz's harness: the engine protocol, Hypothesis strategies and state machine,
the runner, scenario (replay) files, reports and the ``rulesfuzz`` command line."""

from . import decisions  # noqa: F401  (the published table; it documents Decider's kinds)
from .protocol import (CAPABILITIES, Capability, Decider, Engine, EngineInfo, Game, IllegalAction, RulesfuzzError,
                       Unsupported)

__all__ = ["CAPABILITIES", "Capability", "Decider", "Engine", "EngineInfo", "Game", "IllegalAction", "RulesfuzzError",
           "Unsupported"]
