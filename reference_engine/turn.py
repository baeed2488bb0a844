"""Turn structure events: ``pass_step`` and ``begin_turn`` (CR 500, 502, 106.4, 302.6).

Steps and phases are not modelled one by one; these two events stand for their edges:

* ``{"type": "pass_step"}``: the current step or phase ends, so every mana pool empties
  (CR 106.4, 500.4). Logs ``mana_lost`` for each pool that had mana.
* ``{"type": "begin_turn", "player": P}``: the previous turn ends (pools empty) and P's
  turn begins: P has now controlled each of their permanents continuously since their
  most recent turn began, so none of them is summoning sick (CR 302.6), and in the untap
  step P untaps all their permanents (CR 502.3; logged ``untapped``, cause
  ``"untap step"``). Nothing else happens: no upkeep (triggers "at the beginning of your
  upkeep" are not reached), no draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalAction

if TYPE_CHECKING:
    from .game_base import GameBase


def pass_step(game: GameBase, event):
    """Validate a ``pass_step`` event; return ``perform(decider)``."""
    return lambda decider: game.empty_mana_pools()


def begin_turn(game: GameBase, event):
    """Validate a ``begin_turn`` event; return ``perform(decider)``."""
    player = event.get("player")
    if not isinstance(player, str) or player not in game.players:
        raise IllegalAction("bad_event", f"player={player!r} is not a player")

    def perform(decider):
        game.empty_mana_pools()
        for obj in game.battlefield():
            if obj.controller == player:
                if obj.summoning_sick:
                    obj.summoning_sick = False
                game.set_tapped(obj, False, "untap step")

    return perform
