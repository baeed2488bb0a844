"""What a run generates for one engine, decided once per run from its ``EngineInfo``.

A :class:`Plan` joins three things: the cards the engine plays (``EngineInfo.cards``,
None meaning the whole pool of :mod:`cards`), the capabilities it claims, and the
capability table ``harness.protocol.CAPABILITIES``. It says which cards each generator
list may use, which board features boards may have, which rules (events) the state
machine runs and which invariants are checked, and for everything left out, why.
``rulesfuzz plan --engine E`` prints it.

A card needs the capabilities its Oracle characteristics call for (:func:`card_needs`):
a legend needs ``legend_rule``, a deathtouch creature ``deathtouch``, a card whose text
says "umbra armor" ``umbra_armor``, a creature with {X} in its cost that enters with X
counters ``x_costs`` and ``counters``, and so on. Rules of the state machine name the
capabilities and the card list they need (``harness.rules.needs``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from hypothesis import strategies as st

import cards as card_data

from . import strategies as S
from .protocol import CAPABILITIES


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
    needs = set()
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
    if "has all card names" in text or "with the same name as" in text or re.search(r"(^|: )Search your library", text):
        needs.add("library_search")  # names (CR 201.2) and searches by a spell or an activated ability
    if {"Mono", "Continuous", "Poly"} & set(card.supertypes) or re.search(r"(^|\n)Equip\b", text):
        needs.add("playtest_supertypes")  # Orb of Origin's rulings; Equipment comes with them
    return frozenset(needs)


#: Board feature -> the capability that unlocks it, from the capability table.
FEATURES: dict[str, str] = {feature: cap.name for cap in CAPABILITIES.values() for feature in cap.board_features}


@dataclass(frozen=True)
class Plan:
    """Cards, board features, rules and invariants of a run for one engine.

    ``capabilities``: what the engine claims; ``declared_cards``: its ``EngineInfo.cards``
    (None: the whole pool). ``lists[name]`` are the cards of generator list ``name``
    (``strategies.CARD_LISTS``) the run may use; ``left_out_cards[name]`` says why a
    card of those lists is not used. ``features`` are the board features boards may
    have, ``left_out_features`` those they may not, with why.
    """

    capabilities: frozenset[str]
    declared_cards: frozenset[str] | None = None
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    left_out_cards: dict[str, str] = field(default_factory=dict)
    features: frozenset[str] = frozenset()
    left_out_features: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, capabilities, cards=None) -> "Plan":
        """The plan for an engine claiming ``capabilities`` and playing ``cards`` (None: every card)."""
        caps = frozenset(capabilities)
        declared = frozenset(cards) if cards is not None else None
        lists, left_out = {}, {}
        for name, members in S.CARD_LISTS.items():
            kept = []
            for card in members:
                why = cls._why_not(card, caps, declared)
                if why:
                    left_out[card] = why
                else:
                    kept.append(card)
            lists[name] = tuple(kept)
        features, left_features = set(), {}
        for feature, cap in FEATURES.items():
            if cap in caps:
                features.add(feature)
            else:
                left_features[feature] = f"needs capability {cap}"
        return cls(caps, declared, lists, left_out, frozenset(features), left_features)

    @staticmethod
    def _why_not(name: str, caps: frozenset[str], declared: frozenset[str] | None) -> str | None:
        if declared is not None and name not in declared:
            return "not in the engine's EngineInfo.cards"
        missing = sorted(card_needs(card_data.card(name)) - caps)
        return f"needs capability {', '.join(missing)}" if missing else None

    def plays(self, card: str) -> bool:
        """Whether ``card`` may be on this plan's boards: the engine declares it (or declares
        no list) and claims every capability it needs (:func:`card_needs`)."""
        return self._why_not(card, self.capabilities, self.declared_cards) is None

    def has(self, feature: str) -> bool:
        """Whether boards may have ``feature`` (a board feature of the capability table)."""
        return feature in self.features

    @cached_property
    def cards(self) -> frozenset[str]:
        """Every card some generator list of this plan uses."""
        return frozenset(c for members in self.lists.values() for c in members)

    def choice(self, name: str) -> st.SearchStrategy[str]:
        """A strategy drawing one card of list ``name`` (built once per plan)."""
        cache = self.__dict__.setdefault("_choices", {})
        if name not in cache:
            cache[name] = st.sampled_from(self.lists[name])
        return cache[name]


FULL = Plan.of(CAPABILITIES)
