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

__all__ = ["KEYWORDS", "read", "model", "parse_effects", "normalise"]

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
    text = re.sub(r"\bthis (creature|Aura|artifact|enchantment|permanent|spell|land|Equipment)\b", "~", text)
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


def _object_description(rest: str) -> tuple[str, tuple[str, ...]] | None:
    filters: list[str] = []
    for suffix, filt in ((" you control", "you control"), (" an opponent controls", "opponent controls"),
                         (" your opponents control", "opponent controls"), (" with flying", "flying"),
                         (" without flying", "without flying")):
        if rest.endswith(suffix):
            rest = rest[: -len(suffix)]
            filters.append(filt)
            break
    if rest.startswith("attacking or blocking "):
        filters.insert(0, "attacking or blocking")
        rest = rest[len("attacking or blocking "):]
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
_DRAW = re.compile(r"^(?:(you|target player) )?(?:draw|draws) (a|one|two|three|four|\d+) cards?$")
_TOKENS = re.compile(r"^create (a|an|one|two|three|four|five|\d+) (\d+)/(\d+) ((?:(?:white|blue|black|red|green|"
                     r"colorless)(?:(?:,)? and | )?)+)((?:[A-Z][a-z]+ )+)(artifact )?creature tokens?"
                     r"(?: with ([a-z ,]+?))?$")
_TAP = re.compile(r"^(tap|untap) (.+)$")
_DESTROY = re.compile(r"^destroy (.+)$")


def _keyword_list(text: str) -> tuple[str, ...] | None:
    parts = [p.strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", text) if p.strip()]
    if parts and all(p in KEYWORDS or _LANDWALK.match(p) or _PROTECTION.match(p) for p in parts):
        return tuple(parts)
    return None


def _one_effect(sentence: str) -> Effect | None:
    s = sentence.strip().rstrip(".")
    if not s:
        return None
    s = s[0].lower() + s[1:] if not s.startswith("~") else s
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
    m = _DESTROY.match(s)
    if m:
        affected = parse_affected(m.group(1))
        return Effect("destroy", affected) if affected and affected.kind != "player" else None
    return None


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
        effect = _one_effect(sentence)
        if effect is None:
            return None
        effects.append(effect)
    return tuple(effects) if effects else None


def _spell_template(effects: tuple[Effect, ...]) -> str:
    action = effects[0].action
    return {"destroy": "spell: destroy", "damage": "spell: damage", "pt": "spell: pt", "gain_keywords": "spell: pt",
            "counters": "spell: counters", "gain_life": "spell: life", "lose_life": "spell: life",
            "draw": "spell: draw", "create_tokens": "spell: tokens", "tap": "spell: tap",
            "untap": "spell: tap"}[action]


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
_ANTHEM = re.compile(r"^((?:Other )?(?:(?:[Ww]hite|[Bb]lue|[Bb]lack|[Rr]ed|[Gg]reen|[Nn]on[a-z]+) )?[Cc]reatures you control|"
                     r"All creatures|Creatures your opponents control) (?:get ([+-]\d+)/([+-]\d+)(?: and have (.+))?|"
                     r"have (.+))\.$")
_TRIGGER = re.compile(r"^When(?:ever)? ~ (enters|dies), (.+)$")
_ACTIVATED = re.compile(r"^((?:\{[^}]+\}|Sacrifice ~|, ?)+): (.+)$")
_MANA = re.compile(r"^Add (\{[WUBRGC]\}(?: or \{[WUBRGC]\})*|\{[WUBRGC]\}\{[WUBRGC]\}|one mana of any color)\.$")


def _static_line(line: str) -> Ability | None:
    if line in ("~ enters tapped.",):
        return Ability("static", "enters tapped", line, static="enters tapped")
    if line == "~ can't block.":
        return Ability("static", "can't block", line, static="can't block")
    if line == "~ can't be blocked.":
        return Ability("static", "can't be blocked", line, static="can't be blocked")
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
        if affected is None:
            return None
        return Ability("static", "anthem", line, static="bonus", affected=affected,
                       power=_signed(p) if p else 0, toughness=_signed(t) if t else 0, keywords=keywords)
    return None


def _trigger_line(line: str) -> Ability | None:
    m = _TRIGGER.match(line)
    if not m:
        return None
    event, rest = m.groups()
    optional = rest.startswith("you may ")
    if optional:
        rest = rest[len("you may "):]
    effects = parse_effects(rest[0].upper() + rest[1:])
    if effects is None:
        return None
    return Ability("triggered", f"{event} trigger", line, trigger=event, optional=optional, effects=effects)


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
            return None  # a mana ability with another cost: not a template the reader knows
        produced = mana.group(1)
        produces = ("any color",) if produced == "one mana of any color" else tuple(re.findall(r"[WUBRGC]", produced))
        if " or " not in produced and len(produces) > 1:
            produces = ("".join(produces),)  # {G}{G}: two mana at once
        return Ability("mana", "mana ability", line, cost=cost, tap=True, produces=produces)
    if effect_text in ("Regenerate ~.",):
        return Ability("activated", "regenerate", line, cost=cost, tap=tap, sacrifice_self=sacrifice,
                       effects=(Effect("regenerate", Affected("self", "permanent")),))
    effects = parse_effects(effect_text)
    if effects is None or any(e.action == "create_tokens" for e in effects):
        return None
    return Ability("activated", "activated", line, cost=cost, tap=tap, sacrifice_self=sacrifice, effects=effects)


_BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def _line(line: str, card: Card) -> tuple[Ability, ...] | None:
    spell = card.is_type("Instant") or card.is_type("Sorcery")
    if spell:
        effects = parse_effects(line)
        if effects is not None:
            return (Ability("spell", _spell_template(effects), line, effects=effects),)
        keywords = _keyword_line(line)
        if keywords and all(a.keyword == "flash" for a in keywords):
            return None  # "Flash" on an instant is not a keyword of its own (CR 702.8)
        return None
    keywords = _keyword_line(line)
    if keywords is not None:
        return keywords
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
    :class:`cards.UnknownCardName` for a name no card data has."""
    from . import card

    return read(card(name))
