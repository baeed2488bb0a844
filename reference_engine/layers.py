"""Continuous effects applied in layers (CR 613) to compute an object's characteristics.

Power and toughness are never stored on an object: :func:`characteristics` computes
them from the card, the Auras attached to it, counters and resolved effects, each in its
layer and sublayer, in timestamp order (CR 613.7).
"""

from __future__ import annotations

from dataclasses import dataclass

from .objects import BATTLEFIELD, GameObject


@dataclass(slots=True)
class Characteristics:
    """An object's characteristics after all layers (CR 613.1).

    ``keywords`` is a frozenset of keyword abilities (layer 6).
    """

    name: str
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...]
    keywords: frozenset[str]
    power: int | None
    toughness: int | None

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def is_aura(self) -> bool:
        return "Aura" in self.subtypes


def characteristics(game, obj: GameObject) -> Characteristics:
    """Compute ``obj``'s characteristics (CR 613.1-613.7).

    Objects off the battlefield have their printed characteristics; continuous effects
    from the battlefield only apply to permanents in this engine's card pool.
    """
    card = obj.card
    keywords = set(obj.script.keywords)
    if obj.zone != BATTLEFIELD:
        return Characteristics(
            card.name, card.supertypes, card.types, card.subtypes, card.colors,
            frozenset(keywords), card.power, card.toughness,
        )
    # Layer 6: abilities granted by Auras attached to the object (timestamp order is
    # irrelevant: nothing in the pool removes abilities).
    attached = game.attached_to(obj.id)
    for aura in attached:
        keywords |= aura.script.enchanted_keywords
    if "Aura" in card.subtypes and _has_umbra_armor(game, obj):
        keywords.add("umbra armor")
    power, toughness = card.power, card.toughness
    if power is not None:
        # Layer 7b: effects that set base power and toughness, in timestamp order.
        setting = [(aura.timestamp, aura.script.enchanted_base_pt) for aura in attached if aura.script.enchanted_base_pt]
        setting += [(e.timestamp, (e.power, e.toughness)) for e in game.effects_on(obj.id, "7b")]
        for _, (p, t) in sorted(setting, key=lambda item: item[0]):
            power, toughness = p, t
        # Layer 7c: modifying effects and counters (CR 613.4c).
        for aura in attached:
            if aura.script.enchanted_pt:
                power += aura.script.enchanted_pt[0]
                toughness += aura.script.enchanted_pt[1]
        for effect in game.effects_on(obj.id, "7c"):
            power += effect.power
            toughness += effect.toughness
        plus = obj.counters.get("+1/+1", 0)
        minus = obj.counters.get("-1/-1", 0)
        power += plus - minus
        toughness += plus - minus
        # Layer 7d: switching, once per switch effect.
        for _ in game.effects_on(obj.id, "7d"):
            power, toughness = toughness, power
    return Characteristics(
        card.name, card.supertypes, card.types, card.subtypes, card.colors,
        frozenset(keywords), power, toughness,
    )


def _has_umbra_armor(game, aura: GameObject) -> bool:
    """Whether an Aura on the battlefield has umbra armor (CR 702.89a).

    Printed umbra armor; Dog Umbra's conditional umbra armor; and Umbra Mystic's
    "Auras attached to permanents you control have umbra armor" (layer 6), which
    counts the enchanted permanent's controller, not the Aura's (Umbra Mystic ruling
    2010-06-15).
    """
    if "umbra armor" in aura.script.keywords:
        return True
    enchanted = game.objects.get(aura.attached_to) if aura.attached_to else None
    if enchanted is None or enchanted.zone != BATTLEFIELD:
        return False
    if aura.script.umbra_armor_unless_opponent_controls and enchanted.controller == aura.controller:
        return True
    return any(
        other.script.grants_umbra_armor_to_auras and other.controller == enchanted.controller
        for other in game.battlefield()
    )
