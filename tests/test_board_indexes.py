"""Indexes of the board that checks read instead of scanning every object, and the verdicts they keep.

- :func:`invariants.combat._attachments`: the permanents attached to each object (with their
  abilities), one pass per observation (:mod:`invariants.views`) for every creature a combat check
  reads, the list :func:`invariants.combat._attached` gave by scanning.
- ``copies.x_is_zero`` reads the permanents whose copiable mana cost has {X} from an index kept on
  change (:class:`invariants.on_change.IdsWhere`): on fuzz runs of the reference engine and of a
  mutant whose copies keep X its verdicts are those of the check with nothing kept, and a wrong mana
  value of such a permanent after a sound step is found (CR 107.3g).
- ``templates.creature_dies_triggers`` finds the permanents with "Whenever a creature dies" abilities
  from an index kept on change: a Proper Burial that enters on one step watches its creatures die on
  the next (CR 603.2).
- ``counters.change_only_by_counter_events`` finds the objects with a counter count of 0 from an index
  kept on change: such an object is read on every step, also those that leave it unchanged (CR 122.1).
- :func:`invariants.on_change.removed_ids` tells a step that removes no object by counting the objects
  it added, without a set of the ids before: a step that replaces one object by another removes one.
- ``generic.illegal_changes_nothing`` takes a refused event's objects as unchanged when the objects
  it found changed (:func:`invariants.on_change.changed_objects`) are none and the ids are the same.
"""

from __future__ import annotations

import copy

import pytest

import invariants
from harness.adapters.reference import ReferenceAdapter
from harness.protocol import Transition
from invariants import combat, copies, game_amounts, on_change, views
from tests.mutants import MUTANTS
from tests.observations import card, observation, step
from tests.steps_cases import BEARS, RATS
from tests.test_judging_shortcuts import _transitions


@pytest.fixture(scope="module")
def reference_transitions() -> list[Transition]:
    return _transitions(ReferenceAdapter(), 30)


def _scanned(obs: dict, oid: str) -> list[tuple[str, dict]]:
    """The permanents attached to ``oid`` that have their abilities, by reading every object."""
    return [(aid, a) for aid, a in obs["objects"].items() if a.get("zone") == "battlefield"
            and a.get("attached_to") == oid and not (a.get("tapped") and "Continuous" in (a.get("supertypes") or ()))]


def test_the_attachments_index_gives_what_a_scan_of_the_objects_gives(reference_transitions):
    attached = 0
    for t in reference_transitions:
        views.forget()
        for obs in (t.before, t.after):
            for oid in obs["objects"]:
                assert list(combat._attached(obs, oid)) == _scanned(obs, oid)
                attached += bool(_scanned(obs, oid))
    assert attached  # the runs attach Auras and Equipment


def test_a_tapped_continuous_equipment_is_not_among_the_attached():
    """A tapped continuous permanent has no abilities (Orb of Origin ruling): it grants nothing."""
    obs = {"objects": {"c": {"zone": "battlefield", "attached_to": None},
                       "s": {"zone": "battlefield", "attached_to": "c", "tapped": True, "supertypes": ["Continuous"]},
                       "a": {"zone": "battlefield", "attached_to": "c", "tapped": True, "supertypes": []},
                       "g": {"zone": "graveyard", "attached_to": "c"}}}
    views.forget()
    assert [aid for aid, _ in combat._attached(obs, "c")] == ["a"]


def _agree(transitions: list[Transition]) -> tuple[int, int]:
    """Judge ``transitions`` in order with x_is_zero, each verdict compared with the one it gives with
    nothing kept; returns (steps it applied to, steps judged with the index kept from the step before)."""
    check = invariants.REGISTRY["copies.x_is_zero"].check
    applied = kept = 0
    for t in transitions:
        views.forget()
        kept += copies._X_PERMANENTS.obs is t.before
        verdict = check(t)
        state = dict(vars(copies._X_PERMANENTS))
        copies._X_PERMANENTS.forget()
        assert verdict == check(t)
        vars(copies._X_PERMANENTS).update(state)
        applied += verdict is not None
    return applied, kept


def test_x_is_zero_on_change_agrees_with_the_full_check(reference_transitions):
    applied, kept = _agree(reference_transitions)
    assert applied and kept > len(reference_transitions) // 2


def test_x_is_zero_on_change_agrees_on_a_mutant_whose_copies_keep_x(outside_coverage):
    assert _agree(_transitions(MUTANTS["layers_copy_keeps_x"].load(), 20))[0]


def test_a_wrong_mana_value_of_a_permanent_with_x_after_a_sound_step_is_found(reference_transitions):
    """CR 107.3g: on the battlefield {X} is 0 in the mana value; the permanent's own change is found
    though the index of permanents with {X} comes from the step before."""
    check = invariants.REGISTRY["copies.x_is_zero"].check
    on_change.forget_all()
    sound = next(t for t in reference_transitions if check(t) == [] and t.illegal is None
                 and any(oid in copies._X_PERMANENTS.ids for oid in t.after["objects"]))
    after = copy.deepcopy(sound.after)
    oid = next(oid for oid in after["objects"] if oid in copies._X_PERMANENTS.ids)
    o = after["objects"][oid]
    o["mana_value"] = copies.mana_value(o["copiable"]["mana_cost"]) + 1
    step = Transition(sound.after, {"type": "pass_priority"}, after, None, [], None, None)
    assert copies._X_PERMANENTS.obs is step.before
    assert check(step) == [f"{oid} ({o['name']}, {o['copiable']['mana_cost']}) has mana value {o['mana_value']}; "
                           f"X is 0 on the battlefield: {o['mana_value'] - 1}"]


def _refused(before_objects: dict, after_objects: dict) -> Transition:
    players = {"P1": {"life": 20}}
    return Transition({"players": players, "objects": before_objects}, {"type": "destroy", "targets": ["b"]},
                      {"players": players, "objects": after_objects}, "illegal_target")


def test_a_refused_event_that_removed_an_object_changed_the_objects():
    """CR 104.3, 117.1: a refused event changes nothing. The objects equal to their versions before
    (found on change) are not all there is: an object gone is a change though none changed."""
    check = invariants.REGISTRY["generic.illegal_changes_nothing"].check
    bears, rats = {"zone": "battlefield", "name": "Grizzly Bears"}, {"zone": "battlefield", "name": "Typhoid Rats"}
    assert check(_refused({"b": bears, "r": rats}, {"b": dict(bears), "r": dict(rats)})) == []
    found = check(_refused({"b": bears, "r": rats}, {"b": dict(bears)}))
    assert len(found) == 1 and found[0].startswith("the refused event (illegal_target) changed objects")
    found = check(_refused({"b": bears}, {"b": {**bears, "zone": "exile"}}))
    assert len(found) == 1 and found[0].startswith("the refused event (illegal_target) changed objects")
    assert check(_refused({"b": bears}, {"b": bears})) == []  # the same dict: equal (its own previous version)


def test_ids_kept_on_change_are_those_a_scan_finds(reference_transitions):
    """:class:`invariants.on_change.IdsWhere` takes the ids of the step before less the removed and
    changed objects, plus the changed ones that have the property: the ids a scan of every object finds."""
    untapped = on_change.IdsWhere(lambda o: o["zone"] == "battlefield" and not o.get("tapped"))
    kept = toggled = 0
    for t in reference_transitions:
        kept += untapped.obs is t.before
        before, after = untapped.pair(t.before, t.after)
        assert (before, after) == (untapped._full(t.before), untapped._full(t.after))
        toggled += bool(before - after) and bool(after - before)
    assert kept > len(reference_transitions) // 2 and toggled  # permanents tap, untap, enter and leave


def test_ids_kept_on_change_lose_the_removed_and_the_changed_without_the_property():
    has = on_change.IdsWhere(lambda o: o["n"] > 0)
    first = {"objects": {"a": {"n": 1}, "b": {"n": 1}, "c": {"n": 0}, "d": {"n": 1}}}
    second = {"objects": {"a": {"n": 0}, "b": {"n": 2}, "c": {"n": 3}}}
    assert has.pair(first, second) == ({"a", "b", "d"}, {"b", "c"})
    assert has.pair(second, {"objects": dict(second["objects"])}) == ({"b", "c"}, {"b", "c"})  # nothing changed
    assert has.pair(first, first) == ({"a", "b", "d"}, {"a", "b", "d"})


def test_ids_kept_when_no_object_joins_or_leaves_are_the_same_set():
    """When the objects a step changes keep their answer and none with it is removed, the ids after are
    those before, the very frozenset; any change of membership (a changed object that gains or loses the
    property, one removed that had it) gives the ids a scan finds."""
    has = on_change.IdsWhere(lambda o: o["n"] > 0)
    first = {"objects": {"a": {"n": 1}, "b": {"n": 0}, "c": {"n": 1}}}
    kept = {"objects": {"a": {"n": 2}, "b": {"n": -1}, "c": {"n": 1}, "d": {"n": 0}}}  # a, b changed; d new, without
    before, after = has.pair(first, kept)
    assert after is before == {"a", "c"}
    for objects in ({"a": {"n": 0}, "b": {"n": -1}, "c": {"n": 1}, "d": {"n": 0}},  # a loses it
                    {"a": {"n": 2}, "b": {"n": 3}, "c": {"n": 1}, "d": {"n": 0}},  # b gains it
                    {"a": {"n": 2}, "b": {"n": -1}, "d": {"n": 0}},  # c, with it, removed
                    {"a": {"n": 2}, "b": {"n": -1}, "c": {"n": 1}, "d": {"n": 5}}):  # d, new, with it
        has.pair(first, kept)
        step = {"objects": objects}
        assert has.pair(kept, step)[1] == has._full(step)


def test_the_ids_removed_are_found_when_as_many_objects_are_added():
    """:func:`invariants.on_change.removed_ids` counts the objects added (among the changed ones) to tell
    a step that removes none: one that removes an object and adds another, the same number of objects,
    removed one; one that only changes or adds objects removed none; removing several and adding one too."""
    first = {"objects": {"a": {"n": 1}, "b": {"n": 0}, "c": {"n": 1}}}
    replaced = {"objects": {"a": {"n": 1}, "b": {"n": 0}, "d": {"n": 1}}}  # c gone, d new: three objects still
    assert on_change.removed_ids(replaced, first) == {"c"}
    grown = {"objects": {"a": {"n": 2}, "b": {"n": 0}, "c": {"n": 1}, "d": {"n": 1}}}
    assert on_change.removed_ids(grown, first) == set()
    shrunk = {"objects": {"e": {"n": 1}}}
    assert on_change.removed_ids(shrunk, first) == {"a", "b", "c"}
    has = on_change.IdsWhere(lambda o: o["n"] > 0)
    has.pair(first, first)
    assert has.pair(first, replaced)[1] == {"a", "d"}


def test_a_watcher_that_entered_on_the_step_before_sees_creatures_die():
    """CR 603.2: Proper Burial ("Whenever a creature you control dies, ...") put onto the battlefield on one
    step is among the watchers the next step reads from the index kept on change: Wrath of God killing two
    of its controller's creatures with one trigger logged is found."""
    check = invariants.REGISTRY["templates.creature_dies_triggers"].check
    on_change.forget_all()
    first = observation({"bears": BEARS, "rats": RATS})
    burial = observation({"bears": BEARS, "rats": RATS, "pb": card("Proper Burial", owner="P2", types=["Enchantment"])})
    put = {"type": "put_onto_battlefield", "card": "Proper Burial", "controller": "P2"}
    assert check(Transition(first, put, burial, None, [], None, None)) is None  # no watcher before it entered
    log = [{"kind": "zone_change", "object": o, "from": "battlefield", "to": "graveyard",
            "cause": {"event": "destroy", "by": "Wrath of God"}} for o in ("bears", "rats")]
    log.append({"kind": "trigger", "source": "pb", "ability": "a creature dies", "controller": "P2"})
    wrath = Transition(burial, {"type": "cast", "card": "Wrath of God", "controller": "P1", "targets": []},
                       step(burial, {"bears": {"zone": "graveyard"}, "rats": {"zone": "graveyard"}}, log),
                       None, [], None, None)
    assert game_amounts._WATCHERS.obs is burial  # kept from the step before
    found = check(wrath)
    assert len(found) == 1 and "2 trigger(s) were expected from it, the log shows 1" in found[0]


def test_a_zero_count_is_found_on_the_steps_that_leave_its_object_unchanged():
    """CR 122.1: a count of 0 is no counter. A step that leaves a 0 count on a permanent is found, and so is
    each step after it that changes nothing: the object, unchanged, is read from the index of objects with a
    0 count kept on change."""
    check = invariants.REGISTRY["counters.change_only_by_counter_events"].check
    on_change.forget_all()
    first = observation({"bears": {**BEARS, "counters": {"+1/+1": 1}}})
    zero = step(first, {"bears": {"counters": {"+1/+1": 0}}})
    again = step(zero, {})
    passed = {"type": "pass_priority", "player": "P1"}
    assert "but it now has {'+1/+1': 0}" in check(Transition(first, passed, zero, None, [], None, None))[0]
    found = check(Transition(zero, passed, again, None, [], None, None))
    assert len(found) == 1 and "had counters {'+1/+1': 0}" in found[0] and "now has {'+1/+1': 0}" in found[0]
