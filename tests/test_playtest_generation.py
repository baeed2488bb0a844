"""Boards and events for the playtest supertypes are generated for engines that claim them, only.

Orb of Origin and Sword of the Meek need ``playtest_supertypes`` (``harness.generation.plan.card_needs``);
the playtest corner of boards (``harness.rules.playtest``) and the playtest rules of the state
machine exist only in a plan with that capability and ``mana`` and ``tap_untap_costs``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from harness.generation import strategies as S
from harness.running.machine import rule_gates
from harness.generation.plan import FULL, Plan
from harness.protocol import CAPABILITIES
from harness.rules.playtest import with_playtest_corner
from harness.running.runner import run
from reference_engine.game import CAPABILITIES as REFERENCE_CAPABILITIES
from harness.adapters.reference import ReferenceAdapter

WITHOUT = Plan.of(set(CAPABILITIES) - {"playtest_supertypes"})


def test_the_capability_row_exists():
    row = CAPABILITIES["playtest_supertypes"]
    assert "playtest artifacts" in row.board_features and row.events
    assert "playtest_supertypes" in REFERENCE_CAPABILITIES


def test_rules_gated_on_the_capability():
    assert rule_gates(plan=FULL)["playtest_scene"] is None
    assert rule_gates(plan=FULL)["playtest_activate"] is None
    for name in ("playtest_scene", "playtest_activate"):
        assert "playtest_supertypes" in rule_gates(plan=WITHOUT)[name]


def test_no_corner_without_the_capability():
    boards = S.boards(WITHOUT)
    assert with_playtest_corner(boards, WITHOUT) is boards
    declared = Plan.of(CAPABILITIES, cards=set(S.CREATURES))  # an engine that doesn't play Orb of Origin
    assert with_playtest_corner(boards, declared) is boards


@settings(max_examples=60, database=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(board=with_playtest_corner(S.boards(FULL), FULL))
def test_corner_boards_are_legal_for_the_reference(board):
    """Every board with the corner is one the reference engine builds (Swords attached to creatures)."""
    game = ReferenceAdapter().new_game(board)
    observation = game.observe()
    for o in observation["objects"].values():
        if o["name"] == "Sword of the Meek" and o["attached_to"]:
            assert "Creature" in observation["objects"][o["attached_to"]]["types"]


def test_a_run_reaches_the_playtest_invariants(outside_coverage):
    """A short run of the reference engine applies every playtest invariant and finds nothing."""
    result = run(ReferenceAdapter(), max_examples=60, seed=3, database=None, shrink=False)
    assert result.violation is None
    applied = result.stats.applicable
    for name in ("playtest.supertypes", "playtest.mono_additional_tap", "playtest.continuous_no_abilities",
                 "playtest.max_hand_size", "playtest.equipment"):
        assert applied.get(name, 0) > 0, name
