"""Playtest supertypes: mono, continuous and poly (Orb of Origin's rulings, 2024-11-08).

The rulings (``invariants/data/rulings.json``, card "Orb of Origin"; the seed rulings page
``003-orb-of-origin-playtest-supertypes``) are all this engine knows of them:

* mono: "To activate an ability of a permanent with the mono supertype, if that
  ability's activation cost doesn't already include {T}, activating that ability costs
  an additional {T} to activate." An additional cost (CR 118.8, 601.2f): never a second
  {T} (:meth:`PlaytestRules.activation_cost`).
* continuous: "A permanent with the continuous supertype has no abilities as long as it's
  tapped." Layer 6 (CR 613.1f): no keywords, no activated abilities (an ``activate``
  event names none: ``"no_such_ability"``), no static abilities (Thought Vessel's "You
  have no maximum hand size", Sword of the Meek's "Equipped creature gets +1/+2"), no
  replacement effects (Krark's Thumb, through :meth:`PlaytestRules.has_abilities`).
* poly: "The poly supertype means Orb of Origin's first ability doesn't cost {T} to
  activate (unless another Orb of Origin is also on the battlefield)": poly adds no
  cost; an Orb that another Orb makes mono pays the additional {T} of mono.
* Orb of Origin's last ability "applies only while it's on the battlefield. It grants the
  mono and continuous supertypes to other noncreature artifacts on the battlefield";
  "Having multiple Orb of Origins on the battlefield will have no additional effect on
  artifacts on the battlefield except that the Orb of Origins will also make each other
  mono and continuous."
* "Playtest cards use a modified version of game symbols, such as {T} and {W}. These
  modified symbols should be treated as the standard symbols during play": the {T} of
  mono is the {T} of CR 107.5 (a tapped permanent can't pay it).

The grant is a type-changing effect, layer 4 (CR 613.1d); a continuous permanent loses
its abilities in layer 6, later, so a tapped Orb that another Orb made continuous still
grants (CR 613.6: an effect that started to apply keeps applying when the ability that
generates it is removed), and whether a permanent is mono or continuous never depends on
what is tapped. Observed supertypes: the printed ones, then ``"Mono"`` and
``"Continuous"`` when granted.

A player's maximum hand size (CR 402.2) is seven, or none (``None``) while they control a
permanent with "You have no maximum hand size" that has its abilities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .abilities import EFFECT_NOT_IN_RULINGS, EQUIP, ActivatedAbility, Cost
from .cards import CardDef
from .kept import NO_MAXIMUM_KEY
from .layers import characteristics, copiable_scripts, state_cache
from .model_targets import protected_from
from .objects import BATTLEFIELD, VERSION, GameObject, PTEffect
from .verdicts import UNATTACHED_EQUIPMENT, kept_verdicts, ordered_with_bit, unattached

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

MONO, CONTINUOUS, POLY = "Mono", "Continuous", "Poly"
#: The supertypes Orb of Origin grants (its last ability), in the order observed.
GRANTED = (MONO, CONTINUOUS)
#: Orb of Origin's first ability as its rulings know it: an activated ability whose cost has
#: no {T} (poly ruling); no other cost and no effect are ruled (reference_engine.unpublished).
ORB_FIRST_ABILITY = ActivatedAbility(0, Cost(), EFFECT_NOT_IN_RULINGS,
                                     text="Orb of Origin's first ability (no {T} in its cost; rulings 2024-11-08)")
#: CR 402.2: "Each player's maximum hand size is normally seven cards."
MAXIMUM_HAND_SIZE = 7


class PlaytestRules(GameBase):
    """Playtest supertypes, a mixin of :class:`reference_engine.game.Game` (see the module docstring)."""

    def orbs(self) -> list[GameObject]:
        """Permanents whose last ability grants mono and continuous (Orb of Origin), by copiable values."""
        cache = self._cache
        if cache is None or self._cache_version != VERSION[0]:  # state_cache's check, without its call
            cache = state_cache(self)
        if "orbs" in cache:
            return cache["orbs"]
        found = cache["orbs"] = [o for o, script in copiable_scripts(self) if script.grants_playtest_supertypes]
        return found

    def granted_supertypes(self, obj: GameObject, card: CardDef) -> tuple[str, ...]:
        """Layer 4 (CR 613.1d): the supertypes Orbs of Origin grant ``obj``, whose copiable
        values are ``card``: mono and continuous for a noncreature artifact on the
        battlefield while another Orb is on the battlefield (Orb rulings 2024-11-08)."""
        if obj.zone != BATTLEFIELD or "Artifact" not in card.types or "Creature" in card.types:
            return ()
        for orb in self.orbs():
            if orb.id != obj.id:
                return GRANTED
        return ()

    def printed_abilities(self, obj: GameObject):
        """Orb of Origin's first ability, known from its rulings only, is its ability 0."""
        found = super().printed_abilities(obj)
        if self.copiable_values(obj)[1].grants_playtest_supertypes:
            return (ORB_FIRST_ABILITY,) + tuple(a for a in found)
        return found

    def has_abilities(self, obj: GameObject) -> bool:
        """False for a tapped permanent with the continuous supertype: it has no abilities
        (Orb rulings 2024-11-08; layer 6, CR 613.1f)."""
        return not (obj.zone == BATTLEFIELD and obj.tapped and CONTINUOUS in characteristics(self, obj).supertypes)

    def activated_abilities(self, obj: GameObject):
        """None while it has no abilities (continuous and tapped); else as printed."""
        return super().activated_abilities(obj) if self.has_abilities(obj) else ()

    def activation_cost(self, obj: GameObject, ability):
        """A mono permanent's ability whose cost has no {T} costs an additional {T} (CR 118.8;
        Orb rulings 2024-11-08); one that has {T} costs no second {T}."""
        cost = super().activation_cost(obj, ability)
        return cost.with_tap() if MONO in characteristics(self, obj).supertypes else cost

    def max_hand_size(self, player: str) -> int | None:
        """``player``'s maximum hand size (CR 402.2): None (no maximum) while they control a
        permanent with "You have no maximum hand size" that has its abilities (Thought
        Vessel; a tapped continuous one doesn't: Orb ruling 2024-11-08), else seven. The
        permanents with it by copiable values are found once per state, like :meth:`orbs`."""
        cache = self._cache
        if cache is None or self._cache_version != VERSION[0]:  # state_cache's check, without its call
            cache = state_cache(self)
        found = cache.get(NO_MAXIMUM_KEY)
        if found is None:
            found = cache[NO_MAXIMUM_KEY] = [o for o, script in copiable_scripts(self) if script.no_maximum_hand_size]
        for obj in found:
            if obj.controller == player and self.has_abilities(obj):
                return None
        return MAXIMUM_HAND_SIZE

    # ------------------------------------------------------------ Equipment (CR 301.5, 702.6)
    def target_options(self, obj: GameObject, ability) -> list[str] | None:
        """Equip: "target creature you control" (CR 702.6a), the creature it is attached to
        included (attaching it again does nothing, CR 701.3b)."""
        if ability.kind == EQUIP:
            return [o.id for o in self.battlefield()
                    if o.controller == obj.controller and characteristics(self, o).is_creature
                    and not self._protected_from_equipment(o, obj)]
        return super().target_options(obj, ability)

    def resolve_activated_ability(self, obj: GameObject, ability, player: str, targets: list[str], decider) -> None:
        """Equip attaches the Equipment to the target (CR 702.6a, 701.3a; a new timestamp,
        613.7e); Orb of Origin's first ability resolves with no effect (none is ruled)."""
        if ability.kind not in (EQUIP, EFFECT_NOT_IN_RULINGS):
            return super().resolve_activated_ability(obj, ability, player, targets, decider)
        legal = self.target_options(obj, ability)
        if targets and (legal is None or targets[0] not in legal):
            self.log.append({"kind": "trigger_removed", "source": obj.id, "reason": "illegal target"})
            return None
        self.log.append({"kind": "ability_resolved", "object": obj.id, "ability": ability.index,
                         "targets": list(targets)})
        if ability.kind == EQUIP and obj.zone == BATTLEFIELD and obj.attached_to != targets[0]:
            obj.attached_to = targets[0]
            obj.timestamp = self._tick()
            self.log.append({"kind": "attached", "object": obj.id, "to": targets[0]})
        return None

    def _protected_from_equipment(self, creature: GameObject, equipment: GameObject) -> bool:
        """CR 702.16c: a permanent with protection can't be equipped by Equipment with the stated
        quality (nor targeted by its equip ability, 702.16b)."""
        keywords = characteristics(self, creature).keywords
        if not any(k.startswith("protection from ") for k in keywords):
            return False
        ch = characteristics(self, equipment)
        return protected_from(keywords, ch.colors, ch.types)

    def equipment_effects(self, creature: GameObject, attached: list[GameObject]) -> list:
        """Layer 7c effects of the Equipment attached to ``creature`` that has its abilities
        ("Equipped creature gets +1/+2", CR 613.4c; none from a tapped continuous Sword of the
        Meek, Orb ruling 2024-11-08), with the Equipment's timestamp and id as source."""
        found = []
        for equipment in attached:
            bonus = self.copiable_values(equipment)[1].equipped_pt
            if bonus and self.has_abilities(equipment):
                found.append(PTEffect(creature.id, "7c", bonus[0], bonus[1], equipment.timestamp, False,
                                      equipment.id))
        return found

    def unattached_equipment(self) -> list[GameObject]:
        """CR 704.5n: Equipment attached to something that isn't a creature on the battlefield (or
        protected from it, CR 702.16c), in the battlefield's order; judged again only when it or
        what it is attached to changed (:mod:`reference_engine.verdicts`)."""
        verdicts = kept_verdicts(self)
        if verdicts is None:
            return every_unattached_equipment(self)
        if not verdicts.bits:  # nothing applies to any object (most checks)
            return []
        return [self.objects[oid] for oid in ordered_with_bit(self, verdicts, UNATTACHED_EQUIPMENT)]

    def unattach_equipment(self) -> bool:
        """Perform CR 704.5n (the Equipment stays on the battlefield, unattached); log
        ``unattached`` (``object``, ``rule``). Returns whether it did anything."""
        found = self.unattached_equipment()
        for obj in found:
            obj.attached_to = None
            self.log.append({"kind": "unattached", "object": obj.id, "rule": "704.5n"})
        return bool(found)


def every_unattached_equipment(game) -> list[GameObject]:
    """CR 704.5n, looking at every permanent: the Equipment attached to something that isn't a
    creature on the battlefield, or to a permanent protected from it (CR 702.16c), in the
    battlefield's order."""
    return [obj for obj in game.battlefield() if obj.attached_to is not None and "Equipment" in obj.card.subtypes
            and unattached(game, obj, obj.attached_to)]
