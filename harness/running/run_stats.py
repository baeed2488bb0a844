"""What a run exercised: :class:`Stats`, counted at every step of a
:class:`harness.running.execution.Session` (events applied and refused, invariants checked and
applicable, log entries of interest, examples declined, the rules covered).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.running.game_errors import Declined
from harness.reporting.rule_coverage import RuleCoverage


#: A run whose engine refused (``IllegalAction``) more than this share of the steps tested
#: nothing (status ``refused``, exit 2); and an event type generated at least
#: :data:`NEVER_ACCEPTED` times and refused every time was never tested either.
REFUSED_SHARE = 0.5
NEVER_ACCEPTED = 20


@dataclass
class Stats:
    """How often things were exercised over a run.

    ``checked[name]`` and ``applicable[name]`` count invariant checks (``checked`` counted when
    read: :meth:`count_checked`); ``events`` counts
    event types applied; ``illegal`` counts refused events; ``interactions`` counts log
    entries of interest (replacement effects applied, state-based actions by rule).
    ``declines[reason]`` counts examples an engine declined (:class:`Declined`);
    ``early_declines`` those declined at ``new_game`` or at their first event.
    """

    examples: int = 0
    steps: int = 0
    checked: dict = field(default_factory=dict)
    applicable: dict = field(default_factory=dict)
    events: dict = field(default_factory=dict)
    illegal: int = 0
    interactions: dict = field(default_factory=dict)
    declines: dict = field(default_factory=dict)
    early_declines: int = 0
    #: Refused events (``IllegalAction``) by event type, then by reason, ``{"cast": {"no_mana": 3}}``,
    #: of the events that name no object off the battlefield (:func:`_aims_at_gone`).
    refused: dict = field(default_factory=dict)
    #: Events (refused or not) that named an object off the battlefield, by event type: the
    #: generator aims some at objects that left on purpose; not counted by :meth:`mostly_refused`.
    aimed_at_gone: dict = field(default_factory=dict)
    #: The event types the engine claims: those that are capabilities it claims or its cards
    #: imply (``damage``, ``destroy``, ``sacrifice``, ``cleanup``); only they are judged by
    #: :meth:`mostly_refused` (an engine may refuse what it never claimed).
    claimed: set = field(default_factory=set)
    #: Steps that exercised each CR rule, ruling and card (:mod:`harness.reporting.rule_coverage`).
    coverage: RuleCoverage = field(default_factory=RuleCoverage)

    def count_checked(self, names: list[str]) -> None:
        """Count each of ``names`` (a list never changed after, e.g. a schedule's, :mod:`harness.running.
        invariant_schedule`) checked once more: added to :attr:`checked` when it is next read or set,
        each list's steps at once, in the order the lists first came, so that every name is counted
        and comes in the dict where counting each step at once would have put it (one look-up a step
        instead of one per name)."""
        judged = self.__dict__["_judged"]  # set with ``checked`` (_set_checked)
        waiting = judged.get(id(names))
        if waiting is None:
            judged[id(names)] = [names, 1]  # the list held here: its id stays its own
        else:
            waiting[1] += 1

    def declined(self, exc: Declined) -> None:
        """Count one example ended by ``exc``."""
        self.declines[exc.reason] = self.declines.get(exc.reason, 0) + 1
        if exc.step <= 1:
            self.early_declines += 1

    def top_declines(self, n: int = 3) -> list[tuple[str, int]]:
        """The ``n`` most frequent decline reasons with their counts, most frequent first."""
        return sorted(self.declines.items(), key=lambda kv: (-kv[1], kv[0]))[:n]

    def mostly_declined(self) -> bool:
        """Whether more than half of the examples were declined at ``new_game`` or their first event."""
        return self.early_declines * 2 > self.examples > 0

    def counted_steps(self) -> tuple[int, int]:
        """(refused, steps) of the steps of a claimed event type (:attr:`claimed`) whose event
        named no object off the battlefield."""
        steps = sum(n - self.aimed_at_gone.get(kind, 0) for kind, n in self.events.items() if kind in self.claimed)
        return sum(n for kind, reasons in self.refused.items() if kind in self.claimed for n in reasons.values()), steps

    def refused_share(self) -> float:
        """The share of the counted steps (:meth:`counted_steps`) the engine refused as illegal."""
        refused, steps = self.counted_steps()
        return refused / steps if steps > 0 else 0.0

    def never_accepted(self, at_least: int = 20) -> list[str]:
        """The event types generated at least ``at_least`` times naming no object off the
        battlefield, and refused every one of those times."""
        out = []
        for kind, n in self.events.items():
            if kind not in self.claimed:
                continue
            reasons = self.refused.get(kind, {})
            lacking = reasons.get("no_such_ability", 0)  # activations are aimed at any object on purpose
            counted = n - self.aimed_at_gone.get(kind, 0) - lacking
            if counted >= at_least and sum(reasons.values()) - lacking >= counted:
                out.append(kind)
        return sorted(out)

    def top_refusals(self, n: int = 3) -> list[tuple[str, int]]:
        """The ``n`` most frequent refusals as ``("event_type: reason", count)``, most frequent first."""
        counts = [(f"{kind}: {reason}", k) for kind, reasons in self.refused.items() for reason, k in reasons.items()]
        return sorted(counts, key=lambda kv: (-kv[1], kv[0]))[:n]

    def mostly_refused(self) -> bool:
        """Whether the engine accepted too little to have been tested. Counted are the steps whose
        event names no object off the battlefield (:func:`_aims_at_gone`: those are illegal on
        purpose): more than :data:`REFUSED_SHARE` of them refused, out of at least
        :data:`NEVER_ACCEPTED`; or an event type with at least :data:`NEVER_ACCEPTED` of them,
        refusals ``no_such_ability`` left out (activations are aimed at any object), never accepted."""
        refused, steps = self.counted_steps()
        return (refused > steps * REFUSED_SHARE and steps >= NEVER_ACCEPTED) or bool(self.never_accepted(NEVER_ACCEPTED))

    def count_step(self, event: Mapping[str, Any], before: Mapping[str, Any], illegal: str | None) -> None:
        """Count one step: ``event`` applied to the game observed ``before``, refused with
        reason ``illegal`` (None: accepted). An event aimed at an object off the battlefield
        (:func:`_aims_at_gone`) is counted in :attr:`aimed_at_gone`, not as refused."""
        self.steps += 1
        etype = event.get("type", "?")
        self.events[etype] = self.events.get(etype, 0) + 1
        if illegal:
            self.illegal += 1
        if _aims_at_gone(event, before):  # generated illegal on purpose: not counted as refused or accepted
            self.aimed_at_gone[etype] = self.aimed_at_gone.get(etype, 0) + 1
        elif illegal:
            reasons = self.refused.setdefault(etype, {})
            reasons[illegal] = reasons.get(illegal, 0) + 1

    def count_interactions(self, log) -> None:
        """Count the entries of interest of one step's ``log`` (:func:`_interaction`; an entry of
        another kind is none, and is not looked at further)."""
        counts = self.interactions
        for entry in log:
            if entry.get("kind") in _INTERACTION_KINDS:
                label = _interaction(entry)
                if label:
                    counts[label] = counts.get(label, 0) + 1

    def to_json(self) -> dict:
        return {
            "examples": self.examples, "steps": self.steps, "illegal_events": self.illegal,
            "refused_events": {kind: dict(sorted(reasons.items())) for kind, reasons in sorted(self.refused.items())},
            "aimed_at_gone": dict(sorted(self.aimed_at_gone.items())),
            "declined": {"total": sum(self.declines.values()), "early": self.early_declines,
                         "by_reason": dict(sorted(self.declines.items()))},
            "events": dict(sorted(self.events.items())), "interactions": dict(sorted(self.interactions.items())),
            "invariants": {n: {"checked": self.checked[n], "applicable": self.applicable.get(n, 0)}
                           for n in sorted(self.checked)},
        }


def _checked(stats: Stats) -> dict:
    """``stats.checked``: the invariant checks by name, with those :meth:`Stats.count_checked` holds added first."""
    table, judged = stats.__dict__["_checked"], stats.__dict__["_judged"]
    if judged:
        for names, steps in judged.values():
            for name in names:
                table[name] = table.get(name, 0) + steps
        judged.clear()
    return table


def _set_checked(stats: Stats, table: dict) -> None:
    """Set ``stats.checked`` to ``table``: the checks held for the dict it replaces are dropped with it."""
    stats.__dict__.update(_checked=table, _judged={})


# A field of the dataclass (its __init__, fields(), eq and repr read and set it) read through
# _checked: every reader and writer of ``checked`` sees the checks Stats.count_checked holds.
Stats.checked = property(_checked, _set_checked)  # type: ignore[assignment, method-assign]


def _interaction(entry: dict) -> str | None:
    """What of interest a log ``entry`` shows (a replacement effect, a state-based action, a
    trigger, mana tapped for, a copy entering), as its label in :attr:`Stats.interactions`, or None.
    Only an entry of a kind in :data:`_INTERACTION_KINDS` may have one."""
    kind = entry.get("kind")
    if kind == "replacement":
        return f"replacement: {entry.get('effect')}"
    if kind == "zone_change":
        cause = entry.get("cause") or {}
        event = cause.get("event")
        if event == "state_based_action":
            return f"state-based action {cause.get('rule')}"
        if event == "destroy" and str(cause.get("by", "")).startswith("704."):
            return f"state-based action {cause.get('by')}"
        return "copy entered" if cause.get("copy_of") else None
    if kind in ("player_lost", "counters_removed"):
        return f"state-based action {entry.get('rule')}"
    if kind == "trigger":
        return "triggered ability"
    if kind == "mana_produced" and entry.get("tapped_for_mana"):
        if not entry.get("mana"):
            return "mana of an undefined type (106.5)"
        return f"tapped for mana, {len(entry.get('replacements') or ())} replacement effect(s)"
    return None


#: The kinds of log entry :func:`_interaction` labels (an entry of any other kind has no label).
_INTERACTION_KINDS = frozenset(("replacement", "zone_change", "player_lost", "counters_removed", "trigger",
                                "mana_produced"))


def _claimed_events(engine) -> set:
    """The event types ``engine`` claims (:attr:`Stats.claimed`)."""
    try:
        from harness.generation.plan import effective_capabilities
        from harness.wire.schemas import load

        types = set(load("event")["properties"]["type"]["enum"])
        return set(effective_capabilities(engine.info)) & types or {"-"}
    except Exception:  # noqa: BLE001  an odd EngineInfo: nothing judged
        return {"-"}


#: The fields of an event that name an object that should exist (``id`` of
#: ``put_onto_battlefield`` is a new one).
_OBJECT_FIELDS = ("source", "target", "object", "attach_to", "copy_of", "aura")


def _aims_at_gone(event: Mapping[str, Any], before: Mapping[str, Any]) -> bool:
    """Whether ``event`` names an object that is not on the battlefield in ``before`` (the
    observation before it; a name that is a player's is none): the generator aims some events
    at objects that left, or never were, on purpose (CR 400.7: a new object), so a correct
    engine refuses them."""
    objects = before.get("objects") if isinstance(before, dict) else None
    if not isinstance(objects, dict):
        return False
    players = before.get("players") or {}
    for key, value in event.items():  # the event's few fields, rather than a look-up of each field that may name one
        if key in _NAMING:
            names: Any = (value,)
        elif key == "targets" and isinstance(value, list):
            names = value
        else:
            continue
        for name in names:
            if isinstance(name, str) and name not in players:
                seen = objects.get(name)
                if not isinstance(seen, dict) or seen.get("zone") != "battlefield":
                    return True
    return False


_NAMING = frozenset(_OBJECT_FIELDS)
