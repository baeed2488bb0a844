"""The capabilities an engine needs to play a card, read from its Oracle characteristics and text.

:func:`card_needs` is what :mod:`harness.generation.plan` asks of every card of a generator list
(``Plan.plays``, ``rulesfuzz plan``): a card whose needs the engine doesn't claim is left out,
with the capabilities it lacks.
"""

from __future__ import annotations

import re

import cards as card_data


def card_needs(card: card_data.Card) -> frozenset[str]:
    """The capabilities an engine needs to play ``card`` as its Oracle text reads.

    Derived from card data only: keywords (CR 702), supertypes (CR 205.4), {X} in the
    mana cost (CR 107.3) and the words of its rules text (triggered abilities "When",
    "Whenever"; "copy"; "token"; "counter"; "Regenerate"; "Destroy"; "damage";
    "base power and toughness"; "until end of turn"; "has all card names", "with the same
    name as" and a spell's or activated ability's "Search your library"); a playtest
    supertype (mono, continuous, poly) or an equip ability (CR 702.6) needs
    ``playtest_supertypes``.
    """
    text = card.oracle_text
    needs: set[str] = set()
    _characteristic_needs(card, text, needs)
    _text_needs(card, text, needs)
    return frozenset(needs)


def _characteristic_needs(card: card_data.Card, text: str, needs: set[str]) -> None:
    """card_needs' keywords (CR 702), supertypes (CR 205.4), {X} (CR 107.3) and triggers (CR 603)."""
    if "deathtouch" in card.keywords:
        needs.add("deathtouch")
    if "indestructible" in card.keywords:
        needs.add("indestructible")
    if "umbra armor" in text.lower():
        needs.add("umbra_armor")
    if "Legendary" in card.supertypes and not card.is_type("Planeswalker"):
        needs.add("legend_rule")
    if "Regenerate" in text:
        needs.add("regeneration")
    if card.x_in_cost:
        needs.add("x_costs")
    if re.search(r"(^|\n|\. )(When|Whenever)\b", text):
        needs.add("triggers")


def _text_needs(card: card_data.Card, text: str, needs: set[str]) -> None:
    """card_needs' words of the rules text: copies, tokens, counters, a spell's effect, layers,
    zones, names and searches, playtest supertypes."""
    if "copy of" in text:
        needs.add("copies")
    if re.search(r"\btokens?\b", text):
        needs.add("tokens")
    if "counter" in text:
        needs.add("counters")
    if card.is_type("Instant") or card.is_type("Sorcery"):
        if re.search(r"\bDestroy\b", text):
            needs.add("destroy")
        if re.search(r"deals \d+ damage", text):
            needs.add("damage")
        if "until end of turn" in text:
            needs.add("pt_until_end_of_turn")
    if "base power and toughness" in text:
        needs.add("layers")
    if re.search(r"\b[Ee]xile (?:target|all|each|up to|another|~|this)|\bto (?:its owner's|their owners') hands?\b", text):
        needs.add("zones")  # exile, return to hand, exile and return (CR 400.7)
    if "has all card names" in text or "with the same name as" in text or re.search(r"(^|: )Search your library", text):
        needs.add("library_search")  # names (CR 201.2) and searches by a spell or an activated ability
    if {"Mono", "Continuous", "Poly"} & set(card.supertypes) or re.search(r"(^|\n)Equip\b", text):
        needs.add("playtest_supertypes")  # Orb of Origin's rulings; Equipment comes with them
