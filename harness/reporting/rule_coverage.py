"""Rule coverage: which CR rules, Gatherer rulings and cards a run exercised.

A step **exercises** a CR rule (or a ruling) when an invariant citing it *applied* to the
step (its check returned a verdict, not None: it did not merely run), and a card when
the step's event names it or names an object of that card (``card``, ``object``,
``source``, ``target``, ``targets``, ``attach_to``, ``copy_of``, ``attackers``, ``blocks``), or the step's log shows
an object of that card. :class:`RuleCoverage` counts steps per rule, ruling and card;
:meth:`RuleCoverage.report` lists those never exercised among the rules and rulings the
run's invariants cite and the cards its plan plays.

``--coverage-guided`` (:mod:`harness.generation.guidance`) weights the state machine's rule choices
and card draws by these counts, toward what the run has exercised least so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

#: Event fields that name objects.
OBJECT_FIELDS = ("object", "source", "target", "attach_to", "copy_of")

try:  # the C loop behind collections.Counter.update: table[name] = table.get(name, 0) + 1 for each name
    from _collections import _count_elements as count_each
except ImportError:  # pragma: no cover  (another Python than CPython)
    def count_each(table: dict, names) -> None:
        """Add 1 to ``table[name]`` (0 if absent) for each of ``names``, in their order."""
        for n in names:
            table[n] = table.get(n, 0) + 1


#: The rules and rulings the invariants of each list of applied invariants cite, by the names of its
#: invariants: ``(list, rules, rulings)``, the list kept to tell another list of the same names.
_CITED: dict[tuple, tuple[list, set, set]] = {}


def _cited_entry(applied: list, names: list | None = None) -> tuple[list, set, set]:
    """``(list, rules, rulings)``: the CR rules and the rulings ``applied`` (a list of
    ``invariants.Invariant``; ``names``: their names, when the caller has them) cite, each a set built
    in the order of the list (a step's list comes again on many steps: worked out once, found by the
    names, whose hashes strings keep, and told apart from another list of the same names by identity;
    a list met for the first time, about a step in three, is joined in C: ``set().union`` adds the
    items one by one in their order, as a set comprehension would, so the sets iterate alike)."""
    key = tuple(names if names is not None else [inv.name for inv in applied])
    found = _CITED.get(key)
    if found is None or found[0] != applied:
        found = (list(applied), set().union(*[inv.rules for inv in applied]),
                 set().union(*[inv.rulings for inv in applied]))
        if len(_CITED) >= 4096:
            _CITED.clear()
        _CITED[key] = found
    return found


def _cited(applied: list, names: list | None = None) -> tuple[set, set]:
    """The CR rules and the rulings ``applied`` cite (:func:`_cited_entry`)."""
    found = _cited_entry(applied, names)
    return found[1], found[2]


def cards_of_step(event: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
    """Names of the cards a step involves: named by ``event`` (directly or through an object
    id of ``before``/``after``), or an object of that card in ``after``'s log."""
    objects_after = after.get("objects") or {}
    objects_before = before.get("objects") or {}
    get = event.get
    card = get("card")
    names = {card} if isinstance(card, str) else set()
    ids = list(map(get, OBJECT_FIELDS))
    targets = get("targets")
    if isinstance(targets, list):
        ids += targets
    attackers = get("attackers")
    if isinstance(attackers, list):  # declare_attackers (capability combat)
        ids += attackers
    blocks = get("blocks")
    if isinstance(blocks, dict):  # declare_blockers: blockers and the attackers they block
        ids += blocks
        ids += blocks.values()
    for entry in after.get("log") or ():
        if isinstance(entry, dict):
            ids.append(entry.get("object"))
    find_after, find_before = objects_after.get, objects_before.get
    for oid in ids:  # its name: its object's after the step, else before it (most fields are None)
        if oid is not None and isinstance(oid, str):
            found = find_after(oid)
            if found is None:
                found = find_before(oid)
            if isinstance(found, dict) and isinstance(n := found.get("name"), str):
                names.add(n)
    return names


@dataclass(init=False)
class RuleCoverage:
    """Steps that exercised each CR rule, ruling and card (counts by name).

    In a coverage-guided run (:mod:`harness.generation.guidance`) ``links`` is a dict: for each
    **source** of steps, ``("card", name)`` for the cards a step involves and
    ``("machine rule", name)`` for the state machine rule that made its event (``source``,
    set before the step), ``links[source]`` maps each ``("rule" | "ruling" | "card", name)``
    to the steps of that source that exercised it, and ``source_steps[source]`` counts the
    source's steps; else ``links`` is None and nothing of this is counted.

    ``rules`` and ``rulings`` are counted when read: each step adds one to the steps of its list of
    applied invariants (``pending``, in the order the lists first came), and reading either adds
    each list's steps to each rule and ruling it cites, in that order, so that every name is counted
    and comes in the dict where counting each step at once would have put it (a name first comes
    with the first list that cites it, the list of the step it first came at).
    """

    rule_steps: dict[str, int] = field(default_factory=dict)
    ruling_steps: dict[str, int] = field(default_factory=dict)
    cards: dict[str, int] = field(default_factory=dict)
    links: dict | None = None
    source_steps: dict = field(default_factory=dict)
    source: str | None = None
    #: id of a :func:`_cited_entry` -> [that entry, its steps not yet added to rules and rulings].
    pending: dict[int, list] = field(default_factory=dict, repr=False)

    def __init__(self, rules: dict[str, int] | None = None, rulings: dict[str, int] | None = None,
                 cards: dict[str, int] | None = None, links: dict | None = None, source_steps: dict | None = None,
                 source: str | None = None):
        self.rule_steps = {} if rules is None else rules
        self.ruling_steps = {} if rulings is None else rulings
        self.cards = {} if cards is None else cards
        self.links, self.source = links, source
        self.source_steps = {} if source_steps is None else source_steps
        self.pending = {}

    @property
    def rules(self) -> dict[str, int]:
        """Steps that exercised each CR rule, by rule."""
        self._add_pending()
        return self.rule_steps

    @property
    def rulings(self) -> dict[str, int]:
        """Steps that exercised each ruling, by ruling."""
        self._add_pending()
        return self.ruling_steps

    def _add_pending(self) -> None:
        if self.pending:
            rules, rulings = self.rule_steps, self.ruling_steps
            for (_, cited_rules, cited_rulings), steps in self.pending.values():
                for r in cited_rules:
                    rules[r] = rules.get(r, 0) + steps
                for r in cited_rulings:
                    rulings[r] = rulings.get(r, 0) + steps
            self.pending.clear()

    def record(self, applied, event: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any],
               names: list[str] | None = None) -> None:
        """Count one step: ``applied`` are the invariants (``invariants.Invariant``) that applied to it
        (``names``: their names, in their order, when the caller has them)."""
        found = _cited_entry(applied, names)
        waiting = self.pending.get(id(found))
        if waiting is None:
            self.pending[id(found)] = [found, 1]  # the entry held here: its id stays its own
        else:
            waiting[1] += 1
        cards = cards_of_step(event, before, after)
        count_each(self.cards, cards)
        if self.links is not None and event:
            self._link(self.links, found[1], found[2], cards)

    def _link(self, links: dict, rules: set, rulings: set, cards: set) -> None:
        items = [("rule", r) for r in rules] + [("ruling", r) for r in rulings] + [("card", c) for c in cards]
        sources = [("card", c) for c in cards] + ([("machine rule", self.source)] if self.source else [])
        for source in sources:
            self.source_steps[source] = self.source_steps.get(source, 0) + 1
            linked = links.setdefault(source, {})
            for item in items:
                linked[item] = linked.get(item, 0) + 1

    def report(self, invariants, cards) -> dict:
        """Counts and the never-exercised names among the rules and rulings cited by
        ``invariants`` and the names in ``cards``: ``{"rules": {"exercised": {rule: steps},
        "never": [...]}, "rulings": {...}, "cards": {...}}``."""
        cited_rules = sorted({r for inv in invariants for r in inv.rules}, key=_rule_key)
        cited_rulings = sorted({r for inv in invariants for r in inv.rulings})

        def part(universe, counts):
            return {"exercised": {n: counts[n] for n in universe if counts.get(n)},
                    "never": [n for n in universe if not counts.get(n)], "total": len(universe)}

        return {"rules": part(cited_rules, self.rules), "rulings": part(cited_rulings, self.rulings),
                "cards": part(sorted(cards), self.cards)}


def merge_reports(reports: list[dict]) -> dict:
    """One :meth:`RuleCoverage.report` from the reports of runs of the same engine (worker
    processes, shards): steps added name by name; a name is never exercised when no run
    exercised it. Empty reports are skipped; returns ``{}`` when all are."""
    reports = [r for r in reports if r]
    if not reports:
        return {}
    merged = {}
    for kind in ("rules", "rulings", "cards"):
        counts: dict[str, int] = {}
        universe: dict[str, None] = {}
        for report in reports:
            for name, n in report[kind]["exercised"].items():
                counts[name] = counts.get(name, 0) + n
                universe[name] = None
            universe.update(dict.fromkeys(report[kind]["never"]))
        order = sorted(universe, key=_rule_key) if kind == "rules" else sorted(universe)
        merged[kind] = {"exercised": {n: counts[n] for n in order if counts.get(n)},
                        "never": [n for n in order if not counts.get(n)], "total": len(order)}
    return merged


def describe(report: dict, limit: int = 12) -> str:
    """A few lines for the run's summary: exercised of cited, then what was never exercised."""
    out = []
    for kind, label in (("rules", "CR rules cited by the invariants"), ("rulings", "rulings cited"),
                        ("cards", "cards of the plan")):
        part = report[kind]
        exercised = len(part["exercised"])
        line = f"{label}: {exercised} of {part['total']} exercised"
        if part["never"]:
            shown = ", ".join(part["never"][:limit])
            more = f" ... and {len(part['never']) - limit} more (--json)" if len(part["never"]) > limit else ""
            line += f"; never: {shown}{more}"
        out.append(line)
    return "Rule coverage (steps where an invariant citing it applied):\n  " + "\n  ".join(out)


def _rule_key(rule: str):
    """Sort CR numbers numerically (``704.5g`` before ``704.10``)."""
    import re

    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", rule)]


def least_exercised(report: dict) -> dict[str, int]:
    """Steps on the least exercised quarter (rounded up) of each kind of a :meth:`RuleCoverage.report`
    (never exercised names count 0): ``{"rules": steps, "rulings": steps, "cards": steps}``;
    0 for a kind with no name. How much a run exercised what it exercises least."""
    out = {}
    for kind in ("rules", "rulings", "cards"):
        part = report[kind]
        counts = sorted([*part["exercised"].values(), *[0] * len(part["never"])])
        out[kind] = sum(counts[:-(-len(counts) // 4)])
    return out
