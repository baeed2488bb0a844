"""Errors raised by the reference engine."""

from __future__ import annotations
from harness.protocol import RulesfuzzError


class EngineError(RulesfuzzError):
    """Base class of the reference engine's errors."""


class IllegalAction(EngineError):
    """An event the rules do not allow in the current game state.

    ``reason`` is a short machine-readable code (``"not_on_battlefield"``,
    ``"illegal_target"``, ...); the message says what and where. The game is left
    unchanged: every event is validated before anything is performed.
    """

    def __init__(self, reason: str, message: str):
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.detail = message


class Unsupported(EngineError):
    """The engine does not model something the game now needs: it declines rather than judge.

    Raised by ``Game.apply`` before changing anything, when an ability the engine declares
    not modelled (``CardScript.not_modelled``) would apply to the event
    (:mod:`reference_engine.unmodelled`). ``reason`` is a short code such as
    ``"ability:protection"``; the message names the card and the ability. The harness's
    adapter turns it into ``harness.protocol.Unsupported``: a decline, never a verdict.
    """

    def __init__(self, reason: str, message: str):
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.detail = message


class UnknownCard(EngineError, KeyError):
    """A card name that is not in the engine's card pool."""

    def __init__(self, name: str, known: list[str]):
        super().__init__(name)
        self.name = name
        self.known = known

    def __str__(self) -> str:
        return f"unknown card name {self.name!r} (the engine knows {len(self.known)} cards; see `rulesfuzz cards`)"


class BadBoard(EngineError, ValueError):
    """A board description the engine cannot build a game from; the message says where."""

