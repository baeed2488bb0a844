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
from functools import lru_cache

import cards

UMBRA_ARMOR = "umbra armor"
#: "Auras attached to permanents you control have umbra armor." (Umbra Mystic, CR 613.1f).
_GRANTS_UMBRA_ARMOR = re.compile(r"^Auras attached to permanents you control have umbra armor\.", re.M)
#: "As long as another player controls enchanted creature, ... Otherwise, this Aura has umbra armor." (Dog Umbra).
_UMBRA_ARMOR_UNLESS_OPPONENT = re.compile(
    r"^As long as another player controls enchanted (?:creature|permanent), [^.]*\. Otherwise, this Aura has umbra "
    r"armor\.", re.M)


@lru_cache(maxsize=None)
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
