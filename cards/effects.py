"""Effect sentences of Oracle text ("~ deals 3 damage to any target.", "Destroy target
creature. It can't be regenerated.") as :class:`cards.model.Effect` (:func:`parse_effects`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from .model import Affected, Effect, TokenDef
from .objects import _NOT_PERMANENTS, _counted, parse_affected
from .wording import _COLOR_WORDS, _keyword_list, _number, _signed

__all__ = ["ZONE_ACTIONS", "parse_effects"]

_DAMAGE = re.compile(r"^~ deals (\d+) damage to (.+)$")  # (X damage: not read)
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


def _sentence_text(sentence: str) -> str | None:
    """A sentence without its full stop, its first letter lower case (unless it is ``~``);
    None for an empty one."""
    s = sentence.strip().rstrip(".")
    if not s:
        return None
    return s[0].lower() + s[1:] if not s.startswith("~") else s


def _both(first: Effect | None, second: Effect | None) -> tuple[Effect, ...] | None:
    return (first, second) if first and second else None


def _effects_of_sentence(sentence: str) -> tuple[Effect, ...] | None:
    """The effect(s) of one sentence: one effect, or two joined by "and" (""~ deals 2 damage
    to target creature and 2 damage to you"", ""... and you gain 2 life"")."""
    one = _one_effect(sentence)
    if one is not None:
        return (one,)
    s = _sentence_text(sentence)
    if s is None:
        return None
    if m := _TWO_DAMAGES.match(s):
        return _both(_one_effect(f"~ deals {m.group(1)} damage to {m.group(2)}"),
                     _one_effect(f"~ deals {m.group(3)} damage to {m.group(4)}"))
    if m := _LOSES_AND.match(s):
        return _both(_one_effect(f"{m.group(1)} loses {m.group(2)} life"), _one_effect(m.group(3)))
    if m := _AND_YOU.match(s):
        return _both(_one_effect(m.group(1)), _one_effect(m.group(2)))
    return None


def _one_effect(sentence: str) -> Effect | None:
    """The effect of one sentence of one effect: the first template of :data:`_EFFECT_TEMPLATES`
    that matches it reads it (None: that template can't read it)."""
    s = _sentence_text(sentence)
    if s is None:
        return None
    s = _IT_DEALS.sub(r"~ \1 ", s)  # "it deals 1 damage" in a trigger: the source is the card itself
    for pattern, reader in _EFFECT_TEMPLATES:
        m = pattern.match(s)
        if m:
            return reader(m)
    return None


def _damage(m: re.Match[str]) -> Effect | None:
    amount, who = int(m.group(1)), m.group(2)
    if who == "each creature and each player":
        return Effect("damage", Affected("each", "creature and player"), amount=amount)
    affected = parse_affected(who)
    return Effect("damage", affected, amount=amount) if affected else None


def _pt(m: re.Match[str]) -> Effect | None:
    affected = parse_affected(m.group(1))
    keywords = _keyword_list(m.group(4)) if m.group(4) else ()
    if affected and keywords is not None:
        return Effect("pt", affected, power=_signed(m.group(2)), toughness=_signed(m.group(3)),
                      keywords=keywords, until_end_of_turn=True)
    return None


def _gains(m: re.Match[str]) -> Effect | None:
    affected, keywords = parse_affected(m.group(1)), _keyword_list(m.group(2))
    if affected and keywords:
        return Effect("gain_keywords", affected, keywords=keywords, until_end_of_turn=True)
    return None


def _counters(m: re.Match[str]) -> Effect | None:
    affected, amount = parse_affected(m.group(3)), _number(m.group(1))
    if affected and amount and m.group(2) in ("+1/+1", "-1/-1"):
        return Effect("counters", affected, amount=amount, counter=m.group(2))
    return None


def _divided(m: re.Match[str]) -> Effect | None:
    amount = int(m.group(1))
    count = {"one or two": 2, "one, two, or three": 3}.get(m.group(2), amount)
    affected = parse_affected("any target" if m.group(3) == "targets" else m.group(3))
    if affected is None or affected.scope != "target" or amount < 1 or count < 1:
        return None
    return Effect("damage", Affected("target", affected.kind, affected.filters, min(count, amount), True),
                  amount=amount, divided=True)


def _life_action(verb: str) -> str:
    return "gain_life" if verb.startswith("gain") else "lose_life"


def _life_per(m: re.Match[str]) -> Effect | None:
    per, affected, amount = _counted(m.group(4)), parse_affected(m.group(1)), _number(m.group(3))
    if per is None or affected is None or amount is None:
        return None
    return Effect(_life_action(m.group(2)), affected, amount=amount, per=per)


def _life_equal(m: re.Match[str]) -> Effect | None:
    of = {"~'s": "self", "its": "it", "that creature's": "that creature"}[m.group(3)]
    affected = parse_affected(m.group(1))
    return Effect(_life_action(m.group(2)), affected, equal_to=(m.group(4), of)) if affected else None


def _life(action: str) -> Callable[[re.Match[str]], Effect | None]:
    """The reader of "you gain 3 life" (``"gain_life"``) or "each opponent loses 2 life" (``"lose_life"``)."""
    def read(m: re.Match[str]) -> Effect | None:
        amount = _number(m.group(2))
        return Effect(action, parse_affected(m.group(1)) or Affected("you", "player"), amount=amount) \
            if amount is not None else None
    return read


def _draw(m: re.Match[str]) -> Effect | None:
    affected, amount = parse_affected(m.group(1) or "you"), _number(m.group(2))
    return Effect("draw", affected, amount=amount) if affected and amount is not None else None


def _tap(m: re.Match[str]) -> Effect | None:
    affected = parse_affected(m.group(2))
    return Effect(m.group(1), affected) if affected and affected.scope != "each" else None


def _a_permanent(phrase: str) -> Affected | None:
    """The object phrase ``phrase`` if it describes permanents (no player, no "any target")."""
    affected = parse_affected(phrase)
    return affected if affected and affected.kind not in _NOT_PERMANENTS else None


def _flicker(m: re.Match[str]) -> Effect | None:
    affected = _a_permanent(m.group(1))
    return Effect("flicker", affected, returns_under="you" if m.group(2) == "your" else None) if affected else None


def _to_permanents(action: str) -> Callable[[re.Match[str]], Effect | None]:
    """The reader of "<action> <permanents>" (exile, return to hand, destroy, regenerate)."""
    def read(m: re.Match[str]) -> Effect | None:
        affected = _a_permanent(m.group(1))
        return Effect(action, affected) if affected else None
    return read


def _tokens(m: re.Match[str]) -> Effect | None:
    count = _number(m.group(1))
    colors = tuple(_COLOR_WORDS[w] for w in re.findall(r"white|blue|black|red|green", m.group(4)))
    subtypes = tuple(m.group(5).split())
    keywords = _keyword_list(m.group(7)) if m.group(7) else ()
    if count is None or keywords is None:
        return None
    types = ("Artifact", "Creature") if m.group(6) else ("Creature",)
    token = TokenDef(f"{' '.join(subtypes)} Token", int(m.group(2)), int(m.group(3)), colors, types, subtypes, keywords)
    return Effect("create_tokens", Affected("you", "player"), amount=count, token=token)


#: The effect templates in the order they are tried: a pattern, and the reader of its match.
_EFFECT_TEMPLATES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Effect | None]], ...] = (
    (_DAMAGE, _damage), (_PT, _pt), (_GAINS, _gains), (_COUNTERS, _counters), (_DIVIDED, _divided),
    (_LIFE_PER, _life_per), (_LIFE_EQUAL, _life_equal), (_GAIN_LIFE, _life("gain_life")),
    (_LOSE_LIFE, _life("lose_life")), (_DRAW, _draw), (_TOKENS, _tokens), (_TAP, _tap), (_FLICKER, _flicker),
    (_EXILE, _to_permanents("exile")), (_BOUNCE, _to_permanents("return_to_hand")),
    (_DESTROY, _to_permanents("destroy")), (_REGENERATE, _to_permanents("regenerate")),
)


_IT = re.compile(r"\b[Ii]t\b")
_ITS_CONTROLLER = re.compile(r"^Its controller (gains|loses) (\d+|one|two|three|four|five) life\.$")


def parse_effects(text: str) -> tuple[Effect, ...] | None:
    """The effects of ``text`` (one or more sentences, the card's name written ``~``), in
    order, or None when a sentence is not a template the reader knows. "It can't be
    regenerated." / "They can't be regenerated." modifies the destroy before it (CR 701.15c)."""
    sentences = [s.strip() for s in re.split(r"(?<=\.)\s+", text.strip()) if s.strip()]
    effects: list[Effect] = []
    for sentence in sentences:
        if not _add_sentence(sentence, effects):
            return None
    return tuple(effects) if effects else None


def _add_sentence(sentence: str, effects: list[Effect]) -> bool:
    """Add the effects of ``sentence`` to ``effects`` (those of the sentences before it,
    which it may modify); False if the reader can't read it."""
    if sentence in ("It can't be regenerated.", "They can't be regenerated."):
        if not effects or effects[-1].action != "destroy":
            return False
        last = effects.pop()
        effects.append(Effect(last.action, last.affected, cant_be_regenerated=True))
        return True
    if m := _ITS_CONTROLLER.match(sentence):
        # "Destroy target land. Its controller loses 2 life.": the controller of the one
        # object the effect before it targeted (last known information, CR 608.2h)
        amount = _number(m.group(2))
        if not effects or not _one_target(effects[-1]) or amount is None:
            return False
        action = "gain_life" if m.group(1) == "gains" else "lose_life"
        effects.append(Effect(action, Affected("controller", "player"), amount=amount))
        return True
    if _IT.search(sentence) and any(e.affected.scope == "target" for e in effects):
        return False  # "Tap target creature. Put a counter on it.": "it" is the target, not the card
    found = _effects_of_sentence(sentence)
    if found is None:
        return False
    for effect in found:
        if effect.equal_to is not None and effect.equal_to[1] == "it":
            resolved = _its(effect, effect.equal_to[0], effects)
            if resolved is None:
                return False
            effect = resolved
        effects.append(effect)
    return True


def _one_target(effect: Effect) -> bool:
    """Whether ``effect`` targets exactly one permanent (not "up to one", not a player)."""
    affected = effect.affected
    return affected.scope == "target" and affected.count == 1 and not affected.up_to \
        and affected.kind not in _NOT_PERMANENTS


def _its(effect: Effect, characteristic: str, before: list[Effect]) -> Effect | None:
    """"life equal to its power" (``characteristic``: ``"power"``): "its" is the one object the
    effect before it targeted ("Destroy target creature. You gain life equal to its toughness.",
    as it last existed, CR 608.2h), or, with no targeting effect before it, the source itself
    (``"self"``)."""
    targeting = [e for e in before if e.affected.scope == "target"]
    if not targeting:
        return replace(effect, equal_to=(characteristic, "self"))
    if len(targeting) != 1 or not _one_target(targeting[-1]) or targeting[-1].divided:
        return None
    return replace(effect, equal_to=(characteristic, "target"))


def _spell_template(effects: tuple[Effect, ...]) -> str:
    action = effects[0].action
    if any(e.divided for e in effects):
        return "spell: divided damage"
    return {"destroy": "spell: destroy", "damage": "spell: damage", "pt": "spell: pt", "gain_keywords": "spell: pt",
            "counters": "spell: counters", "gain_life": "spell: life", "lose_life": "spell: life",
            "draw": "spell: draw", "create_tokens": "spell: tokens", "tap": "spell: tap",
            "untap": "spell: tap", "regenerate": "spell: regenerate", "exile": "spell: exile",
            "return_to_hand": "spell: return to hand", "flicker": "spell: flicker"}[action]
