"""Control-changing effects (CR 613.1b layer 2, 108.4, 110.2): the ``change_control`` event.

``{"type": "change_control", "object": ID, "controller": P}`` is a resolved effect "gain
control of target permanent" with no duration, such as the enters ability of Agent of
Treachery: P controls the permanent from now on (the latest control-changing effect
wins, CR 613.7; in scope no such effect ends). Written as a mixin of
:class:`reference_engine.game.Game`, so a fork can override one step.

What follows from it is the rest of the rules: the permanent is removed from combat
(CR 506.4), a creature can't attack or use {T} abilities until its new controller has
controlled it continuously since their most recent turn began (CR 302.6: it is
summoning sick), and state-based actions may apply (an Aura with "enchant creature you
control" no longer legally attached, 704.5m; two legends of one name under one player,
704.5j). When it leaves the battlefield it goes to its owner's graveyard (CR 404.1) and
its leaves-the-battlefield abilities are controlled by its controller as it last existed
(CR 603.3a); a token it makes is its controller's (CR 111.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .layers import card_types
from .objects import GameObject

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)


class ControlRules(GameBase):
    """The control-changing effect, a mixin of :class:`reference_engine.game.Game`."""

    def change_control(self, obj: GameObject, controller: str) -> None:
        """``controller`` gains control of ``obj`` (CR 613.1b). Logs ``control_changed``
        (``object``, ``from``, ``to``) when the controller changes; nothing changes when
        ``controller`` already controls it."""
        previous = obj.controller
        if previous == controller:
            return
        obj.controller = controller
        self.log.append({"kind": "control_changed", "object": obj.id, "from": previous, "to": controller})
        if "Creature" in card_types(self, obj):
            obj.summoning_sick = True  # CR 302.6
        if obj.combat is not None:  # CR 506.4
            obj.combat = None
            self.log.append({"kind": "removed_from_combat", "object": obj.id})
