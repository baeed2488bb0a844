"""A run of the reference engine exercises every CR rule of combat, zones, the stack and steps.

Issue 23's proof: "a full run's rule coverage shows every new rule exercised". The rules are
computed, not copied: those the areas' capabilities declare (``harness.protocol.CAPABILITIES``)
and those the invariants unlocked by them cite (``invariants.REGISTRY``). A capability's rule
is exercised when an invariant citing it, or one of its subrules ("702.4" by "702.4b"), applied
to a step (:mod:`harness.reporting.rule_coverage`). So a rule that generation stops reaching,
or an invariant that stops applying, fails this test.
"""

from __future__ import annotations

import re

from harness.connection.loading import load_engine
from harness.protocol import CAPABILITIES
from harness.running.runner import run
from invariants import REGISTRY

#: The capabilities of issue 23 (combat, zones, the stack, steps and small actions).
AREAS = ("combat", "zones", "stack", "steps", "sba.empty_library", "chance.players", "damage.zero", "edict",
         "put_onto_battlefield.tapped")

#: Rules a short run can't show exercised, each with why (keep it tiny).
ALLOWED: dict[str, str] = {
}

EXAMPLES, SEED = 120, 1


def _within(rule: str, cited: str) -> bool:
    """Whether CR rule ``cited`` is ``rule`` or one of its subrules (702.4 -> 702.4b, 510 -> 510.1c)."""
    return cited == rule or (cited.startswith(rule) and re.match(r"[a-z.]", cited[len(rule)]) is not None)


def area_rules() -> set[str]:
    """The areas' capability rules and the rules cited by the invariants they unlock."""
    rules = {r for area in AREAS for r in CAPABILITIES[area].rules}
    return rules | {r for inv in REGISTRY.values() if inv.requires & set(AREAS) for r in inv.rules}


def test_every_area_rule_is_cited_by_an_invariant():
    """A capability rule no invariant cites could never be exercised (rule coverage counts invariants)."""
    cited = {r for inv in REGISTRY.values() for r in inv.rules}
    uncited = sorted(r for r in area_rules() if not any(_within(r, c) for c in cited))
    assert [r for r in uncited if r not in ALLOWED] == []


def test_a_run_of_the_reference_engine_exercises_every_area_rule(outside_coverage):
    result = run(load_engine("reference"), max_examples=EXAMPLES, seed=SEED, database=None, explore=True)
    assert result.violation is None, result.violation
    exercised = result.rule_coverage["rules"]["exercised"]
    never = sorted(r for r in area_rules() if r not in ALLOWED and not any(_within(r, c) for c in exercised))
    assert never == [], f"never exercised in {EXAMPLES} examples (seed {SEED}): {never}"


def test_the_allowed_rules_are_area_rules():
    assert set(ALLOWED) <= area_rules()
