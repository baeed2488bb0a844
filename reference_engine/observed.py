"""Observed entries given out again: an observation (``Game.observe``) gives out, for each object
unchanged since the last one, the entry it gave out then.

The observed entry of an object (``Game._observe_object``) is kept as its characteristics are
(:mod:`reference_engine.kept`; :func:`observed_entries`): built again only when its
characteristics, its stamp or its power and toughness effects changed (looked at only for the
objects the kept characteristics record as changed since the last observation), else given out again,
the very dict (observations are read-only for their callers), or copied for a game that doesn't
share unchanged entries. Only a speed-up; no rules meaning.
"""

from __future__ import annotations

from .kept import _of_this_package, changed_since_observed, keeps
from .objects import BATTLEFIELD, VERSION, ZONES

#: The methods an observed object's entry is built with (besides the layer code): a game whose
#: class takes any of them from outside this package builds every entry afresh.
OBSERVE_METHODS = ("_observe_object", "observe_copiable", "observe_pt_effects", "has_all_names")
_OBSERVING_CLASSES: dict[type, bool] = {}

#: The methods that hand an observation's entries out (and may change them in place first): a
#: game whose class takes any of them from outside this package never shares an entry.
HANDING_METHODS = ("observe", "_observe", "observe_combat", "observe_stack")
_SHARING_CLASSES: dict[type, bool] = {}


def shares_entries(game) -> bool:
    """Whether ``game``'s observations give out an unchanged object's entry again, the very dict
    (:func:`observed_entries`): it says so (``shares_unchanged_entries``, the reference engine's
    default, read of the game itself: a fork may set it on each game) and its class observes with
    this package's methods only (:data:`HANDING_METHODS`, :data:`OBSERVE_METHODS`, found once per class)."""
    if not getattr(game, "shares_unchanged_entries", False):
        return False
    cls = type(game)
    known = _SHARING_CLASSES.get(cls)
    if known is None:
        known = _SHARING_CLASSES[cls] = observes_unchanging(game)
    return known


def observes_unchanging(game) -> bool:
    """Whether no observation of ``game`` is changed by the game once given out: none shares a
    dict or list with its state, and an entry given out again (:func:`shares_entries`) is one the
    game never changes (``observe_combat`` puts a copy with its fields in place of a creature's
    entry). Its class observes with this package's methods only (:data:`HANDING_METHODS`,
    :data:`OBSERVE_METHODS`): a fork's own may hand out anything. ``tests/test_observation_sharing.py``
    pins it."""
    cls = type(game)
    return _of_this_package(cls, HANDING_METHODS, _PACKAGE_OBSERVING) and \
        _of_this_package(cls, OBSERVE_METHODS, _OBSERVING_CLASSES)


_PACKAGE_OBSERVING: dict[type, bool] = {}
#: By class: whether its games keep entries (:func:`_keeps_entries`) and :func:`observes_unchanging`.
_ENTRIES_CLASSES: dict[type, tuple[bool, bool]] = {}


def _keeps_entries(game) -> bool:
    return keeps(game) and _of_this_package(type(game), OBSERVE_METHODS, _OBSERVING_CLASSES)


def _keeping_and_sharing(game) -> tuple[bool, bool]:
    """Whether ``game``'s entries are kept (:func:`_keeps_entries`) and whether they are shared
    (:func:`shares_entries`), the class's part of both found once per class."""
    cls = type(game)
    known = _ENTRIES_CLASSES.get(cls)
    if known is None:
        known = _ENTRIES_CLASSES[cls] = (_keeps_entries(game), observes_unchanging(game))
    return known[0], known[1] and bool(getattr(game, "shares_unchanged_entries", False))


def entry_parts(entry: dict) -> tuple:
    """An observed object's entry and its dicts and lists (its other values are strings, numbers,
    booleans and None), taken once so that :func:`copied_entry` copies them without looking them
    up: ``(entry, counters, supertypes, types, subtypes, colors, keywords, copiable, pt_effects)``,
    ``copiable`` None or ``(copiable, supertypes, types, subtypes, colors, keywords)``."""
    copiable = entry["copiable"]
    if copiable is not None:
        copiable = (copiable, copiable["supertypes"], copiable["types"], copiable["subtypes"], copiable["colors"],
                    copiable["keywords"])
    return (entry, entry["counters"], entry["supertypes"], entry["types"], entry["subtypes"], entry["colors"],
            entry["keywords"], copiable, entry["pt_effects"])


def copied_entry(parts: tuple) -> dict:
    """A copy of the entry of ``parts`` (:func:`entry_parts`) with new dicts and lists: nothing
    of it is shared with the entry or an earlier observation."""
    entry, counters, supertypes, types, subtypes, colors, keywords, copiable, effects = parts
    copied = entry.copy()
    copied["counters"] = counters.copy()
    copied["supertypes"] = supertypes.copy()
    copied["types"] = types.copy()
    copied["subtypes"] = subtypes.copy()
    copied["colors"] = colors.copy()
    copied["keywords"] = keywords.copy()
    if copiable is not None:
        values = copiable[0].copy()
        values["supertypes"] = copiable[1].copy()
        values["types"] = copiable[2].copy()
        values["subtypes"] = copiable[3].copy()
        values["colors"] = copiable[4].copy()
        values["keywords"] = copiable[5].copy()
        copied["copiable"] = values
    if effects:
        copied["pt_effects"] = [effect.copy() for effect in effects]
    else:
        copied["pt_effects"] = []
    return copied


def fresh_entry(entry: dict) -> dict:
    """A copy of an observed object's entry with new dicts and lists: nothing of it is shared
    with ``entry`` or an earlier observation."""
    return copied_entry(entry_parts(entry))


def observed_entries(game, cache: dict, characteristics, build) -> tuple[dict, dict]:
    """The observed entry of each of ``game``'s objects, by id, in order, and the zones' lists of
    their ids: ``(entries, zones)``. For an object with the same characteristics (the same object),
    the same stamp and the same power/toughness effects as when its entry was last built, that
    entry again (the very dict given out last, or a fresh copy of it: below); else ``build(obj,
    ch)``. ``zones`` has the battlefield's list of ids and, for each other zone, each player's list
    (CR 400.1; ``zones[zone][owner]``, by player in the order of ``game.players``), each in the
    order of ``game.objects``.

    The contract with the caller, for a game that shares unchanged entries (:func:`shares_entries`,
    ``Game.shares_unchanged_entries``, on by default): an observation is read-only. An unchanged
    object's entry is the dict the last observation gave out (shared with it, and with every
    earlier one since the object last changed); a changed object has a new one. The engine never
    changes an entry once given out, so an entry that *is* the last observation's entry is
    unchanged since (the harness trusts that identity for this engine's game only:
    ``harness.running.execution.Session.fresh``, ``invariants.on_change``); what a caller changes
    in one, it changes in what it is given next. Off, the entries given out are the caller's: no
    dict or list of them is kept here or shared with an earlier observation. Only a speed-up; no
    rules meaning.

    A game that shares them also keeps what its last observation gave out, with the state version
    (:data:`reference_engine.objects.VERSION`) it was given at: while the version is the same, nothing an
    entry or a zone's list is built from changed (every change to the state changes it), so the entries and
    the zones' lists are those again, without looking at each object. The zones' lists are copies of those
    given out (read-only too: :func:`_zones_copied`). Once the version changed, only the objects changed or
    whose characteristics may differ since the last observation
    (:func:`reference_engine.kept.changed_since_observed`) are looked at again
    (:func:`_brought_up_to_date`)."""
    keeping, share = _keeping_and_sharing(game)
    if not keeping:
        return _built_entries(game, characteristics, build)
    state = game.__dict__
    given = state.get("_entries_given")
    if share and given is not None and given[0] == VERSION[0]:  # nothing changed since
        return given[1].copy(), _zones_copied(given[2])
    kept = state.get("_entries_kept")
    if kept is None:
        kept = {}
        object.__setattr__(game, "_entries_kept", kept)  # not the game's state
    changed = changed_since_observed(game, cache)  # after the first read in this state
    if share and given is not None and changed is not None:
        entries, zones = _brought_up_to_date(game, cache, characteristics, build, kept, given, changed)
        object.__setattr__(game, "_entries_given", (VERSION[0], entries.copy(), zones))
        return entries, zones
    entries, zones = _all_entries(game, cache, characteristics, build, kept, share)
    object.__setattr__(game, "_entries_given", (VERSION[0], entries.copy(), zones) if share else None)
    return entries, zones


def _all_entries(game, cache: dict, characteristics, build, kept: dict, share: bool) -> tuple[dict, dict]:
    """:func:`observed_entries` looking at every object: its entry is the one kept (``kept``, by id:
    ``(characteristics, object, stamp, power/toughness effects, entry or its parts)``, given again,
    or a copy of it for a game that doesn't ``share``) while nothing it is built from changed, else
    built again."""
    zones = _empty_zones(game.players)
    battlefield = zones[BATTLEFIELD]
    entries = {}
    computed = cache["characteristics"]  # the state's (observing changes nothing)
    pt_effects = cache.get("pt_effects")
    for obj in game.objects.values():
        oid = obj.id
        zone = obj.zone
        if zone == BATTLEFIELD:
            battlefield.append(oid)
        else:
            zones[zone][obj.owner].append(oid)
        ch = computed.get(oid)
        if ch is None:
            ch = characteristics(game, obj)
            pt_effects = cache.get("pt_effects")  # the first read in a state takes the kept ones
        effects = pt_effects.get(oid) if pt_effects is not None else None
        known = kept.get(oid)
        if known is not None and known[0] is ch and known[1] is obj and known[2] == obj._stamp \
                and known[3] == effects:
            entries[oid] = known[4] if share else copied_entry(known[4])
        else:
            entry = entries[oid] = build(obj, ch)
            kept[oid] = (ch, obj, obj._stamp, effects, entry if share else entry_parts(fresh_entry(entry)))
            pt_effects = cache.get("pt_effects")  # building may read another object's characteristics
    return entries, zones


def _brought_up_to_date(game, cache: dict, characteristics, build, kept: dict, given: tuple,
                        changed: set) -> tuple[dict, dict]:
    """:func:`observed_entries` from the last observation ``given`` (``(state version, entries by id,
    zones)``) and the ids ``changed`` since (:func:`reference_engine.kept.changed_since_observed`):
    every other object is the same with the same stamp, characteristics and power/toughness effects
    as then, its entry the one given then (``kept``, by id: ``(characteristics, object, stamp,
    power/toughness effects, entry)``). The changed objects' entries are checked and built as
    :func:`observed_entries` does, in the order of ``game.objects``; the zones' lists are copies of
    those given then while the objects are the same ids in the same order (then any new ones, each
    put at the end of its zone's list), each in the zone and owner's list it was in, and the players
    the same ids in the same order, else found again."""
    objects = game.objects
    order = list(objects)
    entries = given[1]
    kept_places = _kept_places(objects, order, entries, changed)
    computed = cache["characteristics"]
    # The changed ids that are objects, in the order of game.objects (filtered in C, no loop here).
    for oid in (filter(changed.__contains__, order) if len(changed) > 1 else changed):
        obj = objects.get(oid)
        if obj is None:
            continue
        ch = computed.get(oid)
        if ch is None:
            ch = characteristics(game, obj)
        pt_effects = cache.get("pt_effects")
        effects = pt_effects.get(oid) if pt_effects is not None else None
        known = kept.get(oid)
        if known is None or known[0] is not ch or known[1] is not obj or known[2] != obj._stamp \
                or known[3] != effects:
            kept[oid] = (ch, obj, obj._stamp, effects, build(obj, ch))
    players = game.players
    if kept_places and list(given[2][_FIRST_OFF_BATTLEFIELD]) == list(players):
        entries = entries.copy()
        for oid in changed:
            if oid in entries:
                entries[oid] = kept[oid][4]
        zones = _zones_copied(given[2])
        for oid in order[len(given[1]):]:  # the new objects, after the others (changed, built above)
            obj = objects[oid]
            entries[oid] = kept[oid][4]
            (zones[BATTLEFIELD] if obj.zone == BATTLEFIELD else zones[obj.zone][obj.owner]).append(oid)
        return entries, zones
    zones = _empty_zones(players)
    return _listed(objects, kept, zones), zones


def _kept_places(objects: dict, order: list, entries: dict, changed: set) -> bool:
    """Whether ``objects`` (in ``order``) are the ids of the ``entries`` given last, in the same
    order, then new ones (put in since: none, or a new permanent, ...), each of the ``changed`` ones
    given last in the zone and owner's list it was in then."""
    given = len(entries)
    if len(order) < given or (order if len(order) == given else order[:given]) != list(entries):
        return False
    for oid in changed:
        obj = objects.get(oid)
        if obj is None:  # gone
            continue
        entry = entries.get(oid)  # None: new (after the others)
        if entry is not None and (obj.zone != entry["zone"] or obj.owner != entry["owner"]):
            return False
    return True


def _listed(objects: dict, kept: dict, zones: dict) -> dict:
    """The kept entry of each of ``objects`` (by id, in order), each id put into its zone's list of
    ``zones`` (:func:`observed_entries`)."""
    battlefield = zones[BATTLEFIELD]
    entries = {}
    for oid, obj in objects.items():
        zone = obj.zone
        if zone == BATTLEFIELD:
            battlefield.append(oid)
        else:
            zones[zone][obj.owner].append(oid)
        entries[oid] = kept[oid][4]
    return entries


#: The zones an observation lists by owner (CR 400.1): every zone but the battlefield.
_OFF_BATTLEFIELD = tuple(zone for zone in ZONES if zone != BATTLEFIELD)
_FIRST_OFF_BATTLEFIELD = _OFF_BATTLEFIELD[0]


def _empty_zones(players) -> dict:
    """An observation's zones with no id in them: the battlefield's list, and for each other zone a
    list for each of ``players`` (ids, in order)."""
    zones: dict = {BATTLEFIELD: []}
    for zone in _OFF_BATTLEFIELD:
        by_owner: dict[str, list] = {}
        zones[zone] = by_owner
        for pid in players:
            by_owner[pid] = []
    return zones


def _zones_copied(given: dict) -> dict:
    """The zones given out (``given``: :func:`observed_entries`'s), in new dicts and lists with the
    same ids."""
    zones = {}
    for zone, ids in given.items():
        if zone == BATTLEFIELD:
            zones[zone] = ids.copy()
        else:
            by_owner = zones[zone] = {}
            for owner, owned in ids.items():
                by_owner[owner] = owned.copy()
    return zones


def _built_entries(game, characteristics, build) -> tuple[dict, dict]:
    """:func:`observed_entries` for a game whose entries aren't kept: each built afresh."""
    zones = _empty_zones(game.players)
    for obj in game.objects.values():
        (zones[BATTLEFIELD] if obj.zone == BATTLEFIELD else zones[obj.zone][obj.owner]).append(obj.id)
    return {obj.id: build(obj, characteristics(game, obj)) for obj in game.objects.values()}, zones
