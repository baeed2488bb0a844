"""Scenario tests of the reference engine's general rules: illegal events, board
validation, state-based actions to a fixed point, last known information, layers,
determinism.

Each docstring cites the CR rule (comprehensive-rules-excerpt, 2025-02-07) or the ruling
it encodes. Umbra armor itself is in ``test_umbra_rulings.py``.
"""

from __future__ import annotations

import copy
import json

import pytest

from reference_engine import BadBoard, EngineError, IllegalAction, ReferenceEngine

from .scenario_helpers import Decider, aura, board, obj

# --------------------------------------------------------------------------- helpers


def new_game(*objects, life=20):
    return ReferenceEngine().new_game(board(*objects, life=life))


def play(game, event, *answers):
    decider = Decider(*answers)
    game.apply(event, decider)
    assert decider.answers == [], f"scripted answers not used: {decider.answers}"
    return game.observe(), decider.asked


def cast(card, *targets, by="P2"):
    return {"type": "cast", "card": card, "controller": by, "targets": list(targets)}


def damage(source, target, amount):
    return {"type": "damage", "source": source, "target": target, "amount": amount}


def moves(obs):
    return [(e["object"], e["to"], e["cause"]) for e in obs["log"] if e["kind"] == "zone_change"]


def sba(rule):
    return {"event": "state_based_action", "rule": rule}


def pending_state_based_actions(obs) -> list[str]:
    """State-based actions (CR 704.5) that would apply to this observation.

    Computed from the observation alone, so it checks the engine's fixed point
    independently of its own loop: 704.5a, 704.5d, 704.5f, 704.5g, 704.5j, 704.5m, 704.5q.
    (704.5h needs "damage since the last check", which an observation can't show.)
    """
    found = []
    objects = obs["objects"]
    for pid, player in obs["players"].items():
        if player["life"] <= 0 and not player["lost"]:
            found.append(f"704.5a {pid}")
    legends: dict[tuple[str, str], list[str]] = {}
    for oid, o in objects.items():
        if o["token"] and o["zone"] != "battlefield":
            found.append(f"704.5d {oid}")
        if o["zone"] != "battlefield":
            continue
        if "Creature" in o["types"]:
            if o["toughness"] <= 0:
                found.append(f"704.5f {oid}")
            elif o["damage"] and o["damage"] >= o["toughness"] and "indestructible" not in o["keywords"]:
                found.append(f"704.5g {oid}")
        if "Aura" in o["subtypes"]:
            host = objects.get(o["attached_to"]) if o["attached_to"] else None
            if host is None or host["zone"] != "battlefield" or "Creature" not in host["types"]:
                found.append(f"704.5m {oid}")
        if o["counters"].get("+1/+1") and o["counters"].get("-1/-1"):
            found.append(f"704.5q {oid}")
        if "Legendary" in o["supertypes"]:
            legends.setdefault((o["controller"], o["name"]), []).append(oid)
    found += [f"704.5j {ids}" for ids in legends.values() if len(ids) > 1]
    return found


# ---------------------------------------------------- illegal events change nothing


def _illegal_board():
    return (
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        obj("rats", "Typhoid Rats", owner="P2"), obj("skeletons", "Drudge Skeletons", owner="P2"),
        obj("boa", "River Boa"), obj("dead", "Grizzly Bears", zone="graveyard"),
        obj("murder", "Murder", zone="hand"),
    )


ILLEGAL_EVENTS = [
    # (event, reason)
    ({"type": "explode"}, "unknown_event"),
    ("destroy", "unknown_event"),
    ({}, "unknown_event"),
    (cast("Murder", "hyena"), "illegal_target"),
    (cast("Murder", "dead"), "not_on_battlefield"),
    (cast("Murder", "murder"), "not_on_battlefield"),
    (cast("Murder", "ghost"), "no_such_object"),
    (cast("Murder", "P1"), "no_such_object"),
    (cast("Murder"), "illegal_target"),
    (cast("Murder", "bears", "rats"), "illegal_target"),
    (cast("Wrath of God", "bears"), "illegal_target"),
    (cast("Doom Blade", "rats"), "illegal_target"),
    (cast("Doom Blade", "skeletons"), "illegal_target"),
    (cast("Shock", "hyena"), "illegal_target"),
    (cast("Grizzly Bears", "bears"), "not_a_spell"),
    (cast("Hyena Umbra", "bears"), "not_a_spell"),
    (cast("Black Lotus", "bears"), "unknown_card"),
    (cast("Murder", "bears", by="P3"), "bad_event"),
    ({"type": "cast", "card": "Murder", "controller": "P1", "targets": "bears"}, "bad_event"),
    # damage of 0 is an event of capability damage.zero (CR 120.8), which the reference engine claims
    (damage("bears", "rats", -1), "bad_event"),
    (damage("bears", "rats", True), "bad_event"),
    (damage("bears", "rats", "2"), "bad_event"),
    (damage("dead", "rats", 1), "not_on_battlefield"),
    (damage("ghost", "rats", 1), "no_such_object"),
    (damage("bears", "hyena", 1), "illegal_target"),
    (damage("bears", "P3", 1), "no_such_object"),
    ({"type": "destroy", "targets": []}, "bad_event"),
    ({"type": "destroy", "targets": "bears"}, "bad_event"),
    ({"type": "destroy", "targets": ["bears", "bears"]}, "bad_event"),
    ({"type": "destroy", "targets": ["bears", "dead"]}, "not_on_battlefield"),
    ({"type": "sacrifice", "object": "ghost"}, "no_such_object"),
    ({"type": "sacrifice", "object": "dead"}, "not_on_battlefield"),
    ({"type": "modify_pt", "object": "bears", "power": None, "toughness": -1}, "bad_event"),
    ({"type": "modify_pt", "object": "hyena", "power": 1, "toughness": 1}, "illegal_target"),
    ({"type": "put_onto_battlefield", "id": "bears", "card": "Grizzly Bears", "controller": "P1"}, "bad_event"),
    ({"type": "put_onto_battlefield", "id": "", "card": "Grizzly Bears", "controller": "P1"}, "bad_event"),
    ({"type": "put_onto_battlefield", "id": "new", "card": "Murder", "controller": "P1"}, "not_a_permanent"),
    ({"type": "put_onto_battlefield", "id": "new", "card": "Black Lotus", "controller": "P1"}, "unknown_card"),
    ({"type": "put_onto_battlefield", "id": "new", "card": "Grizzly Bears", "controller": "P3"}, "bad_event"),
    ({"type": "put_onto_battlefield", "id": "new", "card": "Boar Umbra", "controller": "P1"}, "no_such_object"),
    ({"type": "put_onto_battlefield", "id": "new", "card": "Boar Umbra", "controller": "P1",
      "attach_to": "hyena"}, "illegal_attachment"),
    ({"type": "put_onto_battlefield", "id": "new", "card": "Boar Umbra", "controller": "P1",
      "attach_to": "dead"}, "not_on_battlefield"),
    ({"type": "put_onto_battlefield", "id": "new", "card": "Grizzly Bears", "controller": "P1",
      "attach_to": "bears"}, "illegal_attachment"),
    ({"type": "attach", "aura": "bears", "to": "rats"}, "not_an_aura"),
    ({"type": "attach", "aura": "hyena", "to": "bears"}, "illegal_attachment"),
    ({"type": "attach", "aura": "hyena", "to": "hyena"}, "illegal_attachment"),
    ({"type": "attach", "aura": "hyena", "to": "dead"}, "not_on_battlefield"),
    ({"type": "activate_regeneration", "object": "bears"}, "no_such_ability"),
    ({"type": "activate_regeneration", "object": "dead"}, "not_on_battlefield"),
    ({"type": "set_combat", "object": "bears", "status": "flying"}, "bad_event"),
    ({"type": "set_combat", "object": "hyena", "status": "attacking"}, "illegal_target"),
]


@pytest.mark.parametrize("event, reason", ILLEGAL_EVENTS, ids=[f"{i}-{r}" for i, (_, r) in enumerate(ILLEGAL_EVENTS)])
def test_illegal_event_raises_and_changes_nothing(event, reason):
    """Engine protocol and CR 101.1 / 601.2c (illegal targets): "An illegal attempt raises
    IllegalAction with a reason code and leaves the game unchanged", not even the log of
    the previous event. A first legal event (Shock to P2) makes the log non-empty."""
    game = new_game(*_illegal_board())
    play(game, cast("Shock", "P2", by="P1"))
    before = copy.deepcopy(game.observe())
    assert before["log"]
    decider = Decider()
    with pytest.raises(IllegalAction) as info:
        game.apply(event, decider)
    assert info.value.reason == reason
    assert decider.asked == []
    assert game.observe() == before


def test_no_event_after_the_game_is_over():
    """CR 104.3b / 704.5a: a player with 0 or less life loses. The engine then refuses any
    event ("game_over") and changes nothing."""
    game = new_game(obj("bears", "Grizzly Bears"), life=2)
    obs, _ = play(game, cast("Shock", "P2", by="P1"))
    assert obs["players"]["P2"] == {"life": 0, "lost": True, "mana_pool": dict.fromkeys("WUBRGC", 0),
                                    "max_hand_size": 7}
    assert obs["log"] == [
        {"kind": "damage", "source": "Shock", "target": "P2", "amount": 2, "deathtouch": False},
        {"kind": "player_lost", "player": "P2", "rule": "704.5a"},
    ]
    before = copy.deepcopy(obs)
    with pytest.raises(IllegalAction) as info:
        game.apply(cast("Murder", "bears"), Decider())
    assert info.value.reason == "game_over"
    assert game.observe() == before


UNHASHABLE_EVENTS = [
    {"type": ["destroy"]},
    {"type": "destroy", "targets": [["bears"]]},
    damage("bears", ["rats"], 1),
    cast("Shock", {"id": "bears"}),
    {"type": "cast", "card": "Murder", "controller": ["P2"], "targets": ["bears"]},
]


@pytest.mark.parametrize("event", UNHASHABLE_EVENTS)
def test_malformed_event_values_raise_illegal_action(event):
    """Engine protocol: "Illegal attempts raise IllegalAction with a reason code and leave
    the game unchanged." An event whose id, player or type field is a list or a dict is
    malformed ("bad_event"/"unknown_event"), not a crash."""
    game = new_game(obj("bears", "Grizzly Bears"), obj("rats", "Typhoid Rats", owner="P2"))
    before = copy.deepcopy(game.observe())
    with pytest.raises(IllegalAction):
        game.apply(event, Decider())
    assert game.observe() == before


# ------------------------------------------------------------- board validation


BAD_BOARDS = [
    # (board, text the message must contain)
    ([], "board"),
    ({"players": [], "objects": []}, "board.players"),
    ({"players": [{"id": "P1"}, {"id": "P1"}]}, "board.players[1].id"),
    ({"players": [{"id": 1}]}, "board.players[0]"),
    ({"players": [{"id": "P1", "life": "20"}]}, "board.players[0].life"),
    ({"players": [{"id": "P1", "life": True}]}, "board.players[0].life"),
    ({"players": [{"id": "P1"}], "objects": {}}, "board.objects"),
    (board(obj("x", "Black Lotus")), "board.objects[0].card"),
    (board(obj("x", None)), "board.objects[0].card"),
    (board(obj("x", "Grizzly Bears", zone="stack")), "board.objects[0].zone"),
    (board(obj("x", "Grizzly Bears", zone="command")), "board.objects[0].zone"),
    (board(obj("x", "Grizzly Bears"), obj("x", "Typhoid Rats")), "board.objects[1].id"),
    (board(obj("", "Grizzly Bears")), "board.objects[0].id"),
    (board(obj(7, "Grizzly Bears")), "board.objects[0].id"),
    (board(obj("x", "Grizzly Bears", owner="P3")), "board.objects[0].owner"),
    (board(obj("x", "Grizzly Bears", controller="P3")), "board.objects[0].controller"),
    (board(obj("x", "Grizzly Bears", zone="graveyard", controller="P2")), "board.objects[0].controller"),
    (board(obj("x", "Murder")), "board.objects[0]"),
    (board(obj("x", "Grizzly Bears", damage=-1)), "board.objects[0].damage"),
    (board(obj("x", "Grizzly Bears", damage="2")), "board.objects[0].damage"),
    (board(obj("x", "Grizzly Bears", damage=True)), "board.objects[0].damage"),
    (board(obj("x", "Grizzly Bears", damage=1.5)), "board.objects[0].damage"),
    (board(obj("x", "Grizzly Bears", damage=None)), "board.objects[0].damage"),
    (board(obj("x", "Grizzly Bears", regeneration_shields=-1)), "board.objects[0].regeneration_shields"),
    (board(obj("x", "Grizzly Bears", tapped="yes")), "board.objects[0].tapped"),
    (board(obj("x", "Grizzly Bears", counters={"+1/+1": -1})), "board.objects[0].counters"),
    (board(obj("x", "Grizzly Bears", counters=[1])), "board.objects[0].counters"),
    (board(obj("x", "Grizzly Bears", combat="flying")), "board.objects[0].combat"),
    (board(obj("x", "Grizzly Bears", zone="graveyard", damage=1)), "board.objects[0]"),
    (board(obj("x", "Grizzly Bears", zone="hand", tapped=True)), "board.objects[0]"),
    (board(obj("a", "Hyena Umbra")), "'a'"),
    (board(obj("b", "Grizzly Bears"), aura("a", "Hyena Umbra", "ghost")), "board.objects[1].attached_to"),
    (board(obj("b", "Grizzly Bears"), aura("a", "Hyena Umbra", "b"), aura("c", "Boar Umbra", "a")),
     "board.objects[2].attached_to"),
    (board(aura("a", "Hyena Umbra", "a")), "board.objects[0].attached_to"),
    (board(obj("b", "Grizzly Bears"), aura("c", "Grizzly Bears", "b")), "board.objects[1].attached_to"),
    (board(obj("b", "Grizzly Bears"), aura("a", "Hyena Umbra", "b", zone="graveyard")),
     "board.objects[1].attached_to"),
    (board(obj("b", "Grizzly Bears", zone="graveyard"), aura("a", "Hyena Umbra", "b")),
     "board.objects[1].attached_to"),
]


@pytest.mark.parametrize("bad, field", BAD_BOARDS, ids=[f"{i}-{f}" for i, (_, f) in enumerate(BAD_BOARDS)])
def test_bad_board_is_refused_naming_the_field(bad, field):
    """Engine protocol: new_game raises BadBoard (a ValueError) "for a malformed board and
    names the field at fault". Covers unknown cards, zones outside CR 400.1 (the stack is
    not modelled), duplicate ids, non-permanents on the battlefield (CR 110.4a), state
    only permanents have (CR 110.5), Auras not legally attached (CR 303.4, 704.5m)."""
    with pytest.raises(BadBoard) as info:
        ReferenceEngine().new_game(bad)
    assert field in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, EngineError)


def test_unattached_aura_message():
    """CR 303.4a / 704.5m: an Aura on the battlefield must be attached to something; the
    message names the Aura."""
    with pytest.raises(BadBoard, match=r"Aura 'a' on the battlefield is not attached to anything"):
        ReferenceEngine().new_game(board(obj("a", "Hyena Umbra")))


def test_object_id_equal_to_a_player_id_is_refused():
    """Board validation (duplicate ids): object ids and player ids share the namespace of
    event targets ("target": ID or P, harness.protocol), so an object called "P1" is
    ambiguous and must be refused with a message naming board.objects[0].id."""
    with pytest.raises(BadBoard, match=r"board\.objects\[0\]\.id"):
        ReferenceEngine().new_game(board(obj("P1", "Grizzly Bears")))


def test_a_valid_board_round_trips_into_the_observation():
    """Engine protocol: every board field is reflected in the observation, with computed
    characteristics (CR 613): Grizzly Bears with Boar Umbra and a +1/+1 counter is 6/6."""
    game = new_game(
        obj("bears", "Grizzly Bears", tapped=True, summoning_sick=True, damage=1, counters={"+1/+1": 1},
            combat="blocking", regeneration_shields=2),
        aura("boar", "Boar Umbra", "bears", owner="P2", controller="P1"),
        obj("card", "Murder", zone="hand", owner="P2"),
        obj("token", "Grizzly Bears", owner="P2", token=True),
    )
    obs = game.observe()
    bears = obs["objects"]["bears"]
    assert (bears["power"], bears["toughness"], bears["damage"], bears["counters"]) == (6, 6, 1, {"+1/+1": 1})
    assert (bears["tapped"], bears["summoning_sick"], bears["combat"], bears["regeneration_shields"]) == (
        True, True, "blocking", 2)
    assert (obs["objects"]["boar"]["owner"], obs["objects"]["boar"]["controller"]) == ("P2", "P1")
    assert obs["objects"]["token"]["token"] is True
    assert obs["zones"]["battlefield"] == ["bears", "boar", "token"]
    assert obs["zones"]["hand"] == {"P1": [], "P2": ["card"]}
    assert obs["log"] == []
    assert json.loads(json.dumps(obs)) == obs


# ------------------------------------------ state-based actions: a fixed point


def test_aura_leaving_makes_damage_lethal_and_the_next_umbra_saves():
    """CR 704.3: state-based actions are checked again after each batch, until none apply.
    Grizzly Bears with Boar and Hyena Umbra (6/6, 3 damage). Boar Umbra is sacrificed:
    the bears are 3/3 with 3 damage (704.5g), Hyena Umbra's umbra armor replaces that
    destruction (702.89a), all in the one event; no state-based action is left pending."""
    game = new_game(
        obj("bears", "Grizzly Bears", damage=3), aura("boar", "Boar Umbra", "bears"),
        aura("hyena", "Hyena Umbra", "bears"),
    )
    obs, asked = play(game, {"type": "sacrifice", "object": "boar"})
    assert asked == []
    assert moves(obs) == [
        ("boar", "graveyard", {"event": "sacrifice", "by": "P1"}),
        ("hyena", "graveyard", {"event": "destroy", "by": "704.5g"}),
    ]
    assert obs["objects"]["bears"]["zone"] == "battlefield"
    assert obs["objects"]["bears"]["damage"] == 0
    assert pending_state_based_actions(obs) == []


def test_umbra_saves_but_the_aura_leaving_makes_toughness_zero():
    """CR 704.3 and 704.5f: Grizzly Bears with Boar Umbra and -3/-3 until end of turn
    (2/2). Murder: umbra armor destroys the Boar Umbra instead; the bears are now -1/-1 and
    are put into the graveyard by 704.5f in the same event's state-based actions."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("boar", "Boar Umbra", "bears"))
    play(game, {"type": "modify_pt", "object": "bears", "power": -3, "toughness": -3})
    obs, asked = play(game, cast("Murder", "bears"))
    assert asked == []
    assert moves(obs) == [
        ("boar", "graveyard", {"event": "destroy", "by": "Murder"}),
        ("bears", "graveyard", sba("704.5f")),
    ]
    assert pending_state_based_actions(obs) == []


def test_plus_and_minus_counters_annihilate():
    """CR 704.5q: "If a permanent has both a +1/+1 counter and a -1/-1 counter on it, N
    +1/+1 and N -1/-1 counters are removed from it, where N is the smaller". The board
    has the pair; the next event's state-based actions remove it."""
    game = new_game(obj("bears", "Grizzly Bears", counters={"+1/+1": 2, "-1/-1": 1}))
    assert game.observe()["objects"]["bears"]["toughness"] == 3
    obs, _ = play(game, {"type": "set_combat", "object": "bears", "status": "attacking"})
    assert obs["objects"]["bears"]["counters"] == {"+1/+1": 1}
    assert obs["objects"]["bears"]["toughness"] == 3
    assert obs["log"] == [{"kind": "counters_removed", "object": "bears", "rule": "704.5q", "amount": 1}]
    assert pending_state_based_actions(obs) == []


def test_token_ceases_to_exist():
    """CR 704.5d / 111.7: a token in a zone other than the battlefield ceases to exist.
    A token Grizzly Bears is destroyed by Murder: it goes to the graveyard, then ceases to
    exist; it is no longer observed anywhere."""
    game = new_game(obj("token", "Grizzly Bears", token=True))
    obs, _ = play(game, cast("Murder", "token"))
    assert obs["log"] == [
        {"kind": "zone_change", "object": "token", "from": "battlefield", "to": "graveyard",
         "cause": {"event": "destroy", "by": "Murder"}},
        {"kind": "zone_change", "object": "token", "from": "graveyard", "to": None, "cause": sba("704.5d")},
    ]
    assert "token" not in obs["objects"]
    assert obs["zones"]["graveyard"] == {"P1": [], "P2": []}


def test_a_pending_state_based_action_on_the_board_is_performed_by_the_next_event():
    """CR 704.3: state-based actions are checked whenever a player would receive priority.
    A board may start with a creature with lethal damage; the first event (here
    unrelated) destroys it by 704.5g."""
    game = new_game(obj("bears", "Grizzly Bears", damage=2), obj("rats", "Typhoid Rats"))
    assert pending_state_based_actions(game.observe()) == ["704.5g bears"]
    obs, _ = play(game, {"type": "set_combat", "object": "rats", "status": "attacking"})
    assert moves(obs) == [("bears", "graveyard", {"event": "destroy", "by": "704.5g"})]
    assert pending_state_based_actions(obs) == []


SEQUENCE = [
    ({"type": "activate_regeneration", "object": "boa"}, ()),
    (damage("rats", "boa", 1), ("regeneration",)),
    (cast("Lightning Bolt", "bears"), ()),
    ({"type": "put_onto_battlefield", "id": "isamaru2", "card": "Isamaru, Hound of Konda",
      "controller": "P1"}, ("isamaru2",)),
    ({"type": "modify_pt", "object": "myr", "power": 0, "toughness": -1}, ()),
    ({"type": "sacrifice", "object": "spider"}, ()),
    (cast("Wrath of God", by="P2"), ()),
    ({"type": "cleanup"}, ()),
]


def test_no_state_based_action_is_pending_after_any_event():
    """CR 704.3 (generic property): after each event of a mixed sequence the game is at a
    fixed point; none of 704.5a/d/f/g/j/m/q applies to the observation."""
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        obj("boa", "River Boa"), aura("spider", "Spider Umbra", "boa"),
        obj("rats", "Typhoid Rats", owner="P2"), obj("myr", "Darksteel Myr"),
        aura("crab", "Crab Umbra", "myr", owner="P2"),
        obj("isamaru", "Isamaru, Hound of Konda", token=True),
    )
    for event, answers in SEQUENCE:
        obs, _ = play(game, event, *answers)
        assert pending_state_based_actions(obs) == [], event
    obs = game.observe()
    # River Boa regenerated from the deathtouch damage (P1 chose its shield over Spider
    # Umbra); Hyena Umbra saved the bears from Lightning Bolt; the token Isamaru lost the
    # legend rule and ceased to exist; the Myr went at toughness 0 (704.5f) taking the
    # Crab Umbra (704.5m); Wrath of God destroyed everything left, no Aura remaining.
    assert obs["zones"]["battlefield"] == []
    assert "isamaru" not in obs["objects"]
    assert sorted(obs["zones"]["graveyard"]["P1"]) == ["bears", "boa", "hyena", "isamaru2", "myr", "spider"]
    assert sorted(obs["zones"]["graveyard"]["P2"]) == ["crab", "rats"]


def test_legend_rule_and_toughness_zero_are_simultaneous():
    """CR 704.3: "the game checks for any of the listed conditions for state-based actions,
    then performs all applicable state-based actions simultaneously as a single event."
    CR 704.5j: "that player chooses one of them, and the rest are put into their owners'
    graveyards."

    P1 controls two Isamaru; one gets -2/-2 (toughness 0). At that check both 704.5f (for
    the weakened one) and 704.5j apply: P1 is asked to choose. If P1 keeps the weakened
    one, both go: it by 704.5f, the other by 704.5j. (With the lethally damaged Isamaru,
    704.5g, the engine already asks: see the next test.)"""
    game = new_game(obj("a", "Isamaru, Hound of Konda"), obj("b", "Isamaru, Hound of Konda", owner="P2", controller="P1"))
    obs, asked = play(game, {"type": "modify_pt", "object": "a", "power": -2, "toughness": -2}, "a")
    assert asked == [("P1", "legend_rule", ["a", "b"])]
    assert sorted(moves(obs)) == [("a", "graveyard", sba("704.5f")), ("b", "graveyard", sba("704.5j"))]


def test_legend_rule_and_lethal_damage_are_simultaneous():
    """CR 704.3, 704.5g, 704.5j: P1 controls two Isamaru (one owned by P2); one is dealt 2
    damage. P1 is asked, keeps the damaged one; it is destroyed (704.5g) and the other is
    put into its owner's (P2's) graveyard (704.5j), in one event."""
    # The board already has two Isamaru: the legend rule is pending until the first event.
    game = new_game(
        obj("a", "Isamaru, Hound of Konda"), obj("b", "Isamaru, Hound of Konda", owner="P2", controller="P1"),
    )
    obs, asked = play(game, cast("Shock", "a"), "a")
    assert asked == [("P1", "legend_rule", ["a", "b"])]
    assert sorted(moves(obs)) == [("a", "graveyard", {"event": "destroy", "by": "704.5g"}),
                                  ("b", "graveyard", sba("704.5j"))]
    assert obs["zones"]["graveyard"] == {"P1": ["a"], "P2": ["b"]}


# ---------------------------------------- last known information (Breathe Your Last)


def test_breathe_your_last_gains_life_for_each_colour_of_the_destroyed_creature():
    """Breathe Your Last (Oracle): "Destroy target creature or planeswalker. You gain 1
    life for each of its colors." CR 608.2h: the creature has left the battlefield, so
    its last known information gives its colours (Grizzly Bears: green, 1 life)."""
    game = new_game(obj("bears", "Grizzly Bears"))
    obs, asked = play(game, cast("Breathe Your Last", "bears", by="P2"))
    assert asked == []
    assert obs["log"] == [
        {"kind": "zone_change", "object": "bears", "from": "battlefield", "to": "graveyard",
         "cause": {"event": "destroy", "by": "Breathe Your Last"}},
        {"kind": "life_gained", "player": "P2", "amount": 1},
    ]
    assert {p: (v["life"], v["lost"]) for p, v in obs["players"].items()} == {"P1": (20, False), "P2": (21, False)}


def test_breathe_your_last_can_target_black_unlike_doom_blade():
    """Breathe Your Last has no colour restriction (Doom Blade: "target nonblack
    creature"). Typhoid Rats (black): destroyed, the caster gains 1."""
    game = new_game(obj("rats", "Typhoid Rats", owner="P2"))
    obs, _ = play(game, cast("Breathe Your Last", "rats", by="P1"))
    assert obs["objects"]["rats"]["zone"] == "graveyard"
    assert obs["players"]["P1"]["life"] == 21
    with pytest.raises(IllegalAction):
        new_game(obj("rats", "Typhoid Rats")).apply(cast("Doom Blade", "rats"), Decider())


def test_breathe_your_last_on_a_colourless_creature_gains_nothing():
    """Breathe Your Last: 1 life "for each of its colors"; Darksteel Myr is colourless (and
    indestructible, CR 702.12b, so it stays): no life is gained and nothing is logged."""
    game = new_game(obj("myr", "Darksteel Myr"))
    obs, _ = play(game, cast("Breathe Your Last", "myr", by="P1"))
    assert obs["log"] == []
    assert obs["players"]["P1"]["life"] == 20
    assert obs["objects"]["myr"]["zone"] == "battlefield"


def test_breathe_your_last_still_gains_life_when_umbra_armor_saves_the_creature():
    """Breathe Your Last's life gain does not depend on the creature being destroyed
    ("You gain 1 life for each of its colors"); umbra armor ruling (Felidar Umbra): it is
    applied to "an effect that says to 'destroy' it (such as Breathe Your Last)"."""
    game = new_game(obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"))
    obs, _ = play(game, cast("Breathe Your Last", "bears", by="P2"))
    assert obs["objects"]["bears"]["zone"] == "battlefield"
    assert obs["objects"]["hyena"]["zone"] == "graveyard"
    assert obs["players"]["P2"]["life"] == 21


# --------------------------------------------------------------- regeneration


def test_regeneration_replaces_lethal_damage_taps_and_removes_from_combat():
    """CR 701.15a: "The next time [permanent] would be destroyed this turn, instead remove
    all damage marked on it and its controller taps it. If it's an attacking or blocking
    creature, remove it from combat." CR 704.5g: "Regeneration can replace this event."
    Drudge Skeletons (blocking) with two shields takes 3 damage: one shield is used."""
    game = new_game(obj("skel", "Drudge Skeletons", combat="blocking"), obj("bears", "Grizzly Bears", owner="P2"))
    play(game, {"type": "activate_regeneration", "object": "skel"})
    obs, _ = play(game, {"type": "activate_regeneration", "object": "skel"})
    assert obs["log"] == [{"kind": "regeneration_shield", "object": "skel"}]
    obs, asked = play(game, damage("bears", "skel", 3))
    assert asked == []
    skel = obs["objects"]["skel"]
    assert (skel["zone"], skel["damage"], skel["tapped"], skel["combat"], skel["regeneration_shields"]) == (
        "battlefield", 0, True, None, 1)
    assert [e["kind"] for e in obs["log"]] == ["damage", "replacement", "damage_removed", "tapped", "removed_from_combat"]


def test_regeneration_does_not_replace_sacrifice_or_toughness_zero():
    """CR 701.15a replaces destruction only; CR 704.5f: "Regeneration can't replace this
    event." River Boa with a shield, given -1/-1 (toughness 0): it is put into the
    graveyard by 704.5f."""
    game = new_game(obj("boa", "River Boa", regeneration_shields=1))
    obs, _ = play(game, {"type": "modify_pt", "object": "boa", "power": -1, "toughness": -1})
    assert moves(obs) == [("boa", "graveyard", sba("704.5f"))]
    game = new_game(obj("boa", "River Boa", regeneration_shields=1))
    obs, _ = play(game, {"type": "sacrifice", "object": "boa"})
    assert moves(obs) == [("boa", "graveyard", {"event": "sacrifice", "by": "P1"})]


# -------------------------------------------------------------------- layers


def test_octopus_umbra_sets_base_pt_and_earlier_pump_still_applies():
    """Octopus Umbra ruling: "Any power- or toughness-modifying effects (those that give
    +N/+N, for example) and counters will apply to the creature's new base power and
    toughness, even if they started to apply before Octopus Umbra became attached." CR
    613.4b (layer 7b sets base P/T), 613.4c (7c modifies).

    Grizzly Bears with a +1/+1 counter gets Giant Growth (6/6), then Octopus Umbra enters
    attached: 8/8 base, +3/+3, +1/+1 = 12/12. Cleanup ends Giant Growth: 9/9."""
    game = new_game(obj("bears", "Grizzly Bears", counters={"+1/+1": 1}))
    obs, _ = play(game, cast("Giant Growth", "bears", by="P1"))
    assert (obs["objects"]["bears"]["power"], obs["objects"]["bears"]["toughness"]) == (6, 6)
    obs, _ = play(game, {"type": "put_onto_battlefield", "id": "octo", "card": "Octopus Umbra",
                         "controller": "P1", "attach_to": "bears"})
    assert moves(obs) == [("octo", "battlefield", {"event": "put_onto_battlefield"})]
    assert (obs["objects"]["bears"]["power"], obs["objects"]["bears"]["toughness"]) == (12, 12)
    obs, _ = play(game, {"type": "cleanup"})
    assert (obs["objects"]["bears"]["power"], obs["objects"]["bears"]["toughness"]) == (9, 9)


def test_aura_keywords_are_layer_6_and_leave_with_the_aura():
    """CR 613.1f (layer 6): Hyena Umbra grants first strike, Spider Umbra reach, Mammoth
    Umbra vigilance, Drake Umbra flying; when an Aura leaves, its grant ends."""
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        aura("drake", "Drake Umbra", "bears"),
    )
    bears = game.observe()["objects"]["bears"]
    assert bears["keywords"] == ["first strike", "flying"]
    assert (bears["power"], bears["toughness"]) == (6, 6)
    obs, _ = play(game, {"type": "sacrifice", "object": "drake"})
    assert obs["objects"]["bears"]["keywords"] == ["first strike"]
    assert (obs["objects"]["bears"]["power"], obs["objects"]["bears"]["toughness"]) == (3, 3)


def test_put_onto_battlefield_creature_is_summoning_sick():
    """CR 302.6: a creature that entered this turn can't attack or use {T} abilities (the
    engine shows it as summoning_sick); CR 110.2: it enters under the stated controller."""
    game = new_game()
    obs, _ = play(game, {"type": "put_onto_battlefield", "id": "rats", "card": "Typhoid Rats", "controller": "P2"})
    rats = obs["objects"]["rats"]
    assert (rats["zone"], rats["owner"], rats["controller"], rats["summoning_sick"]) == ("battlefield", "P2", "P2", True)


# ------------------------------------------------- determinism and JSON shape


def _run_script():
    game = new_game(
        obj("bears", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "bears"),
        aura("spider", "Spider Umbra", "bears", owner="P2"), obj("boa", "River Boa", regeneration_shields=1),
        aura("boar", "Boar Umbra", "boa"), obj("rats", "Typhoid Rats", owner="P2"),
    )
    observations = []
    for event, answers in [
        (damage("rats", "bears", 1), ("umbra armor:spider",)),
        (cast("Murder", "boa"), ("regeneration",)),
        (cast("Wrath of God"), ()),
        ({"type": "cleanup"}, ()),
    ]:
        obs, asked = play(game, event, *answers)
        observations.append((obs, asked))
    return observations


def test_same_events_and_decisions_give_the_same_observations():
    """DESIGN (generic properties): the same events and decisions always give the same
    observation, and who was asked what is the same; every observation round-trips
    through JSON unchanged."""
    first, second = _run_script(), _run_script()
    assert first == second
    for obs, _ in first:
        assert json.loads(json.dumps(obs)) == obs
    final = first[-1][0]
    # Spider Umbra took the deathtouch, the Boa regenerated from Murder; Wrath of God
    # (can't be regenerated) cost Hyena and Boar Umbra and killed the Rats.
    assert final["zones"]["battlefield"] == ["bears", "boa"]
    assert final["zones"]["graveyard"] == {"P1": ["hyena", "boar"], "P2": ["spider", "rats"]}
    assert final["objects"]["boa"]["tapped"] is True
    assert [asked for _, asked in first] == [
        [("P1", "replacement_effect", ["umbra armor:hyena", "umbra armor:spider"])],
        [("P1", "replacement_effect", ["umbra armor:boar", "regeneration"])],
        [],
        [],
    ]
