"""A reader of Oracle text: a :class:`cards.Card` in, a :class:`cards.model.CardModel` out.

The reader knows a fixed set of templates (:data:`cards.model.TEMPLATES`) in both
templatings the card data has: today's ("enters", "mana value", "Umbra armor", "this
creature") and the 2018-2020 one of the Oracle database ("enters the battlefield",
"converted mana cost", "Totem armor", the card naming itself). Reminder text is ignored
(CR 207.2: it has no rules meaning). A line that no template reads is kept, whole, in
``CardModel.unread``: the card is then *unmodelled* and never generated.

Entry points: :func:`read` (one card), :func:`model` (by name), :func:`parse_effects`
(an effect sentence such as ``"~ deals 3 damage to any target."``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import Card
from .model import Ability, Affected, CardModel, Effect, TokenDef

__all__ = ["KEYWORDS", "CARRIED_KEYWORDS", "read", "model", "parse_effects", "normalise"]

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


# --------------------------------------------------------------------------- objects

def parse_affected(phrase: str) -> Affected | None:
    """An object phrase such as ``"target nonartifact, nonblack creature"``, ``"each creature
    without flying"``, ``"any target"``, ``"creatures you control"`` as :class:`Affected`, or None."""
    p = phrase.strip()
    if p == "any target":
        return Affected("target", "any")
    if p in ("~", "it"):
        return Affected("self", "permanent")
    if p in ("enchanted creature", "equipped creature"):
        return Affected(p.split()[0], "creature")
    if p in ("you",):
        return Affected("you", "player")
    if p in ("each player",):
        return Affected("each", "player")
    if p in ("each opponent",):
        return Affected("each", "opponent")
    if p in ("target player", "target opponent", "target player or planeswalker"):
        return Affected("target", "player" if "player" in p else "opponent")
    m = re.match(r"^(up to )?(?:(a|an|one|two|three|four|\d+) )?(target|each|all|another target) (.+)$", p)
    if m:
        up_to, count_word, scope_word, rest = m.groups()
        scope = "target" if "target" in scope_word else "each"
        count = _number(count_word) if count_word else 1
        if count is None:
            return None
        found = _object_description(rest)
        if found is None:
            return None
        kind, filters = found
        if scope_word == "another target":
            filters = ("other", *filters)
        return Affected(scope, kind, filters, count if scope == "target" else 1, bool(up_to))
    found = _object_description(p)  # "creatures you control" (an anthem's or a sweeper's group)
    if found and p.split()[-1] not in ("creature", "player", "permanent"):
        kind, filters = found
        return Affected("each", kind, filters)
    return None


_POWER_FILTER = re.compile(r"^(.+) with (power|toughness) (\d+) or (less|greater)$")
_SUBTYPE_CREATURES = re.compile(r"^((?:other )?)([A-Z][a-z]+(?:-[A-Z][a-z]+)?) creatures$")
_SUBTYPE_PLURAL = re.compile(r"^((?:other )?)([A-Z][a-z]+)$")


def _object_description(rest: str) -> tuple[str, tuple[str, ...]] | None:
    filters: list[str] = []
    for suffix, filt in ((" you control", "you control"), (" an opponent controls", "opponent controls"),
                         (" your opponents control", "opponent controls"), (" with flying", "flying"),
                         (" without flying", "without flying")):
        if rest.endswith(suffix):
            rest = rest[: -len(suffix)]
            filters.append(filt)
            break
    if m := _POWER_FILTER.match(rest):  # "creature with power 2 or less"
        rest = m.group(1)
        filters.insert(0, f"{m.group(2)} {m.group(3)} or {m.group(4)}")
    if rest.startswith("attacking or blocking "):
        filters.insert(0, "attacking or blocking")
        rest = rest[len("attacking or blocking "):]
    if m := _TYPE_UNION.match(rest):
        kinds = [k for k in m.groups() if k]
        if len(set(kinds)) != len(kinds) or any(f not in ("you control", "opponent controls") for f in filters):
            return None  # "artifact or creature with flying": the filter is the last type's only
        union = f"{kinds[0]} or {kinds[1]}" if len(kinds) == 2 else f"{kinds[0]}, {kinds[1]}, or {kinds[2]}"
        return "permanent", (union, *filters)  # a permanent of one of these types
    if (m := _SUBTYPE_CREATURES.match(rest)) and m.group(2) in _CREATURE_TYPES:  # "other Merfolk creatures"
        return "creature", (("other",) if m.group(1) else ()) + (m.group(2),) + tuple(filters)
    if (m := _SUBTYPE_PLURAL.match(rest)) and filters:  # "other Zombies you control" (today's templating)
        word = m.group(2)
        subtype = _IRREGULAR_PLURALS.get(word) or (word[:-1] if word.endswith("s") else None)
        if subtype not in _CREATURE_TYPES:
            return None
        return "creature", (("other",) if m.group(1) else ()) + (subtype,) + tuple(filters)
    for noun in sorted(_NOUNS, key=len, reverse=True):
        if rest == noun or rest.endswith(" " + noun):
            adjectives = rest[: -len(noun)].strip()
            words = [w for w in re.split(r"[,\s]+", adjectives) if w and w != "and"] if adjectives else []
            if not all(_ADJECTIVES.match(w) for w in words):
                return None
            return _NOUNS[noun], tuple(words) + tuple(filters)
    return None


# --------------------------------------------------------------------------- effects

_DAMAGE = re.compile(r"^~ deals (\d+|X) damage to (.+)$")
_PT = re.compile(r"^(.+?) (?:gets|get) ([+-]\d+)/([+-]\d+)(?: and (?:gains|gain) (.+?))? until end of turn$")
_GAINS = re.compile(r"^(.+?) (?:gains|gain) (.+?) until end of turn$")
_COUNTERS = re.compile(r"^put (a|an|one|two|three|four|five|\d+) ([+-]\d+/[+-]\d+) counters? on (.+)$")
_GAIN_LIFE = re.compile(r"^(you|target player|each player) (?:gain|gains) (\d+|a|one|two|three|four|five) life$")
_LOSE_LIFE = re.compile(r"^(you|target player|target opponent|each opponent|each player) (?:lose|loses) "
                        r"(\d+|a|one|two|three|four|five) life$")
_DRAW = re.compile(r"^(?:(you|target player) )?(?:draw|draws) (a|an|one|two|three|four|\d+) (?:additional )?cards?$")
#: Life amounts read from the game (CR 608.2h): "you gain 1 life for each creature you control",
#: "you gain life equal to its power" (its: see :func:`parse_effects`).
_LIFE_PER = re.compile(r"^(you|target player|each player|target opponent|each opponent) (gain|gains|lose|loses) "
                       r"(\d+|a|one|two|three|four|five) life for each (.+)$")
_LIFE_EQUAL = re.compile(r"^(you|target player|each player|target opponent|each opponent) (gain|gains|lose|loses) "
                         r"life equal to (~'s|its|that creature's) (power|toughness)$")
#: "~ deals 3 damage divided as you choose among one, two, or three targets" (CR 601.2d).
_DIVIDED = re.compile(r"^~ deals (\d+) damage divided as you choose among (one or two|one, two, or three|any number of) "
                      r"(targets|target .+)$")
_TOKENS = re.compile(r"^create (a|an|one|two|three|four|five|\d+) (\d+)/(\d+) ((?:(?:white|blue|black|red|green|"
                     r"colorless)(?:(?:,)? and | )?)+)((?:[A-Z][a-z]+ )+)(artifact )?creature tokens?"
                     r"(?: with ([a-z ,]+?))?$")
_TAP = re.compile(r"^(tap|untap) (.+)$")
_DESTROY = re.compile(r"^destroy (.+)$")
#: Zone changes (CR 400.7): "Exile target creature", "Return target permanent to its owner's hand",
#: "Exile target creature you control, then return it to the battlefield under its owner's control".
_FLICKER = re.compile(r"^exile (.+?), then return (?:it|that card|them|those cards) to the battlefield under "
                      r"(its owner's|their owners'|your) control$")
_EXILE = re.compile(r"^exile (.+)$")
_BOUNCE = re.compile(r"^return (.+?) to (?:its owner's hand|their owners' hands)$")
#: The actions that move an object out of the battlefield (cards.model.ACTIONS).
ZONE_ACTIONS = ("exile", "return_to_hand", "flicker")


def _keyword_list(text: str) -> tuple[str, ...] | None:
    parts = [p.strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", text) if p.strip()]
    if parts and all(p in KEYWORDS or _LANDWALK.match(p) or _PROTECTION.match(p) for p in parts):
        return tuple(parts)
    return None


_REGENERATE = re.compile(r"^regenerate (.+)$")
_IT_DEALS = re.compile(r"^it (deals|gets|gains) ")
#: Two effects in one sentence, joined by "and" (the second's subject given or the first's).
_TWO_DAMAGES = re.compile(r"^~ deals (\d+) damage to (.+?) and (\d+) damage to (.+)$")
_AND_YOU = re.compile(r"^(.+?) and (you (?:gain|lose) (?:\d+|a|one|two|three|four|five) life|you draw (?:a|one|two|three) "
                      r"cards?)$")
_LOSES_AND = re.compile(r"^(target player|target opponent|each opponent|each player) loses (\d+|a|one|two|three|four|five) "
                        r"life and (you gain (?:\d+|a|one|two|three|four|five) life)$")


def _effects_of_sentence(sentence: str) -> tuple[Effect, ...] | None:
    """The effect(s) of one sentence: one effect, or two joined by "and" (""~ deals 2 damage
    to target creature and 2 damage to you"", ""... and you gain 2 life"")."""
    one = _one_effect(sentence)
    if one is not None:
        return (one,)
    s = sentence.strip().rstrip(".")
    if not s:
        return None
    s = s[0].lower() + s[1:] if not s.startswith("~") else s
    if m := _TWO_DAMAGES.match(s):
        first, second = _one_effect(f"~ deals {m.group(1)} damage to {m.group(2)}"), \
            _one_effect(f"~ deals {m.group(3)} damage to {m.group(4)}")
        return (first, second) if first and second else None
    if m := _LOSES_AND.match(s):
        first, second = _one_effect(f"{m.group(1)} loses {m.group(2)} life"), _one_effect(m.group(3))
        return (first, second) if first and second else None
    if m := _AND_YOU.match(s):
        first, second = _one_effect(m.group(1)), _one_effect(m.group(2))
        return (first, second) if first and second else None
    return None


def _one_effect(sentence: str) -> Effect | None:
    s = sentence.strip().rstrip(".")
    if not s:
        return None
    s = s[0].lower() + s[1:] if not s.startswith("~") else s
    s = _IT_DEALS.sub(r"~ \1 ", s)  # "it deals 1 damage" in a trigger: the source is the card itself
    m = _DAMAGE.match(s)
    if m and m.group(1) != "X":
        amount, who = int(m.group(1)), m.group(2)
        if who == "each creature and each player":
            return Effect("damage", Affected("each", "creature and player"), amount=amount)
        affected = parse_affected(who)
        return Effect("damage", affected, amount=amount) if affected else None
    m = _PT.match(s)
    if m:
        affected = parse_affected(m.group(1))
        keywords = _keyword_list(m.group(4)) if m.group(4) else ()
        if affected and keywords is not None:
            return Effect("pt", affected, power=_signed(m.group(2)), toughness=_signed(m.group(3)),
                          keywords=keywords, until_end_of_turn=True)
        return None
    m = _GAINS.match(s)
    if m:
        affected, keywords = parse_affected(m.group(1)), _keyword_list(m.group(2))
        if affected and keywords:
            return Effect("gain_keywords", affected, keywords=keywords, until_end_of_turn=True)
        return None
    m = _COUNTERS.match(s)
    if m:
        affected, amount = parse_affected(m.group(3)), _number(m.group(1))
        if affected and amount and m.group(2) in ("+1/+1", "-1/-1"):
            return Effect("counters", affected, amount=amount, counter=m.group(2))
        return None
    m = _DIVIDED.match(s)
    if m:
        amount = int(m.group(1))
        count = {"one or two": 2, "one, two, or three": 3}.get(m.group(2), amount)
        affected = parse_affected("any target" if m.group(3) == "targets" else m.group(3))
        if affected is None or affected.scope != "target" or amount < 1 or count < 1:
            return None
        return Effect("damage", Affected("target", affected.kind, affected.filters, min(count, amount), True),
                      amount=amount, divided=True)
    m = _LIFE_PER.match(s)
    if m:
        per = _counted(m.group(4))
        action = "gain_life" if m.group(2).startswith("gain") else "lose_life"
        return Effect(action, parse_affected(m.group(1)), amount=_number(m.group(3)), per=per) if per else None
    m = _LIFE_EQUAL.match(s)
    if m:
        action = "gain_life" if m.group(2).startswith("gain") else "lose_life"
        of = {"~'s": "self", "its": "it", "that creature's": "that creature"}[m.group(3)]
        return Effect(action, parse_affected(m.group(1)), equal_to=(m.group(4), of))
    m = _GAIN_LIFE.match(s)
    if m:
        return Effect("gain_life", parse_affected(m.group(1)) or Affected("you", "player"), amount=_number(m.group(2)))
    m = _LOSE_LIFE.match(s)
    if m:
        return Effect("lose_life", parse_affected(m.group(1)) or Affected("you", "player"), amount=_number(m.group(2)))
    m = _DRAW.match(s)
    if m:
        return Effect("draw", parse_affected(m.group(1) or "you"), amount=_number(m.group(2)))
    m = _TOKENS.match(s)
    if m:
        return _tokens(m)
    m = _TAP.match(s)
    if m:
        affected = parse_affected(m.group(2))
        return Effect(m.group(1), affected) if affected and affected.scope != "each" else None
    m = _FLICKER.match(s)
    if m:
        affected = parse_affected(m.group(1))
        return Effect("flicker", affected, returns_under="you" if m.group(2) == "your" else None) \
            if affected and affected.kind not in _NOT_PERMANENTS else None
    m = _EXILE.match(s)
    if m:
        affected = parse_affected(m.group(1))
        return Effect("exile", affected) if affected and affected.kind not in _NOT_PERMANENTS else None
    m = _BOUNCE.match(s)
    if m:
        affected = parse_affected(m.group(1))
        return Effect("return_to_hand", affected) if affected and affected.kind not in _NOT_PERMANENTS else None
    m = _DESTROY.match(s)
    if m:
        affected = parse_affected(m.group(1))
        return Effect("destroy", affected) if affected and affected.kind not in _NOT_PERMANENTS else None
    m = _REGENERATE.match(s)
    if m:
        affected = parse_affected(m.group(1))
        return Effect("regenerate", affected) if affected and affected.kind not in _NOT_PERMANENTS else None
    return None


_NOT_PERMANENTS = ("player", "opponent", "any", "creature or player")


def _counted(rest: str) -> Affected | None:
    """What "for each <rest>" counts: permanents on the battlefield ("creature you control",
    "creature on the battlefield", "land an opponent controls"), as an ``each`` :class:`Affected`;
    None for anything else (cards in a hand, permanents destroyed this way, ...)."""
    anywhere = rest.endswith(" on the battlefield")
    if anywhere:
        rest = rest[: -len(" on the battlefield")]
    found = _object_description(rest)
    if found is None:
        return None
    kind, filters = found
    if kind in _NOT_PERMANENTS or not (anywhere or {"you control", "opponent controls"} & set(filters)):
        return None
    return Affected("each", kind, filters)


def _tokens(m: re.Match) -> Effect | None:
    count = _number(m.group(1))
    colors = tuple(_COLOR_WORDS[w] for w in re.findall(r"white|blue|black|red|green", m.group(4)))
    subtypes = tuple(m.group(5).split())
    keywords = _keyword_list(m.group(7)) if m.group(7) else ()
    if count is None or keywords is None:
        return None
    types = ("Artifact", "Creature") if m.group(6) else ("Creature",)
    token = TokenDef(f"{' '.join(subtypes)} Token", int(m.group(2)), int(m.group(3)), colors, types, subtypes, keywords)
    return Effect("create_tokens", Affected("you", "player"), amount=count, token=token)


_IT = re.compile(r"\b[Ii]t\b")
_ITS_CONTROLLER = re.compile(r"^Its controller (gains|loses) (\d+|one|two|three|four|five) life\.$")


def parse_effects(text: str) -> tuple[Effect, ...] | None:
    """The effects of ``text`` (one or more sentences, the card's name written ``~``), in
    order, or None when a sentence is not a template the reader knows. "It can't be
    regenerated." / "They can't be regenerated." modifies the destroy before it (CR 701.15c)."""
    sentences = [s.strip() for s in re.split(r"(?<=\.)\s+", text.strip()) if s.strip()]
    effects: list[Effect] = []
    for sentence in sentences:
        if sentence in ("It can't be regenerated.", "They can't be regenerated."):
            if not effects or effects[-1].action != "destroy":
                return None
            last = effects.pop()
            effects.append(Effect(last.action, last.affected, cant_be_regenerated=True))
            continue
        if m := _ITS_CONTROLLER.match(sentence):
            # "Destroy target land. Its controller loses 2 life.": the controller of the one
            # object the effect before it targeted (last known information, CR 608.2h)
            last = effects[-1] if effects else None
            if last is None or last.affected.scope != "target" or last.affected.count != 1 or last.affected.up_to \
                    or last.affected.kind in _NOT_PERMANENTS:
                return None
            action = "gain_life" if m.group(1) == "gains" else "lose_life"
            effects.append(Effect(action, Affected("controller", "player"), amount=_number(m.group(2))))
            continue
        if _IT.search(sentence) and any(e.affected.scope == "target" for e in effects):
            return None  # "Tap target creature. Put a counter on it.": "it" is the target, not the card
        found = _effects_of_sentence(sentence)
        if found is None:
            return None
        for effect in found:
            if effect.equal_to is not None and effect.equal_to[1] == "it":
                effect = _its(effect, effects)
                if effect is None:
                    return None
            effects.append(effect)
    return tuple(effects) if effects else None


def _its(effect: Effect, before: list[Effect]) -> Effect | None:
    """"life equal to its power": "its" is the one object the effect before it targeted
    ("Destroy target creature. You gain life equal to its toughness.", as it last existed, CR
    608.2h), or, with no targeting effect before it, the source itself (``"self"``)."""
    from dataclasses import replace

    targeting = [e for e in before if e.affected.scope == "target"]
    if not targeting:
        return replace(effect, equal_to=(effect.equal_to[0], "self"))
    last = targeting[-1]
    if len(targeting) != 1 or last.affected.count != 1 or last.affected.up_to or last.affected.kind in _NOT_PERMANENTS \
            or last.divided:
        return None
    return replace(effect, equal_to=(effect.equal_to[0], "target"))


def _spell_template(effects: tuple[Effect, ...]) -> str:
    action = effects[0].action
    if any(e.divided for e in effects):
        return "spell: divided damage"
    return {"destroy": "spell: destroy", "damage": "spell: damage", "pt": "spell: pt", "gain_keywords": "spell: pt",
            "counters": "spell: counters", "gain_life": "spell: life", "lose_life": "spell: life",
            "draw": "spell: draw", "create_tokens": "spell: tokens", "tap": "spell: tap",
            "untap": "spell: tap", "regenerate": "spell: regenerate", "exile": "spell: exile",
            "return_to_hand": "spell: return to hand", "flicker": "spell: flicker"}[action]


# --------------------------------------------------------------------------- lines

def _keyword_line(line: str) -> tuple[Ability, ...] | None:
    """A line of keywords ("Flying, vigilance", "Protection from red", "Enchant creature",
    "Equip {2}", "Umbra armor") as keyword abilities, or None."""
    stripped = line.strip().rstrip(".")
    if not stripped:
        return None
    found: list[Ability] = []
    for part in [p.strip() for p in stripped.split(",")]:
        low = part.lower()
        if low in KEYWORDS:
            found.append(Ability("keyword", "umbra armor" if low == "umbra armor" else "keyword", part, keyword=low))
        elif low in CARRIED_KEYWORDS:
            found.append(Ability("keyword", "carried keyword", part, keyword=low))
        elif m := _CARRIED_N.match(low):
            found.append(Ability("keyword", "carried keyword", part, keyword=m.group(1), parameter=m.group(2)))
        elif _LANDWALK.match(low):
            found.append(Ability("keyword", "keyword", part, keyword=low))
        elif m := _PROTECTION.match(low):
            found.append(Ability("keyword", "keyword", part, keyword="protection from", parameter=m.group(1)))
        elif m := _ENCHANT.match(low):
            found.append(Ability("keyword", "enchant", part, keyword="enchant", parameter=m.group(1)))
        elif m := _EQUIP.match(low):
            found.append(Ability("keyword", "equip", part, keyword="equip", parameter=m.group(1).upper()))
        else:
            return None
    return tuple(found)


_BONUS = re.compile(r"^(Enchanted|Equipped) creature (?:gets ([+-]\d+)/([+-]\d+)(?: and has (.+))?|has (.+))\.$")
_ANTHEM = re.compile(r"^([A-Z][A-Za-z -]*?) (?:get ([+-]\d+)/([+-]\d+)(?: and have (.+))?|have (.+))\.$")
_TRIGGER = re.compile(r"^When(?:ever)? ~ (enters|dies|leaves the battlefield|attacks|blocks|becomes blocked|"
                      r"blocks or becomes blocked), (.+)$")
_COMBAT_TRIGGERS = ("attacks", "blocks", "becomes blocked", "blocks or becomes blocked")

#: Restrictions and requirements on attacking and blocking (CR 508.1c-d, 509.1b-c) and on
#: how combat damage is assigned (CR 510.1): they apply only while attackers or blockers
#: are declared or combat damage is dealt, which the project doesn't model, so they are
#: carried (template "combat restriction"). The subject is the card, the creature an Aura
#: enchants or the creature an Equipment equips.
_RESTRICTION_SUBJECT = r"(~|Enchanted creature|Equipped creature)"
_COLOR = r"(?:white|blue|black|red|green)"
_COUNT = r"(?:two|three|four)"
_RESTRICTIONS = (
    r"can't attack", r"can't attack or block", r"can't block", r"can't attack alone", r"can't block alone",
    r"can't attack or block alone", r"attacks each combat if able", r"blocks each combat if able",
    r"attacks or blocks each combat if able", r"can block only creatures with flying",
    r"can block an additional creature each combat", r"can block any number of creatures",
    r"can't be blocked by more than one creature", rf"can't be blocked except by {_COUNT} or more creatures",
    r"can't be blocked by Walls", rf"can't be blocked by (?:artifact|{_COLOR}) creatures",
    r"can't be blocked by creatures with flying", r"can't be blocked by creatures with power \d+ or (?:less|greater)",
    r"can't be blocked except by creatures with flying(?: or reach)?", rf"can't be blocked except by {_COLOR} creatures",
    r"can't block creatures with power \d+ or (?:less|greater)", r"can't block creatures with flying",
    r"can't block and can't be blocked", r"can't attack unless defending player controls an? (?:Plains|Island|Swamp|"
    r"Mountain|Forest)", r"can block creatures with shadow as though they didn't have shadow",
)
_RESTRICTION = re.compile(rf"^{_RESTRICTION_SUBJECT} ({'|'.join(_RESTRICTIONS)})\.$")
_OTHER_RESTRICTIONS = frozenset({
    "All creatures able to block ~ do so.",  # CR 509.1c
    "Creatures with power less than ~'s power can't block it.",  # CR 509.1b
    "You may have ~ assign its combat damage as though it weren't blocked.",  # CR 510.1c
})
_BONUS_AND_RESTRICTION = re.compile(rf"^(Enchanted|Equipped) creature gets ([+-]\d+)/([+-]\d+) and "
                                    rf"({'|'.join(_RESTRICTIONS)})\.$")
_ACTIVATED = re.compile(r"^((?:\{[^}]+\}|Sacrifice ~|, ?)+): (.+)$")
_MANA = re.compile(r"^Add (\{[WUBRGC]\}(?: or \{[WUBRGC]\})?|(?:\{[WUBRGC]\}, )+or \{[WUBRGC]\}|(?:\{[WUBRGC]\}){2,}|"
                   r"one mana of any color)\.$")


#: The restrictions of :data:`_RESTRICTIONS` that engines claiming ``combat`` play (CR 508.1c,
#: 509.1b): restriction -> ``Ability.restrictions``. The others are carried (read, not played).
PLAYED_RESTRICTIONS = {
    "can't attack": ("can't attack",), "can't block": ("can't block",),
    "can't attack or block": ("can't attack", "can't block"),
    "can't block and can't be blocked": ("can't block", "can't be blocked"),
}


def _restriction(line: str) -> Ability | None:
    if line in _OTHER_RESTRICTIONS:
        return Ability("static", "combat restriction", line, static="combat restriction",
                       affected=Affected("self", "creature"))
    m = _RESTRICTION.match(line)
    if m is None:
        return None
    scope = {"~": "self"}.get(m.group(1)) or m.group(1).split()[0].lower()
    if scope == "self" and m.group(2) in ("can't block",):
        return None  # its own template, "can't block"
    return Ability("static", "combat restriction", line, static="combat restriction",
                   affected=Affected(scope, "creature"), restrictions=PLAYED_RESTRICTIONS.get(m.group(2), ()))


def _static_line(line: str) -> Ability | None:
    if line in ("~ can't be countered.",):  # CR 101.2: only a spell on the stack is countered
        return Ability("static", "stack restriction", line, static="can't be countered")
    if (found := _restriction(line)) is not None:
        return found
    if line in ("~ enters tapped.",):
        return Ability("static", "enters tapped", line, static="enters tapped")
    if line == "~ can't block.":
        return Ability("static", "can't block", line, static="can't block", affected=Affected("self", "creature"),
                       restrictions=("can't block",))
    if line == "~ can't be blocked.":
        return Ability("static", "can't be blocked", line, static="can't be blocked",
                       affected=Affected("self", "creature"), restrictions=("can't be blocked",))
    m = _BONUS.match(line)
    if m:
        which, p, t, with_kw, only_kw = m.groups()
        keywords = _keyword_list(with_kw or only_kw) if (with_kw or only_kw) else ()
        if keywords is None:
            return None
        scope = which.lower()
        return Ability("static", "aura bonus" if scope == "enchanted" else "equipment bonus", line, static="bonus",
                       affected=Affected(scope, "creature"), power=_signed(p) if p else 0,
                       toughness=_signed(t) if t else 0, keywords=keywords)
    m = _ANTHEM.match(line)
    if m:
        group, p, t, with_kw, only_kw = m.groups()
        keywords = _keyword_list(with_kw or only_kw) if (with_kw or only_kw) else ()
        if keywords is None:
            return None
        affected = parse_affected(group[0].lower() + group[1:]) if group != "All creatures" \
            else Affected("each", "creature")
        if affected is None or affected.scope != "each" or affected.kind != "creature" or "~" in group:
            return None
        return Ability("static", "anthem", line, static="bonus", affected=affected,
                       power=_signed(p) if p else 0, toughness=_signed(t) if t else 0, keywords=keywords)
    return None


_BEGINNING = re.compile(r"^At the beginning of your (upkeep|draw step), (.+)$")
_CREATURE_DIES = re.compile(r"^Whenever (a|another) (nontoken )?creature( you control| an opponent controls)? dies, (.+)$")
#: "it" / "its" in a creature dies trigger could be the creature that died or the card: not read.
_IT_OR_ITS = re.compile(r"\b[Ii]ts?\b")


def _trigger_line(line: str) -> Ability | None:
    watched = None
    m = _TRIGGER.match(line)
    if m:
        event, rest = m.groups()
    elif m := _BEGINNING.match(line):  # CR 503.1a, 504.2: "At the beginning of your upkeep / draw step"
        event, rest = ("upkeep" if m.group(1) == "upkeep" else "draw step"), m.group(2)
    elif m := _CREATURE_DIES.match(line):  # CR 603.2, 603.10a: "Whenever another creature you control dies"
        which, nontoken, whose, rest = m.groups()
        if _IT_OR_ITS.search(rest):
            return None
        filters = (("other",) if which == "another" else ()) + (("nontoken",) if nontoken else ()) + \
            ((whose.strip().replace("an opponent controls", "opponent controls"),) if whose else ())
        event, watched = "a creature dies", Affected("each", "creature", filters)
    else:
        return None
    optional = rest.startswith("you may ")
    if optional:
        rest = rest[len("you may "):]
    effects = parse_effects(rest[0].upper() + rest[1:])
    if effects is not None and event in ("dies", "leaves the battlefield") and any(
            e.action in ZONE_ACTIONS and e.affected.scope == "self" for e in effects):
        return None  # "When ~ dies, return it to its owner's hand": the card in its new zone (CR 400.7e), not read
    if effects is None or any(e.divided for e in effects):
        return None  # (a divided trigger: its division is chosen as it is put on the stack; not read)
    if any(e.equal_to and e.equal_to[1] == "that creature" for e in effects) and watched is None:
        return None
    template = "combat trigger" if event in _COMBAT_TRIGGERS else \
        "creature dies trigger" if watched is not None else f"{event} trigger"
    return Ability("triggered", template, line, affected=watched, trigger=event, optional=optional, effects=effects)


def _activated_line(line: str) -> Ability | None:
    m = _ACTIVATED.match(line)
    if not m:
        return None
    cost_text, effect_text = m.groups()
    parts = [p.strip() for p in cost_text.split(",") if p.strip()]
    tap = "{T}" in parts
    sacrifice = "Sacrifice ~" in parts
    mana_parts = [p for p in parts if p not in ("{T}", "Sacrifice ~")]
    if not all(re.fullmatch(r"(\{(?:\d+|[WUBRGC])\})+", p) for p in mana_parts) or (tap and parts.count("{T}") > 1):
        return None
    cost = "".join(mana_parts)
    mana = _MANA.match(effect_text)
    if mana:
        if not tap or sacrifice or cost:
            # "{1}, {T}: Add {W}{U}.", "Sacrifice ~: Add {B}.": mana abilities (CR 605.1a) whose
            # other costs the reference engine's mana abilities don't pay yet; not read
            return None
        produced = mana.group(1)
        produces = ("any color",) if produced == "one mana of any color" else tuple(re.findall(r"[WUBRGC]", produced))
        if " or " not in produced and len(produces) > 1:
            produces = ("".join(produces),)  # {G}{G}: two mana at once
        return Ability("mana", "mana ability", line, cost=cost, tap=tap, sacrifice_self=sacrifice, produces=produces)
    if effect_text in ("Regenerate ~.",):
        return Ability("activated", "regenerate", line, cost=cost, tap=tap, sacrifice_self=sacrifice,
                       effects=(Effect("regenerate", Affected("self", "permanent")),))
    effects = parse_effects(effect_text)
    if effects is None or any(e.action == "create_tokens" or e.divided or (e.equal_to and e.equal_to[1] == "that creature")
                              for e in effects):
        return None
    template = "regenerate" if all(e.action == "regenerate" for e in effects) else "activated"
    return Ability("activated", template, line, cost=cost, tap=tap, sacrifice_self=sacrifice, effects=effects)


_BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def _line(line: str, card: Card) -> tuple[Ability, ...] | None:
    spell = card.is_type("Instant") or card.is_type("Sorcery")
    if spell:
        effects = parse_effects(line)
        if effects is not None and not any(e.affected.scope == "self" or (e.equal_to and e.equal_to[1] in (
                "self", "that creature")) for e in effects):
            # (an instant's "it" is never the spell itself: "Regenerate it." is its target's)
            return (Ability("spell", _spell_template(effects), line, effects=effects),)
        keywords = _keyword_line(line)
        if keywords and all(a.template == "carried keyword" for a in keywords):
            return keywords  # convoke, delve, split second, ... (the cost or the stack only)
        if line == "~ can't be countered.":
            return (_static_line(line),)
        return None  # "Flash" on an instant is not a keyword of its own (CR 702.8)
    keywords = _keyword_line(line)
    if keywords is not None:
        return keywords
    m = _BONUS_AND_RESTRICTION.match(line)
    if m:  # "Enchanted creature gets +2/+2 and attacks each combat if able.": a bonus and a restriction
        which, p, t, restriction = m.groups()
        scope = which.lower()
        return (Ability("static", "aura bonus" if scope == "enchanted" else "equipment bonus", line, static="bonus",
                        affected=Affected(scope, "creature"), power=_signed(p), toughness=_signed(t)),
                Ability("static", "combat restriction", line, static="combat restriction",
                        affected=Affected(scope, "creature"), restrictions=PLAYED_RESTRICTIONS.get(restriction, ())))
    for reader in (_static_line, _trigger_line, _activated_line):
        found = reader(line)
        if found is not None:
            return (found,)
    return None


def read(card: Card) -> CardModel:
    """How ``card``'s Oracle text reads: a :class:`CardModel` with every ability the reader
    found and every line it could not read (``unread``). A basic land type gives its
    intrinsic mana ability (CR 305.6). An unpublished card (no Oracle text) is unmodelled."""
    if not card.published:
        return CardModel(card.name, published=False, unread=("(its Oracle text is not published)",))
    abilities: list[Ability] = []
    unread: list[str] = []
    sentences: list[tuple[str, str | None]] = []
    for subtype, mana in _BASIC_MANA.items():
        if card.is_type("Land") and subtype in card.subtypes:
            abilities.append(Ability("mana", "mana ability", f"({{T}}: Add {{{mana}}}.)", tap=True, cost="",
                                     produces=(mana,)))
    for raw in normalise(card.oracle_text, card.name).split("\n"):
        line = raw.strip()
        if not line:
            continue
        found = _line(line, card)
        if found is None:
            unread.append(line)
            sentences.append((line, None))
        else:
            abilities.extend(found)
            sentences.append((line, found[0].template))
    return CardModel(card.name, tuple(abilities), tuple(unread), sentences=tuple(sentences))


@lru_cache(maxsize=None)
def model(name: str) -> CardModel:
    """The model of the card named ``name`` (:func:`cards.card`); raises
    :class:`cards.UnknownCardName` for a name no card data has. A card of the curated pool
    (``cards/data/cards.json``) is ``hand_written``: modelled, its rules the reference
    engine's own (its sentences are still read, for ``rulesfuzz cards NAME``)."""
    from dataclasses import replace

    from . import card, pool

    found = read(card(name))
    return replace(found, hand_written=True) if name in pool() else found
