"""Views of an observation that several invariants read, each computed once per observation.

Many invariants walk the same parts of an observation on every step (the permanents, in
battlefield order: the cards and tokens on the battlefield, CR 110.1; the Orbs of Origin
among them, whose grants the playtest invariants check, CR 205.4); :func:`per_observation` computes such a
view once for an observation and hands the same value to every later caller. A view is
kept with the observation itself and found by identity, so no other object can take its
place; the harness never changes an observation once it is made (a session keeps each as
the record of the game), and :func:`forget` (called at each step of a session) drops every
view, so an engine that mutates the dict it returned sees no stale one; a session whose
observations no engine can change (the harness's own copies, or the reference engine's fresh
ones) calls :func:`forget_all_but` instead, keeping the views of the observation before the step
(the one after the step before: computed then, read again now). Views are shared: callers must
not mutate them (they are tuples and frozensets).
"""

from __future__ import annotations

from functools import wraps
from typing import TypeVar
from collections.abc import Callable

V = TypeVar("V")

#: (view, id(observation)) -> (observation, value).
_memo: dict[tuple, tuple] = {}
#: Views kept at most: a step reads two observations (before and after) and a few views of each.
LIMIT = 64


def per_observation(function: Callable[[dict], V]) -> Callable[[dict], V]:
    """``function(observation)`` computed once per observation object (module docstring)."""

    @wraps(function)
    def view(obs: dict) -> V:
        key = (function, id(obs))
        hit = _memo.get(key)
        if hit is not None and hit[0] is obs:
            return hit[1]
        if len(_memo) >= LIMIT:
            _memo.clear()
        value = function(obs)
        _memo[key] = (obs, value)
        return value

    return view


def forget() -> None:
    """Drop every view (called at each step of a :class:`harness.running.execution.Session`)."""
    _memo.clear()


def forget_all_but(obs: object) -> None:
    """Drop every view but those of ``obs`` (the observation before a step of a session whose
    observations no engine changes once made: its views, computed at the step before, still hold)."""
    if _memo:
        kept = [(key, hit) for key, hit in _memo.items() if hit[0] is obs]
        _memo.clear()
        _memo.update(kept)
