"""Observations the reference engine shares from one step to the next, read-only on both sides.

The reference engine's game gives out, for an object unchanged since the last observation, the
very entry dict it gave out then (``reference_engine.observed.observed_entries``); it never changes an
entry once given out, and its callers never change one either. The harness trusts that identity
for that game only (``Session.fresh``, :func:`invariants.on_change.trust_identity`): an entry that
is the last observation's is unchanged, so the checks that read what a step changed skip it
without comparing it. Any other pair of observations is judged by equality, an entry that is
its previous one counting as changed (an engine changing it in place gets no credit).
"""

from __future__ import annotations

import json

import pytest

import invariants
from harness.adapters.reference import ReferenceAdapter, ReferenceGame
from harness.protocol import Transition
from harness.running.execution import Session
from harness.running.runner import run
from invariants import on_change, views
from tests.mutants import MUTANTS

from .scenario_helpers import Decider, board, obj

#: Grizzly Bears get +2/+0 until end of turn (CR 611.2, 613.4c): their entry changes, Typhoid
#: Rats' doesn't.
PUMP = {"type": "modify_pt", "object": "b", "power": 2, "toughness": 0}


def _session() -> Session:
    return Session(ReferenceAdapter(), board(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats")), [])


def test_a_reference_session_takes_an_entry_given_again_as_unchanged():
    """After the pump, the Rats' entry is the one of the observation before (the same dict), and
    only the Bears are read as changed; for any other pair of the same observations (their
    objects put in new maps), the Rats' entry being the same dict counts as changed."""
    session = _session()
    before = session.observation
    session.step(PUMP, Decider())
    after = session.observation
    assert after["objects"]["r"] is before["objects"]["r"] and after["objects"]["b"] is not before["objects"]["b"]
    assert list(on_change.changed_objects(after, before)) == ["b"]
    untold = {**after, "objects": dict(after["objects"])}
    assert list(on_change.changed_objects(untold, before)) == ["b", "r"]


def test_a_trusted_pair_reads_the_new_and_the_unequal_entries_as_changed_in_their_order():
    """For the pair a session vouched for, the entries that are not their previous version are
    compared: an equal one is unchanged, an unequal one or one of a new id (even null) is changed."""
    same, equal = {"n": 1}, {"n": 2}
    before = {"objects": {"s": same, "e": equal, "d": {"n": 4}, "gone": {"n": 5}}}
    after = {"objects": {"none": None, "d": {"n": 0}, "e": dict(equal), "s": same, "x": {"n": 3}}}
    on_change.trust_identity(after, before)
    assert list(on_change.changed_objects(after, before).items()) == [("none", None), ("d", {"n": 0}),
                                                                       ("x", {"n": 3})]


def test_an_entry_changed_in_place_and_given_again_is_read_as_changed():
    """CR 704.5f: a creature with toughness 0 is put into its owner's graveyard. An engine that
    changes the Bears' entry in place after a step found sound, and gives it out again, is found:
    a pair of observations no session vouched for gets no credit for the same dict."""
    session = _session()
    session.step(PUMP, Decider())
    sound = session.observation
    check = invariants.REGISTRY["sba.zero_toughness"].check
    on_change.forget_all()
    views.forget()
    first = Transition(session.observations[0], PUMP, sound, None, [], None, None)
    assert check(first) == []
    sound["objects"]["b"]["toughness"] = 0  # the engine's own entry, changed in place
    again = {**sound, "objects": dict(sound["objects"]), "log": []}
    views.forget()
    assert check(Transition(sound, {"type": "pass_priority"}, again, None, [], None, None)) == [
        "704.5f: creature b has toughness 0 and is still on the battlefield: expected it in its owner's graveyard"]


@pytest.fixture
def handed_out(monkeypatch) -> list:
    """Every observation the reference engine's game (and a fork of it) gives out, with its JSON
    text as it was given out."""
    given: list = []
    real = ReferenceGame.observe

    def observe(self):
        observation = real(self)
        given.append((observation, json.dumps(observation)))
        return observation

    monkeypatch.setattr(ReferenceGame, "observe", observe)
    return given


def _shared_entries(given: list) -> int:
    """How many entries of the observations given out are an earlier observation's entry."""
    seen: set = set()
    shared = 0
    for observation, _ in given:
        for entry in observation.get("objects", {}).values():
            shared += id(entry) in seen
            seen.add(id(entry))
    return shared


@pytest.mark.parametrize("explore", [True, False], ids=["explore", "hypothesis"])
def test_the_harness_never_changes_an_observation_of_the_reference_engine(handed_out, explore, tmp_path):
    """The harness's side of the contract: fuzzing the reference engine (step and scenario
    invariants, the replays of the scenario ones), and a fork of it against the reference
    engine in differential mode, through its finding, shrinking and replay, leaves every
    observation given out as it was given out (its JSON text), though most entries were given
    out more than once."""
    settings = {"seed": 0, "database": None, "explore": explore, "replay_dir": str(tmp_path)}
    clean = run(ReferenceAdapter(), max_examples=12, **settings)
    found = run(MUTANTS["sba_checked_once"].load(), against=ReferenceAdapter(), max_examples=25, **settings)
    changed = [text for observation, text in handed_out if json.dumps(observation) != text]
    assert changed == []
    assert clean.findings == [] and found.findings
    assert len(handed_out) > 200 and _shared_entries(handed_out) > len(handed_out)

