"""An observation gives out again what the last one gave out for the objects unchanged since
(reference_engine.observed.observed_entries), and the whole of its entries and zones while the
state version is the same: each test changes which objects there are, their order, what another
permanent grants them, or nothing, between two observations, and fails if the second one serves
an entry or a zone's list of the first that is no longer so, or shares with it what it may change
(its dict of entries, its zones' lists). Expected values come from the Oracle text and the rules,
not from the engine."""

from __future__ import annotations

import pytest

from reference_engine import IllegalAction
from reference_engine.objects import Player

from .scenario_helpers import Decider, aura, new_game, obj


def test_a_token_that_ceased_to_exist_is_observed_no_more():
    """A token put into a graveyard ceases to exist (CR 704.5d, 111.7): after the token Grizzly
    Bears die, only Typhoid Rats and Hill Giant are observed, Typhoid Rats on the battlefield with
    the entry given out before (unchanged) and Hill Giant there too."""
    game = new_game(obj("t", "Grizzly Bears", token=True), obj("r", "Typhoid Rats"), obj("g", "Hill Giant"))
    first = game.observe()
    game.apply({"type": "destroy", "targets": ["t"]}, Decider())
    after = game.observe()
    assert list(after["objects"]) == ["r", "g"]
    assert after["zones"]["battlefield"] == ["r", "g"] and after["zones"]["graveyard"] == {"P1": [], "P2": []}
    assert after["objects"]["r"] is first["objects"]["r"]
    assert (after["objects"]["g"]["name"], after["objects"]["g"]["power"]) == ("Hill Giant", 3)


def test_a_new_permanent_is_observed_after_the_others():
    """A card put onto the battlefield (CR 110.1) is listed after the permanents already there, in
    the order of its timestamp (CR 613.7d): Grizzly Bears (2/2) join Typhoid Rats."""
    game = new_game(obj("r", "Typhoid Rats"))
    first = game.observe()
    game.apply({"type": "put_onto_battlefield", "id": "b", "card": "Grizzly Bears", "controller": "P1"}, Decider())
    after = game.observe()
    assert after["zones"]["battlefield"] == ["r", "b"] and list(after["objects"]) == ["r", "b"]
    assert (after["objects"]["b"]["name"], after["objects"]["b"]["power"]) == ("Grizzly Bears", 2)
    assert after["objects"]["r"] is first["objects"]["r"]


def test_an_anthem_entering_changes_the_entry_of_an_unchanged_creature():
    """Glorious Anthem: "Creatures you control get +1/+1." (CR 613.4c): Grizzly Bears, themselves
    unchanged, are observed 3/3 once it is on the battlefield, in an entry of their own."""
    game = new_game(obj("b", "Grizzly Bears"))
    first = game.observe()
    game.apply({"type": "put_onto_battlefield", "id": "a", "card": "Glorious Anthem", "controller": "P1"}, Decider())
    after = game.observe()
    assert (after["objects"]["b"]["power"], after["objects"]["b"]["toughness"]) == (3, 3)
    assert (first["objects"]["b"]["power"], first["objects"]["b"]["toughness"]) == (2, 2)
    assert after["zones"]["battlefield"] == ["b", "a"]


def test_umbra_mystic_entering_gives_umbra_armor_to_an_unchanged_aura():
    """Umbra Mystic: "Auras attached to permanents you control have umbra armor" (layer 6, CR
    613.1f): Holy Strength on Grizzly Bears, itself unchanged and with no power or toughness, is
    observed with umbra armor once the Mystic is on the battlefield, in an entry of its own."""
    game = new_game(obj("b", "Grizzly Bears"), aura("hs", "Holy Strength", on="b"))
    first = game.observe()
    game.apply({"type": "put_onto_battlefield", "id": "m", "card": "Umbra Mystic", "controller": "P1"}, Decider())
    after = game.observe()
    assert "umbra armor" in after["objects"]["hs"]["keywords"]
    assert "umbra armor" not in first["objects"]["hs"]["keywords"]


def test_objects_in_another_order_are_observed_in_that_order():
    """The observation lists the objects in the order of the game's objects: the same objects in
    another order (Typhoid Rats first) are observed so, in the objects and the battlefield's list."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"))
    game.observe()
    bears = game.objects.pop("b")
    game.objects["b"] = bears
    after = game.observe()
    assert list(after["objects"]) == ["r", "b"] and after["zones"]["battlefield"] == ["r", "b"]


def test_an_object_given_another_owner_is_listed_in_that_owners_zone():
    """A card in a graveyard is in its owner's graveyard (CR 404.1): Grizzly Bears in P1's graveyard,
    then owned by P2 (set in place), are listed in P2's graveyard only."""
    game = new_game(obj("b", "Grizzly Bears", zone="graveyard"), obj("r", "Typhoid Rats"))
    assert game.observe()["zones"]["graveyard"] == {"P1": ["b"], "P2": []}
    game.objects["b"].owner = "P2"
    after = game.observe()
    assert after["zones"]["graveyard"] == {"P1": [], "P2": ["b"]} and after["objects"]["b"]["owner"] == "P2"


def test_the_same_state_observed_again_is_observed_the_same_in_new_containers():
    """Nothing changes between two observations (an illegal event changes nothing): the second is
    equal to the first, each entry the very dict given out (unchanged), but its dict of entries and
    its zones' lists are its own (an observation of a combat puts copies of entries into its dict)."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats", zone="graveyard", owner="P2"))
    first = game.observe()
    with pytest.raises(IllegalAction):
        game.apply({"type": "destroy", "targets": ["nothing"]}, Decider())
    second = game.observe()
    assert second == first and second["objects"]["b"] is first["objects"]["b"]
    assert second["objects"] is not first["objects"]
    assert second["zones"]["battlefield"] is not first["zones"]["battlefield"]
    assert second["zones"]["graveyard"]["P2"] == ["r"] and second["zones"]["graveyard"]["P2"] is not \
        first["zones"]["graveyard"]["P2"]


def test_a_combat_record_dropped_without_a_change_of_state_leaves_no_combat_fields():
    """An attacking creature is observed with ``blocked`` (not yet known, CR 509.1h) while the combat
    is recorded; with the record dropped (the game's ``combat_state``, not its state: the state
    version stays the same) the next observation has no combat in progress and no ``blocked`` field
    on the entry: what the last observation of the combat put in place of the entry is not given out."""
    game = new_game(obj("a", "Grizzly Bears"), obj("c", "Hill Giant", owner="P2"))
    game.apply({"type": "declare_attackers", "player": "P1", "attackers": ["a"]}, Decider())
    for _ in range(2):  # the second observation, of the same state, gives the first one's out again
        seen = game.observe()
        assert seen["objects"]["a"]["combat"] == "attacking" and seen["objects"]["a"]["blocked"] is None
    game.combat_state = None
    after = game.observe()
    assert "combat" not in after and "blocked" not in after["objects"]["a"]
    assert after["objects"]["a"]["combat"] == "attacking"


def test_a_player_added_between_observations_gets_zone_lists():
    """Each zone but the battlefield is listed by player (CR 400.1): a third player added to the game
    (the players changed in place) while Grizzly Bears only become tapped (same objects, same
    places) has an empty list in each such zone; the lists given before are not given again."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats", zone="graveyard", owner="P2"))
    first = game.observe()
    game.players["P3"] = Player("P3")
    game.objects["b"].tapped = True
    after = game.observe()
    assert after["zones"]["graveyard"] == {"P1": [], "P2": ["r"], "P3": []}
    assert after["zones"]["hand"] == {"P1": [], "P2": [], "P3": []}
    assert after["zones"]["battlefield"] == ["b"] and after["objects"]["b"]["tapped"] is True
    assert after["zones"]["graveyard"]["P2"] is not first["zones"]["graveyard"]["P2"]
    assert after["objects"]["r"] is first["objects"]["r"]


def test_a_changed_object_in_the_same_place_is_observed_with_new_zone_lists():
    """Grizzly Bears become tapped (CR 701.26a): they stay on the battlefield, listed where they were;
    the second observation's zones equal the first's in lists of its own."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats", zone="graveyard", owner="P2"))
    first = game.observe()
    game.objects["b"].tapped = True
    after = game.observe()
    assert after["zones"] == first["zones"] and after["objects"]["b"]["tapped"] is True
    assert after["zones"]["battlefield"] is not first["zones"]["battlefield"]
    assert after["zones"]["graveyard"]["P2"] is not first["zones"]["graveyard"]["P2"]


def test_a_new_object_and_one_that_left_the_battlefield_in_one_step_are_both_listed_where_they_are():
    """Grizzly Bears die (CR 704.5g, put into their owner's graveyard) as Hill Giant enters: the Bears
    are listed in P1's graveyard, no longer on the battlefield, and the Giant on the battlefield after
    Typhoid Rats (an object put in since the last observation and one that changed zones, together)."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"))
    first = game.observe()
    game.objects["b"].damage = 2
    game.apply({"type": "put_onto_battlefield", "id": "g", "card": "Hill Giant", "controller": "P1"}, Decider())
    after = game.observe()
    assert after["zones"]["battlefield"] == ["r", "g"] and after["zones"]["graveyard"] == {"P1": ["b"], "P2": []}
    assert list(after["objects"]) == ["b", "r", "g"] and after["objects"]["r"] is first["objects"]["r"]


def test_a_new_card_in_a_graveyard_is_listed_at_the_end_of_its_owners_list():
    """A card put into P2's graveyard (CR 404.1) after one already there is listed after it, in P2's
    list only; the battlefield's list is the one given before, in a list of its own."""
    game = new_game(obj("r", "Typhoid Rats"), obj("c", "Hill Giant", zone="graveyard", owner="P2"))
    first = game.observe()
    bears = new_game(obj("n", "Grizzly Bears", zone="graveyard", owner="P2")).objects["n"]
    game.objects["n"] = bears
    after = game.observe()
    assert after["zones"]["graveyard"] == {"P1": [], "P2": ["c", "n"]} and after["zones"]["battlefield"] == ["r"]
    assert after["zones"]["battlefield"] is not first["zones"]["battlefield"]
    assert list(after["objects"]) == ["r", "c", "n"] and after["objects"]["n"]["zone"] == "graveyard"
