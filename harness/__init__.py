"""rulesfuzz's harness: the engine protocol, Hypothesis strategies and state machine,
the runner, scenario (replay) files, reports and the ``rulesfuzz`` command line."""

from .protocol import CAPABILITIES, Capability, Decider, Engine, EngineInfo, Game, IllegalAction, Unsupported

__all__ = ["CAPABILITIES", "Capability", "Decider", "Engine", "EngineInfo", "Game", "IllegalAction", "Unsupported"]
