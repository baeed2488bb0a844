"""The harness generates combats (capability ``combat``) and checks them with the combat invariants.

A short run on the reference engine, declaring the cards of the combat mutants (creatures with
first strike, double strike, trample, deathtouch, lifelink, vigilance, flying, reach, menace,
defender, haste and "can't block", tests/mutants/_combat.py): the four combat events are generated
and every combat invariant is exercised (counted), with no finding. An engine that doesn't claim
``combat`` gets no combat rule and no combat corner on its boards.
"""

from __future__ import annotations

import dataclasses

from harness.adapters.reference import ReferenceAdapter
from harness.running.machine import EngineMachine, rule_gates
from harness.generation.plan import Plan
from harness.rules.combat import with_combat_corner
from harness.running.runner import run
from reference_engine import Game

from .mutants._combat import combat_engine

COMBAT_EVENTS = ("declare_attackers", "declare_blockers", "combat_damage", "end_of_combat")
COMBAT_RULES = ("declare_attackers", "declare_blockers", "combat_damage", "end_of_combat", "whole_combat",
                "unblocked_combat", "blocked_combat")


def test_a_short_run_generates_combats_and_checks_them(outside_coverage):
    result = run(combat_engine(Game, "reference-combat"), max_examples=60, seed=3, shrink=False)
    assert result.findings == []
    stats = result.stats
    for kind in COMBAT_EVENTS:
        assert stats.events.get(kind, 0) > 0, (kind, stats.events)
    combat = {name: n for name, n in stats.applicable.items() if name.startswith("combat.")}
    for name in ("combat.attack_legality", "combat.attacking_taps", "combat.block_legality", "combat.damage_steps",
                 "combat.damage_assignment", "combat.damage_totals", "combat.removal_from_combat"):
        assert combat.get(name, 0) > 0, (name, combat)


def test_engines_without_combat_get_none_of_it():
    info = ReferenceAdapter().info
    without = dataclasses.replace(info, capabilities=info.capabilities - {"combat"})
    gates = rule_gates(EngineMachine, Plan.for_info(without))
    assert all("needs capability combat" in gates[name] for name in COMBAT_RULES)
    boards = object()
    assert with_combat_corner(boards, Plan.for_info(without)) is boards  # the same strategy: nothing more drawn
    claimed = rule_gates(EngineMachine, Plan.for_info(info))
    assert all(claimed[name] is None for name in COMBAT_RULES)
