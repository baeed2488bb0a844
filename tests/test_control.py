"""Scenario tests: the change_control event (CR 613.1b) and what follows from whose permanent it is.

"P gains control of target permanent" with no duration: the permanent is P's from now on,
still owned by its owner (CR 108.3), removed from combat (CR 506.4), summoning sick if it
is a creature (CR 302.6). Every expected value is worked out from the rules: owners'
graveyards (CR 404.1), the controller choosing among replacement effects (CR 616.1) and
under the legend rule (704.5j), "enchant creature you control" (Penumbra Umbra, 704.5m),
Dog Umbra's and Umbra Mystic's conditions, and who controls a leaving permanent's
triggered ability (CR 603.3a).
"""

from __future__ import annotations

import pytest

from reference_engine import IllegalAction, ReferenceEngine

from .scenario_helpers import Decider, aura, board, obj

ISAMARU = "Isamaru, Hound of Konda"


def play(game, event, *answers):
    decider = Decider(*answers)
    game.apply(event, decider)
    assert decider.answers == [], f"scripted answers not used: {decider.answers}"
    return game.observe(), decider.asked


def gain(oid, controller="P2"):
    return {"type": "change_control", "object": oid, "controller": controller}


MURDER = {"type": "cast", "card": "Murder", "controller": "P1", "targets": ["bears"]}


def test_gaining_control_changes_the_controller_and_nothing_else():
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears", tapped=True, damage=1, combat="attacking",
                                                counters={"+1/+0": 1})))
    obs, asked = play(game, gain("bears"))
    bears = obs["objects"]["bears"]
    assert asked == []
    assert (bears["owner"], bears["controller"], bears["zone"]) == ("P1", "P2", "battlefield")
    assert (bears["tapped"], bears["damage"], bears["counters"]) == (True, 1, {"+1/+0": 1})
    assert bears["summoning_sick"] is True  # CR 302.6
    assert bears["combat"] is None  # CR 506.4
    assert obs["log"] == [{"kind": "control_changed", "object": "bears", "from": "P1", "to": "P2"},
                          {"kind": "removed_from_combat", "object": "bears"}]


def test_gaining_control_of_your_own_permanent_changes_nothing():
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears")))
    before = game.observe()
    obs, _ = play(game, gain("bears", "P1"))
    assert obs["objects"] == before["objects"] and obs["log"] == []


@pytest.mark.parametrize("event", [gain("gone"), gain("bears", "P3"), gain("bears", None)])
def test_illegal_control_changes_are_refused(event):
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears"), obj("gone", "Grizzly Bears",
                                                                               zone="graveyard")))
    before = game.observe()
    with pytest.raises(IllegalAction):
        game.apply(event, Decider())
    assert game.observe() == before


def test_a_stolen_creature_dies_into_its_owners_graveyard():
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears")))
    play(game, gain("bears"))
    obs, _ = play(game, MURDER)
    assert obs["zones"]["graveyard"] == {"P1": ["bears"], "P2": []}
    assert (obs["objects"]["bears"]["owner"], obs["objects"]["bears"]["controller"]) == ("P1", "P1")


def test_the_new_controller_chooses_which_umbra_aura_to_destroy():
    """CR 616.1: the affected object's controller chooses among replacement effects; after P2
    gains control of P1's Bears, P2 chooses which of its two umbra Auras is destroyed."""
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears"), aura("h", "Hyena Umbra", "bears"),
                                            aura("s", "Spider Umbra", "bears")))
    play(game, gain("bears"))
    obs, asked = play(game, MURDER, "umbra armor:s")
    assert asked == [("P2", "replacement_effect", ["umbra armor:h", "umbra armor:s"])]
    assert obs["objects"]["s"]["zone"] == "graveyard" and obs["objects"]["bears"]["zone"] == "battlefield"


def test_penumbra_umbra_falls_off_and_its_token_is_the_auras_controllers():
    """P1's Penumbra Umbra ("enchant creature you control") on P1's Bears: once P2 controls the
    Bears, the Aura is attached illegally and goes to P1's graveyard (704.5m); its ability,
    controlled by P1, makes a black token copy of the Bears for P1 (CR 603.3a, 111.2)."""
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears"), aura("pen", "Penumbra Umbra", "bears")))
    obs, _ = play(game, gain("bears"))
    assert obs["objects"]["pen"]["zone"] == "graveyard" and obs["zones"]["graveyard"]["P1"] == ["pen"]
    assert {"kind": "trigger", "source": "pen", "ability": "put into a graveyard", "controller": "P1"} in obs["log"]
    token = obs["objects"]["pen.token"]
    assert (token["name"], token["colors"], token["owner"], token["controller"], token["token"]) == (
        "Grizzly Bears", ["B"], "P1", "P1", True)
    assert obs["objects"]["bears"]["controller"] == "P2"


def test_gaining_a_second_legend_asks_the_new_controller():
    """The legend rule counts what each player controls now: P2, who controls Isamaru, gains
    control of P1's Isamaru and chooses one; the other goes to its owner's graveyard (704.5j)."""
    game = ReferenceEngine().new_game(board(obj("mine", ISAMARU, owner="P2"), obj("theirs", ISAMARU)))
    obs, asked = play(game, gain("theirs"), "mine")
    assert asked == [("P2", "legend_rule", ["mine", "theirs"])]
    assert obs["objects"]["theirs"]["zone"] == "graveyard" and obs["zones"]["graveyard"]["P1"] == ["theirs"]
    assert [e["cause"] for e in obs["log"] if e["kind"] == "zone_change"] == [
        {"event": "state_based_action", "rule": "704.5j"}]


def test_dog_umbra_loses_umbra_armor_when_another_player_gains_the_creature():
    """Dog Umbra: "As long as another player controls enchanted creature, ... Otherwise, this
    Aura has umbra armor." P1's Dog Umbra on P1's Bears; once P2 controls the Bears, Murder
    destroys them and the Aura follows by 704.5m."""
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears"), aura("dog", "Dog Umbra", "bears")))
    play(game, gain("bears"))
    obs, asked = play(game, MURDER)
    assert asked == []
    assert obs["objects"]["bears"]["zone"] == "graveyard" and obs["objects"]["dog"]["zone"] == "graveyard"
    assert obs["zones"]["graveyard"] == {"P1": ["bears", "dog"], "P2": []}


def test_umbra_mystics_grant_follows_its_new_controller():
    """Umbra Mystic: "Auras attached to permanents you control have umbra armor." P2's Dog
    Umbra on P1's Bears has umbra armor while P1 controls Umbra Mystic (ruling 2010-06-15:
    regardless of who controls the Aura); once P2 controls the Mystic, it grants umbra armor
    only to Auras on P2's permanents, not on P1's Bears, so Murder destroys them."""
    game = ReferenceEngine().new_game(board(obj("bears", "Grizzly Bears"), obj("mystic", "Umbra Mystic"),
                                            aura("dog", "Dog Umbra", "bears", owner="P2")))
    assert "umbra armor" in game.observe()["objects"]["dog"]["keywords"]
    obs, _ = play(game, gain("mystic"))
    assert "umbra armor" not in obs["objects"]["dog"]["keywords"]
    obs, _ = play(game, MURDER)
    assert obs["objects"]["bears"]["zone"] == "graveyard"


def test_a_stolen_walker_makes_thopters_for_its_new_controller():
    """Hangarback Walker with two +1/+1 counters, stolen by P2, is Murdered: it goes to P1's
    graveyard and P2, its controller as it last existed, gets two Thopters (CR 603.3a, 111.2)."""
    game = ReferenceEngine().new_game(board(obj("bears", "Hangarback Walker", counters={"+1/+1": 2})))
    play(game, gain("bears"))
    obs, _ = play(game, MURDER)
    assert obs["zones"]["graveyard"]["P1"] == ["bears"]
    thopters = [o for o in obs["objects"].values() if o["name"] == "Thopter Token"]
    assert [(t["owner"], t["controller"]) for t in thopters] == [("P2", "P2"), ("P2", "P2")]
