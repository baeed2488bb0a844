"""Invariants: named rules properties over engine-neutral observations.

An invariant is a function of a :class:`Transition` (the observation before an event,
the event, the observation after it, and the decisions asked during it). It returns
``None`` when it does not apply to that transition, or a list of violation messages
(empty when the property holds). It carries the Comprehensive Rules numbers and Gatherer
rulings it encodes (e.g. CR 702.89a for umbra armor) and the engine capabilities it needs (CR numbers are those of the
rules effective 2025-02-07).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from collections.abc import Callable, Iterable

from harness.protocol import Decision, ScenarioRun, Transition, Violation

__all__ = ["FAMILIES", "REGISTRY", "Check", "Decision", "Invariant", "ScenarioRun", "Transition", "Violation",
           "invariant", "ruling_text", "select"]

FAMILIES = ("rules", "generic", "differential")


Check = Callable[[Transition], "list[str] | None"]


@dataclass(frozen=True)
class Invariant:
    """A named property. ``check(transition)`` returns None (not applicable) or messages."""

    name: str
    family: str
    rules: tuple[str, ...]
    rulings: tuple[str, ...]
    requires: frozenset[str]
    check: Check
    summary: str
    scope: str = "step"
    #: The event types on whose steps it can apply (None: undeclared, every step); see :func:`invariant`.
    on: frozenset[str] | None = None
    #: The log entry kinds that make it apply on a step of any event type.
    on_log: frozenset[str] = frozenset()
    #: Whether it can apply on a refused step (the event raised IllegalAction): None on any step,
    #: False only on an accepted one, True only on a refused one; see :func:`invariant`.
    refused: bool | None = None
    #: Whether it can apply only on a step with objects on the stack before or after it (:func:`on_the_stack`).
    on_stack: bool = False

    def may_apply(self, event_type: object, log_kinds: frozenset[str] | set[str]) -> bool:
        """Whether a step of ``event_type`` (the event's ``type``) whose log has entries of
        ``log_kinds`` (the ``kind`` of each entry of the transition's log) is one its check can
        return something other than None on: always for an invariant that declares nothing."""
        on = self.on
        return on is None or event_type in on or not self.on_log.isdisjoint(log_kinds)

    def to_json(self) -> dict:
        return {
            "name": self.name, "family": self.family, "rules": list(self.rules),
            "rulings": list(self.rulings), "requires": sorted(self.requires), "summary": self.summary,
            "scope": self.scope,
        }


REGISTRY: dict[str, Invariant] = {}


#: Invariants (names, or prefixes of names) that hold on every step of a game with the stack
#: (capability ``stack``, board ``"stack": true``), also while spells and abilities wait on it: the
#: shape of observations, zones, state-based actions (checked before any player receives
#: priority, CR 117.5), the differential oracle. Every other step invariant predicts what an event
#: does when it resolves at once (a cast destroys its target, a dying Hangarback Walker makes its
#: Thopters), so on a step with objects on the stack, before or after, it is not applicable
#: (:func:`outside_the_stack`); the stack's own invariants (``invariants.stack``) require ``stack``.
HOLDS_ON_THE_STACK = ("generic.", "sba.", "differential.", "stack.", "zones.graveyard_is_the_owners",
                      "zones.sacrificed_goes_to_its_owners_graveyard", "triggers.controller_is_the_sources")


def on_the_stack(before: object, after: object) -> bool:
    """Whether a step whose observations are ``before`` and ``after`` has objects on the stack
    before or after it (an observation's ``stack`` is not empty): the steps on which
    :func:`outside_the_stack` checks are not applicable."""
    return bool((type(before) is dict and before.get("stack")) or (type(after) is dict and after.get("stack")))


#: The attribute of an :func:`outside_the_stack` check holding the check it wraps: a runner that
#: tells stack steps (:func:`on_the_stack`) apart once per step calls that one directly on the
#: others, and leaves the check out on stack steps (:mod:`harness.running.invariant_schedule`).
OUTSIDE_THE_STACK = "rulesfuzz_outside_the_stack"


def outside_the_stack(check: Check) -> Check:
    """``check``, not applicable (None) on a step with objects on the stack before or after it."""

    def checked(t: Transition):
        before, after = t.before, t.after
        if (type(before) is dict and before.get("stack")) or (type(after) is dict and after.get("stack")):
            return None
        return check(t)

    functools.update_wrapper(checked, check)
    setattr(checked, OUTSIDE_THE_STACK, check)
    return checked


def invariant(name: str, *, rules: Iterable[str], rulings: Iterable[str] = (), requires: Iterable[str] = (),
              family: str = "rules", scope: str = "step", on: Iterable[str] | None = None, on_log: Iterable[str] = (),
              refused: bool | None = None, on_stack: bool = False):
    """Register the decorated check as an invariant named ``name``.

    ``scope`` is ``"step"`` (the check takes a :class:`Transition`) or ``"scenario"``
    (the check takes a :class:`ScenarioRun` after a whole example).

    ``rules`` are CR rule numbers; ``rulings`` are ``"Card YYYY-MM-DD"`` keys into the
    packaged rulings (see :func:`ruling_text`). Raises ValueError for a duplicate name.

    ``on`` and ``on_log`` declare what a step invariant reads that can make it apply: the event
    types (``on``) and the log entry kinds (``on_log``) without which its check returns None
    (not applicable) whatever else the step holds, derived from the check's own first test
    (e.g. ``if t.event.get("type") != "cast": return None``). The runner skips it on every other
    step and counts it checked and not applicable there
    (:class:`harness.running.invariant_schedule.Schedule`); ``tests/test_invariant_schedule.py``
    shows the check returns None on such steps of fuzz runs. Declaring neither (the default)
    checks it on every step.

    ``refused`` and ``on_stack`` declare what of the step's outcome its check's first test reads:
    ``refused=False`` (it returns None on a refused step, ``t.illegal`` not None), ``refused=True``
    (None on an accepted one), ``on_stack=True`` (None on a step with no object on the stack before
    or after it, :func:`on_the_stack`, both observations plain dicts). The runner leaves it out of
    those steps as it does for ``on`` (``tests/test_invariant_schedule.py``).
    """
    if scope != "step" and (on is not None or on_log or refused is not None or on_stack):
        raise ValueError(f"invariant {name!r}: only a step invariant declares what it reads (on, on_log)")
    declared = None if on is None and not on_log else frozenset(on or ())

    def register(check: Check) -> Check:
        if name in REGISTRY:
            raise ValueError(f"invariant {name!r} registered twice")
        if family not in FAMILIES:
            raise ValueError(f"unknown invariant family {family!r}")
        summary = " ".join((check.__doc__ or "").strip().split("\n\n")[0].split())
        checked = check
        if scope == "step" and "stack" not in requires and not name.startswith(HOLDS_ON_THE_STACK):
            checked = outside_the_stack(check)
        REGISTRY[name] = Invariant(
            name, family, tuple(rules), tuple(rulings), frozenset(requires), checked, summary, scope, declared,
            frozenset(on_log), refused, on_stack)
        return check

    return register


def select(capabilities: Iterable[str], names: Iterable[str] | None = None, scope: str = "step") -> list[Invariant]:
    """Invariants of ``scope`` whose required capabilities the engine claims, optionally only ``names``.

    Raises KeyError for a name that is not registered.
    """
    caps = frozenset(capabilities)
    chosen = [REGISTRY[n] for n in names] if names is not None else list(REGISTRY.values())
    return [inv for inv in chosen if inv.requires <= caps and inv.scope == scope]


@lru_cache(maxsize=1)
def _rulings() -> list[dict]:
    text = resources.files("invariants").joinpath("data/rulings.json").read_text(encoding="utf-8")
    return json.loads(text)


def ruling_text(key: str) -> str:
    """The text of the ruling named ``"Card YYYY-MM-DD: first words"`` (the words select among several).

    Returns the key itself when no packaged ruling matches.
    """
    card_date, _, words = key.partition(": ")
    card, _, date = card_date.rpartition(" ")
    for ruling in _rulings():
        if ruling["card"] == card and str(ruling["date"]) == date and ruling["text"].startswith(words):
            return ruling["text"]
    return key
