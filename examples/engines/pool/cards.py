"""The pool engine's own card table, written by hand from the Oracle texts.

Each entry: ``mana_cost``, ``types``, ``subtypes``, ``supertypes``, ``colors`` (one-letter,
CR 105.2, in the Oracle data's order), ``power``/``toughness`` (None for a noncreature),
``keywords`` (keyword abilities on keyword lines, lower case, as the harness observes them,
e.g. ``"first strike"``, ``"enchant creature"``, ``"equip {1}"``), and ``ability``: how the
engine implements the card's rules text (None for a card with none, or only keywords):

* ``("destroy", {"nonartifact": bool, "nonblack": bool})``: "Destroy target ... creature."
* ``("damage", N, "any" | "creature")``: "deals N damage to any target / target creature".
* ``("damage_each_creature", N)``: "deals N damage to each creature."
* ``("pump", P, T)``: "Target creature gets +P/+T until end of turn." (P, T may be negative).
* ``("counter", KIND, N)``: "Put N KIND counters on target creature."
* ``("tokens", N, TOKEN)``: "Create N TOKEN tokens." (TOKEN a key of :data:`TOKENS`).
* ``("aura", P, T)``: "Enchant creature / Enchanted creature gets +P/+T."
* ``("equipment", P, T, EQUIP)``: "Equipped creature gets +P/+T. Equip {EQUIP}".
* ``("anthem", P, T)``: "Creatures you control get +P/+T."
* ``("etb_gain_life", N)``: "When this enters the battlefield, you gain N life."
* ``("mana", "G")``: "{T}: Add {G}." (not activated by this engine: it claims no ``mana``).
"""

from __future__ import annotations


def _creature(cost, subtypes, colors, p, t, keywords=(), ability=None, supertypes=(), types=("Creature",)):
    return {"mana_cost": cost, "types": list(types), "subtypes": list(subtypes), "supertypes": list(supertypes),
            "colors": list(colors), "power": p, "toughness": t, "keywords": list(keywords), "ability": ability}


def _spell(cost, kind, colors, ability):
    return {"mana_cost": cost, "types": [kind], "subtypes": [], "supertypes": [], "colors": list(colors),
            "power": None, "toughness": None, "keywords": [], "ability": ability}


def _permanent(cost, types, subtypes, colors, keywords, ability):
    return {"mana_cost": cost, "types": list(types), "subtypes": list(subtypes), "supertypes": [],
            "colors": list(colors), "power": None, "toughness": None, "keywords": list(keywords), "ability": ability}


CARDS: dict[str, dict] = {
    # vanilla and keyword creatures
    "Hill Giant": _creature("{3}{R}", ["Giant"], "R", 3, 3),
    "Craw Wurm": _creature("{4}{G}{G}", ["Wurm"], "G", 6, 4),
    "Savannah Lions": _creature("{W}", ["Cat"], "W", 2, 1),
    "Gray Ogre": _creature("{2}{R}", ["Ogre"], "R", 2, 2),
    "Walking Corpse": _creature("{1}{B}", ["Zombie"], "B", 2, 2),
    "Pillarfield Ox": _creature("{3}{W}", ["Ox"], "W", 2, 4),
    "Dross Crocodile": _creature("{3}{B}", ["Zombie", "Crocodile"], "B", 5, 1),
    "Serra Angel": _creature("{3}{W}{W}", ["Angel"], "W", 4, 4, ["flying", "vigilance"]),
    "Giant Spider": _creature("{3}{G}", ["Spider"], "G", 2, 4, ["reach"]),
    "Vampire Nighthawk": _creature("{1}{B}{B}", ["Vampire", "Shaman"], "B", 2, 3,
                                   ["flying", "deathtouch", "lifelink"]),
    "Wind Drake": _creature("{2}{U}", ["Drake"], "U", 2, 2, ["flying"]),
    "Boggart Brute": _creature("{2}{R}", ["Goblin", "Warrior"], "R", 3, 2, ["menace"]),
    "Raging Goblin": _creature("{R}", ["Goblin", "Berserker"], "R", 1, 1, ["haste"]),
    "Wall of Stone": _creature("{1}{R}{R}", ["Wall"], "R", 0, 8, ["defender"]),
    "Darksteel Gargoyle": _creature("{7}", ["Gargoyle"], "", 3, 3, ["flying", "indestructible"],
                                    types=("Artifact", "Creature")),
    "Child of Night": _creature("{1}{B}", ["Vampire"], "B", 2, 1, ["lifelink"]),
    "Knight of Meadowgrain": _creature("{W}{W}", ["Kithkin", "Knight"], "W", 2, 2, ["first strike", "lifelink"]),
    "Ornithopter": _creature("{0}", ["Thopter"], "", 0, 2, ["flying"], types=("Artifact", "Creature")),
    "Bog Imp": _creature("{1}{B}", ["Imp"], "B", 1, 1, ["flying"]),
    # a legend
    "Jasmine Boreal": _creature("{3}{G}{W}", ["Human"], "WG", 4, 5, supertypes=("Legendary",)),
    # mana creatures and an enters trigger
    "Fyndhorn Elves": _creature("{G}", ["Elf", "Druid"], "G", 1, 1, ability=("mana", "G")),
    "Elvish Mystic": _creature("{G}", ["Elf", "Druid"], "G", 1, 1, ability=("mana", "G")),
    "Lone Missionary": _creature("{1}{W}", ["Kor", "Monk"], "W", 2, 1, ability=("etb_gain_life", 4)),
    # Auras
    "Holy Strength": _permanent("{W}", ["Enchantment"], ["Aura"], "W", ["enchant creature"], ("aura", 1, 2)),
    "Unholy Strength": _permanent("{B}", ["Enchantment"], ["Aura"], "B", ["enchant creature"], ("aura", 2, 1)),
    "Giant Strength": _permanent("{R}{R}", ["Enchantment"], ["Aura"], "R", ["enchant creature"], ("aura", 2, 2)),
    # Equipment
    "Bonesplitter": _permanent("{1}", ["Artifact"], ["Equipment"], "", ["equip {1}"], ("equipment", 2, 0, 1)),
    "Short Sword": _permanent("{1}", ["Artifact"], ["Equipment"], "", ["equip {1}"], ("equipment", 1, 1, 1)),
    "Vulshok Morningstar": _permanent("{2}", ["Artifact"], ["Equipment"], "", ["equip {2}"],
                                      ("equipment", 2, 2, 2)),
    # an anthem
    "Glorious Anthem": _permanent("{1}{W}{W}", ["Enchantment"], [], "W", [], ("anthem", 1, 1)),
    # removal
    "Terror": _spell("{1}{B}", "Instant", "B", ("destroy", {"nonartifact": True, "nonblack": True})),
    "Go for the Throat": _spell("{1}{B}", "Instant", "B", ("destroy", {"nonartifact": True, "nonblack": False})),
    # burn
    "Searing Spear": _spell("{1}{R}", "Instant", "R", ("damage", 3, "any")),
    "Lightning Strike": _spell("{1}{R}", "Instant", "R", ("damage", 3, "any")),
    "Flame Slash": _spell("{R}", "Sorcery", "R", ("damage", 4, "creature")),
    "Pyroclasm": _spell("{1}{R}", "Sorcery", "R", ("damage_each_creature", 2)),
    # pump, shrink, counters
    "Titanic Growth": _spell("{1}{G}", "Instant", "G", ("pump", 4, 4)),
    "Disfigure": _spell("{B}", "Instant", "B", ("pump", -2, -2)),
    "Last Gasp": _spell("{1}{B}", "Instant", "B", ("pump", -3, -3)),
    "Battlegrowth": _spell("{G}", "Instant", "G", ("counter", "+1/+1", 1)),
    # tokens
    "Dragon Fodder": _spell("{1}{R}", "Sorcery", "R", ("tokens", 2, "Goblin Token")),
}

#: Tokens the cards' effects define (CR 111.3, 111.4: the name is the subtypes plus "Token").
TOKENS: dict[str, dict] = {
    "Goblin Token": _creature("", ["Goblin"], "R", 1, 1),
}


def mana_value(cost: str) -> int:
    """CR 202.3: the total amount of mana in a mana cost ({X} = 0, CR 107.3g)."""
    total = 0
    for symbol in cost.replace("}", "").split("{")[1:]:
        if symbol.isdigit():
            total += int(symbol)
        elif symbol != "X":
            total += 1
    return total
