"""The words of Oracle text the card reader knows (:mod:`cards.reader`): the keyword abilities
it reads, the numbers, colours, nouns, adjectives and creature types of object phrases, and
:func:`normalise`, which writes a card's text in one templating."""

from __future__ import annotations

import re

__all__ = ["KEYWORDS", "CARRIED_KEYWORDS", "normalise"]

#: Keyword abilities (CR 702) the reader accepts on a keyword line, without a parameter.
#: The ones whose rules matter only in combat or on the stack (flying, first strike,
#: trample, haste, flash, ...) count as read: the card is modelled and generated, and
#: ``rulesfuzz plan`` lists which of their rules are not yet exercised.
KEYWORDS = frozenset({
    "deathtouch",  # 702.2
    "defender",  # 702.3
    "double strike",  # 702.4
    "first strike",  # 702.7
    "flash",  # 702.8
    "flying",  # 702.9
    "haste",  # 702.10
    "hexproof",  # 702.11
    "indestructible",  # 702.12
    "intimidate",  # 702.13
    "lifelink",  # 702.15
    "reach",  # 702.17
    "shroud",  # 702.18
    "trample",  # 702.19
    "vigilance",  # 702.20
    "menace",  # 702.111
    "fear",  # 702.36
    "umbra armor",  # 702.89
})

#: Keyword abilities whose rules matter only in combat (declaring attackers or blockers,
#: combat damage) or while a spell is cast or on the stack. The project models neither
#: combat (a creature's combat status is a flag) nor casting costs nor the stack (an instant
#: or sorcery resolves at once), so these abilities never apply to a game it plays: they are
#: *carried* (read, the card is modelled) and no engine is asked to implement them.
#: Refused on purpose, because they apply outside combat and casting: infect and wither
#: (702.90, 702.80: all damage, not only combat damage), changeling and devoid (702.73,
#: 702.114: characteristics in every zone), prowess (702.108: the ``cast`` event triggers
#: it), storm (702.40: copies), cycling, flashback, madness, morph, echo, cumulative upkeep,
#: undying, persist, evolve, riot, unleash, phasing, kicker (other zones, upkeeps, counters
#: or the text's "if kicked").
CARRIED_KEYWORDS = frozenset({
    "shadow",  # 702.28: blocking only
    "horsemanship",  # 702.31: blocking only
    "flanking",  # 702.25: triggers when blocked
    "banding",  # 702.22: attacking in a band, combat damage assignment
    "exalted",  # 702.83: triggers when a creature attacks alone
    "provoke",  # 702.39: triggers when it attacks
    "battle cry",  # 702.91: triggers when it attacks
    "melee",  # 702.121: triggers when it attacks
    "dethrone",  # 702.105: triggers when it attacks
    "myriad",  # 702.116: triggers when it attacks
    "mentor",  # 702.134: triggers when it attacks
    "skulk",  # 702.118: blocking only
    "ingest",  # 702.115: triggers on combat damage to a player
    "convoke",  # 702.51: paying a spell's cost
    "delve",  # 702.66: paying a spell's cost
    "improvise",  # 702.126: paying a spell's cost
    "affinity for artifacts",  # 702.41: a spell's cost
    "split second",  # 702.61: while the spell is on the stack
})
#: Carried keywords with a number: bushido N (702.45: blocks or becomes blocked), rampage N
#: (702.23: becomes blocked), renown N (702.112: combat damage to a player), afflict N
#: (702.130: becomes blocked), annihilator N (702.86: attacks), frenzy N (702.68: attacks
#: and isn't blocked).
_CARRIED_N = re.compile(r"^(bushido|rampage|renown|afflict|annihilator|frenzy) (\d+)$")
_LANDWALK = re.compile(r"^(plains|island|swamp|mountain|forest|desert)walk$")  # 702.14
_PROTECTION = re.compile(r"^protection from (white|blue|black|red|green|artifacts|everything|multicolored|"
                         r"monocolored|creatures)$")  # 702.16
_ENCHANT = re.compile(r"^enchant (creature|creature you control|permanent|artifact|land|enchantment|player)$")  # 702.5
_EQUIP = re.compile(r"^equip (\{[^}]+\}(?:\{[^}]+\})*)$")  # 702.6

_REMINDER = re.compile(r"\s*\([^()]*\)")
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10}
_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_NOUNS = {
    "creature": "creature", "creatures": "creature", "player": "player", "players": "player",
    "permanent": "permanent", "permanents": "permanent", "artifact": "artifact", "artifacts": "artifact",
    "enchantment": "enchantment", "enchantments": "enchantment", "land": "land", "lands": "land",
    "opponent": "opponent", "opponents": "opponent", "creature or player": "creature or player",
    "player or planeswalker": "player", "creature or planeswalker": "creature",
}
#: Two or three card types joined by "or" ("target artifact or enchantment", "target
#: artifact, creature, or land"): a permanent with one of them, kind ``"permanent"`` and the
#: filter written as in the text, singular ("artifact or enchantment", "artifact, creature,
#: or land").
_TYPE_UNION = re.compile(r"^(artifact|creature|enchantment|land)s?(?:, (artifact|creature|enchantment|land)s?,)? "
                         r"(?:or|and) (artifact|creature|enchantment|land)s?$")
#: The creature types of CR 205.3m (a creature group "Other Zombies you control", "Sliver
#: creatures" names one of them; a land's or an artifact's subtype is never read as one).
_CREATURE_TYPES = frozenset(
    "Advisor Aetherborn Alien Ally Angel Antelope Ape Archer Archon Armadillo Army Artificer Assassin Assembly- "
    "Worker Astartes Atog Aurochs Avatar Azra Badger Balloon Barbarian Bard Basilisk Bat Bear Beast Beaver Beeble "
    "Beholder Berserker Bird Blinkmoth Boar Bringer Brushwagg Camarid Camel Capybara Caribou Carrier Cat Centaur "
    "Child Chimera Citizen Cleric Clown Cockatrice Construct Coward Coyote Crab Crocodile C’tan Custodes Cyberman "
    "Cyclops Dalek Dauthi Demigod Demon Deserter Detective Devil Dinosaur Djinn Doctor Dog Dragon Drake Dreadnought "
    "Drone Druid Dryad Dwarf Efreet Egg Elder Eldrazi Elemental Elephant Elf Elk Employee Eye Faerie Ferret Fish "
    "Flagbearer Fox Fractal Frog Fungus Gamer Gargoyle Germ Giant Gith Glimmer Gnoll Gnome Goat Goblin God Golem "
    "Gorgon Graveborn Gremlin Griffin Guest Hag Halfling Hamster Harpy Hellion Hippo Hippogriff Homarid Homunculus "
    "Horror Horse Human Hydra Hyena Illusion Imp Incarnation Inkling Inquisitor Insect Jackal Jellyfish Juggernaut "
    "Kavu Kirin Kithkin Knight Kobold Kor Kraken Llama Lamia Lammasu Leech Leviathan Lhurgoyf Licid Lizard "
    "Manticore Masticore Mercenary Merfolk Metathran Minion Minotaur Mite Mole Monger Mongoose Monk Monkey Moonfolk "
    "Mount Mouse Mutant Myr Mystic Nautilus Necron Nephilim Nightmare Nightstalker Ninja Noble Noggle Nomad Nymph "
    "Octopus Ogre Ooze Orb Orc Orgg Otter Ouphe Ox Oyster Pangolin Peasant Pegasus Pentavite Performer Pest "
    "Phelddagrif Phoenix Phyrexian Pilot Pincher Pirate Plant Porcupine Possum Praetor Primarch Prism Processor "
    "Rabbit Raccoon Ranger Rat Rebel Reflection Rhino Rigger Robot Rogue Sable Salamander Samurai Sand Saproling "
    "Satyr Scarecrow Scientist Scion Scorpion Scout Sculpture Seal Serf Serpent Servo Shade Shaman Shapeshifter "
    "Shark Sheep Siren Skeleton Skunk Slith Sliver Sloth Slug Snail Snake Soldier Soltari Spawn Specter Spellshaper "
    "Sphinx Spider Spike Spirit Splinter Sponge Squid Squirrel Starfish Surrakar Survivor Synth Tentacle Tetravite "
    "Thalakos Thopter Thrull Tiefling Toy Treefolk Trilobite Triskelavite Troll Turtle Tyranid Unicorn Vampire "
    "Varmint Vedalken Volver Wall Walrus Warlock Warrior Weasel Weird Werewolf Whale Wizard Wolf Wolverine Wombat "
    "Worm Wraith Wurm Yeti Zombie Zubera Time Lord"
    .split()) - {"Time", "Lord"} | {"Time Lord"}
#: Plural creature types of today's templating ("Other Zombies you control") that are not
#: the type plus "s" (CR 205.3m).
_IRREGULAR_PLURALS = {"Elves": "Elf", "Dwarves": "Dwarf", "Wolves": "Wolf", "Werewolves": "Werewolf",
                      "Faeries": "Faerie", "Allies": "Ally", "Mercenaries": "Mercenary", "Sphinxes": "Sphinx",
                      "Foxes": "Fox", "Merfolk": "Merfolk", "Djinn": "Djinn", "Homunculi": "Homunculus",
                      "Fungi": "Fungus", "Efreet": "Efreet", "Octopi": "Octopus", "Kithkin": "Kithkin",
                      "Treefolk": "Treefolk", "Moonfolk": "Moonfolk", "Sheep": "Sheep", "Myr": "Myr", "Ox": "Ox"}
_ADJECTIVES = re.compile(
    r"^(non(?:white|blue|black|red|green)|white|blue|black|red|green|nonartifact|artifact|nonland|tapped|untapped|"
    r"attacking|blocking|nonlegendary|other|non-[A-Z][a-z]+)$")


def normalise(text: str, name: str) -> str:
    """``text`` in one templating: reminder text removed, the card's own name (and a
    legend's short name before the comma, CR 201.4b) and "this creature/Aura/..." written
    ``~``, "enters the battlefield" written "enters", "converted mana cost" written "mana
    value", "Totem armor" written "Umbra armor" (CR 702.89b)."""
    text = _REMINDER.sub("", text)
    names = [name]
    if "," in name:
        names.append(name.split(",")[0])
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, "~")
    text = text.replace("CARDNAME", "~")
    text = re.sub(r"\b[Tt]his (creature|Aura|artifact|enchantment|permanent|spell|land|Equipment|Vehicle)\b", "~", text)
    text = text.replace("enters the battlefield", "enters").replace("converted mana cost", "mana value")
    text = re.sub(r"\b[Tt]otem armor\b", lambda m: "Umbra armor" if m.group(0)[0] == "T" else "umbra armor", text)
    return text


def _number(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return _NUMBERS.get(word)


def _signed(value: str) -> int:
    return int(value.replace("+", ""))


def _keyword_list(text: str) -> tuple[str, ...] | None:
    parts = [p.strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", text) if p.strip()]
    if parts and all(p in KEYWORDS or _LANDWALK.match(p) or _PROTECTION.match(p) for p in parts):
        return tuple(parts)
    return None
