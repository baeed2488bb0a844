"""Checks of an event's fields that the handlers of several modules share.

:func:`new_ids`: the new object ids an event names (``token_ids`` of a spell that creates
tokens), read by :mod:`reference_engine.events`' handlers, the stack's and a card model's
spells (:mod:`reference_engine.model_cards`). It lives below them all, so none of them imports
another's module for it (issue 24, item 1: no import cycle). :func:`permanent`: the object an
event names that must be on the battlefield, read by the handlers of :mod:`reference_engine.events`
and :mod:`reference_engine.zones`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalAction
from .objects import BATTLEFIELD

if TYPE_CHECKING:
    from .game_base import GameBase
    from .objects import GameObject


def new_ids(game: GameBase, event, key, count):
    """``event[key]``: a list of ``count`` distinct ids never used in this game."""
    ids = event.get(key)
    if not isinstance(ids, list) or len(ids) != count or not all(isinstance(i, str) and i for i in ids) \
            or len(set(ids)) != count:
        raise IllegalAction("bad_event", f"{key}: expected a list of {count} distinct new object ids, got {ids!r}")
    for oid in ids:
        if oid in game.objects or oid in game.last_known or oid in game.players:
            raise IllegalAction("bad_event", f"{key}: {oid!r} is already an id in this game")
    return ids


def permanent(game: GameBase, event, key) -> GameObject:
    """The object ``event[key]`` names, which must be on the battlefield (else IllegalAction)."""
    oid = event.get(key)
    obj = game.objects.get(oid) if isinstance(oid, str) else None
    if obj is None:
        raise IllegalAction("no_such_object", f"{key}={oid!r} is not an object in the game")
    if obj.zone != BATTLEFIELD:
        raise IllegalAction("not_on_battlefield", f"{key}={oid!r} is in the {obj.zone}, not on the battlefield")
    return obj
