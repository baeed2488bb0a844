"""Scenario tests: every ruling of the source documents' mana and cost sections.

The documents open with the same rulings, which are CR rules word for word:
106.5 (undefined type), 106.7 (could produce), 106.12 (tap for mana), 106.12a
("tapped for mana" triggers), 106.12b ("tapped for mana" replacement effects), 107.3m
(X in enters abilities: covered by tests/test_layers_and_copies.py), 107.5 ({T}) and
107.6 ({Q}). Each test is a judge's scenario; the expected pools are worked out from the
rule and the Oracle text quoted in the docstring, not read from the engine.

Cards: Forest ({T}: Add {G}), Island ({T}: Add {U}), Llanowar Elves ({T}: Add {G}),
Birds of Paradise ({T}: Add one mana of any color), Reflecting Pool ({T}: Add one mana of
any type that a land you control could produce), Exotic Orchard and Fellwar Stone ({T}:
Add one mana of any color that a land an opponent controls could produce), Mana
Reflection (twice as much), Nyxbloom Ancient (three times as much), Contamination (a
land tapped for mana produces {B} instead of any other type and amount), Heartbeat of
Spring and Mana Flare (whenever a player taps a land for mana, that player adds one mana
of any type that land produced), Pili-Pala ({2}, {Q}: Add one mana of any color), Gilder
Bairn ({2}{G/U}, {Q}: double the counters on target permanent), Order of Whiteclay
({1}{W}{W}, {Q}: return target creature card with mana value 3 or less from your
graveyard to the battlefield), Puresight Merrow ({W/U}, {Q}: look at the top card of your
library, you may exile it), Fatestitcher ({T}: you may tap or untap another target
permanent).
"""

from __future__ import annotations

import pytest

from reference_engine import Game

from .scenario_helpers import EMPTY, board, new_game, obj, play, pool, refused
from .scenario_helpers import activate as tap


def kinds(obs, kind):
    return [e for e in obs["log"] if e["kind"] == kind]


# ----------------------------------------------------------- CR 106.5: undefined type

def test_reflecting_pools_looking_at_each_other_produce_nothing():
    """CR 106.5: "If an ability would produce one or more mana of an undefined type, it
    produces no mana instead." Two Reflecting Pools and no other land: neither could
    produce any type (106.7), so tapping one adds nothing, not even {C}."""
    game = new_game(obj("pool1", "Reflecting Pool"), obj("pool2", "Reflecting Pool"))
    obs, asked = play(game, tap("pool1"))
    assert obs["players"]["P1"]["mana_pool"] == EMPTY
    assert obs["objects"]["pool1"]["tapped"] is True  # the cost was paid
    assert asked == []


def test_exotic_orchard_with_no_opponent_land_produces_nothing():
    """CR 106.5, 106.7: Exotic Orchard when the opponent controls no land."""
    game = new_game(obj("orchard", "Exotic Orchard"), obj("forest", "Forest"))
    obs, _ = play(game, tap("orchard"))
    assert obs["players"]["P1"]["mana_pool"] == EMPTY


def test_nothing_produced_triggers_nothing():
    """CR 106.12a: a "tapped for mana" trigger needs the ability to produce mana. A lone
    Reflecting Pool produces none (106.5), so Heartbeat of Spring doesn't trigger."""
    game = new_game(obj("pool1", "Reflecting Pool"), obj("heart", "Heartbeat of Spring"))
    obs, _ = play(game, tap("pool1"))
    assert obs["players"]["P1"]["mana_pool"] == EMPTY
    assert kinds(obs, "trigger") == []


# ------------------------------------------------------------ CR 106.7: could produce

def test_reflecting_pool_copies_the_only_type():
    """CR 106.7: with a Forest, Reflecting Pool could produce only {G}: one {G}, no choice."""
    game = new_game(obj("pool1", "Reflecting Pool"), obj("forest", "Forest"))
    obs, asked = play(game, tap("pool1"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=1)
    assert asked == []


def test_reflecting_pool_offers_every_type_a_land_could_produce():
    """CR 106.7: Forest and Island: the player chooses {G} or {U} (decider kind mana_type)."""
    game = new_game(obj("pool1", "Reflecting Pool"), obj("forest", "Forest"), obj("island", "Island"),
                    obj("mountain", "Mountain", "P2"))
    obs, asked = play(game, tap("pool1"), "U")
    assert asked == [("P1", "mana_type", ["U", "G"])]
    assert obs["players"]["P1"]["mana_pool"] == pool(U=1)


def test_could_produce_ignores_costs():
    """CR 106.7: "Ignore whether any costs of the ability could or could not be paid." A
    tapped Forest of the opponent still could produce {G} for Exotic Orchard."""
    game = new_game(obj("orchard", "Exotic Orchard"), obj("forest", "Forest", "P2", tapped=True))
    obs, _ = play(game, tap("orchard"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=1)


def test_could_produce_counts_replacement_effects():
    """CR 106.7: "taking into account any applicable replacement effects in any possible
    order". Under Contamination the opponent's Forest could produce only {B}, so Fellwar
    Stone (an artifact: Contamination doesn't touch its own mana) adds {B}."""
    game = new_game(obj("stone", "Fellwar Stone"), obj("forest", "Forest", "P2"), obj("cont", "Contamination", "P2"))
    obs, asked = play(game, tap("stone"))
    assert obs["players"]["P1"]["mana_pool"] == pool(B=1)
    assert asked == []


def test_cycles_terminate_with_what_the_other_lands_give():
    """CR 106.7 on a cycle: P1's Reflecting Pools look at each other and at P1's Exotic
    Orchard, which looks at P2's Exotic Orchard, which looks back at P1's lands, and P2 has
    an Island. Every answer is finite: P1's Orchard could produce {U} (P2's Island), so
    both of P1's Pools could produce {U}; P2's Orchard could produce {U} too."""
    game = new_game(obj("pool1", "Reflecting Pool"), obj("pool2", "Reflecting Pool"),
                    obj("orch1", "Exotic Orchard"), obj("orch2", "Exotic Orchard", "P2"), obj("island", "Island", "P2"))
    obs, _ = play(game, tap("pool2"))
    assert obs["players"]["P1"]["mana_pool"] == pool(U=1)
    obs, _ = play(game, tap("orch2"))
    assert obs["players"]["P2"]["mana_pool"] == pool(U=1)


def test_orchards_looking_only_at_each_other_produce_nothing():
    """CR 106.7, 106.5: two Exotic Orchards of different players and no other land: no
    type can be defined, whoever taps first."""
    game = new_game(obj("orch1", "Exotic Orchard"), obj("orch2", "Exotic Orchard", "P2"))
    obs, _ = play(game, tap("orch1"))
    assert obs["players"]["P1"]["mana_pool"] == EMPTY


# ------------------------------------------------------ CR 106.12: tap for mana

def test_untap_ability_is_not_tapping_for_mana():
    """CR 106.12: "To tap a permanent for mana is to activate a mana ability of that
    permanent that includes the {T} symbol in its activation cost." Pili-Pala's {Q}
    ability is not, so Mana Reflection doesn't double it: {2} spent, one mana added."""
    game = new_game(obj("pili", "Pili-Pala", tapped=True), obj("refl", "Mana Reflection"),
                    obj("f1", "Forest"))
    play(game, tap("f1"))  # {G}{G}: Mana Reflection doubles the Forest
    obs, _ = play(game, tap("pili"), "R")
    assert obs["players"]["P1"]["mana_pool"] == pool(R=1)


# --------------------------------------------- CR 106.12a: "tapped for mana" triggers

def test_heartbeat_of_spring_adds_one_of_the_type_the_land_produced():
    """CR 106.12a: Heartbeat of Spring triggers when Forest's ability resolves and produces
    {G}; it adds one mana of a type that land produced: {G}{G} in all."""
    game = new_game(obj("forest", "Forest"), obj("heart", "Heartbeat of Spring", "P2"))
    obs, _ = play(game, tap("forest"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=2)
    assert obs["players"]["P2"]["mana_pool"] == EMPTY  # "that player adds"
    [trigger] = kinds(obs, "trigger")
    assert trigger["source"] == "heart" and trigger["land"] == "forest"


def test_each_copy_triggers_separately():
    """CR 106.12a, 603.2: Heartbeat of Spring and Mana Flare each trigger: {G} + 2."""
    game = new_game(obj("forest", "Forest"), obj("heart", "Heartbeat of Spring"), obj("flare", "Mana Flare", "P2"))
    obs, _ = play(game, tap("forest"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=3)
    assert sorted(e["source"] for e in kinds(obs, "trigger")) == ["flare", "heart"]


def test_land_triggers_ignore_creatures():
    """Heartbeat of Spring: "Whenever a player taps a land for mana": Llanowar Elves is
    tapped for mana but is no land, so it doesn't trigger."""
    game = new_game(obj("elves", "Llanowar Elves"), obj("heart", "Heartbeat of Spring"))
    obs, _ = play(game, tap("elves"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=1)
    assert kinds(obs, "trigger") == []


# -------------------------------------- CR 106.12b: "tapped for mana" replacement effects

def test_mana_reflection_doubles():
    """CR 106.12b: "If you tap a permanent for mana, it produces twice as much of that mana
    instead": Forest adds {G}{G}; Birds of Paradise (any permanent) adds two of its colour."""
    game = new_game(obj("forest", "Forest"), obj("birds", "Birds of Paradise"), obj("refl", "Mana Reflection"))
    obs, _ = play(game, tap("forest"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=2)
    obs, _ = play(game, tap("birds"), "W")
    assert obs["players"]["P1"]["mana_pool"] == pool(G=2, W=2)


def test_multipliers_are_cumulative():
    """CR 106.12b, 616.1, 614.5: each replacement effect modifies the event once. Two Mana
    Reflections and Nyxbloom Ancient: 1 x 2 x 2 x 3 = 12 {G}, in whatever order."""
    game = new_game(obj("forest", "Forest"), obj("r1", "Mana Reflection"), obj("r2", "Mana Reflection"),
                    obj("nyx", "Nyxbloom Ancient"))
    obs, asked = play(game, tap("forest"), "Nyxbloom Ancient:nyx", "Mana Reflection:r2")
    assert obs["players"]["P1"]["mana_pool"] == pool(G=12)
    assert [kind for _, kind, _ in asked] == ["replacement_effect", "replacement_effect"]


def test_only_your_reflection_applies():
    """"If you tap a permanent for mana": P2's Mana Reflection doesn't double P1's Forest."""
    game = new_game(obj("forest", "Forest"), obj("refl", "Mana Reflection", "P2"))
    obs, _ = play(game, tap("forest"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=1)


def test_multiplier_does_not_apply_to_mana_a_trigger_added():
    """CR 106.12a/b: Mana Reflection modifies the Forest's production ({G}{G}); Heartbeat of
    Spring's mana comes from a triggered ability, not from tapping a permanent: +{G}."""
    game = new_game(obj("forest", "Forest"), obj("refl", "Mana Reflection"), obj("heart", "Heartbeat of Spring"))
    obs, _ = play(game, tap("forest"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=3)


def test_contamination_makes_a_land_produce_one_black():
    """Contamination: "If a land is tapped for mana, it produces {B} instead of any other
    type and amount." Forest adds {B}; Llanowar Elves (not a land) still adds {G}."""
    game = new_game(obj("forest", "Forest"), obj("elves", "Llanowar Elves"), obj("cont", "Contamination", "P2"))
    obs, _ = play(game, tap("forest"))
    assert obs["players"]["P1"]["mana_pool"] == pool(B=1)
    obs, _ = play(game, tap("elves"))
    assert obs["players"]["P1"]["mana_pool"] == pool(B=1, G=1)


@pytest.mark.parametrize("first, expected", [("Contamination:cont", 2), ("Mana Reflection:refl", 1)])
def test_the_player_who_tapped_orders_replacement_effects(first, expected):
    """CR 616.1: the affected player chooses the order. Contamination first: {B}, then
    Mana Reflection doubles it: {B}{B}. Mana Reflection first: {G}{G}, then Contamination:
    {B}."""
    game = new_game(obj("forest", "Forest"), obj("refl", "Mana Reflection"), obj("cont", "Contamination", "P2"))
    obs, asked = play(game, tap("forest"), first)
    assert obs["players"]["P1"]["mana_pool"] == pool(B=expected)
    assert asked[0][:2] == ("P1", "replacement_effect")
    assert sorted(asked[0][2]) == ["Contamination:cont", "Mana Reflection:refl"]


# ----------------------------------------------------------------- CR 107.5: {T}

def test_tapped_permanent_cannot_be_tapped_for_mana():
    """CR 107.5: "A permanent that's already tapped can't be tapped again to pay the cost.\""""
    game = new_game(obj("forest", "Forest", tapped=True))
    refused(game, tap("forest"), "already_tapped")


def test_summoning_sick_creature_cannot_use_tap_abilities():
    """CR 107.5, 302.6: Llanowar Elves and Fatestitcher just arrived: their {T} abilities
    can't be activated; a Forest that just arrived can."""
    game = new_game(obj("elves", "Llanowar Elves", summoning_sick=True),
                    obj("stitch", "Fatestitcher", summoning_sick=True), obj("forest", "Forest", summoning_sick=True))
    refused(game, tap("elves"), "summoning_sick")
    refused(game, tap("stitch"), "summoning_sick")
    obs, _ = play(game, tap("forest"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=1)


def test_fatestitcher_taps_or_untaps_another_permanent():
    """Fatestitcher: "{T}: You may tap or untap another target permanent." It can untap the
    Forest just tapped for mana; not itself ("another")."""
    game = new_game(obj("stitch", "Fatestitcher"), obj("forest", "Forest"))
    play(game, tap("forest"))
    obs, asked = play(game, tap("stitch"), "untap")
    assert asked == [("P1", "tap_or_untap", ["tap", "untap", "neither"])]  # the only target: no target question
    assert obs["objects"]["forest"]["tapped"] is False and obs["objects"]["stitch"]["tapped"] is True


# ----------------------------------------------------------------- CR 107.6: {Q}

def test_untapped_permanent_cannot_pay_untap():
    """CR 107.6: "A permanent that's already untapped can't be untapped again to pay the cost.\""""
    game = new_game(obj("bairn", "Gilder Bairn"), obj("f1", "Forest"), obj("f2", "Forest"), obj("f3", "Forest"))
    for f in ("f1", "f2", "f3"):
        play(game, tap(f))
    refused(game, tap("bairn"), "already_untapped")


def test_summoning_sick_creature_cannot_use_untap_abilities():
    """CR 107.6, 302.6: a tapped Puresight Merrow that just arrived can't pay {Q}."""
    game = new_game(obj("merrow", "Puresight Merrow", tapped=True, summoning_sick=True), obj("island", "Island"))
    play(game, tap("island"))
    refused(game, tap("merrow"), "summoning_sick")


def test_gilder_bairn_doubles_counters():
    """Gilder Bairn: "{2}{G/U}, {Q}: Double the number of each kind of counter on target
    permanent." Three mana ({G}{G}{U}) paid; the {G/U} half chosen; 2 +1/+1 counters
    become 4; Gilder Bairn untaps."""
    game = new_game(obj("bairn", "Gilder Bairn", tapped=True), obj("bears", "Grizzly Bears", counters={"+1/+1": 2}),
                    obj("f1", "Forest"), obj("f2", "Forest"), obj("island", "Island"))
    for land in ("f1", "f2", "island"):
        play(game, tap(land))
    obs, asked = play(game, tap("bairn"), "bears", "U")
    assert obs["objects"]["bears"]["counters"] == {"+1/+1": 4}
    assert obs["objects"]["bears"]["power"] == 6
    assert obs["objects"]["bairn"]["tapped"] is False
    assert obs["players"]["P1"]["mana_pool"] == EMPTY
    assert [kind for _, kind, _ in asked] == ["target", "mana_payment"]


def test_order_of_whiteclay_returns_a_small_creature():
    """Order of Whiteclay: "{1}{W}{W}, {Q}: Return target creature card with converted mana
    cost 3 or less from your graveyard to the battlefield." Grizzly Bears (mana value 2)
    returns; Nyxbloom Ancient (7) is no legal target. It comes back summoning sick (302.6)."""
    game = new_game(obj("order", "Order of Whiteclay", tapped=True), obj("bears", "Grizzly Bears", zone="graveyard"),
                    obj("nyx", "Nyxbloom Ancient", zone="graveyard"), obj("p1", "Plains"), obj("p2", "Plains"),
                    obj("p3", "Plains"))
    for land in ("p1", "p2", "p3"):
        play(game, tap(land))
    obs, asked = play(game, tap("order"))
    assert asked == []  # one legal target
    assert obs["objects"]["bears"]["zone"] == "battlefield" and obs["objects"]["bears"]["summoning_sick"] is True
    assert obs["objects"]["nyx"]["zone"] == "graveyard"


def test_puresight_merrow_may_exile_the_top_card():
    """Puresight Merrow: "{W/U}, {Q}: Look at the top card of your library. You may exile
    that card." The top card is the first of the board's library cards."""
    game = new_game(obj("merrow", "Puresight Merrow", tapped=True), obj("top", "Forest", zone="library"),
                    obj("next", "Island", zone="library"), obj("island", "Island"))
    play(game, tap("island"))
    obs, asked = play(game, tap("merrow"), "yes")
    assert obs["objects"]["top"]["zone"] == "exile" and obs["objects"]["next"]["zone"] == "library"
    assert asked == [("P1", "may", ["yes", "no"])]


def test_a_forks_own_tapped_for_mana_replacement_is_asked_of_each_permanent():
    """CR 106.12b, as a fork of the engine defines it: its own ``mana_replacement_of`` says that
    Grizzly Bears double the mana of a permanent their controller taps (as Mana Reflection does),
    so a Forest tapped beside them adds {G}{G} (the engine reads the copiable values' scripts
    directly only while the method is its own)."""
    from reference_engine.game import Game
    from reference_engine.mana import DOUBLE

    from .scenario_helpers import board

    class Doubling(Game):
        def mana_replacement_of(self, source):
            return DOUBLE if source.card.name == "Grizzly Bears" else super().mana_replacement_of(source)

    game = Doubling(board(obj("forest", "Forest"), obj("b", "Grizzly Bears")))
    obs, _ = play(game, tap("forest"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=2)


def test_a_forks_land_mana_triggers_are_the_ones_asked():
    """CR 106.12a: a fork's own ``has_land_mana_trigger`` says which permanents trigger when a land is
    tapped for mana, asked in timestamp order: with it saying only Mana Flare has the ability, Forest
    tapped for {G} gives {G}{G} (Mana Flare's trigger alone), although Heartbeat of Spring is there."""
    class OnlyFlare(Game):
        def has_land_mana_trigger(self, source):
            return source.card.name == "Mana Flare"

    game = OnlyFlare(board(obj("forest", "Forest"), obj("heart", "Heartbeat of Spring"), obj("flare", "Mana Flare")))
    obs, _ = play(game, tap("forest"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=2)
    assert [e["source"] for e in kinds(obs, "trigger")] == ["flare"]
