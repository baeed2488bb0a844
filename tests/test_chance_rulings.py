"""Scenario tests: coins and dice (CR 705, 706, 614.5, 616.1) and every Pokey ruling.

Each test is a judge-style scenario on the reference engine: a board, one event, the
answers to every question (calls, replacement effects, coins, dice), and the exact
expected log entries, triggers and life totals. Expected values come from the rulings
(``invariants/data/rulings.json``, Pokey, the Scallywagg 2024-11-08) and the cards' Oracle
texts: Krark's Thumb "If you would flip a coin, instead flip two coins and ignore one";
Pixie Guide "If you would roll one or more dice, instead roll that many dice plus one and
ignore the lowest roll"; Tavern Scoundrel "Whenever you win a coin flip, create two
Treasure tokens"; Brazen Dwarf "Whenever you roll one or more dice, this creature deals 1
damage to each opponent".
"""

from __future__ import annotations

import pytest

from harness import decisions as D
from harness.protocol import Decision, Transition
from invariants.chance import through_the_decider
from reference_engine import IllegalAction, ReferenceEngine

from .chance_cases import ChanceDecider
from .scenario_helpers import board, obj

POKEY, THUMB, PIXIE = "Pokey, the Scallywagg", "Krark's Thumb", "Pixie Guide"
SCOUNDREL, DWARF = "Tavern Scoundrel", "Brazen Dwarf"
TO_D20, TO_FLIP = "Pokey: roll a d20 instead:pk", "Pokey: flip a coin instead:pk"


def play(objects, event, *answers):
    """Apply ``event`` to a board of ``objects``; returns (observation, questions asked)."""
    game = ReferenceEngine().new_game(board(*objects))
    decider = ChanceDecider(*answers)
    game.apply(event, decider)
    assert decider.answers == [], f"scripted answers not used: {decider.answers}"
    return game.observe(), decider.asked


def flip(count=1, calls=True, player="P1"):
    return {"type": "flip_coins", "player": player, "count": count, "calls": calls}


def roll(count=1, sides=20, player="P1"):
    return {"type": "roll_dice", "player": player, "count": count, "sides": sides}


def entries(obs, kind):
    return [{k: v for k, v in e.items() if k != "kind"} for e in obs["log"] if e["kind"] == kind]


def triggers(obs):
    return [(e["source"], e["ability"]) for e in obs["log"] if e["kind"] == "trigger"]


def treasures(obs):
    return sorted(oid for oid, o in obs["objects"].items() if o["name"] == "Treasure Token")


def coin(result, call=None, won=None, ignored=False, replaced=None, instruction=1, player="P1"):
    return {"player": player, "instruction": instruction, "result": result, "call": call, "won": won,
            "ignored": ignored, "replaced": replaced}


def die(natural, result=None, sides=20, ignored=False, replaced=None, instruction=1, player="P1"):
    return {"player": player, "instruction": instruction, "sides": sides, "natural": natural,
            "result": natural if result is None else result, "ignored": ignored, "replaced": replaced}


ALL_FIVE = [obj("pk", POKEY), obj("t", THUMB), obj("g", PIXIE), obj("s", SCOUNDREL), obj("d", DWARF)]


# --------------------------------------------------------------------------- CR 705, 706
def test_a_won_flip_triggers_tavern_scoundrel_twice_treasure():
    """CR 705.2: the flipper calls; the call matches the result, so they win the flip, and
    Tavern Scoundrel's ability triggers and creates two Treasure tokens."""
    obs, asked = play([obj("s", SCOUNDREL)], flip(), "heads", "heads")
    assert [k for _, k, _ in asked] == ["coin_call", "coin_flip"]
    assert entries(obs, "coin_flip") == [coin("heads", "heads", True)]
    assert triggers(obs) == [("s", "win a coin flip")]
    assert treasures(obs) == ["s.treasure1", "s.treasure2"]
    assert obs["objects"]["s.treasure1"]["types"] == ["Artifact"]
    assert obs["objects"]["s.treasure1"]["subtypes"] == ["Treasure"]


def test_a_lost_flip_triggers_nothing():
    """CR 705.2: if the call doesn't match the result, the player loses the flip."""
    obs, _ = play([obj("s", SCOUNDREL)], flip(), "heads", "tails")
    assert entries(obs, "coin_flip") == [coin("tails", "heads", False)]
    assert triggers(obs) == [] and treasures(obs) == []


def test_a_flip_without_a_winner_has_no_call():
    """CR 705.2: an effect that cares only about heads or tails has no call; no player wins."""
    obs, asked = play([obj("s", SCOUNDREL)], flip(calls=False), "heads")
    assert [k for _, k, _ in asked] == ["coin_flip"]
    assert entries(obs, "coin_flip") == [coin("heads")]
    assert triggers(obs) == []


def test_each_coin_is_its_own_flip_and_only_the_flipper_wins():
    """CR 705.2: only the player who flips wins or loses; P2's Tavern Scoundrel ignores P1's flips."""
    obs, _ = play([obj("s", SCOUNDREL), obj("s2", SCOUNDREL, owner="P2")], flip(count=2),
                  "heads", "heads", "tails", "tails", "win a coin flip:s")
    assert entries(obs, "coin_flip") == [coin("heads", "heads", True), coin("tails", "tails", True, instruction=2)]
    assert triggers(obs) == [("s", "win a coin flip"), ("s", "win a coin flip")]
    assert treasures(obs) == ["s.treasure1", "s.treasure1-2", "s.treasure2", "s.treasure2-2"]


def test_brazen_dwarf_triggers_once_per_roll_of_several_dice():
    """Brazen Dwarf: "Whenever you roll one or more dice": one roll of three dice, one trigger,
    1 damage to each opponent. The natural result is the result (no modifier, CR 706.2)."""
    obs, asked = play([obj("d", DWARF), obj("d2", DWARF, owner="P2")], roll(count=3, sides=6), 2, 6, 1)
    assert [k for _, k, _ in asked] == ["d6", "d6", "d6"]
    assert entries(obs, "die_roll") == [die(2, sides=6), die(6, sides=6), die(1, sides=6)]
    assert triggers(obs) == [("d", "roll one or more dice")]
    assert obs["players"]["P2"]["life"] == 19 and obs["players"]["P1"]["life"] == 20


# --------------------------------------------------------------------------- Krark's Thumb
def test_krarks_thumb_flips_two_coins_and_the_ignored_one_never_happened():
    """Krark's Thumb: two coins, one ignored, chosen by its controller (kind coin_kept). The
    ignored coin never happened (CR 706.6): the player keeps the losing tails, so the
    ignored heads, which matched the call, doesn't trigger Tavern Scoundrel."""
    obs, asked = play([obj("t", THUMB), obj("s", SCOUNDREL)], flip(), "heads", "heads", "tails", "tails")
    assert asked[-1] == ("P1", "coin_kept", ["heads", "tails"])
    assert entries(obs, "coin_flip") == [coin("heads", ignored=True), coin("tails", "heads", False)]
    assert triggers(obs) == []


def test_krarks_thumb_keeping_the_winning_coin():
    obs, _ = play([obj("t", THUMB), obj("s", SCOUNDREL)], flip(), "heads", "tails", "heads", "heads")
    assert entries(obs, "coin_flip") == [coin("tails", ignored=True), coin("heads", "heads", True)]
    assert triggers(obs) == [("s", "win a coin flip")]


def test_krarks_thumb_two_equal_coins_ask_nothing():
    obs, asked = play([obj("t", THUMB)], flip(calls=False), "tails", "tails")
    assert [k for _, k, _ in asked] == ["coin_flip", "coin_flip"]
    assert entries(obs, "coin_flip") == [coin("tails"), coin("tails", ignored=True)]


def test_another_players_krarks_thumb_never_applies():
    """Krark's Thumb says "If you would flip a coin": P2's flip is one coin."""
    obs, asked = play([obj("t", THUMB)], flip(player="P2"), "tails", "heads")
    assert [k for _, k, _ in asked] == ["coin_call", "coin_flip"]
    assert entries(obs, "coin_flip") == [coin("heads", "tails", False, player="P2")]


# --------------------------------------------------------------------------- Pixie Guide
def test_pixie_guide_one_more_die_and_the_lowest_ignored():
    """Pixie Guide: roll that many dice plus one and ignore the lowest roll; Brazen Dwarf
    triggers once for the roll (the ignored die never happened, CR 706.6)."""
    obs, _ = play([obj("g", PIXIE), obj("d", DWARF)], roll(count=2, sides=6), 5, 1, 3)
    assert entries(obs, "die_roll") == [die(5, sides=6), die(1, sides=6, ignored=True), die(3, sides=6)]
    assert triggers(obs) == [("d", "roll one or more dice")]


def test_two_pixie_guides_each_apply_once():
    """CR 614.5, 616.1f: each Pixie Guide applies once to the roll: two more dice, the two lowest ignored
    (the player chooses the order, CR 616.1e)."""
    obs, asked = play([obj("g", PIXIE), obj("g2", PIXIE)], roll(count=1, sides=6), "Pixie Guide:g2", 4, 6, 4)
    assert asked[0] == ("P1", "replacement_effect", ["Pixie Guide:g", "Pixie Guide:g2"])
    assert entries(obs, "die_roll") == [die(4, sides=6, ignored=True), die(6, sides=6),
                                        die(4, sides=6, ignored=True)]
    assert [e["source"] for e in obs["log"] if e["kind"] == "replacement"] == ["g2", "g"]


def test_another_players_pixie_guide_never_applies():
    obs, asked = play([obj("g", PIXIE, owner="P2")], roll(sides=6), 3)
    assert entries(obs, "die_roll") == [die(3, sides=6)]


# --------------------------------------------------------------------------- Pokey rulings
def test_pokey_second_ability_flip_becomes_d20_roll_11_to_20_heads():
    """Pokey ruling: "you may apply Pokey's second ability as a replacement effect to roll a
    d20 instead. ... If the result of the roll is 11-20, the original spell or ability sees
    the result of the flip as heads." The call was heads: the original effect sees a win."""
    obs, asked = play([obj("pk", POKEY)], flip(), "heads", TO_D20, "none", 11)
    assert asked[1] == ("P1", "replacement_effect", [TO_D20, "none"])
    assert asked[2] == ("P1", "replacement_effect", [TO_FLIP, "none"])
    assert entries(obs, "coin_flip") == [coin("heads", "heads", True, replaced="die_roll")]
    assert entries(obs, "die_roll") == [die(11)]


def test_pokey_second_ability_1_to_10_is_tails():
    """Pokey ruling: "If the result of that roll is 1-10, the original spell or ability sees the result of the flip as tails.\""""
    obs, _ = play([obj("pk", POKEY)], flip(), "heads", TO_D20, "none", 10)
    assert entries(obs, "coin_flip") == [coin("tails", "heads", False, replaced="die_roll")]


def test_pokey_is_optional():
    """Pokey ruling: "you *may* apply": declining it leaves an ordinary flip."""
    obs, _ = play([obj("pk", POKEY)], flip(calls=False), "none", "tails")
    assert entries(obs, "coin_flip") == [coin("tails")]
    assert entries(obs, "die_roll") == []


def test_pokey_second_ability_everything_else_sees_a_d20_roll():
    """Pokey ruling: after the second ability, "you can then apply the replacement effect of
    Pixie Guide but not the replacement effect of Krark's Thumb. And after the roll, the
    ability of Brazen Dwarf would trigger, while the first ability of Tavern Scoundrel would
    not trigger." Pixie Guide: two d20s, the lowest (5) ignored; 15 is heads."""
    obs, asked = play(ALL_FIVE, flip(), "heads", TO_D20, "Pixie Guide:g", 5, 15)
    assert asked[1] == ("P1", "replacement_effect", [TO_D20, "Krark's Thumb:t"])
    assert asked[2] == ("P1", "replacement_effect", [TO_FLIP, "Pixie Guide:g"])
    assert entries(obs, "coin_flip") == [coin("heads", "heads", True, replaced="die_roll")]
    assert entries(obs, "die_roll") == [die(5, ignored=True), die(15)]
    assert triggers(obs) == [("d", "roll one or more dice")]
    assert treasures(obs) == [] and obs["players"]["P2"]["life"] == 19


def test_pokey_third_ability_d20_roll_becomes_flip_heads_is_20():
    """Pokey ruling: "you may apply Pokey's third ability as a replacement effect to flip a coin
    instead. If the coin comes up heads, the original spell or ability sees the result of the
    roll as 20." (The flip is called: see test_pokey_third_ability_everything_else_sees_a_flip.)"""
    obs, asked = play([obj("pk", POKEY)], roll(), TO_FLIP, "none", "tails", "heads")
    assert [k for _, k, _ in asked] == ["replacement_effect", "replacement_effect", "coin_call", "coin_flip"]
    assert entries(obs, "die_roll") == [die(None, 20, replaced="coin_flip")]
    assert entries(obs, "coin_flip") == [coin("heads", "tails", False)]


def test_pokey_third_ability_tails_is_1():
    """Pokey ruling: "If the coin comes up tails, the original spell or ability sees the result of the roll as 1.\""""
    obs, _ = play([obj("pk", POKEY)], roll(), TO_FLIP, "none", "heads", "tails")
    assert entries(obs, "die_roll") == [die(None, 1, replaced="coin_flip")]


def test_pokey_third_ability_everything_else_sees_a_flip():
    """Pokey ruling: after the third ability, "you can then apply the replacement effect of
    Krark's Thumb but not the replacement effect of Pixie Guide. And after the roll, the
    ability of Tavern Scoundrel would trigger, while the first ability of Brazen Dwarf would
    not trigger." Krark's Thumb: two coins, heads kept; the call heads wins the flip."""
    obs, asked = play(ALL_FIVE, roll(), TO_FLIP, "Krark's Thumb:t", "heads", "tails", "heads", "heads")
    assert asked[0] == ("P1", "replacement_effect", [TO_FLIP, "Pixie Guide:g"])
    assert asked[1] == ("P1", "replacement_effect", [TO_D20, "Krark's Thumb:t"])
    assert entries(obs, "die_roll") == [die(None, 20, replaced="coin_flip")]
    assert entries(obs, "coin_flip") == [coin("tails", ignored=True), coin("heads", "heads", True)]
    assert triggers(obs) == [("s", "win a coin flip")]
    assert treasures(obs) == ["s.treasure1", "s.treasure2"] and obs["players"]["P2"]["life"] == 20


def test_pokey_both_abilities_once_each_the_nonsense_stops_there():
    """Pokey ruling: "if you would flip a coin, you can choose to replace that flip with a d20
    roll, and you can choose to replace that d20 roll with a coin flip. (Since you can only
    apply a replacement effect to a single event once, the nonsense stops there.) In that case,
    you'd flip a coin. If it's heads, that would count as 20 for the replaced d20 roll, which
    would count as heads for the originally replaced coin flip." (CR 614.5)"""
    obs, asked = play([obj("pk", POKEY)], flip(), "tails", TO_D20, TO_FLIP, "heads")
    assert [k for _, k, _ in asked] == ["coin_call", "replacement_effect", "replacement_effect", "coin_flip"]
    assert entries(obs, "coin_flip") == [coin("heads", "tails", False, replaced="die_roll"),
                                         coin("heads", "tails", False)]
    assert entries(obs, "die_roll") == [die(None, 20, replaced="coin_flip")]


def test_pokey_both_abilities_on_a_roll():
    """The same ruling from a d20 roll: roll -> flip -> roll; the d20 shows 3, so the flip
    counts as tails, so the original roll sees 1."""
    obs, asked = play([obj("pk", POKEY), obj("d", DWARF)], roll(), TO_FLIP, TO_D20, 3)
    assert entries(obs, "die_roll") == [die(None, 1, replaced="coin_flip"), die(3)]
    assert entries(obs, "coin_flip") == [coin("tails", replaced="die_roll")]
    assert triggers(obs) == [("d", "roll one or more dice")]


def test_another_players_pokey_never_applies():
    """The rulings: "instructs *you*": P1's Pokey doesn't touch P2's flips or rolls."""
    obs, asked = play([obj("pk", POKEY)], roll(player="P2"), 7)
    assert asked == [("P2", "d20", list(range(1, 21)))]


def test_pokey_third_ability_only_on_an_instruction_to_roll_one_d20():
    """This engine's reading (reference_engine.chance): the third ability replaces an
    instruction to roll *a* d20, not one to roll several, nor a roll of another die."""
    obs, asked = play([obj("pk", POKEY)], roll(count=2), 4, 9)
    assert [k for _, k, _ in asked] == ["d20", "d20"]
    obs, asked = play([obj("pk", POKEY)], roll(sides=6), 4)
    assert [k for _, k, _ in asked] == ["d6"]


# --------------------------------------------------------------------------- bad events
@pytest.mark.parametrize("event", [
    {"type": "flip_coins", "player": "P1", "count": 0, "calls": True},
    {"type": "flip_coins", "player": "P1", "count": 1, "calls": "yes"},
    {"type": "flip_coins", "player": "P3", "count": 1, "calls": True},
    {"type": "roll_dice", "player": "P1", "count": 1, "sides": 0},
    {"type": "roll_dice", "player": "P1", "count": True, "sides": 20},
    {"type": "roll_dice", "player": None, "count": 1, "sides": 20},
])
def test_malformed_chance_events_are_refused_without_change(event):
    game = ReferenceEngine().new_game(board(obj("s", SCOUNDREL)))
    before = game.observe()
    with pytest.raises(IllegalAction) as caught:
        game.apply(event, ChanceDecider())
    assert caught.value.reason == "bad_event"
    assert game.observe() == before


def test_pokey_definition_says_where_it_came_from():
    """Pokey's Oracle text is unpublished: the engine's definition is a 1/1 creature with no
    cost, the least its rulings imply, and not published."""
    obs, _ = play([obj("pk", POKEY)], flip(calls=False), "none", "heads")
    pk = obs["objects"]["pk"]
    assert (pk["types"], pk["supertypes"], pk["power"], pk["toughness"], pk["mana_value"]) == \
        (["Creature"], [], 1, 1, 0)
    from reference_engine.cards import card

    assert card(POKEY)[0].published is False


# --------------------------------------------------------------------------- Tavern Scoundrel's ability
TAVERN_BOARD = [obj("s", SCOUNDREL), obj("f", "Forest"), obj("b", "Grizzly Bears")]


def activate_after_mana(objects, *answers):
    """Tap the Forest for {G}, then activate Tavern Scoundrel's "{1}, {T}, Sacrifice another
    permanent: Flip a coin." with ``answers``."""
    game = ReferenceEngine().new_game(board(*objects))
    game.apply({"type": "activate", "object": "f", "ability": 0}, ChanceDecider())
    decider = ChanceDecider(*answers)
    game.apply({"type": "activate", "object": "s", "ability": 0}, decider)
    assert decider.answers == []
    return game.observe(), decider.asked


def test_tavern_scoundrel_activated_flip_is_called_and_won():
    """"{1}, {T}, Sacrifice another permanent: Flip a coin.": the cost is paid (the player
    chooses the permanent to sacrifice, CR 601.2h), the flip is called (CR 705.2) and, won,
    triggers its own "Whenever you win a coin flip"."""
    obs, asked = activate_after_mana(TAVERN_BOARD, "b", "tails", "tails")
    assert asked[0] == ("P1", "sacrifice", ["f", "b"])
    assert obs["objects"]["b"]["zone"] == "graveyard" and obs["objects"]["s"]["tapped"]
    assert entries(obs, "coin_flip") == [coin("tails", "tails", True)]
    assert triggers(obs) == [("s", "win a coin flip")]
    assert treasures(obs) == ["s.treasure1", "s.treasure2"]


def test_tavern_scoundrel_activated_flip_meets_krarks_thumb():
    """Krark's Thumb applies to the flip its ability makes ("If you would flip a coin")."""
    obs, _ = activate_after_mana(TAVERN_BOARD + [obj("t", THUMB)], "b", "heads", "tails", "heads", "heads")
    assert entries(obs, "coin_flip") == [coin("tails", ignored=True), coin("heads", "heads", True)]


def test_tavern_scoundrel_needs_another_permanent_to_sacrifice():
    """A cost that can't be paid: the activation is illegal and changes nothing (CR 601.2h)."""
    game = ReferenceEngine().new_game(board(obj("s", SCOUNDREL), obj("f", "Forest")))
    game.apply({"type": "activate", "object": "f", "ability": 0}, ChanceDecider())
    game.apply({"type": "sacrifice", "object": "f"}, ChanceDecider())
    before = game.observe()
    with pytest.raises(IllegalAction) as caught:
        game.apply({"type": "activate", "object": "s", "ability": 0}, ChanceDecider())
    assert caught.value.reason == "no_sacrifice"
    assert game.observe()["objects"] == before["objects"]


def test_pixie_guides_are_counted_for_each_player_rolling():
    """``chance.pixie_guide`` counts the Pixie Guides of each player once per step: two players'
    rolls of one event, only P1 controlling a Pixie Guide, each judged with their own count."""
    from harness.protocol import Transition
    from invariants.chance import pixie_guide

    guide = {"name": PIXIE, "zone": "battlefield", "controller": "P1", "tapped": False, "supertypes": []}
    rolled = [{"kind": "die_roll", "player": "P1", "instruction": 1, "natural": 5, "result": 5, "sides": 6},
              {"kind": "die_roll", "player": "P1", "instruction": 1, "natural": 2, "result": 2, "sides": 6,
               "ignored": True},
              {"kind": "die_roll", "player": "P2", "instruction": 1, "natural": 4, "result": 4, "sides": 6}]
    event = {"type": "roll_dice", "players": ["P1", "P2"], "count": 1, "sides": 6}
    before = {"objects": {"g": guide}, "players": {}}
    assert pixie_guide(Transition(before, event, {"objects": {"g": guide}, "log": rolled})) == []
    extra = [*rolled, dict(rolled[2], natural=1, result=1, ignored=True)]  # P2 has no Pixie Guide
    assert pixie_guide(Transition(before, event, {"objects": {"g": guide}, "log": extra})) == [
        "P2 controls 0 Pixie Guide(s): instruction 1 to roll 1 d6 must roll 1 and ignore 0; rolled 2, ignored 1"]


class _NoChanceSources(ReferenceEngine.game_class):
    """A fork whose permanents have no abilities that apply to flips or rolls: its own
    ``chance_sources`` (the hook the replacement effects and the triggers are read through)."""

    def chance_sources(self, player):
        return []


def test_a_forks_chance_sources_are_the_ones_read():
    """A fork's ``chance_sources`` says which permanents' abilities apply to a player's flips (CR 705,
    614.1a): with none, Krark's Thumb flips no second coin and Tavern Scoundrel doesn't trigger on a
    won flip, although both are on the battlefield."""
    game = _NoChanceSources(board(obj("t", THUMB), obj("s", SCOUNDREL)))
    decider = ChanceDecider("heads", "heads")
    game.apply(flip(), decider)
    obs = game.observe()
    assert [k for _, k, _ in decider.asked] == ["coin_call", "coin_flip"]
    assert entries(obs, "coin_flip") == [coin("heads", "heads", True)]
    assert triggers(obs) == [] and treasures(obs) == []


def test_a_flip_or_roll_asked_is_judged_with_no_chance_in_the_log():
    """CR 705.1, 706.1a: a coin flipped or a die rolled is the decider's answer, so one asked with no flip
    or roll in the log (a refused event's, or an empty log) is a finding; other questions are no case."""
    obs = {"players": {"P1": {"life": 20, "lost": False}}, "objects": {}, "zones": {}, "log": []}
    flip = [Decision("P1", D.COIN_FLIP, ("heads", "tails"), "heads")]
    for illegal in (None, "no_such_ability"):
        assert through_the_decider(Transition(obs, {"type": "activate"}, obs, illegal, flip)) == [
            "coins in the log [] are not the decider's flips [('P1', 'heads')]"]
        roll = [Decision("P1", "d6", tuple(range(1, 7)), 4)]
        assert through_the_decider(Transition(obs, {"type": "activate"}, obs, illegal, roll)) == [
            "dice in the log [] are not the decider's rolls [('P1', 'd6', 4)]"]
        other = [Decision("P1", D.SEARCH, ("a",), "a")]
        assert through_the_decider(Transition(obs, {"type": "activate"}, obs, illegal, other)) is None
        assert through_the_decider(Transition(obs, {"type": "activate"}, obs, illegal)) is None
