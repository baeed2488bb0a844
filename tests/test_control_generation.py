"""Generation of control changes and of boards whose owners and controllers differ.

Boards give some permanents an owner other than their controller, and the ``change_control``
event (capability ``control_change``) hands permanents to the other player, so bugs about
whose graveyard, whose token and whose choice can be reached: the mutant that files a card
under its controller is found by the invariants alone.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.generation import strategies as S
from harness.generation.plan import FULL
from harness.adapters.reference import ReferenceAdapter
from harness.running.machine import EngineMachine
from harness.protocol import CAPABILITIES
from harness.rules import AREAS, ControlActions
from harness.running.runner import run
from tests.mutants import MUTANTS


def test_the_control_change_capability_and_rules_are_declared():
    row = CAPABILITIES["control_change"]
    assert row.events == ("change_control",) and "613.1b" in row.rules
    assert ControlActions in AREAS and issubclass(EngineMachine, ControlActions)
    assert "control_change" in ReferenceAdapter().info.capabilities


def test_boards_have_permanents_owned_by_the_other_player():
    seen = {"same": 0, "different": 0}

    @settings(max_examples=200, database=None, derandomize=True)
    @given(S.boards(FULL))
    def check(board):
        for o in board["objects"]:
            if o.get("zone", "battlefield") == "battlefield":
                seen["same" if o["owner"] == o["controller"] else "different"] += 1

    check()
    assert seen["different"] > 0 and seen["same"] > seen["different"]


def test_the_machine_generates_control_changes_and_the_reference_stays_clean(outside_coverage):
    result = run(ReferenceAdapter(), max_examples=100, seed=3, database=None, shrink=False)
    assert result.violation is None, result.violations
    assert result.stats.events.get("change_control", 0) > 20


def test_an_engine_without_the_capability_gets_no_control_change(outside_coverage):
    engine = ReferenceAdapter()
    from dataclasses import replace

    engine.info = replace(engine.info, capabilities=engine.info.capabilities - {"control_change"})
    result = run(engine, max_examples=40, seed=3, database=None, shrink=False)
    assert "change_control" not in result.stats.events


def test_a_card_put_into_its_controllers_graveyard_is_found_by_the_invariants_alone():
    mutant = MUTANTS["graveyard_of_the_controller"]
    result = run(mutant.load(), max_examples=500, seed=0, database=None, shrink=False)
    assert result.violation is not None
    found = [v.invariant for v in result.violations]
    assert {"generic.owner_never_changes", "zones.graveyard_is_the_owners"} & set(found)
    assert not any(n.startswith("umbra_armor.") for n in found)


@settings(max_examples=50, database=None, derandomize=True)
@given(st.data())
def test_owner_of_is_the_controller_or_the_other_player(data):
    controller = data.draw(S.players)
    owner = S.owner_of(data.draw, controller, FULL)
    assert owner in S.PLAYERS
