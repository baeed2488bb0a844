"""Activation costs: which abilities a permanent has, what activating one costs, paying it.

Activating an ability (CR 602.2) is checked in full before anything changes
(:meth:`CostPayment.check_cost`), then paid (:meth:`CostPayment.pay_cost`, CR 601.2h):

* {T}: tap this permanent; a tapped permanent can't pay it (CR 107.5).
* {Q}: untap this permanent; an untapped permanent can't pay it (CR 107.6).
* A creature's ability with {T} or {Q} in its cost can't be activated unless its
  controller has controlled it continuously since their most recent turn began (CR
  302.6): the object's ``summoning_sick`` flag, cleared by ``begin_turn``.
* Mana symbols are paid from the controller's mana pool (CR 106.4, :mod:`.mana`).
* Other parts ("Sacrifice another permanent") go to :meth:`CostPayment.check_other_cost`
  and :meth:`CostPayment.pay_other_cost`; the engine models none yet and says so
  (``Unsupported``).

Two hooks for rules that change abilities or costs, overridden by subclasses:
:meth:`CostPayment.activated_abilities` (which abilities a permanent has now, e.g. none
while a "continuous" permanent is tapped) and :meth:`CostPayment.activation_cost` (the
total cost, e.g. a "mono" permanent's additional {T}, CR 118.8, 601.2f).

Log entries: ``tapped`` / ``untapped`` (``object``, ``cause``: ``"cost"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from functools import cache

from .abilities import ActivatedAbility, Cost, abilities_of
from .errors import IllegalAction, Unsupported
from .layers import characteristics
from .objects import GameObject

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)


@cache
def _abilities(text: str, subtypes: tuple[str, ...], kinds: tuple[str, ...]) -> tuple[ActivatedAbility, ...]:
    return abilities_of(text, subtypes, kinds)


class CostPayment(GameBase):
    """Abilities and their costs, a mixin of :class:`reference_engine.game.Game`."""

    def printed_abilities(self, obj: GameObject) -> tuple[ActivatedAbility, ...]:
        """Every activated ability ``obj`` has from its characteristics (its copiable rules
        text and basic land types, CR 305.6), in order, whatever zone it is in."""
        ch = characteristics(self, obj)
        return _abilities(ch.text, tuple(ch.subtypes), self.copiable_values(obj)[1].activated)

    def activated_abilities(self, obj: GameObject) -> tuple[ActivatedAbility, ...]:
        """Hook: the activated abilities ``obj`` has now; the ``ability`` of an ``activate``
        event indexes them. Default: :meth:`printed_abilities`."""
        return self.printed_abilities(obj)

    def activation_cost(self, obj: GameObject, ability: ActivatedAbility) -> Cost:
        """Hook: the total cost to activate ``ability`` of ``obj`` (CR 601.2f): its printed
        cost plus additional costs. Default: the printed cost."""
        return ability.cost

    def summoning_sick_for(self, obj: GameObject) -> bool:
        """CR 302.6: ``obj`` is a creature its controller hasn't controlled continuously since
        their most recent turn began, so its {T} and {Q} abilities can't be activated."""
        return obj.summoning_sick and characteristics(self, obj).is_creature

    def check_cost(self, obj: GameObject, ability: ActivatedAbility, cost: Cost, player: str) -> None:
        """Raise :class:`IllegalAction` if ``player`` can't pay ``cost`` for ``obj`` now.

        Reasons: ``"already_tapped"`` (CR 107.5), ``"already_untapped"`` (107.6),
        ``"summoning_sick"`` (302.6), ``"insufficient_mana"`` (106.4). Changes nothing.
        """
        if cost.tap and not cost.untap and obj.tapped:
            raise IllegalAction("already_tapped", f"{obj.id!r} is tapped and can't be tapped to pay {{T}} (CR 107.5)")
        if cost.untap and not cost.tap and not obj.tapped:
            raise IllegalAction("already_untapped",
                                f"{obj.id!r} is untapped and can't be untapped to pay {{Q}} (CR 107.6)")
        if (cost.tap or cost.untap) and self.summoning_sick_for(obj):
            raise IllegalAction("summoning_sick", f"{obj.id!r} is a creature its controller hasn't controlled "
                                                  "continuously since their most recent turn began (CR 302.6)")
        if cost.mana and not self.can_pay_mana(player, cost.mana):
            raise IllegalAction("insufficient_mana", f"{player}'s mana pool can't pay "
                                                     f"{''.join('{' + s + '}' for s in cost.mana)}")
        for part in cost.other:
            self.check_other_cost(obj, ability, part, player)

    def check_other_cost(self, obj: GameObject, ability: ActivatedAbility, part: str, player: str) -> None:
        """Hook: raise :class:`IllegalAction` if ``part`` (e.g. "Sacrifice another
        permanent") can't be paid. Default: :class:`Unsupported` (not modelled)."""
        raise Unsupported("cost:other", f"the cost {part!r} is not modelled")

    def pay_other_cost(self, obj: GameObject, ability: ActivatedAbility, part: str, player: str, decider) -> None:
        """Hook: pay ``part`` of a cost (checked by :meth:`check_other_cost`)."""
        raise Unsupported("cost:other", f"the cost {part!r} is not modelled")  # pragma: no cover

    def pay_cost(self, obj: GameObject, ability: ActivatedAbility, cost: Cost, player: str, decider) -> None:
        """Pay ``cost`` (CR 601.2h): mana from the pool, then {T} / {Q}, then other parts.
        With both {T} and {Q}, the permanent ends as it was (tapped then untapped, or the
        reverse)."""
        if cost.mana:
            self.pay_mana(player, cost.mana, decider)
        if cost.tap and cost.untap:
            for _ in range(2):
                self.set_tapped(obj, not obj.tapped, "cost")
        elif cost.tap:
            self.set_tapped(obj, True, "cost")
        elif cost.untap:
            self.set_tapped(obj, False, "cost")
        for part in cost.other:
            self.pay_other_cost(obj, ability, part, player, decider)

    def set_tapped(self, obj: GameObject, tapped: bool, cause: str) -> None:
        """Tap or untap ``obj`` (CR 701.26), logging ``tapped`` or ``untapped`` with ``cause``."""
        if obj.tapped == tapped:
            return
        obj.tapped = tapped
        self.log.append({"kind": "tapped" if tapped else "untapped", "object": obj.id, "cause": cause})
