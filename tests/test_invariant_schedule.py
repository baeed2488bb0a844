"""Skipping an invariant on a step outside what it declares it reads changes no verdict.

A step invariant may declare the event types (``on``) and log entry kinds (``on_log``) without
which it can't apply (:func:`invariants.base.invariant`); the runner then leaves it out of other
steps (:mod:`harness.running.invariant_schedule`). These tests run the reference engine and
mutants whose planted bug a declared invariant finds, check every declared invariant on every
step it is skipped on (its verdict must be None: not applicable), and compare whole runs with
skipping on and off (the same finding, messages and counts).
"""

from __future__ import annotations

import pytest

import invariants
from harness.adapters.reference import ReferenceAdapter
from harness.protocol import Transition
from harness.running import execution, invariant_schedule
from harness.running.runner import run
from harness.wire.log_kinds import KINDS
from harness.wire.vocabulary import event_types
from tests.mutants import MUTANTS

DECLARED = [inv for inv in invariants.REGISTRY.values() if inv.on is not None]

#: Mutants each found by a declared invariant (the invariant in the comment), on seed 0 within a
#: few dozen examples of --explore.
MUTANTS_FOUND_BY_DECLARED = (
    "pool_not_emptied",  # mana.pool_empties
    "graveyard_of_the_controller",  # zones.graveyard_is_the_owners
    "sacrifice_does_nothing",  # zones.sacrificed_goes_to_its_owners_graveyard
    "edict_engine_chooses",  # edict.player_chooses
    "put_tapped_ignored",  # put_onto_battlefield.enters_tapped
    "tapped_permanent_pays_tap",  # costs.tap_symbol
    "indestructible_loses_aura",  # umbra_armor.indestructible
    "thumb_keeps_first_coin",  # chance.krarks_thumb
    "empty_library_draw_no_loss",  # steps.empty_library_loses
    "first_strike_deals_damage_twice",  # combat.damage_*
    "layers_copy_enters_no_trigger",  # copies.enters_abilities_trigger
    "layers_token_copies_counters",  # copies.status_counters_and_auras_not_copied
    "layers_penumbra_no_last_known",  # copies.penumbra_umbra_copies_the_enchanted_creature
    "deathtouch_ignored",  # sba.deathtouch_damage
    "stack_fizzled_spell_partly_resolves",  # stack.illegal_targets_no_effect
    "layers_attach_keeps_timestamp",  # layers.later_setting_effect_wins
)


def test_declarations_name_known_event_types_and_log_kinds():
    """A misspelt event type or log kind would skip an invariant on every step: each declared one
    is in the event vocabulary (harness/schema/event.schema.json) or the log's table of kinds."""
    types, kinds = set(event_types()), {k.kind for k in KINDS}
    assert len(DECLARED) >= 60
    for inv in DECLARED:
        assert inv.scope == "step"
        assert inv.on <= types, (inv.name, inv.on - types)
        assert inv.on_log <= kinds, (inv.name, inv.on_log - kinds)
    undeclared = [inv for inv in invariants.REGISTRY.values() if inv.on is None]
    assert all(not inv.on_log for inv in undeclared)
    assert all(inv.may_apply("no such event", frozenset()) for inv in undeclared)  # the conservative default


def test_schedule_keeps_the_order_and_every_undeclared_invariant():
    invs = list(invariants.REGISTRY.values())
    plan = invariant_schedule.Schedule(invs)
    due = plan.due("pass_priority", [{"kind": "zone_change"}])
    assert due == [inv for inv in invs if inv.on is None or "pass_priority" in inv.on
                   or "zone_change" in inv.on_log]
    assert plan.due("cast", []) is plan.due("cast", [])  # worked out once per (event type, log kinds)
    assert plan.due(["not", "a", "type"], []) == [inv for inv in invs if inv.on is None]
    invariant_schedule.SKIPPING = False
    try:
        assert plan.due("pass_priority", []) == invs
    finally:
        invariant_schedule.SKIPPING = True


@pytest.fixture
def skipped_checks_are_not_applicable(monkeypatch):
    """Every judged step also checks each declared invariant the schedule skips: its verdict must
    be None. Yields the count of (invariant name -> skipped checks verified)."""
    verified: dict[str, int] = {}
    judge = execution.Session._judge

    def judge_and_verify(self, transition, index, event, before, after):
        due = set(map(id, invariant_schedule.schedule(self.invariants).due(event.get("type"), transition.log)))
        for inv in self.invariants:
            if id(inv) not in due:
                verdict = inv.check(transition)
                assert verdict is None, (f"{inv.name} skipped on a {event.get('type')} step with log kinds "
                                         f"{sorted({e.get('kind') for e in transition.log})}, but it says {verdict}")
                verified[inv.name] = verified.get(inv.name, 0) + 1
        return judge(self, transition, index, event, before, after)

    monkeypatch.setattr(execution.Session, "_judge", judge_and_verify)
    yield verified


def test_skipped_invariants_would_not_apply_on_the_reference_engine(skipped_checks_are_not_applicable,
                                                                   outside_coverage):
    for seed in (0, 1):
        result = run(ReferenceAdapter(), max_examples=60, seed=seed, database=None, explore=True)
        assert result.violation is None
    verified = skipped_checks_are_not_applicable
    never = {inv.name for inv in DECLARED if inv.requires <= _reference_capabilities()} - set(verified)
    assert not never, f"declared invariants never skipped: {sorted(never)}"


@pytest.mark.parametrize("name", MUTANTS_FOUND_BY_DECLARED)
def test_skipping_changes_no_finding_of_a_mutant(name, skipped_checks_are_not_applicable, outside_coverage):
    """Each mutant's run with skipping finds the same violation, with the same messages, at the
    same step, and counts every invariant checked and applicable the same, as with every
    invariant run on every step; and no skipped check would have applied."""
    engine = MUTANTS[name].load()
    runs = []
    for skipping in (True, False):
        invariant_schedule.SKIPPING = skipping
        try:
            runs.append(run(engine, max_examples=150, seed=0, database=None, explore=True, shrink=False))
        finally:
            invariant_schedule.SKIPPING = True
    skipped, full = runs
    assert full.violation is not None, f"{name} not found in 150 examples: pick another mutant"
    assert [(v.invariant, v.step, v.messages) for v in skipped.violations] == \
        [(v.invariant, v.step, v.messages) for v in full.violations]
    assert skipped.stats.checked == full.stats.checked
    assert skipped.stats.applicable == full.stats.applicable
    assert skipped.stats.steps == full.stats.steps


def _reference_capabilities() -> frozenset[str]:
    return frozenset(ReferenceAdapter().info.capabilities)


def test_a_schedule_is_kept_for_its_list_and_made_again_when_the_list_changes_in_place():
    """One :class:`Schedule` per list object while its items stay (compared with ``==``: their
    identity first); a list whose item was replaced in place by another invariant gets a new one,
    with that invariant due where it may apply."""
    invs = list(invariants.REGISTRY.values())
    first = invariant_schedule.schedule(invs)
    assert invariant_schedule.schedule(invs) is first
    declared = next(i for i, inv in enumerate(invs) if inv.on is not None and "cast" not in inv.on
                    and not inv.on_log)
    replaced = invs[declared]
    invs[declared] = next(inv for inv in invs if inv.on is None)
    again = invariant_schedule.schedule(invs)
    assert again is not first and again.invariants == invs
    assert replaced not in again.due("cast", []) and invs[declared] in again.due("cast", [])
    assert invariant_schedule.schedule(tuple(invs)).invariants == invs  # any sequence, kept as a list


def _due(name: str, event_type: str, log: list) -> bool:
    inv = invariants.REGISTRY[name]
    return inv in invariant_schedule.Schedule([inv]).due(event_type, log)


def _creature(**fields) -> dict:
    return {"zone": "battlefield", "types": ["Creature"], "counters": {}, "pt_effects": [], "attached_to": None,
            **fields}


def test_an_until_end_of_turn_effect_left_after_cleanup_is_found_and_only_cleanup_is_read():
    """CR 514.2: "until end of turn" effects end in the cleanup step; the invariant is due on cleanup
    steps only (any other event: not applicable)."""
    effect = {"layer": "7c", "power": 3, "toughness": 3, "until_end_of_turn": True}
    obs = {"objects": {"c": _creature(pt_effects=[effect])}}
    check = invariants.REGISTRY["layers.until_end_of_turn_effects_end"].check
    assert check(Transition(obs, {"type": "cleanup"}, obs)) == [f"c still has {effect} after cleanup"]
    assert _due("layers.until_end_of_turn_effects_end", "cleanup", [])
    assert check(Transition(obs, {"type": "pass_priority"}, obs)) is None
    assert not _due("layers.until_end_of_turn_effects_end", "pass_priority", [{"kind": "zone_change"}])


def test_counters_removed_by_umbra_armor_are_found_and_only_a_replacement_is_read():
    """CR 702.89a: umbra armor removes damage, never counters; the invariant is due on steps whose
    log has a replacement entry only (without one nothing was saved by umbra armor)."""
    before = {"objects": {"c": _creature(counters={"+1/+1": 2}, damage=3)}}
    after = {"objects": {"c": _creature(counters={}, damage=0)}}
    saved = [{"kind": "replacement", "effect": "umbra armor", "affected": "c"}]
    check = invariants.REGISTRY["counters.umbra_armor_removes_damage_not_counters"].check
    t = Transition(before, {"type": "destroy", "targets": ["c"]}, {**after, "log": saved})
    assert check(t) == ["c was saved by umbra armor and its counters went from {'+1/+1': 2} to {}"]
    assert _due("counters.umbra_armor_removes_damage_not_counters", "destroy", saved)
    assert check(Transition(before, {"type": "destroy", "targets": ["c"]}, {**after, "log": []})) is None
    assert not _due("counters.umbra_armor_removes_damage_not_counters", "destroy", [{"kind": "damage"}])


REFUSED_OR_STACK = [inv for inv in invariants.REGISTRY.values() if inv.refused is not None or inv.on_stack]


def test_refused_and_stack_declarations_are_left_out_only_where_their_check_says_none(outside_coverage):
    """On every judged step of fuzz runs of the reference engine and of mutants, an invariant
    :meth:`Schedule.checks` leaves out for its ``refused`` or ``on_stack`` declaration (what
    :meth:`Schedule.due` keeps) returns None there; most declared ones are left out somewhere."""
    left_out: dict[str, int] = {}
    judge = execution.Session._judge

    def judge_and_verify(self, transition, index, event, before, after):
        plan = invariant_schedule.schedule(self.invariants)
        kept = {id(entry[0]) for entry in plan.checks(event.get("type"), transition.log, before, after,
                                                      transition.illegal is not None)}
        for inv in plan.due(event.get("type"), transition.log):
            if id(inv) not in kept and (inv.refused is not None or inv.on_stack):
                assert inv.check(transition) is None, (inv.name, transition.illegal, before.get("stack"),
                                                       after.get("stack"))
                left_out[inv.name] = left_out.get(inv.name, 0) + 1
        return judge(self, transition, index, event, before, after)

    execution.Session._judge = judge_and_verify  # type: ignore[method-assign]
    try:
        run(ReferenceAdapter(), max_examples=60, seed=0, database=None, explore=True)
        for name in ("stack_fizzled_spell_partly_resolves", "first_strike_deals_damage_twice"):
            run(MUTANTS[name].load(), max_examples=40, seed=0, database=None, explore=True, shrink=False,
                keep_going=True)
    finally:
        execution.Session._judge = judge  # type: ignore[method-assign]
    declared = {inv.name for inv in REFUSED_OR_STACK if inv.requires <= _reference_capabilities()}
    assert len(declared & set(left_out)) * 2 > len(declared), sorted(declared - set(left_out))  # not vacuous
    assert left_out.get("generic.illegal_changes_nothing") and left_out.get("stack.triggers_in_apnap_order")


def test_refused_and_stack_declarations_need_the_step_known():
    """A step whose refusal is not told (``refused`` None) keeps every due invariant; a step whose
    observations are not plain dicts (a dict subclass, whose stack its checks read) keeps the
    ``on_stack`` ones, left out only when both are plain dicts with nothing on the stack."""
    invs = [inv for inv in invariants.REGISTRY.values() if inv.scope == "step"]
    plan = invariant_schedule.Schedule(invs)
    on_stack = {inv.name for inv in invs if inv.on_stack}
    assert on_stack >= {"stack.triggers_in_apnap_order", "stack.last_in_first_out"}

    def names(before, after, refused):
        return {entry[1] for entry in plan.checks("pass_priority", [], before, after, refused)}

    empty = {"objects": {}, "stack": []}
    assert names(empty, empty, None) >= on_stack | {"generic.illegal_changes_nothing"}
    assert not names(empty, empty, False) & (on_stack | {"generic.illegal_changes_nothing"})
    assert "generic.illegal_changes_nothing" in names(empty, empty, True)
    assert "stack.resolves_only_when_all_pass" not in names(empty, empty, True)

    class Observed(dict):
        """An observation of a dict subclass (no stack by :func:`invariants.base.on_the_stack`)."""

    waiting = Observed(objects={}, stack=[{"id": "s1", "kind": "spell"}])
    assert names(waiting, waiting, False) >= on_stack
