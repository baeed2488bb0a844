"""reference_engine.game_base.GameBase, the declared shape of a Game for the type checker, matches
the engine: each method it declares is a method of Game with the same parameters, each attribute
it declares is set on a new game (or has its reason to be set later), and at run time the mixins
derive from object (Game's method resolution order is the mixins', nothing else)."""

from __future__ import annotations

import inspect

from reference_engine import Game
from reference_engine.game_base import GameBase

BOARD = {"players": [{"id": "P1"}, {"id": "P2"}],
         "objects": [{"id": "bears", "card": "Grizzly Bears", "owner": "P1"}]}

#: Attributes set only once they are needed (read with ``getattr(game, name, None)``).
SET_WHEN_NEEDED = {
    "_anthem_guard": "the objects whose anthems are being decided (Layers._anthem_applies)",
    "_activation_source": "an activated ability's source as its cost was paid (ModelAbilities.pay_cost)",
}


def declared_methods() -> dict[str, object]:
    return {name: value for name, value in vars(GameBase).items()
            if callable(value) or isinstance(value, staticmethod)}


def test_each_declared_method_is_a_method_of_game_with_the_same_parameters():
    methods = declared_methods()
    assert len(methods) > 50
    for name, declared in methods.items():
        implemented = inspect.getattr_static(Game, name)
        assert implemented is not declared, name
        assert isinstance(implemented, staticmethod) == isinstance(declared, staticmethod), name
        got = inspect.signature(getattr(Game, name)).parameters
        want = inspect.signature(getattr(GameBase, name)).parameters
        assert [(p.name, p.kind) for p in got.values()] == [(p.name, p.kind) for p in want.values()], name


def test_each_declared_attribute_is_set_on_a_new_game():
    game = Game(BOARD)
    declared = GameBase.__annotations__
    assert {"players", "objects", "stack", "combat_state"} <= set(declared)
    missing = [name for name in declared if not hasattr(game, name) and name not in SET_WHEN_NEEDED]
    assert missing == []


def test_at_run_time_the_mixins_derive_from_object():
    assert GameBase not in Game.__mro__
    for mixin in Game.__mro__[1:-1]:
        assert mixin.__bases__ == (object,), mixin
