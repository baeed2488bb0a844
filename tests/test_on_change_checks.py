"""The checks that read only what a step changed (:mod:`invariants.on_change`) give the full checks' verdicts.

On every step of fuzz runs of the reference engine and of mutants, judged in order as a session
judges them, each such check's verdict is the one it gives with nothing kept from the steps
before (a full check, :func:`invariants.on_change.forget_all`); and a violation in the changed part
of a step that follows a sound one is found, with the message the rule's check words.
"""

from __future__ import annotations

import copy

import pytest

import invariants
import invariants.generic as generic
import invariants.playtest as playtest
from harness.adapters.reference import ReferenceAdapter
from harness.protocol import Transition
from invariants import on_change, views
from invariants.card_abilities import has_keyword
from tests.mutants import MUTANTS
from tests.test_judging_shortcuts import _transitions

#: The step invariants whose check reads only what changed, after a step it judged.
ON_CHANGE = ("generic.damage_only_on_battlefield", "generic.owner_never_changes", "sba.token_zone",
             "sba.zero_toughness", "sba.lethal_damage", "sba.counter_annihilation", "impostor.all_names_in_every_zone",
             "impostor.basic_supertype", "playtest.supertypes", "playtest.continuous_no_abilities",
             "counters.change_only_by_counter_events", "playtest.max_hand_size", "playtest.equipment",
             "sba.legend_rule", "sba.unattached_aura")


def _state() -> list[dict]:
    return [dict(vars(kept)) for kept in on_change._KEPT]


def _restore(state: list[dict]) -> None:
    for kept, saved in zip(on_change._KEPT, state):
        vars(kept).update(saved)


def _agree(transitions: list[Transition]) -> int:
    """Judge ``transitions`` in order; each on-change check's verdict is its full check's. Returns how many
    verdicts were reached on change (the step before kept)."""
    checks = [invariants.REGISTRY[name].check for name in ON_CHANGE]
    on_changes = 0
    for t in transitions:
        views.forget()
        generic.observation_problems(t.after, t.before, reuse=False)  # as the session does first
        on_changes += generic._no_permanent_state_off.obs is t.before
        for check in checks:
            verdict = check(t)
            state = _state()
            on_change.forget_all()
            assert verdict == check(t), check.__name__
            _restore(state)
    return on_changes


@pytest.fixture(scope="module")
def reference_transitions() -> list[Transition]:
    return _transitions(ReferenceAdapter(), 30)


def test_on_change_checks_agree_with_the_full_checks(reference_transitions):
    assert _agree(reference_transitions) > len(reference_transitions) // 2


@pytest.mark.parametrize("name", ["zones_token_survives_in_exile", "umbra_saves_zero_toughness",
                                  "umbra_ignores_lethal_damage", "layers_counters_after_switch", "sba_checked_once",
                                  "graveyard_of_the_controller", "impostor_names_only_on_battlefield",
                                  "impostor_not_found_for_basic_land", "orb_grants_to_creatures",
                                  "continuous_while_untapped", "layers_annihilation_removes_all",
                                  "vessel_keeps_hand_size_while_tapped"])
def test_on_change_checks_agree_on_mutants(name, outside_coverage):
    _agree(_transitions(MUTANTS[name].load(), 20))


def _sound_step(transitions: list[Transition], wanted) -> Transition:
    """A step of ``transitions`` whose ``after`` has an object ``wanted(object)`` holds for, judged sound by
    every on-change check (each then keeps its ``after``)."""
    for t in transitions:
        if any(wanted(o) for o in t.after["objects"].values()):
            on_change.forget_all()
            views.forget()
            if all(not invariants.REGISTRY[name].check(t) for name in ON_CHANGE):
                return t
    raise AssertionError("no such step")


def _next(t: Transition, after: dict) -> Transition:
    return Transition(t.after, {"type": "pass_priority"}, after, None, [], None, None)


def _creature(o: dict) -> bool:
    return o["zone"] == "battlefield" and "Creature" in o["types"] and (o["toughness"] or 0) > 1


def test_a_creature_changed_to_zero_toughness_is_found(reference_transitions):
    """CR 704.5f: a creature with toughness 0 or less is put into its owner's graveyard; one left on
    the battlefield after an event is found though every other object is as it was."""
    t = _sound_step(reference_transitions, _creature)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if _creature(o))
    o["toughness"] = 0
    assert invariants.REGISTRY["sba.zero_toughness"].check(_next(t, after)) == [
        f"704.5f: creature {oid} has toughness 0 and is still on the battlefield: expected it in its owner's "
        f"graveyard"]


def test_lethal_damage_on_one_creature_is_found(reference_transitions):
    """CR 704.5g: a creature with damage at least its toughness is destroyed, unless it is
    indestructible (702.12b, the card's keyword)."""
    def mortal(o: dict) -> bool:
        return _creature(o) and not has_keyword(o, "indestructible")

    t = _sound_step(reference_transitions, mortal)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if mortal(o))
    o["damage"] = o["toughness"]
    assert invariants.REGISTRY["sba.lethal_damage"].check(_next(t, after)) == [
        f"704.5g: creature {oid} has {o['toughness']} damage and toughness {o['toughness']} and is still on the "
        f"battlefield: expected it destroyed (in its owner's graveyard), or a replacement effect that removed the "
        f"damage"]


def test_both_kinds_of_counters_on_one_permanent_are_found(reference_transitions):
    """CR 704.5q: a permanent with +1/+1 and -1/-1 counters loses N of each; a permanent without
    counters before that gets both is found (the permanents with counters are kept on change)."""
    t = _sound_step(reference_transitions, _creature)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if _creature(o))
    o["counters"] = {"+1/+1": 1, "-1/-1": 1}
    assert invariants.REGISTRY["sba.counter_annihilation"].check(_next(t, after)) == [
        f"704.5q: {oid} has both +1/+1 and -1/-1 counters ({{'+1/+1': 1, '-1/-1': 1}}): expected N of each "
        f"removed, N the smaller count"]


def test_a_new_token_in_the_graveyard_is_found(reference_transitions):
    """CR 704.5d, 111.7: a token in a zone other than the battlefield ceases to exist; after a step
    with no token at all, a token that appears in a graveyard is found (the tokens are kept on change)."""
    t = _sound_step(reference_transitions, _creature)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if _creature(o))
    o["token"], o["zone"] = True, "graveyard"
    found = invariants.REGISTRY["sba.token_zone"].check(_next(t, after))
    assert found is not None and [m.split(":")[1] for m in found] == [f" token {oid} is in the graveyard"]


def test_permanent_state_off_the_battlefield_is_found(reference_transitions):
    """CR 400.7: an object that leaves the battlefield is a new object without damage or tapped state;
    a changed object in a hand still tapped is found."""
    t = _sound_step(reference_transitions, _creature)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if _creature(o))
    o["zone"], o["tapped"], o["damage"], o["combat"], o["attached_to"] = "hand", True, 0, None, None
    assert invariants.REGISTRY["generic.damage_only_on_battlefield"].check(_next(t, after)) == [
        f"{oid} ({o['name']}) in the hand kept permanent state: tapped true (expected false); an object off the "
        f"battlefield is a new object with none of it (CR 400.7)"]


def test_two_owners_changed_are_named_in_their_order_before(reference_transitions):
    """CR 108.3: ownership never changes; two objects whose owner changed are both named, in the
    order of the observation before the event, whatever the order after."""
    t = _sound_step(reference_transitions, _creature)
    ids = list(t.after["objects"])[:2]
    after = copy.deepcopy(t.after)
    owners = {oid: after["objects"][oid]["owner"] for oid in ids}
    other = {oid: next(p for p in after["players"] if p != owners[oid]) for oid in ids}
    objects = {oid: after["objects"][oid] for oid in reversed(ids)}
    objects.update((oid, o) for oid, o in after["objects"].items() if oid not in objects)
    after["objects"] = objects
    for oid in ids:
        objects[oid]["owner"] = other[oid]
    assert invariants.REGISTRY["generic.owner_never_changes"].check(_next(t, after)) == [
        f"{oid} ({objects[oid]['name']}) was owned by {owners[oid]} and is now owned by {other[oid]}" for oid in ids]


def test_a_tuple_deep_in_a_changed_object_is_found(reference_transitions):
    """The observation is plain JSON: a tuple in a changed object, its other fields as they were, is found."""
    t = _sound_step(reference_transitions, _creature)
    views.forget()
    assert generic.json_problem(t.after, t.before) is None or generic.json_problem(t.after) is None
    generic.json_problem(t.after)
    assert generic._plain[0] is t.after
    after = copy.deepcopy(t.after)
    oid = next(oid for oid, o in after["objects"].items() if _creature(o))
    after["objects"][oid]["counters"] = {"+1/+1": (1,)}
    assert generic.json_problem(after, t.after) == "a tuple ((1,))"


def test_a_basic_land_without_the_basic_supertype_is_found(reference_transitions):
    """CR 205.4a: a basic land card has the basic supertype in every zone; a changed object that is a
    Forest observed without it is found after a step found sound."""
    t = _sound_step(reference_transitions, _creature)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if _creature(o))
    o["name"], o["supertypes"], o["zone"] = "Forest", [], "hand"
    assert invariants.REGISTRY["impostor.basic_supertype"].check(_next(t, after)) == [
        f"{oid} (Forest) in the hand has the basic supertype, observed supertypes []"]


def test_an_object_observed_with_all_names_is_found(reference_transitions):
    """CR 604.3, 201.2: only an object whose card has every card name is observed with all of them; a
    changed creature observed with ``"names": "all"`` is found, its card having no such ability."""
    t = _sound_step(reference_transitions, _creature)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if _creature(o))
    o["names"] = "all"
    assert invariants.REGISTRY["impostor.all_names_in_every_zone"].check(_next(t, after)) == [
        f"{oid} ({o['name']}) in the battlefield after the event is observed with all card names, but its card "
        f"has no such ability"]


def _counters_message(oid: str, o: dict, before: dict, added: dict, after: dict) -> str:
    return (f"{oid} ({o['name']}) had counters {before}, the log adds {added} and annihilates 0 pair(s), but "
            f"it now has {after}")


def test_counters_changed_without_a_counter_event_are_found(reference_transitions):
    """CR 122.1, 122.3: a permanent's counters change only by counter events; a creature given a +1/+1
    counter by a priority pass, every other object as it was, is found."""
    check = invariants.REGISTRY["counters.change_only_by_counter_events"].check
    t = _sound_step(reference_transitions, _creature)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if _creature(o) and not o["counters"])
    o["counters"] = {"+1/+1": 2}
    assert check(_next(t, after)) == [_counters_message(oid, o, {}, {}, {"+1/+1": 2})]


def test_counters_named_by_the_log_or_counted_zero_are_read_unchanged(reference_transitions):
    """CR 122.1: counters the log adds must be there after the event, and a count of 0 is no counter:
    an object equal to its version before is found when the log adds a counter to it that it hasn't,
    or when it is observed with a count of 0 (the counters expected have none)."""
    check = invariants.REGISTRY["counters.change_only_by_counter_events"].check
    t = _sound_step(reference_transitions, _creature)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if _creature(o) and not o["counters"])
    o["counters"] = {"+1/+1": 1}
    first = _next(t, after)
    assert check(first) == [_counters_message(oid, o, {}, {}, {"+1/+1": 1})]
    added = {"kind": "counters_added", "object": oid, "counter": "+1/+1", "amount": 1}
    same = copy.deepcopy(after)
    same["log"] = [added]
    assert check(_next(first, same)) == [_counters_message(oid, o, {"+1/+1": 1}, {"+1/+1": 1}, {"+1/+1": 1})]
    zero = copy.deepcopy(after)
    zero["objects"][oid]["counters"] = {"+1/+1": 1, "-1/-1": 0}
    assert check(_next(first, zero)) == [_counters_message(oid, o, {"+1/+1": 1}, {}, {"+1/+1": 1, "-1/-1": 0})]
    again = copy.deepcopy(zero)
    assert check(_next(_next(first, zero), again)) == [
        _counters_message(oid, o, {"+1/+1": 1, "-1/-1": 0}, {}, {"+1/+1": 1, "-1/-1": 0})]


def _listed_creatures(obs: dict) -> list[str]:
    """The untapped creatures of ``obs``'s battlefield zone list whose controller's maximum hand size is seven."""
    objects, players = obs["objects"], obs["players"]
    return [oid for oid in obs["zones"]["battlefield"] if _creature(objects[oid]) and not objects[oid]["tapped"]
            and players[objects[oid]["controller"]].get("max_hand_size") == 7]


def _listed_creature(t: Transition) -> tuple[dict, str]:
    """A copy of ``t.after`` and the first of its :func:`_listed_creatures`."""
    return copy.deepcopy(t.after), _listed_creatures(t.after)[0]


def test_a_new_thought_vessel_is_read_for_the_maximum_hand_size(reference_transitions):
    """CR 402.2 and Thought Vessel's "You have no maximum hand size": a permanent that becomes an untapped
    Thought Vessel (an artifact, no Orb making it continuous) while its controller's maximum hand size is
    still observed as seven is found, every other object as it was."""
    t = _sound_step([t for t in reference_transitions if _listed_creatures(t.after)], _creature)
    after, oid = _listed_creature(t)
    o = after["objects"][oid]
    o["name"], o["types"], o["subtypes"] = "Thought Vessel", ["Artifact"], []
    pid = o["controller"]
    assert invariants.REGISTRY["playtest.max_hand_size"].check(_next(t, after)) == [
        f"player {pid}'s maximum hand size is 7, expected None (Thought Vessels with their abilities: [{oid!r}]; "
        f"all of theirs: [{oid!r}])"]


def test_a_new_equipment_attached_to_no_creature_is_found(reference_transitions):
    """CR 704.5n: an Equipment attached to no creature on the battlefield becomes unattached; a permanent
    of the battlefield's zone list that becomes an Equipment attached to an object that isn't there is
    found after a step with no Equipment on the battlefield."""
    def no_equipment(t: Transition) -> bool:
        return not any("Equipment" in t.after["objects"][oid]["subtypes"] for oid in t.after["zones"]["battlefield"])

    t = _sound_step([t for t in reference_transitions if no_equipment(t) and _listed_creatures(t.after)], _creature)
    after, oid = _listed_creature(t)
    o = after["objects"][oid]
    o["subtypes"], o["attached_to"] = ["Equipment"], "nowhere"
    assert invariants.REGISTRY["playtest.equipment"].check(_next(t, after)) == [
        f"Equipment {oid} is attached to 'nowhere', not a creature on the battlefield (CR 704.5n)"]


def test_a_second_legend_of_one_name_is_found(reference_transitions):
    """CR 704.5j: a player who controls two legendary permanents with the same name puts one into the
    graveyard; two creatures of one controller that become legendary with one name, after a step with
    no two legendary permanents, are found (the legendary permanents are kept on change)."""
    def pair_of_creatures(obs: dict) -> list[str]:
        mine = [oid for oid, o in obs["objects"].items() if _creature(o) and o["controller"] == "P1"]
        return mine[:2] if len(mine) > 1 else []

    t = _sound_step([t for t in reference_transitions if pair_of_creatures(t.after)], _creature)
    after = copy.deepcopy(t.after)
    ids = pair_of_creatures(after)
    name = after["objects"][ids[0]]["name"]
    for oid in ids:
        after["objects"][oid]["name"], after["objects"][oid]["supertypes"] = name, ["Legendary"]
    assert invariants.REGISTRY["sba.legend_rule"].check(_next(t, after)) == [
        f"704.5j: P1 controls 2 legendary {name}: {ids}"]


def test_a_permanent_become_an_aura_attached_to_nothing_is_found(reference_transitions):
    """CR 704.5m: an Aura attached to no permanent is put into its owner's graveyard; a creature that
    becomes an Aura attached to nothing, every other object as it was, is found (the Auras on the
    battlefield are kept on change)."""
    t = _sound_step(reference_transitions, _creature)
    after = copy.deepcopy(t.after)
    oid, o = next((oid, o) for oid, o in after["objects"].items() if _creature(o))
    o["subtypes"], o["attached_to"] = ["Aura"], None
    assert invariants.REGISTRY["sba.unattached_aura"].check(_next(t, after)) == [
        f"704.5m: Aura {oid} is attached to None, not a permanent (nothing): expected it in its owner's graveyard"]


def test_the_orbs_read_among_the_objects_named_orb_are_the_battlefields(reference_transitions):
    """Orb of Origin's rulings: the Orbs of Origin on the battlefield (``playtest._orbs``, in battlefield
    order), read among the objects named Orb of Origin kept for the step (``IdsWhere.known``), are those
    read from the whole zone list; an observation that is not one of the step's is read in full."""
    found = None
    for t in reference_transitions:
        on_change.forget_all()
        playtest._NAMED_ORB.pair(t.before, t.after)
        views.forget()
        orbs = playtest._orbs(t.after)
        on_change.forget_all()
        views.forget()
        assert orbs == playtest._orbs(t.after)
        found = found or (t if orbs else None)
    assert found is not None, "no Orb of Origin on the battlefield: the test tests nothing"
    playtest._NAMED_ORB.pair(found.before, found.after)
    renamed = copy.deepcopy(found.after)
    orb = playtest._orbs(found.after)[0]
    renamed["objects"][orb]["name"] = "Thought Vessel"
    assert playtest._NAMED_ORB.known(renamed) is None
    assert orb not in playtest._orbs(renamed)
