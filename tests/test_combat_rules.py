"""Combat on the reference engine (capability ``combat``, CR 506-511), one scenario per rule.

Every expected value is worked out by hand from the rules and the cards' Oracle text:
Grizzly Bears 2/2, Typhoid Rats 1/1 deathtouch, Craw Wurm 6/4, Hill Giant 3/3, Serra Angel 4/4
flying and vigilance, Giant Spider 2/4 reach, Boggart Brute 3/2 menace, Wall of Stone 0/8
defender, Raging Goblin 1/1 haste, Youthful Knight 2/1 first strike, Fencing Ace 1/1 double
strike, Colossal Dreadmaw 6/6 trample, Vampire Nighthawk 2/3 flying, deathtouch and lifelink,
Aesthir Glider 2/1 flying "can't block", Jhessian Infiltrator 2/2 "can't be blocked", Drudge
Skeletons 1/1 "{B}: Regenerate", Pacifism ("can't attack or block"), Cagemail (+2/+2, "can't
attack"), Cast into Darkness (-2/-0, "can't block"), Copper Carapace (equipped +2/+2, "can't
block"), Epic Proportions (+5/+5 and trample), Unflinching Courage (+2/+2, trample and
lifelink), Eland Umbra (+0/+4, umbra armor), Hyena Umbra (+1/+1, first strike), Mammoth Umbra
(+3/+3, vigilance), Treefolk Umbra (+0/+2, assigns combat damage equal to its toughness), Dog
Umbra ("As long as another player controls enchanted creature, it can't attack or block").
"""

from __future__ import annotations

import pytest

from harness import decisions as D
from reference_engine import IllegalAction, ReferenceEngine, Unsupported

from .scenario_helpers import Decider, aura, board, obj, play, refused

P2_LIFE = 20


def game(*objects, players=("P1", "P2")):
    spec = board(*objects)
    spec["players"] = [{"id": p, "life": 20} for p in players]
    return ReferenceEngine().new_game(spec)


def attack(*ids, player="P1"):
    return {"type": "declare_attackers", "player": player, "attackers": list(ids)}


def block(**blocks):
    return {"type": "declare_blockers", "blocks": blocks}


DAMAGE = {"type": "combat_damage"}
END = {"type": "end_of_combat"}


def opt(n, recipient):
    return D.damage_assignment_option(n, recipient)


def life(observation, player="P2"):
    return observation["players"][player]["life"]


def declined(g, event, reason):
    before = g.observe()
    with pytest.raises(Unsupported) as caught:
        g.apply(event, Decider())
    assert caught.value.reason == reason
    assert g.observe() == before


# ------------------------------------------------------------------ declare attackers (CR 508.1)
def test_attackers_must_be_untapped_unsick_and_the_attacking_players():
    """CR 508.1a: untapped creatures the active player controls, controlled since the turn began
    (302.6) unless they have haste (702.10c)."""
    g = game(obj("tapped", "Grizzly Bears", tapped=True), obj("sick", "Grizzly Bears", summoning_sick=True),
             obj("theirs", "Grizzly Bears", owner="P2"), obj("aura", "Pacifism", attached_to="theirs"),
             obj("hasty", "Raging Goblin", summoning_sick=True), obj("bears", "Grizzly Bears"))
    for oid in ("tapped", "sick", "theirs", "aura", "nobody"):
        refused(g, attack(oid), "illegal_attack")
    refused(g, attack("bears", "tapped"), "illegal_attack")  # one illegal attacker: the whole declaration
    after, asked = play(g, attack("bears", "hasty"))
    assert asked == []
    assert after["objects"]["bears"]["combat"] == after["objects"]["hasty"]["combat"] == "attacking"


def test_defender_cant_attack():
    """CR 702.3b: a creature with defender can't attack."""
    refused(game(obj("wall", "Wall of Stone")), attack("wall"), "illegal_attack")


def test_cant_attack_restrictions():
    """CR 508.1c: Pacifism ("Enchanted creature can't attack or block"), Cagemail ("can't attack"),
    and Dog Umbra while another player controls the enchanted creature; under its own controller's
    Dog Umbra the creature attacks."""
    g = game(obj("a", "Grizzly Bears"), aura("pacifism", "Pacifism", "a"),
             obj("b", "Grizzly Bears"), aura("cagemail", "Cagemail", "b"),
             obj("c", "Grizzly Bears"), aura("dog", "Dog Umbra", "c", owner="P2"),
             obj("d", "Grizzly Bears"), aura("own_dog", "Dog Umbra", "d"))
    for oid in ("a", "b", "c"):
        refused(g, attack(oid), "illegal_attack")
    after, _ = play(g, attack("d"))
    assert after["objects"]["d"]["combat"] == "attacking"


def test_attacking_taps_except_vigilance():
    """CR 508.1f, 702.20b: attacking creatures become tapped, those with vigilance don't (Serra
    Angel's own, Mammoth Umbra's granted one); the tap is logged with cause "attack"."""
    g = game(obj("bears", "Grizzly Bears"), obj("angel", "Serra Angel"), obj("mammoth", "Grizzly Bears"),
             aura("umbra", "Mammoth Umbra", "mammoth"))
    after, _ = play(g, attack("bears", "angel", "mammoth"))
    objects = after["objects"]
    assert [objects[o]["tapped"] for o in ("bears", "angel", "mammoth")] == [True, False, False]
    assert {"kind": "tapped", "object": "bears", "cause": "attack"} in after["log"]
    assert all(objects[o]["combat"] == "attacking" and objects[o]["blocked"] is None and objects[o]["blocked_by"] == []
               for o in ("bears", "angel", "mammoth"))
    assert after["combat"] == {"attacking_player": "P1", "defending_player": "P2", "step": "declare_attackers",
                               "first_strikers": []}


def test_one_combat_at_a_time_and_end_of_combat():
    """A combat in progress (or combat statuses from the board) must end first (CR 511.3); end of
    combat removes every creature from combat."""
    g = game(obj("a", "Grizzly Bears"), obj("b", "Grizzly Bears"), obj("c", "Grizzly Bears", owner="P2"))
    play(g, attack("a"))
    refused(g, attack("b"), "combat_in_progress")
    refused(g, {"type": "set_combat", "object": "b", "status": "attacking"}, "combat_in_progress")
    after, _ = play(g, END)
    assert "combat" not in after and all(o["combat"] is None for o in after["objects"].values())
    flagged = game(obj("a", "Grizzly Bears"), obj("c", "Grizzly Bears", owner="P2", combat="blocking"))
    refused(flagged, attack("a"), "combat_in_progress")
    play(flagged, END)
    assert play(flagged, attack("a"))[0]["objects"]["a"]["combat"] == "attacking"


def test_steps_happen_in_order():
    """CR 508.8: without attackers there are no blockers and no combat damage; blockers are declared
    once (509.1), and there are at most two combat damage steps (510.4)."""
    g = game(obj("a", "Grizzly Bears"), obj("c", "Grizzly Bears", owner="P2"))
    refused(g, block(c="a"), "no_attackers")
    refused(g, DAMAGE, "no_attackers")
    play(g, attack())
    refused(g, DAMAGE, "no_attackers")
    play(g, attack("a"))
    play(g, block())
    refused(g, block(c="a"), "wrong_step")
    play(g, DAMAGE)
    refused(g, DAMAGE, "wrong_step")


# ------------------------------------------------------------------ declare blockers (CR 509.1)
def test_blockers_must_be_the_defending_players_untapped_creatures():
    """CR 509.1a: untapped creatures of the defending player, each blocking an attacking creature."""
    g = game(obj("a", "Grizzly Bears"), obj("mine", "Grizzly Bears"), obj("tapped", "Grizzly Bears", owner="P2",
                                                                              tapped=True),
             obj("c", "Grizzly Bears", owner="P2"))
    play(g, attack("a"))
    refused(g, block(tapped="a"), "illegal_block")
    refused(g, block(mine="a"), "illegal_block")
    refused(g, block(c="mine"), "illegal_block")  # not an attacking creature
    after, _ = play(g, block(c="a"))
    assert after["objects"]["c"]["combat"] == "blocking" and after["objects"]["c"]["blocking"] == "a"
    assert after["objects"]["a"]["blocked"] is True and after["objects"]["a"]["blocked_by"] == ["c"]
    assert after["objects"]["c"]["tapped"] is False and after["combat"]["step"] == "declare_blockers"


def test_cant_block_restrictions_in_both_templatings():
    """CR 509.1b: "This creature can't block." (Aesthir Glider), "Enchanted creature can't block."
    (Cast into Darkness), "Equipped creature ... can't block." (Copper Carapace), Pacifism."""
    g = game(obj("a", "Grizzly Bears"),
             obj("glider", "Aesthir Glider", owner="P2"),
             obj("dark", "Grizzly Bears", owner="P2"), aura("cast", "Cast into Darkness", "dark", owner="P2"),
             obj("plated", "Grizzly Bears", owner="P2"), aura("carapace", "Copper Carapace", "plated", owner="P2"),
             obj("pacified", "Grizzly Bears", owner="P2"), aura("pacifism", "Pacifism", "pacified"),
             obj("free", "Grizzly Bears", owner="P2"))
    play(g, attack("a"))
    for blocker in ("glider", "dark", "plated", "pacified"):
        refused(g, {"type": "declare_blockers", "blocks": {blocker: "a"}}, "illegal_block")
    assert play(g, block(free="a"))[0]["objects"]["free"]["combat"] == "blocking"


def test_flying_is_blocked_only_by_flying_or_reach():
    """CR 702.9b, 702.17b."""
    g = game(obj("angel", "Serra Angel"), obj("bears", "Grizzly Bears", owner="P2"),
             obj("spider", "Giant Spider", owner="P2"), obj("glider", "Ornithopter", owner="P2"))
    play(g, attack("angel"))
    refused(g, block(bears="angel"), "illegal_block")
    after, _ = play(g, block(spider="angel", glider="angel"))
    assert after["objects"]["angel"]["blocked_by"] == ["glider", "spider"]


def test_menace_needs_two_blockers():
    """CR 702.111b."""
    g = game(obj("brute", "Boggart Brute"), obj("x", "Grizzly Bears", owner="P2"), obj("y", "Grizzly Bears", owner="P2"))
    play(g, attack("brute"))
    refused(g, block(x="brute"), "illegal_block")
    assert play(g, block(x="brute", y="brute"))[0]["objects"]["brute"]["blocked_by"] == ["x", "y"]


def test_cant_be_blocked():
    """CR 509.1b: "Jhessian Infiltrator can't be blocked."""
    g = game(obj("ninja", "Jhessian Infiltrator"), obj("x", "Grizzly Bears", owner="P2"))
    play(g, attack("ninja"))
    refused(g, block(x="ninja"), "illegal_block")


# ------------------------------------------------------------------ combat damage (CR 510)
def test_unblocked_deals_its_power_to_the_player_blocked_deals_none():
    """CR 510.1b-d: Hill Giant unblocked deals 3 to P2; Grizzly Bears blocked by Grizzly Bears deals
    2 to it and is dealt 2 (both die, 704.5g); P2 loses 3 only."""
    g = game(obj("giant", "Hill Giant"), obj("bears", "Grizzly Bears"), obj("other", "Grizzly Bears", owner="P2"))
    play(g, attack("giant", "bears"))
    play(g, block(other="bears"))
    after, asked = play(g, DAMAGE)
    assert asked == [] and life(after) == 17
    assert after["objects"]["bears"]["zone"] == after["objects"]["other"]["zone"] == "graveyard"
    assert after["combat"]["step"] == "combat_damage" and after["objects"]["giant"]["combat"] == "attacking"


def test_damage_is_divided_among_blockers_as_the_attacker_chooses():
    """CR 510.1c (no damage assignment order): Craw Wurm (6) blocked by two Grizzly Bears: 0 to 6
    to the first (by id), the rest to the other; 1 and 5: the first survives (1 < 2), the second dies."""
    g = game(obj("wurm", "Craw Wurm"), obj("x", "Grizzly Bears", owner="P2"), obj("y", "Grizzly Bears", owner="P2"))
    play(g, attack("wurm"))
    play(g, block(x="wurm", y="wurm"))
    after, asked = play(g, DAMAGE, opt(1, "x"))
    assert asked == [("P1", D.DAMAGE_ASSIGNMENT, [opt(n, "x") for n in range(7)])]
    assert after["objects"]["x"]["damage"] == 1 and after["objects"]["y"]["zone"] == "graveyard"
    assert after["objects"]["wurm"]["zone"] == "graveyard"  # dealt 2 + 2, toughness 4


def test_trample_assigns_lethal_then_the_rest_to_the_player():
    """CR 702.19b: Colossal Dreadmaw (6, trample) blocked by Grizzly Bears (2 toughness, 1 damage
    marked: lethal is 1): 0 to 5 to P2; 5 to P2, 1 to the Bears."""
    g = game(obj("dreadmaw", "Colossal Dreadmaw"), obj("x", "Grizzly Bears", owner="P2", damage=1))
    play(g, attack("dreadmaw"))
    play(g, block(x="dreadmaw"))
    after, asked = play(g, DAMAGE, opt(5, "P2"))
    assert asked == [("P1", D.DAMAGE_ASSIGNMENT, [opt(n, "P2") for n in range(6)])]
    assert life(after) == 15 and after["objects"]["x"]["zone"] == "graveyard"


def test_trample_with_deathtouch_one_damage_is_lethal():
    """CR 702.2c, 702.19b: Typhoid Rats with Epic Proportions (6/6 deathtouch, trample) blocked by
    Craw Wurm (toughness 4) and Grizzly Bears: lethal is 1 each, so up to 4 to P2; with 4 to P2,
    the Bears get 1 at least (1 to the Bears, 1 to the Wurm); both blockers die (704.5h)."""
    g = game(obj("rats", "Typhoid Rats"), aura("epic", "Epic Proportions", "rats"),
             obj("wurm", "Craw Wurm", owner="P2"), obj("bears", "Grizzly Bears", owner="P2"))
    play(g, attack("rats"))
    play(g, block(wurm="rats", bears="rats"))
    after, asked = play(g, DAMAGE, opt(4, "P2"))
    assert asked == [("P1", D.DAMAGE_ASSIGNMENT, [opt(n, "P2") for n in range(5)])]  # bears then wurm: no choice
    assert life(after) == 16
    assert after["objects"]["wurm"]["zone"] == after["objects"]["bears"]["zone"] == "graveyard"
    assert after["objects"]["rats"]["zone"] == "graveyard"  # dealt 6 + 2, toughness 6


def test_trample_to_no_one_but_the_player_and_blocked_without_blockers():
    """CR 702.19d: a trampler whose blocker left combat deals all its damage to the player; CR
    510.1c, 509.1h: a blocked creature without trample whose blocker left stays blocked and deals none."""
    g = game(obj("dreadmaw", "Colossal Dreadmaw"), obj("giant", "Hill Giant"),
             obj("x", "Grizzly Bears", owner="P2"), obj("y", "Grizzly Bears", owner="P2"))
    play(g, attack("dreadmaw", "giant"))
    play(g, block(x="dreadmaw", y="giant"))
    after, _ = play(g, {"type": "destroy", "targets": ["x", "y"]})
    assert after["objects"]["giant"]["blocked"] is True and after["objects"]["giant"]["blocked_by"] == []
    after, asked = play(g, DAMAGE)
    assert asked == [] and life(after) == 14


def test_first_strike_deals_damage_first_and_only_once():
    """CR 510.4, 702.7b: Youthful Knight (2/1 first strike) blocked by Grizzly Bears: in the first
    strike step the Knight kills the Bears (704.5g), so in the regular step nothing is dealt; the
    Knight lives. Grizzly Bears attacking beside it deal damage only in the regular step."""
    g = game(obj("knight", "Youthful Knight"), obj("bears", "Grizzly Bears"), obj("x", "Grizzly Bears", owner="P2"))
    play(g, attack("knight", "bears"))
    play(g, block(x="knight"))
    first, _ = play(g, DAMAGE)
    assert first["combat"]["step"] == "first_strike_damage" and first["combat"]["first_strikers"] == ["knight"]
    assert first["objects"]["x"]["zone"] == "graveyard" and life(first) == 20
    second, _ = play(g, DAMAGE)
    assert life(second) == 18 and second["objects"]["knight"]["damage"] == 0
    assert [e for e in second["log"] if e["kind"] == "damage"] == [
        {"kind": "damage", "source": "bears", "target": "P2", "amount": 2, "deathtouch": False, "combat": True}]


def test_double_strike_deals_damage_in_both_steps():
    """CR 702.4b: Fencing Ace (1/1 double strike) unblocked deals 1 in each step: P2 at 19, then 18."""
    g = game(obj("ace", "Fencing Ace"))
    play(g, attack("ace"))
    assert life(play(g, DAMAGE)[0]) == 19
    assert life(play(g, DAMAGE)[0]) == 18


def test_first_strike_granted_or_lost_between_the_steps():
    """CR 702.7c: losing first strike after the first step doesn't let a creature deal damage
    again; gaining it after the first step doesn't stop a creature from dealing damage in the
    second. Bears with Hyena Umbra (3/3 first strike) deal 3 in the first step; the Umbra is then
    moved to the other Bears, which had no first strike as the first step began: in the second
    step only that one (now 3/3) deals damage: 20 - 3 - 3 = 14."""
    g = game(obj("a", "Grizzly Bears"), aura("hyena", "Hyena Umbra", "a"), obj("b", "Grizzly Bears"))
    play(g, attack("a", "b"))
    assert life(play(g, DAMAGE)[0]) == 17
    play(g, {"type": "attach", "aura": "hyena", "to": "b"})
    after, _ = play(g, DAMAGE)
    assert life(after) == 14


def test_lifelink_gains_the_damage_dealt_once_per_source():
    """CR 702.15b: Vampire Nighthawk unblocked: P1 gains 2, P2 loses 2. Grizzly Bears with
    Unflinching Courage (4/4 trample, lifelink) blocked by Grizzly Bears: 2 to it and 2 to P2, one
    life gain of 4."""
    g = game(obj("hawk", "Vampire Nighthawk"), obj("bears", "Grizzly Bears"), aura("courage", "Unflinching Courage",
                                                                                 "bears"),
             obj("x", "Grizzly Bears", owner="P2"))
    play(g, attack("hawk", "bears"))
    play(g, block(x="bears"))
    after, asked = play(g, DAMAGE, opt(2, "P2"))
    assert asked == [("P1", D.DAMAGE_ASSIGNMENT, [opt(0, "P2"), opt(1, "P2"), opt(2, "P2")])]
    assert life(after) == 16 and life(after, "P1") == 26
    gains = [e for e in after["log"] if e["kind"] == "life_gained"]
    assert sorted(e["amount"] for e in gains) == [2, 4]


def test_deathtouch_blocker_destroys():
    """CR 702.2b, 704.5h: Typhoid Rats blocking Craw Wurm deals 1 deathtouch damage: the Wurm is destroyed."""
    g = game(obj("wurm", "Craw Wurm"), obj("rats", "Typhoid Rats", owner="P2"))
    play(g, attack("wurm"))
    play(g, block(rats="wurm"))
    after, _ = play(g, DAMAGE)
    assert after["objects"]["wurm"]["zone"] == "graveyard" and after["objects"]["rats"]["zone"] == "graveyard"


def test_treefolk_umbra_assigns_toughness():
    """Treefolk Umbra: Grizzly Bears (2/4 with it) "assigns combat damage equal to its toughness": 4."""
    g = game(obj("bears", "Grizzly Bears"), aura("treefolk", "Treefolk Umbra", "bears"))
    play(g, attack("bears"))
    assert life(play(g, DAMAGE)[0]) == 16


# ------------------------------------------------------------------ removal from combat (CR 506.4)
def test_regenerated_blocker_leaves_combat():
    """CR 701.15a, 506.4: Drudge Skeletons with a regeneration shield blocks Hill Giant and is dealt
    lethal damage: it regenerates (tapped) and is removed from combat."""
    g = game(obj("giant", "Hill Giant"), obj("skeletons", "Drudge Skeletons", owner="P2", regeneration_shields=1))
    play(g, attack("giant"))
    play(g, block(skeletons="giant"))
    after, _ = play(g, DAMAGE)
    skeletons = after["objects"]["skeletons"]
    assert skeletons["zone"] == "battlefield" and skeletons["tapped"] and skeletons["combat"] is None
    assert "blocking" not in skeletons and after["objects"]["giant"]["blocked"] is True


def test_umbra_armor_saved_creature_stays_in_combat():
    """Seed ruling (Hyena Umbra 2010-06-15): umbra armor's effect is not regeneration, so the saved
    creature "is not removed from combat". Grizzly Bears with Eland Umbra (2/6) blocks Craw Wurm
    (6/4): dealt 6, the Umbra is destroyed instead and the damage removed; the Bears still block the
    Wurm (dealt 2, alive)."""
    g = game(obj("wurm", "Craw Wurm"), obj("bears", "Grizzly Bears", owner="P2"),
             aura("eland", "Eland Umbra", "bears", owner="P2"))
    play(g, attack("wurm"))
    play(g, block(bears="wurm"))
    after, _ = play(g, DAMAGE)
    bears = after["objects"]["bears"]
    assert after["objects"]["eland"]["zone"] == "graveyard" and after["objects"]["wurm"]["damage"] == 2
    assert bears["zone"] == "battlefield" and bears["damage"] == 0 and not bears["tapped"]
    assert bears["combat"] == "blocking" and bears["blocking"] == "wurm"
    assert after["objects"]["wurm"]["blocked_by"] == ["bears"]


def test_leaving_or_changing_control_removes_from_combat():
    """CR 506.4: an attacker that changes controller is removed from combat; the combat ends when
    none of its creatures is in combat (no `combat` observed)."""
    g = game(obj("a", "Grizzly Bears"))
    play(g, attack("a"))
    after, _ = play(g, {"type": "change_control", "object": "a", "controller": "P2"})
    assert after["objects"]["a"]["combat"] is None and "combat" not in after


# ------------------------------------------------------------------ not modelled: declined
def test_what_is_not_modelled_is_declined():
    """Banding (702.22), "attacks each combat if able" (508.1d), Indrik Umbra's "all creatures able
    to block it do so" (509.1c), Bear Umbra's attack trigger, more than two players (506.2a)."""
    declined(game(obj("hero", "Benalish Hero")), attack("hero"), "ability:banding")
    declined(game(obj("a", "Grizzly Bears"), obj("berserkers", "Berserkers of Blood Ridge")), attack("a"),
             "ability:combat requirement")
    declined(game(obj("a", "Grizzly Bears"), aura("bear", "Bear Umbra", "a")), attack("a"), "ability:combat trigger")
    g = game(obj("a", "Grizzly Bears"), aura("indrik", "Indrik Umbra", "a"), obj("x", "Grizzly Bears", owner="P2"))
    declined(g, attack("a"), "ability:combat requirement")
    declined(game(obj("a", "Grizzly Bears"), players=("P1", "P2", "P3")), attack("a"), "combat:multiplayer")


def test_an_engine_not_claiming_combat_sees_no_change():
    """The events without combat are as before: set_combat still sets a status outside a declared
    combat, and the observation has no combat fields."""
    g = game(obj("a", "Grizzly Bears"))
    after, _ = play(g, {"type": "set_combat", "object": "a", "status": "attacking"})
    assert after["objects"]["a"]["combat"] == "attacking"
    assert "combat" not in after and not {"blocked", "blocked_by", "blocking"} & set(after["objects"]["a"])
    with pytest.raises(IllegalAction):
        g.apply(attack("a"), Decider())
