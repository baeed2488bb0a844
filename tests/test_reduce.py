"""``harness.running.reduce.reduce_scenario`` on the tiny engine (written from scratch,
examples/engines/tiny): steps and board objects the failure doesn't need are removed, a
permanent put onto the battlefield by a step is put on the board instead when the failure
only needs it there, and the result still fails with the same finding."""

from __future__ import annotations

import invariants
from harness.running import scenario as scenario_file
from harness.connection.loading import load_engine
from harness.running.reduce import reduce_scenario

TINY = "examples/engines/tiny/engine.py"
PLAYERS = [{"id": "P1", "life": 20}, {"id": "P2", "life": 20}]


def _failing(engine, board, events, invariant):
    """The scenario of ``events`` on ``board`` as a run records it, failing ``invariant``."""
    step_invariants = invariants.select(set(engine.info.capabilities), None, "step")
    result = scenario_file.replay(engine, {"board": board, "steps": [{"event": e} for e in events]},
                                  step_invariants, keep_session=True)
    hits = [v for v in result.violations if v.invariant == invariant]
    assert hits, result.violations  # the planted bug shows
    return scenario_file.build(board, result.session.steps[: hits[0].step], hits), step_invariants


def _shock_at_a_player():
    """The tiny engine's buggy variant, a scenario of three events failing ``damage.player_loses_life``:
    a sacrifice and a damage event the failure doesn't need, then Shock at a player (the planted bug)."""
    engine = load_engine(f"{TINY}:buggy")
    board = {"players": PLAYERS, "objects": [{"id": "c0", "card": "Grizzly Bears", "owner": "P1", "controller": "P1"},
                                              {"id": "c1", "card": "Darksteel Myr", "owner": "P2", "controller": "P2"}]}
    events = [{"type": "sacrifice", "object": "c1"},
              {"type": "damage", "source": "c0", "target": "c0", "amount": 1},
              {"type": "cast", "card": "Shock", "controller": "P2", "targets": ["P1"]}]
    scenario, step_invariants = _failing(engine, board, events, "damage.player_loses_life")
    return engine, events, scenario, step_invariants


def test_steps_and_objects_the_failure_does_not_need_are_removed():
    engine, events, scenario, step_invariants = _shock_at_a_player()
    reduced = reduce_scenario(engine, scenario, step_invariants)
    assert [s["event"] for s in reduced["steps"]] == [events[2]]
    assert reduced["board"]["objects"] == []
    assert reduced["violation"]["invariant"] == "damage.player_loses_life"
    fixed = scenario_file.replay(load_engine(f"{TINY}:engine"), reduced, step_invariants)
    assert fixed.violations == []  # what is left is the bug, not something else


def test_a_permanent_a_step_puts_onto_the_battlefield_goes_on_the_board_instead():
    """Shock on a creature that entered during the scenario: the failure (damage kept in the
    graveyard, CR 400.7) needs the creature, not its entering: one event is left."""
    engine = load_engine(f"{TINY}:buggy")
    board = {"players": PLAYERS, "objects": []}
    events = [{"type": "put_onto_battlefield", "id": "n1", "card": "Grizzly Bears", "controller": "P2"},
              {"type": "cast", "card": "Shock", "controller": "P1", "targets": ["n1"]}]
    scenario, step_invariants = _failing(engine, board, events, "generic.damage_only_on_battlefield")
    reduced = reduce_scenario(engine, scenario, step_invariants)
    assert [s["event"] for s in reduced["steps"]] == [events[1]]
    assert reduced["board"]["objects"] == [{"id": "n1", "card": "Grizzly Bears", "owner": "P2", "controller": "P2"}]


def test_nothing_is_removed_when_the_budget_allows_no_replay_or_nothing_fails():
    engine = load_engine(f"{TINY}:buggy")
    board = {"players": PLAYERS, "objects": [{"id": "c1", "card": "Darksteel Myr", "owner": "P2", "controller": "P2"}]}
    events = [{"type": "sacrifice", "object": "c1"},
              {"type": "cast", "card": "Shock", "controller": "P2", "targets": ["P1"]}]
    scenario, step_invariants = _failing(engine, board, events, "damage.player_loses_life")
    assert reduce_scenario(engine, scenario, step_invariants, max_replays=0) is scenario
    fixed = load_engine(f"{TINY}:engine")  # the fixed engine: no variant fails, so none is kept
    assert reduce_scenario(fixed, scenario, step_invariants) is scenario


class _Clock:
    """A stand-in for the ``time`` module whose ``perf_counter`` moves ``step`` seconds on each reading."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


def test_the_budget_is_in_replays_not_seconds(monkeypatch):
    """However slow the machine (here each replay seems to take 20 s, twice the whole 10 s a
    reduction once had), the default reduction goes as far as its replays allow: the same
    result on any machine. ``max_seconds=None`` has no wall-clock cap at all (an hour a replay);
    a cap that is asked for (a run's ``--max-seconds`` running out) still stops it."""
    import harness.running.reduce as reduce

    engine, events, scenario, step_invariants = _shock_at_a_player()
    for step, options in ((20.0, {}), (3600.0, {"max_seconds": None})):
        monkeypatch.setattr(reduce, "time", _Clock(step))
        reduced = reduce_scenario(engine, scenario, step_invariants, **options)
        assert [s["event"] for s in reduced["steps"]] == [events[2]] and reduced["board"]["objects"] == []
    monkeypatch.setattr(reduce, "time", _Clock(20.0))
    assert reduce_scenario(engine, scenario, step_invariants, max_seconds=10) is scenario
