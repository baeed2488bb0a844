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
* the layer context: every permanent that can change *another* object's characteristics in
  this engine's layer code (CR 613): one attached to something (an Aura's or Equipment's
  static abilities, CR 613.4c, 613.1f), one something is attached to (Umbra Mystic and Dog
  Umbra read the enchanted permanent's controller), and one whose copiable values (CR 707.2)
  have an ability that reaches other objects (an anthem of its card model, Umbra Mystic,
  Orb of Origin's supertypes, or any script field not listed in :data:`OWN_ONLY`): each of
  them by its stamp.

An object off the battlefield has its own characteristics (no continuous effect applies to
it) and is not kept. A fork of the engine that overrides any method the layer code calls
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
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(CardScript) if f.name not in OWN_ONLY}

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
    """Whether copiable values with ``script`` may change other objects' characteristics."""
    known = _REACHES_OTHERS.get(id(script))
    if known is None or known[0] is not script:
        found = any(getattr(script, name) != default for name, default in _DEFAULTS.items())
        model = script.model
        if model is not None and tuple(model.of("static")):
            found = True
        if len(_REACHES_OTHERS) > 4096:
            _REACHES_OTHERS.clear()
        known = _REACHES_OTHERS[id(script)] = (script, found)
    return known[1]


def context(game, cache: dict) -> tuple:
    """The layer context of the state ``cache`` belongs to (module docstring), computed once per
    state: the stamps of the permanents in it (stamps are unique within a game)."""
    found = cache.get("context")
    if found is None:
        battlefield = [o for o in game.objects.values() if o.zone == BATTLEFIELD]
        hosts = {o.attached_to for o in battlefield if o.attached_to is not None}
        found = tuple([o._stamp for o in battlefield
                       if o.attached_to is not None or o.id in hosts
                       or reaches_others(o.copy_effect[1] if o.copy_effect is not None else o.script)])
        last = game.__dict__.get("_context_kept")
        if last is not None and last == found:
            found = last  # the same object: comparing keys that hold it is quick
        else:
            object.__setattr__(game, "_context_kept", found)  # not the game's state
        cache["context"] = found
    return found


def effects_key(game, oid: str) -> tuple:
    """The fields of every resolved effect on ``oid``, in order."""
    if not game.effects:
        return ()
    return tuple([_EFFECT_FIELDS(e) for e in game.effects if e.affected == oid])


def kept_characteristics(game, obj: GameObject, cache: dict, compute):
    """``obj``'s characteristics in the state of ``cache``: the ones kept from an earlier state
    if they were computed from the same permanent, effects and context, else ``compute(game,
    obj)``, kept for later states. Its power/toughness effects (``cache["pt_effects"]``) are
    kept with them."""
    if obj.zone != BATTLEFIELD or getattr(game, "_anthem_guard", None) or not keeps(game):
        return compute(game, obj)
    kept = game.__dict__.get("_characteristics_kept")
    if kept is None:
        kept = {}
        object.__setattr__(game, "_characteristics_kept", kept)  # not the game's state
    stamp, effects, layer_context = obj._stamp, effects_key(game, obj.id), context(game, cache)
    known = kept.get(obj.id)
    if known is not None and known[0] is obj and known[1] == stamp and known[2] == effects \
            and known[3] == layer_context:
        if known[5] is not None:
            cache.setdefault("pt_effects", {})[obj.id] = known[5]
        return known[4]
    found = compute(game, obj)
    kept[obj.id] = (obj, stamp, effects, layer_context, found, cache.get("pt_effects", {}).get(obj.id))
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
    copied["pt_effects"] = [effect.copy() for effect in entry["pt_effects"]]
    return copied


def kept_entry(game, obj: GameObject, ch, cache: dict, build) -> dict:
    """The observed entry of ``obj`` with characteristics ``ch``: a fresh copy of the one built
    in an earlier state from the same characteristics (the same object), the same object
    fields and counters and the same power/toughness effects, else ``build(obj, ch)``."""
    if not _keeps_entries(game):
        return build(obj, ch)
    kept = game.__dict__.get("_entries_kept")
    if kept is None:
        kept = {}
        object.__setattr__(game, "_entries_kept", kept)  # not the game's state
    pt_effects = cache.get("pt_effects", {}).get(obj.id)
    known = kept.get(obj.id)
    if known is not None and known[0] is ch and known[1] is obj and known[2] == obj._stamp \
            and known[3] == pt_effects:
        return fresh_entry(known[4])
    entry = build(obj, ch)
    kept[obj.id] = (ch, obj, obj._stamp, pt_effects, fresh_entry(entry))
    return entry
