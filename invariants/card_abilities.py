"""Abilities worked out from the card data and the board, not from the engine's own account.

An invariant must not believe an engine about the very thing it checks: whether an Aura
has umbra armor right now depends on its card's Oracle text and on who controls what
(Dog Umbra: "As long as another player controls enchanted creature, ... Otherwise, this
Aura has umbra armor."; Umbra Mystic: "Auras attached to permanents you control have umbra
armor."), not on the keyword list an engine reports. The functions here read the
Oracle text from the neutral card data (:mod:`cards`) and the board's objects (names,
zones, controllers, attachments), which are checked by other invariants.

An object whose name is not a card of the pool (a token whose characteristics the
effect that created it defined, e.g. "Thopter Token") has the keywords the engine
reports: there is no card to read.
"""

from __future__ import annotations

import re
from functools import lru_cache, cache

import cards

UMBRA_ARMOR = "umbra armor"
#: "Auras attached to permanents you control have umbra armor." (Umbra Mystic, CR 613.1f).
_GRANTS_UMBRA_ARMOR = re.compile(r"^Auras attached to permanents you control have umbra armor\.", re.M)
#: "As long as another player controls enchanted creature, ... Otherwise, this Aura has umbra armor." (Dog Umbra).
_UMBRA_ARMOR_UNLESS_OPPONENT = re.compile(
    r"^As long as another player controls enchanted (?:creature|permanent), [^.]*\. Otherwise, this Aura has umbra "
    r"armor\.", re.M)


@cache
def _card(name) -> cards.Card | None:
    try:
        return cards.card(name) if isinstance(name, str) else None
    except cards.UnknownCardName:
        return None


def printed_keywords(obj: dict) -> frozenset[str]:
    """The keyword abilities on the object's card (CR 702), from the card data by its name.

    A copy has the copied card's name (CR 707.2), so it has that card's keywords. For a
    name that is not a card of the pool, the keywords the observation lists.
    """
    card = _card(obj.get("name"))
    if card is None:
        return frozenset(obj.get("keywords") or ())
    return card.keywords


def has_keyword(obj: dict, keyword: str) -> bool:
    """Whether the object has ``keyword`` printed on its card (deathtouch, indestructible, ...).

    No Aura or effect in the card pool grants deathtouch or indestructible, so for those
    the card is the whole answer.
    """
    return keyword in printed_keywords(obj)


def grants_umbra_armor(obj: dict) -> bool:
    """Whether the object's card says "Auras attached to permanents you control have umbra armor"."""
    card = _card(obj.get("name"))
    return card is not None and bool(_GRANTS_UMBRA_ARMOR.search(card.oracle_text))


def has_umbra_armor(obs: dict, aura_id: str) -> bool:
    """Whether the Aura ``aura_id`` on the battlefield has umbra armor now (CR 702.89a).

    Printed on its card; or Dog Umbra's "Otherwise, this Aura has umbra armor" while its
    controller controls the enchanted creature; or granted by a permanent on the
    battlefield whose card grants it to Auras attached to permanents its controller
    controls, counting the enchanted permanent's controller, not the Aura's (Umbra Mystic
    ruling 2010-06-15).
    """
    objects = obs["objects"]
    aura = objects.get(aura_id)
    if aura is None or aura.get("zone") != "battlefield":
        return False
    card = _card(aura.get("name"))
    if card is None:
        return UMBRA_ARMOR in (aura.get("keywords") or ())
    if UMBRA_ARMOR in card.keywords:
        return True
    if "Aura" not in card.subtypes:  # Umbra Mystic and Dog Umbra speak of Auras; an Equipment is not one
        return False
    host = objects.get(aura.get("attached_to")) if isinstance(aura.get("attached_to"), str) else None
    if host is None or host.get("zone") != "battlefield":
        return False
    if _UMBRA_ARMOR_UNLESS_OPPONENT.search(card.oracle_text) and aura.get("controller") == host.get("controller"):
        return True
    return any(o.get("zone") == "battlefield" and o.get("controller") == host.get("controller")
               and grants_umbra_armor(o) for o in objects.values())


def card_text(name) -> str:
    """The Oracle text of the card named ``name``, or "" for a name that is not a card of the pool."""
    card = _card(name)
    return card.oracle_text if card is not None else ""


# --------------------------------------------------------------------------- what spells and permanents do
# Read from the Oracle text of the pool (:mod:`cards`), so no card fact is written here by name.

_DESTROY_TARGET_CREATURE = re.compile(r"^Destroy target (?:(non\w+) )?creature\b")
_DAMAGE_ANY_TARGET = re.compile(r"\bdeals (\d+) damage to any target\b")
_ENTERS_WITH_X_COUNTERS = re.compile(r"\benters(?: the battlefield)? with X \+1/\+1 counters\b")
_SETS_BASE_PT = re.compile(r"^Enchanted creature has base power and toughness \d+/\d+", re.M)
_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def _spells() -> dict[str, cards.Card]:
    return {name: card for name, card in cards.pool().items() if card.is_type("Instant") or card.is_type("Sorcery")}


@lru_cache(maxsize=1)
def destroy_spells() -> dict[str, str | None]:
    """Instants and sorceries of the pool whose text begins "Destroy target creature" (CR 701.7a):
    name -> the colour (W, U, B, R, G) a "Destroy target non<colour> creature" can't target, or None."""
    found = {}
    for name, card in _spells().items():
        match = _DESTROY_TARGET_CREATURE.match(card.oracle_text)
        if match:
            found[name] = _COLOR_WORDS.get((match.group(1) or "")[3:]) if match.group(1) else None
    return found


@lru_cache(maxsize=1)
def damage_spells() -> dict[str, int]:
    """Instants and sorceries of the pool that deal N damage to any target (CR 120.3): name -> N."""
    return {name: int(match.group(1)) for name, card in _spells().items()
            if (match := _DAMAGE_ANY_TARGET.search(card.oracle_text))}


@lru_cache(maxsize=1)
def x_counter_cards() -> frozenset[str]:
    """Cards with {X} in their cost that enter with X +1/+1 counters (CR 107.3m)."""
    return frozenset(name for name, card in cards.pool().items()
                     if card.x_in_cost and _ENTERS_WITH_X_COUNTERS.search(card.oracle_text))


@lru_cache(maxsize=1)
def enters_trigger_cards() -> frozenset[str]:
    """Cards with a triggered ability "When <this> enters" (CR 603.6a)."""
    return frozenset(name for name, card in cards.pool().items()
                     if re.search(rf"(?:^|\n)When (?:{re.escape(name)}|this creature) enters\b", card.oracle_text))


@lru_cache(maxsize=1)
def setting_auras() -> frozenset[str]:
    """Auras whose static ability sets the enchanted creature's base power and toughness (layer 7b, CR 613.4b)."""
    return frozenset(name for name, card in cards.pool().items()
                     if "Aura" in card.subtypes and _SETS_BASE_PT.search(card.oracle_text))
