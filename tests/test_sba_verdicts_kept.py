"""What the state-based actions say of each object, kept from one check to the next
(reference_engine.verdicts), follows what it reads.

A check judges again only the objects changed since the last one, those whose characteristics may
differ and the Auras and Equipment attached to them (CR 704.3: the verdicts must be those of a
look at every object). Each test changes one input in place between two checks and fails if the
first check's verdict is kept; the last one compares every check of a fuzzing run with a look at
every object. Expected values come from the cards' Oracle text and the rules, not from the engine.
"""

from __future__ import annotations

from reference_engine import ReferenceEngine
from reference_engine.objects import PTEffect

from .scenario_helpers import Decider, aura, board, fuzz_with_engine_function_checked, obj


def new_game(*objects):
    return ReferenceEngine().new_game(board(*objects))


def check(game, *answers):
    game.check_state_based_actions(Decider(*answers))


def test_damage_marked_in_place_between_two_checks_is_lethal():
    """Grizzly Bears (2/2) survive a check with no damage; with 2 damage marked (CR 120.3) they
    are destroyed by the next one (704.5g)."""
    game = new_game(obj("b", "Grizzly Bears"))
    check(game)
    game.objects["b"].damage = 2
    check(game)
    assert game.objects["b"].zone == "graveyard"


def test_an_anthem_leaving_makes_the_damage_on_a_creature_lethal():
    """Glorious Anthem makes Grizzly Bears 3/3 (CR 613.4c): 2 damage isn't lethal; once the Anthem
    is in the graveyard (CR 611.3a) the Bears are 2/2 and destroyed (704.5g), though nothing of the
    Bears changed."""
    game = new_game(obj("b", "Grizzly Bears", damage=2), obj("ga", "Glorious Anthem"))
    check(game)
    assert game.objects["b"].zone == "battlefield"
    game.objects["ga"].zone = "graveyard"
    check(game)
    assert game.objects["b"].zone == "graveyard"


def test_a_resolved_effect_added_between_two_checks_makes_toughness_zero():
    """A -2/-2 effect (layer 7c, CR 613.4c) on Grizzly Bears leaves them 0/0: put into the
    graveyard (704.5f) by the next check, though nothing of the Bears' fields changed."""
    game = new_game(obj("b", "Grizzly Bears"))
    check(game)
    game.effects.append(PTEffect("b", "7c", -2, -2, game._tick()))
    check(game)
    assert game.objects["b"].zone == "graveyard"


def test_an_equipment_whose_creature_gains_protection_from_artifacts_becomes_unattached():
    """Sword of the Meek (an artifact) equips Grizzly Bears; once the Bears gain protection from
    artifacts (layer 6, CR 613.1f) the Sword can't equip them (CR 702.16c) and becomes unattached
    (704.5n), staying on the battlefield, though nothing of the Sword changed."""
    game = new_game(obj("b", "Grizzly Bears"), aura("s", "Sword of the Meek", on="b"))
    check(game)
    game.effects.append(PTEffect("b", "6", 0, 0, game._tick(), keywords=("protection from artifacts",)))
    check(game)
    sword = game.objects["s"]
    assert (sword.zone, sword.attached_to) == ("battlefield", None)
    assert {"kind": "unattached", "object": "s", "rule": "704.5n"} in game.log


def test_a_token_leaving_the_battlefield_ceases_to_exist():
    """A token that left the battlefield ceases to exist at the next check (704.5d)."""
    game = new_game(obj("t", "Grizzly Bears", token=True))
    check(game)
    game.objects["t"].zone = "graveyard"
    check(game)
    assert "t" not in game.objects


def test_a_second_legend_coming_under_the_same_control():
    """Two Isamaru, Hound of Konda, one of P1's and one of P2's, live together; once P1 controls
    both, P1 keeps one and the other is put into the graveyard (704.5j)."""
    game = new_game(obj("k1", "Isamaru, Hound of Konda"), obj("k2", "Isamaru, Hound of Konda", owner="P2"))
    check(game)
    game.objects["k2"].controller = "P1"
    check(game, "k2")
    assert (game.objects["k1"].zone, game.objects["k2"].zone) == ("graveyard", "battlefield")


def test_a_change_made_while_the_kept_characteristics_start_again_is_judged():
    """The verdicts follow the kept characteristics' record of changes: when that record starts
    again (a game whose kept characteristics were dropped, as a fork's snapshot may), every
    object is judged again, so 2 damage marked meanwhile on Grizzly Bears is lethal (704.5g)."""
    game = new_game(obj("b", "Grizzly Bears"))
    check(game)
    for name in ("_characteristics_kept", "_context_kept"):
        game.__dict__.pop(name)
    game.objects["b"].damage = 2
    game.observe()
    check(game)
    assert game.objects["b"].zone == "graveyard"


def test_the_verdicts_are_given_again_in_the_same_state_and_brought_up_to_date_in_the_next():
    """Within one state the kept verdicts are given again as they are; once 2 damage is marked on
    Grizzly Bears (a new state), the next call finds them lethal (704.5g)."""
    from reference_engine.verdicts import LETHAL_DAMAGE, kept_verdicts

    game = new_game(obj("b", "Grizzly Bears"))
    first = kept_verdicts(game)
    assert first is not None and first.bits == {}
    assert kept_verdicts(game) is first
    game.objects["b"].damage = 2
    assert kept_verdicts(game).bits == {"b": LETHAL_DAMAGE}


def test_the_ids_with_a_verdict_come_in_the_order_of_the_objects():
    """Tokens off the battlefield (704.5d) are found in the order of ``game.objects``, whatever the
    order they were judged in; none while no verdict has any bit."""
    from reference_engine.verdicts import TOKEN_GONE, kept_verdicts, ordered_with_bit

    game = new_game(obj("t1", "Grizzly Bears", token=True), obj("t2", "Grizzly Bears", token=True))
    assert ordered_with_bit(game, kept_verdicts(game), TOKEN_GONE) == []
    game.objects["t2"].zone = "graveyard"
    kept_verdicts(game)
    game.objects["t1"].zone = "graveyard"
    assert ordered_with_bit(game, kept_verdicts(game), TOKEN_GONE) == ["t1", "t2"]


def test_the_permanents_actions_read_the_verdicts_of_the_state_after_704_5d(monkeypatch):
    """A token in the graveyard ceases to exist (704.5d) before the permanents' actions of the same
    check are found (CR 704.3 finds them in the state as it is then): the verdicts they are found
    from judge no object that is gone, though those of 704.5d were found before it ceased to exist.
    A 0/0 Clone (704.5f) makes the check look at the permanents."""
    import reference_engine.state_based_actions as sba

    game = new_game(obj("t", "Grizzly Bears", token=True, zone="graveyard"), obj("c", "Clone"))
    read = []

    def permanent_actions(game, verdicts):
        read.append(set(verdicts.bits) - set(game.objects))
        return real(game, verdicts)

    real = sba.permanent_actions
    monkeypatch.setattr(sba, "permanent_actions", permanent_actions)
    check(game)
    assert "t" not in game.objects and game.objects["c"].zone == "graveyard"
    assert read and read[0] == set()


def test_every_check_of_a_run_finds_what_a_look_at_every_object_finds(monkeypatch, outside_coverage):
    """Every check of a short fuzzing run on the reference engine (both modes) is compared with a
    look at every object: 704.5d tokens off the battlefield, 704.5n Equipment, and the permanents'
    actions (704.5f, g, h, j, m, q, the deathtouch record) in the same order."""
    import reference_engine.state_based_actions as sba
    import reference_engine.verdicts as verdicts
    from reference_engine.playtest import every_unattached_equipment

    real = verdicts.kept_verdicts
    checks = [0]

    def checked(game):
        kept = real(game)
        if kept is None:
            return kept
        objects = game.objects.values()
        assert verdicts.in_order(game, verdicts.with_bit(kept, verdicts.TOKEN_GONE)) == \
            [o.id for o in objects if o.token and o.zone != "battlefield"]
        assert verdicts.in_order(game, verdicts.with_bit(kept, verdicts.UNATTACHED_EQUIPMENT)) == \
            [o.id for o in every_unattached_equipment(game)]
        found = verdicts.permanent_actions(game, kept)
        looked = sba._permanent_actions(game, game.battlefield())
        legends = {key: ids for key, ids in looked[2].items() if len(ids) > 1}
        assert found == looked[:2] + (legends,) + looked[3:]
        checks[0] += 1
        return kept

    fuzz_with_engine_function_checked(monkeypatch, "kept_verdicts", real, checked, 15, 3)
    assert checks[0] > 500


def test_a_forks_own_704_5n_is_performed_in_a_check_where_no_verdict_applies():
    """A fork's own ``unattach_equipment`` (here: every Equipment falls off at each check, a rule of
    its own) is called in every check (CR 704.3), though the kept verdicts say nothing applies to any
    object: only this package's reads them (reference_engine.state_based_actions skips it then)."""
    from reference_engine.game import Game

    class Slippery(Game):
        def unattach_equipment(self) -> bool:
            found = [o for o in self.battlefield() if o.attached_to is not None and "Equipment" in o.card.subtypes]
            for o in found:
                o.attached_to = None
            return bool(found)

    game = Slippery(board(obj("b", "Grizzly Bears"), aura("s", "Sword of the Meek", on="b")))
    check(game)
    assert game.objects["s"].attached_to is None


def test_this_packages_704_5n_is_left_out_of_a_check_where_no_verdict_applies(monkeypatch):
    """Grizzly Bears equipped with Sword of the Meek: nothing applies to any object (the Sword is
    attached to a creature, CR 301.5c), so the check doesn't ask this package's ``unattach_equipment``,
    which would find nothing; once the Bears leave, the next check unattaches the Sword (704.5n)."""
    from reference_engine.playtest import PlaytestRules

    asked: list = []
    real = PlaytestRules.unattach_equipment
    monkeypatch.setattr(PlaytestRules, "unattach_equipment", lambda self: asked.append(1) or real(self))
    PlaytestRules.unattach_equipment.__module__ = "reference_engine.playtest"  # still this package's method
    game = new_game(obj("b", "Grizzly Bears"), aura("s", "Sword of the Meek", on="b"))
    check(game)
    assert asked == []
    game.objects["b"].zone = "graveyard"
    check(game)
    assert asked and game.objects["s"].attached_to is None


def test_a_forks_own_704_5b_is_performed_in_a_check_after_no_draw():
    """A fork's own ``lose_for_empty_library`` (here: the second player loses at each check, a rule of
    its own) is called in every check (CR 704.3), though no player attempted to draw from an empty
    library: only this package's reads that record (reference_engine.state_based_actions skips it then)."""
    from reference_engine.game import Game

    class Doomed(Game):
        def lose_for_empty_library(self) -> bool:
            doomed = self.players["P2"]
            if doomed.lost:
                return False
            doomed.lost = True
            return True

    game = Doomed(board(obj("b", "Grizzly Bears")))
    check(game)
    assert game.players["P2"].lost
