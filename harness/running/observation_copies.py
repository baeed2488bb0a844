"""Observations an engine can't change afterwards: copies of their dicts and lists, and the
check that an engine shares its own state in what it returns (:class:`harness.running.execution.Session`
copies every observation of such a game)."""

from __future__ import annotations

import gc
from itertools import compress
from operator import is_


def _plain_copy(value):
    """A copy of ``value``'s dicts and lists (anything else is shared): an observation the engine
    can't change afterwards. About half a JSON round trip's cost, a quarter of ``copy.deepcopy``'s.
    Only a dict or a list inside is copied by a call of its own (most items are strings and numbers:
    a call for each was most of the cost)."""
    kind = type(value)
    if kind is dict:
        return {key: _plain_copy(item) if type(item) in _COPIED else item for key, item in value.items()}
    if kind is list:
        return [_plain_copy(item) if type(item) in _COPIED else item for item in value]
    return value


#: What :func:`_plain_copy` copies: exact dicts and lists (a subclass's instance is shared, as any other value).
_COPIED = (dict, list)


def _containers(value) -> dict:
    """Every dict and list inside ``value`` (itself included), by ``id``: found a level at a time,
    each level's items listed by ``gc.get_referents`` (what a dict's or a list's traversal visits:
    its values, or items, and a dict's keys, which are never dicts or lists), about a fifth
    cheaper than a walk popping each item. Only exact dicts and lists are looked into."""
    found: dict = {}
    level = [value]
    while level:
        fresh = []
        for item in level:
            if (type(item) is dict or type(item) is list) and id(item) not in found:
                found[id(item)] = item
                fresh.append(item)
        level = gc.get_referents(*fresh) if fresh else []
    return found


def shares_parts(after, before) -> bool:
    """Whether observation ``after`` is ``before`` or shares one of its top-level parts, objects
    or the dicts and lists directly inside its objects with it: an engine that returns its own
    state, which its next ``apply`` changes in place (done on every step)."""
    if after is before:
        return True
    if type(after) is not dict or type(before) is not dict:
        return False
    for key, part in after.items():
        if type(part) in (dict, list) and part is before.get(key):
            return True
    objects, old = after.get("objects"), before.get("objects")
    if type(objects) is dict and type(old) is dict:
        get = old.get
        # Compared without a Python loop (the usual answer: nothing the same); a match may be two
        # Nones (an id missing from ``before``) or one string, so only then are the matches looked at.
        if any(map(is_, objects.values(), map(get, objects))):
            for oid, obj in objects.items():
                if obj is get(oid) and type(obj) is dict:
                    return True
        return _shares_inside_entries(objects, old)
    return False


def _shares_inside_entries(objects: dict, old: dict) -> bool:
    """Whether a dict or list directly inside an entry of ``objects`` (counters, types, keywords)
    is one inside an entry of ``old``: an engine that hands out an object's nested state only once
    it has some (``obj.setdefault("counters", {})``) shares it from that step on. Both
    observations are alive, so one ``id`` is one object."""
    was = _nested(old)  # first: the last step's after
    return not _nested(objects).isdisjoint(was)


_CONTAINER = (dict, list).__contains__


#: ``[objects, their _nested set]`` of the last call: a step's ``after`` is the next step's ``before``
#: (held here, so its ids can't be another object's).
_last_nested: list = [None, frozenset()]


def _nested(objects: dict) -> set | frozenset:
    """The ``id`` of every exact dict and list directly inside an entry of ``objects``, found
    without a Python loop (``gc.get_referents`` lists the entries' values, or items); kept for
    the last ``objects`` given (an observation is never changed once made)."""
    if _last_nested[0] is objects:
        return _last_nested[1]
    inside = gc.get_referents(*objects.values())
    found = set(map(id, compress(inside, map(_CONTAINER, map(type, inside)))))
    _last_nested[:] = [objects, found]
    return found
