"""One look at each permanent per state-based action check (reference_engine.state_based_actions).

The check finds every applicable state-based action of the permanents in one pass (CR 704.3: they
are performed simultaneously): toughness 0 or less (704.5f), lethal and deathtouch damage (704.5g,
704.5h), the legend rule (704.5j), Auras not legally attached (704.5m), +1/+1 and -1/-1 counters
(704.5q), and it clears the record of deathtouch damage. Expected values come from the cards'
Oracle text and the rules, not from the engine.
"""

from __future__ import annotations

from reference_engine import ReferenceEngine

from .scenario_helpers import Decider, board, obj


def new_game(*objects):
    return ReferenceEngine().new_game(board(*objects))


def check(game, *answers):
    game.check_state_based_actions(Decider(*answers))


def test_every_action_of_one_check_is_found_in_the_state_it_began_in():
    """In one check: Grizzly Bears with 2 damage are destroyed (704.5g), Typhoid Rats with a -1/-1
    counter die (toughness 0, 704.5f), a creature dealt deathtouch damage is destroyed (704.5h),
    and an Ornithopter with a +1/+1 and a -1/-1 counter loses both (704.5q), all at once."""
    game = new_game(obj("b", "Grizzly Bears", damage=2), obj("r", "Typhoid Rats", counters={"-1/-1": 1}),
                    obj("d", "Grizzly Bears"), obj("o", "Ornithopter", counters={"+1/+1": 1, "-1/-1": 1}))
    game.objects["d"].damage = 1
    game.objects["d"].deathtouch_damage = True
    check(game)
    assert [game.objects[oid].zone for oid in ("b", "r", "d", "o")] == ["graveyard"] * 3 + ["battlefield"]
    assert dict(game.objects["o"].counters) == {}
    rules = [(e.get("rule") or e["cause"].get("rule") or e["cause"].get("by"), e["object"]) for e in game.log
             if e["kind"] in ("zone_change", "counters_removed")]
    assert ("704.5g", "b") in rules and ("704.5f", "r") in rules and ("704.5h", "d") in rules
    assert ("704.5q", "o") in rules


def test_the_deathtouch_record_is_cleared_by_the_check_even_if_nothing_dies():
    """704.5h reads deathtouch damage dealt "since the last time state-based actions were checked":
    an indestructible creature keeps living, and the record is gone after the check, so the next
    check destroys nothing once indestructible is lost."""
    game = new_game(obj("b", "Darksteel Myr"))
    game.objects["b"].damage = 1
    game.objects["b"].deathtouch_damage = True
    check(game)
    assert game.objects["b"].zone == "battlefield" and game.objects["b"].deathtouch_damage is False


def test_two_legends_and_a_lethal_damage_in_the_same_check():
    """704.5j: of two legendary permanents with the same name their controller keeps one, the
    other is put into the graveyard in the same event as a creature destroyed by 704.5g."""
    game = new_game(obj("k1", "Isamaru, Hound of Konda"), obj("k2", "Isamaru, Hound of Konda"),
                    obj("b", "Grizzly Bears", damage=2))
    check(game, "k2")
    assert [game.objects[oid].zone for oid in ("k1", "k2", "b")] == ["graveyard", "battlefield", "graveyard"]
