"""Decline without blame: an engine raising ``Unsupported`` ends the example, is counted, never blamed."""

from __future__ import annotations

import json

import pytest

from harness.adapters.reference import ReferenceAdapter
from harness.interfaces.cli import main
from harness.protocol import EngineInfo, Unsupported
from harness.running.runner import run

from .conftest import FORKS, ROOT


class DeclinesEveryBoard:
    """Written from scratch: declares two capabilities, models nothing, declines every board."""

    info = EngineInfo("declines-every-board", "0", frozenset({"destroy", "damage"}))

    def new_game(self, board):
        kinds = sorted({o["card"] for o in board["objects"]})
        raise Unsupported(f"card:{kinds[0]}", "this engine plays no card yet")


class DeclinesEvent:
    """Wraps an engine; ``apply`` raises Unsupported for one event type (counted, never blamed)."""

    def __init__(self, inner, event_type: str):
        self.inner = inner
        self.event_type = event_type
        self.info = inner.info
        self.applied_before_decline = 0

    def new_game(self, board):
        outer, game = self, self.inner.new_game(board)

        class Game:
            def apply(self, event, decider):
                if event["type"] == outer.event_type:
                    raise Unsupported(f"event:{outer.event_type}", "not modelled")
                outer.applied_before_decline += 1
                return game.apply(event, decider)

            def observe(self):
                return game.observe()

        return Game()


def test_declines_are_counted_by_reason_and_the_steps_before_them_checked(outside_coverage):
    engine = DeclinesEvent(ReferenceAdapter(), "cleanup")
    result = run(engine, max_examples=40, seed=3, database=None)
    assert result.violation is None
    assert result.stats.declines.get("event:cleanup", 0) > 0
    assert result.stats.steps > 0 and engine.applied_before_decline > 0
    # Checked steps count: every step before a decline went through the invariants.
    assert result.stats.checked["generic.objects_conserved"] == result.stats.steps
    assert not result.stats.mostly_declined()


def test_a_decline_is_not_a_finding_and_does_not_hide_one(tmp_path, outside_coverage):
    """A fork with a planted bug that declines Wrath of God: the bug is still found, never at a declined step."""
    from harness.connection.loading import load_engine

    fork = load_engine(f"{FORKS / 'umbra_taps_creature.py'}:engine")
    engine = DeclinesEvent(fork, "set_combat")
    result = run(engine, max_examples=300, seed=1, database=None, replay_dir=tmp_path)
    assert result.violation is not None and result.violation.invariant.startswith("umbra_armor.")
    assert all(step["event"]["type"] != "set_combat" for step in result.scenario["steps"])


@pytest.mark.parametrize("explore", [[], ["--explore"]])
def test_a_run_that_declines_most_examples_exits_2_with_the_top_reasons(tmp_path, capsys, monkeypatch, explore):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "declines.py").write_text(
        "from tests.test_declines import DeclinesEveryBoard\nengine = DeclinesEveryBoard()\n")
    monkeypatch.syspath_prepend(str(ROOT))
    code = main(["run", "--engine", f"{tmp_path / 'declines.py'}:engine", "--max-examples", "20",
                 "--database", "none", "--quiet", "--replay-dir", str(tmp_path / "out"), *explore])
    captured = capsys.readouterr()
    assert code == 2, captured.out
    error = [line for line in captured.err.splitlines() if line.strip()]
    assert len(error) == 1 and "declined" in error[0] and "card:" in error[0] and "tested nothing" in error[0]
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_replay_of_a_declined_scenario_exits_2_with_the_reason(tmp_path, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    (tmp_path / "declines.py").write_text(
        "from harness.adapters.reference import ReferenceAdapter\n"
        "from tests.test_declines import DeclinesEvent\n"
        "engine = DeclinesEvent(ReferenceAdapter(), 'cast')\n")
    scenario = ROOT / "examples/scenarios/wrath_with_two_umbras.json"
    assert json.loads(scenario.read_text())["steps"][0]["event"]["type"] == "cast"
    assert main(["replay", str(scenario), "--engine", f"{tmp_path / 'declines.py'}:engine"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "declined step 1: event:cast" in err[0]


@pytest.mark.parametrize("explore", [False, True])
def test_declined_examples_do_not_count_toward_the_budget(explore):
    """README: declined examples don't count toward --max-examples; Hypothesis draws another in place
    of each. The tiny engine (written from scratch) wrapped to decline every board with Darksteel Myr."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("tiny_engine_for_declines", ROOT / "examples/engines/tiny/engine.py")
    tiny = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tiny)

    class DeclinesMyr:
        info = tiny.engine.info

        def new_game(self, board):
            if any(o["card"] == "Darksteel Myr" for o in board["objects"]):
                raise Unsupported("card:Darksteel Myr", "not this one")
            return tiny.engine.new_game(board)

    result = run(DeclinesMyr(), max_examples=30, seed=0, database=None, explore=explore)
    declined = result.stats.to_json()["declined"]["total"]
    assert result.findings == [] and declined > 0
    assert result.stats.examples - declined >= 30
