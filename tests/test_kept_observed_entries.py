"""Observed entries kept from one observation to the next (reference_engine.observed.observed_entries)
follow the state: each test changes one input of an entry in place between two observations and
fails if the second one serves the entry built for the first. Expected values come from the
Oracle text and the rules, not from the engine."""

from __future__ import annotations

from reference_engine import ReferenceEngine
from reference_engine.game import Game
from reference_engine.objects import PTEffect

from .scenario_helpers import Decider, aura, board, obj


def new_game(*objects):
    return ReferenceEngine().new_game(board(*objects))


def test_an_effect_replaced_by_one_with_the_same_bonus_is_observed_with_its_own_source():
    """A resolved effect giving +1/+1 until end of turn (CR 611.2, 613.4c; it ends in the cleanup
    step, CR 514.2) replaced by one giving +1/+1 that lasts from another source: Grizzly Bears
    (2/2) are 3/3 either way, so their characteristics are the same, but the observed effect on
    their power and toughness is the new one (capability observe.pt_effects)."""
    game = new_game(obj("b", "Grizzly Bears"))
    game.effects.append(PTEffect("b", "7c", 1, 1, game._tick(), True, "Giant Growth"))
    entry = game.observe()["objects"]["b"]
    assert (entry["power"], entry["toughness"]) == (3, 3)
    assert [(e["source"], e["until_end_of_turn"]) for e in entry["pt_effects"]] == [("Giant Growth", True)]
    game.effects[0] = PTEffect("b", "7c", 1, 1, game._tick(), False, "Glorious Anthem")
    entry = game.observe()["objects"]["b"]
    assert (entry["power"], entry["toughness"]) == (3, 3)
    assert [(e["source"], e["until_end_of_turn"]) for e in entry["pt_effects"]] == [("Glorious Anthem", False)]


def test_an_object_moved_in_place_is_listed_in_its_new_zone_only():
    """Each object is in one zone (CR 400.1); a card in a graveyard is in its owner's (CR 404.1):
    Grizzly Bears moved from the battlefield to the graveyard are listed in P2's graveyard, on the
    battlefield no more, and their entry says so."""
    game = new_game(obj("b", "Grizzly Bears", owner="P2"), obj("r", "Typhoid Rats"))
    zones = game.observe()["zones"]
    assert zones["battlefield"] == ["b", "r"] and zones["graveyard"] == {"P1": [], "P2": []}
    game.objects["b"].zone = "graveyard"
    observation = game.observe()
    assert observation["zones"]["battlefield"] == ["r"]
    assert observation["zones"]["graveyard"] == {"P1": [], "P2": ["b"]}
    assert observation["objects"]["b"]["zone"] == "graveyard"


class Copying(Game):
    """The reference engine's game giving out a fresh copy of each unchanged object's entry (its opt-out)."""

    shares_unchanged_entries = False


def test_an_observation_changed_by_its_caller_leaves_the_next_one_as_the_state_is():
    """What a caller does to an observation a copying game gave it is its own: Grizzly Bears ({1}{G}, Creature
    - Bear 2/2) with a +1/+1 counter (CR 122.1a) and Holy Strength (+1/+2, CR 613.4c) are a green
    4/5 with copiable values 2/2 (CR 707.2) and Holy Strength's effect, also after the caller
    changed every dict and list of their entry in the last observation."""
    game = Copying(board(obj("b", "Grizzly Bears", counters={"+1/+1": 1}), aura("s", "Holy Strength", on="b")))
    copiable = {"name": "Grizzly Bears", "mana_cost": "{1}{G}", "supertypes": [], "types": ["Creature"],
                "subtypes": ["Bear"], "colors": ["G"], "keywords": [], "power": 2, "toughness": 2}
    effects = [{"layer": "7c", "power": 1, "toughness": 2, "source": "s", "until_end_of_turn": False}]

    def check(entry):
        assert (entry["power"], entry["toughness"], entry["counters"]) == (4, 5, {"+1/+1": 1})
        assert (entry["types"], entry["subtypes"], entry["colors"], entry["keywords"]) == \
            (["Creature"], ["Bear"], ["G"], [])
        assert entry["copiable"] == copiable and entry["pt_effects"] == effects

    entry = game.observe()["objects"]["b"]
    check(entry)
    entry["counters"]["+1/+1"] = 5
    for name in ("supertypes", "types", "subtypes", "colors", "keywords"):
        entry[name].append("Changed")
        entry["copiable"][name].append("Changed")
    entry["copiable"]["name"] = "Changed"
    entry["pt_effects"][0]["power"] = 9
    entry["pt_effects"].append({})
    entry["power"] = 0
    check(game.observe()["objects"]["b"])


def test_an_unchanged_entry_is_given_again_and_a_changed_one_afresh():
    """Damage marked on Grizzly Bears (CR 120.3) is observed in a new entry, while Typhoid Rats'
    entry, unchanged, is the one given out last; the earlier observation still has no damage."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"))
    first = game.observe()
    second = game.observe()
    assert second["objects"]["r"] is first["objects"]["r"] and second["objects"]["b"] is first["objects"]["b"]
    game.objects["b"].damage = 2
    third = game.observe()
    assert third["objects"]["b"]["damage"] == 2 and first["objects"]["b"]["damage"] == 0
    assert third["objects"]["r"] is first["objects"]["r"]


def test_an_observation_is_read_only_for_its_caller():
    """The contract of the reference engine's game (``Game.shares_unchanged_entries``): what a caller
    changes in an entry it was given, it changes in the next observation of the object, unchanged
    since (the same dict). Grizzly Bears have no keyword (their Oracle text); a caller adding
    flying to an observed entry sees it in the next observation: the caller's error, which the
    harness never makes (tests/test_observation_sharing.py)."""
    game = new_game(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats"))
    first = game.observe()
    first["objects"]["b"]["keywords"].append("flying")
    assert game.observe()["objects"]["b"]["keywords"] == ["flying"]
    assert Copying(board(obj("b", "Grizzly Bears"))).observe()["objects"]["b"]["keywords"] == []


def test_an_earlier_observation_of_a_combat_stays_as_it_was():
    """Whether an attacking creature is blocked is known once blockers are declared (CR 509.1h):
    Grizzly Bears attack and are observed with ``blocked`` None, then blocked by Hill Giant; the
    first observation still says None (the combat fields are added to a copy of the entry, put in
    each observation's place: the attacker's entry is the same object, unchanged, in both)."""
    spec = board(obj("a", "Grizzly Bears"), obj("c", "Hill Giant", owner="P2"))
    spec["players"] = [{"id": p, "life": 20} for p in ("P1", "P2")]
    game = Game(spec)
    game.apply({"type": "declare_attackers", "player": "P1", "attackers": ["a"]}, Decider())
    attacking = game.observe()
    assert attacking["objects"]["a"]["blocked"] is None
    game.apply({"type": "declare_blockers", "blocks": {"c": "a"}}, Decider())
    blocked = game.observe()
    assert blocked["objects"]["a"]["blocked"] is True and blocked["objects"]["a"]["blocked_by"] == ["c"]
    assert attacking["objects"]["a"]["blocked"] is None and attacking["objects"]["a"]["blocked_by"] == []


def test_a_fork_that_changes_its_observations_shares_no_entry():
    """A fork whose observe changes an entry it returns (as a planted bug may) has each entry
    afresh: its last observation is not changed by the next, which marks 1 damage on Grizzly
    Bears that the state doesn't have."""

    class Changing(Game):
        changes = False

        def observe(self):
            observation = super().observe()
            if self.changes:
                observation["objects"]["b"]["damage"] += 1
            return observation

    game = Changing(board(obj("b", "Grizzly Bears")))
    first = game.observe()
    game.changes = True
    second = game.observe()
    assert (first["objects"]["b"]["damage"], second["objects"]["b"]["damage"]) == (0, 1)


def test_a_creature_an_entering_anthem_pumps_is_observed_anew_though_it_did_not_change():
    """Glorious Anthem ("Creatures you control get +1/+1", CR 613.4c) moved onto the battlefield
    between two observations applies to Grizzly Bears (2/2) at once (CR 611.3a): the Bears are
    observed 3/3 with the Anthem's effect, though no field of theirs changed (only the objects changed
    since the last observation and those whose characteristics may differ are looked at again)."""
    game = new_game(obj("b", "Grizzly Bears"), obj("ga", "Glorious Anthem", zone="hand"))
    entry = game.observe()["objects"]["b"]
    assert (entry["power"], entry["toughness"], entry["pt_effects"]) == (2, 2, [])
    game.objects["ga"].zone = "battlefield"
    entry = game.observe()["objects"]["b"]
    assert (entry["power"], entry["toughness"]) == (3, 3)
    assert [e["source"] for e in entry["pt_effects"]] == ["ga"]


def test_a_card_moved_to_the_end_of_the_objects_is_listed_last_in_its_zone():
    """A library is listed in the order of the game's objects (the next card drawn last moved to their
    end, as reference_engine.model_cards does): a card taken out and put back, no field of it changed,
    is listed last in its owner's library, its entry the same."""
    game = new_game(obj("l1", "Grizzly Bears", zone="library"), obj("l2", "Typhoid Rats", zone="library"))
    first = game.observe()
    assert first["zones"]["library"]["P1"] == ["l1", "l2"]
    card = game.objects["l1"]
    del game.objects["l1"]
    game.objects["l1"] = card
    observation = game.observe()
    assert observation["zones"]["library"]["P1"] == ["l2", "l1"]
    assert list(observation["objects"]) == ["l2", "l1"]
    assert observation["objects"]["l1"] is first["objects"]["l1"]


def test_a_token_made_and_gone_between_two_observations_is_in_neither():
    """A token that ceased to exist (CR 704.5d, 111.7) before the next observation is in none of its
    zones' lists nor among its objects; the others are as they were."""
    game = new_game(obj("b", "Grizzly Bears"))
    first = game.observe()
    game.new_object("t", "Grizzly Bears", "P1", token=True)
    assert game.objects["t"].zone == "battlefield"
    game.objects["t"].zone = "graveyard"
    game.cease_to_exist("t")
    observation = game.observe()
    assert list(observation["objects"]) == ["b"] and observation["zones"]["battlefield"] == ["b"]
    assert observation["zones"]["graveyard"] == {"P1": [], "P2": []}
    assert observation["objects"]["b"] is first["objects"]["b"]


def test_a_fork_observing_objects_its_own_way_has_each_entry_built_afresh():
    """A fork whose entry of an object reads what the state doesn't (its own ``_observe_object``,
    here a note it changes between observations) has every entry built in each observation: the
    second observation of an unchanged Grizzly Bears carries the new note, not the entry kept from
    the first (reference_engine.observed keeps entries only for this package's methods)."""

    class Noting(Game):
        note = "first"

        def _observe_object(self, o, ch):
            entry = super()._observe_object(o, ch)
            entry["note"] = self.note
            return entry

    game = Noting(board(obj("b", "Grizzly Bears")))
    first = game.observe()["objects"]["b"]["note"]
    object.__setattr__(game, "note", "second")  # not the game's state (no state version change)
    assert (first, game.observe()["objects"]["b"]["note"]) == ("first", "second")
