"""The generic invariants on an engine written from scratch (examples/engines/tiny).

Common bugs must be found by the generic invariants alone, with no umbra Aura on the board
and without believing the engine: a sacrifice that does nothing (CR 701.17a), deathtouch
damage ignored (704.5h), a card put into its controller's graveyard instead of its owner's
(CR 400.3, 404.1, 108.3). A non-JSON value or a malformed first observation is reported
as such at step 0, never as a determinism failure.
"""

from __future__ import annotations

import dataclasses

import pytest

from harness.adapters.reference import ReferenceAdapter
from harness.running.execution import Session
from harness.running.runner import run
from invariants import select

from .scenario_helpers import Decider, board, obj
from .test_tiny_engine import tiny

FUZZ = {"max_examples": 300, "seed": 0, "database": None, "shrink": False}


class SacrificeDoesNothing(tiny.TinyGame):
    def _sacrifice(self, event):
        self._permanent(event.get("object"))
        return lambda: None


class ControllersGraveyard(tiny.TinyGame):
    def _move(self, ids, cause):
        for oid in ids:
            self.objects[oid]["owner"] = self.objects[oid]["controller"]
        super()._move(ids, cause)


class FirstObservationNotJson(tiny.TinyGame):
    """Its first observation, otherwise well formed, holds a tuple (not JSON); later ones are plain."""

    observed = False

    def observe(self):
        obs = super().observe()
        if not self.observed:
            self.observed = True
            obs["players"]["P1"]["seen"] = ("once",)
        return obs


class LaterObservationNotJson(tiny.TinyGame):
    """After an event, a life total is the float NaN (not plain JSON data)."""

    def observe(self):
        obs = super().observe()
        if self.log:
            obs["players"]["P1"]["nan"] = float("nan")
        return obs


class FirstObservationWrongShape(tiny.TinyGame):
    def observe(self):
        obs = super().observe()
        obs["objects"] = list(obs["objects"].values())
        return obs


def engine_with(game_class, name):
    class Engine(tiny.TinyEngine):
        def new_game(self, board):
            return game_class(board, self.bugs)

    engine = Engine()
    engine.info = dataclasses.replace(engine.info, name=name)
    return engine


def session(engine, *objects) -> Session:
    return Session(engine, board(*objects), select(engine.info.capabilities))


def names(violations) -> list[str]:
    return [v.invariant for v in violations]


def test_a_sacrifice_that_does_nothing_is_found():
    """CR 701.17a: the sacrificed Bears must be in their owner's graveyard."""
    bad = session(engine_with(SacrificeDoesNothing, "tiny-sacrifice-does-nothing"), obj("bears", "Grizzly Bears"))
    found = names(bad.step({"type": "sacrifice", "object": "bears"}, Decider()))
    assert found == ["zones.sacrificed_goes_to_its_owners_graveyard"]
    good = session(tiny.engine, obj("bears", "Grizzly Bears"))
    assert good.step({"type": "sacrifice", "object": "bears"}, Decider()) == []


def test_deathtouch_ignored_is_found_by_the_zone_invariant():
    """Typhoid Rats deals 1 damage to Grizzly Bears: destroyed by 704.5h, nothing can save them."""
    event = {"type": "damage", "source": "rats", "target": "bears", "amount": 1}
    board_objects = (obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats", owner="P2"))
    found = names(session(tiny.TinyEngine(bugs={"deathtouch_ignored"}), *board_objects).step(event, Decider()))
    assert "zones.destroyed_without_replacement_leaves" in found
    assert not any(n.startswith("umbra_armor.") for n in found)
    assert session(tiny.engine, *board_objects).step(event, Decider()) == []


def test_a_card_put_into_its_controllers_graveyard_is_found():
    """P1's Bears that P2 controls are Murdered: they belong in P1's graveyard (CR 404.1); the fork
    files them under P2 and calls P2 their owner (CR 108.3: ownership never changes)."""
    murder = {"type": "cast", "card": "Murder", "controller": "P1", "targets": ["bears"]}
    stolen = obj("bears", "Grizzly Bears", owner="P1", controller="P2")
    found = names(session(engine_with(ControllersGraveyard, "tiny-controllers-graveyard"), stolen).step(
        murder, Decider()))
    assert "generic.owner_never_changes" in found and "zones.graveyard_is_the_owners" in found
    assert session(tiny.engine, stolen).step(murder, Decider()) == []


@pytest.mark.parametrize("game_class, says", [(FirstObservationNotJson, "not plain JSON"),
                                              (FirstObservationWrongShape, "objects")])
def test_a_bad_first_observation_is_a_finding_at_step_0(game_class, says):
    """The observation right after new_game is checked for shape and for plain JSON (step 0)."""
    s = session(engine_with(game_class, "tiny-bad-first-observation"), obj("bears", "Grizzly Bears"))
    assert s.broken
    assert [(v.invariant, v.step) for v in s.initial_violations] == [("generic.observation_shape", 0)]
    assert any(says in m for m in s.initial_violations[0].messages)


def test_a_non_json_value_after_an_event_is_a_json_finding():
    s = session(engine_with(LaterObservationNotJson, "tiny-nan"), obj("bears", "Grizzly Bears"))
    assert s.initial_violations == []
    found = s.step({"type": "sacrifice", "object": "bears"}, Decider())
    assert [(v.invariant, v.step) for v in found] == [("generic.json_round_trip", 1)]


class ReferenceFirstObservationNotJson:
    """A fork of the reference engine whose first observation has a tuple in it, plain afterwards."""

    def __init__(self):
        self._inner = ReferenceAdapter()
        self.info = dataclasses.replace(self._inner.info, name="fork-first-observation-not-json")

    def new_game(self, board):
        game = self._inner.new_game(board)
        first = [True]

        class Game:
            def apply(self, event, decider):
                game.apply(event, decider)

            def observe(self):
                obs = game.observe()
                if first[0]:
                    first[0] = False
                    obs["players"] = {p: {**v, "seen": ("once",)} for p, v in obs["players"].items()}
                return obs

        return Game()


def test_a_run_reports_a_non_json_first_observation_at_step_0_not_as_determinism():
    """Before, such an engine was reported as "generic.determinism at step 0" with an empty scenario."""
    result = run(ReferenceFirstObservationNotJson(), **FUZZ)
    assert result.violation is not None
    assert (result.violation.invariant, result.violation.step) == ("generic.observation_shape", 0)
