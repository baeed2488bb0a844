"""Scenario tests: every ruling of Orb of Origin's rulings page (2024-11-08).

Judge-style scenarios on the reference engine: a board, events, the answers to every
question, and the expected state. Expected values come from the rulings
(``invariants/data/rulings.json``, card "Orb of Origin"; the seed page
``003-orb-of-origin-playtest-supertypes``) and the cards' Oracle texts: Thought Vessel
"You have no maximum hand size. {T}: Add {C}."; Sword of the Meek "Equipped creature gets
+1/+2. Equip {2}"; a player's maximum hand size is normally seven (CR 402.2). Each
scenario's steps are also checked by the invariant that encodes its ruling, and the
invariants are shown to catch the wrong answer.

Two rulings of the page are not rules of a game: "Playtest cards aren't legal for play in
any tournament format ..." (deck and tournament legality; rulesfuzz plays no deck) and
"For many playtest cards, you'll need to make a generous assumption that basic game rules
would be updated ..." (how to read the others). They have no scenario; every other ruling
has one below.
"""

from __future__ import annotations

import copy

import pytest

from harness.protocol import Transition
from invariants import REGISTRY
from reference_engine import IllegalAction, ReferenceEngine

from .scenario_helpers import Decider, board, obj

ORB, VESSEL, SWORD = "Orb of Origin", "Thought Vessel", "Sword of the Meek"


class Game:
    """A reference game whose every step is checked by the invariants named in ``check``."""

    def __init__(self, *objects, check=()):
        self.game = ReferenceEngine().new_game(board(*objects))
        self.obs = self.game.observe()
        self.check = check

    def step(self, event, *answers):
        before = self.obs
        decider = Decider(*answers)
        try:
            self.game.apply(event, decider)
        except IllegalAction as exc:
            after, illegal = before, exc.reason
        else:
            after, illegal = self.game.observe(), None
        assert decider.answers == [], f"scripted answers not used: {decider.answers}"
        t = Transition(before, event, after, illegal)
        for name in self.check:
            assert not REGISTRY[name].check(t), (name, REGISTRY[name].check(t))
        self.obs = after
        return illegal

    def o(self, oid):
        return self.obs["objects"][oid]


def activate(oid, ability=0):
    return {"type": "activate", "object": oid, "ability": ability}


def violations(name, before, event, after, illegal=None):
    return REGISTRY[name].check(Transition(before, event, after, illegal))


def cost(g, oid):
    return next(e["cost"] for e in g.obs["log"] if e["kind"] == "activated" and e["object"] == oid)


# ----------------------------------------------------------------- Orb's last ability
def test_orb_grants_mono_and_continuous_to_other_noncreature_artifacts():
    """"Orb of Origin's last ability applies only while it's on the battlefield. It grants the mono
    and continuous supertypes to other noncreature artifacts on the battlefield." Thought Vessel,
    Sword of the Meek and Krark's Thumb (legendary) get them, whoever controls them; Darksteel Myr
    (an artifact creature), a Forest and the Orb itself don't; the Orb is poly."""
    g = Game(obj("orb", ORB), obj("v", VESSEL, owner="P2"), obj("s", SWORD), obj("k", "Krark's Thumb"),
             obj("myr", "Darksteel Myr"), obj("f", "Forest"), check=("playtest.supertypes",))
    assert g.o("orb")["supertypes"] == ["Poly"]
    assert g.o("v")["supertypes"] == ["Mono", "Continuous"]
    assert g.o("s")["supertypes"] == ["Mono", "Continuous"]
    assert g.o("k")["supertypes"] == ["Legendary", "Mono", "Continuous"]
    assert g.o("myr")["supertypes"] == [] and g.o("f")["supertypes"] == ["Basic"]


def test_orb_grants_only_while_on_the_battlefield():
    """The grant stops when the Orb leaves, and an Orb in a graveyard or hand grants nothing."""
    g = Game(obj("orb", ORB), obj("v", VESSEL), obj("orb2", ORB, zone="hand"), check=("playtest.supertypes",))
    assert g.o("v")["supertypes"] == ["Mono", "Continuous"]
    g.step({"type": "destroy", "targets": ["orb"], "cant_be_regenerated": False})
    assert g.o("orb")["zone"] == "graveyard"
    assert g.o("v")["supertypes"] == [] and g.o("orb")["supertypes"] == ["Poly"]
    g.step({"type": "put_onto_battlefield", "id": "orb3", "card": ORB, "controller": "P2", "attach_to": None})
    assert g.o("v")["supertypes"] == ["Mono", "Continuous"]


def test_several_orbs_make_each_other_mono_and_continuous_and_nothing_more():
    """"Having multiple Orb of Origins on the battlefield will have no additional effect on
    artifacts on the battlefield except that the Orb of Origins will also make each other mono
    and continuous." Thought Vessel is mono and continuous once, its {T} ability still costs one
    {T}; each Orb is poly, mono and continuous, also while tapped."""
    g = Game(obj("a", ORB), obj("b", ORB, tapped=True), obj("c", ORB, owner="P2"), obj("v", VESSEL),
             check=("playtest.supertypes", "playtest.mono_additional_tap", "playtest.max_hand_size"))
    for orb in "abc":
        assert g.o(orb)["supertypes"] == ["Poly", "Mono", "Continuous"]
    assert g.o("v")["supertypes"] == ["Mono", "Continuous"]
    g.step(activate("v"))
    assert cost(g, "v") == {"mana": "", "tap": True, "untap": False, "other": []}
    assert [e for e in g.obs["log"] if e["kind"] == "tapped"] == [{"kind": "tapped", "object": "v", "cause": "cost"}]
    assert g.obs["players"]["P1"]["mana_pool"]["C"] == 1


def test_supertypes_invariant_catches_a_grant_to_a_creature_or_a_missing_one():
    g = Game(obj("orb", ORB), obj("v", VESSEL), obj("myr", "Darksteel Myr"))
    before = g.obs
    wrong = copy.deepcopy(before)
    wrong["objects"]["myr"]["supertypes"] = ["Mono", "Continuous"]
    assert violations("playtest.supertypes", before, {"type": "pass_step"}, wrong)
    wrong = copy.deepcopy(before)
    wrong["objects"]["v"]["supertypes"] = []
    assert violations("playtest.supertypes", before, {"type": "pass_step"}, wrong)


# ----------------------------------------------------------------- mono
def test_mono_adds_a_tap_to_an_ability_without_one():
    """"To activate an ability of a permanent with the mono supertype, if that ability's activation
    cost doesn't already include {T}, activating that ability costs an additional {T} to
    activate." Sword of the Meek's "Equip {2}" costs {2} and {T}: the Sword ends tapped, two mana
    spent; once tapped it can't be equipped again."""
    g = Game(obj("orb", ORB), obj("s", SWORD), obj("bears", "Grizzly Bears"), obj("f1", "Forest"),
             obj("f2", "Forest"), obj("f3", "Forest"), obj("f4", "Forest"),
             check=("playtest.mono_additional_tap", "playtest.continuous_no_abilities", "playtest.equipment"))
    for f in ("f1", "f2"):
        g.step(activate(f))
    g.step(activate("s"))
    assert cost(g, "s") == {"mana": "{2}", "tap": True, "untap": False, "other": []}
    assert g.o("s")["tapped"] and g.o("s")["attached_to"] == "bears"
    assert g.obs["players"]["P1"]["mana_pool"]["G"] == 0
    for f in ("f3", "f4"):
        g.step(activate(f))
    assert g.step(activate("s")) is not None  # tapped: the additional {T} can't be paid
    assert g.obs["players"]["P1"]["mana_pool"]["G"] == 2


def test_without_an_orb_equip_costs_no_tap():
    """Sword of the Meek alone: "Equip {2}" costs only {2}; the Sword stays untapped."""
    g = Game(obj("s", SWORD), obj("bears", "Grizzly Bears"), obj("f1", "Forest"), obj("f2", "Forest"))
    for f in ("f1", "f2"):
        g.step(activate(f))
    g.step(activate("s"))
    assert cost(g, "s")["tap"] is False and not g.o("s")["tapped"]
    assert (g.o("bears")["power"], g.o("bears")["toughness"]) == (3, 4)


def test_mono_invariant_catches_a_second_tap_and_a_missing_one():
    g = Game(obj("orb", ORB), obj("v", VESSEL), obj("s", SWORD), obj("bears", "Grizzly Bears"))
    before = g.obs
    # A second {T} on "{T}: Add {C}" can't be paid: the untapped Vessel refused as already tapped.
    assert violations("playtest.mono_additional_tap", before, activate("v"), before, "already_tapped")
    # The Sword's equip paid without {T}.
    after = copy.deepcopy(before)
    after["log"] = [{"kind": "activated", "object": "s", "ability": 0, "player": "P1",
                     "cost": {"mana": "{2}", "tap": False, "untap": False, "other": []}, "mana_ability": False}]
    assert violations("playtest.mono_additional_tap", before, activate("s"), after)


# ----------------------------------------------------------------- playtest symbols
def test_playtest_symbols_are_the_standard_ones():
    """"Playtest cards use a modified version of game symbols, such as {T} and {W}. These modified
    symbols should be treated as the standard symbols during play." Mono's {T} is the {T} of CR
    107.5: paying it taps the permanent (logged like any {T} paid as a cost), and with two Orbs
    a tapped Orb can't pay it again."""
    g = Game(obj("a", ORB), obj("b", ORB), check=("playtest.mono_additional_tap", "playtest.poly_first_ability",
                                                   "playtest.continuous_no_abilities"))
    g.step(activate("a"))
    assert [e for e in g.obs["log"] if e["kind"] == "tapped"] == [{"kind": "tapped", "object": "a", "cause": "cost"}]
    assert g.step(activate("a")) is not None


# ----------------------------------------------------------------- poly
def test_poly_first_ability_costs_no_tap_with_one_orb():
    """"The poly supertype means Orb of Origin's first ability doesn't cost {T} to activate
    (unless another Orb of Origin is also on the battlefield)." Alone, activating it taps
    nothing, even twice, even while the Orb is tapped."""
    g = Game(obj("orb", ORB), obj("t", ORB, owner="P2", zone="graveyard"),
             check=("playtest.poly_first_ability", "playtest.supertypes"))
    g.step(activate("orb"))
    assert cost(g, "orb")["tap"] is False and not g.o("orb")["tapped"]
    assert g.step(activate("orb")) is None
    g = Game(obj("orb", ORB, tapped=True), check=("playtest.poly_first_ability",))
    assert g.step(activate("orb")) is None and g.o("orb")["tapped"]


def test_poly_first_ability_costs_tap_with_another_orb():
    """With another Orb on the battlefield the Orb is mono: its first ability costs {T}."""
    g = Game(obj("orb", ORB), obj("other", ORB, owner="P2"),
             check=("playtest.poly_first_ability", "playtest.mono_additional_tap"))
    g.step(activate("orb"))
    assert cost(g, "orb")["tap"] is True and g.o("orb")["tapped"]


def test_poly_invariant_catches_a_tap_with_one_orb():
    g = Game(obj("orb", ORB))
    before = g.obs
    after = copy.deepcopy(before)
    after["objects"]["orb"]["tapped"] = True
    after["log"] = [{"kind": "tapped", "object": "orb", "cause": "cost"}]
    assert violations("playtest.poly_first_ability", before, activate("orb"), after)


# ----------------------------------------------------------------- continuous
def test_continuous_permanent_has_no_abilities_while_tapped():
    """"A permanent with the continuous supertype has no abilities as long as it's tapped."
    A tapped Fellwar Stone under an Orb has no mana ability to activate; untapped it has it;
    a tapped Krark's Thumb doesn't replace its controller's flip (one coin, none ignored)."""
    g = Game(obj("orb", ORB), obj("fs", "Fellwar Stone", tapped=True), obj("fs2", "Fellwar Stone"),
             obj("k", "Krark's Thumb", tapped=True), obj("island", "Island", owner="P2"),
             check=("playtest.continuous_no_abilities",))
    assert g.step(activate("fs")) == "no_such_ability"
    assert g.step(activate("fs2")) is None and g.obs["players"]["P1"]["mana_pool"]["U"] == 1
    game = g.game

    class Coins(Decider):
        def flip_coin(self, player):
            return "heads"

    game.apply({"type": "flip_coins", "player": "P1", "count": 1, "calls": False}, Coins())
    assert [e["ignored"] for e in game.observe()["log"] if e["kind"] == "coin_flip"] == [False]


def test_continuous_invariant_catches_abilities_while_tapped_and_none_while_untapped():
    g = Game(obj("orb", ORB), obj("fs", "Fellwar Stone", tapped=True), obj("fs2", "Fellwar Stone"))
    before = g.obs
    assert violations("playtest.continuous_no_abilities", before, activate("fs"), before)  # performed
    assert violations("playtest.continuous_no_abilities", before, activate("fs2"), before, "no_such_ability")


# ----------------------------------------------------------------- the rulings' examples
def test_thought_vessel_tapped_for_mana_loses_no_maximum_hand_size():
    """"... if you activate Thought Vessel's "{T}: Add {C}" ability, it'll lose its "You have no
    maximum hand size" ability as long as it remains tapped." P1 has no maximum hand size, then
    seven while the Vessel is tapped, then none again once it untaps (CR 402.2). Without an Orb
    a tapped Vessel keeps it."""
    g = Game(obj("orb", ORB, owner="P2"), obj("v", VESSEL), check=("playtest.max_hand_size",))
    assert g.obs["players"]["P1"]["max_hand_size"] is None and g.obs["players"]["P2"]["max_hand_size"] == 7
    g.step(activate("v"))
    assert g.obs["players"]["P1"]["mana_pool"]["C"] == 1 and g.o("v")["tapped"]
    assert g.obs["players"]["P1"]["max_hand_size"] == 7
    g.step({"type": "begin_turn", "player": "P1"})
    assert g.obs["players"]["P1"]["max_hand_size"] is None
    g = Game(obj("v", VESSEL, tapped=True), check=("playtest.max_hand_size",))
    assert g.obs["players"]["P1"]["max_hand_size"] is None


def test_max_hand_size_invariant_catches_a_tapped_vessel_keeping_it():
    g = Game(obj("orb", ORB), obj("v", VESSEL, tapped=True))
    wrong = copy.deepcopy(g.obs)
    wrong["players"]["P1"]["max_hand_size"] = None
    assert violations("playtest.max_hand_size", g.obs, {"type": "pass_step"}, wrong)


def test_sword_of_the_meek_equipped_with_an_orb_loses_its_bonus():
    """"... activating Sword of the Meek's equip ability (which costs an additional {T} while Orb
    of Origin is on the battlefield) will cause it to lose "Equipped creature gets +1/+2" as long
    as it remains tapped." Grizzly Bears (2/2) equipped: 2/2 while the Sword is tapped, 3/4
    (+1/+2, layer 7c) once it untaps in its controller's untap step."""
    g = Game(obj("orb", ORB), obj("s", SWORD), obj("bears", "Grizzly Bears"), obj("f1", "Forest"),
             obj("f2", "Forest"),
             check=("playtest.continuous_no_abilities", "playtest.equipment", "playtest.mono_additional_tap"))
    for f in ("f1", "f2"):
        g.step(activate(f))
    g.step(activate("s"))
    assert g.o("s")["attached_to"] == "bears" and g.o("s")["tapped"]
    assert (g.o("bears")["power"], g.o("bears")["toughness"]) == (2, 2)
    g.step({"type": "begin_turn", "player": "P1"})
    assert (g.o("bears")["power"], g.o("bears")["toughness"]) == (3, 4)
    assert g.o("bears")["pt_effects"] == [{"layer": "7c", "power": 1, "toughness": 2, "source": "s",
                                           "until_end_of_turn": False}]


def test_equipment_unattached_when_its_creature_dies():
    """CR 704.5n: the Sword stays on the battlefield, unattached, when the creature it equips dies."""
    g = Game(obj("s", SWORD, attached_to="bears"), obj("bears", "Grizzly Bears"), check=("playtest.equipment",))
    assert (g.o("bears")["power"], g.o("bears")["toughness"]) == (3, 4)
    g.step({"type": "destroy", "targets": ["bears"], "cant_be_regenerated": False})
    assert g.o("s")["zone"] == "battlefield" and g.o("s")["attached_to"] is None


# ----------------------------------------------------------------- the mana rulings of the page
def test_undefined_type_produces_no_mana():
    """"If an ability would produce one or more mana of an undefined type, it produces no mana
    instead." Fellwar Stone (mono under an Orb: its {T} ability costs no second {T}) with no
    land of an opponent: tapping it adds nothing."""
    g = Game(obj("orb", ORB), obj("fs", "Fellwar Stone"), check=("mana.undefined_type_produces_nothing",
                                                                 "playtest.mono_additional_tap"))
    assert g.step(activate("fs")) is None
    assert g.o("fs")["tapped"] and sum(g.obs["players"]["P1"]["mana_pool"].values()) == 0


def test_could_produce_ignores_costs():
    """"The type of mana a permanent could produce at any time includes any type of mana that an
    ability of that permanent would produce ... Ignore whether any costs of the ability could or
    could not be paid." A tapped Forest could produce {G}: Reflecting Pool adds {G}."""
    g = Game(obj("pool", "Reflecting Pool"), obj("f", "Forest", tapped=True), check=("mana.types",))
    g.step(activate("pool"))
    assert g.obs["players"]["P1"]["mana_pool"]["G"] == 1


def test_tap_for_mana_and_its_replacement_effect():
    """"To "tap [a permanent] for mana" is to activate a mana ability of that permanent that
    includes the {T} symbol in its activation cost" and "A replacement effect that applies if a
    permanent "is tapped for mana" ... modifies the mana production event": Thought Vessel's
    "{T}: Add {C}" under an Orb is tapped for mana, so Mana Reflection doubles it: {C}{C}."""
    g = Game(obj("orb", ORB), obj("v", VESSEL), obj("mr", "Mana Reflection"), check=("mana.amount",))
    g.step(activate("v"))
    assert g.obs["players"]["P1"]["mana_pool"]["C"] == 2


def test_tapped_for_mana_trigger():
    """"An ability that triggers whenever a permanent "is tapped for mana" ... triggers whenever
    such a mana ability resolves and produces mana": Heartbeat of Spring adds one more {G} for a
    Forest tapped for {G}."""
    g = Game(obj("f", "Forest"), obj("h", "Heartbeat of Spring"), check=("mana.tapped_for_mana_triggers",))
    g.step(activate("f"))
    assert g.obs["players"]["P1"]["mana_pool"]["G"] == 2


def test_x_of_the_spell_for_enters_abilities():
    """"If an object's enters-the-battlefield triggered ability or replacement effect refers to X,
    and the spell that became that object as it resolved had a value of X ..., the value of X for
    that ability is the same as the value of X for that spell, although the value of X for that
    permanent is 0." Hangarback Walker cast with X = 2 enters with two +1/+1 counters, mana value 0
    ({X}{X}); an artifact creature, it is not made mono by the Orb."""
    g = Game(obj("orb", ORB))
    g.step({"type": "put_onto_battlefield", "id": "hw", "card": "Hangarback Walker", "controller": "P1",
            "attach_to": None, "x": 2})
    assert g.o("hw")["counters"] == {"+1/+1": 2} and g.o("hw")["mana_value"] == 0
    assert g.o("hw")["supertypes"] == []


def test_tap_symbol():
    """"A permanent that's already tapped can't be tapped again to pay the cost. A creature's
    activated ability with the tap symbol ... can't be activated unless the creature has been under
    its controller's control continuously since their most recent turn began." """
    g = Game(obj("v", VESSEL, tapped=True), obj("elf", "Llanowar Elves", summoning_sick=True),
             check=("costs.tap_symbol", "costs.summoning_sickness"))
    assert g.step(activate("v")) == "already_tapped"
    assert g.step(activate("elf")) == "summoning_sick"


def test_untap_symbol():
    """"A permanent that's already untapped can't be untapped again to pay the cost" (Pili-Pala's
    "{2}, {Q}: Add one mana of any color.")."""
    g = Game(obj("pp", "Pili-Pala"), check=("costs.untap_symbol",))
    assert g.step(activate("pp")) == "already_untapped"


@pytest.mark.parametrize("card", [ORB, SWORD, VESSEL])
def test_playtest_cards_need_the_capability(card):
    """Boards carry Orb of Origin and Sword of the Meek (its equip) only for engines that claim
    ``playtest_supertypes`` (harness.generation.plan.card_needs); Thought Vessel is a plain mana artifact."""
    import cards
    from harness.generation.plan import card_needs

    needs = card_needs(cards.card(card))
    assert ("playtest_supertypes" in needs) == (card != VESSEL)
