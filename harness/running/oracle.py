"""The oracle side of differential mode: a reference engine's game beside the engine's.

The reference engine plays only what the engine under test declares: a board with a
card outside ``EngineInfo.cards`` is declined, and so is a step in which the reference
engine's log shows a capability the engine doesn't claim (umbra armor, a triggered
ability, a 704.5 rule it doesn't implement; :func:`invariants.differential.beyond_declaration`),
since the reference's observation is then no verdict on that engine. What is compared
(:class:`invariants.differential.Scope`) follows the same declaration.
"""

from __future__ import annotations

import copy

from invariants.differential import Scope, beyond_declaration

from harness.running.decider import MirrorDecider
from harness.running.observation_copies import _plain_copy
from harness.protocol import BoardSpec, Event, IllegalAction, Observation, Unsupported


class Oracle:
    """A game of ``against`` (the reference engine) on ``board``, for an engine declaring ``info``.

    ``first`` is the reference's observation after ``new_game``. Raises
    :class:`~harness.protocol.Unsupported` when the board holds a card the engine doesn't
    declare, or when the reference engine itself declines the board; ValueError for a
    malformed ``info.ignored_fields``.
    """

    def __init__(self, against, info, board: BoardSpec):
        from harness.generation.plan import effective_capabilities  # claimed, and implied by the engine's cards

        self.scope = Scope.of(info, effective_capabilities(info))
        self.engine_name = getattr(info, "name", "the engine")
        declared = getattr(info, "cards", None)
        if declared is not None:
            declared = set(declared) | {d.get("name") for d in getattr(info, "card_definitions", ()) or ()
                                        if isinstance(d, dict)}
            for spec in board.get("objects", ()) if isinstance(board, dict) else ():
                name = spec.get("card") if isinstance(spec, dict) else None
                if name not in declared:
                    raise Unsupported(f"card:{name}", f"{self.engine_name} doesn't declare {name!r} in its cards")
        self.game = against.new_game(copy.deepcopy(board))
        self.first: Observation = self.game.observe()

    def reference(self, after: Observation, illegal: str | None = None) -> dict:
        """The ``Transition.reference`` record: ``{"after", "illegal", "ignored", "scope"}``."""
        return {"after": after, "illegal": illegal, "ignored": frozenset(self.scope.ignored), "scope": self.scope}

    def step(self, event: Event, asked, decider) -> dict:
        """Apply ``event`` with the decisions the engine was given (``asked``), others from ``decider``.

        Returns the ``Transition.reference`` record. Raises :class:`~harness.protocol.Unsupported`
        (reason ``capability:NAME``) when the reference engine used a capability the
        engine doesn't claim, or when the reference engine declines the event.
        """
        illegal = None
        try:
            self.game.apply(_plain_copy(event), MirrorDecider(asked, decider))
        except IllegalAction as exc:
            illegal = exc.reason or "illegal"
        after = self.game.observe()
        if illegal is None:
            beyond = beyond_declaration(after.get("log", ()), self.scope.capabilities)
            if beyond:
                raise Unsupported(f"capability:{beyond[0]}", f"the reference engine used {', '.join(beyond)}, "
                                                             f"which {self.engine_name} doesn't claim")
        return self.reference(after, illegal)
