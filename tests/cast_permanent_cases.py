"""Passing and failing transitions for ``spells.permanent_spell_enters`` (invariants/spell_effects.py),
observations written by hand; merged into tests/test_invariants.py's table.

A permanent spell resolves: "it becomes a permanent and enters the battlefield under the control of
the spell's controller" (CR 608.3a); an Aura spell "is put onto the battlefield under the control of
the spell's controller attached to the player or object it was targeting" (608.3c); a creature that
just came under its controller's control is summoning sick (302.6). Cards: Grizzly Bears 2/2; Holy
Strength "Enchant creature / Enchanted creature gets +1/+2."; Hangarback Walker "This creature enters
with X +1/+1 counters on it." (0/0: cast with X = 0 it dies at once, 704.5f).
"""

from __future__ import annotations

from invariants import Transition

from .template_cases import GRAVEYARD, bears, card, creature, observation, step, zone_change


def cast_permanent(name: str, oid: str, *targets: str, controller: str = "P1") -> dict:
    return {"type": "cast", "card": name, "controller": controller, "targets": list(targets), "id": oid}


def entered(oid: str, by: str = "P1") -> dict:
    return zone_change(oid, "battlefield", None, event="cast", by=by)


def bears_cast(controller: str = "P2", sick: bool = True) -> Transition:
    """P2 casts Grizzly Bears: ``n1`` enters under P2's control, summoning sick."""
    before = observation({"w": bears(owner="P1")})
    after = step(before, {"n1": bears(owner="P2", controller=controller, summoning_sick=sick)}, [entered("n1", "P2")])
    return Transition(before, cast_permanent("Grizzly Bears", "n1", controller="P2"), after)


def bears_cast_but_missing() -> Transition:
    before = observation({"w": bears()})
    return Transition(before, cast_permanent("Grizzly Bears", "n1", controller="P2"), step(before, {}, []))


def strength_cast(on: str = "b") -> Transition:
    """P1 casts Holy Strength targeting P1's Grizzly Bears ``b``: attached to it, the Bears 3/4."""
    before = observation({"b": bears(), "c": bears()})
    changes = {"n1": card("Holy Strength", types=["Enchantment"], subtypes=["Aura"], colors=["W"], attached_to=on),
               on: {"power": 3, "toughness": 4}}
    return Transition(before, cast_permanent("Holy Strength", "n1", "b"), step(before, changes, [entered("n1")]))


def walker_cast_dies() -> Transition:
    """Hangarback Walker cast (X = 0): it enters with no counters, a 0/0, and dies (704.5f); its dies
    ability makes no Thopter (no +1/+1 counter). It did enter: the invariant holds."""
    before = observation({"b": bears()})
    walker = creature("Hangarback Walker", 0, 0, types=["Artifact", "Creature"], subtypes=["Construct"])
    after = step(before, {"n1": {**walker, **GRAVEYARD, "summoning_sick": False}},
                 [entered("n1"), zone_change("n1", event="state_based_action", rule="704.5f"),
                  {"kind": "trigger", "source": "n1", "ability": "dies", "controller": "P1"}])
    return Transition(before, cast_permanent("Hangarback Walker", "n1"), after)


CASES = {
    "spells.permanent_spell_enters": (bears_cast, lambda: bears_cast(controller="P1"), "608.3a"),
}
MORE_HOLDS = [
    ("spells.permanent_spell_enters", strength_cast),
    ("spells.permanent_spell_enters", walker_cast_dies),
]
MORE_BROKEN = [
    ("spells.permanent_spell_enters", bears_cast_but_missing, "not on the battlefield"),
    ("spells.permanent_spell_enters", lambda: bears_cast(sick=False), "302.6"),
    ("spells.permanent_spell_enters", lambda: strength_cast(on="c"), "608.3c"),
]
