"""The game's reads of the battlefield and of what is attached to what (``Game.battlefield``,
``Game.attached_to``) are kept for one state version (reference_engine.layers.state_cache) and read
again after any change: each test reads, changes the state in place, and reads first again (no
other read in between renews the state's cache), failing if the first read is served. An
observation is made in the game's ``unchanging()`` block, a fork's own one included."""

from __future__ import annotations

from contextlib import contextmanager

from reference_engine.game import Game

from .scenario_helpers import aura, board, new_game, obj


def test_the_battlefield_read_first_after_a_change_is_the_changed_one():
    """A permanent put into the graveyard is on the battlefield no more (CR 400.1): Grizzly Bears
    leave, Typhoid Rats stay."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"))
    assert [o.id for o in game.battlefield()] == ["b", "r"]
    game.objects["b"].zone = "graveyard"
    assert [o.id for o in game.battlefield()] == ["r"]


def test_what_is_attached_read_first_after_a_change_is_the_changed_one():
    """An Aura attached to another object is attached to that one only (CR 303.4, 301.5): Holy
    Strength moved from Grizzly Bears to Typhoid Rats."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"), aura("hs", "Holy Strength", on="b"))
    assert [o.id for o in game.attached_to("b")] == ["hs"]
    game.objects["hs"].attached_to = "r"
    assert game.attached_to("b") == [] and [o.id for o in game.attached_to("r")] == ["hs"]


def test_a_forks_unchanging_block_is_entered_for_an_observation():
    """A fork whose ``unchanging()`` returns a block of its own (the fork API) has each observation
    made inside it: entered and left once per observation, Grizzly Bears observed 2/2."""
    calls: list[str] = []

    class Watching(Game):
        @contextmanager
        def _block(self):
            calls.append("enter")
            yield
            calls.append("exit")

        def unchanging(self):
            return self._block()

    game = Watching(board(obj("b", "Grizzly Bears")))
    entry = game.observe()["objects"]["b"]
    assert (entry["power"], entry["toughness"]) == (2, 2) and calls == ["enter", "exit"]
