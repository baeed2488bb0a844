"""Passing and failing transitions for the template invariants (``invariants/templates.py``,
``invariants/spell_effects.py``, ``invariants/static_bonuses.py``), observations written by hand.

``tests/test_invariants.py`` merges :data:`CASES` into its table: name -> (holds, broken, says).
Expected values come from the Oracle texts (quoted) and the rules cited; nothing is run.
:data:`MORE_HOLDS` and :data:`MORE_BROKEN` are more correct and wrong steps (name, builder[, word]).

Cards (Oracle text): Child of Night 2/1 "Lifelink"; Elvish Warrior 2/3; Grizzly Bears 2/2; Craw Wurm
6/4; Basilisk Collar "Equipped creature has deathtouch and lifelink."; Tranquil Cove "~ enters tapped.
When ~ enters, you gain 1 life."; Eyeblight's Ending "Destroy target non-Elf creature."; Lightning Strike
"~ deals 3 damage to any target."; Angel's Mercy "You gain 7 life."; Inspired Charge "Creatures you
control get +2/+1 until end of turn."; Battlegrowth "Put a +1/+1 counter on target creature.";
Divination "Draw two cards."; Dragon Fodder "Create two 1/1 red Goblin creature tokens."; Holy Strength
"Enchanted creature gets +1/+2."; Glorious Anthem "Creatures you control get +1/+1."; Darksteel Myr 0/1
"Indestructible".
"""

from __future__ import annotations


from invariants import Transition

from .observations import PLAYERS, card, observation, step  # noqa: F401

GRAVEYARD = {"zone": "graveyard", "attached_to": None, "damage": 0, "tapped": False, "combat": None}


def creature(name: str, power: int, toughness: int, **fields) -> dict:
    return card(name, types=fields.pop("types", ["Creature"]), power=power, toughness=toughness, **fields)


def dealt(source, target, amount, deathtouch=False) -> dict:
    return {"kind": "damage", "source": source, "target": target, "amount": amount, "deathtouch": deathtouch}


def zone_change(oid, to="graveyard", frm="battlefield", **cause) -> dict:
    return {"kind": "zone_change", "object": oid, "from": frm, "to": to, "cause": cause}


def cast(name: str, *targets: str, controller: str = "P1", **more) -> dict:
    return {"type": "cast", "card": name, "controller": controller, "targets": list(targets), **more}


WARRIOR = dict(name="Elvish Warrior", power=2, toughness=3, colors=["G"], subtypes=["Elf", "Warrior"])
BEARS = dict(name="Grizzly Bears", power=2, toughness=2, colors=["G"], subtypes=["Bear"])


def bears(**fields) -> dict:
    return creature(**{**BEARS, **fields})


def warrior(**fields) -> dict:
    return creature(**{**WARRIOR, **fields})


# --------------------------------------------------------------------------- lifelink, deathtouch


def child_hits_warrior(p1_life: int = 22) -> Transition:
    """Child of Night (P1's, lifelink) deals 2 damage to P2's Elvish Warrior (2/3): marked, P1 gains 2
    (CR 702.15b: damage to a creature too)."""
    before = observation({"c": creature("Child of Night", 2, 1, colors=["B"], keywords=["lifelink"]),
                          "w": warrior(owner="P2")})
    after = step(before, {"w": {"damage": 2}}, [dealt("c", "w", 2), {"kind": "life_gained", "player": "P1",
                                                                       "amount": 2}], life={"P1": p1_life, "P2": 20})
    return Transition(before, {"type": "damage", "source": "c", "target": "w", "amount": 2}, after)


def collared_bears_hit_warrior(dies: bool = True, p1_life: int = 21) -> Transition:
    """Grizzly Bears wearing Basilisk Collar (deathtouch and lifelink, granted) deal 1 damage to P2's
    Elvish Warrior: it is destroyed (702.2b, 704.5h) and P1 gains 1 (702.15b). The log entry says
    ``deathtouch: false`` (the engine's own account, not believed): only the source's keywords count."""
    before = observation({"b": bears(keywords=["deathtouch", "lifelink"]),
                          "k": card("Basilisk Collar", types=["Artifact"], subtypes=["Equipment"], attached_to="b"),
                          "w": warrior(owner="P2")})
    log = [dealt("b", "w", 1), {"kind": "life_gained", "player": "P1", "amount": 1}]
    if dies:
        log.append(zone_change("w", event="destroy", by="704.5h"))  # 704.5h destroys
    after = step(before, {"w": GRAVEYARD if dies else {"damage": 1}}, log, life={"P1": p1_life, "P2": 20})
    return Transition(before, {"type": "damage", "source": "b", "target": "w", "amount": 1}, after)


# --------------------------------------------------------------------------- entering


def cove_enters(tapped: bool = True, p1_life: int = 21) -> Transition:
    """Tranquil Cove is put onto the battlefield: it enters tapped (614.1c) and its ability gains P1 1 life."""
    before = observation({"b": bears()})
    event = {"type": "put_onto_battlefield", "id": "x", "card": "Tranquil Cove", "controller": "P1", "attach_to": None}
    after = step(before, {"x": card("Tranquil Cove", types=["Land"], tapped=tapped)},
                 [zone_change("x", "battlefield", None, event="put_onto_battlefield"),
                  {"kind": "trigger", "source": "x", "ability": "enters", "controller": "P1"},
                  {"kind": "life_gained", "player": "P1", "amount": 1}], life={"P1": p1_life, "P2": 20})
    return Transition(before, event, after)


# --------------------------------------------------------------------------- spells


def ending_kills(on: bool = False, target=None) -> Transition:
    """Eyeblight's Ending destroys P2's Grizzly Bears (a non-Elf creature, CR 701.7a)."""
    before = observation({"b": bears(owner="P2")})
    after = step(before, {} if on else {"b": GRAVEYARD}, [] if on else [zone_change("b", event="destroy",
                                                                                    by="Eyeblight's Ending")])
    return Transition(before, cast("Eyeblight's Ending", "b"), after)


def ending_on_myr(leaves: bool = False) -> Transition:
    """Eyeblight's Ending on Darksteel Myr (indestructible, 702.12b): nothing happens to it."""
    before = observation({"m": creature("Darksteel Myr", 0, 1, types=["Artifact", "Creature"], subtypes=["Myr"],
                                        keywords=["indestructible"], owner="P2")})
    after = step(before, {"m": GRAVEYARD} if leaves else {},
                 [zone_change("m", event="destroy", by="Eyeblight's Ending")] if leaves else [])
    return Transition(before, cast("Eyeblight's Ending", "m"), after)


def strike_wurm(amount: int = 3) -> Transition:
    """Lightning Strike deals 3 damage to P2's Craw Wurm (6/4): 3 damage marked (CR 120.3e)."""
    before = observation({"c": creature("Craw Wurm", 6, 4, colors=["G"], subtypes=["Wurm"], owner="P2")})
    after = step(before, {"c": {"damage": amount}}, [dealt("Lightning Strike", "c", amount)])
    return Transition(before, cast("Lightning Strike", "c"), after)


def strike_player(p2_life: int = 17) -> Transition:
    """Lightning Strike deals 3 damage to P2: P2 loses 3 life (CR 120.3a)."""
    before = observation({"b": bears()})
    after = step(before, {}, [dealt("Lightning Strike", "P2", 3)], life={"P1": 20, "P2": p2_life})
    return Transition(before, cast("Lightning Strike", "P2"), after)


def mercy(p1_life: int = 27) -> Transition:
    """Angel's Mercy: "You gain 7 life." (CR 119.3)."""
    before = observation({"b": bears()})
    after = step(before, {}, [{"kind": "life_gained", "player": "P1", "amount": 7}], life={"P1": p1_life, "P2": 20})
    return Transition(before, cast("Angel's Mercy"), after)


def charge(pt=(4, 3)) -> Transition:
    """Inspired Charge: P1's Grizzly Bears get +2/+1 (4/3); P2's Elvish Warrior doesn't (CR 613.4c, 611.2c)."""
    before = observation({"b": bears(), "w": warrior(owner="P2")})
    after = step(before, {"b": {"power": pt[0], "toughness": pt[1]}})
    return Transition(before, cast("Inspired Charge"), after)


def growth(counters=None) -> Transition:
    """Battlegrowth puts a +1/+1 counter on Grizzly Bears: a 3/3 with one counter (CR 122.6)."""
    counters = {"+1/+1": 1} if counters is None else counters
    before = observation({"b": bears()})
    after = step(before, {"b": {"counters": counters, "power": 2 + counters.get("+1/+1", 0),
                                "toughness": 2 + counters.get("+1/+1", 0)}},
                 [{"kind": "counters_added", "object": "b", "counter": "+1/+1", "amount": 1}] if counters else [])
    return Transition(before, cast("Battlegrowth", "b"), after)


def divination(drawn: int = 2) -> Transition:
    """Divination: P1 draws the top two cards of their library (CR 121.1)."""
    objects = {"b": bears(), **{f"l{i}": bears(zone="library") for i in range(3)}}
    before = observation(objects)
    moved = {f"l{i}": {"zone": "hand"} for i in range(drawn)}
    after = step(before, moved, [zone_change(f"l{i}", "hand", "library", event="draw") for i in range(drawn)])
    return Transition(before, cast("Divination"), after)


def fodder(count: int = 2, colors=("R",)) -> Transition:
    """Dragon Fodder creates two 1/1 red Goblin creature tokens named "Goblin Token" under P1's control."""
    before = observation({"b": bears()})
    ids = ["g1", "g2"]
    new = {oid: creature("Goblin Token", 1, 1, colors=list(colors), subtypes=["Goblin"], token=True,
                         summoning_sick=True) for oid in ids[:count]}
    after = step(before, new, [zone_change(oid, "battlefield", None, event="create_token", by="Dragon Fodder")
                               for oid in new])
    return Transition(before, cast("Dragon Fodder", token_ids=ids), after)


# --------------------------------------------------------------------------- static bonuses


def strength_moves(left=(2, 2), joined=(3, 4)) -> Transition:
    """Holy Strength (+1/+2) moves from Grizzly Bears ``a`` to Grizzly Bears ``b`` (CR 303.4, 611.3a)."""
    before = observation({"a": bears(power=3, toughness=4), "b": bears(),
                          "h": card("Holy Strength", types=["Enchantment"], subtypes=["Aura"], colors=["W"],
                                    attached_to="a")})
    after = step(before, {"a": {"power": left[0], "toughness": left[1]},
                          "b": {"power": joined[0], "toughness": joined[1]}, "h": {"attached_to": "b"}},
                 [{"kind": "attached", "object": "h", "to": "b"}])
    return Transition(before, {"type": "attach", "aura": "h", "to": "b"}, after)


def collar_leaves(keywords=()) -> Transition:
    """Basilisk Collar on Grizzly Bears is destroyed: the Bears lose deathtouch and lifelink (611.3a)."""
    before = observation({"b": bears(keywords=["deathtouch", "lifelink"]),
                          "k": card("Basilisk Collar", types=["Artifact"], subtypes=["Equipment"], attached_to="b")})
    after = step(before, {"b": {"keywords": list(keywords)}, "k": GRAVEYARD},
                 [zone_change("k", event="destroy", by="destroy effect")])
    return Transition(before, {"type": "destroy", "targets": ["k"], "cant_be_regenerated": False}, after)


def anthem_destroyed(pt=(2, 2)) -> Transition:
    """Glorious Anthem is destroyed: P1's Grizzly Bears go from 3/3 to 2/2; P2's Warrior was never pumped."""
    before = observation({"b": bears(power=3, toughness=3), "w": warrior(owner="P2"),
                          "g": card("Glorious Anthem", types=["Enchantment"], colors=["W"])})
    after = step(before, {"b": {"power": pt[0], "toughness": pt[1]}, "g": GRAVEYARD},
                 [zone_change("g", event="destroy", by="destroy effect")])
    return Transition(before, {"type": "destroy", "targets": ["g"], "cant_be_regenerated": False}, after)


CASES = {
    "templates.lifelink_on_any_damage": (child_hits_warrior, lambda: child_hits_warrior(20), "702.15b"),
    "templates.deathtouch_from_any_source": (collared_bears_hit_warrior, lambda: collared_bears_hit_warrior(False),
                                             "deathtouch"),
    "templates.enters_tapped": (cove_enters, lambda: cove_enters(tapped=False), "enters tapped"),
    "templates.enters_trigger_effects": (cove_enters, lambda: cove_enters(p1_life=20), "603.6a"),
    "templates.spell_destroys": (ending_kills, lambda: ending_kills(on=True), "still on the battlefield"),
    "templates.spell_deals_damage": (strike_wurm, lambda: strike_wurm(2), "deals 3 damage"),
    "templates.spell_changes_life": (strike_player, lambda: strike_player(20), "expected 17"),
    "templates.spell_pt_until_end_of_turn": (charge, lambda: charge((2, 2)), "expected 4/3"),
    "templates.spell_puts_counters": (growth, lambda: growth({}), "122.6"),
    "templates.spell_draws": (divination, lambda: divination(1), "draws 2"),
    "templates.spell_creates_tokens": (fodder, lambda: fodder(1), "creates 2"),
    "templates.attached_bonus_while_attached": (strength_moves, lambda: strength_moves(left=(3, 4)), "expected 2/2"),
    "templates.anthem_bonus_while_on_battlefield": (anthem_destroyed, lambda: anthem_destroyed((3, 3)),
                                                    "expected 2/2"),
}

MORE_HOLDS = [
    ("templates.lifelink_on_any_damage", collared_bears_hit_warrior),
    ("templates.spell_destroys", ending_on_myr),
    ("templates.spell_changes_life", mercy),
    ("templates.attached_bonus_while_attached", collar_leaves),
]

MORE_BROKEN = [
    ("templates.lifelink_on_any_damage", lambda: collared_bears_hit_warrior(p1_life=20), "expected 21"),
    ("templates.spell_destroys", lambda: ending_on_myr(leaves=True), "indestructible"),
    ("templates.spell_changes_life", lambda: mercy(20), "expected 27"),
    ("templates.spell_creates_tokens", lambda: fodder(colors=("W",)), "111.3"),
    ("templates.spell_pt_until_end_of_turn", lambda: charge((4, 2)), "expected 4/3"),
    ("templates.attached_bonus_while_attached", lambda: strength_moves(joined=(2, 2)), "expected 3/4"),
    ("templates.attached_bonus_while_attached", lambda: collar_leaves(["lifelink"]), "no longer applies"),
    ("templates.anthem_bonus_while_on_battlefield", lambda: anthem_destroyed((3, 2)), "expected 2/2"),
]
