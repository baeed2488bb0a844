"""What changes the reference engine's state version (``reference_engine.objects.VERSION``), by
which what is computed from the state (characteristics, CR 613; the battlefield, attachments) is
kept (``reference_engine.layers.state_cache``): every change to what characteristics read (objects,
their counters, resolved effects, players), and nothing else. Who holds priority (CR 117.3), who
passed (117.4) and the combat's record are not read by characteristics: passing priority keeps
what was computed; a board's objects are put in as one change, seen by any read after it; zone
changes of a ``simultaneous()`` block happen together however the block ends (CR 704.3); a new
object or effect changes nothing until it is put into a game, and every change to it counts after.
"""

from __future__ import annotations

import pytest

from reference_engine import Game, ReferenceEngine
from reference_engine.layers import state_cache
from reference_engine.objects import VERSION

from .scenario_helpers import Decider, aura, board, obj


def stack_game(*objects):
    return ReferenceEngine().new_game({**board(*objects), "stack": True})


def test_passing_priority_keeps_what_was_computed_from_the_state():
    """CR 117.3d: a pass gives priority to the next player; nothing characteristics read changes,
    so the state cache of the observation before the pass is the one after it."""
    game = stack_game(obj("bears", "Grizzly Bears", "P2"))
    game.apply({"type": "cast", "card": "Murder", "controller": "P1", "targets": ["bears"], "id": "m"}, Decider())
    game.observe()
    before = state_cache(game)
    game.apply({"type": "pass_priority", "player": "P1"}, Decider())
    after = game.observe()
    assert after["priority"] == {"player": "P2", "passed": ["P1"], "active_player": "P1"}
    assert state_cache(game) is before
    game.apply({"type": "pass_priority", "player": "P2"}, Decider())  # Murder resolves (CR 608.2n)
    assert game.observe()["objects"]["bears"]["zone"] == "graveyard"
    assert state_cache(game) is not before


@pytest.mark.parametrize("name, value", [("objects", {}), ("players", {}), ("effects", []),
                                         ("last_known", {}), ("mana_pools", {})])
def test_rebinding_what_the_state_is_changes_the_version(name, value):
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears")))
    before = VERSION[0]
    setattr(game, name, value)
    assert VERSION[0] > before


@pytest.mark.parametrize("name", ["priority_player", "passed", "active_player", "combat_state", "log"])
def test_rebinding_what_characteristics_never_read_keeps_the_version(name):
    game = stack_game(obj("bears", "Grizzly Bears"))
    before = VERSION[0]
    setattr(game, name, getattr(game, name))
    assert VERSION[0] == before


class _LooksWhileBuilding(Game):
    """A fork that reads the battlefield as each board object is built and as each attachment is
    checked (``seen``: what the attachments' checks saw)."""

    def _build_object(self, where, spec):
        self.battlefield()
        return super()._build_object(where, spec)

    def _build_attachment(self, where, obj, target):
        self.__dict__.setdefault("seen", []).append([o.id for o in self.battlefield()])
        super()._build_attachment(where, obj, target)


def test_the_boards_objects_are_one_change_seen_after_they_are_put_in():
    """CR 303.4a: Hyena Umbra ("Enchant creature") can enchant Grizzly Bears; a read of the
    battlefield while the objects were built (before the bears were in) is not taken for the
    board's state: the attachment's check sees every object."""
    game = _LooksWhileBuilding(board(obj("bears", "Grizzly Bears"), aura("h", "Hyena Umbra", on="bears")))
    assert game.seen == [["bears", "h"]]
    assert game.observe()["objects"]["h"]["attached_to"] == "bears"


def test_a_simultaneous_block_moves_its_objects_however_it_ends():
    """CR 704.3: the zone changes of one event happen together, at the end of the block, even one
    ended by an exception."""
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats")))
    with pytest.raises(RuntimeError):
        with game.simultaneous():
            game.move_to_graveyard(["bears"], {"event": "test"})
            with game.simultaneous():  # an inner block defers to the outer one
                game.move_to_graveyard(["rats"], {"event": "test"})
            assert game.objects["rats"].zone == "battlefield"
            raise RuntimeError
    assert game.objects["bears"].zone == game.objects["rats"].zone == "graveyard"
    assert game._deferred is None


def test_a_new_object_changes_nothing_until_put_in_then_each_change_counts():
    """A GameObject or PTEffect is built without changing the state version (its fields are set
    as those of an unwatched object), then is of its own class again: setting a field, changing
    its counters in place, changes the version and the object's stamp."""
    from reference_engine.cards import card
    from reference_engine.objects import GameObject, PTEffect

    definition, script = card("Grizzly Bears")
    before = VERSION[0]
    bears = GameObject("b", definition, script, "P1", "P1", "battlefield", 1, counters={"+1/+1": 1})
    effect = PTEffect("b", "7c", 1, 1, 2)
    assert VERSION[0] == before and type(bears) is GameObject and type(effect) is PTEffect
    assert bears._stamp < 0 and bears.counters == {"+1/+1": 1} and bears.counters.owner is bears
    bears.tapped = True
    assert VERSION[0] > before and bears._stamp == bears._seen_stamp == VERSION[0]
    bears.counters["+1/+1"] = 2
    assert bears._stamp == VERSION[0] > bears._seen_stamp
    changed = VERSION[0]
    effect.power = 3
    assert VERSION[0] > changed


def test_an_object_in_a_new_zone_is_one_change_that_others_see_only_if_they_read_it():
    """CR 400.7: reset for a zone change, a damaged creature loses its damage and counters (a new
    stamp); one that was tapped also changes what others read of it (a new ``_seen_stamp``)."""
    game = ReferenceEngine().new_game(board(obj("b", "Grizzly Bears", damage=1, counters={"+1/+1": 1}),
                                            obj("t", "Grizzly Bears", tapped=True)))
    damaged, tapped = game.objects["b"], game.objects["t"]
    seen = damaged._seen_stamp
    damaged.reset_for_zone_change()
    assert (damaged.damage, damaged.counters, damaged.counters.owner) == (0, {}, damaged)
    assert damaged._stamp == VERSION[0] and damaged._seen_stamp == seen
    tapped.reset_for_zone_change()
    assert not tapped.tapped and tapped._stamp == tapped._seen_stamp == VERSION[0]


def test_a_zone_change_records_the_object_once():
    """CR 400.7: a permanent put into its owner's graveyard is a new object there, under its owner's
    control with a new timestamp (CR 613.7d): one change recorded for it (its stamps the same),
    however many of its fields differ."""
    from reference_engine.objects import CHANGES, CHANGES_MADE

    game = ReferenceEngine().new_game(board(obj("b", "Grizzly Bears", controller="P2", tapped=True,
                                                counters={"+1/+1": 1})))
    bears = game.objects["b"]
    made, timestamp = CHANGES_MADE[0], bears.timestamp
    game.move_to_graveyard(["b"], {"event": "test"})
    assert (bears.zone, bears.controller, bears.tapped, bears.counters) == ("graveyard", "P1", False, {})
    assert bears.timestamp > timestamp and bears._stamp == bears._seen_stamp == VERSION[0]
    assert CHANGES_MADE[0] == made + 1 and CHANGES[-1] is bears

