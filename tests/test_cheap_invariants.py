"""The whole-observation checks run on change only and still catch what they catch.

``generic.observation_shape`` and ``generic.json_round_trip`` walk only the parts of an
observation that differ from the previous one they found good; these tests hold that a
problem appearing in a changed object, in the players or the log, in an object changed in
place, or after an observation that was itself bad, is still reported; and that engines
written from scratch with such bugs (examples/engines/tiny) are still found by a run.
"""

from __future__ import annotations

import copy
from collections import OrderedDict

import pytest

from harness.running.runner import run
from invariants import generic
from invariants.generic import json_problem, observation_problems

from .scenario_helpers import Decider, obj
from .test_generic_rules import engine_with, session
from .test_tiny_engine import tiny


def good_observation() -> dict:
    """A well-formed, plain observation of the tiny engine with two creatures."""
    game = tiny.engine.new_game({"players": [{"id": "P1", "life": 20}, {"id": "P2", "life": 20}],
                                 "objects": [obj("a", "Grizzly Bears"), obj("b", "Typhoid Rats")]})
    return game.observe()


def first_checked(obs: dict) -> dict:
    """``obs`` after both checks found it good (it becomes the one later checks diff against)."""
    assert observation_problems(obs, reuse=False) == [] and json_problem(obs) is None
    return obs


@pytest.mark.parametrize("change, says", [
    (lambda o: o["objects"]["b"].update(damage=-1), "negative"),
    (lambda o: o["objects"]["b"].update(tapped=1), "wrong type"),
    (lambda o: o["objects"]["b"].pop("power"), "has no 'power'"),
    (lambda o: o["objects"].update(c={"name": "Grizzly Bears"}), "objects['c'] has no"),
    (lambda o: o["players"]["P2"].update(life="20"), "players"),
])
def test_a_shape_problem_in_what_changed_is_found(change, says):
    before = first_checked(good_observation())
    after = copy.deepcopy(before)
    change(after)
    problems = observation_problems(after, before)
    assert problems and any(says in p for p in problems)


@pytest.mark.parametrize("change, says", [
    (lambda o: o["objects"]["b"].update(counters={"+1/+1": (1,)}), "tuple"),
    (lambda o: o["objects"]["b"].update(colors={"B"}), "set"),
    (lambda o: o["log"].append({"kind": "damage", "amount": float("nan")}), "non-finite"),
    (lambda o: o["zones"].update({1: []}), "non-string key"),
    (lambda o: o["players"]["P1"].update(extra=object()), "object"),
    (lambda o: o["objects"]["b"].update({1: 2}), "non-string key"),  # a key its version before hasn't
    (lambda o: o["objects"].update({("c",): dict(o["objects"]["b"])}), "non-string key"),  # an object's id
])
def test_a_json_problem_in_what_changed_is_found(change, says):
    before = first_checked(good_observation())
    after = copy.deepcopy(before)
    change(after)
    assert says in (json_problem(after, before) or "")


def test_an_object_changed_in_place_and_returned_again_is_checked_again():
    """An engine that keeps its observation's objects and changes them in place gets no
    credit for the earlier check: the same object is walked again."""
    before = first_checked(good_observation())
    after = dict(before, objects=before["objects"])  # a new top level sharing the very same objects
    before["objects"]["a"]["damage"] = -2
    before["objects"]["a"]["counters"] = {"+1/+1": (1,)}
    assert any("negative" in p for p in observation_problems(after, before))
    assert "tuple" in (json_problem(after, before) or "")
    assert any("negative" in p for p in observation_problems(before, before, reuse=False))


def test_after_a_bad_observation_everything_is_checked_again():
    """Only an observation found good is diffed against: a problem that stays is reported every time."""
    bad = good_observation()
    bad["objects"]["a"]["damage"] = -1
    bad["objects"]["a"]["keywords"] = ("deathtouch",)
    assert observation_problems(bad, reuse=False) and json_problem(bad)
    same = copy.deepcopy(bad)
    assert any("negative" in p for p in observation_problems(same, bad))
    assert "tuple" in json_problem(same, bad)


def test_an_unchanged_good_observation_costs_no_walk(monkeypatch):
    """What equals the previous good observation is not walked again (the point of the change-only check)."""
    before = first_checked(good_observation())
    after = copy.deepcopy(before)
    after["objects"]["b"]["damage"] = 1
    walked = []
    real = generic._is_plain  # the walk's verdict, asked first (the walk itself gives a message)
    monkeypatch.setattr(generic, "_is_plain", lambda value: walked.append(value) or real(value))
    assert json_problem(after, before) is None
    assert walked == [[1]]  # of the one object changed, the one value changed


def test_of_a_part_that_changed_only_the_values_that_changed_are_walked(monkeypatch):
    """Of a part or object that differs from its version in the last observation found plain, with the
    same keys, only the values that differ are walked; one with other keys is walked whole, and so is a
    new object."""
    before = first_checked(good_observation())
    after = copy.deepcopy(before)
    after["players"]["P2"]["life"] = 3
    after["objects"]["a"]["counters"] = {"+1/+1": 2}
    after["objects"]["b"]["extra"] = [1]
    after["objects"]["c"] = {"name": "Grizzly Bears"}
    walked = []
    real = generic._is_plain
    monkeypatch.setattr(generic, "_is_plain", lambda value: walked.append(value) or real(value))
    assert json_problem(after, before) is None
    assert walked == [[after["players"]["P2"], {"+1/+1": 2}, after["objects"]["b"], after["objects"]["c"]]]


def test_field_types_found_sound_are_kept_only_for_builtin_types():
    """CR 109.3: an object whose fields' exact types were found sound once is not checked field by field
    again (but for its damage, CR 120.3); a type not JSON's own is checked every time, its instances may
    claim another class each time (``isinstance`` asks their ``__class__``)."""
    class Shifty:
        def __init__(self, claimed: type):
            self.claimed = claimed

        @property  # type: ignore[misc]
        def __class__(self):
            return self.claimed

    good = good_observation()["objects"]["b"]
    assert generic._object_problems("b", good) == []
    assert generic._field_types(good) in generic._SOUND_FIELD_TYPES
    assert generic._object_problems("b", dict(good, damage=-1)) == [
        "objects['b'].damage = -1 is negative (CR 120.3)"]
    shifty = dict(good, name=Shifty(str))
    assert generic._object_problems("b", shifty) == []
    shifty["name"].claimed = int
    assert generic._object_problems("b", shifty)[0].startswith("objects['b'].name = ")


class LaterTupleInOneObject(tiny.TinyGame):
    """After an event, the first object has a field holding a tuple (the rest of the observation plain)."""

    def observe(self):
        obs = super().observe()
        if self.log:
            first = sorted(obs["objects"])[0]
            obs["objects"][first]["notes"] = ("seen",)
        return obs


class LaterNegativeDamage(tiny.TinyGame):
    """After an event, every creature on the battlefield shows damage -1 (CR 120.3: never negative)."""

    def observe(self):
        obs = super().observe()
        if self.log:
            for o in obs["objects"].values():
                if o["zone"] == "battlefield":
                    o["damage"] = -1
        return obs


@pytest.mark.parametrize("game_class, invariant", [(LaterTupleInOneObject, "generic.json_round_trip"),
                                                   (LaterNegativeDamage, "generic.observation_shape")])
def test_engines_with_such_bugs_are_still_found_by_a_run(game_class, invariant):
    """Written from scratch (the tiny engine), with the bug after the first event only."""
    result = run(engine_with(game_class, f"tiny-{invariant}"), max_examples=200, seed=0, database=None, shrink=False)
    assert result.violation is not None and result.violation.invariant == invariant


def test_a_session_still_reports_a_later_json_problem():
    s = session(engine_with(LaterTupleInOneObject, "tiny-tuple"), obj("bears", "Grizzly Bears"))
    found = s.step({"type": "sacrifice", "object": "bears"}, Decider())
    assert [(v.invariant, v.step) for v in found] == [("generic.json_round_trip", 1)]


# ------------------------------------------------------------------ shared views (invariants.views)
def test_a_view_is_computed_once_per_observation_object_and_forgotten_at_each_step():
    from invariants import views

    calls: list[int] = []

    @views.per_observation
    def count_objects(obs):
        calls.append(1)
        return len(obs["objects"])

    first = good_observation()
    equal = copy.deepcopy(first)
    assert count_objects(first) == count_objects(first) == 2 and len(calls) == 1
    assert count_objects(equal) == 2 and len(calls) == 2  # an equal but other observation: its own view
    first["objects"].pop("a")
    assert count_objects(first) == 2  # kept: observations are not changed once made ...
    views.forget()
    assert count_objects(first) == 1 and len(calls) == 3  # ... and each session step forgets every view


def test_a_step_view_is_computed_once_per_step_and_forgotten_at_each_step():
    """A :func:`invariants.views.per_step` value is found by the identity of the step's observations
    and event and by its ``illegal``: a step that differs in any of them has its own."""
    from dataclasses import replace

    from harness.protocol import Transition
    from invariants import views

    calls: list[int] = []

    @views.per_step
    def log_length(t):
        calls.append(1)
        return len(t.log)

    before, after = good_observation(), good_observation()
    after["log"] = [{"kind": "tapped", "object": "a"}]
    t = Transition(before, {"type": "tap", "object": "a"}, after)
    assert log_length(t) == log_length(t) == 1 and len(calls) == 1
    assert log_length(replace(t)) == 1 and len(calls) == 1  # the same observations and event
    assert log_length(replace(t, illegal="not_legal")) == 0 and len(calls) == 2  # refused: no log
    assert log_length(replace(t, after=copy.deepcopy(after))) == 1 and len(calls) == 3
    assert log_length(replace(t, before=copy.deepcopy(before))) == 1 and len(calls) == 4
    assert log_length(replace(t, event=dict(t.event))) == 1 and len(calls) == 5
    later = replace(t)
    assert log_length(later) == 1 and len(calls) == 6
    later.after["log"].append({"kind": "untapped", "object": "a"})
    assert log_length(later) == 1  # kept: observations are not changed once made ...
    views.forget()
    assert log_length(later) == 2 and len(calls) == 7  # ... and each session step forgets it


def test_what_entered_is_read_once_per_step_from_its_own_log():
    """The objects that entered the battlefield in a step (``zone_change`` entries from nowhere, CR 403.3),
    one list for every check of the step; a step with an after of its own is read from its own log."""
    from harness.protocol import Transition
    from invariants import views
    from invariants.layers import entered

    before, after = good_observation(), good_observation()
    came = {"kind": "zone_change", "object": "a", "from": None, "to": "battlefield"}
    after["log"] = [came]
    views.forget()
    t = Transition(before, {"type": "cast", "card": "Grizzly Bears"}, after)
    assert entered(t) == [("a", came)] and entered(t) is entered(t)
    other = copy.deepcopy(after)
    other["log"] = []
    assert entered(Transition(before, t.event, other)) == []


def test_a_session_whose_observations_no_engine_changes_keeps_the_views_of_the_observation_before():
    """The reference engine's observations are fresh (and an engine's shared ones are copied): the
    views of the observation before a step, computed at the step before (it was that step's after),
    still hold and are not computed again; every other observation's view is dropped."""
    from harness.adapters.reference import ReferenceAdapter
    from invariants import views

    calls: list[dict] = []

    @views.per_observation
    def count_objects(obs):
        calls.append(obs)
        return len(obs["objects"])

    played = session(ReferenceAdapter(), obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats"))
    assert played.fresh or played.copies
    played.step({"type": "sacrifice", "object": "bears"}, Decider())
    before = played.observation
    other = copy.deepcopy(before)
    count_objects(before), count_objects(other)
    played.step({"type": "sacrifice", "object": "rats"}, Decider())
    assert count_objects(before) == 2 and calls == [before, other]  # kept: the observation before the step
    count_objects(other)
    assert calls == [before, other, other]  # dropped


def test_each_session_step_forgets_every_view(monkeypatch):
    """So an engine that changes in place the dict it returned from ``observe`` gets no stale view."""
    from invariants import views

    forgotten: list[int] = []
    monkeypatch.setattr(views, "forget", lambda: forgotten.append(1))
    played = session(tiny.engine, obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats"))
    played.step({"type": "sacrifice", "object": "bears"}, Decider())
    played.step({"type": "sacrifice", "object": "rats"}, Decider())
    assert forgotten == [1, 1]


_NOT_PLAIN = [(1,), {1: "a"}, float("nan"), float("inf"), {"x"}, b"x", object(), _Str := type("Str", (str,), {})("s"),
              OrderedDict(a=1), [2.5, (1,)], {"a": 2.5, "b": {"c": [[], {}, (1,)]}}]


@pytest.mark.parametrize("where, bad", [
    (where, bad) for where in ("top", "value", "key", "list", "list of leaves", "deep") for bad in _NOT_PLAIN
    if where != "key" or isinstance(bad, str) or getattr(bad, "__hash__", None) is not None  # a key is hashable
], ids=lambda v: "object()" if type(v) is object else repr(v) if not isinstance(v, str) or v == "s" else v)
def test_the_quick_plain_check_agrees_with_the_walk(where, bad):
    """:func:`invariants.generic._is_plain` (what :func:`json_problem` asks first) finds a
    problem wherever :func:`invariants.generic._json_walk` (which gives the message) finds one,
    in a dict's keys and values, in a list of leaves or of containers, at any depth."""
    if where == "key":
        value: object = {"a": 1, bad: 2} if not isinstance(bad, float) or bad == bad else {"a": 1}
    else:
        value = {"top": bad, "value": {"a": 1, "b": bad, "c": True}, "list": [{"a": None}, bad],
                 "list of leaves": ["a", 1, None, bad, False],
                 "deep": {"a": [{"b": {"c": [1, "x", {"d": [bad]}]}}]}}[where]
    assert generic._is_plain(value) == (generic._json_walk(value) is None)
    assert json_problem(value) == generic._json_walk(value)
    plain = {"a": [1, "x", None, True, 2.5, {"b": []}], "c": {}, "d": []}
    assert generic._is_plain(plain) and json_problem(plain) is None


def test_a_transitions_log_is_read_when_it_is_made_and_again_for_a_replaced_one():
    """``Transition.log`` is an attribute read when the transition is made: ``after["log"]`` itself
    (or ``[]`` when the event was refused, or the observation has no log); a transition made anew
    with another ``after`` or ``illegal`` (``dataclasses.replace``) has that one's log."""
    from dataclasses import replace

    from harness.protocol import Transition

    logged = {"log": [{"kind": "tapped", "object": "a"}]}
    t = Transition({}, {"type": "tap", "object": "a"}, logged)
    assert t.log is logged["log"] and Transition({}, {}, {}).log == []
    assert replace(t, illegal="not_legal").log == [] and replace(t, illegal="not_legal", after={}).log == []
    other = {"log": [{"kind": "untapped", "object": "a"}]}
    assert replace(t, after=other).log is other["log"] and replace(replace(t, illegal="x"), illegal=None).log is t.log
    assert t == replace(t) and ", log=" not in repr(t)
