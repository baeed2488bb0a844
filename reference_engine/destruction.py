"""Destruction and the replacement effects that apply to it.

CR 701.7 (destroy), 614 and 616.1 (replacement effects: the affected object's controller
chooses which one applies), 702.89a (umbra armor), 701.15 (regeneration), 702.12b
(indestructible). Written as a mixin of :class:`reference_engine.game.Game` so that a fork
can override one step (one method) and keep the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness import decisions as D
from .layers import characteristics
from .objects import BATTLEFIELD

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)


class DestructionRules(GameBase):
    """The destruction procedure, step by step."""

    def destroy(self, targets, by: str, decider, cant_be_regenerated=frozenset()) -> None:
        """Destroy every object in ``targets`` at the same time (CR 701.7a).

        ``by`` names what destroys them: a spell's name, ``"destroy effect"``, or
        ``"704.5g"``/``"704.5h"`` for the state-based actions; an umbra Aura destroyed
        instead is destroyed by the same thing (ruling 2024-06-07: the spell destroys the
        Aura; for lethal damage, the game rules do). ``cant_be_regenerated`` holds the ids
        that effects say can't be regenerated; it never stops umbra armor.

        Each would-be-destroyed permanent is handled in turn: an indestructible one is not
        destroyed (702.12b); otherwise its controller chooses one applicable replacement
        effect (616.1). An Aura destroyed in two ways at once is destroyed once (ruling
        2010-06-15). Everything still destroyed then moves to the graveyard as one event.
        """
        pending = list(targets)
        seen: set[str] = set()
        destroyed: list[str] = []
        while pending:
            oid = pending.pop(0)
            if oid in seen:
                continue
            seen.add(oid)
            obj = self.objects[oid]
            if obj.zone != BATTLEFIELD or "indestructible" in characteristics(self, obj).keywords:
                continue
            options = self.destruction_replacements(obj, oid in cant_be_regenerated)
            if not options:
                destroyed.append(oid)
                continue
            choice = self.choose_replacement(obj, options, decider)
            if choice == D.REGENERATION:
                self.apply_regeneration(obj)
            else:
                pending.extend(self.apply_umbra_armor(obj, choice.split(":", 1)[1]))
        self.move_to_graveyard(destroyed, {"event": "destroy", "by": by})

    def destruction_replacements(self, obj, cant_be_regenerated: bool) -> list[str]:
        """Replacement effects that could replace ``obj``'s destruction (CR 614.1a, 616.1).

        ``"umbra armor:<aura id>"`` for each attached Aura with umbra armor, in timestamp
        order, and ``"regeneration"`` if it has a shield and may be regenerated.
        """
        options = [
            D.umbra_armor_option(aura.id)
            for aura in self.attached_to(obj.id)
            if "umbra armor" in characteristics(self, aura).keywords
        ]
        if obj.regeneration_shields > 0 and not cant_be_regenerated:
            options.append(D.REGENERATION)
        return options

    def choose_replacement(self, obj, options: list[str], decider) -> str:
        """The affected object's controller chooses one effect to apply (CR 616.1, 616.1e).

        Nobody is asked when only one applies. Raises ValueError if the decider answers
        something that isn't an option.
        """
        if len(options) == 1:
            return options[0]
        choice = decider.choose(obj.controller, D.REPLACEMENT_EFFECT, options)
        if choice not in options:
            raise ValueError(f"decider answered {choice!r}, not one of {options}")
        return choice

    def apply_umbra_armor(self, obj, aura_id: str) -> list[str]:
        """Umbra armor (CR 702.89a): remove all damage from ``obj``; returns ``[aura_id]``,
        the object to destroy instead. The creature is neither tapped nor removed from
        combat (ruling 2010-06-15: umbra armor is not regeneration)."""
        self.log.append({"kind": "replacement", "effect": "umbra armor", "source": aura_id, "affected": obj.id})
        self.remove_damage(obj)
        return [aura_id]

    def apply_regeneration(self, obj) -> None:
        """Regeneration (CR 701.15a): use one shield, remove all damage, tap the permanent,
        remove it from combat."""
        obj.regeneration_shields -= 1
        self.log.append({"kind": "replacement", "effect": "regeneration", "affected": obj.id})
        self.remove_damage(obj)
        if not obj.tapped:
            obj.tapped = True
            self.log.append({"kind": "tapped", "object": obj.id})
        if obj.combat is not None:
            obj.combat = None
            self.log.append({"kind": "removed_from_combat", "object": obj.id})

    def remove_damage(self, obj) -> None:
        """Remove all damage marked on ``obj`` and log how much (CR 120.6)."""
        if obj.damage:
            self.log.append({"kind": "damage_removed", "object": obj.id, "amount": obj.damage})
            obj.damage = 0
        if obj.deathtouch_damage:
            obj.deathtouch_damage = False

    def sacrifice(self, obj) -> None:
        """Its controller moves it to its owner's graveyard; not destruction (CR 701.17a)."""
        self.move_to_graveyard([obj.id], {"event": "sacrifice", "by": obj.controller})
