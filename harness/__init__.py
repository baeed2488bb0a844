"""rulesfuzz's harness: the engine protocol, Hypothesis strategies and state machine,
the runner, scenario (replay) files, reports and the ``rulesfuzz`` command line."""

from .protocol import Decider, Engine, EngineInfo, Game, IllegalAction

__all__ = ["Decider", "Engine", "EngineInfo", "Game", "IllegalAction"]
