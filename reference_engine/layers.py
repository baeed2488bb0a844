"""Continuous effects applied in layers (CR 613) to compute an object's characteristics.

Power and toughness are never stored on an object: :func:`characteristics` computes
them from the object's copiable values (layer 1), the Auras attached to it, counters and
resolved effects, each in its layer and sublayer, in timestamp order (CR 613.7).

The layers in scope:

* layer 1 (CR 613.2, 707): copy effects. A permanent that entered as a copy of another
  (Clone) has that object's copiable values; a token that is a copy was *created* with
  them (CR 111.3, 707.9b), so its own values already are the copied ones.
* layer 4 (CR 613.1d): the playtest supertypes mono and continuous Orb of Origin grants
  (:mod:`reference_engine.playtest`).
* layer 6 (CR 613.1f): abilities granted by Auras; umbra armor granted by Umbra Mystic; a
  tapped continuous permanent has no abilities.
* layer 7 (CR 613.4): 7a characteristic-defining abilities (none in the card pool: a
  Clone's 0/0 is printed), 7b effects that set base power and toughness (Octopus Umbra,
  ``set_base_pt``), 7c effects and counters that modify them (Aura bonuses, Giant Growth,
  ``modify_pt``, anthems, +X/+Y and -X/-Y counters, CR 122.1a), 7d switching.

The steps are methods of the :class:`Layers` mixin of :class:`reference_engine.game.Game`,
so a fork can override one sublayer and keep the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import re
from operator import attrgetter

from .cards import CardDef, CardScript
from .kept import COPIABLE_SCRIPTS_KEY, KEEPING_CLASSES, is_anthem, keeps, kept_characteristics
from .filters import matches
from .objects import BATTLEFIELD, VERSION, GameObject, PTEffect
from .records import Characteristics  # computed here, defined below every rules module

_TIMESTAMP = attrgetter("timestamp")  # the key of effects in timestamp order (CR 613.7)

if TYPE_CHECKING:
    from cards.model import Ability, Affected

    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

#: A power/toughness counter kind: "+1/+1", "-1/-1", "+1/+0", "-0/-2", ... (CR 122.1a).
PT_COUNTER = re.compile(r"^([+-])(\d+)/([+-])(\d+)$")


def counter_pt(kind: str) -> tuple[int, int] | None:
    """(power, toughness) one counter of ``kind`` adds, or None if it is not a P/T counter.

    ``counter_pt("+1/+0") == (1, 0)``, ``counter_pt("-1/-1") == (-1, -1)`` (CR 122.1a).
    """
    match = PT_COUNTER.match(kind) if isinstance(kind, str) else None
    if match is None:
        return None
    ps, p, ts, t = match.groups()
    return (int(p) if ps == "+" else -int(p)), (int(t) if ts == "+" else -int(t))


class Layers(GameBase):
    """The layer system, a mixin of :class:`reference_engine.game.Game`."""

    def copiable_values(self, obj: GameObject) -> tuple[CardDef, CardScript]:
        """Layer 1: the object's copiable values (CR 613.2c, 707.2).

        A permanent that entered as a copy (Clone) has the values its copy effect fixed
        as it entered (CR 707.5, 707.2b); any other object has its own values: printed on
        the card, or defined by the effect that created the token (CR 111.3). Off the
        battlefield the copy effect no longer applies (CR 400.7).
        """
        if obj.zone == BATTLEFIELD and obj.copy_effect is not None:
            return obj.copy_effect
        return obj.card, obj.script

    def pt_effects(self, obj: GameObject, attached: list[GameObject] | None = None) -> list[PTEffect]:
        """Every continuous effect on ``obj``'s power and toughness, in timestamp order (CR 613.7).

        Static abilities of the Auras attached to it have the Aura's timestamp, renewed
        each time the Aura becomes attached (CR 613.7a, 613.7e); effects of resolved
        spells and abilities have the time they were created (CR 613.7b). Counters are
        not listed: they are on the object (``obj.counters``). ``attached`` is
        ``self.attached_to(obj.id)`` if the caller has it already.
        """
        found: list[PTEffect] = []
        for aura in self.attached_to(obj.id) if attached is None else attached:
            _, script = self.copiable_values(aura)
            if script.enchanted_base_pt:
                p, t = script.enchanted_base_pt
                found.append(PTEffect(obj.id, "7b", p, t, aura.timestamp, False, aura.id))
            if script.enchanted_pt:
                p, t = script.enchanted_pt
                found.append(PTEffect(obj.id, "7c", p, t, aura.timestamp, False, aura.id))
        found += self.equipment_effects(obj, self.attached_to(obj.id) if attached is None else attached)
        resolved = self.resolved_effects_on(obj.id)
        if resolved:
            found += [e for e in resolved if e.sublayer != "6"]
        anthems = self.anthem_effects(obj)
        if anthems:
            found += [e for e in anthems if e.power or e.toughness]
        if len(found) > 1:  # one or none is in order
            found.sort(key=_TIMESTAMP)
        return found

    def anthems(self) -> list[tuple[GameObject, Ability]]:
        """The anthems on the battlefield: (source, its ``cards.model.Ability``), static abilities
        "Creatures you control get +1/+1" of permanents with a card model (CR 604.2, 611.3a)."""
        cache = self._cache
        if cache is None or self._cache_version != VERSION[0]:  # state_cache's check, without its call
            cache = state_cache(self)
        if "anthems" in cache:
            return cache["anthems"]
        found: list[tuple[GameObject, Ability]] = []
        for source, script in copiable_scripts(self):
            model = script.model
            if model is None:
                continue
            for ability in model.of("static"):
                if is_anthem(ability):
                    found.append((source, ability))
        cache["anthems"] = found
        return found

    def anthem_effects(self, obj: GameObject) -> list[PTEffect]:
        """The anthems that apply to ``obj``, as effects with their source's timestamp (CR
        613.7a) and id: ``power``/``toughness`` (layer 7c) and ``keywords`` (layer 6). What an
        anthem affects is decided from the characteristics without anthems (its filters read
        colours, types and control; one reading keywords, "creatures with flying", sees the
        object's printed and granted keywords except those other anthems grant)."""
        anthems = self.anthems()
        if not anthems or obj.zone != BATTLEFIELD:
            return []
        found = []
        for source, ability in anthems:
            affected = ability.affected
            assert affected is not None, "anthems() keeps the abilities that affect each creature"
            if self._anthem_applies(obj, source, affected):
                found.append(PTEffect(obj.id, "7c", ability.power, ability.toughness, source.timestamp, False,
                                      source.id, tuple(ability.keywords)))
        return found

    def _anthem_applies(self, obj: GameObject, source: GameObject, affected: Affected) -> bool:
        guard = getattr(self, "_anthem_guard", None)
        if guard is None:
            guard = self._anthem_guard = set()
        if obj.id in guard:  # deciding for obj already: no anthem applies inside (no dependency loops)
            return False
        guard.add(obj.id)
        try:
            state_cache(self)["characteristics"].pop(obj.id, None)
            return obj.zone == BATTLEFIELD and matches(obj, characteristics(self, obj), affected.kind, affected.filters,
                                                       source.controller, source.id)
        finally:
            guard.discard(obj.id)
            state_cache(self)["characteristics"].pop(obj.id, None)  # computed without anthems: not kept

    def resolved_effects_on(self, oid: str) -> list[PTEffect]:
        """The effects of resolved spells and abilities on ``oid`` (CR 611.2), oldest first."""
        cache = self._cache
        if cache is None or self._cache_version != VERSION[0]:  # state_cache's check, without its call
            cache = state_cache(self)
        index = cache.get("effects")
        if index is None:
            index = cache["effects"] = {}
            for e in self.effects:
                index.setdefault(e.affected, []).append(e)
        return list(index.get(oid, ()))

    def apply_pt_layers(self, power: int, toughness: int, effects: list[PTEffect], counters: dict) -> tuple[int, int]:
        """Layer 7 (CR 613.4): from the copiable power and toughness, apply 7b, then 7c, then 7d.

        Layer 7a (characteristic-defining abilities) has no effect in the card pool.
        ``effects`` are in timestamp order.
        """
        power, toughness = self.layer_7b(power, toughness, effects)
        power, toughness = self.layer_7c(power, toughness, effects, counters)
        return self.layer_7d(power, toughness, effects)

    def layer_7b(self, power: int, toughness: int, effects: list[PTEffect]) -> tuple[int, int]:
        """Effects that set base power and toughness, in timestamp order: the latest wins (CR 613.4b).

        Octopus Umbra ruling: it "overwrites all previous effects that set the creature's
        base power and toughness", and setting effects that start later overwrite it.
        """
        for effect in effects:
            if effect.sublayer == "7b":
                power, toughness = effect.power, effect.toughness
        return power, toughness

    def layer_7c(self, power: int, toughness: int, effects: list[PTEffect], counters: dict) -> tuple[int, int]:
        """Effects and counters that modify power and toughness (CR 613.4c, 122.1a).

        Octopus Umbra ruling: they "apply to the creature's new base power and toughness,
        even if they started to apply before Octopus Umbra became attached".
        """
        for effect in effects:
            if effect.sublayer == "7c":
                power += effect.power
                toughness += effect.toughness
        for kind, count in counters.items():
            pt = counter_pt(kind)
            if pt is not None:
                power += pt[0] * count
                toughness += pt[1] * count
        return power, toughness

    def layer_7d(self, power: int, toughness: int, effects: list[PTEffect]) -> tuple[int, int]:
        """Effects that switch power and toughness, each once (CR 613.4d)."""
        for effect in effects:
            if effect.sublayer == "7d":
                power, toughness = toughness, power
        return power, toughness


def characteristics(game, obj: GameObject) -> Characteristics:
    """Compute ``obj``'s characteristics (CR 613.1-613.7).

    Objects off the battlefield have their own characteristics (printed, or defined by
    the effect that created the token); continuous effects from the battlefield only
    apply to permanents in this engine's card pool.
    """
    cache = game._cache
    if cache is None or game._cache_version != VERSION[0]:
        cache = state_cache(game)
    computed = cache["characteristics"]
    known = computed.get(obj.id)
    if known is None:  # computed, or kept from an earlier state computed from the same (reference_engine.kept)
        known = computed[obj.id] = kept_characteristics(game, obj, cache, _characteristics)
    return known


def copiable_scripts(game) -> list[tuple[GameObject, CardScript]]:
    """Each permanent on the battlefield with the script of its copiable values (layer 1, CR 613.2,
    707.2): ``(obj, game.copiable_values(obj)[1])`` in the order of ``game.battlefield()``. With this
    package's layer code (:func:`reference_engine.kept.keeps`) they are read from the permanents
    directly (a Clone's copy effect, else its own), without a call of the method for each; a fork's
    ``copiable_values`` or ``battlefield`` is called for each. Found once per state (the state cache's,
    :data:`reference_engine.kept.COPIABLE_SCRIPTS_KEY`), the list shared by its callers (never changed)."""
    keeping = KEEPING_CLASSES.get(type(game))  # keeps(game), without its call once found
    if not (keeping or keeping is None and keeps(game)):
        return [(o, game.copiable_values(o)[1]) for o in game.battlefield()]
    cache = game._cache
    if cache is None or game._cache_version != VERSION[0]:  # state_cache's check, without its call
        cache = state_cache(game)
    found = cache.get(COPIABLE_SCRIPTS_KEY)
    if found is None:
        found = cache[COPIABLE_SCRIPTS_KEY] = [(o, o.script if o.copy_effect is None else o.copy_effect[1])
                                               for o in game.battlefield()]
    return found


def card_types(game, obj: GameObject) -> tuple[str, ...]:
    """``obj``'s card types, as :func:`characteristics` computes them (CR 205.2a), without computing
    the rest: no effect of the card pool changes card types (layer 4, CR 613.1d, only grants
    supertypes: Orb of Origin's mono and continuous), so they are its copiable values' (layer 1,
    CR 613.2, 707.2; printed, or a Clone's copied ones). Read where a change to the state follows
    at once (a permanent entering, changing control, tapped for mana), so the characteristics of
    that passing state are not computed for its types alone."""
    return game.copiable_values(obj)[0].types


def state_cache(game) -> dict:
    """What has been computed from ``game``'s state as it is now (characteristics by object id
    under ``"characteristics"``; attachments, anthems, resolved effects by object, power and
    toughness effects): a dict kept while the state version (:data:`reference_engine.objects.VERSION`)
    stays the same, a new empty one once anything changed. Every change to the state changes
    the version (objects, counters, players, effects, the game's attributes), so each object's
    characteristics are computed once per state; the layer system reads the whole battlefield
    (CR 613), so any change starts afresh. Only a speed-up; no rules meaning."""
    version = VERSION[0]
    cache = game._cache
    if cache is None or game._cache_version != version:
        cache = {"characteristics": {}}
        object.__setattr__(game, "_cache", cache)  # not a change to the state (Game.__setattr__)
        object.__setattr__(game, "_cache_version", version)
    return cache


#: _own_characteristics by the ids of the card and the script (kept with them, so the ids stay theirs).
_OWN: dict[tuple[int, int], tuple[CardDef, CardScript, Characteristics]] = {}


def _own_characteristics(card: CardDef, script: CardScript) -> Characteristics:
    """The characteristics of an object no continuous effect applies to (never mutated); one
    object for each card and script (looked up by identity: hashing a card is slow)."""
    known = _OWN.get((id(card), id(script)))
    if known is not None:
        return known[2]
    found = Characteristics(
        card.name, card.supertypes, card.types, card.subtypes, card.colors,
        frozenset(script.keywords), card.power, card.toughness, card.mana_cost, card.oracle_text,
    )
    if len(_OWN) > 4096:
        _OWN.clear()
    _OWN[(id(card), id(script))] = (card, script, found)
    return found


def _characteristics(game, obj: GameObject) -> Characteristics:
    cache = game._cache  # the state's, taken before computing (a change meanwhile discards it)
    if cache is None or game._cache_version != VERSION[0]:  # state_cache's check, without its call
        cache = state_cache(game)
    card, script = game.copiable_values(obj)
    if obj.zone != BATTLEFIELD:
        return _own_characteristics(card, script)
    attached = game.attached_to(obj.id)
    granted = game.granted_supertypes(obj, card)  # layer 4
    resolved = game.resolved_effects_on(obj.id)
    anthems = game.anthem_effects(obj)
    if not attached and not obj.counters and "Aura" not in card.subtypes and not resolved \
            and not granted and not anthems:
        if card.power is not None:  # no Aura, Equipment, resolved effect or anthem: no P/T effect
            cache.setdefault("pt_effects", {})[obj.id] = []
        return _own_characteristics(card, script)  # no continuous effect applies: its copiable values
    supertypes = card.supertypes + tuple(s for s in granted if s not in card.supertypes) if granted else card.supertypes
    keywords = _layer_6_keywords(game, obj, card, script, attached, resolved, anthems)
    if obj.tapped and "Continuous" in supertypes:  # no abilities while tapped (Orb of Origin rulings)
        keywords = set()
    power, toughness = card.power, card.toughness
    if power is not None:
        effects = game.pt_effects(obj, attached)
        cache.setdefault("pt_effects", {})[obj.id] = effects
        power, toughness = game.apply_pt_layers(power, toughness, effects, obj.counters)
    return Characteristics(
        card.name, supertypes, card.types, card.subtypes, card.colors,
        frozenset(keywords), power, toughness, card.mana_cost, card.oracle_text,
    )


def _layer_6_keywords(game, obj: GameObject, card: CardDef, script: CardScript, attached: list[GameObject],
                      resolved: list[PTEffect], anthems: list[PTEffect]) -> set[str]:
    """Layer 6: the object's own keywords and those granted by Auras and Equipment attached to
    it, by resolved effects ("gains flying until end of turn") and by anthems, and umbra armor
    (a tapped continuous permanent then has none, :func:`_characteristics`; nothing grants
    abilities to an artifact, so order is moot)."""
    keywords = set(script.keywords)
    for aura in attached:
        values = game.copiable_values(aura)[1]
        keywords |= values.enchanted_keywords
        if values.equipped_keywords and "Equipment" in game.copiable_values(aura)[0].subtypes \
                and game.has_abilities(aura):
            keywords |= values.equipped_keywords
    for effect in resolved:
        if effect.sublayer == "6":
            keywords.update(effect.keywords)
    for effect in anthems:
        keywords.update(effect.keywords)
    if "Aura" in card.subtypes and _has_umbra_armor(game, obj):
        keywords.add("umbra armor")
    return keywords


def _has_umbra_armor(game, aura: GameObject) -> bool:
    """Whether an Aura on the battlefield has umbra armor (CR 702.89a).

    Printed umbra armor; Dog Umbra's conditional umbra armor; and Umbra Mystic's
    "Auras attached to permanents you control have umbra armor" (layer 6), which
    counts the enchanted permanent's controller, not the Aura's (Umbra Mystic ruling
    2010-06-15). A copy of Umbra Mystic has its ability too (CR 707.2).
    """
    script = game.copiable_values(aura)[1]
    if "umbra armor" in script.keywords:
        return True
    enchanted = game.objects.get(aura.attached_to) if aura.attached_to else None
    if enchanted is None or enchanted.zone != BATTLEFIELD:
        return False
    if script.umbra_armor_unless_opponent_controls and enchanted.controller == aura.controller:
        return True
    return any(
        game.copiable_values(other)[1].grants_umbra_armor_to_auras and other.controller == enchanted.controller
        for other in game.battlefield()
    )
