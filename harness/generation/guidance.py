"""Coverage guidance (``rulesfuzz run --coverage-guided``): the state machine's rule
choices and card draws weighted toward what the run has exercised least so far.

Hypothesis draws each step's rule (an event type) from the machine's rules, and every
card of a board or an event from one of the plan's card lists (``Plan.choice``). A
guided run draws both with :func:`harness.generation.hypothesis_shim.weighted_choice`: the same
choice as ``st.sampled_from`` (an index), so shrinking, the example database and replay
files work as in an unguided run, but the index is generated with probabilities from the
run's rule coverage (:class:`harness.reporting.rule_coverage.RuleCoverage`, which then also links
each machine rule and card to what its steps exercised).

A rule's or card's weight is the **expected gain** of one more step from it
(:meth:`Guidance.gain`): how rarely it was used, plus, for every CR rule, ruling and card
its steps exercised, the share of its steps that did times how rarely that was exercised
over the run. So a machine rule or card is chosen more often when it is rarely chosen or
when it is the way to a rarely exercised rule (Penumbra Umbra to its copy rulings, a
deathtouch creature to 702.2b).

Weights change only between Hypothesis runs (the runner's chunks of examples, through
:meth:`Guidance.refresh`), never inside one, as Hypothesis requires. Until the first
refresh they are even: the first chunk draws what an unguided run draws. They depend only
on what the run did, so a guided run is reproducible from its seed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from harness.generation.hypothesis_shim import weighted_choice
from harness.generation.plan import Plan
from harness.reporting.rule_coverage import RuleCoverage

#: Share of each draw's probability given by the weights; the rest is spread evenly, so
#: every choice stays possible.
GUIDED_SHARE = 0.9
#: Weights are gains raised to this power: below 1 keeps more variety than proportional.
SHARPNESS = 0.5
#: Examples per Hypothesis run (chunk) of a guided run: the weights are refreshed this often.
GUIDED_CHUNK = 10
#: Steps a source's share of an item is smoothed over (a card seen in few steps is not
#: yet known to lead anywhere).
PRIOR = 10


class Guidance:
    """Probabilities of a guided draw (``{index: p}``, or None for even odds) per card list
    of ``plan`` and for the machine's rules; recomputed from a :class:`RuleCoverage` by
    :meth:`refresh`."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.weights: dict[str, dict[int, float] | None] = dict.fromkeys(plan.lists)
        self.coverage: RuleCoverage | None = None
        self.refreshes = 0
        self._choices: dict = {}
        self._rules: dict[tuple, dict[int, float] | None] = {}
        self._rare: dict[tuple[str, str], float] = {}

    def choice(self, name: str):
        """The strategy drawing one card of list ``name`` with the current weights (built once)."""
        if name not in self._choices:
            self._choices[name] = weighted_choice(self.plan.lists[name], lambda: self.weights[name])
        return self._choices[name]

    def rule_weights(self, names: tuple[str, ...]) -> dict[int, float] | None:
        """Probabilities over the machine rules ``names`` (in Hypothesis's order) for this chunk."""
        if names not in self._rules:
            self._rules[names] = self._weigh([("machine rule", n) for n in names]) if self.coverage else None
        return self._rules[names]

    def gain(self, source: tuple[str, str]) -> float | None:
        """The expected gain of one more step from ``source`` (``("card" | "machine rule",
        name)``) over the coverage of the last refresh: ``1 / (1 + s)`` for its ``s`` steps,
        plus for each rarely exercised rule, ruling or card ``x`` (:meth:`rare`) its steps
        exercised, ``(its steps that exercised x) / (s + PRIOR)`` times ``x`` 's rarity. None
        when it had no step yet."""
        coverage = self.coverage
        links = coverage.links if coverage is not None else None  # a source's steps are counted with links
        steps = coverage.source_steps.get(source, 0) if coverage is not None and links is not None else 0
        if not steps or links is None:
            return None
        rare = self._rare
        return 1.0 / (1 + steps) + sum(n / (steps + PRIOR) * rare[item]
                                       for item, n in links.get(source, {}).items() if item in rare)

    @staticmethod
    def rare(coverage: RuleCoverage) -> dict[tuple[str, str], float]:
        """The rarely exercised: of each kind (rules, rulings, cards), those exercised no more
        than the least exercised quarter of that kind, each with its rarity, the kind's
        median steps over its own (``{("rule", "702.2b"): 6.5, ...}``)."""
        found = {}
        for kind, table in (("rule", coverage.rules), ("ruling", coverage.rulings), ("card", coverage.cards)):
            counts = sorted(table.values())
            if not counts:
                continue
            cut, median = counts[(len(counts) - 1) // 4], counts[len(counts) // 2]
            found.update({(kind, name): median / n for name, n in table.items() if n <= cut})
        return found

    def _weigh(self, sources: list) -> dict[int, float] | None:
        """Probabilities proportional to the gains raised to :data:`SHARPNESS`, a source with no
        step yet counting twice the largest gain; None (even odds) while none had a step."""
        gains = [self.gain(s) for s in sources]
        known = [g for g in gains if g is not None]
        if len(sources) < 2 or not known:
            return None
        top = max(known)
        raw = [(g if g is not None else 2 * top) ** SHARPNESS for g in gains]
        total = sum(raw)
        return {i: max(GUIDED_SHARE * w / total, 1e-9) for i, w in enumerate(raw)}

    def refresh(self, coverage: RuleCoverage) -> None:
        """Recompute every probability from ``coverage`` (its ``links`` must be on). Call it only
        between Hypothesis runs."""
        self.refreshes += 1
        self.coverage = coverage
        self._rare = self.rare(coverage)
        self._rules.clear()
        for name, members in self.plan.lists.items():
            self.weights[name] = self._weigh([("card", c) for c in members])


@dataclass(frozen=True)
class GuidedPlan(Plan):
    """A :class:`~harness.generation.plan.Plan` whose card choices are :class:`Guidance` 's weighted draws."""

    guidance: Guidance | None = None

    @classmethod
    def of_plan(cls, plan: Plan) -> GuidedPlan:
        """``plan`` with a fresh :class:`Guidance` (even odds until its first refresh)."""
        guided = cls(**{f.name: getattr(plan, f.name) for f in fields(plan)})
        object.__setattr__(guided, "guidance", Guidance(guided))
        return guided

    def choice(self, name: str):
        assert self.guidance is not None  # of_plan gives each GuidedPlan its Guidance
        return self.guidance.choice(name)
