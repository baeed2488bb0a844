"""What a step changed, worked out once per step, for the checks that read only that.

Most steps change one object of twenty-five or none (a priority pass, a refused event): a check
whose verdict on an object depends only on that object, after an observation it found sound,
needs to read only the objects that are new or changed since (:func:`changed_objects`: e.g. the
state-based actions of CR 704.5d, 704.5f, 704.5g and 704.5q each judge one permanent on its own
observed characteristics, damage and counters), and an
index of the objects with some property (:class:`IdsWhere`) is the last one less the objects
removed or changed plus the changed ones that have it. Everything here is found by reference
(identity means "this very observation"): the harness never changes an observation once it is
made (a session keeps each as the record of the game, and copies those of an engine that
shares its own state in them, :mod:`harness.running.execution`; ``tests/test_observation_sharing.py``
checks every observation of fuzz runs of the reference engine against its text as given out).

An object equal (``==``) to its previous version counts as unchanged; one that is the same
object as its previous version counts as changed (an engine that changes an object in place
and returns it again gets no credit), but for a pair of observations of a game known never to
change an observation once given out (:func:`trust_identity`: the reference engine's, which
gives out an unchanged object's entry again, the very dict), where it counts as unchanged. Equality can't tell ``1`` from ``True`` or ``1.0``: the
checks that read changed objects only read fields whose verdict equality keeps (truth values,
comparisons, membership, strings). ``tests/test_on_change_checks.py`` shows that each check
here gives the full check's verdict on every step of fuzz runs of the reference engine and of
mutants, and that a violation in the changed part alone is found.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress


def _unchanged(old, new) -> bool:
    """Whether ``new`` is a distinct object equal to ``old`` (an engine that changes one
    object in place and returns it again gets no credit: the same object is checked again)."""
    return old is not new and old == new


#: ``[obs, before, changed objects, removed ids]`` of the last pair (:func:`changed_objects`, :func:`removed_ids`):
#: every check of a step shares them.
_last_changed: list = [None, None, None, None]
#: The ids removed by a step that removes none (shared: callers must not change it).
_NO_IDS: frozenset = frozenset()
#: ``[after, before]``: the last pair :func:`trust_identity` was told of, held by reference.
_trusted: list = [None, None]


def trust_identity(after: dict, before) -> None:
    """Take each entry of observation ``after`` that is (``is``) ``before``'s entry of the same id
    as unchanged (:func:`changed_objects`): both are observations of one game that never changes
    an observation once given out (``harness.running.execution.Session.fresh``: the reference
    engine's game, which gives out an unchanged object's entry again), ``before`` the one before
    ``after``. Any other pair is judged by equality, an entry that is its previous one counting as
    changed."""
    _trusted[0], _trusted[1] = after, before


def changed_objects(obs: dict, before) -> dict:
    """The objects of ``obs`` that are new or not :func:`_unchanged` from those of ``before``, in the
    order of ``obs`` (computed once for the last pair: every check of the step asks). For the pair
    given to :func:`trust_identity`, an object that is its previous version is unchanged (no
    comparison)."""
    if _last_changed[0] is obs and _last_changed[1] is before:
        return _last_changed[2]
    olds, objects = before["objects"], obs["objects"]
    get = olds.get
    # not _unchanged(old, obj), written out (a call per object costs a sixth of the comparison)
    if _trusted[0] is obs and _trusted[1] is before:
        changed = {oid: obj for oid, obj in objects.items()
                   if (old := get(oid, _unchanged)) is not obj and not old == obj}
    else:
        changed = {oid: obj for oid, obj in objects.items()
                   if (old := get(oid, _unchanged)) is obj or not old == obj}
    # the removed ids, with them: |removed| = |before| - |obs| + |added|, the ids added (not in before) all
    # among the changed objects; most steps remove none, found without a set of before's ids
    added = 0
    for oid in changed:
        if oid not in olds:
            added += 1
    removed = olds.keys() - objects.keys() if len(olds) - len(objects) + added else _NO_IDS
    _last_changed[:] = [obs, before, changed, removed]
    return changed


def removed_ids(obs: dict, before: dict) -> set | frozenset:
    """The ids of the objects of ``before`` that ``obs`` has not (computed once for the last pair; a
    shared empty frozenset when there are none: callers must not change it)."""
    if _last_changed[0] is not obs or _last_changed[1] is not before:
        changed_objects(obs, before)  # found with the changed objects
    return _last_changed[3]


#: Every :class:`Sound` and :class:`IdsWhere`, for :func:`forget_all`.
_KEPT: list = []


class Sound:
    """The last observation a check found sound (no message), by reference, and what the check
    keeps of it (``kept``)."""

    def __init__(self):
        self.obs: dict | None = None
        self.kept: object = None
        _KEPT.append(self)

    def since(self, before, after) -> dict | None:
        """The objects of ``after`` the check must read: those new or changed since ``before``
        (:func:`changed_objects`) when ``before`` is the last observation found sound, else None
        (all of them)."""
        if before is self.obs and before is not after and before is not None:
            return changed_objects(after, before)
        return None

    def to_read(self, before, after) -> dict:
        """The objects of ``after`` the check must read, by id: :meth:`since`'s, or all of them."""
        if before is self.obs and before is not after and before is not None:
            found = _last_changed  # changed_objects(after, before), its look-up written out
            return found[2] if found[0] is after and found[1] is before else changed_objects(after, before)
        return after["objects"]

    def keep(self, after, out: list, kept=None) -> list:
        """Remember ``after`` as sound (with ``kept``) when ``out`` (the check's messages on it) is
        empty, else nothing; returns ``out``."""
        if out:
            self.obs = self.kept = None
        else:
            self.obs, self.kept = after, kept
        return out

    def forget(self) -> None:
        self.obs = self.kept = None


class IdsWhere:
    """The ids of the objects of an observation for which ``has(object)`` holds (a frozenset), for
    the last two observations of a step: ``has`` must give equal objects the same answer."""

    def __init__(self, has: Callable[[dict], bool]):
        self.has = has
        #: ``(before, after, (ids in before, ids in after))``: the last pair asked for, by reference.
        self.last: tuple | None = None
        _KEPT.append(self)

    @property
    def obs(self) -> dict | None:
        """The later observation :meth:`pair` was last asked for (None: none since :meth:`forget`)."""
        return None if self.last is None else self.last[1]

    @property
    def ids(self) -> frozenset | None:
        """The ids in :attr:`obs`."""
        return None if self.last is None else self.last[2][1]

    def _full(self, obs: dict) -> frozenset:
        objects = obs["objects"]
        return frozenset(compress(objects, map(self.has, objects.values())))  # the ids whose object has it

    def pair(self, before: dict, after: dict) -> tuple[frozenset, frozenset]:
        """The ids in ``before`` and in ``after``: on change only when ``before`` is the last
        observation asked for (as the ``after`` of the step before). When the step changes no
        object's membership, the ids in ``after`` are those in ``before``, the same frozenset."""
        last = self.last
        if last is None:
            old = self._full(before)
        elif last[1] is after and last[0] is before:
            return last[2]
        else:
            old = last[2][1] if last[1] is before else self._full(before)
        new = old
        if before is not after:
            found = _last_changed  # changed_objects(after, before), its look-up written out (asked by each index)
            if found[0] is not after or found[1] is not before:
                changed_objects(after, before)  # found holds them now
            changed, removed = found[2], found[3]
            if changed or removed:
                new = self._after(old, changed, removed)
        both = (old, new)
        self.last = (before, after, both)
        return both

    def known(self, obs: dict) -> frozenset | None:
        """The ids in ``obs`` when it is one of the two observations :meth:`pair` was last asked for, else None."""
        last = self.last
        if last is None:
            return None
        if obs is last[1]:
            return last[2][1]
        if obs is last[0]:
            return last[2][0]
        return None

    def _after(self, old: frozenset, changed: dict, removed: set | frozenset) -> frozenset:
        """The ids after a step that changed the objects ``changed`` (by id) and removed those of
        ``removed``, ``old`` those before it: ``old`` itself when no id leaves or joins (none of
        ``removed`` is there, and each of ``changed`` is there exactly when it has the property)."""
        has = self.has
        if not old:  # nothing to take from old: the ids added, if any
            for o in changed.values():
                if has(o):
                    return frozenset([oid for oid, o in changed.items() if has(o)])
            return old
        if not removed or old.isdisjoint(removed):
            for oid, o in changed.items():
                if (oid not in old) if has(o) else (oid in old):
                    break
            else:
                return old
        return old.difference(removed, changed).union([oid for oid, o in changed.items() if has(o)])

    def forget(self) -> None:
        self.last = None


def forget_all() -> None:
    """Forget every observation kept (the checks that follow are full ones, as on a first step)."""
    for kept in _KEPT:
        kept.forget()
