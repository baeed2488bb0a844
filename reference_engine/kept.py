"""Characteristics kept from one state to the next while what they are computed from is unchanged.

:func:`reference_engine.layers.characteristics` computes each object's characteristics once
per state version (:func:`reference_engine.layers.state_cache`); most events change one or
two objects, so the next state would compute every other permanent's characteristics again,
to the same result. The first read in a state (:func:`kept_characteristics`) takes instead
every characteristics of the last state read that nothing changed since: from the objects
changed since then (among those of the changes recorded since, :data:`~reference_engine.objects.CHANGES`
and :func:`~reference_engine.objects.changed_since`: their stamps, ``GameObject._stamp`` and ``_seen_stamp``, are later than that
state's version; new and gone objects) and the resolved effects, the stale ones are

* a changed object's own, when what its characteristics read of it changed: a field another
  object can read (its zone, copiable values, controller, attachment, timestamp:
  :data:`~reference_engine.objects.SEEN_BY_OTHERS`), its counters (CR 613.4c), whether it is
  tapped if it was continuous (Orb of Origin rulings) or an anthem's filter reads it, its combat
  status if an anthem's filter reads it ("attacking", :data:`READS_STATUS`); not its damage,
  summoning sickness, shields, ...;
* those of an object whose resolved effects changed (CR 611.2);
* the host's of a changed Aura or Equipment (its copiable values, timestamp and whether it is
  tapped: CR 613.4c, 613.7e and Orb of Origin's continuous ruling), and those of what is
  attached to a host whose zone or controller changed (umbra armor of Dog Umbra and Umbra
  Mystic, CR 702.89a);
* those a changed permanent's copiable values (CR 707.2) reach (:func:`reaches`): every
  permanent's for an anthem of its card model (:func:`is_anthem`) or any script field not listed in
  :data:`OWN_ONLY` or :data:`ATTACHED_ONLY`; the Auras' for Umbra Mystic (as it starts or stops
  granting umbra armor, or changes controller); the noncreature artifacts' and the hosts of
  Equipment for Orb of Origin's supertypes (as it starts or stops granting them, CR 613.1d).

An object off the battlefield has its own characteristics (no continuous effect applies to
it): they are kept while its zone and card are the same. A recomputed result equal to the last
one is given back as that same object, so the observation keeps its entry. A fork of the engine
that overrides any method the layer code calls (:data:`LAYER_METHODS`, outside the
``reference_engine`` package) may read anything, so its characteristics are never kept across
states. Only a speed-up; no rules meaning. Observed entries are kept the same way
(:mod:`reference_engine.observed`).
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter

from .cards import CardScript
from .objects import BATTLEFIELD, EFFECT_CHANGES, GameObject, PTEffect, TrackedList, change_mark, changed_since

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

#: The state cache's entry (reference_engine.playtest) of the permanents whose copiable values say
#: "You have no maximum hand size".
NO_MAXIMUM_KEY = "no maximum hand size (by copiable values)"
#: The state cache's entry (reference_engine.game.protection_possible) of whether the text of a
#: permanent's copiable values names protection.
PROTECTION_NAMED_KEY = "a permanent's copiable values name protection"
#: The state cache's entry (reference_engine.layers.copiable_scripts) of each permanent with the
#: script of its copiable values.
COPIABLE_SCRIPTS_KEY = "copiable scripts"
#: The state cache's entries that read only which objects are on the battlefield, in the order of
#: ``game.objects``, with their copiable values, attachments and timestamps (the permanents, those
#: attached to each, the anthems, the Orbs, ...): the first read in a state takes them from the
#: last state read while none of that changed (:func:`_first_read`).
CARRIED = ("battlefield", "attached", "anthems", "orbs", NO_MAXIMUM_KEY, PROTECTION_NAMED_KEY, COPIABLE_SCRIPTS_KEY)

#: :func:`keeps` by class, found once per class: its hottest callers look the class up here first,
#: without a call (``KEEPING_CLASSES.get(type(game))``, None until found).
KEEPING_CLASSES: dict[type, bool] = {}
_REACHES_OTHERS: dict[int, tuple[CardScript, int]] = {}


def _of_this_package(cls: type, names: tuple, known: dict) -> bool:
    """Whether each method ``names`` of ``cls`` is this package's (a fork's own is not), found once
    per class and kept in ``known``."""
    found = known.get(cls)
    if found is None:
        found = known[cls] = all(getattr(getattr(cls, name, None), "__module__", "").startswith("reference_engine.")
                                 for name in names)
    return found


def keeps(game) -> bool:
    """Whether ``game``'s class computes characteristics with this package's layer code only."""
    found = KEEPING_CLASSES.get(type(game))  # found once per class: looked up first, without a call
    return _of_this_package(type(game), LAYER_METHODS, KEEPING_CLASSES) if found is None else found


#: What a permanent's copiable values reach (:func:`reaches`): the Auras (Umbra Mystic's umbra
#: armor, CR 613.1f), the noncreature artifacts (Orb of Origin's supertypes, CR 613.1d), every object
#: (an anthem, any other script field); and what a permanent's characteristics read of the others:
#: it is an Aura, it is a noncreature artifact (its copiable values, CR 707.2).
REACHES_AURAS, REACHES_ARTIFACTS, REACHES_EVERY, IS_AURA, IS_ARTIFACT = 1, 2, 4, 8, 16
#: A permanent's copiable values may read whether the objects they reach are tapped or in combat (an
#: anthem with a filter of :data:`STATUS_FILTERS`, or any script field not known to read nothing of it).
READS_STATUS = 32
#: The anthem filters that read an object's status (tapped, CR 110.5) or combat status (CR 506.4).
STATUS_FILTERS = frozenset({"tapped", "untapped", "attacking", "blocking", "attacking or blocking"})
#: The script fields that reach the Auras or the noncreature artifacts only.
_NARROW = {"grants_umbra_armor_to_auras": REACHES_AURAS, "grants_playtest_supertypes": REACHES_ARTIFACTS}


def reaches(script: CardScript) -> int:
    """Which objects' characteristics copiable values with ``script`` may change, besides the
    object the permanent is attached to: 0, or :data:`REACHES_AURAS`, :data:`REACHES_ARTIFACTS`,
    :data:`REACHES_EVERY` (bits), with :data:`READS_STATUS` if it may read their status."""
    known = _REACHES_OTHERS.get(id(script))
    if known is None or known[0] is not script:
        found = 0
        for name, default in _DEFAULTS.items():
            if getattr(script, name) != default:
                found |= _NARROW.get(name, REACHES_EVERY | READS_STATUS)
        model = script.model
        for a in model.of("static") if model is not None else ():
            if is_anthem(a):  # an Aura's or Equipment's bonus is its script's (ATTACHED_ONLY)
                found |= REACHES_EVERY
                if STATUS_FILTERS.intersection(a.affected.filters):  # type: ignore[union-attr]
                    found |= READS_STATUS
        if len(_REACHES_OTHERS) > 4096:
            _REACHES_OTHERS.clear()
        known = _REACHES_OTHERS[id(script)] = (script, found)
    return known[1]


def is_anthem(ability) -> bool:
    """Whether a card model's static ability (``cards.model.Ability``) is an anthem, "Creatures you
    control get +1/+1" (a bonus to each creature its filters match, CR 604.2, 611.3a, 613.4c): the
    only static abilities of a card model the layer code reads (``Layers.anthems``); an Aura's or
    Equipment's bonus is read from its script (:data:`ATTACHED_ONLY`), and the others ("~ can't
    block", combat restrictions, "~ enters tapped", "~ can't be countered") change no
    characteristics."""
    return ability.static == "bonus" and ability.affected is not None and ability.affected.scope == "each"


def reaches_others(script: CardScript) -> bool:
    """Whether copiable values with ``script`` may change the characteristics of objects the
    permanent isn't attached to."""
    return reaches(script) != 0


def _seen(o: GameObject) -> tuple:
    """What characteristics read of ``o`` as it is now (module docstring): ``(o, bits, attached to,
    controller, timestamp, tapped, card, script, counters, combat status)``: bits of
    :func:`reaches` and :data:`IS_AURA`, :data:`IS_ARTIFACT`, its copiable values (CR 707.2);
    off the battlefield only ``o`` and its own card and script (no effect of it applies, CR
    611.3a; none applies to it, CR 613.1)."""
    if o.zone != BATTLEFIELD:
        return o, 0, None, None, None, None, o.card, o.script, None, None
    card, script = o.copy_effect if o.copy_effect is not None else (o.card, o.script)
    bits = reaches(script)
    if "Aura" in card.subtypes:
        bits |= IS_AURA
    if "Artifact" in card.types and "Creature" not in card.types:
        bits |= IS_ARTIFACT
    return o, bits, o.attached_to, o.controller, o.timestamp, o.tapped, card, script, tuple(o.counters.items()), \
        o.combat


def _stale(game, since: int, context: list, last: dict) -> tuple[set, bool]:
    """The ids whose characteristics kept at state version ``since`` may differ now, and whether the
    battlefield's structure and the order of the objects are the same (:func:`_same_structure`,
    ``context[4]``), from the objects changed since (those changed or put in by id since the change record's
    mark ``context[6]``, :func:`~reference_engine.objects.changed_since`, with stamps after ``since``, or
    every object when those can't be told; new or gone ones) and the resolved effects; brings ``context``,
    the view of the objects (:func:`_seen`, by id), the order of their ids and the resolved effects' fields
    as they were then, up to date, and adds the changed objects' ids and the stale ones to its sets of
    changes (``context[3]``, :func:`changed_since_taken`; ``context[5]``, :func:`changed_since_observed`) if
    there are. ``last`` is the characteristics kept at ``since`` (by id): whether a permanent is tapped is
    read only of one that was continuous then (Orb of Origin rulings: it has no abilities while tapped; a
    permanent becomes continuous only as its copiable values or an Orb change, which are seen) and by an
    anthem whose filter reads it (:data:`READS_STATUS`; an anthem that starts or stops applying makes every
    permanent stale), its combat status only by such an anthem."""
    view = context[0]
    objects = game.objects
    stale: set = set()
    seen: list = []
    changed, observed = context[3], context[5]
    status: list = []  # whether a permanent's copiable values read the status of others, once found
    candidates = changed_since(objects, context[6])  # None: every object may have changed, and their order
    context[6] = change_mark(objects)
    for oid, o in objects.items() if candidates is None else candidates.items():
        old = view.get(oid)
        if old is not None and old[0] is o and o._stamp <= since:
            continue
        if changed is not None:
            changed.add(oid)
        if observed is not None:
            observed.add(oid)
        view[oid] = new = _seen(o)
        if (old[2] if old is not None else None) != new[2]:
            _attach(context[8], oid, old, new)
        by_others, by_itself = _what_changed(old, new, last.get(oid), view, status)
        if by_others:
            seen.append((oid, old, new))
        if by_itself:
            stale.add(oid)
    if len(view) != len(objects):
        _forget_gone(objects, context, seen, stale)
    _effects_stale(game, context, stale)
    if seen:
        stale |= _seen_by_others(view, seen, context[8])
    if changed is not None:
        changed |= stale
    if observed is not None:
        observed |= stale
    same = all(map(_same_structure, seen))
    if candidates is None or len(objects) != len(context[4]):  # else no id was put in, moved or removed
        order = list(objects)
        same = same and order == context[4]
        context[4] = order
    return stale, same


def _what_changed(old: tuple | None, new: tuple, ch, view: dict, status: list) -> tuple[bool, bool]:
    """Whether what other objects' characteristics read of an object changed between its views
    ``old`` and ``new`` (:func:`_seen`; ``ch`` its characteristics as of ``old``), and whether what
    its own read of it did: besides what the others read, its counters (CR 613.4c) and its status
    (tapped, in combat) if a permanent's copiable values read it (:func:`_status_read`)."""
    if old is None or old[0] is not new[0]:
        return True, True
    tapped = old[5] != new[5]
    others = old[1:5] != new[1:5] or old[6:8] != new[6:8] \
        or (tapped and (ch is None or "Continuous" in ch.supertypes))  # ch may be a continuous permanent's
    return others, others or old[8] != new[8] or ((tapped or old[9] != new[9]) and _status_read(view, status))


def _same_structure(seen: tuple) -> bool:
    """Whether an object seen changed (``(id, as it was, as it is)``, :func:`_stale`) is the same
    object, on the battlefield or not as it was, with the same copiable values, attachment and
    timestamp: what :data:`CARRIED` reads of it."""
    _, old, new = seen
    return old is not None and new is not None and old[0] is new[0] and old[1:3] == new[1:3] \
        and (old[3] is None) == (new[3] is None) and old[4] == new[4] and old[6:8] == new[6:8]


def _status_read(view: dict, found: list) -> bool:
    """Whether a permanent of ``view`` has copiable values that read the status of others
    (:data:`READS_STATUS`), found once into ``found``."""
    if not found:
        reads = False
        for seen in view.values():  # a plain loop: no generator resumed for each object
            if seen[1] & READS_STATUS:
                reads = True
                break
        found.append(reads)
    return found[0]


def _effects_stale(game, context: list, stale: set) -> None:
    """Add to ``stale`` the ids whose resolved effects (CR 611.2) changed since ``context[1]`` (their
    fields then), and bring it up to date; compared field by field only when the game's ``effects``
    are another list, or a list or an effect changed since (``context[7]``, the list and
    :data:`~reference_engine.objects.EFFECT_CHANGES` then)."""
    effects = game.effects
    mark = context[7]
    if mark[0] is effects and mark[1] == EFFECT_CHANGES[0] and type(effects) is TrackedList:
        return
    context[7] = (effects, EFFECT_CHANGES[0])
    fields = tuple(map(_EFFECT_FIELDS, effects))
    if fields != context[1]:
        before: dict[str, list] = {}
        for e in context[1]:
            before.setdefault(e[0], []).append(e)
        now: dict[str, list] = {}
        for e in fields:
            now.setdefault(e[0], []).append(e)
        stale.update(oid for oid in before.keys() | now.keys() if before.get(oid) != now.get(oid))
        context[1] = fields


def _forget_gone(objects, context: list, seen: list, stale: set) -> None:
    """Take the objects no longer in ``objects`` out of ``context`` (the view, what is attached to
    each host, the characteristics computed), each seen gone (``(id, as it was, None)`` appended to
    ``seen``) and stale."""
    view = context[0]
    for oid in [oid for oid in view if oid not in objects]:
        old = view.pop(oid)
        seen.append((oid, old, None))
        if old[2] is not None:
            _attach(context[8], oid, old, None)
        stale.add(oid)
        context[2].pop(oid, None)


def _attach(attached: dict, oid: str, old: tuple | None, new: tuple | None) -> None:
    """Bring ``attached`` (the ids of the view's objects attached to each host, by host id: ``context[8]``)
    up to date as ``oid``'s view changes from ``old`` to ``new`` (:func:`_seen`, None: not in the view)."""
    if old is not None and old[2] is not None:
        ids = attached[old[2]]
        ids.discard(oid)
        if not ids:
            del attached[old[2]]
    if new is not None and new[2] is not None:
        attached.setdefault(new[2], set()).add(oid)


def _seen_by_others(view: dict, seen: list, attached: dict) -> set:
    """The permanents whose characteristics read what changed of the ``seen`` objects (each
    ``(id, as it was, as it is)`` by :func:`_seen`, None where it isn't): the hosts of a changed
    Aura or Equipment (its copiable values, timestamp and whether it is tapped: CR 613.4c, 613.7e,
    the continuous ruling of Orb of Origin), what is attached to a host that changed zone or
    controller (umbra armor, CR 702.89a: Dog Umbra, Umbra Mystic), and those their copiable values
    reach (:func:`_reach_changed`); ``attached`` is the ids attached to each host in ``view`` (by
    host id)."""
    stale: set = set()
    reach = 0
    hosts: set = set()
    for oid, old, new in seen:
        reach |= _reach_changed(old, new)
        host, host_now = (old[2] if old else None), (new[2] if new else None)
        if host != host_now or (host is not None and (old[0] is not new[0] or old[4:8] != new[4:8])):
            stale.update(h for h in (host, host_now) if h is not None)
        if old is None or new is None or old[0] is not new[0] or old[3] != new[3]:
            hosts.add(oid)
    if reach:
        stale |= _reached(view, hosts, reach)
    else:  # only what is attached to one of hosts
        for host in hosts:
            stale.update(attached.get(host, ()))
    return stale


def _reach_changed(old: tuple | None, new: tuple | None) -> int:
    """What an object's copiable values reach that changed (bits of :func:`reaches`): every
    permanent whenever it changes at all; the Auras (Umbra Mystic) as it starts or stops
    reaching them or changes controller; the noncreature artifacts (Orb of Origin) as it starts
    or stops reaching them."""
    was, now = (old[1] if old else 0), (new[1] if new else 0)
    found = (was | now) & REACHES_EVERY
    if (was ^ now) & REACHES_ARTIFACTS:
        found |= REACHES_ARTIFACTS
    if (was | now) & REACHES_AURAS and ((was ^ now) & REACHES_AURAS or old[3] != new[3]):  # type: ignore[index]
        found |= REACHES_AURAS
    return found


def _reached(view: dict, hosts: set, reach: int) -> set:
    """The permanents attached to one of ``hosts`` and those ``reach`` (not 0) reaches: every permanent,
    the Auras, the noncreature artifacts and the hosts of Equipment (they read its supertypes)."""
    stale: set = set()
    reads = (IS_AURA if reach & REACHES_AURAS else 0) | (IS_ARTIFACT if reach & REACHES_ARTIFACTS else 0)
    equipped = reach & REACHES_ARTIFACTS
    every = reach & REACHES_EVERY
    for oid, seen in view.items():
        o, bits, host = seen[0], seen[1], seen[2]
        if host is not None:
            if host in hosts:
                stale.add(oid)
            if equipped and bits & IS_ARTIFACT:
                stale.add(host)  # it reads its Equipment's supertypes (has_abilities)
        if bits & reads or (every and o.zone == BATTLEFIELD):
            stale.add(oid)
    return stale


def kept_characteristics(game, obj: GameObject, cache: dict, compute):
    """``obj``'s characteristics in the state of ``cache``: the ones kept from an earlier state
    if nothing they were computed from changed since, else ``compute(game, obj)`` (the object
    computed last for ``obj`` if equal: the observation keeps its entry). The first read in a
    state takes every still valid characteristics (and power/toughness effects,
    ``cache["pt_effects"]``) of the last state read into ``cache``."""
    keeping = KEEPING_CLASSES.get(type(game))  # keeps(game), without its call once found
    if not (keeping or keeping is None and keeps(game)) or getattr(game, "_anthem_guard", None):
        return compute(game, obj)
    if "context" not in cache and _first_read(game, cache):  # the first read in this state
        found = cache["characteristics"].get(obj.id)
        if found is not None and game.objects.get(obj.id) is obj:
            return found
    found = compute(game, obj)
    if game.objects.get(obj.id) is obj:
        computed = cache["context"][2]
        earlier = computed.get(obj.id)
        if earlier is not None and earlier is not found and earlier == found:
            return earlier
        computed[obj.id] = found
    return found


def _first_read(game, cache: dict) -> bool:
    """The first read in the state of ``cache``: take into it what is still valid of the last state
    read (:func:`_take`, and the entries of :data:`CARRIED` while the battlefield's structure and the
    order of the objects are the same; whether it did), or start keeping (the game's first read)."""
    state = game.__dict__
    kept, context = state.get("_characteristics_kept"), state.get("_context_kept")
    if kept is None or context is None:
        kept = [cache_version(game), cache]
        view = {oid: _seen(o) for oid, o in game.objects.items()}
        context = [view, tuple(map(_EFFECT_FIELDS, game.effects)), {}, None, list(game.objects), None,
                   change_mark(game.objects), (game.effects, EFFECT_CHANGES[0]), {}]
        for oid, seen in view.items():
            if seen[2] is not None:
                _attach(context[8], oid, None, seen)
        object.__setattr__(game, "_characteristics_kept", kept)  # not the game's state
        object.__setattr__(game, "_context_kept", context)
        cache["context"] = context
        return False
    last = kept[1]
    stale, same = _stale(game, kept[0], context, last.get("characteristics") or {})
    kept[0], kept[1] = game._cache_version, cache  # cache_version(game), without its call
    cache["context"] = context
    _take(cache, last, stale)
    if same:
        for name in CARRIED:
            if name in last and name not in cache:
                cache[name] = last[name]
    return True


def changed_since_taken(game, cache: dict) -> set | None:
    """The ids of ``game``'s objects changed since the last call (any field, their counters; new
    and gone ones) or whose characteristics (CR 613) may differ since, None if unknown (the first
    call, or the first since the kept characteristics started again); the next call gives the
    changes after this one. ``cache`` is the state's (reference_engine.layers.state_cache); only
    for a game that :func:`keeps`."""
    return _changes_since(game, cache, 3)


def changed_since_observed(game, cache: dict) -> set | None:
    """Like :func:`changed_since_taken`, with its own record: the ids of ``game``'s objects changed
    or whose characteristics may differ since the last call (made by each observation,
    :func:`reference_engine.observed.observed_entries`), None if unknown."""
    return _changes_since(game, cache, 5)


def _changes_since(game, cache: dict, index: int) -> set | None:
    """The set of changes ``context[index]`` of the kept context (after the first read in the state of
    ``cache``), a new empty one in its place; None the first time."""
    if "context" not in cache:
        _first_read(game, cache)
    context = cache["context"]
    changed = context[index]
    context[index] = set()
    return changed


def cache_version(game) -> int:
    """The state version of ``game``'s state cache (reference_engine.layers.state_cache)."""
    return game._cache_version


def _take(cache: dict, last: dict, stale: set) -> None:
    """Put into ``cache[name]`` the entries of ``last[name]`` not in ``stale`` (not replacing any),
    for the characteristics and the power/toughness effects."""
    for name in ("characteristics", "pt_effects"):
        earlier = last.get(name)
        if not earlier:
            continue
        now = cache.get(name)
        if now is not None and not now:  # nothing of this state's yet (most first reads): filled in place, no copy
            now.update(earlier)
            for oid in stale:
                now.pop(oid, None)
            continue
        taken = earlier.copy()
        for oid in stale:
            taken.pop(oid, None)
        if now is None:
            cache[name] = taken
        else:
            taken.update(now)
            now.update(taken)
