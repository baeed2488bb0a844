"""Cases of the combat invariants (invariants/combat.py, capability ``combat``, CR 506-511) for
tests/test_invariants.py: a correct step and the bug each invariant is for, expected values by hand
from the rules and the cards' Oracle text, never from running an engine.

Cards as observed: Grizzly Bears 2/2, Hill Giant 3/3, Craw Wurm 6/4, Colossal Dreadmaw 6/6 trample,
Typhoid Rats 1/1 deathtouch (6/6 with Epic Proportions: +5/+5 and trample), Serra Angel 4/4 flying
and vigilance, Giant Spider 2/4 reach, Boggart Brute 3/2 menace, Wall of Stone 0/8 defender, Raging
Goblin 1/1 haste, Youthful Knight 2/1 first strike, Fencing Ace 1/1 double strike, Vampire Nighthawk
2/3 flying, deathtouch and lifelink, Drudge Skeletons 1/1, Pacifism ("Enchanted creature can't attack
or block."), Unflinching Courage (+2/+2, trample and lifelink), Treefolk Umbra (+0/+2, "assigns combat
damage equal to its toughness rather than its power"), Eland Umbra (+0/+4, umbra armor).

The observation shape is harness/schema/observation.schema.json's: top-level ``combat`` while a
declared combat is on; ``blocked`` / ``blocked_by`` on attackers, ``blocking`` on blockers (absent on
creatures not in a declared combat, and on the new object a creature that died becomes, CR 400.7).
"""

from __future__ import annotations

import copy

import cards
from harness import decisions as D
from harness.protocol import Decision, Transition
from tests.observations import card, observation, step

# --------------------------------------------------------------------------- objects


def printed(name: str, **fields) -> dict:
    """An observed permanent with the characteristics printed on ``name``'s Oracle card (no "enchant"
    keyword), ``fields`` overriding them (an Aura's bonus: the computed P/T and keywords)."""
    c = cards.card(name)
    base = {"types": list(c.types), "subtypes": list(c.subtypes), "colors": list(c.colors), "power": c.power,
            "toughness": c.toughness, "keywords": sorted(k for k in c.keywords if not k.startswith("enchant"))}
    return card(name, **{**base, **fields})


def theirs(name: str, **fields) -> dict:
    return printed(name, owner="P2", **fields)


def attacking(name: str, blocked=None, blocked_by=(), tapped=True, **fields) -> dict:
    """P1's creature attacking (tapped unless said otherwise, CR 508.1f); ``blocked`` None until
    blockers are declared (509.1h)."""
    return printed(name, combat="attacking", blocked=blocked, blocked_by=list(blocked_by), tapped=tapped, **fields)


def blocking(name: str, attacker: str | None, **fields) -> dict:
    """P2's creature blocking ``attacker`` (CR 509.1g)."""
    return theirs(name, combat="blocking", blocking=attacker, **fields)


def aura(name: str, on: str, **fields) -> dict:
    return printed(name, attached_to=on, **fields)


COMBAT_FIELDS = ("blocked", "blocked_by", "blocking")
DEAD = {"zone": "graveyard", "damage": 0, "tapped": False, "combat": None, "attached_to": None}
#: A combatant out of combat (end of combat, CR 511.3; a change of control, 506.4): no combat fields.
OUT = "out of combat"


def fight(objects: dict, step_: str = "declare_attackers", first_strikers=(), life: dict | None = None) -> dict:
    """An observation of ``objects`` in a combat P1 declared against P2, at ``step_``."""
    obs = observation(objects, life=life)
    obs["combat"] = {"attacking_player": "P1", "defending_player": "P2", "step": step_,
                     "first_strikers": sorted(first_strikers)}
    return obs


def after(before: dict, changes: dict, log=(), life: dict | None = None, step_: str | None = "combat_damage",
          first_strikers=()) -> dict:
    """``before`` after an event: ``changes`` as :func:`tests.observations.step`'s, where ``DEAD`` (the
    creature went to its owner's graveyard, a new object, CR 400.7) and ``OUT`` (removed from combat)
    also drop its combat fields; the combat at ``step_`` (None: no combat any more)."""
    plain = {oid: (DEAD if c is DEAD else {"combat": None} if c is OUT else c) for oid, c in changes.items()}
    obs = step(before, plain, log, life)
    for oid, c in changes.items():
        if c is DEAD or c is OUT:
            for f in COMBAT_FIELDS:
                obs["objects"][oid].pop(f, None)
    if step_ is not None:
        obs["combat"] = {**before["combat"], "step": step_, "first_strikers": sorted(first_strikers)} \
            if "combat" in before else {"attacking_player": "P1", "defending_player": "P2", "step": step_,
                                        "first_strikers": sorted(first_strikers)}
    return obs


# --------------------------------------------------------------------------- events, log entries, decisions
DAMAGE = {"type": "combat_damage"}
END = {"type": "end_of_combat"}


def attack(*ids: str, player: str = "P1") -> dict:
    return {"type": "declare_attackers", "player": player, "attackers": list(ids)}


def block(**blocks: str) -> dict:
    return {"type": "declare_blockers", "blocks": blocks}


def tapped(oid: str) -> dict:
    return {"kind": "tapped", "object": oid, "cause": "attack"}


def hit(source: str, target: str, amount: int, deathtouch: bool = False) -> dict:
    return {"kind": "damage", "source": source, "target": target, "amount": amount, "deathtouch": deathtouch,
            "combat": True}


def gained(player: str, amount: int) -> dict:
    return {"kind": "life_gained", "player": player, "amount": amount}


def destroyed(oid: str, by: str) -> dict:
    return {"kind": "zone_change", "object": oid, "from": "battlefield", "to": "graveyard",
            "cause": {"event": "destroy", "by": by}}


def assign(options: range, recipient: str, answer: int, player: str = "P1") -> Decision:
    """A ``damage_assignment`` question (harness/decisions.py): ``options`` amounts to ``recipient``."""
    return Decision(player, D.DAMAGE_ASSIGNMENT, tuple(D.damage_assignment_option(n, recipient) for n in options),
                    D.damage_assignment_option(answer, recipient))


def _t(before, event, after_, decisions=(), illegal=None) -> Transition:
    return Transition(before, event, after_, illegal=illegal, decisions=list(decisions))


def refused(before: dict, event: dict, reason: str) -> Transition:
    """The engine refused ``event``: nothing changed (CR 104.3-style rewind; the protocol's IllegalAction)."""
    return _t(before, event, copy.deepcopy(before), illegal=reason)


# --------------------------------------------------------------------------- declare attackers (CR 508.1)
def bears_attack(**bears) -> Transition:
    """P1's Grizzly Bears ``a`` attacks: it becomes tapped (CR 508.1f, logged with cause "attack") and an
    attacking creature (508.1k), not yet blocked or unblocked; the combat is at declare attackers."""
    before = observation({"a": printed("Grizzly Bears", **bears), "x": theirs("Grizzly Bears")})
    return _t(before, attack("a"), after(before, {"a": {"tapped": True, "combat": "attacking", "blocked": None,
                                                       "blocked_by": []}}, [tapped("a")], step_="declare_attackers"))


def goblin_attacks() -> Transition:
    """Raging Goblin, summoning sick, attacks: it has haste (CR 702.10c, 302.6)."""
    before = observation({"g": printed("Raging Goblin", summoning_sick=True)})
    return _t(before, attack("g"), after(before, {"g": {"tapped": True, "combat": "attacking", "blocked": None,
                                                       "blocked_by": []}}, [tapped("g")], step_="declare_attackers"))


def attacks_anyway(attacker: dict, *extra: tuple[str, dict], player: str = "P1") -> Transition:
    """``attacker`` (id ``a``) declared and the declaration performed, as a buggy engine would."""
    before = observation({"a": attacker, **dict(extra)})
    return _t(before, attack("a", player=player),
              after(before, {"a": {"tapped": True, "combat": "attacking", "blocked": None, "blocked_by": []}},
                    [tapped("a")], step_="declare_attackers"))


def attack_during_combat() -> Transition:
    """Grizzly Bears ``b`` declared while ``a`` still attacks (CR 511.3: a combat ends before another)."""
    before = fight({"a": attacking("Grizzly Bears"), "b": printed("Grizzly Bears")}, "combat_damage")
    return _t(before, attack("b"), after(before, {"b": {"tapped": True, "combat": "attacking", "blocked": None,
                                                       "blocked_by": []}}, [tapped("b")], step_="declare_attackers"))


# --------------------------------------------------------------------------- attacking taps (508.1f, 702.20b)
def bears_and_angel_attack(bears=None, angel=None, others=None) -> Transition:
    """Grizzly Bears ``a`` and Serra Angel ``s`` attack: the Bears tap (CR 508.1f), the Angel has
    vigilance and doesn't (702.20b); both are attacking (508.1k). P2's Bears ``x`` is untouched."""
    before = observation({"a": printed("Grizzly Bears"), "s": printed("Serra Angel"), "x": theirs("Grizzly Bears")})
    declared = {"combat": "attacking", "blocked": None, "blocked_by": []}
    changes = {"a": {**declared, "tapped": True, **(bears or {})}, "s": {**declared, **(angel or {})}, **(others or {})}
    log = [tapped(o) for o in changes if changes[o].get("tapped")]
    return _t(before, attack("a", "s"), after(before, changes, log, step_="declare_attackers"))


# --------------------------------------------------------------------------- declare blockers (CR 509.1)
def blocks(attacker: dict, blockers: dict[str, dict], declared: dict[str, str], illegal=None, fields=None,
           attacker_fields=None, step_: str = "declare_attackers") -> Transition:
    """``blockers`` (P2's, id -> object) declared as ``declared`` against ``attacker`` (id ``a``), performed
    as correct engines do unless ``fields`` / ``attacker_fields`` say otherwise: each blocker blocking
    its attacker (CR 509.1g), the attacker blocked by them (509.1h), nothing tapped."""
    before = fight({"a": attacker, **blockers}, step_)
    if illegal:
        return refused(before, block(**declared), illegal)
    changes = {b: {"combat": "blocking", "blocking": a, **((fields or {}).get(b, {}))} for b, a in declared.items()}
    changes["a"] = {"blocked": "a" in declared.values(),
                    "blocked_by": sorted(b for b, a in declared.items() if a == "a"),
                    **(attacker_fields or {})}
    return _t(before, block(**declared), after(before, changes, step_="declare_blockers"))


def bears_blocked(**kw) -> Transition:
    """P2's Grizzly Bears ``x`` blocks the attacking Grizzly Bears ``a`` (CR 509.1a, 509.1g-h)."""
    return blocks(attacking("Grizzly Bears"), {"x": theirs("Grizzly Bears")}, {"x": "a"}, **kw)


def angel_blocked_by(name: str) -> Transition:
    """Serra Angel (flying, vigilance: untapped) attacks; P2's ``name`` ``x`` blocks it (CR 702.9b, 702.17b)."""
    return blocks(attacking("Serra Angel", tapped=False), {"x": theirs(name)}, {"x": "a"})


def brute_blocked(*by: str) -> Transition:
    """Boggart Brute (menace) attacks; P2's Grizzly Bears ``by`` block it (CR 702.111b)."""
    return blocks(attacking("Boggart Brute"), {b: theirs("Grizzly Bears") for b in ("x", "y")},
                  {b: "a" for b in by})


# --------------------------------------------------------------------------- damage assignment (510.1c, 702.19b)
def wurm_walled(decisions=None, split=(2, 4)) -> Transition:
    """Craw Wurm ``w`` (6) blocked by two Wall of Stone (0/8, power 0: they assign no damage, CR 510.1a):
    P1 divides the 6 as they choose (CR 510.1c, no damage assignment order): 0 to 6 to ``x`` (the first
    by id), the rest to ``y``; 2 and 4."""
    before = fight({"w": attacking("Craw Wurm", blocked=True, blocked_by=["x", "y"]),
                    "x": blocking("Wall of Stone", "w"), "y": blocking("Wall of Stone", "w")}, "declare_blockers")
    asked = [assign(range(7), "x", split[0])] if decisions is None else decisions
    log = [hit("w", "x", split[0]), hit("w", "y", split[1])]
    return _t(before, DAMAGE, after(before, {"x": {"damage": split[0]}, "y": {"damage": split[1]}}, log), asked)


def rats_trample(asked: range = range(6), to_player: int = 5) -> Transition:
    """Typhoid Rats with Epic Proportions (6/6, deathtouch, trample) blocked by Grizzly Bears ``x``: 1 is
    lethal damage from a deathtouch source (CR 702.2c), so 0 to 5 may go to P2 (702.19b); 5 to P2, 1 to
    the Bears, destroyed (704.5h); the Bears deal 2 to the Rats (510.1d)."""
    before = fight({"r": attacking("Typhoid Rats", blocked=True, blocked_by=["x"], power=6, toughness=6,
                                   keywords=["deathtouch", "trample"]),
                    "e": aura("Epic Proportions", "r"), "x": blocking("Grizzly Bears", "r")}, "declare_blockers")
    rest = 6 - to_player
    log = [hit("r", "x", rest, True), hit("r", "P2", to_player, True), hit("x", "r", 2), destroyed("x", "704.5h")]
    return _t(before, DAMAGE, after(before, {"x": DEAD, "r": {"damage": 2, "blocked_by": []}}, log,
                                    life={"P1": 20, "P2": 20 - to_player}),
              [assign(asked, "P2", to_player)])


def dreadmaw_double_blocked(decisions=None) -> Transition:
    """Colossal Dreadmaw ``d`` (6, trample) blocked by two Grizzly Bears: lethal is 2 each, so 0 to 2 to
    P2 (CR 702.19b); with 2 to P2 each Bears must be assigned lethal damage: 2 and 2, no further choice.
    Both die (704.5g); they deal 2 + 2 to the Dreadmaw (510.1d)."""
    before = fight({"d": attacking("Colossal Dreadmaw", blocked=True, blocked_by=["x", "y"]),
                    "x": blocking("Grizzly Bears", "d"), "y": blocking("Grizzly Bears", "d")}, "declare_blockers")
    log = [hit("d", "x", 2), hit("d", "y", 2), hit("d", "P2", 2), hit("x", "d", 2), hit("y", "d", 2),
           destroyed("x", "704.5g"), destroyed("y", "704.5g")]
    asked = [assign(range(3), "P2", 2)] if decisions is None else decisions
    return _t(before, DAMAGE, after(before, {"x": DEAD, "y": DEAD, "d": {"damage": 4, "blocked_by": []}}, log,
                                    life={"P1": 20, "P2": 18}), asked)


def dreadmaw_single_blocked(decisions) -> Transition:
    """Colossal Dreadmaw (6, trample) blocked by Grizzly Bears ``x`` (lethal 2): the rules give 0 to 4 to
    P2 (CR 702.19b); 4 to P2, 2 to the Bears."""
    before = fight({"d": attacking("Colossal Dreadmaw", blocked=True, blocked_by=["x"]),
                    "x": blocking("Grizzly Bears", "d")}, "declare_blockers")
    log = [hit("d", "x", 2), hit("d", "P2", 4), hit("x", "d", 2), destroyed("x", "704.5g")]
    return _t(before, DAMAGE, after(before, {"x": DEAD, "d": {"damage": 2, "blocked_by": []}}, log,
                                    life={"P1": 20, "P2": 16}), decisions)


def bears_trade(decisions=()) -> Transition:
    """Grizzly Bears blocked by one Grizzly Bears: "If exactly one creature is blocking it, it assigns all
    its combat damage to that creature" (CR 510.1c): no question; both die (704.5g)."""
    before = fight({"a": attacking("Grizzly Bears", blocked=True, blocked_by=["x"]),
                    "x": blocking("Grizzly Bears", "a")}, "declare_blockers")
    log = [hit("a", "x", 2), hit("x", "a", 2), destroyed("a", "704.5g"), destroyed("x", "704.5g")]
    return _t(before, DAMAGE, after(before, {"a": DEAD, "x": DEAD}, log, step_=None), decisions)


def giant_blocked_by_bears(marked: int = 3) -> Transition:
    """Hill Giant ``g`` (3/3) blocked by Grizzly Bears ``x`` (2/2): the Giant assigns all 3 to the Bears
    (CR 510.1c), which die (704.5g); the Bears deal 2 to the Giant (510.1d). Broken (``marked`` 0): the
    Giant's lethal damage is logged but not marked, and the Bears stay on the battlefield unharmed."""
    before = fight({"g": attacking("Hill Giant", blocked=True, blocked_by=["x"]),
                    "x": blocking("Grizzly Bears", "g")}, "declare_blockers")
    log = [hit("g", "x", 3), hit("x", "g", 2)] + ([destroyed("x", "704.5g")] if marked >= 2 else [])
    changes = {"g": {"damage": 2, "blocked_by": [] if marked >= 2 else ["x"]},
               "x": DEAD if marked >= 2 else {"damage": marked}}
    return _t(before, DAMAGE, after(before, changes, log))


# --------------------------------------------------------------------------- damage steps (510.4, 702.7b, 702.4b)
def knight_and_bears(step_: str, p2: int, sources: tuple, to_step: str, first_strikers=(), illegal=None) -> Transition:
    """Youthful Knight ``k`` (2/1 first strike) and Grizzly Bears ``a`` attack unblocked; P2 at ``p2``
    before the step; ``sources`` (each 2 power) deal their damage to P2 in it."""
    before = fight({"k": attacking("Youthful Knight", blocked=False), "a": attacking("Grizzly Bears", blocked=False)},
                   step_, first_strikers, life={"P1": 20, "P2": p2})
    if illegal:
        return refused(before, DAMAGE, illegal)
    return _t(before, DAMAGE, after(before, {}, [hit(s, "P2", 2) for s in sources],
                                    life={"P1": 20, "P2": p2 - 2 * len(sources)}, step_=to_step,
                                    first_strikers=("k",) if to_step == "first_strike_damage" else ()))


def first_strike_step(sources=("k",), to_step="first_strike_damage") -> Transition:
    """The first combat damage step: only the Knight, which has first strike, deals damage: 2 to P2
    (CR 510.4, 702.7b); the combat is at the first strike damage step, the Knight its first striker."""
    return knight_and_bears("declare_blockers", 20, sources, to_step)


def regular_step(sources=("a",)) -> Transition:
    """The second step: only the Bears, which had no first strike as the first step began, deal damage (2);
    the Knight doesn't again (CR 510.4, 702.7b)."""
    return knight_and_bears("first_strike_damage", 18, sources, "combat_damage", first_strikers=("k",))


def fencing_ace(step_: str, p2: int, dealt: int) -> Transition:
    """Fencing Ace (1/1 double strike) unblocked deals 1 in each step (CR 702.4b)."""
    before = fight({"f": attacking("Fencing Ace", blocked=False)}, step_,
                   ("f",) if step_ == "first_strike_damage" else (), life={"P1": 20, "P2": p2})
    to_step = "first_strike_damage" if step_ == "declare_blockers" else "combat_damage"
    return _t(before, DAMAGE, after(before, {}, [hit("f", "P2", 1)] * dealt, life={"P1": 20, "P2": p2 - dealt},
                                    step_=to_step, first_strikers=("f",) if to_step == "first_strike_damage" else ()))


def bears_alone_step(to_step: str = "combat_damage") -> Transition:
    """Grizzly Bears alone attack unblocked: no creature has first strike, so there is one combat damage
    step, the regular one (CR 510.4): 2 to P2."""
    before = fight({"a": attacking("Grizzly Bears", blocked=False)}, "declare_blockers")
    return _t(before, DAMAGE, after(before, {}, [hit("a", "P2", 2)], life={"P1": 20, "P2": 18}, step_=to_step,
                                    first_strikers=("a",) if to_step == "first_strike_damage" else ()))


def third_step(illegal=None) -> Transition:
    """A combat damage step after the last (the combat is at combat_damage): refused (CR 510.4, 511.1)."""
    before = fight({"a": attacking("Grizzly Bears", blocked=False)}, "combat_damage", life={"P1": 20, "P2": 18})
    if illegal:
        return refused(before, DAMAGE, illegal)
    return _t(before, DAMAGE, after(before, {}, [hit("a", "P2", 2)], life={"P1": 20, "P2": 16}))


# --------------------------------------------------------------------------- damage totals (510.1a-d, 702.19d)
def giant_and_bears_vs_spider(p2: int = 17, spider: int = 2) -> Transition:
    """Hill Giant ``g`` unblocked and Grizzly Bears ``a`` blocked by Giant Spider ``s`` (2/4): the Giant
    deals 3 to P2 (CR 510.1b), the Bears 2 to the Spider (510.1c), the Spider 2 to the Bears (510.1d),
    which die (704.5g); the Spider, whose attacker left, blocks nothing (blocking null) but is still blocking."""
    before = fight({"g": attacking("Hill Giant", blocked=False), "a": attacking("Grizzly Bears", blocked=True,
                                                                                   blocked_by=["s"]),
                    "s": blocking("Giant Spider", "a")}, "declare_blockers")
    log = [hit("g", "P2", 3)] + ([hit("a", "s", spider)] if spider else []) + ([hit("a", "P2", 20 - 3 - p2)]
                                                                               if p2 < 17 else [])
    log += [hit("s", "a", 2), destroyed("a", "704.5g")]
    changes = {"a": DEAD, "s": {"damage": spider, "blocking": None}}
    return _t(before, DAMAGE, after(before, changes, log, life={"P1": 20, "P2": p2}))


def blocked_without_blockers(dreadmaw_deals: int = 6, giant_deals: int = 0) -> Transition:
    """Colossal Dreadmaw (trample) and Hill Giant were blocked, their blockers destroyed since: the
    Dreadmaw deals all 6 to P2 "as though all blocking creatures have been assigned lethal damage" (CR
    702.19d); the Giant, blocked without trample, deals none (510.1c, 509.1h). P2 at 14."""
    before = fight({"d": attacking("Colossal Dreadmaw", blocked=True), "g": attacking("Hill Giant", blocked=True)},
                   "declare_blockers")
    log = [hit(s, "P2", n) for s, n in (("d", dreadmaw_deals), ("g", giant_deals)) if n]
    return _t(before, DAMAGE, after(before, {}, log, life={"P1": 20, "P2": 20 - dreadmaw_deals - giant_deals}))


def treefolk_umbra(deals: int = 4) -> Transition:
    """Grizzly Bears with Treefolk Umbra (2/4) unblocked "assigns combat damage equal to its toughness
    rather than its power": 4 to P2 (CR 510.1a as modified by the Aura)."""
    before = fight({"a": attacking("Grizzly Bears", blocked=False, toughness=4),
                    "u": aura("Treefolk Umbra", "a")}, "declare_blockers")
    return _t(before, DAMAGE, after(before, {}, [hit("a", "P2", deals)], life={"P1": 20, "P2": 20 - deals}))


# --------------------------------------------------------------------------- lifelink (702.15b)
def nighthawk(p1: int = 22) -> Transition:
    """Vampire Nighthawk unblocked deals 2 to P2; P1 gains 2 (CR 702.15b)."""
    before = fight({"h": attacking("Vampire Nighthawk", blocked=False)}, "declare_blockers")
    log = [hit("h", "P2", 2, True)] + ([gained("P1", p1 - 20)] if p1 != 20 else [])
    return _t(before, DAMAGE, after(before, {}, log, life={"P1": p1, "P2": 18}))


def courage(p1: int = 24) -> Transition:
    """Grizzly Bears ``a`` with Unflinching Courage (4/4, trample, lifelink) blocked by Grizzly Bears ``x``:
    P1 may put 0 to 2 on P2 (CR 702.19b); 2 to the Bears, 2 to P2: P1 gains 4, all the damage the source
    dealt, to a creature or a player (702.15b). The blocker dies (704.5g) after dealing 2 to ``a``."""
    before = fight({"a": attacking("Grizzly Bears", blocked=True, blocked_by=["x"], power=4, toughness=4,
                                   keywords=["lifelink", "trample"]),
                    "c": aura("Unflinching Courage", "a"), "x": blocking("Grizzly Bears", "a")}, "declare_blockers")
    log = [hit("a", "x", 2), hit("a", "P2", 2), hit("x", "a", 2), gained("P1", p1 - 20), destroyed("x", "704.5g")]
    return _t(before, DAMAGE, after(before, {"x": DEAD, "a": {"damage": 2, "blocked_by": []}}, log,
                                    life={"P1": p1, "P2": 18}), [assign(range(3), "P2", 2)])


# --------------------------------------------------------------------------- removal from combat (506.4, 511.3)
def walled_bears() -> dict:
    """Grizzly Bears ``a`` blocked by Wall of Stone ``x`` (2 damage marked), after the combat damage step."""
    return fight({"a": attacking("Grizzly Bears", blocked=True, blocked_by=["x"]),
                  "x": blocking("Wall of Stone", "a", damage=2)}, "combat_damage")


def end_of_combat(still: dict | None = None, combat_kept: bool = False) -> Transition:
    """The end of combat step ends: every creature is removed from combat and the combat is over (CR
    511.3); the Bears stay tapped and the Wall's damage stays until cleanup (514.2)."""
    before = walled_bears()
    changes = {"a": OUT, "x": OUT, **(still or {})}
    return _t(before, END, after(before, changes, step_="combat_damage" if combat_kept else None))


def blocker_destroyed(attacker_fields=None) -> Transition:
    """A destroy effect on the blocker ``x``: the Bears ``a`` it blocked stay blocked with no blocker
    (CR 509.1h, 506.4)."""
    before = fight({"a": attacking("Grizzly Bears", blocked=True, blocked_by=["x"]),
                    "x": blocking("Grizzly Bears", "a")}, "declare_blockers")
    event = {"type": "destroy", "targets": ["x"], "cant_be_regenerated": False}
    return _t(before, event, after(before, {"x": DEAD, "a": {"blocked_by": [], **(attacker_fields or {})}},
                                   [destroyed("x", "destroy effect")], step_="declare_blockers"))


def skeletons_regenerate(still_blocking: bool = False) -> Transition:
    """Drudge Skeletons ``s`` (1 shield) blocks Hill Giant ``g``: dealt 3, it would be destroyed (704.5g)
    and regenerates: the shield is used, its damage removed, it is tapped and removed from combat (CR
    701.15a, 506.4); the Giant, dealt 1, stays blocked (509.1h)."""
    before = fight({"g": attacking("Hill Giant", blocked=True, blocked_by=["s"]),
                    "s": blocking("Drudge Skeletons", "g", regeneration_shields=1)}, "declare_blockers")
    log = [hit("g", "s", 3), hit("s", "g", 1), {"kind": "replacement", "effect": "regeneration", "affected": "s"},
           {"kind": "damage_removed", "object": "s", "amount": 3}, {"kind": "tapped", "object": "s"}]
    regenerated = {"regeneration_shields": 0, "tapped": True, "damage": 0}
    if still_blocking:
        changes = {"s": regenerated, "g": {"damage": 1}}
    else:
        log.append({"kind": "removed_from_combat", "object": "s"})
        changes = {"s": OUT, "g": {"damage": 1, "blocked_by": []}}
    obs = after(before, changes, log)
    if not still_blocking:
        obs["objects"]["s"].update(regenerated)
    return _t(before, DAMAGE, obs)


def attacker_changes_control(kept: bool = False) -> Transition:
    """P2 gains control of the attacking Bears ``a``: removed from combat (CR 506.4), summoning sick for
    P2 (302.6); no creature is in combat any more, so there is no combat."""
    before = fight({"a": attacking("Grizzly Bears", blocked=False)}, "declare_blockers")
    event = {"type": "change_control", "object": "a", "controller": "P2"}
    gained_ = {"controller": "P2", "summoning_sick": True}
    log = [] if kept else [{"kind": "removed_from_combat", "object": "a"}]
    obs = after(before, {"a": dict(gained_) if kept else OUT}, log, step_="declare_blockers" if kept else None)
    obs["objects"]["a"].update(gained_)
    return _t(before, event, obs)


def umbra_saved_blocker_leaves_combat() -> Transition:
    """Broken, against the ruling (Hyena Umbra 2010-06-15: umbra armor's effect is not regeneration, the saved creature
    "is not removed from combat"): Grizzly Bears with Eland Umbra (2/6) blocks Craw Wurm, is dealt 6, the
    Umbra is destroyed instead and the damage removed (CR 702.89a), but the engine took it out of combat."""
    before = fight({"w": attacking("Craw Wurm", blocked=True, blocked_by=["b"]),
                    "b": blocking("Grizzly Bears", "w", toughness=6), "u": {**aura("Eland Umbra", "b"), "owner": "P2",
                                                                         "controller": "P2"}}, "declare_blockers")
    log = [hit("w", "b", 6), hit("b", "w", 2), {"kind": "replacement", "effect": "umbra armor", "source": "u",
                                                  "affected": "b"},
           {"kind": "damage_removed", "object": "b", "amount": 6}, destroyed("u", "704.5g")]
    return _t(before, DAMAGE, after(before, {"b": OUT, "u": DEAD, "w": {"damage": 2, "blocked_by": []}}, log))


# --------------------------------------------------------------------------- the tables
#: invariant -> (holds, broken, a word of the failure message)
CASES = {
    # CR 508.1a, 302.6: a summoning sick creature without haste can't attack.
    "combat.attack_legality": (bears_attack, lambda: bears_attack(summoning_sick=True), "302.6"),
    # CR 508.1f: attacking taps a creature without vigilance.
    "combat.attacking_taps": (bears_and_angel_attack, lambda: bears_and_angel_attack(bears={"tapped": False}),
                              "508.1f"),
    # CR 702.9b: a creature with flying can be blocked only by creatures with flying or reach.
    "combat.block_legality": (bears_blocked, lambda: angel_blocked_by("Grizzly Bears"), "702.9b"),
    # CR 510.1c (holds); 702.2c, 702.19b (broken): the engine treats the Bears' toughness, not 1, as lethal
    # damage from a deathtouch trampler, so it offers P1 only 0 to 4 for P2 where the rules allow 0 to 5.
    "combat.damage_assignment": (wurm_walled, lambda: rats_trample(asked=range(5), to_player=4),
                                 "trample, deathtouch); the rules give P1"),
    # CR 510.4, 702.7b: a first striker deals damage in the first step only (broken: again in the second).
    "combat.damage_steps": (first_strike_step, lambda: regular_step(("a", "k")), "where it deals none"),
    # CR 510.1b-d (broken 510.1c: the blocked Bears' damage went to the player instead of their blocker).
    "combat.damage_totals": (giant_and_bears_vs_spider,
                             lambda: giant_and_bears_vs_spider(p2=15, spider=0),
                             "the rules assign it 3"),
    # CR 702.15b: the lifelink source's controller gains the damage it dealt (broken: no gain).
    "combat.lifelink": (nighthawk, lambda: nighthawk(p1=20), "702.15b"),
    # CR 511.3: after the end of combat step no creature is in combat (broken: the attacker still is).
    "combat.removal_from_combat": (end_of_combat, lambda: end_of_combat(still={"a": {"combat": "attacking"}}),
                                   "511.3"),
}

MORE_HOLDS = [
    ("combat.attack_legality", goblin_attacks),  # 702.10c: haste
    ("combat.attack_legality", lambda: refused(bears_attack(summoning_sick=True).before, attack("a"),
                                               "illegal_attack")),  # 302.6: refused
    ("combat.attack_legality", lambda: refused(observation({"a": printed("Grizzly Bears"),
                                                            "p": aura("Pacifism", "a")}), attack("a"),
                                               "illegal_attack")),  # 508.1c: refused
    ("combat.block_legality", lambda: angel_blocked_by("Giant Spider")),  # 702.17b: reach
    ("combat.block_legality", lambda: brute_blocked("x", "y")),  # 702.111b: two blockers
    ("combat.block_legality", lambda: blocks(attacking("Grizzly Bears"), {"x": theirs("Grizzly Bears")}, {})),
    ("combat.block_legality", lambda: blocks(attacking("Boggart Brute"), {"x": theirs("Grizzly Bears")}, {"x": "a"},
                                             illegal="illegal_block")),  # 702.111b: refused
    ("combat.damage_assignment", rats_trample),  # 702.2c, 702.19b: 0 to 5 to P2
    ("combat.damage_assignment", dreadmaw_double_blocked),  # 702.19b: lethal to each blocker first
    ("combat.damage_assignment", bears_trade),  # 510.1c: one blocker, no question
    ("combat.damage_steps", regular_step),  # 510.4: the Bears in the second step
    ("combat.damage_steps", lambda: fencing_ace("declare_blockers", 20, 1)),  # 702.4b: first step
    ("combat.damage_steps", lambda: fencing_ace("first_strike_damage", 19, 1)),  # 702.4b: and again
    ("combat.damage_steps", bears_alone_step),  # 510.4: no first strike, one step
    ("combat.damage_steps", lambda: third_step(illegal="wrong_step")),  # 510.4: no third step
    ("combat.damage_totals", blocked_without_blockers),  # 702.19d, 510.1c
    ("combat.damage_totals", treefolk_umbra),  # Treefolk Umbra: toughness
    ("combat.damage_totals", dreadmaw_double_blocked),  # 702.19b
    ("combat.damage_totals", giant_blocked_by_bears),  # 510.1c-d: the Bears die
    ("combat.damage_totals", skeletons_regenerate),  # 701.15a: dealt 3, regenerated, no damage left
    ("combat.lifelink", courage),  # 702.15b: damage to a creature counts too
    ("combat.removal_from_combat", blocker_destroyed),  # 509.1h: stays blocked
    ("combat.removal_from_combat", skeletons_regenerate),  # 701.15a, 506.4
    ("combat.removal_from_combat", attacker_changes_control),  # 506.4
]

MORE_BROKEN = [
    ("combat.attack_legality", lambda: bears_attack(tapped=True), "is tapped (CR 508.1a)"),
    ("combat.attack_legality", lambda: attacks_anyway(printed("Wall of Stone")), "702.3b"),
    ("combat.attack_legality", lambda: attacks_anyway(printed("Grizzly Bears"), ("p", aura("Pacifism", "a"))),
     "508.1c"),
    ("combat.attack_legality", lambda: attacks_anyway(theirs("Grizzly Bears")), "not the attacking player P1"),
    ("combat.attack_legality", lambda: refused(bears_attack().before, attack("a"), "illegal_attack"), "was refused"),
    ("combat.attack_legality", attack_during_combat, "511.3"),
    ("combat.attacking_taps", lambda: bears_and_angel_attack(angel={"tapped": True}), "702.20b"),
    ("combat.attacking_taps", lambda: bears_and_angel_attack(angel={"combat": None}), "508.1k"),
    ("combat.attacking_taps", lambda: bears_and_angel_attack(others={"x": {"tapped": True}}), "didn't attack"),
    ("combat.block_legality", lambda: brute_blocked("x"), "702.111b"),
    ("combat.block_legality", lambda: blocks(attacking("Grizzly Bears"), {"x": theirs("Grizzly Bears", tapped=True)},
                                             {"x": "a"}), "is tapped (CR 509.1a)"),
    ("combat.block_legality", lambda: blocks(attacking("Grizzly Bears"), {"x": theirs("Grizzly Bears"),
                                                                          "p": aura("Pacifism", "x")}, {"x": "a"}),
     "509.1b"),
    ("combat.block_legality", lambda: blocks(attacking("Grizzly Bears"), {"x": printed("Grizzly Bears")}, {"x": "a"}),
     "not the defending player P2"),
    ("combat.block_legality", lambda: bears_blocked(illegal="illegal_block"), "was refused"),
    ("combat.block_legality", lambda: bears_blocked(attacker_fields={"blocked": False}), "509.1h"),
    ("combat.block_legality", lambda: bears_blocked(fields={"x": {"tapped": True}}), "by blocking"),
    ("combat.block_legality", lambda: bears_blocked(fields={"x": {"blocking": None}}), "509.1g"),
    ("combat.block_legality", lambda: bears_blocked(step_="declare_blockers"), "at declare_blockers"),
    ("combat.damage_assignment", lambda: wurm_walled(decisions=[]), "was not asked"),
    ("combat.damage_assignment", lambda: wurm_walled(decisions=[assign(range(7), "x", 2, player="P2")]),
     "P2 was asked"),
    ("combat.damage_assignment", lambda: bears_trade([assign(range(3), "x", 2)]), "beyond those the rules ask"),
    ("combat.damage_assignment", lambda: dreadmaw_single_blocked([assign(range(7), "P2", 4)]),
     "6 damage, trample); the rules give P1"),  # 702.19b: lethal to the blocker before the player
    ("combat.damage_assignment", lambda: dreadmaw_double_blocked([assign(range(3), "P2", 2),
                                                                  assign(range(5), "x", 2)]),
     "beyond those the rules ask"),  # 702.19b: once P2 gets some, each blocker gets lethal: no more choice
    ("combat.damage_steps", lambda: first_strike_step(("k", "a")),
     "in the first combat damage step, where it deals none"),
    ("combat.damage_steps", lambda: fencing_ace("first_strike_damage", 19, 0), "dealt no damage"),
    ("combat.damage_steps", lambda: first_strike_step(to_step="combat_damage"), "expected 'first_strike_damage'"),
    ("combat.damage_steps", lambda: bears_alone_step("first_strike_damage"), "expected 'combat_damage'"),
    ("combat.damage_steps", third_step, "after the last combat damage step"),
    ("combat.damage_totals", lambda: blocked_without_blockers(dreadmaw_deals=0), "the rules assign it 6"),
    ("combat.damage_totals", lambda: blocked_without_blockers(giant_deals=3), "was dealt 9 combat damage"),
    ("combat.damage_totals", lambda: treefolk_umbra(deals=2), "the rules assign it 4"),
    ("combat.damage_totals", lambda: giant_and_bears_vs_spider(spider=0), "s was dealt 0 combat damage"),
    ("combat.damage_totals", lambda: giant_blocked_by_bears(marked=0),  # a lethal blocker dealt nothing, 510.1c
     "x was dealt 0 combat damage in the regular step; the rules assign it 3"),
    ("combat.lifelink", lambda: courage(p1=22), "observed 22"),  # only the damage to the player
    ("combat.lifelink", lambda: nighthawk(p1=24), "observed 24"),  # gained twice
    ("combat.removal_from_combat", lambda: end_of_combat(combat_kept=True), "a combat is still observed"),
    ("combat.removal_from_combat", lambda: skeletons_regenerate(still_blocking=True), "regenerated but is still"),
    ("combat.removal_from_combat", lambda: attacker_changes_control(kept=True), "changed control but is still"),
    ("combat.removal_from_combat", umbra_saved_blocker_leaves_combat, "umbra armor saved it"),
    ("combat.removal_from_combat", lambda: blocker_destroyed({"blocked": False}), "509.1h"),
]
