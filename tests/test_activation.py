"""The ``activate``, ``pass_step`` and ``begin_turn`` events on the reference engine.

Costs (CR 602.2, 601.2h): {T} (CR 107.5), {Q} (CR 107.6), summoning sickness (CR 302.6),
mana from the pool (CR 106.4); mana abilities resolve at once (CR 605.3b); pools empty at
the end of each step (CR 106.4, 500.4); the untap step (CR 502.3). Expected values come
from those rules and the cards' Oracle text, quoted in each test.
"""

from __future__ import annotations

import copy

import pytest

from harness import protocol
from harness.adapters.reference import ReferenceAdapter
from reference_engine import ReferenceEngine, Unsupported

from .scenario_helpers import EMPTY, Decider, activate, board, new_game, obj, play, pool, refused


def test_forest_taps_for_green():
    """CR 305.6: Forest has "{T}: Add {G}."; CR 107.5: paying {T} taps it; CR 605.3b: the
    mana ability resolves at once, adding {G} to its controller's pool (CR 106.4)."""
    game = new_game(obj("forest", "Forest"))
    obs, asked = play(game, activate("forest"))
    assert obs["objects"]["forest"]["tapped"] is True
    assert obs["players"]["P1"]["mana_pool"] == pool(G=1)
    assert obs["players"]["P2"]["mana_pool"] == EMPTY
    assert asked == []
    produced = [e for e in obs["log"] if e["kind"] == "mana_produced"]
    assert produced == [{"kind": "mana_produced", "player": "P1", "source": "forest", "ability": 0,
                         "tapped_for_mana": True, "produced": {"G": 1}, "mana": {"G": 1}, "replacements": []}]


@pytest.mark.parametrize("land, color", [("Plains", "W"), ("Island", "U"), ("Swamp", "B"), ("Mountain", "R")])
def test_every_basic_land(land, color):
    """CR 305.6: each basic land type has its intrinsic mana ability."""
    game = new_game(obj("land", land))
    obs, _ = play(game, activate("land"))
    assert obs["players"]["P1"]["mana_pool"] == pool(**{color: 1})


def test_tapped_permanent_cannot_pay_tap():
    """CR 107.5: "A permanent that's already tapped can't be tapped again to pay the cost."
    The refusal changes nothing."""
    game = new_game(obj("forest", "Forest", tapped=True))
    refused(game, activate("forest"), "already_tapped")


def test_untapped_permanent_cannot_pay_untap():
    """CR 107.6: "A permanent that's already untapped can't be untapped again to pay the cost."
    Pili-Pala: "{2}, {Q}: Add one mana of any color." with {2} in the pool."""
    game = new_game(obj("forest", "Forest"), obj("elves", "Llanowar Elves"), obj("pili", "Pili-Pala"))
    play(game, activate("forest"))
    play(game, activate("elves"))
    refused(game, activate("pili"), "already_untapped")


def test_untap_cost_untaps_and_spends_mana():
    """CR 107.6, 601.2h: Pili-Pala's {2}, {Q}: pay {G}{G} from the pool, untap it, add one
    mana of the chosen colour (decider kind mana_type). {Q} is not {T}: Pili-Pala was not
    tapped for mana (CR 106.12)."""
    game = new_game(obj("forest", "Forest"), obj("elves", "Llanowar Elves"), obj("pili", "Pili-Pala", tapped=True))
    play(game, activate("forest"))
    play(game, activate("elves"))
    obs, asked = play(game, activate("pili"), "U")
    assert obs["objects"]["pili"]["tapped"] is False
    assert obs["players"]["P1"]["mana_pool"] == pool(U=1)
    assert asked == [("P1", "mana_type", ["W", "U", "B", "R", "G"])]
    [spent] = [e for e in obs["log"] if e["kind"] == "mana_spent"]
    assert spent["mana"] == {"G": 2}
    [produced] = [e for e in obs["log"] if e["kind"] == "mana_produced"]
    assert produced["tapped_for_mana"] is False


def test_not_enough_mana_is_refused():
    """CR 601.2h, 602.2b: a cost that can't be paid can't be paid at all; {2} with one
    mana in the pool is refused and the pool keeps its mana."""
    game = new_game(obj("forest", "Forest"), obj("pili", "Pili-Pala", tapped=True))
    play(game, activate("forest"))
    refused(game, activate("pili"), "insufficient_mana")


@pytest.mark.parametrize("card, tapped", [("Llanowar Elves", False), ("Pili-Pala", True)])
def test_summoning_sick_creature_cannot_pay_tap_or_untap(card, tapped):
    """CR 302.6 (and the rulings on {T} and {Q}): a creature's ability with {T} or {Q} can't
    be activated unless its controller controlled it continuously since their most recent
    turn began."""
    game = new_game(obj("c", card, summoning_sick=True, tapped=tapped), obj("f1", "Forest"), obj("f2", "Forest"))
    play(game, activate("f1"))
    play(game, activate("f2"))
    refused(game, activate("c"), "summoning_sick")


def test_summoning_sickness_does_not_stop_a_noncreature():
    """CR 302.6 is about creatures: an artifact that just came under its controller's
    control (Thought Vessel, "{T}: Add {C}.") can tap for mana at once."""
    game = new_game(obj("vessel", "Thought Vessel", summoning_sick=True))
    obs, _ = play(game, activate("vessel"))
    assert obs["players"]["P1"]["mana_pool"] == pool(C=1)


def test_put_onto_battlefield_creature_is_summoning_sick():
    """CR 302.6: a creature that just entered hasn't been controlled since its controller's
    most recent turn began; begin_turn for that player lifts it."""
    game = new_game()
    play(game, {"type": "put_onto_battlefield", "id": "elves", "card": "Llanowar Elves", "controller": "P1",
                "attach_to": None})
    refused(game, activate("elves"), "summoning_sick")
    play(game, {"type": "begin_turn", "player": "P2"})
    refused(game, activate("elves"), "summoning_sick")
    play(game, {"type": "begin_turn", "player": "P1"})
    obs, _ = play(game, activate("elves"))
    assert obs["players"]["P1"]["mana_pool"] == pool(G=1)


@pytest.mark.parametrize("event, reason", [
    (activate("nobody"), "no_such_object"),
    (activate("forest", 1), "no_such_ability"),
    (activate("forest", -1), "bad_event"),
    ({"type": "activate", "object": "forest", "ability": True}, "bad_event"),
    ({"type": "activate", "object": "forest"}, "bad_event"),
    (activate("bears"), "no_such_ability"),
    (activate("gone"), "not_on_battlefield"),
    ({"type": "begin_turn", "player": "P3"}, "bad_event"),
    ({"type": "begin_turn"}, "bad_event"),
])
def test_malformed_activations_are_refused(event, reason):
    """An event the rules don't allow raises IllegalAction and changes nothing."""
    game = new_game(obj("forest", "Forest"), obj("bears", "Grizzly Bears"), obj("gone", "Forest", zone="graveyard"))
    refused(game, event, reason)


def test_pass_step_empties_every_pool():
    """CR 106.4, 500.4: each player's mana pool empties at the end of each step and phase."""
    game = new_game(obj("forest", "Forest"), obj("island", "Island", "P2"))
    play(game, activate("forest"))
    play(game, activate("island"))
    obs, _ = play(game, {"type": "pass_step"})
    assert obs["players"]["P1"]["mana_pool"] == EMPTY and obs["players"]["P2"]["mana_pool"] == EMPTY
    assert [e for e in obs["log"] if e["kind"] == "mana_lost"] == [
        {"kind": "mana_lost", "player": "P1", "mana": {"G": 1}},
        {"kind": "mana_lost", "player": "P2", "mana": {"U": 1}},
    ]
    assert obs["objects"]["forest"]["tapped"] is True  # passing a step untaps nothing


def test_cleanup_empties_pools():
    """CR 106.4: the cleanup step ends too."""
    game = new_game(obj("forest", "Forest"))
    play(game, activate("forest"))
    obs, _ = play(game, {"type": "cleanup"})
    assert obs["players"]["P1"]["mana_pool"] == EMPTY


def test_begin_turn_untaps_only_that_players_permanents():
    """CR 502.3: the active player untaps their permanents; CR 106.4: the pools empty."""
    game = new_game(obj("forest", "Forest", tapped=True), obj("island", "Island", "P2", tapped=True),
                    obj("elves", "Llanowar Elves", summoning_sick=True), obj("f2", "Forest"))
    play(game, activate("f2"))
    obs, _ = play(game, {"type": "begin_turn", "player": "P1"})
    assert obs["objects"]["forest"]["tapped"] is False and obs["objects"]["f2"]["tapped"] is False
    assert obs["objects"]["island"]["tapped"] is True
    assert obs["objects"]["elves"]["summoning_sick"] is False
    assert obs["players"]["P1"]["mana_pool"] == EMPTY


def test_unearth_is_unsupported_from_the_graveyard_and_illegal_elsewhere():
    """Fatestitcher's unearth (CR 702.84a) is not modelled: activating it from the graveyard
    raises Unsupported (the harness's Unsupported through the adapter); on the battlefield
    it can't be activated at all."""
    board_ = board(obj("fs", "Fatestitcher", zone="graveyard"), obj("fs2", "Fatestitcher"))
    game = ReferenceEngine().new_game(board_)
    with pytest.raises(Unsupported):
        game.apply(activate("fs", 1), Decider())
    refused(game, activate("fs2", 1), "wrong_zone")
    adapted = ReferenceAdapter().new_game(board_)
    with pytest.raises(protocol.Unsupported) as info:
        adapted.apply(activate("fs", 1), Decider())
    assert info.value.reason == "ability:unearth"


def test_unmodelled_ability_is_unsupported():
    """River Boa's "{G}: Regenerate River Boa." is played by activate_regeneration; the
    activate event says it doesn't model it rather than guessing."""
    game = new_game(obj("boa", "River Boa"))
    with pytest.raises(Unsupported):
        game.apply(activate("boa"), Decider())


def test_capabilities_are_in_the_table():
    """The reference engine claims ``mana`` and ``tap_untap_costs``, rows of the table."""
    caps = ReferenceAdapter().info.capabilities
    assert {"mana", "tap_untap_costs"} <= caps
    assert "activate" in protocol.CAPABILITIES["tap_untap_costs"].events
    assert "pass_step" in protocol.CAPABILITIES["mana"].events


def test_differential_ignores_mana_pools_of_an_engine_without_mana():
    """An engine that doesn't claim ``mana`` observes no mana pools: the differential oracle
    doesn't compare them, but still compares everything else of a player."""
    from invariants.differential import Scope, differences

    reference = ReferenceEngine().new_game(board()).observe()
    fork = copy.deepcopy(reference)
    for player in fork["players"].values():
        del player["mana_pool"]
    assert differences(fork, reference, Scope(frozenset({"destroy"}))) == []
    assert differences(fork, reference, Scope(frozenset({"mana"})))
    fork["players"]["P1"]["life"] = 19
    assert differences(fork, reference, Scope(frozenset({"destroy"})))
