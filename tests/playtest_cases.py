"""Passing and failing transitions for the playtest invariants (``invariants/playtest.py``).

``tests/test_invariants.py`` merges :data:`CASES` into its table: (holds, broken, says).
Every "holds" transition is a real step of the reference engine on a scenario whose
expected values ``tests/test_playtest_rulings.py`` checks against Orb of Origin's rulings;
every "broken" one is that step as a buggy engine would report it; ``says`` is a word the
failure message must contain.
"""

from __future__ import annotations

import copy

from invariants import Transition
from reference_engine import IllegalAction, ReferenceEngine

from .scenario_helpers import Decider, board, obj

ORB, VESSEL, SWORD = "Orb of Origin", "Thought Vessel", "Sword of the Meek"


def _step(objects, event, *answers, prelude=()) -> Transition:
    """The transition of ``event`` on a board of ``objects`` (after the ``prelude`` events)."""
    game = ReferenceEngine().new_game(board(*objects))
    for e in prelude:
        game.apply(e, Decider())
    before = game.observe()
    try:
        game.apply(event, Decider(*answers))
    except IllegalAction as exc:
        return Transition(before, event, copy.deepcopy(before), exc.reason)
    return Transition(before, event, game.observe())


def _activate(oid: str) -> dict:
    return {"type": "activate", "object": oid, "ability": 0}


def _altered(t: Transition, change) -> Transition:
    after = copy.deepcopy(t.after)
    change(after)
    return Transition(t.before, t.event, after, t.illegal)


def vessel_tapped_under_orb() -> Transition:
    return _step([obj("orb", ORB), obj("v", VESSEL), obj("myr", "Darksteel Myr")], _activate("v"))


def myr_made_mono() -> Transition:
    return _altered(vessel_tapped_under_orb(),
                    lambda a: a["objects"]["myr"].update(supertypes=["Mono", "Continuous"]))


def vessel_refused_a_second_tap() -> Transition:
    t = vessel_tapped_under_orb()
    return Transition(t.before, t.event, copy.deepcopy(t.before), "already_tapped")


def vessel_keeps_no_maximum() -> Transition:
    return _altered(vessel_tapped_under_orb(), lambda a: a["players"]["P1"].update(max_hand_size=None))


def lone_orb_activated() -> Transition:
    return _step([obj("orb", ORB)], _activate("orb"))


def lone_orb_tapped() -> Transition:
    def tap(after):
        after["objects"]["orb"]["tapped"] = True
        after["log"].insert(1, {"kind": "tapped", "object": "orb", "cause": "cost"})
    return _altered(lone_orb_activated(), tap)


def tapped_stone_refused() -> Transition:
    return _step([obj("orb", ORB), obj("fs", "Fellwar Stone", tapped=True), obj("i", "Island", owner="P2")],
                 _activate("fs"))


def tapped_stone_accepted() -> Transition:
    t = tapped_stone_refused()
    return Transition(t.before, t.event, copy.deepcopy(t.after), None)


_FORESTS = [obj("f1", "Forest"), obj("f2", "Forest")]


def sword_equipped() -> Transition:
    return _step([obj("s", SWORD), obj("bears", "Grizzly Bears"), *_FORESTS], _activate("s"), "G",
                 prelude=[_activate("f1"), _activate("f2")])


def sword_on_a_land() -> Transition:
    return _altered(sword_equipped(), lambda a: a["objects"]["s"].update(attached_to="f1"))


CASES = {
    "playtest.supertypes": (vessel_tapped_under_orb, myr_made_mono, "expected"),
    "playtest.mono_additional_tap": (vessel_tapped_under_orb, vessel_refused_a_second_tap, "never a second"),
    "playtest.poly_first_ability": (lone_orb_activated, lone_orb_tapped, "poly"),
    "playtest.continuous_no_abilities": (tapped_stone_refused, tapped_stone_accepted, "no abilities"),
    "playtest.max_hand_size": (vessel_tapped_under_orb, vessel_keeps_no_maximum, "maximum hand size"),
    "playtest.equipment": (sword_equipped, sword_on_a_land, "not a creature"),
}
