"""Steps, chance by several players and small actions: the upkeep and draw steps (CR 503, 504, 704.5b),
an edict (701.17a), put onto the battlefield tapped (110.5b), 0 damage (120.8), several players' flips
(705.2, Krark's Thumb), and the templates read with them (upkeep and draw step triggers, creature dies
triggers, life amounts read from the game, divided damage).

Expected values come from the rules and the cards' Oracle text (quoted), worked out by hand; then the
invariants on hand-made wrong steps, and the generation of each new event (counts, not time).
"""

from __future__ import annotations

import collections
import dataclasses

import pytest

from cards import reader
from cards.definitions import define
from harness import decisions as D
from harness.adapters.reference import ReferenceAdapter
from harness.running.machine import EngineMachine, rule_gates
from harness.generation.plan import Plan
from harness.protocol import Decision, Transition
from harness.running.runner import run
from invariants import REGISTRY
from reference_engine import Unsupported
from tests.observations import card as seen, observation, step
from tests.scenario_helpers import new_game, obj, play, refused


def upkeep(player="P1"):
    return {"type": "begin_step", "step": "upkeep", "player": player}


def draw_step(player="P1"):
    return {"type": "begin_step", "step": "draw", "player": player}


def put(oid, name, by="P1", **extra):
    return {"type": "put_onto_battlefield", "id": oid, "card": name, "controller": by, "attach_to": None, **extra}


def kinds(log, kind):
    return [e for e in log if e["kind"] == kind]


class Chance:
    """A decider with scripted coins, dice and choices; records (player, kind, options, answer)."""

    def __init__(self, coins=(), dice=(), answers=()):
        self.coins, self.dice, self.answers = list(coins), list(dice), list(answers)
        self.asked = []

    def flip_coin(self, player):
        self.asked.append((player, D.COIN_FLIP))
        return self.coins.pop(0)

    def roll_die(self, player, sides):
        self.asked.append((player, D.die_kind(sides)))
        return self.dice.pop(0)

    def choose(self, player, kind, options):
        answer = self.answers.pop(0)
        assert answer in options, (kind, options, answer)
        self.asked.append((player, kind, list(options), answer))
        return answer


# ============================================================================ the reader
def test_the_reader_reads_step_and_dies_triggers_in_both_templatings():
    """"At the beginning of your upkeep" / "... your draw step" abilities (CR 503.1a, 504.2) and "Whenever a
    creature dies" watchers (603.2), whether the card names itself (the 2018-2020 templating) or says
    "this creature" (today's)."""
    djinn = reader.model("Nettletooth Djinn")  # "At the beginning of your upkeep, Nettletooth Djinn deals 1 damage to you."
    [a] = djinn.of("triggered")
    assert (a.template, a.trigger, a.effects[0].action, a.effects[0].amount, a.effects[0].affected.scope) == \
        ("upkeep trigger", "upkeep", "damage", 1, "you")
    define([{"name": "Dawnwatch Oracle", "mana_cost": "{1}{W}", "type_line": "Creature — Human Cleric", "power": 1,
             "toughness": 1, "oracle_text": "At the beginning of your draw step, you gain 2 life.\n"
                                            "At the beginning of your upkeep, this creature deals 1 damage to you."}])
    oracle = reader.model("Dawnwatch Oracle")
    assert oracle.modelled and [a.trigger for a in oracle.of("triggered")] == ["draw step", "upkeep"]
    assert oracle.of("triggered")[1].effects[0].affected.scope == "you"
    burial = reader.model("Proper Burial")  # "Whenever a creature you control dies, you gain life equal to that creature's toughness."
    [a] = burial.of("triggered")
    assert (a.template, a.trigger, a.affected.filters, a.effects[0].equal_to) == \
        ("creature dies trigger", "a creature dies", ("you control",), ("toughness", "that creature"))
    shambler = reader.model("Rot Shambler")  # "Whenever another creature you control dies, put a +1/+1 counter on ~."
    assert shambler.of("triggered")[0].affected.filters == ("other", "you control")
    judith = reader.model("Judith, the Scourge Diva")  # "Whenever a nontoken creature you control dies, ..."
    assert judith.of("triggered")[0].affected.filters == ("nontoken", "you control")
    # Not read: each upkeep (the opponent's too), "it" in a watcher (the creature or the card?).
    assert not reader.model("Magmatic Force").modelled or all(
        a.trigger != "upkeep" for a in reader.model("Magmatic Force").of("triggered"))
    assert reader.parse_effects("Draw an additional card.")[0].amount == 1


def test_the_reader_reads_life_amounts_and_divided_damage():
    """Life read from the game (CR 608.2h): "for each", "equal to its power" ("its": the one target before
    it, else the card itself); damage divided as the caster chooses (601.2d)."""
    [e] = reader.model("Congregate").of("spell")[0].effects  # "Target player gains 2 life for each creature on the battlefield."
    assert (e.action, e.amount, e.affected.scope, e.per.kind, e.per.filters) == ("gain_life", 2, "target", "creature", ())
    destroy, gain = reader.model("Chastise").of("spell")[0].effects  # "Destroy target attacking creature. You gain life equal to its power."
    assert destroy.action == "destroy" and gain.equal_to == ("power", "target")
    [dies] = reader.model("Mortis Dogs").of("triggered")[1:]  # "When ~ dies, target player loses life equal to its power."
    assert dies.effects[0].equal_to == ("power", "self")
    [arc] = reader.model("Arc Lightning").of("spell")[0].effects  # "... 3 damage divided as you choose among one, two, or three targets."
    assert (arc.divided, arc.amount, arc.affected.kind, arc.affected.count) == (True, 3, "any", 3)
    assert reader.model("Arc Lightning").of("spell")[0].template == "spell: divided damage"
    [bolt] = reader.model("Forked Bolt").of("spell")[0].effects  # "among one or two targets"
    assert (bolt.amount, bolt.affected.count) == (2, 2)
    # "for each card in your hand" counts no permanent: not read.
    assert reader.parse_effects("You gain 1 life for each card in your hand.") is None


# ============================================================================ the upkeep and draw steps
def test_upkeep_triggers_only_the_active_players_abilities():
    """Nettletooth Djinn: "At the beginning of your upkeep, ~ deals 1 damage to you." Nyx-Fleece Ram: "At the
    beginning of your upkeep, you gain 1 life." Each triggers in its controller's upkeep only (CR 503.1a)."""
    game = new_game(obj("djinn", "Nettletooth Djinn"), obj("ram", "Nyx-Fleece Ram", owner="P2"))
    obs, asked = play(game, upkeep("P1"))
    assert [(e["source"], e["ability"]) for e in kinds(obs["log"], "trigger")] == [("djinn", "upkeep")]
    assert kinds(obs["log"], "damage") == [{"kind": "damage", "source": "djinn", "target": "P1", "amount": 1,
                                            "deathtouch": False}]
    assert (obs["players"]["P1"]["life"], obs["players"]["P2"]["life"], asked) == (19, 20, [])
    obs, _ = play(game, upkeep("P2"))
    assert [e["source"] for e in kinds(obs["log"], "trigger")] == ["ram"]
    assert (obs["players"]["P1"]["life"], obs["players"]["P2"]["life"]) == (19, 21)


def test_draw_step_draws_the_top_card_and_no_upkeep_ability_triggers():
    """CR 504.1: the active player draws a card (the top card: the first library card of the board, 121.1);
    the upkeep ability doesn't trigger in the draw step; in the upkeep nobody draws (503.1)."""
    game = new_game(obj("djinn", "Nettletooth Djinn"), obj("l1", "Grizzly Bears", zone="library"),
                    obj("l2", "Murder", zone="library"))
    obs, _ = play(game, upkeep())
    assert obs["zones"]["hand"]["P1"] == [] and obs["zones"]["library"]["P1"] == ["l1", "l2"]
    obs, _ = play(game, draw_step())
    assert obs["zones"]["hand"]["P1"] == ["l1"] and obs["zones"]["library"]["P1"] == ["l2"]
    assert obs["log"] == [{"kind": "zone_change", "object": "l1", "from": "library", "to": "hand",
                           "cause": {"event": "draw", "by": "draw step"}}]
    assert obs["players"]["P1"]["life"] == 19  # the upkeep's 1 damage only


def test_a_draw_from_an_empty_library_loses_the_game():
    """CR 704.5b: P2's draw step with no card in their library: P2 attempted to draw from an empty library
    and loses when state-based actions are checked; the game is over (104.3)."""
    game = new_game(obj("l1", "Grizzly Bears", zone="library"))
    obs, _ = play(game, draw_step("P2"))
    assert obs["players"]["P2"]["lost"] and not obs["players"]["P1"]["lost"]
    assert obs["log"] == [{"kind": "player_lost", "player": "P2", "rule": "704.5b"}]
    refused(game, upkeep("P1"), "game_over")


def test_a_draw_step_ability_triggers_in_the_draw_step_only():
    """A card defined for the test: "At the beginning of your draw step, you gain 2 life. / At the beginning
    of your upkeep, this creature deals 1 damage to you." (CR 504.2, 503.1a)."""
    define([{"name": "Dawnwatch Oracle", "mana_cost": "{1}{W}", "type_line": "Creature — Human Cleric", "power": 1,
             "toughness": 1, "oracle_text": "At the beginning of your draw step, you gain 2 life.\n"
                                            "At the beginning of your upkeep, this creature deals 1 damage to you."}])
    game = new_game(obj("o", "Dawnwatch Oracle"), obj("l1", "Grizzly Bears", zone="library"))
    obs, _ = play(game, upkeep())
    assert obs["players"]["P1"]["life"] == 19
    obs, _ = play(game, draw_step())
    assert [e["ability"] for e in kinds(obs["log"], "trigger")] == ["draw step"]
    assert obs["players"]["P1"]["life"] == 21 and obs["zones"]["hand"]["P1"] == ["l1"]


def test_steps_decline_what_is_not_modelled_and_refuse_bad_events():
    """A step ability that would draw from too small a library (a card effect's draw from an empty library is
    not modelled) is declined before anything changes; a step that is neither upkeep nor draw is refused."""
    game = new_game(obj("staff", "Staff of Nin"))  # "At the beginning of your upkeep, draw a card."
    before = game.observe()
    with pytest.raises(Unsupported):
        game.apply(upkeep(), None)
    assert game.observe() == before
    refused(game, {"type": "begin_step", "step": "end", "player": "P1"}, "bad_event")
    refused(game, {"type": "begin_step", "step": "upkeep", "player": "P3"}, "bad_event")


# ============================================================================ creature dies triggers
def test_proper_burial_gains_the_toughness_of_the_creature_that_died():
    """Proper Burial: "Whenever a creature you control dies, you gain life equal to that creature's toughness."
    Wrath of God destroys Grizzly Bears (2/2, P1's) and Typhoid Rats (P2's): one trigger, +2 (CR 603.10a)."""
    game = new_game(obj("pb", "Proper Burial"), obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats", owner="P2"))
    obs, _ = play(game, {"type": "cast", "card": "Wrath of God", "controller": "P2", "targets": []})
    assert [e["source"] for e in kinds(obs["log"], "trigger")] == ["pb"]
    assert obs["players"]["P1"]["life"] == 22 and obs["players"]["P2"]["life"] == 20


def test_another_creature_dies_looks_back_in_time():
    """Rot Shambler: "Whenever another creature you control dies, put a +1/+1 counter on ~." It dying alone
    doesn't trigger it ("another"); dying together with Grizzly Bears it sees the Bears die (CR 603.10a) and
    its ability does nothing to it in the graveyard; the other Shambler sees both die: two counters."""
    game = new_game(obj("rot", "Rot Shambler"), obj("bears", "Grizzly Bears"), obj("rot2", "Rot Shambler"))
    obs, asked = play(game, {"type": "destroy", "targets": ["rot", "bears"]}, "a creature dies:rot",
                      "a creature dies:rot2")  # P1 orders the three triggers (CR 603.3b)
    assert sorted(e["source"] for e in kinds(obs["log"], "trigger")) == ["rot", "rot2", "rot2"]  # rot: the Bears
    assert obs["objects"]["rot2"]["counters"] == {"+1/+1": 2} and obs["objects"]["rot"]["counters"] == {}
    obs, _ = play(game, {"type": "sacrifice", "object": "rot2"})
    assert kinds(obs["log"], "trigger") == []


def test_harbinger_upkeep_kills_and_a_zero_toughness_gain_is_no_life_gain():
    """Harbinger of Night: "At the beginning of your upkeep, put a -1/-1 counter on each creature." Typhoid Rats
    (1/1) dies (704.5f) with toughness 0, so Proper Burial gains 0 life: no life gain event (CR 119.9)."""
    game = new_game(obj("h", "Harbinger of Night"), obj("pb", "Proper Burial"), obj("rats", "Typhoid Rats"))
    obs, _ = play(game, upkeep())
    assert obs["objects"]["rats"]["zone"] == "graveyard"
    assert (obs["objects"]["h"]["power"], obs["objects"]["h"]["toughness"]) == (1, 2)
    assert [e["source"] for e in kinds(obs["log"], "trigger")] == ["h", "pb"]
    assert obs["players"]["P1"]["life"] == 20 and kinds(obs["log"], "life_gained") == []


# ============================================================================ life read from the game
def test_life_amounts_are_read_as_the_effect_resolves():
    """Congregate: "Target player gains 2 life for each creature on the battlefield." (three: +6). Chastise:
    "Destroy target attacking creature. You gain life equal to its power." (Grizzly Bears +1/+0: 3, as it
    last existed, CR 608.2h). Mortis Dogs: "When ~ dies, target player loses life equal to its power." (its
    power as it last existed, 603.10a: 4 after +2/+0)."""
    game = new_game(obj("bears", "Grizzly Bears", owner="P2"), obj("rats", "Typhoid Rats"),
                    obj("dogs", "Mortis Dogs"))
    obs, _ = play(game, {"type": "cast", "card": "Congregate", "controller": "P1", "targets": ["P2"]})
    assert obs["players"]["P2"]["life"] == 26
    play(game, {"type": "modify_pt", "object": "bears", "power": 1, "toughness": 0})
    play(game, {"type": "set_combat", "object": "bears", "status": "attacking"})
    obs, _ = play(game, {"type": "cast", "card": "Chastise", "controller": "P1", "targets": ["bears"]})
    assert obs["objects"]["bears"]["zone"] == "graveyard" and obs["players"]["P1"]["life"] == 23
    play(game, {"type": "modify_pt", "object": "dogs", "power": 2, "toughness": 0})
    obs, asked = play(game, {"type": "sacrifice", "object": "dogs"}, "P2")
    assert asked == [("P1", D.TARGET, ["P1", "P2"])] and obs["players"]["P2"]["life"] == 22


# ============================================================================ divided damage
def test_arc_lightning_divides_its_damage_as_cast():
    """Arc Lightning: "~ deals 3 damage divided as you choose among one, two, or three targets." The division
    is announced as it is cast (CR 601.2d): each target at least 1, 3 in all, in the order of the targets."""
    game = new_game(obj("bears", "Grizzly Bears", owner="P2"), obj("rats", "Typhoid Rats", owner="P2"))

    def arc(targets, division=None):
        event = {"type": "cast", "card": "Arc Lightning", "controller": "P1", "targets": targets}
        return event if division is None else {**event, "division": division}

    refused(game, arc(["bears", "P2"]), "bad_event")  # two targets: the division must be announced
    refused(game, arc(["bears", "P2"], [2, 2]), "bad_event")  # 4, not 3
    refused(game, arc(["bears", "P2"], [3, 0]), "bad_event")  # each target gets at least 1
    refused(game, arc([]), "illegal_target")
    refused(game, arc(["bears", "rats", "P2", "P1"], [1, 1, 1, 0]), "illegal_target")  # at most three
    refused(game, arc(["bears", "bears"], [2, 1]), "illegal_target")  # one target once (CR 115.3)
    refused(game, {"type": "cast", "card": "Murder", "controller": "P1", "targets": ["bears"], "division": [1]},
            "bad_event")
    obs, _ = play(game, arc(["bears", "P2"], [2, 1]))
    assert [(e["target"], e["amount"]) for e in kinds(obs["log"], "damage")] == [("bears", 2), ("P2", 1)]
    assert obs["objects"]["bears"]["zone"] == "graveyard" and obs["players"]["P2"]["life"] == 19
    obs, _ = play(game, arc(["rats"]))  # one target: all 3 to it
    assert kinds(obs["log"], "damage")[0]["amount"] == 3 and obs["objects"]["rats"]["zone"] == "graveyard"


# ============================================================================ edicts
def test_edict_the_player_chooses_which_creature():
    """"Target player sacrifices a creature" (CR 701.17a): P2, with two creatures, chooses (decider kind edict);
    P1, with one, isn't asked; a player with none sacrifices nothing. Sacrifice is not destruction: umbra
    armor doesn't save the creature, its Aura goes to the graveyard (704.5m)."""
    game = new_game(obj("bears", "Grizzly Bears", owner="P2"), obj("rats", "Typhoid Rats", owner="P2"),
                    obj("boar", "Grizzly Bears"), obj("u", "Hyena Umbra", attached_to="boar"))
    edict = {"type": "edict", "player": "P2", "filter": "creature"}
    obs, asked = play(game, edict, "rats")
    assert asked == [("P2", D.EDICT, ["bears", "rats"])]
    assert obs["objects"]["rats"]["zone"] == "graveyard" and obs["objects"]["bears"]["zone"] == "battlefield"
    assert {"kind": "zone_change", "object": "rats", "from": "battlefield", "to": "graveyard",
            "cause": {"event": "sacrifice", "by": "P2"}} in obs["log"]
    obs, asked = play(game, {**edict, "player": "P1"})
    assert asked == [] and obs["objects"]["boar"]["zone"] == "graveyard" and obs["objects"]["u"]["zone"] == "graveyard"
    play(game, edict)
    obs, asked = play(game, edict)  # no creature left: nothing
    assert asked == [] and obs["log"] == []
    refused(game, {**edict, "filter": "land"}, "bad_event")


# ============================================================================ put tapped, 0 damage
def test_put_onto_the_battlefield_tapped():
    """An effect puts Grizzly Bears onto the battlefield tapped (CR 110.5b): it enters tapped (no 'tapped'
    entry: it doesn't become tapped) and summoning sick (302.6); Nekrataal's enters ability still triggers."""
    game = new_game(obj("victim", "Grizzly Bears", owner="P2"))
    obs, _ = play(game, put("b", "Grizzly Bears", tapped=True))
    assert obs["objects"]["b"]["tapped"] and obs["objects"]["b"]["summoning_sick"] and kinds(obs["log"], "tapped") == []
    obs, _ = play(game, put("n", "Nekrataal", tapped=True), "victim")  # its target: a nonartifact, nonblack creature
    assert obs["objects"]["n"]["tapped"] and obs["objects"]["victim"]["zone"] == "graveyard"
    obs, _ = play(game, put("b2", "Grizzly Bears", tapped=False))
    assert not obs["objects"]["b2"]["tapped"]
    refused(game, put("b3", "Grizzly Bears", tapped="yes"), "bad_event")


def test_zero_damage_is_no_damage():
    """CR 120.8: a source that would deal 0 damage deals no damage: Typhoid Rats (deathtouch) destroys nothing
    (702.2b), Vampire Nighthawk (lifelink) gains nothing (702.15b); nothing is logged."""
    game = new_game(obj("rats", "Typhoid Rats"), obj("hawk", "Vampire Nighthawk"), obj("bears", "Grizzly Bears",
                                                                                        owner="P2"))
    obs, _ = play(game, {"type": "damage", "source": "rats", "target": "bears", "amount": 0})
    assert obs["objects"]["bears"]["zone"] == "battlefield" and obs["objects"]["bears"]["damage"] == 0
    assert obs["log"] == []
    obs, _ = play(game, {"type": "damage", "source": "hawk", "target": "P2", "amount": 0})
    assert (obs["players"]["P1"]["life"], obs["players"]["P2"]["life"], obs["log"]) == (20, 20, [])
    refused(game, {"type": "damage", "source": "hawk", "target": "P2", "amount": -1}, "bad_event")


# ============================================================================ several players' flips
def test_each_players_krarks_thumb_applies_to_their_own_flips():
    """"You and target opponent each flip a coin": P1's Krark's Thumb ("If you would flip a coin, instead flip
    two coins and ignore one") doubles P1's flip only (CR 614.1a, 705.2): P1 flips two and keeps one (decider
    kind coin_kept, asked of P1), P2 one. With a Thumb each, each flips two and chooses."""
    game = new_game(obj("thumb", "Krark's Thumb"))
    flip = {"type": "flip_coins", "player": "P1", "players": ["P1", "P2"], "count": 1, "calls": False}
    decider = Chance(coins=["heads", "tails", "tails"], answers=["tails"])
    game.apply(flip, decider)
    coins = [(e["player"], e["instruction"], e["result"], e["ignored"]) for e in kinds(game.observe()["log"], "coin_flip")]
    assert coins == [("P1", 1, "heads", True), ("P1", 1, "tails", False), ("P2", 1, "tails", False)]
    assert ("P1", D.COIN_KEPT, ["heads", "tails"], "tails") in decider.asked
    game.apply(put("thumb2", "Krark's Thumb", by="P2"), Chance())
    decider = Chance(coins=["heads", "heads", "tails", "heads"], answers=["heads"])
    game.apply({**flip, "player": "P2", "players": ["P2", "P1"]}, decider)
    coins = [(e["player"], e["ignored"]) for e in kinds(game.observe()["log"], "coin_flip")]
    # P2's two heads are alike: nothing to choose, the first kept; P1 keeps its second coin, heads.
    assert coins == [("P2", False), ("P2", True), ("P1", True), ("P1", False)]
    assert [a for a in decider.asked if a[1] == D.COIN_KEPT] == [("P1", D.COIN_KEPT, ["tails", "heads"], "heads")]
    refused(game, {**flip, "players": ["P2", "P1"]}, "bad_event")  # players start with player
    refused(game, {**flip, "players": ["P1", "P1"]}, "bad_event")


def test_several_players_roll_with_their_own_pixie_guides():
    """Pixie Guide: "If you would roll one or more dice, instead roll that many dice plus one and ignore the
    lowest roll." Each player rolls; only P2's roll, P2 controlling Pixie Guide, gets the extra die."""
    game = new_game(obj("pixie", "Pixie Guide", owner="P2"))
    decider = Chance(dice=[5, 2, 6])
    game.apply({"type": "roll_dice", "player": "P1", "players": ["P1", "P2"], "count": 1, "sides": 6}, decider)
    rolls = [(e["player"], e["natural"], e["ignored"]) for e in kinds(game.observe()["log"], "die_roll")]
    assert rolls == [("P1", 5, False), ("P2", 2, True), ("P2", 6, False)]


# ============================================================================ the invariants on wrong steps
def t(before, event, after, decisions=(), illegal=None):
    return Transition(before, event, after, illegal=illegal, decisions=list(decisions))


def check(name, transition):
    return REGISTRY[name].check(transition)


DJINN = seen("Nettletooth Djinn", types=["Creature"], subtypes=["Djinn"], power=4, toughness=4)
RAM = seen("Nyx-Fleece Ram", owner="P2", types=["Enchantment", "Creature"], power=0, toughness=5)


def test_step_triggers_invariant():
    before = observation({"djinn": DJINN, "ram": RAM})
    right = step(before, {}, [{"kind": "trigger", "source": "djinn", "ability": "upkeep", "controller": "P1"}])
    assert check("steps.step_triggers", t(before, upkeep(), right)) == []
    missing = step(before, {}, [])
    assert "503.1a" in check("steps.step_triggers", t(before, upkeep(), missing))[0]
    others = step(before, {}, [*right["log"], {"kind": "trigger", "source": "ram", "ability": "upkeep",
                                              "controller": "P2"}])
    assert "not by P1" in check("steps.step_triggers", t(before, upkeep(), others))[0]
    in_draw = step(before, {}, [{"kind": "trigger", "source": "djinn", "ability": "upkeep", "controller": "P1"}])
    assert "triggers at the beginning of the upkeep only" in check("steps.step_triggers",
                                                                  t(before, draw_step(), in_draw))[0]


def test_draw_and_empty_library_invariants():
    before = observation({"l1": seen("Grizzly Bears", zone="library")})
    drew = step(before, {"l1": {"zone": "hand"}})
    assert check("steps.draw_step_draws", t(before, draw_step(), drew)) == []
    assert check("steps.draw_step_draws", t(before, draw_step(), step(before, {})))  # nothing drawn
    assert check("steps.draw_step_draws", t(before, upkeep(), drew))  # a draw in the upkeep
    empty = observation({})
    lost = step(empty, {})
    lost["players"]["P1"]["lost"] = True
    assert check("steps.empty_library_loses", t(empty, draw_step(), lost)) == []
    assert "704.5b" in check("steps.empty_library_loses", t(empty, draw_step(), step(empty, {})))[0]


BEARS = seen("Grizzly Bears", owner="P2", types=["Creature"], power=2, toughness=2)
RATS = seen("Typhoid Rats", owner="P2", types=["Creature"], power=1, toughness=1, keywords=["deathtouch"])


def test_edict_invariant():
    before = observation({"bears": BEARS, "rats": RATS})
    edict = {"type": "edict", "player": "P2", "filter": "creature"}
    gone = step(before, {"rats": {"zone": "graveyard"}}, [
        {"kind": "zone_change", "object": "rats", "from": "battlefield", "to": "graveyard",
         "cause": {"event": "sacrifice", "by": "P2"}}])
    asked = Decision("P2", D.EDICT, ("bears", "rats"), "rats")
    assert check("edict.player_chooses", t(before, edict, gone, [asked])) == []
    wrong_player = Decision("P1", D.EDICT, ("bears", "rats"), "rats")
    assert "P2, the player the edict instructs, chooses" in " ".join(
        check("edict.player_chooses", t(before, edict, gone, [wrong_player])))
    assert "nobody was asked" in check("edict.player_chooses", t(before, edict, gone))[0]
    other = Decision("P2", D.EDICT, ("bears", "rats"), "bears")
    assert "chose to sacrifice bears" in " ".join(check("edict.player_chooses", t(before, edict, gone, [other])))
    assert check("edict.player_chooses", t(before, edict, step(before, {}), [asked]))  # nothing sacrificed


def test_put_tapped_and_zero_damage_invariants():
    before = observation({"rats": RATS, "bears": {**BEARS, "owner": "P1", "controller": "P1"}})
    event = put("n", "Grizzly Bears", tapped=True)
    entered = step(before, {"n": seen("Grizzly Bears", types=["Creature"], tapped=True, summoning_sick=True)})
    assert check("put_onto_battlefield.enters_tapped", t(before, event, entered)) == []
    untapped = step(before, {"n": seen("Grizzly Bears", types=["Creature"], summoning_sick=True)})
    assert "110.5b" in check("put_onto_battlefield.enters_tapped", t(before, event, untapped))[0]
    zero = {"type": "damage", "source": "rats", "target": "bears", "amount": 0}
    assert check("damage.zero_is_no_damage", t(before, zero, step(before, {}))) == []
    destroyed = step(before, {"bears": {"zone": "graveyard"}}, [
        {"kind": "damage", "source": "rats", "target": "bears", "amount": 0, "deathtouch": True}])
    found = " ".join(check("damage.zero_is_no_damage", t(before, zero, destroyed)))
    assert "deathtouch destroys nothing" in found and "the log has" in found


def test_krarks_thumb_invariant_with_several_players():
    thumb = seen("Krark's Thumb", supertypes=["Legendary"], types=["Artifact"])
    before = observation({"thumb": thumb})
    flip = {"type": "flip_coins", "player": "P1", "players": ["P1", "P2"], "count": 1, "calls": False}

    def coin(player, result, ignored):
        return {"kind": "coin_flip", "player": player, "instruction": 1, "result": result, "call": None, "won": None,
                "ignored": ignored, "replaced": None}

    right = step(before, {}, [coin("P1", "heads", True), coin("P1", "tails", False), coin("P2", "tails", False)])
    decisions = [Decision("P1", D.COIN_FLIP, ("heads", "tails"), "heads"),
                 Decision("P1", D.COIN_FLIP, ("heads", "tails"), "tails"),
                 Decision("P1", D.COIN_KEPT, ("heads", "tails"), "tails"),
                 Decision("P2", D.COIN_FLIP, ("heads", "tails"), "tails")]
    for name in ("chance.krarks_thumb", "chance.instructions_carried_out", "chance.through_the_decider"):
        assert check(name, t(before, flip, right, decisions)) == [], name
    both = step(before, {}, [coin("P1", "heads", True), coin("P1", "tails", False), coin("P2", "tails", True),
                             coin("P2", "tails", False)])
    assert "P2 controls no Krark's Thumb" in check("chance.krarks_thumb", t(before, flip, both, decisions))[0]
    only_p1 = step(before, {}, right["log"][:2])
    assert "P2's instructions [] in the log" in check("chance.instructions_carried_out",
                                                       t(before, flip, only_p1, decisions))[0]


def test_divided_damage_and_creature_dies_invariants():
    before = observation({"bears": BEARS, "rats": RATS})
    arc = {"type": "cast", "card": "Arc Lightning", "controller": "P1", "targets": ["bears", "P2"], "division": [2, 1]}
    right = step(before, {"bears": {"zone": "graveyard"}}, [
        {"kind": "damage", "source": "Arc Lightning", "target": "bears", "amount": 2, "deathtouch": False},
        {"kind": "damage", "source": "Arc Lightning", "target": "P2", "amount": 1, "deathtouch": False}],
        life={"P1": 20, "P2": 19})
    assert check("templates.divided_damage", t(before, arc, right)) == []
    evenly = step(before, {}, [
        {"kind": "damage", "source": "Arc Lightning", "target": "bears", "amount": 1, "deathtouch": False},
        {"kind": "damage", "source": "Arc Lightning", "target": "P2", "amount": 2, "deathtouch": False}])
    assert "601.2d" in check("templates.divided_damage", t(before, arc, evenly))[0]
    bad = {**arc, "division": [3, 0]}
    assert "must be refused" in check("templates.divided_damage", t(before, bad, right))[0]
    assert check("templates.divided_damage", t(before, bad, before, illegal="bad_event")) == []
    burial = seen("Proper Burial", owner="P2", types=["Enchantment"])
    before = observation({"bears": BEARS, "rats": RATS, "pb": burial})
    wrath = {"type": "cast", "card": "Wrath of God", "controller": "P1", "targets": []}
    log = [{"kind": "zone_change", "object": o, "from": "battlefield", "to": "graveyard",
            "cause": {"event": "destroy", "by": "Wrath of God"}} for o in ("bears", "rats")]
    once = [*log, {"kind": "trigger", "source": "pb", "ability": "a creature dies", "controller": "P2"}]
    after = step(before, {"bears": {"zone": "graveyard"}, "rats": {"zone": "graveyard"}}, once)
    assert "1 trigger(s) were expected" not in " ".join(check("templates.creature_dies_triggers",
                                                              t(before, wrath, after)))
    assert "2 trigger(s) were expected from it, the log shows 1" in check("templates.creature_dies_triggers",
                                                                          t(before, wrath, after))[0]
    twice = step(before, {"bears": {"zone": "graveyard"}, "rats": {"zone": "graveyard"}}, [*once, once[-1]])
    assert check("templates.creature_dies_triggers", t(before, wrath, twice)) == []


def test_life_from_the_game_invariant():
    before = observation({"bears": BEARS, "rats": RATS})
    congregate = {"type": "cast", "card": "Congregate", "controller": "P1", "targets": ["P2"]}
    assert check("templates.life_from_the_game", t(before, congregate, step(before, {}, life={"P1": 20, "P2": 24}))) == []
    assert "gives 24" in check("templates.life_from_the_game",
                               t(before, congregate, step(before, {}, life={"P1": 20, "P2": 22})))[0]


# ============================================================================ generation
class Watching:
    """Wraps an engine; counts the events of each new kind it is given."""

    def __init__(self, inner):
        self.inner, self.info, self.seen = inner, inner.info, collections.Counter()

    def new_game(self, board):
        outer, game = self, self.inner.new_game(board)

        class Game:
            def apply(self, event, decider):
                kind = event["type"]
                if kind == "begin_step":
                    kind = f"begin_step:{event['step']}"
                elif "players" in event:
                    kind += ":players"
                elif event.get("tapped"):
                    kind += ":tapped"
                elif kind == "damage" and event.get("amount") == 0:
                    kind += ":zero"
                elif kind == "cast" and "division" in event:
                    kind += ":division"
                outer.seen[kind] += 1
                return game.apply(event, decider)

            def observe(self):
                return game.observe()

        return Game()


NEW = ("begin_step:upkeep", "begin_step:draw", "edict", "put_onto_battlefield:tapped", "damage:zero",
       "flip_coins:players", "roll_dice:players")


def test_the_reference_engine_is_given_every_new_event_and_stays_clean(outside_coverage):
    engine = Watching(ReferenceAdapter())
    result = run(engine, max_examples=40, seed=2, database=None)
    assert result.violation is None, result.violation
    assert all(engine.seen[k] > 0 for k in NEW), {k: engine.seen[k] for k in NEW}


def test_an_engine_without_the_capabilities_gets_none_of_them():
    plain = ReferenceAdapter(name="reference-without")
    plain.info = dataclasses.replace(plain.info, capabilities=plain.info.capabilities - {
        "steps", "edict", "put_onto_battlefield.tapped", "damage.zero", "chance.players", "sba.empty_library"})
    gates = rule_gates(EngineMachine, Plan.for_info(plain.info))
    for name in ("begin_upkeep_or_draw", "upkeep_scene", "edict_a_creature", "put_creature_tapped", "zero_damage",
                 "several_players_flip"):
        assert gates[name] is not None, name
    engine = Watching(plain)
    assert run(engine, max_examples=15, seed=2, database=None).violation is None
    assert not any(engine.seen[k] for k in NEW), engine.seen


def test_an_engine_declaring_divided_damage_spells_casts_them_with_a_division():
    declared = ReferenceAdapter(name="reference-declared")
    declared.info = dataclasses.replace(declared.info, cards=frozenset(
        {"Arc Lightning", "Forked Bolt", "Grizzly Bears", "Typhoid Rats", "Nettletooth Djinn", "Proper Burial"}))
    assert rule_gates(EngineMachine, Plan.for_info(declared.info))["cast_divided_damage"] is None
    engine = Watching(declared)
    result = run(engine, max_examples=30, seed=4, database=None)
    assert result.violation is None, result.violation
    assert engine.seen["cast:division"] > 0 and engine.seen["begin_step:upkeep"] > 0
