"""Characteristics kept from one state to the next while what they are computed from is unchanged.

:func:`reference_engine.layers.characteristics` computes each object's characteristics once
per state version (:func:`reference_engine.layers.state_cache`); most events change one or
two objects, so the next state would compute every other permanent's characteristics again,
to the same result. This module keeps each permanent's last result with what it was computed
from, and gives it back in a later state when all of that is equal:

* the permanent itself: every field of its :class:`~reference_engine.objects.GameObject`
  (zone, copy effect, controller, tapped, attachment, combat status, ...) and its counters,
  by its stamp (``GameObject._stamp``, a new one with each change to it);
* the resolved effects on it (CR 611.2), each effect's fields;
* the layer context of the permanent (CR 613): the permanents attached to it (their static
  abilities, CR 613.4c, 613.1f, and timestamps, 613.7e), the one it is attached to (Dog Umbra
  reads the enchanted permanent's controller), and every permanent whose copiable values (CR
  707.2) have an ability that reaches objects it isn't attached to (an anthem of its card model,
  Umbra Mystic, Orb of Origin's supertypes, or any script field not listed in :data:`OWN_ONLY`
  or :data:`ATTACHED_ONLY`): each of them by the stamp of the fields another object's
  characteristics can read (``GameObject._seen_stamp``,
  :data:`~reference_engine.objects.SEEN_BY_OTHERS`).

An object off the battlefield has its own characteristics (no continuous effect applies to
it): they are kept while its stamp is the same. A fork of the engine that overrides any method the layer code calls
(:data:`LAYER_METHODS`, outside the ``reference_engine`` package) may read anything, so its
characteristics are never kept across states. Only a speed-up; no rules meaning.
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter

from .cards import CardScript
from .objects import BATTLEFIELD, GameObject, PTEffect

_EFFECT_FIELDS = attrgetter(*PTEffect.__slots__)

#: Script fields that change at most the object's own characteristics or none (keywords are its
#: own; triggers, activated abilities, spells and replacements act through events, which change
#: the state). Any other field set to something else than its default puts the permanent in the
#: layer context.
OWN_ONLY = frozenset({
    "keywords", "enchant", "regenerate", "spell", "spell_amount", "enters_with_x_counters", "enters_as_copy",
    "enters_trigger", "dies_trigger", "graveyard_trigger", "activated", "mana_replacement", "land_mana_trigger",
    "chance_replacements", "chance_trigger", "no_maximum_hand_size", "not_modelled", "enters_tapped", "model",
})
#: Script fields that change only the object the permanent is attached to (an Aura's or
#: Equipment's bonus and keywords, CR 303.4, 301.5), or its own characteristics from that
#: object's (Dog Umbra's umbra armor unless an opponent controls the enchanted creature).
ATTACHED_ONLY = frozenset({"enchanted_pt", "enchanted_base_pt", "enchanted_keywords", "equipped_pt",
                           "equipped_keywords", "umbra_armor_unless_opponent_controls"})
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(CardScript) if f.name not in OWN_ONLY | ATTACHED_ONLY}

#: The methods of the game the layer code calls (reference_engine.layers, playtest): a game whose
#: class takes any of them from outside this package has nothing kept across states.
LAYER_METHODS = ("copiable_values", "attached_to", "granted_supertypes", "orbs", "battlefield",
                 "resolved_effects_on", "anthem_effects", "anthems", "_anthem_applies", "has_abilities",
                 "pt_effects", "equipment_effects", "apply_pt_layers", "layer_7b", "layer_7c", "layer_7d")

_REFERENCE_CLASSES: dict[type, bool] = {}
_REACHES_OTHERS: dict[int, tuple[CardScript, bool]] = {}


def keeps(game) -> bool:
    """Whether ``game``'s class computes characteristics with this package's layer code only."""
    cls = type(game)
    known = _REFERENCE_CLASSES.get(cls)
    if known is None:
        known = _REFERENCE_CLASSES[cls] = all(
            getattr(getattr(cls, name, None), "__module__", "").startswith("reference_engine.")
            for name in LAYER_METHODS)
    return known


def reaches_others(script: CardScript) -> bool:
    """Whether copiable values with ``script`` may change the characteristics of objects the
    permanent isn't attached to."""
    known = _REACHES_OTHERS.get(id(script))
    if known is None or known[0] is not script:
        found = any(getattr(script, name) != default for name, default in _DEFAULTS.items())
        model = script.model
        if model is not None and any(a.affected is None or a.affected.scope not in ("enchanted", "equipped")
                                     for a in model.of("static")):
            found = True  # an anthem; an Aura's or Equipment's bonus is its script's (ATTACHED_ONLY)
        if len(_REACHES_OTHERS) > 4096:
            _REACHES_OTHERS.clear()
        known = _REACHES_OTHERS[id(script)] = (script, found)
    return known[1]


def context(game, cache: dict) -> tuple[tuple, dict, dict]:
    """The layer context of the state ``cache`` belongs to, computed once per state: the seen
    stamps (``GameObject._seen_stamp``, unique within a game) of the permanents that reach
    every object (module docstring); those of the permanents attached to each object, by its
    id; the fields of the resolved effects on each object, by its id, in order."""
    found = cache.get("context")
    if found is None:
        every: list[int] = []
        attached: dict[str, list[int]] = {}
        for o in game.objects.values():
            if o.zone == BATTLEFIELD:
                if o.attached_to is not None:
                    attached.setdefault(o.attached_to, []).append(o._seen_stamp)
                if reaches_others(o.copy_effect[1] if o.copy_effect is not None else o.script):
                    every.append(o._seen_stamp)
        reaching = tuple(every)
        last = game.__dict__.get("_context_kept")
        if last is not None and last == reaching:
            reaching = last  # the same object: comparing keys that hold it is quick
        else:
            object.__setattr__(game, "_context_kept", reaching)  # not the game's state
        effects: dict[str, list[tuple]] = {}
        for e in game.effects:
            effects.setdefault(e.affected, []).append(_EFFECT_FIELDS(e))
        found = cache["context"] = (reaching, attached, effects)
    return found


def kept_characteristics(game, obj: GameObject, cache: dict, compute):
    """``obj``'s characteristics in the state of ``cache``: the ones kept from an earlier state
    if they were computed from the same permanent, effects and context, else ``compute(game,
    obj)``, kept for later states. Its power/toughness effects (``cache["pt_effects"]``) are
    kept with them."""
    if getattr(game, "_anthem_guard", None) or not keeps(game):
        return compute(game, obj)
    kept = game.__dict__.get("_characteristics_kept")
    if kept is None:
        kept = {}
        object.__setattr__(game, "_characteristics_kept", kept)  # not the game's state
    oid, stamp = obj.id, obj._stamp
    known = kept.get(oid)
    if obj.zone != BATTLEFIELD:  # its own characteristics: no effect or context reaches it
        if known is not None and known[0] is obj and known[1] == stamp and known[3] is None:
            return known[6]
        found = compute(game, obj)
        kept[oid] = (obj, stamp, None, None, None, None, found, None)
        return found
    reaching, attached, effects_on = cache.get("context") or context(game, cache)
    host = game.objects.get(obj.attached_to) if obj.attached_to is not None else None
    host_stamp = host._seen_stamp if host is not None else None
    effects, mine = effects_on.get(oid), attached.get(oid)
    if known is not None and known[0] is obj and known[1] == stamp and known[2] == effects \
            and known[3] == reaching and known[4] == mine and known[5] == host_stamp:
        if known[7] is not None:
            cache.setdefault("pt_effects", {})[oid] = known[7]
        return known[6]
    found = compute(game, obj)
    kept[oid] = (obj, stamp, effects, reaching, mine, host_stamp, found, cache.get("pt_effects", {}).get(oid))
    return found


#: The methods an observed object's entry is built with (besides the layer code): a game whose
#: class takes any of them from outside this package builds every entry afresh.
OBSERVE_METHODS = ("_observe_object", "observe_copiable", "observe_pt_effects", "has_all_names")
_OBSERVING_CLASSES: dict[type, bool] = {}


def _keeps_entries(game) -> bool:
    cls = type(game)
    known = _OBSERVING_CLASSES.get(cls)
    if known is None:
        known = _OBSERVING_CLASSES[cls] = keeps(game) and all(
            getattr(getattr(cls, name, None), "__module__", "").startswith("reference_engine.")
            for name in OBSERVE_METHODS)
    return known


def fresh_entry(entry: dict) -> dict:
    """A copy of an observed object's entry with new dicts and lists (its other values are
    strings, numbers, booleans and None): nothing of it is shared with an earlier observation."""
    copied = entry.copy()
    copied["counters"] = entry["counters"].copy()
    copied["supertypes"] = entry["supertypes"][:]
    copied["types"] = entry["types"][:]
    copied["subtypes"] = entry["subtypes"][:]
    copied["colors"] = entry["colors"][:]
    copied["keywords"] = entry["keywords"][:]
    copiable = entry["copiable"]
    if copiable is not None:
        copiable = copiable.copy()
        copiable["supertypes"] = copiable["supertypes"][:]
        copiable["types"] = copiable["types"][:]
        copiable["subtypes"] = copiable["subtypes"][:]
        copiable["colors"] = copiable["colors"][:]
        copiable["keywords"] = copiable["keywords"][:]
        copied["copiable"] = copiable
    effects = entry["pt_effects"]
    copied["pt_effects"] = [effect.copy() for effect in effects] if effects else []
    return copied


def observed_entries(game, cache: dict, characteristics, build) -> dict:
    """The observed entry of each of ``game``'s objects, by id, in order: for an object with the
    same characteristics (the same object), the same stamp and the same power/toughness effects
    as when its entry was last built, a fresh copy of that entry; else ``build(obj, ch)``."""
    objects = game.objects.values()
    if not _keeps_entries(game):
        return {obj.id: build(obj, characteristics(game, obj)) for obj in objects}
    kept = game.__dict__.get("_entries_kept")
    if kept is None:
        kept = {}
        object.__setattr__(game, "_entries_kept", kept)  # not the game's state
    entries = {}
    for obj in objects:
        oid = obj.id
        ch = characteristics(game, obj)
        pt_effects = cache.get("pt_effects")
        if pt_effects is not None:
            pt_effects = pt_effects.get(oid)
        known = kept.get(oid)
        if known is not None and known[0] is ch and known[1] is obj and known[2] == obj._stamp \
                and known[3] == pt_effects:
            entries[oid] = fresh_entry(known[4])
        else:
            entry = entries[oid] = build(obj, ch)
            kept[oid] = (ch, obj, obj._stamp, pt_effects, fresh_entry(entry))
    return entries
