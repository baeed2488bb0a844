"""One look at each permanent per state-based action check, and what the engine reads without
computing in passing states (reference_engine.state_based_actions, layers, copies, control, mana,
playtest).

The check finds every applicable state-based action of the permanents in one pass (CR 704.3: they
are performed simultaneously): toughness 0 or less (704.5f), lethal and deathtouch damage (704.5g,
704.5h), the legend rule (704.5j), Auras not legally attached (704.5m, kept from the last check for
this package's rules, decided afresh by a fork's), +1/+1 and -1/-1 counters (704.5q), and it clears
the record of deathtouch damage. Whether a permanent entering or changing control is summoning sick
(CR 302.6) and whether it is a land (CR 205.2a) are read from its copiable card types (CR 613.1d:
no effect of the card pool changes card types; a Clone's are those it copies, CR 707.2); the
permanents' copiable scripts are read directly unless a fork's ``copiable_values`` gives them.
Expected values come from the cards' Oracle text and the rules, not from the engine.
"""

from __future__ import annotations

from reference_engine import ReferenceEngine

from .scenario_helpers import Decider, board, fuzz_with_engine_function_checked, obj


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


def test_a_permanent_entering_is_summoning_sick_if_it_is_a_creature():
    """CR 302.6: a creature is summoning sick until its controller has controlled it continuously
    since their most recent turn began; Grizzly Bears and Ornithopter (artifact creature) enter
    sick, Thought Vessel (noncreature artifact) and a Forest (land) don't."""
    game = new_game(obj("x", "Ornithopter", zone="hand"))
    for oid, name in (("b", "Grizzly Bears"), ("o", "Ornithopter"), ("v", "Thought Vessel"), ("f", "Forest")):
        game.apply({"type": "put_onto_battlefield", "card": name, "id": oid, "controller": "P1"}, Decider())
    observed = game.observe()["objects"]
    assert [observed[oid]["summoning_sick"] for oid in "bovf"] == [True, True, False, False]


def test_a_clone_entering_as_a_copy_of_a_creature_is_summoning_sick():
    """A Clone enters as a copy of Grizzly Bears (CR 707.5): its copiable types are a creature's
    (CR 707.2), so it is summoning sick (CR 302.6)."""
    game = new_game(obj("b", "Grizzly Bears"))
    game.apply({"type": "put_onto_battlefield", "card": "Clone", "id": "c", "controller": "P1", "copy_of": "b"},
               Decider())
    entry = game.observe()["objects"]["c"]
    assert entry["name"] == "Grizzly Bears" and entry["summoning_sick"] is True


def test_a_permanent_changing_control_is_summoning_sick_if_it_is_a_creature():
    """CR 302.6: a creature that comes under another player's control is summoning sick; an
    artifact that isn't a creature (Thought Vessel) isn't."""
    game = new_game(obj("b", "Grizzly Bears"), obj("v", "Thought Vessel"))
    for oid in "bv":
        game.apply({"type": "change_control", "object": oid, "controller": "P2"}, Decider())
    observed = game.observe()["objects"]
    assert (observed["b"]["summoning_sick"], observed["v"]["summoning_sick"]) == (True, False)


def test_card_types_are_the_computed_ones_throughout_a_run(monkeypatch, outside_coverage):
    """``layers.card_types`` stands for the card types of the characteristics (CR 205.2a, 613.1d):
    every read of a short fuzzing run on the reference engine (both modes) is compared with the
    object's characteristics; an effect that changed card types would show here."""

    import reference_engine.layers as layers

    real = layers.card_types
    reads = [0]

    def checked(game, o):
        types = real(game, o)
        assert types == layers.characteristics(game, o).types, f"card types of {o.id}"
        reads[0] += 1
        return types

    fuzz_with_engine_function_checked(monkeypatch, "card_types", real, checked, 6, 3)
    assert reads[0] > 50


def _forked_game(values_of_x, *objects):
    """A game of a fork whose ``copiable_values`` gives the object ``x`` the values of the card
    ``values_of_x`` (on the battlefield; a copy effect would do the same, CR 707.2)."""
    from reference_engine import Game
    from reference_engine.cards import card

    class Forked(Game):
        def copiable_values(self, obj):
            if obj.id == "x" and obj.zone == "battlefield":
                return card(values_of_x)
            return super().copiable_values(obj)

    return Forked(board(*objects))


def test_a_forks_copiable_values_decide_the_maximum_hand_size():
    """Thought Vessel's "You have no maximum hand size" (CR 402.2) is a static ability of its
    copiable values (CR 707.2): an Ornithopter a fork gives Thought Vessel's values to takes its
    controller's maximum away."""
    game = _forked_game("Thought Vessel", obj("x", "Ornithopter"))
    assert game.observe()["players"]["P1"]["max_hand_size"] is None


def test_a_forks_copiable_values_decide_the_orbs():
    """Orb of Origin grants mono and continuous to the other noncreature artifacts (its rulings
    2024-11-08, CR 613.1d): a Forest a fork gives Orb of Origin's values to makes Thought Vessel
    mono and continuous."""
    game = _forked_game("Orb of Origin", obj("x", "Forest"), obj("v", "Thought Vessel"))
    assert game.observe()["objects"]["v"]["supertypes"] == ["Mono", "Continuous"]


def test_a_forks_can_enchant_decides_in_each_check():
    """704.5m asks the game whether the Aura is legally attached: a fork whose ``can_enchant``
    refuses Hyena Umbra from the second check on sees it put into the graveyard then, though
    nothing of the Aura or the Bears changed."""
    from reference_engine import Game

    from .scenario_helpers import aura

    class Forked(Game):
        refuse = False

        def can_enchant(self, aura_obj, target_id):
            return not self.refuse and super().can_enchant(aura_obj, target_id)

    game = Forked(board(obj("b", "Grizzly Bears"), aura("h", "Hyena Umbra", on="b")))
    check(game)
    assert game.objects["h"].zone == "battlefield"
    game.refuse = True
    check(game)
    assert game.objects["h"].zone == "graveyard"
