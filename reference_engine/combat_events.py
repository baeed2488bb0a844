"""The combat events' handlers (CR 506-511; the rules are :mod:`reference_engine.combat`):
``declare_attackers``, ``declare_blockers``, ``combat_damage``, ``end_of_combat``, and
``set_combat`` refined for a declared combat (:func:`extend`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalAction
from .objects import BATTLEFIELD

if TYPE_CHECKING:
    from .game_base import GameBase


def declare_attackers(game: GameBase, event):
    """``{"type": "declare_attackers", "player": P, "attackers": [ID...]}`` (CR 508.1)."""
    player = event.get("player")
    attackers = game.validate_attackers(player, event.get("attackers"))
    return lambda decider: game.declare_attackers(player, attackers)


def declare_blockers(game: GameBase, event):
    """``{"type": "declare_blockers", "blocks": {BLOCKER: ATTACKER}}`` (CR 509.1)."""
    blocks = game.validate_blocks(event.get("blocks", {}))
    return lambda decider: game.declare_blockers(blocks)


def combat_damage(game: GameBase, event):
    """``{"type": "combat_damage"}``: one combat damage step (CR 510)."""
    game.validate_combat_damage()
    return game.combat_damage_step


def end_of_combat(game: GameBase, event):
    """``{"type": "end_of_combat"}`` (CR 511.3)."""
    return lambda decider: game.end_combat()


HANDLERS = {"declare_attackers": declare_attackers, "declare_blockers": declare_blockers,
            "combat_damage": combat_damage, "end_of_combat": end_of_combat}


def extend(handlers: dict) -> None:
    """Add the combat events to ``handlers`` (``reference_engine.events.HANDLERS``), and refine
    ``set_combat`` for a declared combat: while one is in progress it may only remove a creature
    from combat (CR 506.4)."""
    handlers.update(HANDLERS)
    set_combat = handlers["set_combat"]

    def set_combat_in_combat(game, event):
        obj = game.objects.get(event.get("object")) if isinstance(event.get("object"), str) else None
        status = event.get("status")
        if obj is not None and obj.zone == BATTLEFIELD and status is not None and status != obj.combat \
                and game.current_combat() is not None:
            raise IllegalAction("combat_in_progress", f"attackers were declared: {obj.id!r} becomes {status} only "
                                                      f"by declare_attackers or declare_blockers (CR 508, 509)")
        return set_combat(game, event)

    handlers["set_combat"] = set_combat_in_combat
