"""The reference engine never judges a game where an ability it does not model would apply.

Every ability a card script lists as not modelled has a gap in
``reference_engine.unmodelled``: an event in which it would matter raises the engine's
``Unsupported`` before anything changes (the adapter turns it into
``harness.protocol.Unsupported``, a decline), and the same event without the ability in
play is performed as usual. A gap no event can reach says why, and a test here shows it.
"""

from __future__ import annotations

import pytest

import harness.protocol
from harness.adapters.reference import ReferenceAdapter
from reference_engine import IllegalAction, ReferenceEngine, Unsupported
from reference_engine.cards import SCRIPTS, TOKEN_DEFS, card
from reference_engine.objects import GameObject
from reference_engine.unmodelled import GAPS

from .scenario_helpers import Decider, aura, board, obj


def game_of(*objects):
    return ReferenceEngine().new_game(board(*objects))


def assert_declined(game, event, reason):
    """``event`` raises Unsupported with ``reason`` and changes nothing (not even the log)."""
    before = game.observe()
    with pytest.raises(Unsupported) as caught:
        game.apply(event, Decider())
    assert caught.value.reason == reason
    assert game.observe() == before


def performed(game, event, *answers):
    game.apply(event, Decider(*answers))
    return game.observe()


def combat(oid, status):
    return {"type": "set_combat", "object": oid, "status": status}


def test_every_not_modelled_ability_has_exactly_one_gap():
    """Cards and the tokens effects define (a Treasure's mana ability, CR 111.10a) alike."""
    scripted = [*SCRIPTS.items(), *((definition.name, script) for definition, script in TOKEN_DEFS.values())]
    declared = {(name, text) for name, script in scripted for text in script.not_modelled}
    gaps = [(g.card, g.ability) for g in GAPS]
    assert len(gaps) == len(set(gaps))
    assert set(gaps) == declared
    for gap in GAPS:
        assert gap.reason and gap.when, gap


# ------------------------------------------------------------- reachable gaps
@pytest.mark.parametrize("umbra", ["Bear Umbra", "Octopus Umbra"])
def test_attack_triggers_granted_by_an_aura(umbra):
    """Bear Umbra and Octopus Umbra grant "Whenever this creature attacks, ...": the
    creature is made to attack, the ability would trigger (CR 508.1m, 603.2)."""
    game = game_of(obj("bears", "Grizzly Bears"), aura("a", umbra, "bears"), obj("other", "Grizzly Bears"))
    assert_declined(game, combat("bears", "attacking"), "ability:attack trigger")
    assert performed(game, combat("other", "attacking"))["objects"]["other"]["combat"] == "attacking"
    assert performed(game, combat("bears", "blocking"))["objects"]["bears"]["combat"] == "blocking"


def test_snake_umbra_damage_to_an_opponent():
    """Snake Umbra: "Whenever this creature deals damage to an opponent, you may draw a card":
    damage to P2 by P1's creature would trigger it; damage to a creature or to P1 doesn't."""
    game = game_of(obj("bears", "Grizzly Bears"), aura("s", "Snake Umbra", "bears"),
                   obj("rats", "Typhoid Rats", owner="P2"))
    assert_declined(game, {"type": "damage", "source": "bears", "target": "P2", "amount": 2}, "ability:damage trigger")
    assert performed(game, {"type": "damage", "source": "bears", "target": "P1", "amount": 2})["players"]["P1"][
        "life"] == 18
    assert performed(game, {"type": "damage", "source": "bears", "target": "rats", "amount": 2})["objects"]["rats"][
        "zone"] == "graveyard"


def test_indrik_umbra_blocking_requirement():
    """Indrik Umbra: "all creatures able to block it do so": once its creature attacks, which
    creatures block would matter."""
    game = game_of(obj("bears", "Grizzly Bears"), aura("i", "Indrik Umbra", "bears"),
                   obj("rats", "Typhoid Rats", owner="P2"))
    assert_declined(game, combat("bears", "attacking"), "ability:blocking requirement")
    assert performed(game, combat("rats", "attacking"))["objects"]["rats"]["combat"] == "attacking"
    attacking = game_of(obj("bears", "Grizzly Bears", combat="attacking"), aura("i", "Indrik Umbra", "bears"),
                        obj("rats", "Typhoid Rats", owner="P2"))
    assert_declined(attacking, combat("rats", "blocking"), "ability:blocking requirement")


def test_dog_umbra_cant_attack_or_block_under_another_player():
    """Dog Umbra: "As long as another player controls enchanted creature, it can't attack or
    block." P2's Dog Umbra on P1's creature: attacking or blocking would be restricted.
    With its controller's own Dog Umbra, the creature attacks as usual."""
    game = game_of(obj("bears", "Grizzly Bears"), aura("dog", "Dog Umbra", "bears", owner="P2"))
    for status in ("attacking", "blocking"):
        assert_declined(game, combat("bears", status), "ability:can't attack or block")
    own = game_of(obj("bears", "Grizzly Bears"), aura("dog", "Dog Umbra", "bears"))
    assert performed(own, combat("bears", "attacking"))["objects"]["bears"]["combat"] == "attacking"


def test_stonecoil_serpent_protection_from_multicolored():
    """Stonecoil Serpent has protection from multicolored: damage from Hydroid Krasis (green
    and blue) would be prevented (CR 702.16e). Damage from a monocolored or colorless
    source is dealt as usual; Krasis's damage to another creature too."""
    game = game_of(obj("snake", "Stonecoil Serpent", counters={"+1/+1": 3}),
                   obj("krasis", "Hydroid Krasis", owner="P2", counters={"+1/+1": 2}),
                   obj("bears", "Grizzly Bears", owner="P2"))
    assert_declined(game, {"type": "damage", "source": "krasis", "target": "snake", "amount": 2}, "ability:protection")
    assert performed(game, {"type": "damage", "source": "bears", "target": "snake", "amount": 1})["objects"]["snake"][
        "damage"] == 1
    assert performed(game, {"type": "damage", "source": "krasis", "target": "bears", "amount": 1})["objects"][
        "bears"]["damage"] == 1


def test_stonecoil_serpents_own_damage_is_not_protection():
    """Protection is about what the Serpent is dealt, targeted, enchanted or blocked by
    (CR 702.16b-e): the Serpent dealing damage to Hydroid Krasis is performed as usual."""
    game = game_of(obj("snake", "Stonecoil Serpent", counters={"+1/+1": 3}),
                   obj("krasis", "Hydroid Krasis", owner="P2", counters={"+1/+1": 2}))
    assert performed(game, {"type": "damage", "source": "snake", "target": "krasis", "amount": 3})["objects"][
        "krasis"]["zone"] == "graveyard"


@pytest.mark.parametrize("x, declined", [(0, False), (1, False), (2, True), (5, True)])
def test_hydroid_krasis_cast_trigger(x, declined):
    """Hydroid Krasis: "When you cast this spell, you gain half X life and draw half X cards.
    Round down each time." Put onto the battlefield as a spell cast with X: for X >= 2 the
    trigger would do something; for X < 2 it gains 0 life and draws 0 cards."""
    game = game_of()
    event = {"type": "put_onto_battlefield", "id": "k", "card": "Hydroid Krasis", "controller": "P1",
             "attach_to": None, "x": x}
    if declined:
        assert_declined(game, event, "ability:cast trigger")
    else:
        obs = performed(game, event)
        assert obs["players"]["P1"]["life"] == 20
        assert obs["objects"]["k"]["counters"] == ({"+1/+1": x} if x else {})


def test_the_adapter_turns_the_engines_unsupported_into_a_decline():
    adapter = ReferenceAdapter()
    game = adapter.new_game(board(obj("bears", "Grizzly Bears"), aura("a", "Bear Umbra", "bears")))
    with pytest.raises(harness.protocol.Unsupported) as caught:
        game.apply(combat("bears", "attacking"), Decider())
    assert caught.value.reason == "ability:attack trigger"
    assert "Bear Umbra" in str(caught.value)


# ----------------------------------------------------------- unreachable gaps
def _flash(card):
    """Flash only changes when a spell may be cast; no event casts a permanent spell."""
    game = game_of(obj("bears", "Grizzly Bears"))
    with pytest.raises(IllegalAction) as caught:
        game.apply({"type": "cast", "card": card, "controller": "P1", "targets": ["bears"]}, Decider())
    assert caught.value.reason == "not_a_spell"


def _free_event(event, *objects):
    """The event that performs the ability needs no mana: it is performed with no mana at all."""
    def check():
        game = game_of(*objects)
        before = game.observe()
        assert performed(game, event) != before
    return check


def _not_performed(card, **fields):
    """An activation of the ability (if the vocabulary has one) is refused or declined: the
    game never changes by it."""
    def check():
        game = game_of(obj("it", card, **fields), obj("bears", "Grizzly Bears", tapped=True))
        before = game.observe()
        for index in range(3):
            try:
                game.apply({"type": "activate", "object": "it", "ability": index, "targets": ["bears"]}, Decider())
            except (IllegalAction, Unsupported):
                pass
            else:
                raise AssertionError(f"{card}'s ability {index} was performed although it is not modelled")
        assert game.observe()["objects"] == before["objects"]
    return check


def _shuffle():
    """Goblin Engineer's search finds the same cards whatever the library order, so not
    shuffling afterwards changes nothing the engine observes or uses."""
    results = []
    for order in (["l1", "l2"], ["l2", "l1"]):
        library = [obj(oid, "Darksteel Myr" if oid == "l1" else "Grizzly Bears", zone="library") for oid in order]
        game = game_of(*library)
        obs = performed(game, {"type": "put_onto_battlefield", "id": "ge", "card": "Goblin Engineer",
                               "controller": "P1", "attach_to": None}, "l1")
        results.append((obs["objects"]["l1"]["zone"], obs["objects"]["l2"]["zone"]))
    assert results == [("graveyard", "library")] * 2


def test_contamination_upkeep_is_declined_and_begin_turn_reaches_no_upkeep():
    """begin_turn untaps and ends summoning sickness; Contamination stays and nothing is sacrificed.
    Its controller's upkeep (begin_step, capability steps) would trigger its upkeep ability: declined;
    the other player's upkeep doesn't."""
    game = game_of(obj("c", "Contamination"), obj("bears", "Grizzly Bears"))
    obs = performed(game, {"type": "begin_turn", "player": "P1"})
    assert obs["objects"]["c"]["zone"] == "battlefield" and obs["objects"]["bears"]["zone"] == "battlefield"
    assert_declined(game, {"type": "begin_step", "step": "upkeep", "player": "P1"}, "ability:upkeep trigger")
    obs = performed(game, {"type": "begin_step", "step": "upkeep", "player": "P2"})
    assert obs["objects"]["c"]["zone"] == "battlefield"


def _flashback():
    """The cast event casts a spell from outside the game: a Cackling Counterpart card in its
    owner's graveyard is never cast (flashback) and stays there."""
    game = game_of(obj("bears", "Grizzly Bears"), obj("cc", "Cackling Counterpart", zone="graveyard"))
    obs = performed(game, {"type": "cast", "card": "Cackling Counterpart", "controller": "P1",
                           "targets": ["bears"], "token_ids": ["t"]})
    assert obs["objects"]["cc"]["zone"] == "graveyard"


UNREACHABLE = {
    ("Eel Umbra", "Flash (casting is not modelled)"): lambda: _flash("Eel Umbra"),
    ("Dog Umbra", "Flash (casting is not modelled)"): lambda: _flash("Dog Umbra"),
    ("Felidar Umbra", "the mana cost {1}{W} of its attach ability (the attach event is free)"): _free_event(
        {"type": "attach", "aura": "f", "to": "b2"}, obj("b1", "Grizzly Bears"), aura("f", "Felidar Umbra", "b1"),
        obj("b2", "Grizzly Bears")),
    ("River Boa", "the {G} cost of its regeneration ability"): _free_event(
        {"type": "activate_regeneration", "object": "boa"}, obj("boa", "River Boa")),
    ("Drudge Skeletons", "the {B} cost of its regeneration ability"): _free_event(
        {"type": "activate_regeneration", "object": "sk"}, obj("sk", "Drudge Skeletons")),
    ("Crab Umbra", "{2}{U}: Untap enchanted creature."): _not_performed("Crab Umbra", attached_to="bears"),
    ("Hangarback Walker", "{1}, {T}: Put a +1/+1 counter on Hangarback Walker. (use the add_counters event)"):
        _not_performed("Hangarback Walker", counters={"+1/+1": 1}),
    ("Goblin Engineer", "{R}, {T}, Sacrifice an artifact: Return target artifact card with mana value 3 or less "
                        "from your graveyard to the battlefield."): _not_performed("Goblin Engineer"),
    ("Cackling Counterpart", "Flashback {5}{U}{U}"): _flashback,
}


def test_every_gap_without_a_check_is_shown_unreachable():
    assert {(g.card, g.ability) for g in GAPS if g.check is None} == set(UNREACHABLE)


@pytest.mark.parametrize("key", sorted(UNREACHABLE), ids=lambda k: f"{k[0]}: {k[1][:30]}")
def test_unreachable_gap(key):
    UNREACHABLE[key]()


def test_sword_of_the_meek_in_a_graveyard():
    """Sword of the Meek's "Whenever a 1/1 creature enters the battlefield under your control, you
    may return Sword of the Meek from your graveyard to the battlefield": while a Sword is in a
    graveyard any event may make a 1/1 enter, so the engine declines; on the battlefield it
    doesn't matter."""
    game = game_of(obj("sword", "Sword of the Meek", zone="graveyard"), obj("bears", "Grizzly Bears"))
    assert_declined(game, {"type": "put_onto_battlefield", "id": "n1", "card": "Grizzly Bears",
                           "controller": "P1", "attach_to": None}, "ability:graveyard trigger")
    game = game_of(obj("sword", "Sword of the Meek"), obj("bears", "Grizzly Bears"))
    obs = performed(game, {"type": "put_onto_battlefield", "id": "n1", "card": "Grizzly Bears", "controller": "P1",
                           "attach_to": None})
    assert obs["objects"]["n1"]["zone"] == "battlefield"


def test_a_sword_of_the_meek_come_into_a_graveyard_after_a_check_is_seen():
    """Sword of the Meek's trigger matters as soon as a Sword is in a graveyard (above), also when it
    came there after an earlier event was checked: a Sword card put into P1's graveyard as a new
    object (CR 400.7), and a card in the graveyard that becomes a Sword of the Meek."""
    put = {"type": "put_onto_battlefield", "id": "n1", "card": "Grizzly Bears", "controller": "P1", "attach_to": None}
    game = game_of(obj("bears", "Grizzly Bears"))
    performed(game, put)
    definition, script = card("Sword of the Meek")
    game.objects["s"] = GameObject("s", definition, script, "P1", "P1", "graveyard", 99)
    assert_declined(game, dict(put, id="n2"), "ability:graveyard trigger")
    game = game_of(obj("bears", "Grizzly Bears"), obj("g", "Typhoid Rats", zone="graveyard"))
    performed(game, put)
    game.objects["g"].card = definition
    assert_declined(game, dict(put, id="n2"), "ability:graveyard trigger")


def test_a_sword_of_the_meek_gone_from_the_game_after_a_check_no_longer_matters():
    """As above, a Sword card in a graveyard makes the engine decline; once it is taken out of the
    game's objects (as a token off the battlefield ceases to exist, CR 704.5d) after an event was
    checked, its trigger no longer matters."""
    put = {"type": "put_onto_battlefield", "id": "n1", "card": "Grizzly Bears", "controller": "P1", "attach_to": None}
    game = game_of(obj("bears", "Grizzly Bears"), obj("sword", "Sword of the Meek", zone="graveyard"))
    assert_declined(game, put, "ability:graveyard trigger")
    del game.objects["sword"]
    assert performed(game, put)["objects"]["n1"]["zone"] == "battlefield"


def test_treasure_mana_ability():
    """A Treasure token's "{T}, Sacrifice this artifact: Add one mana of any color." (CR 111.10a)
    is not modelled: activating it is declined, unless the Treasure has no abilities (tapped and
    continuous under Orb of Origin, its rulings 2024-11-08): then there is nothing to activate."""
    treasure = obj("t", "Treasure Token", token=True)
    assert_declined(game_of(treasure), {"type": "activate", "object": "t", "ability": 0}, "ability:not modelled")
    game = game_of(obj("orb", "Orb of Origin"), {**treasure, "tapped": True})
    with pytest.raises(IllegalAction) as caught:
        game.apply({"type": "activate", "object": "t", "ability": 0}, Decider())
    assert caught.value.reason == "no_such_ability"


def test_river_boa_islandwalk_matters_only_with_an_island():
    """Islandwalk (CR 702.14): a creature with islandwalk can't be blocked while the defending
    player controls an Island. The engine plays no Island today, so a block beside an
    attacking River Boa is performed as usual; the gap's check needs an Island."""
    game = game_of(obj("boa", "River Boa", combat="attacking"), obj("bears", "Grizzly Bears", owner="P2"))
    assert performed(game, combat("bears", "blocking"))["objects"]["bears"]["combat"] == "blocking"


def test_shuffle_matters_once_the_top_card_is_looked_at():
    """Goblin Engineer's search shuffles its controller's library; the engine keeps the
    board's order, so Puresight Merrow looking at the top card afterwards declines. The
    search itself finds the same cards whatever the order, and a library nobody searched
    keeps the board's order: the Merrow sees its first card."""
    _shuffle()
    game = game_of(obj("merrow", "Puresight Merrow", tapped=True), obj("island", "Island"),
                   obj("top", "Darksteel Myr", zone="library"), obj("next", "Grizzly Bears", zone="library"))
    fresh = game_of(obj("merrow", "Puresight Merrow", tapped=True), obj("island", "Island"),
                    obj("top", "Darksteel Myr", zone="library"))
    performed(fresh, {"type": "activate", "object": "island", "ability": 0})
    assert performed(fresh, {"type": "activate", "object": "merrow", "ability": 0}, "yes")["objects"]["top"][
        "zone"] == "exile"
    performed(game, {"type": "put_onto_battlefield", "id": "ge", "card": "Goblin Engineer", "controller": "P1",
                     "attach_to": None}, "nothing")
    performed(game, {"type": "activate", "object": "island", "ability": 0})
    assert_declined(game, {"type": "activate", "object": "merrow", "ability": 0}, "ability:shuffle")


def test_unearth_from_the_graveyard_declines():
    """Fatestitcher's unearth (CR 702.84a) works from its graveyard; activating it there declines."""
    game = game_of(obj("fs", "Fatestitcher", zone="graveyard"), obj("island", "Island"))
    performed(game, {"type": "activate", "object": "island", "ability": 0})
    assert_declined(game, {"type": "activate", "object": "fs", "ability": 1}, "ability:unearth")


def test_the_activation_is_found_once_for_every_check_of_one(monkeypatch):
    """The checks of activations (Puresight Merrow after a shuffle, a Treasure, unearth) share one
    look at the ability an ``activate`` event names; each gap's own check, asked alone, finds it
    too and says the same (a Treasure's activation, refused earlier by the engine, is one)."""
    import reference_engine.unmodelled as unmodelled
    game = game_of(obj("island", "Island"), obj("t", "Treasure Token", token=True))
    found = []
    real = unmodelled._activation
    monkeypatch.setattr(unmodelled, "_activation", lambda g, e: found.append(e) or real(g, e))
    island = {"type": "activate", "object": "island", "ability": 0}
    unmodelled.decline_if_unmodelled(game, island)
    assert found == [island]
    treasure = {"type": "activate", "object": "t", "ability": 0}
    for event, reasons in ((treasure, ["ability:not modelled"]), (island, [])):
        assert [g.reason for g in GAPS if g.check in unmodelled._OF_ACTIVATION and g.check(game, event)] == reasons
    with pytest.raises(Unsupported):
        unmodelled.decline_if_unmodelled(game, treasure)


def test_a_sword_of_the_meek_in_objects_rebound_to_a_new_dict_is_seen():
    """As above, the Sword put into P1's graveyard in a new dict of the game's objects (as a fork
    may rebind them) after an earlier event was checked: nothing recorded its coming, yet it is seen."""
    put = {"type": "put_onto_battlefield", "id": "n1", "card": "Grizzly Bears", "controller": "P1", "attach_to": None}
    game = game_of(obj("bears", "Grizzly Bears"))
    performed(game, put)
    game.decline_if_unmodelled(dict(put, id="n2"))  # checked again, nothing put in since
    definition, script = card("Sword of the Meek")
    game.objects = {**game.objects, "s": GameObject("s", definition, script, "P1", "P1", "graveyard", 99)}
    assert_declined(game, dict(put, id="n2"), "ability:graveyard trigger")
