"""The adapter for the reference engine, and for forks of it.

The only module of the harness that imports :mod:`reference_engine`. A fork of the
reference engine wraps its own engine class the same way::

    engine = ReferenceAdapter(MyForkedEngine())
"""

from __future__ import annotations

import reference_engine
from reference_engine.observed import observes_unchanging
from harness.protocol import EngineInfo, IllegalAction, Unsupported


class ReferenceGame:
    """A reference-engine game seen through the protocol."""

    __slots__ = ("_game",)

    def __init__(self, game):
        self._game = game

    def apply(self, event, decider) -> None:
        try:
            self._game.apply(event, decider)
        except reference_engine.IllegalAction as exc:
            raise IllegalAction(exc.reason, exc.detail) from None
        except reference_engine.Unsupported as exc:  # the oracle declines: never a verdict
            raise Unsupported(exc.reason, exc.detail) from None

    def observe(self):
        return self._game.observe()

    @property
    def fresh_observations(self) -> bool:
        """Whether the game never changes an observation once given out: none shares a dict or
        list with its state, and an entry given out again (the very dict, for an object unchanged
        since the last observation) is never changed (``reference_engine.observed.observes_unchanging``:
        a fork that observes with its own methods is not taken at its word). Observations are
        read-only for the caller. The session then doesn't look for shared parts, and takes an
        entry that is the last observation's as unchanged (:class:`harness.running.execution.Session`,
        which takes this from the reference engine's game only)."""
        return observes_unchanging(self._game)


class ReferenceAdapter:
    """Wraps an engine object with ``name``, ``version``, ``capabilities`` and ``new_game``.

    Raises :class:`reference_engine.BadBoard` from ``new_game`` for a malformed board.
    """

    def __init__(self, engine=None, name: str | None = None):
        self._engine = engine if engine is not None else reference_engine.ReferenceEngine()
        self.info = EngineInfo(
            name=name or self._engine.name,
            version=self._engine.version,
            capabilities=frozenset(self._engine.capabilities),
        )

    def new_game(self, board) -> ReferenceGame:
        return ReferenceGame(self._engine.new_game(board))


def reference_engine_adapter() -> ReferenceAdapter:
    """A fresh adapter for the clean reference engine."""
    return ReferenceAdapter()


def not_modelled(name: str) -> list[str] | None:
    """What the reference engine does not model of card ``name`` (its script's list), or
    None when the reference engine can't play the card at all."""
    try:
        _, script = reference_engine.cards.card(name)
    except reference_engine.UnknownCard:
        return None
    return list(script.not_modelled)
