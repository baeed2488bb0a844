"""Cases of the steps, small-action and game-amount invariants (invariants/steps.py, invariants/actions.py,
invariants/game_amounts.py) for tests/test_invariants.py: a correct step and a broken one each, expected
values by hand from the rules."""

from __future__ import annotations

from harness import decisions as D
from harness.protocol import Decision, Transition
from tests.observations import card, observation, step

DJINN = card("Nettletooth Djinn", types=["Creature"], subtypes=["Djinn"], power=4, toughness=4)
RAM = card("Nyx-Fleece Ram", owner="P2", types=["Enchantment", "Creature"], power=0, toughness=5)
BEARS = card("Grizzly Bears", owner="P2", types=["Creature"], power=2, toughness=2)
RATS = card("Typhoid Rats", owner="P2", types=["Creature"], power=1, toughness=1, keywords=["deathtouch"])
UPKEEP = {"type": "begin_step", "step": "upkeep", "player": "P1"}
DRAW = {"type": "begin_step", "step": "draw", "player": "P1"}


def _t(before, event, after, decisions=(), illegal=None) -> Transition:
    return Transition(before, event, after, illegal=illegal, decisions=list(decisions))


# ---------------------------------------------------------------- steps (CR 503.1a, 504.1, 704.5b)
def djinn_upkeep(triggers=("djinn",)) -> Transition:
    """P1's upkeep: Nettletooth Djinn ("At the beginning of your upkeep, ~ deals 1 damage to you.") triggers;
    P2's Nyx-Fleece Ram doesn't."""
    before = observation({"djinn": DJINN, "ram": RAM})
    log = [{"kind": "trigger", "source": s, "ability": "upkeep",
            "controller": before["objects"][s]["controller"]} for s in triggers]
    return _t(before, UPKEEP, step(before, {}, log))


def draw(drawn=True, event=DRAW) -> Transition:
    before = observation({"l1": card("Grizzly Bears", zone="library")})
    return _t(before, event, step(before, {"l1": {"zone": "hand"}} if drawn else {}))


def empty_draw(lost=True) -> Transition:
    before = observation({})
    after = step(before, {})
    after["players"]["P1"]["lost"] = lost
    return _t(before, DRAW, after)


# ---------------------------------------------------------------- edicts, put tapped, 0 damage
EDICT = {"type": "edict", "player": "P2", "filter": "creature"}


def edict(asked="P2", answer="rats") -> Transition:
    before = observation({"bears": BEARS, "rats": RATS})
    after = step(before, {"rats": {"zone": "graveyard"}}, [
        {"kind": "zone_change", "object": "rats", "from": "battlefield", "to": "graveyard",
         "cause": {"event": "sacrifice", "by": "P2"}}])
    decisions = [Decision(asked, D.EDICT, ("bears", "rats"), answer)] if asked else []
    return _t(before, EDICT, after, decisions)


def put_tapped(tapped=True) -> Transition:
    before = observation({})
    entered = card("Grizzly Bears", types=["Creature"], power=2, toughness=2, tapped=tapped, summoning_sick=True)
    return _t(before, {"type": "put_onto_battlefield", "id": "n", "card": "Grizzly Bears", "controller": "P1",
                       "attach_to": None, "tapped": True}, step(before, {"n": entered}))


def zero_damage(destroyed=False) -> Transition:
    before = observation({"rats": {**RATS, "owner": "P1", "controller": "P1"}, "bears": BEARS})
    log = [{"kind": "damage", "source": "rats", "target": "bears", "amount": 0, "deathtouch": True}] if destroyed else []
    after = step(before, {"bears": {"zone": "graveyard"}} if destroyed else {}, log)
    return _t(before, {"type": "damage", "source": "rats", "target": "bears", "amount": 0}, after)


# ---------------------------------------------------------------- divided damage, life from the game, watchers
ARC = {"type": "cast", "card": "Arc Lightning", "controller": "P1", "targets": ["bears", "P2"], "division": [2, 1]}


def arc(split=(2, 1), event=ARC) -> Transition:
    """Arc Lightning: "~ deals 3 damage divided as you choose among one, two, or three targets." (CR 601.2d)"""
    before = observation({"bears": BEARS, "rats": RATS})
    log = [{"kind": "damage", "source": "Arc Lightning", "target": w, "amount": n, "deathtouch": False}
           for w, n in zip(("bears", "P2"), split)]
    changes = {"bears": {"zone": "graveyard"}} if split[0] >= 2 else {"bears": {"damage": split[0]}}
    return _t(before, event, step(before, changes, log, life={"P1": 20, "P2": 20 - split[1]}))


def congregate(p2_life=24) -> Transition:
    """Congregate: "Target player gains 2 life for each creature on the battlefield." Two creatures: +4."""
    before = observation({"bears": BEARS, "rats": RATS})
    return _t(before, {"type": "cast", "card": "Congregate", "controller": "P1", "targets": ["P2"]},
              step(before, {}, [{"kind": "life_gained", "player": "P2", "amount": p2_life - 20}],
                   life={"P1": 20, "P2": p2_life}))


def wrath_beside_proper_burial(triggers=2) -> Transition:
    """Proper Burial (P2's): "Whenever a creature you control dies, ..." Wrath of God kills P2's Bears and Rats:
    two triggers (CR 603.2)."""
    before = observation({"bears": BEARS, "rats": RATS, "pb": card("Proper Burial", owner="P2", types=["Enchantment"])})
    log = [{"kind": "zone_change", "object": o, "from": "battlefield", "to": "graveyard",
            "cause": {"event": "destroy", "by": "Wrath of God"}} for o in ("bears", "rats")]
    log += [{"kind": "trigger", "source": "pb", "ability": "a creature dies", "controller": "P2"}] * triggers
    return _t(before, {"type": "cast", "card": "Wrath of God", "controller": "P1", "targets": []},
              step(before, {"bears": {"zone": "graveyard"}, "rats": {"zone": "graveyard"}}, log))


#: invariant -> (holds, broken, a word of the failure message)
CASES = {
    "steps.step_triggers": (djinn_upkeep, lambda: djinn_upkeep(()), "503.1a"),
    "steps.draw_step_draws": (draw, lambda: draw(drawn=False), "504.1"),
    "steps.empty_library_loses": (empty_draw, lambda: empty_draw(lost=False), "704.5b"),
    "edict.player_chooses": (edict, lambda: edict(asked="P1"), "the player the edict instructs, chooses"),
    "put_onto_battlefield.enters_tapped": (put_tapped, lambda: put_tapped(False), "110.5b"),
    "damage.zero_is_no_damage": (zero_damage, lambda: zero_damage(True), "120.8"),
    "templates.divided_damage": (arc, lambda: arc((1, 2)), "601.2d"),
    "templates.life_from_the_game": (congregate, lambda: congregate(22), "608.2h"),
    "templates.creature_dies_triggers": (wrath_beside_proper_burial, lambda: wrath_beside_proper_burial(1), "603.2"),
}
MORE_HOLDS = [
    ("edict.player_chooses", lambda: _t(observation({"bears": {**BEARS, "owner": "P1", "controller": "P1"}}),
                                        {**EDICT, "player": "P2"}, observation({"bears": {**BEARS, "owner": "P1",
                                                                                          "controller": "P1"}}))),
    ("templates.divided_damage", lambda: _t(observation({"bears": BEARS}), {**ARC, "division": [3, 0]},
                                            observation({"bears": BEARS}), illegal="bad_event")),
]
MORE_BROKEN = [
    ("steps.step_triggers", lambda: djinn_upkeep(("djinn", "ram")), "not by P1"),
    ("steps.step_triggers", lambda: _t(djinn_upkeep().before, DRAW, djinn_upkeep().after), "upkeep only"),
    ("steps.draw_step_draws", lambda: draw(event=UPKEEP), "nobody draws"),
    ("edict.player_chooses", lambda: edict(asked=None), "nobody was asked"),
    ("edict.player_chooses", lambda: edict(answer="bears"), "chose to sacrifice bears"),
    ("damage.zero_is_no_damage", lambda: zero_damage(True), "deathtouch destroys nothing"),
    ("templates.divided_damage", lambda: arc(event={**ARC, "division": [3, 0]}), "must be refused"),
]
