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
from typing import Any, TypeVar
from collections.abc import Callable

V = TypeVar("V")

#: id(observation) -> (observation, {view: value}): the views of each observation kept together, so
#: that those of one observation are kept (:func:`forget_all_but`) in one look-up.
_memo: dict[int, tuple[dict, dict]] = {}
#: Observations whose views are kept at most: a step reads two (before and after).
LIMIT = 64
_MISSING = object()


def per_observation(function: Callable[[dict], V]) -> Callable[[dict], V]:
    """``function(observation)`` computed once per observation object (module docstring)."""

    @wraps(function)
    def view(obs: dict) -> V:
        found = _memo.get(id(obs))
        if found is not None and found[0] is obs:
            values = found[1]
            value = values.get(function, _MISSING)
            if value is not _MISSING:
                return value
        else:
            if len(_memo) >= LIMIT:
                _memo.clear()
            values = {}
            _memo[id(obs)] = (obs, values)
        value = function(obs)
        values[function] = value
        return value

    return view


#: ``[after, before, event, illegal, value]`` of each :func:`per_step` view: the last step it was computed for
#: (all None: none since :func:`forget`).
_step_memo: list[list] = []
_NO_STEP = (None, None, None, None, None)


def per_step(function: Callable[[Any], V]) -> Callable[[Any], V]:
    """``function(t)`` of a step (a :class:`harness.protocol.Transition`) computed once for the last
    step asked about, found by the identity of its observations and event and by its ``illegal``:
    every check of a step that asks shares one value (callers must not mutate it). :func:`forget`
    drops it, as it drops the views of observations."""

    last: list = list(_NO_STEP)  # this view's, held here: no look-up by function
    _step_memo.append(last)

    @wraps(function)
    def view(t: Any) -> V:
        after = t.after
        if last[0] is after and after is not None and last[1] is t.before and last[2] is t.event \
                and last[3] == t.illegal:
            return last[4]
        value = function(t)
        last[:] = [after, t.before, t.event, t.illegal, value]
        return value

    return view


def forget() -> None:
    """Drop every view (called at each step of a :class:`harness.running.execution.Session`)."""
    _memo.clear()
    for last in _step_memo:
        last[:] = _NO_STEP  # no step's after is None


def forget_all_but(obs: object) -> None:
    """Drop every view but those of ``obs`` (the observation before a step of a session whose
    observations no engine changes once made: its views, computed at the step before, still hold)."""
    kept = _memo.get(id(obs))
    _memo.clear()
    if kept is not None and kept[0] is obs:
        _memo[id(obs)] = kept
