"""Generic properties that hold for any correct engine, whatever the cards.

Zones (CR 400.1, 400.7), illegal actions
(the engine protocol: an illegal attempt changes nothing, as a judge would rewind it,
CR 104.3 aside), the shape and JSON round-trip of observations.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter, ne

from harness.wire.log_kinds import log_problems

from .base import ScenarioRun, Transition, invariant
from .on_change import Sound, changed_objects as _changed_objects

OBJECT_FIELDS: dict[str, type | tuple[type, ...]] = {
    "name": str, "zone": str, "owner": str, "controller": str, "token": bool, "tapped": bool,
    "summoning_sick": bool, "damage": int, "counters": dict, "attached_to": (str, type(None)),
    "combat": (str, type(None)), "regeneration_shields": int, "supertypes": list, "types": list,
    "subtypes": list, "colors": list, "keywords": list, "power": (int, type(None)),
    "toughness": (int, type(None)),
}
ZONES = ("battlefield", "library", "hand", "graveyard", "exile")

# The last observation found well-formed and the last found plain JSON, held by reference
# (so identity means "this very observation"): the next observation is checked on change
# only against it. See :func:`observation_problems` and :func:`json_problem`.
_well_formed: list = [None]
_plain: list = [None]
_last_shape: list = [None, ()]  # [observation, problems]: the session's check and the invariant's are one


def observation_problems(obs, before=None, reuse: bool = True) -> list[str]:
    """What is malformed in ``obs`` (empty when it has the protocol's shape): a list of messages.

    On change only: when ``before`` is the last observation this function found
    well-formed, only the objects that differ from ``before``'s (or are new) are checked
    field by field; the players and the log always are. An object equal to its previous
    version was checked then. (Equality can't tell ``1`` from ``True`` or ``1.0``: a field
    replaced by an equal value of another type on an otherwise unchanged object is not
    seen; a changed object is checked in full.) With ``reuse``, the last result is
    returned again for the very same observation, so the session's check
    (``reuse=False``, right after ``observe``) and ``generic.observation_shape`` cost one.
    """
    if reuse and _last_shape[0] is obs:
        return list(_last_shape[1])
    incremental = before is not None and before is _well_formed[0] and before is not obs and type(obs) is dict \
        and type(obs.get("objects")) is dict
    problems = _observation_problems(obs, _changed_objects(obs, before) if incremental else None)
    _last_shape[:] = [obs, tuple(problems)]
    if not problems:
        _well_formed[0] = obs
    return problems


def _observation_problems(obs, objects: dict | None = None) -> list[str]:
    """The full check of ``obs``, of only ``objects`` among its objects when given."""
    if not isinstance(obs, dict):
        return [f"observation is a {type(obs).__name__}, not an object"]
    out = []
    for key in ("players", "objects", "zones", "log"):
        if key not in obs:
            out.append(f"observation has no {key!r}")
    if out:
        return out
    if not _players_well_formed(obs["players"]):
        out.append("players: expected {id: {life: int, lost: bool}}")
    if not isinstance(obs["objects"], dict):
        return out + ["objects: expected a map of id to object"]
    for oid, obj in (obs["objects"] if objects is None else objects).items():
        out += _object_problems(oid, obj)
    out.extend(log_problems(obs["log"]))  # every entry of a kind, with fields and a cause, of harness.wire.log_kinds
    return out


def _players_well_formed(players) -> bool:
    """Whether ``players`` is ``{id: {life: int, lost: bool}}`` (a loop: no generator made each step)."""
    for p in players.values() if isinstance(players, dict) else (False,):
        if not (isinstance(p, dict) and isinstance(p.get("life"), int) and isinstance(p.get("lost"), bool)):
            return False
    return True


#: :data:`OBJECT_FIELDS`' names, and what an absent field reads as (:func:`_field_types`).
_FIELD_NAMES = tuple(OBJECT_FIELDS)
_ABSENT = (KeyError,) * len(_FIELD_NAMES)
#: The types JSON decodes to: their instances are what they are (no ``__class__`` of another type).
_BUILTIN_TYPES = frozenset((str, int, bool, dict, list, float, type(None)))
#: Tuples of the exact types of an object's fields (:func:`_field_types`) with which :func:`_object_problems`
#: found only the damage left to judge: each field present, of a builtin JSON type it accepts.
_SOUND_FIELD_TYPES: set[tuple] = set()


def _field_types(obj: dict) -> tuple:
    """The exact type of each of ``obj``'s :data:`OBJECT_FIELDS`, in their order (``KeyError``'s type,
    ``type``, for one absent)."""
    return tuple(map(type, map(obj.get, _FIELD_NAMES, _ABSENT)))


def _object_problems(oid, obj) -> list[str]:
    """What is wrong with the observed object ``obj``: a field missing or of the wrong type (:data:`OBJECT_FIELDS`),
    negative damage (CR 120.3).

    Whether each field is there and of a type it accepts depends only on the exact types of the
    fields, for builtin types: a tuple of them found sound once (:data:`_SOUND_FIELD_TYPES`) leaves
    only the damage to judge."""
    if type(obj) is dict:
        types = _field_types(obj)
        if types in _SOUND_FIELD_TYPES:
            return [f"objects[{oid!r}].damage = {obj['damage']} is negative (CR 120.3)"] if obj["damage"] < 0 else []
    elif not isinstance(obj, dict):
        return [f"objects[{oid!r}] is not an object"]
    out = _field_problems(oid, obj)
    if isinstance(obj.get("damage"), int) and obj["damage"] < 0:
        out.append(f"objects[{oid!r}].damage = {obj['damage']} is negative (CR 120.3)")
    elif not out and type(obj) is dict and _BUILTIN_TYPES.issuperset(types) and len(_SOUND_FIELD_TYPES) < 4096:
        _SOUND_FIELD_TYPES.add(types)
    return out


def _field_problems(oid, obj: dict) -> list[str]:
    """Each of :data:`OBJECT_FIELDS` missing from ``obj`` or of a type it doesn't accept, as a message."""
    out = []
    for name, kind in OBJECT_FIELDS.items():
        value = obj.get(name, KeyError)
        if value is KeyError:
            out.append(f"objects[{oid!r}] has no {name!r}")
        elif not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            out.append(f"objects[{oid!r}].{name} = {value!r} has the wrong type: expected {_type_name(kind)}, "
                       f"got {type(value).__name__}")
    return out


_JSON_TYPES = {str: "a string", int: "an integer", bool: "true or false", dict: "an object", list: "a list",
               type(None): "null"}


def _type_name(kind) -> str:
    """The JSON type(s) of an :data:`OBJECT_FIELDS` entry, for a message: ``an integer or null``."""
    return " or ".join(_JSON_TYPES.get(k, k.__name__) for k in (kind if isinstance(kind, tuple) else (kind,)))


@invariant("generic.engine_does_not_raise", rules=("104.3",), family="generic")
def engine_does_not_raise(t: Transition):
    """The engine performs or refuses every event: it never raises anything but IllegalAction, nor hangs."""
    return [t.error] if t.error else []


@invariant("generic.observation_shape", rules=("109.3", "120.3"), family="generic")
def observation_shape(t: Transition):
    """The observation has the protocol's shape: fields present, of the right types, damage >= 0, every
    log entry of a known kind with its fields and a known cause (:mod:`harness.wire.log_kinds`).

    Checked on change only (:func:`observation_problems`; the log always)."""
    return observation_problems(t.after, t.before)


_SCALARS = (str, int, bool, type(None))


def json_problem(value, before=None) -> str | None:
    """Why ``value`` would not survive a JSON round trip unchanged, or None.

    JSON keeps dicts with string keys, lists, strings, numbers, booleans and null; a tuple comes
    back as a list, a non-string key as a string, NaN as something unequal. Checked by one walk
    over the data (half the cost of dumping and loading it), on change only: when ``before`` is
    the last observation found plain, only its top-level parts and objects that differ (``!=``)
    from ``before``'s are walked. Whatever JSON changes compares unequal (a tuple to a list, a key
    1 to "1", NaN to itself), so a part equal to a plain one is plain, but for a subclass equal to
    a plain value (an ``OrderedDict`` replacing an equal dict), which is then not seen. The same
    holds one level down: of a part or object that differs, a dict with the keys of its version
    before, only the values that differ from that version's are walked (:func:`_differing`); when
    one is not plain, the message is the walk's over the whole parts and objects."""
    if before is not None and before is _plain[0] and before is not value and type(value) is dict \
            and type(value.get("objects")) is dict:
        get = before.get  # not _unchanged(old, part), written out
        parts: list = []
        walked: list = []  # what is walked for the verdict: the values of parts that differ
        for key, part in value.items():
            if key != "objects" and ((old := get(key)) is part or not old == part):
                parts.append(part)
                walked += _differing(part, old)
        changed = _changed_objects(value, before)
        parts.append(changed)
        olds = before["objects"]
        for oid, obj in changed.items():
            if type(oid) is not str:  # no key of before's: walked with the others
                walked.append(changed)
                break
            walked += _differing(obj, olds.get(oid))
    else:
        parts = walked = value
    if _is_plain(walked):  # the walk's verdict, without its message: found again by the walk when there is one
        _plain[0] = value
        return None
    return _json_walk(parts)


def _differing(new, old) -> list:
    """What of ``new`` (a part or object of an observation) :func:`json_problem` walks, ``old`` its version in
    the last observation found plain: the values of ``new`` that differ (``!=``) from ``old``'s under the same
    key when both are dicts, ``new`` not ``old`` itself, with the same keys; else ``[new]``."""
    if new is old or type(new) is not dict or type(old) is not dict or len(new) != len(old):
        return [new]
    try:  # as many keys, each of them ``old``'s: the same keys (cheaper than comparing the keys)
        olds = list(map(old.__getitem__, new))
    except KeyError:  # a key that is not ``old``'s
        return [new]
    values = new.values()
    return list(compress(values, map(ne, values, olds)))


_PLAIN_LEAVES = frozenset(_SCALARS)


def _is_plain(value) -> bool:
    """Whether :func:`_json_walk` finds nothing in ``value``: the same walk, each leaf of a plain type
    (a string, an integer, a boolean, null) judged where it is met instead of stacked."""
    stack = [value]
    pop, push, leaves = stack.pop, stack.append, _PLAIN_LEAVES
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict:
            for key, val in item.items():
                if type(key) is not str:
                    return False
                if type(val) not in leaves:
                    push(val)
        elif kind is list:
            for val in item:
                if type(val) not in leaves:
                    push(val)
        elif kind is float:
            if item != item or item in (float("inf"), float("-inf")):
                return False
        elif kind not in leaves:
            return False
    return True


def _json_walk(value) -> str | None:
    """One walk over ``value``: the first item that is not plain JSON, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            for key, val in item.items():
                if type(key) is not str:
                    return f"non-string key {key!r}"
                stack.append(val)
        elif kind is list:
            stack.extend(item)
        elif kind is float:
            if item != item or item in (float("inf"), float("-inf")):
                return f"non-finite number {item!r}"
        elif kind not in _SCALARS:
            return f"a {kind.__name__} ({item!r:.40})"
    return None


@invariant("generic.json_round_trip", rules=("109.3",), family="generic")
def json_round_trip(t: Transition):
    """The observation survives a JSON round trip unchanged (it is plain data)."""
    problem = json_problem(t.after, t.before)
    return [f"observation is not plain JSON data: {problem}"] if problem else []


#: The last observation :func:`one_zone_per_object` found consistent, held by reference (identity
#: means "this very observation").
_zones_consistent: list = [None]


def _places_kept(obs: dict, before: dict) -> bool:
    """Whether :func:`one_zone_per_object` finds nothing in ``obs``, ``before`` the last observation found
    consistent: the places listed (``(id, zone, player)``, player None on the battlefield) are, as a multiset,
    the objects' places (:func:`_listed_at`) in ``before``; so in ``obs`` exactly when the places listed only
    now (:func:`_moved`) and those before of the objects changed or gone (``came``) are the places listed only
    before and those of the objects changed or new (``gone``, :func:`_changed_objects`). False when unusual."""
    came: list = []
    gone: list = []
    try:
        zones, old_zones = obs.get("zones", {}), before.get("zones", {})
        if zones != old_zones:
            if not _moved(zones.get("battlefield", []), old_zones.get("battlefield", []), ZONES[0], None, came, gone):
                return False
            for zone in ZONES[1:]:
                lists, olds = zones.get(zone) or {}, old_zones.get(zone) or {}
                if lists != olds:
                    for player, ids in lists.items():
                        if not _moved(ids, olds.get(player, ()), zone, player, came, gone):
                            return False
                    for player, ids in olds.items():
                        if player not in lists:
                            gone += [(oid, zone, player) for oid in ids]
        objects, old, new = obs["objects"], before["objects"], 0
        for oid, obj in _changed_objects(obs, before).items():
            gone.append(_listed_at(oid, obj))
            was = old.get(oid)
            if was is None:
                new += 1
            else:
                came.append(_listed_at(oid, was))
        if len(objects) - new != len(old):  # some left
            came += [_listed_at(oid, old[oid]) for oid in old.keys() - objects.keys()]
        return came == gone or sorted(came) == sorted(gone)
    except Exception:  # noqa: BLE001  (unusual data: the full check meets it as it did)
        return False


def _moved(ids, old_ids, zone: str, player, came: list, gone: list) -> bool:
    """Add to ``came`` the places (in ``zone``, ``player`` 's) of the ids of list ``ids`` that ``old_ids`` (the
    list before, none twice) has not, to ``gone`` the others'; False when ``ids`` is no list or has one twice."""
    if ids == old_ids:
        return True
    if type(ids) is not list or len(now := set(ids)) != len(ids):  # no list, or an id twice
        return False
    was = set(old_ids)
    came += [(oid, zone, player) for oid in now - was]
    gone += [(oid, zone, player) for oid in was - now]
    return True


def _listed_at(oid, obj: dict) -> tuple:
    """Where ``oid`` (observed as ``obj``) is to be listed: ``(oid, zone, None or its owner, CR 400.3)``."""
    return (oid, "battlefield", None) if obj["zone"] == "battlefield" else (oid, obj["zone"], obj["owner"])


@invariant("generic.one_zone_per_object", rules=("400.1", "400.7"), family="generic")
def one_zone_per_object(t: Transition):
    """Every object is listed in exactly one zone, the one its ``zone`` field names.

    Checked on change only: when ``before`` is the last observation found consistent, ``after`` is
    found consistent from its zone lists and objects that changed (:func:`_places_kept`)."""
    obs, before = t.after, t.before
    if before is _zones_consistent[0] and before is not obs and _places_kept(obs, before):
        _zones_consistent[0] = obs
        return []
    out = [] if _zones_agree(obs) else _zone_problems(obs)
    _zones_consistent[0] = None if out else obs
    return out


_ZONE = itemgetter("zone")
_ZONE_AND_OWNER = itemgetter("zone", "owner")


def _zones_agree(obs: dict) -> bool:
    """Whether :func:`_zone_problems` finds nothing in ``obs``, found with loops in C: each zone list's
    objects have that zone (and that owner, off the battlefield), and the lists hold every object once
    (as many ids as objects, none twice, each an object's). False when anything is amiss or unusual (the
    full check then finds what)."""
    objects = obs["objects"]
    zones = obs.get("zones", {})
    try:
        get = objects.__getitem__  # KeyError: an id that is no object's
        battlefield = zones.get("battlefield", [])
        if battlefield and set(map(_ZONE, map(get, battlefield))) != {"battlefield"}:
            return False
        lists = [battlefield]
        for zone in ZONES[1:]:
            for player, ids in (zones.get(zone) or {}).items():
                if ids and set(map(_ZONE_AND_OWNER, map(get, ids))) != {(zone, player)}:
                    return False
                lists.append(ids)
        listed = sum(map(len, lists))
        return listed == len(objects) and len(set().union(*lists)) == listed
    except Exception:  # noqa: BLE001  (unusual data: the full check meets it as it did)
        return False


def _zone_problems(obs: dict) -> list[str]:
    """What :func:`one_zone_per_object` finds in ``obs``, checked in full: a list of messages."""
    seen: dict[str, list[tuple[str, str | None]]] = {}
    zones = obs.get("zones", {})
    for oid in zones.get("battlefield", []):
        seen.setdefault(oid, []).append(("battlefield", None))
    for zone in ZONES[1:]:
        for player, ids in (zones.get(zone) or {}).items():
            for oid in ids:
                seen.setdefault(oid, []).append((zone, player))
    out = []
    for oid, obj in obs["objects"].items():
        places = seen.pop(oid, [])
        if len(places) != 1:
            out.append(f"{oid} is listed in {len(places)} zones: {[_place(p) for p in places]}")
            continue
        zone, player = places[0]
        if zone != obj["zone"]:
            out.append(f"{oid} is listed in {_place(places[0])} but its zone is {obj['zone']}")
        elif player is not None and player != obj["owner"]:
            out.append(f"{oid} is in {_place(places[0])}, not its owner {obj['owner']}'s zone (CR 400.3)")
    for oid, places in seen.items():
        out.append(f"{oid} is listed in {[_place(p) for p in places]} but is not an object of the game")
    return out


def _place(place: tuple[str, str | None]) -> str:
    """``battlefield`` or ``zone:player``, as the messages of :func:`one_zone_per_object` name a place."""
    zone, player = place
    return zone if player is None else f"{zone}:{player}"


@invariant("generic.objects_conserved", rules=("400.7", "111.7", "704.5d"), family="generic")
def objects_conserved(t: Transition):
    """Objects are neither lost nor duplicated by an event.

    Every object before is still there after, unless the log says a token ceased to exist or
    a card became a new object (a ``zone_change`` entry whose ``previous`` is its id: a card
    returned from exile, CR 400.7); every new object was created by the event (its id), or its
    first ``zone_change`` entry of the step brings it into the objects: from nowhere, from the
    stack it was on before (a spell resolving, CR 608.3a, 608.2n), or as the new object of a
    card that was (``previous``). Its later moves in the same step don't matter: an Aura spell
    that resolves and goes to the graveyard at once, its creature dying (704.5m), was created.
    """
    before, after = t.before["objects"], t.after["objects"]
    if before.keys() == after.keys():  # no object gone, none new: nothing to account for
        return []
    moves = [e for e in t.log if e.get("kind") == "zone_change"]
    changes = {e["object"]: e for e in moves}  # each object's last zone change
    firsts = {e["object"]: e for e in reversed(moves)}  # and its first
    became = {e["previous"] for e in moves if isinstance(e.get("previous"), str)}
    out = []
    for oid in before.keys() - after.keys():
        entry = changes.get(oid)
        if oid in became:
            continue  # it became a new object (CR 400.7), logged with "previous"
        if not (before[oid]["token"] and entry and entry.get("to") is None):
            out.append(_missing_entry(oid, before[oid], entry))
    for oid in after.keys() - before.keys():
        if not _was_created(t, oid, firsts.get(oid) or {}):
            out.append(f"{oid} ({after[oid]['name']}) appeared without being created: it is observed after the "
                       f"event, not before, and the event's id is {t.event.get('id')!r}; expected the event to "
                       f"create it (its id) or a log entry {{\"kind\": \"zone_change\", \"object\": {json_text(oid)}, "
                       f"\"from\": null, ...}} (an object entering from outside the game, CR 400.7) as its first "
                       f"zone_change entry of the step, or from \"stack\" for a spell on the stack before "
                       f"(CR 608.3c, 608.2n){_first_seen(firsts.get(oid))}")
    return out


def _was_created(t: Transition, oid: str, first: dict) -> bool:
    """Whether the new object ``oid`` (``first``: its first zone change of the step's log) was created by
    the event: its id, or entering from nowhere, from the stack it was on (608.3a, 608.2n), or as the new
    object of a card that was an object before (``previous``, CR 400.7). Its last entry may be a later move
    (an Aura that resolved and was put into the graveyard at once, 704.5m; a returned card that died)."""
    previous = first.get("previous")
    return t.event.get("id") == oid or first.get("from", "x") is None \
        or (first.get("from") == "stack" and oid in _on_the_stack(t.before)) \
        or (isinstance(previous, str) and previous in t.before["objects"])


def _first_seen(first: dict | None) -> str:
    """What the log says of a new object that wasn't created: its first zone change of the step, if any."""
    if first is None:
        return "; the log of this step has no zone_change entry for it"
    return f"; its first zone_change entry of this step moves it from {json_text(first.get('from'))} to " \
           f"{json_text(first.get('to'))}"


def _on_the_stack(observation: dict) -> set:
    """The ids of the spells and abilities on the stack of an observation (capability ``stack``): a spell
    there is no object of ``objects`` until it leaves the stack (CR 608.2n, 608.3a)."""
    return {e.get("id") for e in observation.get("stack") or () if isinstance(e, dict)}


def _missing_entry(oid: str, obj: dict, entry: dict | None) -> str:
    """Why ``oid`` (``obj`` before the event), gone from the observation, is not accounted for:
    what was expected in the log of the step, and what it has."""
    where = "on the battlefield" if obj["zone"] == "battlefield" else f"in the {obj['zone']}"
    name = f"{oid} ({obj['name']}, {'a token' if obj['token'] else 'a card'} {where} before the event)"
    if not obj["token"]:
        seen = (f"; the log's last zone_change entry for it moves it to {json_text(entry.get('to'))}" if entry
                else "; the log of this step has no zone_change entry for it")
        return (f"{name} is no longer observed: it vanished from the objects, but a card never ceases to exist: "
                f"expected it in some zone, its move logged as a zone_change entry to that zone (CR 400.7){seen}")
    example = (f"{{\"kind\": \"zone_change\", \"object\": {json_text(oid)}, \"from\": "
               f"{json_text(entry.get('to') if entry else 'graveyard')}, \"to\": null}}")
    if entry is None:
        first = ("" if obj["zone"] != "battlefield" else
                 f" after the entry of its move off the battlefield (e.g. {{\"kind\": \"zone_change\", \"object\": "
                 f"{json_text(oid)}, \"from\": \"battlefield\", \"to\": \"graveyard\", ...}})")
        return (f"{name} is no longer observed (it vanished from the objects), and the log of this step has no "
                f"zone_change entry for it: a token ceases to exist only once in a zone other than the battlefield "
                f"(CR 111.7, 704.5d), logged as a zone_change entry with to null, e.g. {example}{first}")
    return (f"{name} is no longer observed (it vanished from the objects), but the log's last zone_change entry "
            f"for it moves it to {json_text(entry.get('to'))}, not to null: expected a zone_change entry with to "
            f"null after it, e.g. {example} (a token in a zone other than the battlefield ceases to exist, "
            f"CR 111.7, 704.5d)")


@invariant("generic.illegal_changes_nothing", refused=True, rules=("104.3", "117.1"), family="generic")
def illegal_changes_nothing(t: Transition):
    """An event the engine refuses (IllegalAction) leaves every object and player unchanged."""
    if t.illegal is None:
        return None
    out = []
    for key in ("players", "objects", "zones", "stack", "priority"):
        if key == "objects" and _same_objects(t.before, t.after):
            continue
        if t.before.get(key) != t.after.get(key):
            changed = field_differences({key: t.before.get(key)}, {key: t.after.get(key)}, limit=4)
            out.append(f"the refused event ({t.illegal}) changed {key}; expected the observation before it, "
                       f"unchanged: " + "; ".join(c.replace("first run", "before").replace("second run", "after")
                                                  .replace("only in the before", "only before")
                                                  .replace("only in the after", "only after") for c in changed))
    return out


def _same_objects(before: dict, after: dict) -> bool:
    """Whether ``after``'s objects are, by their ids, distinct objects equal to ``before``'s, found with
    :func:`_changed_objects` (worked out once per step, most checks of a step ask): then the two
    ``objects`` dicts are equal (False says nothing: an object that is its own previous version counts
    as changed there, though equal)."""
    return before["objects"].keys() == after["objects"].keys() and not _changed_objects(after, before)


@invariant("generic.damage_only_on_battlefield", rules=("120.3", "400.7"), family="generic")
def damage_only_on_battlefield(t: Transition):
    """Objects off the battlefield have no damage, combat status, attachment or tapped state (CR 400.7).

    Checked on change only (:mod:`.on_change`): after an observation found sound, the objects new or
    changed since (what is wrong with an object depends on that object only)."""
    objects = _no_permanent_state_off.since(t.before, t.after)
    out = []
    for oid, o in (t.after["objects"] if objects is None else objects).items():
        if o["zone"] != "battlefield" and (o["damage"] or o["tapped"] or o["combat"] or o["attached_to"]):
            kept = [f"{name} {json_text(o[name])} (expected {json_text(off)})" for name, off in
                    (("damage", 0), ("tapped", False), ("combat", None), ("attached_to", None)) if o[name]]
            out.append(f"{oid} ({o['name']}) in the {o['zone']} kept permanent state: {', '.join(kept)}; an object "
                       f"off the battlefield is a new object with none of it (CR 400.7)")
    return _no_permanent_state_off.keep(t.after, out)


_no_permanent_state_off = Sound()


@invariant("generic.determinism", rules=("101.4", "616.1"), family="generic", scope="scenario")
def determinism(run: ScenarioRun):
    """The same board, events and decisions always give the same observations.

    Every choice and random outcome comes from the decider, so a second run must agree.
    The final observations are compared first (a replay without observations in between
    costs half as much); when they differ, a full replay finds the first step that differs.
    """
    try:
        final = run.replay(every_step=False)
    except TypeError:  # a replay that only knows the full form
        final = None
    if final is not None and final[-1:] == run.observations[-1:]:
        return []
    again = run.replay()
    for i, (first, second) in enumerate(zip(run.observations, again)):
        if first != second:
            for said in ("replay failed", "replay diverged"):
                if isinstance(second, dict) and said in second:
                    return [f"a second run of the same scenario {said.split()[1]} at step {i}: "
                            f"{second[said]}"]
            return [f"a second run of the same scenario differs after step {i}:", *field_differences(first, second)]
    if len(again) != len(run.observations):
        return [f"a second run produced {len(again)} observations, the first {len(run.observations)}"]
    return []


def field_differences(first, second, limit: int = 8) -> list[str]:
    """The first ``limit`` paths where two observations differ, each with both values
    (``objects.c1.tapped: first run False, second run True``), the log's entries by index."""
    out: list[str] = []

    def walk(a, b, path: str) -> None:
        if len(out) > limit or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in [*a, *(k for k in b if k not in a)]:
                if key not in b or key not in a:
                    out.append(f"{path}{key}: {'only in the first run' if key in a else 'only in the second run'}")
                else:
                    walk(a[key], b[key], f"{path}{key}.")
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{path}{i}.")
        else:
            out.append(f"{path.rstrip('.')}: first run {json_text(a)}, second run {json_text(b)}")

    walk(first, second, "")
    return out[:limit] + (["... and more differences"] if len(out) > limit else [])


def json_text(value, width: int = 80) -> str:
    """``value`` as short JSON text, for a message."""
    import json

    try:
        text = json.dumps(value, sort_keys=True, default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."
