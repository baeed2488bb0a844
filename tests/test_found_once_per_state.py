"""What an observation finds once per state (reference_engine.playtest's permanents with "You
have no maximum hand size", the state's characteristics read without a call) follows the state:
each test changes one input in place between two observations and fails if the second one serves
what the first found. Expected values come from the Oracle text and the rules, not the engine."""

from __future__ import annotations

from reference_engine import ReferenceEngine

from .scenario_helpers import board, obj


def hand_sizes(game) -> dict:
    return {pid: p["max_hand_size"] for pid, p in game.observe()["players"].items()}


def test_thought_vessel_changing_control_moves_no_maximum_hand_size():
    """Thought Vessel: "You have no maximum hand size" ("you" is its controller, CR 109.5; the
    maximum is otherwise seven, CR 402.2): once P2 controls it, P2 has none and P1 has seven."""
    game = ReferenceEngine().new_game(board(obj("v", "Thought Vessel"), obj("b", "Grizzly Bears", owner="P2")))
    assert hand_sizes(game) == {"P1": None, "P2": 7}
    game.objects["v"].controller = "P2"
    assert hand_sizes(game) == {"P1": 7, "P2": None}


def test_thought_vessel_leaving_the_battlefield_ends_no_maximum_hand_size():
    """A static ability applies only while its permanent is on the battlefield (CR 611.3a): with
    Thought Vessel in the graveyard P1's maximum hand size is seven again (CR 402.2)."""
    game = ReferenceEngine().new_game(board(obj("v", "Thought Vessel"), obj("b", "Grizzly Bears", owner="P2")))
    assert hand_sizes(game)["P1"] is None
    game.objects["v"].zone = "graveyard"
    assert hand_sizes(game)["P1"] == 7


def test_a_creature_whose_toughness_drops_is_observed_with_it():
    """Observing reads the state's characteristics (CR 613): Grizzly Bears (2/2) with two -1/-1
    counters put on it in place is observed as 0/0 (CR 122.1a), not as the 2/2 read before."""
    game = ReferenceEngine().new_game(board(obj("b", "Grizzly Bears")))
    assert game.observe()["objects"]["b"]["toughness"] == 2
    game.objects["b"].counters["-1/-1"] = 2
    entry = game.observe()["objects"]["b"]
    assert (entry["power"], entry["toughness"]) == (0, 0)
