"""The lines of Oracle text the card reader reads (:mod:`cards.reader`): keyword lines,
static abilities (bonuses, anthems, combat restrictions), triggered and activated abilities,
and a spell's effect (:func:`_line`)."""

from __future__ import annotations

import re

from . import Card
from .effects import ZONE_ACTIONS, _spell_template, parse_effects
from .model import Ability, Affected, Effect
from .objects import parse_affected
from .wording import (_CARRIED_N, _ENCHANT, _EQUIP, _LANDWALK, _PROTECTION, CARRIED_KEYWORDS, KEYWORDS,
                      _keyword_list, _signed)

__all__ = ["PLAYED_RESTRICTIONS"]


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


#: Static abilities read from one fixed line, by line.
_FIXED_STATICS = {
    # CR 101.2: only a spell on the stack is countered
    "~ can't be countered.": Ability("static", "stack restriction", "~ can't be countered.", static="can't be countered"),
    "~ enters tapped.": Ability("static", "enters tapped", "~ enters tapped.", static="enters tapped"),
    "~ can't block.": Ability("static", "can't block", "~ can't block.", static="can't block",
                              affected=Affected("self", "creature"), restrictions=("can't block",)),
    "~ can't be blocked.": Ability("static", "can't be blocked", "~ can't be blocked.", static="can't be blocked",
                                   affected=Affected("self", "creature"), restrictions=("can't be blocked",)),
}


def _static_line(line: str) -> Ability | None:
    if line in _FIXED_STATICS:
        return _FIXED_STATICS[line]
    if (found := _restriction(line)) is not None:
        return found
    if m := _BONUS.match(line):
        return _bonus(line, m)
    if m := _ANTHEM.match(line):
        return _anthem(line, m)
    return None


def _granted(with_keywords: str | None, only_keywords: str | None) -> tuple[str, ...] | None:
    """The keywords a bonus gives ("... and has flying", "... has flying"): () for none, None
    when they are not keywords the reader knows."""
    text = with_keywords or only_keywords
    return _keyword_list(text) if text else ()


def _bonus(line: str, m: re.Match[str]) -> Ability | None:
    """"Enchanted creature gets +2/+2 and has flying.", "Equipped creature has shroud." (CR 611.3a)."""
    which, p, t, with_kw, only_kw = m.groups()
    keywords = _granted(with_kw, only_kw)
    if keywords is None:
        return None
    scope = which.lower()
    return Ability("static", "aura bonus" if scope == "enchanted" else "equipment bonus", line, static="bonus",
                   affected=Affected(scope, "creature"), power=_signed(p) if p else 0,
                   toughness=_signed(t) if t else 0, keywords=keywords)


def _anthem(line: str, m: re.Match[str]) -> Ability | None:
    """"Creatures you control get +1/+1.", "Other Zombies you control have deathtouch."."""
    group, p, t, with_kw, only_kw = m.groups()
    keywords = _granted(with_kw, only_kw)
    if keywords is None:
        return None
    affected = parse_affected(group[0].lower() + group[1:]) if group != "All creatures" \
        else Affected("each", "creature")
    if affected is None or affected.scope != "each" or affected.kind != "creature" or "~" in group:
        return None
    return Ability("static", "anthem", line, static="bonus", affected=affected,
                   power=_signed(p) if p else 0, toughness=_signed(t) if t else 0, keywords=keywords)


_BEGINNING = re.compile(r"^At the beginning of your (upkeep|draw step), (.+)$")
_CREATURE_DIES = re.compile(r"^Whenever (a|another) (nontoken )?creature( you control| an opponent controls)? dies, (.+)$")
#: "it" / "its" in a creature dies trigger could be the creature that died or the card: not read.
_IT_OR_ITS = re.compile(r"\b[Ii]ts?\b")


def _trigger_event(line: str) -> tuple[str, str, Affected | None] | None:
    """The trigger event of a triggered ability's line, the rest of the line (its effect) and,
    for a creature dies trigger, the creatures it watches; None for no trigger the reader knows."""
    if m := _TRIGGER.match(line):
        return m.group(1), m.group(2), None
    if m := _BEGINNING.match(line):  # CR 503.1a, 504.2: "At the beginning of your upkeep / draw step"
        return ("upkeep" if m.group(1) == "upkeep" else "draw step"), m.group(2), None
    if m := _CREATURE_DIES.match(line):  # CR 603.2, 603.10a: "Whenever another creature you control dies"
        which, nontoken, whose, rest = m.groups()
        if _IT_OR_ITS.search(rest):
            return None
        filters = (("other",) if which == "another" else ()) + (("nontoken",) if nontoken else ()) + \
            ((whose.strip().replace("an opponent controls", "opponent controls"),) if whose else ())
        return "a creature dies", rest, Affected("each", "creature", filters)
    return None


def _trigger_line(line: str) -> Ability | None:
    found = _trigger_event(line)
    if found is None:
        return None
    event, rest, watched = found
    optional = rest.startswith("you may ")
    if optional:
        rest = rest[len("you may "):]
    effects = parse_effects(rest[0].upper() + rest[1:])
    if effects is None or not _trigger_reads(event, effects, watched):
        return None
    template = "combat trigger" if event in _COMBAT_TRIGGERS else \
        "creature dies trigger" if watched is not None else f"{event} trigger"
    return Ability("triggered", template, line, affected=watched, trigger=event, optional=optional, effects=effects)


def _trigger_reads(event: str, effects: tuple[Effect, ...], watched: Affected | None) -> bool:
    """Whether the reader reads a trigger on ``event`` with these effects."""
    if event in ("dies", "leaves the battlefield") and any(
            e.action in ZONE_ACTIONS and e.affected.scope == "self" for e in effects):
        return False  # "When ~ dies, return it to its owner's hand": the card in its new zone (CR 400.7e), not read
    if any(e.divided for e in effects):
        return False  # (a divided trigger: its division is chosen as it is put on the stack; not read)
    return watched is not None or not any(e.equal_to and e.equal_to[1] == "that creature" for e in effects)


def _activation_cost(cost_text: str) -> tuple[str, bool, bool] | None:
    """An activation cost ("{2}{G}, {T}, Sacrifice ~") as ``(mana, tap, sacrifice_self)``,
    or None for a cost the reader doesn't read."""
    parts = [p.strip() for p in cost_text.split(",") if p.strip()]
    tap = "{T}" in parts
    sacrifice = "Sacrifice ~" in parts
    mana_parts = [p for p in parts if p not in ("{T}", "Sacrifice ~")]
    if not all(re.fullmatch(r"(\{(?:\d+|[WUBRGC])\})+", p) for p in mana_parts) or (tap and parts.count("{T}") > 1):
        return None
    return "".join(mana_parts), tap, sacrifice


def _activated_line(line: str) -> Ability | None:
    m = _ACTIVATED.match(line)
    if not m:
        return None
    cost_text, effect_text = m.groups()
    found = _activation_cost(cost_text)
    if found is None:
        return None
    cost, tap, sacrifice = found
    if mana := _MANA.match(effect_text):
        return _mana_ability(line, mana.group(1), cost, tap, sacrifice)
    if effect_text in ("Regenerate ~.",):
        return Ability("activated", "regenerate", line, cost=cost, tap=tap, sacrifice_self=sacrifice,
                       effects=(Effect("regenerate", Affected("self", "permanent")),))
    effects = parse_effects(effect_text)
    if effects is None or any(e.action == "create_tokens" or e.divided or (e.equal_to and e.equal_to[1] == "that creature")
                              for e in effects):
        return None
    template = "regenerate" if all(e.action == "regenerate" for e in effects) else "activated"
    return Ability("activated", template, line, cost=cost, tap=tap, sacrifice_self=sacrifice, effects=effects)


def _mana_ability(line: str, produced: str, cost: str, tap: bool, sacrifice: bool) -> Ability | None:
    """A mana ability (CR 605.1a) "{T}: Add {G}." producing ``produced`` ("{G}", "{W} or {U}",
    "one mana of any color")."""
    if not tap or sacrifice or cost:
        # "{1}, {T}: Add {W}{U}.", "Sacrifice ~: Add {B}.": mana abilities (CR 605.1a) whose
        # other costs the reference engine's mana abilities don't pay yet; not read
        return None
    produces = ("any color",) if produced == "one mana of any color" else tuple(re.findall(r"[WUBRGC]", produced))
    if " or " not in produced and len(produces) > 1:
        produces = ("".join(produces),)  # {G}{G}: two mana at once
    return Ability("mana", "mana ability", line, cost=cost, tap=tap, sacrifice_self=sacrifice, produces=produces)


def _line(line: str, card: Card) -> tuple[Ability, ...] | None:
    if card.is_type("Instant") or card.is_type("Sorcery"):
        return _spell_line(line)
    keywords = _keyword_line(line)
    if keywords is not None:
        return keywords
    if m := _BONUS_AND_RESTRICTION.match(line):
        return _bonus_and_restriction(line, m)
    for reader in (_static_line, _trigger_line, _activated_line):
        found = reader(line)
        if found is not None:
            return (found,)
    return None


def _spell_line(line: str) -> tuple[Ability, ...] | None:
    """A line of an instant or a sorcery: its effect, carried keywords, or "can't be countered"."""
    effects = parse_effects(line)
    if effects is not None and not any(e.affected.scope == "self" or (e.equal_to and e.equal_to[1] in (
            "self", "that creature")) for e in effects):
        # (an instant's "it" is never the spell itself: "Regenerate it." is its target's)
        return (Ability("spell", _spell_template(effects), line, effects=effects),)
    keywords = _keyword_line(line)
    if keywords and all(a.template == "carried keyword" for a in keywords):
        return keywords  # convoke, delve, split second, ... (the cost or the stack only)
    if line == "~ can't be countered.":
        return (_FIXED_STATICS[line],)
    return None  # "Flash" on an instant is not a keyword of its own (CR 702.8)


def _bonus_and_restriction(line: str, m: re.Match[str]) -> tuple[Ability, ...]:
    """"Enchanted creature gets +2/+2 and attacks each combat if able.": a bonus and a restriction."""
    which, p, t, restriction = m.groups()
    scope = which.lower()
    return (Ability("static", "aura bonus" if scope == "enchanted" else "equipment bonus", line, static="bonus",
                    affected=Affected(scope, "creature"), power=_signed(p), toughness=_signed(t)),
            Ability("static", "combat restriction", line, static="combat restriction",
                    affected=Affected(scope, "creature"), restrictions=PLAYED_RESTRICTIONS.get(restriction, ())))
