"""The ``activate`` event: activating an ability of a permanent (CR 602, 605).

``{"type": "activate", "object": ID, "ability": N}``: the controller of ``ID`` activates
its activated ability number N (see :mod:`.abilities`). Everything is checked first, so
an illegal activation raises :class:`IllegalAction` and changes nothing: the object is
on the battlefield, N is one of its abilities, the cost can be paid
(:meth:`~reference_engine.costs.CostPayment.check_cost`) and a target exists. Then the
target is chosen (decider kind ``"target"``, CR 602.2b, 601.2c), the cost is paid, and the
ability resolves: a mana ability at once (CR 605.3b); any other ability is put on the
stack and, since no player acts in between, resolves next (CR 608.2), rechecking its
target (608.2b).

The non-mana abilities of the card pool: Gilder Bairn (double the number of each kind of
counter on target permanent), Order of Whiteclay (return target creature card with mana
value 3 or less from your graveyard to the battlefield), Puresight Merrow (look at the
top card of your library, which is the first library card of the board, and you may
exile it: decider kind ``"may"``, options ``["yes", "no"]``), Fatestitcher ("You may tap
or untap another target permanent": decider kind ``"tap_or_untap"``, options ``["tap",
"untap", "neither"]``). Fatestitcher's unearth raises :class:`Unsupported` from the
graveyard (it is not modelled) and is illegal elsewhere (CR 702.84a).

Log entries: ``activated`` (``object``, ``ability``, ``player``, ``cost``: ``{"mana",
"tap", "untap", "other"}``, ``mana_ability``), ``ability_resolved`` (``object``,
``ability``, ``targets``), ``counters_added``, ``zone_change`` (cause ``{"event":
"ability", "by": ID}``), ``looked_at`` (``player``, ``object``), ``tapped`` / ``untapped``
(cause ``"ability"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness import decisions as D
from .abilities import (DOUBLE_COUNTERS, LOOK_AND_EXILE_TOP, NOT_MODELLED, RETURN_SMALL_CREATURE,
                        TAP_OR_UNTAP_ANOTHER, ActivatedAbility)
from .cards import mana_value
from .errors import IllegalAction, Unsupported
from .layers import characteristics
from .objects import BATTLEFIELD, GameObject

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)


def activate(game: GameBase, event):
    """Validate an ``activate`` event; return ``perform(decider)``. See the module docstring."""
    oid = event.get("object")
    obj = game.objects.get(oid) if isinstance(oid, str) else None
    if obj is None:
        raise IllegalAction("no_such_object", f"object={oid!r} is not an object in the game")
    index = event.get("ability")
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise IllegalAction("bad_event", f"ability: expected an integer >= 0, got {index!r}")
    if obj.zone != BATTLEFIELD:
        printed = game.printed_abilities(obj)
        if index < len(printed) and printed[index].zone == obj.zone:
            raise Unsupported(f"ability:{printed[index].kind}", f"{obj.card.name}'s {printed[index].text!r}")
        raise IllegalAction("not_on_battlefield", f"object={oid!r} is in the {obj.zone}, not on the battlefield")
    abilities = game.activated_abilities(obj)
    if index >= len(abilities):
        raise IllegalAction("no_such_ability", f"{oid!r} ({obj.card.name}) has {len(abilities)} activated "
                                               f"abilities; ability={index}")
    ability = abilities[index]
    if ability.kind == NOT_MODELLED:
        raise Unsupported("ability:not modelled", f"{obj.card.name}'s {ability.text!r}")
    if ability.zone != BATTLEFIELD:
        raise IllegalAction("wrong_zone", f"{ability.text!r} can be activated only from the {ability.zone}")
    player = obj.controller
    cost = game.activation_cost(obj, ability)
    game.check_cost(obj, ability, cost, player)
    targets = game.target_options(obj, ability)
    if targets is not None and not targets:
        raise IllegalAction("no_legal_target", f"{ability.text!r} has no legal target")

    def perform(decider):
        game.log.append({"kind": "activated", "object": obj.id, "ability": ability.index, "player": player,
                         "cost": cost.to_json(), "mana_ability": ability.is_mana_ability})
        chosen = [] if targets is None else [game._choose(player, D.TARGET, targets, decider)]
        game.pay_cost(obj, ability, cost, player, decider)
        if ability.is_mana_ability:
            game.resolve_mana_ability(obj, ability, cost, player, decider)
        else:
            game.resolve_activated_ability(obj, ability, player, chosen, decider)

    return perform


class ActivatedAbilityEffects(GameBase):
    """What the non-mana activated abilities do, a mixin of :class:`reference_engine.game.Game`."""

    def target_options(self, obj: GameObject, ability: ActivatedAbility) -> list[str] | None:
        """Legal targets of ``ability`` of ``obj`` (ids), or None if it doesn't target."""
        if ability.kind == DOUBLE_COUNTERS:
            return [o.id for o in self.battlefield()]
        if ability.kind == TAP_OR_UNTAP_ANOTHER:
            return [o.id for o in self.battlefield() if o.id != obj.id]
        if ability.kind == RETURN_SMALL_CREATURE:
            return [o.id for o in self.objects.values() if self.small_creature_card_of(o, obj.controller)]
        return None

    def small_creature_card_of(self, card: GameObject, player: str) -> bool:
        """Order of Whiteclay: "target creature card with converted mana cost 3 or less from
        your graveyard" (mana value, CR 202.3)."""
        return (card.zone == "graveyard" and card.owner == player and not card.token
                and "Creature" in card.card.types and mana_value(card.card.mana_cost) <= 3)

    def resolve_activated_ability(self, obj: GameObject, ability: ActivatedAbility, player: str,
                                  targets: list[str], decider) -> None:
        """A non-mana activated ability resolves (CR 608.2); an illegal target makes it do
        nothing (608.2b)."""
        legal = self.target_options(obj, ability)
        if targets and (legal is None or targets[0] not in legal):
            self.log.append({"kind": "trigger_removed", "source": obj.id, "reason": "illegal target"})
            return
        self.log.append({"kind": "ability_resolved", "object": obj.id, "ability": ability.index,
                         "targets": list(targets)})
        if ability.kind == DOUBLE_COUNTERS:
            target = self.objects[targets[0]]
            for kind, amount in sorted(target.counters.items()):
                target.counters[kind] = amount * 2
                self.log.append({"kind": "counters_added", "object": target.id, "counter": kind, "amount": amount})
        elif ability.kind == RETURN_SMALL_CREATURE:
            self.return_to_battlefield(self.objects[targets[0]], player, obj.id)
        elif ability.kind == LOOK_AND_EXILE_TOP:
            top = next((o for o in self.objects.values() if o.zone == "library" and o.owner == player), None)
            if top is None:
                return
            self.log.append({"kind": "looked_at", "player": player, "object": top.id})
            if self._choose(player, D.MAY, [D.YES, D.NO], decider) == D.YES:
                top.zone = "exile"
                top.timestamp = self._tick()
                self.log.append({"kind": "zone_change", "object": top.id, "from": "library", "to": "exile",
                                 "cause": {"event": "ability", "by": obj.id}})
        elif ability.kind == TAP_OR_UNTAP_ANOTHER:
            answer = self._choose(player, D.TAP_OR_UNTAP, [D.TAP, D.UNTAP, D.NEITHER], decider)
            if answer != D.NEITHER:
                self.set_tapped(self.objects[targets[0]], answer == "tap", "ability")
        else:  # pragma: no cover - every scripted kind is handled
            raise ValueError(f"unknown activated ability kind {ability.kind!r}")

    def return_to_battlefield(self, card: GameObject, controller: str, by: str) -> None:
        """Put ``card`` from a graveyard onto the battlefield under ``controller``'s control
        (a new object, CR 400.7; summoning sick, 302.6); its enters abilities trigger."""
        card.reset_for_zone_change(BATTLEFIELD, controller, self._tick())
        card.summoning_sick = characteristics(self, card).is_creature
        self.log.append({"kind": "zone_change", "object": card.id, "from": "graveyard", "to": BATTLEFIELD,
                         "cause": {"event": "ability", "by": by}})
        self.enters_with_counters(card)
        self.enters_triggers(card)
