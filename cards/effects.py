"""Effect sentences of Oracle text ("~ deals 3 damage to any target.", "Destroy target
creature. It can't be regenerated.") as :class:`cards.model.Effect` (:func:`parse_effects`)."""

from __future__ import annotations

import re

from .model import Affected, Effect, TokenDef
from .objects import _NOT_PERMANENTS, _counted, parse_affected
from .wording import _COLOR_WORDS, _keyword_list, _number, _signed

__all__ = ["ZONE_ACTIONS", "parse_effects"]

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
