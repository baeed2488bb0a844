"""Which step invariants a step is checked with: those that can apply to it.

A step invariant may declare what it reads that can make it apply (``on``: event types,
``on_log``: log entry kinds; :func:`invariants.base.invariant`). On a step whose event type
and log kinds are outside an invariant's declaration its check would return None (not
applicable), so :class:`Schedule` leaves it out; the step still counts it checked. An
invariant that declares nothing is in every step's list. ``tests/test_invariant_schedule.py``
shows that skipping changes no verdict.

An invariant that predicts what an event does when it resolves at once is not applicable on a
step with objects on the stack (:func:`invariants.base.outside_the_stack`): :meth:`Schedule.checks`
tells such steps apart once per step (:func:`invariants.base.on_the_stack`), leaves those
invariants out of them and, on the other steps, calls the check they wrap directly.

A step invariant may also declare that its check's first test returns None on a refused step, or on
an accepted one (``refused``), or on a step with nothing on the stack (``on_stack``): those steps
leave it out too, told apart by the same look-up.
"""

from __future__ import annotations

from collections.abc import Sequence

from invariants.base import OUTSIDE_THE_STACK, on_the_stack

#: Whether :class:`Schedule` skips invariants at all (False: every invariant on every step, for
#: the tests that compare the two).
SKIPPING = True

#: The most (event type, log kinds) lists one schedule keeps; past it lists are worked out each step.
_MOST_PLANS = 4096
#: The log kinds of an empty log (a refused event's, or a step that logged nothing).
_NO_KINDS: frozenset = frozenset()


class Schedule:
    """The step invariants of a run (``invariants``, a sequence of
    :class:`invariants.base.Invariant`) and, per (event type, log kinds), the list of them a
    step of that kind is checked with, in their order."""

    __slots__ = ("invariants", "names", "_plans", "_checks", "_declared")

    def __init__(self, invariants: Sequence):
        self.invariants = list(invariants)
        #: Every invariant's name, in order: each is counted checked on every judged step.
        self.names = [inv.name for inv in self.invariants]
        self._plans: dict[tuple, list] = {}
        self._checks: dict[tuple, list[tuple]] = {}
        self._declared = any(inv.on is not None or inv.refused is not None or inv.on_stack for inv in self.invariants)

    def due(self, event_type: object, log: list) -> list:
        """The invariants (in their order) a step of ``event_type`` (the event's ``type``)
        whose log is ``log`` (the transition's log: a list of entry dicts, empty when the event
        was refused) is checked with: those that may apply to it (:meth:`Invariant.may_apply`)."""
        if not SKIPPING or not self._declared:
            return self.invariants
        kinds = frozenset(e.get("kind") for e in log if type(e) is dict)
        key = (event_type if type(event_type) is str else None, kinds)
        plan = self._plans.get(key)
        if plan is None:
            plan = [inv for inv in self.invariants if inv.may_apply(key[0], kinds)]
            if len(self._plans) < _MOST_PLANS:
                self._plans[key] = plan
        return plan

    def checks(self, event_type: object, log: list, before: object, after: object,
               refused: bool | None = None) -> list[tuple]:
        """``(invariant, name, check)`` of each invariant :meth:`due` gives for a step of
        ``event_type`` whose log is ``log`` and whose observations are ``before`` and ``after``,
        in their order, ``check(transition)`` giving the invariant's verdict: on a step with
        objects on the stack (:func:`invariants.base.on_the_stack`) without the invariants whose
        check is :func:`invariants.base.outside_the_stack`'s (their verdict there is None, not
        applicable); on any other step with the check such an invariant wraps in their place
        (the same verdict, one call fewer). Worked out once per (event type, log kinds, stack),
        found with one look-up a step.

        When skipping (:data:`SKIPPING`), also without the invariants declared for refused or for accepted
        steps only (:attr:`invariants.base.Invariant.refused`) on the others, ``refused`` telling whether
        the step's event was refused (None: not known, none left out), and without those declared for
        steps with objects on the stack (``on_stack``) on a step with none, its observations plain dicts."""
        stack: bool | None = on_the_stack(before, after)
        if not stack and (type(before) is not dict or type(after) is not dict):
            stack = None  # not known: nothing left out for on_stack (a dict subclass's stack is read by its checks)
        if SKIPPING and self._declared:
            key: tuple = (event_type if type(event_type) is str else None,
                          frozenset([e.get("kind") for e in log if type(e) is dict]) if log else _NO_KINDS, stack,
                          refused)
        else:  # every invariant on every step
            key = (stack,)
        found = self._checks.get(key)
        if found is None:
            found = _checks_of(self.due(event_type, log), stack, refused if SKIPPING and self._declared else None)
            if len(self._checks) >= _MOST_PLANS:
                self._checks.clear()
            self._checks[key] = found
        return found


def _checks_of(due: list, stack: bool | None, refused: bool | None) -> list[tuple]:
    """:meth:`Schedule.checks` of the invariants ``due`` on a step with (``stack``) or without objects on the
    stack (None: not known, taken as without for :func:`invariants.base.outside_the_stack`), its event refused
    or not (``refused``; None: not known, or not skipping: the declarations of refused and stack steps unread)."""
    out = []
    for inv in due:
        if refused is not None and (inv.refused is (not refused) or (inv.on_stack and stack is False)):
            continue  # its check's first test returns None on this step (Invariant.refused, on_stack)
        inner = getattr(inv.check, OUTSIDE_THE_STACK, None)
        if inner is None:
            out.append((inv, inv.name, inv.check))
        elif not stack:
            out.append((inv, inv.name, inner))
    return out


_SCHEDULES: dict[int, tuple[Sequence, Schedule]] = {}


def schedule(invariants: Sequence) -> Schedule:
    """The :class:`Schedule` of the sequence ``invariants`` (one per sequence object, kept for
    the process: a machine class's list serves every example of a run; made again for a list
    changed since, an item replaced in place included). The lists are compared with ``==``, in
    C: each item's identity first, so the same items cost a pointer comparison each; an item
    replaced by an equal :class:`invariants.base.Invariant` (every field equal, the same check
    function) keeps the schedule, which would be made the same from it."""
    found = _SCHEDULES.get(id(invariants))
    if found is not None and found[0] is invariants and found[1].invariants == _as_list(invariants):
        return found[1]
    made = Schedule(invariants)
    if len(_SCHEDULES) > 256:
        _SCHEDULES.clear()
    _SCHEDULES[id(invariants)] = (invariants, made)
    return made


def _as_list(invariants: Sequence) -> list:
    """``invariants`` itself when it is a list (compared as it is, no copy), else a list of its items."""
    return invariants if type(invariants) is list else list(invariants)
