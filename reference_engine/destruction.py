"""Destruction and the replacement effects that apply to it.

CR 701.7 (destroy), 614 and 616.1 (replacement effects, the affected object's controller
chooses which one applies), 702.89a (umbra armor), 701.15 (regeneration), 702.12b
(indestructible).
"""

from __future__ import annotations

from .layers import characteristics
from .objects import BATTLEFIELD


def destroy(game, targets, by: str, decider, cant_be_regenerated=frozenset()) -> None:
    """Destroy every object in ``targets`` at the same time (CR 701.7a).

    ``by`` names what destroys them: a spell's name, ``"704.5g"`` or ``"704.5h"``
    for the state-based actions; an umbra Aura destroyed instead is destroyed by the
    same thing (umbra armor ruling 2024-06-07: the spell destroys the Aura; for lethal
    damage, the game rules do). ``cant_be_regenerated`` holds the ids that effects
    say can't be regenerated; it never stops umbra armor (ruling 2024-06-07).

    Each would-be-destroyed permanent is handled in turn: indestructible ones are not
    destroyed (702.12b); otherwise its controller chooses one applicable replacement
    effect (616.1), umbra armor of one attached Aura or a regeneration shield. Umbra
    armor removes all damage and destroys that Aura instead (so an Aura destroyed in two
    ways at once is destroyed once, ruling 2010-06-15); regeneration removes all damage,
    taps the permanent and removes it from combat, using up one shield (701.15a).
    Everything still destroyed then moves to its owner's graveyard as one event.
    """
    pending = list(targets)
    seen: set[str] = set()
    destroyed: list[str] = []
    while pending:
        oid = pending.pop(0)
        if oid in seen:
            continue
        seen.add(oid)
        obj = game.objects[oid]
        if obj.zone != BATTLEFIELD:
            continue
        if "indestructible" in characteristics(game, obj).keywords:
            continue
        options = [
            f"umbra armor:{aura.id}"
            for aura in game.attached_to(oid)
            if "umbra armor" in characteristics(game, aura).keywords
        ]
        if obj.regeneration_shields > 0 and oid not in cant_be_regenerated:
            options.append("regeneration")
        if not options:
            destroyed.append(oid)
            continue
        choice = options[0] if len(options) == 1 else decider.choose(obj.controller, "replacement_effect", options)
        if choice not in options:
            raise ValueError(f"decider answered {choice!r}, not one of {options}")
        if choice == "regeneration":
            obj.regeneration_shields -= 1
            game.log.append({"kind": "replacement", "effect": "regeneration", "affected": oid})
            remove_damage(game, obj)
            if not obj.tapped:
                obj.tapped = True
                game.log.append({"kind": "tapped", "object": oid})
            if obj.combat is not None:
                obj.combat = None
                game.log.append({"kind": "removed_from_combat", "object": oid})
        else:
            aura_id = choice.split(":", 1)[1]
            game.log.append({"kind": "replacement", "effect": "umbra armor", "source": aura_id, "affected": oid})
            remove_damage(game, obj)
            pending.append(aura_id)
    game.move_to_graveyard(destroyed, {"event": "destroy", "by": by})


def remove_damage(game, obj) -> None:
    """Remove all damage marked on ``obj`` and log how much (CR 120.6)."""
    if obj.damage:
        game.log.append({"kind": "damage_removed", "object": obj.id, "amount": obj.damage})
    obj.damage = 0
    obj.deathtouch_damage = False
