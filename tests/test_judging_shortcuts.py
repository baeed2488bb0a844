"""The harness's shortcuts in judging a step give the verdicts of the checks they stand for.

- :meth:`harness.running.invariant_schedule.Schedule.checks` leaves the invariants that hold only
  outside the stack (:func:`invariants.base.outside_the_stack`) out of steps with objects on the
  stack, and calls the check they wrap on the others;
- ``generic.one_zone_per_object``, ``playtest.supertypes`` and
  ``layers.power_toughness_in_layer_order`` are checked on change only (an
  observation equal in what they read to the last one they found sound is sound): on every step
  of fuzz runs of the reference engine and of mutants, their verdict is the full check's;
- a step is still found when only the changed part is wrong (an object moved, its zone lists not).
"""

from __future__ import annotations

import copy

import pytest

import invariants
import invariants.generic as generic
import invariants.layers as layers
import invariants.playtest as playtest
from harness.adapters.reference import ReferenceAdapter
from harness.protocol import Transition
from harness.running import execution, invariant_schedule
from harness.running.runner import run
from invariants import views
from invariants.base import OUTSIDE_THE_STACK, on_the_stack
from tests.mutants import MUTANTS


def _transitions(engine, examples: int = 25, seed: int = 0) -> list[Transition]:
    """Every judged transition of an exploration of ``engine``, in order."""
    seen: list[Transition] = []
    judge = execution.Session._judge

    def keep(self, transition, index, event, before, after):
        seen.append(transition)
        return judge(self, transition, index, event, before, after)

    execution.Session._judge = keep  # type: ignore[method-assign]
    try:
        run(engine, max_examples=examples, seed=seed, database=None, explore=True, shrink=False, keep_going=True)
    finally:
        execution.Session._judge = judge  # type: ignore[method-assign]
    return seen


@pytest.fixture(scope="module")
def reference_transitions() -> list[Transition]:
    return _transitions(ReferenceAdapter(), 30)


def test_checks_leave_out_stack_steps_and_call_the_wrapped_check(reference_transitions):
    invs = [inv for inv in invariants.REGISTRY.values() if inv.scope == "step"]
    plan = invariant_schedule.Schedule(invs)
    stack_steps = 0
    for t in reference_transitions:
        views.forget()
        checks = plan.checks(t.event.get("type"), t.log, t.before, t.after)
        due = plan.due(t.event.get("type"), t.log)
        stack = on_the_stack(t.before, t.after)
        stack_steps += stack
        assert [inv for inv, _, _ in checks] == [
            inv for inv in due if not (stack and hasattr(inv.check, OUTSIDE_THE_STACK))]
        for inv, name, check in checks:
            assert name == inv.name
            assert check is getattr(inv.check, OUTSIDE_THE_STACK, inv.check)
        for inv in due:
            if stack and hasattr(inv.check, OUTSIDE_THE_STACK):
                assert inv.check(t) is None  # left out: not applicable there
    assert stack_steps, "no step with objects on the stack: the test tests nothing"


def _verdicts_agree(transitions: list[Transition]) -> int:
    """Each transition judged in order by the checks on change only and by the full checks: the same
    verdicts. Returns how many steps took the shortcut of one_zone_per_object."""
    shortcuts = 0
    for t in transitions:
        views.forget()
        generic.observation_problems(t.after, t.before, reuse=False)  # as the session does first
        took = t.before is generic._zones_consistent[0]
        assert generic.one_zone_per_object(t) == generic._zone_problems(t.after)
        shortcuts += took
        marked = playtest._marked(t.after, t.before)
        assert marked == any(not playtest._MONO_CONTINUOUS.isdisjoint(o.get("supertypes") or ())
                             for o in t.after["objects"].values())
        on_change = playtest.supertypes(t)
        held, unmarked = playtest._supertypes_held[0], playtest._unmarked[0]
        playtest._supertypes_held[0] = playtest._unmarked[0] = None  # nothing known: the full check
        assert on_change == playtest.supertypes(t)
        playtest._supertypes_held[0], playtest._unmarked[0] = held, unmarked
        on_change = layers.power_toughness_in_layer_order(t)
        sound = list(layers._layered_sound)
        layers._layered_sound[:] = [None, frozenset()]
        assert on_change == layers.power_toughness_in_layer_order(t)
        assert sound[1] == layers._layered_sound[1]  # the creatures held as checked: those a full check checks
        layers._layered_sound[:] = sound
    return shortcuts


def test_on_change_checks_agree_with_the_full_checks(reference_transitions):
    assert _verdicts_agree(reference_transitions) > len(reference_transitions) // 4


@pytest.mark.parametrize("name", ["graveyard_of_the_controller", "orb_grants_to_creatures",
                                  "zones_token_survives_in_exile", "continuous_while_untapped",
                                  "layers_counters_after_switch", "layers_aura_setting_always_wins"])
def test_on_change_checks_agree_on_mutants(name, outside_coverage):
    _verdicts_agree(_transitions(MUTANTS[name].load(), 20))


def test_a_move_the_zone_lists_miss_is_found_on_change(reference_transitions):
    """An observation whose object changed zone while the zone lists stayed as they were is found
    (CR 400.1), though the observation before it was sound and its zones are unchanged."""
    t = next(t for t in reference_transitions if any(o["zone"] == "battlefield" for o in t.after["objects"].values()))
    views.forget()
    sound = Transition(t.before, t.event, t.after, t.illegal, t.decisions, t.error, t.reference)
    assert generic.one_zone_per_object(sound) == []
    moved = copy.deepcopy(t.after)
    oid = next(oid for oid, o in moved["objects"].items() if o["zone"] == "battlefield")
    moved["objects"][oid]["zone"] = "graveyard"
    after = Transition(t.after, {"type": "pass_priority"}, moved, None, [], None, None)
    assert generic._zones_consistent[0] is t.after  # the shortcut applies
    assert generic.one_zone_per_object(after) == [f"{oid} is listed in battlefield but its zone is graveyard"]


def _moved(t: Transition, change) -> Transition:
    """A step after ``t`` (found sound) whose observation is ``t.after`` changed by ``change(observation, oid)``,
    ``oid`` an object on the battlefield."""
    after = copy.deepcopy(t.after)
    oid = next(oid for oid, o in after["objects"].items() if o["zone"] == "battlefield")
    change(after, oid)
    return Transition(t.after, {"type": "pass_priority"}, after, None, [], None, None)


def _drop_a_list(obs: dict) -> None:
    zone, player = next((zone, player) for zone in ("library", "hand", "graveyard")
                        for player, ids in obs["zones"][zone].items() if ids)
    del obs["zones"][zone][player]


def _twice_for_another(obs: dict, oid: str) -> None:
    """``oid`` listed twice on the battlefield, another object's id dropped from its list (as many ids as objects)."""
    lists = [obs["zones"]["battlefield"], *(ids for zone in ("library", "hand", "graveyard", "exile")
                                           for ids in obs["zones"][zone].values())]
    ids = next(ids for ids in lists if any(other != oid for other in ids))
    ids.remove(next(other for other in ids if other != oid))
    obs["zones"]["battlefield"].append(oid)


def _to_graveyard(obs: dict, oid: str, lists: str = "both") -> None:
    o = obs["objects"][oid]
    o["zone"] = "graveyard"
    if lists in ("both", "from"):
        obs["zones"]["battlefield"].remove(oid)
    if lists in ("both", "to"):
        obs["zones"]["graveyard"][o["owner"]].append(oid)


#: Changes of a sound observation (``change(observation, oid)``, ``oid`` on the battlefield), sound or not.
MOVES = [
    lambda obs, oid: _to_graveyard(obs, oid),  # sound: moved, and its lists say so
    lambda obs, oid: _to_graveyard(obs, oid, "from"),  # listed nowhere
    lambda obs, oid: _to_graveyard(obs, oid, "to"),  # listed twice
    lambda obs, oid: (_to_graveyard(obs, oid), obs["zones"]["graveyard"][obs["objects"][oid]["owner"]].append(oid)),
    lambda obs, oid: (obs["zones"]["battlefield"].remove(oid),
                      obs["zones"]["graveyard"][next(p for p in obs["zones"]["graveyard"]
                                                     if p != obs["objects"][oid]["owner"])].append(oid),
                      obs["objects"][oid].update(zone="graveyard")),  # in another player's graveyard
    lambda obs, oid: obs["objects"].pop(oid),  # gone, still listed
    lambda obs, oid: (obs["objects"].pop(oid), obs["zones"]["battlefield"].remove(oid)),  # gone, sound
    lambda obs, oid: obs["objects"].update(new=dict(obs["objects"][oid])),  # new, listed nowhere
    lambda obs, oid: (obs["objects"].update(new=dict(obs["objects"][oid])), obs["zones"]["battlefield"].append("new")),
    lambda obs, oid: obs["zones"]["hand"][obs["objects"][oid]["owner"]].append("nothing"),  # no object's id
    lambda obs, oid: obs["zones"]["battlefield"].append(oid),  # listed twice, unmoved
    lambda obs, oid: _drop_a_list(obs),  # a player's list of a zone gone, its objects listed nowhere
    _twice_for_another,
    lambda obs, oid: obs["objects"][oid].update(zone="hand"),  # moved, its lists not
    lambda obs, oid: (obs["zones"]["battlefield"].remove(oid), obs["zones"]["hand"][obs["objects"][oid]["owner"]]
                      .append(oid)),  # listed in its owner's hand, its zone the battlefield
    lambda obs, oid: (_to_graveyard(obs, oid), obs["objects"][oid].update(owner="nobody")),  # not its owner's
]


@pytest.mark.parametrize("change", MOVES)
def test_moves_are_judged_on_change_as_in_full(reference_transitions, change):
    """After a sound observation, one whose zone lists or objects moved gets the full check's verdict,
    sound or not."""
    t = next(t for t in reference_transitions if any(o["zone"] == "battlefield" for o in t.after["objects"].values()))
    views.forget()
    sound = Transition(t.before, t.event, t.after, t.illegal, t.decisions, t.error, t.reference)
    assert generic.one_zone_per_object(sound) == []
    after = _moved(t, change)
    assert generic.one_zone_per_object(after) == generic._zone_problems(after.after)


def test_moved_objects_are_judged_from_the_lists_that_changed(reference_transitions):
    """CR 400.1, 400.7: after a consistent observation, one whose zone lists changed (an object moved,
    left or came) is found consistent from the lists and objects that changed
    (:func:`invariants.generic._places_kept`), not by the full check, on every such step of a fuzz run of
    the reference engine; the verdict is the full check's."""
    moved = kept = 0
    for t in reference_transitions:
        views.forget()
        if t.before is generic._zones_consistent[0] and t.after.get("zones") != t.before.get("zones"):
            moved += 1
            kept += generic._places_kept(t.after, t.before)
        assert generic.one_zone_per_object(t) == generic._zone_problems(t.after)
    assert moved > 10 and kept == moved


@pytest.mark.parametrize("change", [None, *MOVES])
def test_zones_agree_only_when_the_full_check_finds_nothing(reference_transitions, change):
    """CR 400.1: the check in C loops (:func:`invariants.generic._zones_agree`) says an observation's zone
    lists and objects agree exactly when the full check finds nothing, on every observation of fuzz runs
    of the reference engine and on each change of one of them."""
    if change is None:
        for t in reference_transitions:
            assert generic._zones_agree(t.after) and not generic._zone_problems(t.after)
        return
    t = next(t for t in reference_transitions if any(o["zone"] == "battlefield" for o in t.after["objects"].values()))
    after = _moved(t, change).after
    assert generic._zones_agree(after) == (not generic._zone_problems(after))
