"""The JSON shapes of the card package's output, as ``TypedDict`` s for the type checker:
:meth:`cards.Card.to_json` (:class:`CardJSON`, ``rulesfuzz cards --json``) and
:meth:`cards.model.CardModel.to_json` (:class:`CardModelJSON`, ``rulesfuzz cards --json
NAME``), with the shapes inside it.

A model's abilities, effects and objects are written without the fields that say nothing
(None, empty, False, 0; an object's ``scope`` always stays), so their keys are optional
(``total=False``): ``ability.get("effects", [])``. Tuples are written as lists.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["CardJSON", "CardModelJSON", "SentenceJSON", "AbilityJSON", "EffectJSON", "AffectedJSON",
           "TokenJSON"]


class CardJSON(TypedDict):
    """A card's characteristics (CR 109.3; :class:`cards.Card`)."""

    name: str
    mana_cost: str
    mana_value: int
    supertypes: list[str]
    types: list[str]
    subtypes: list[str]
    colors: list[str]
    power: int | None
    toughness: int | None
    keywords: list[str]
    oracle_text: str
    published: bool


class AffectedJSON(TypedDict, total=False):
    """What an effect affects (:class:`cards.model.Affected`); ``scope`` is always there."""

    scope: str
    kind: str
    filters: list[str]
    count: int
    up_to: bool


class TokenJSON(TypedDict, total=False):
    """A token an effect defines (:class:`cards.model.TokenDef`)."""

    name: str
    power: int
    toughness: int
    colors: list[str]
    types: list[str]
    subtypes: list[str]
    keywords: list[str]


class EffectJSON(TypedDict, total=False):
    """One thing an ability does (:class:`cards.model.Effect`); ``equal_to`` is
    ``[characteristic, of]``."""

    action: str
    affected: AffectedJSON
    amount: int
    power: int
    toughness: int
    keywords: list[str]
    counter: str
    token: TokenJSON
    until_end_of_turn: bool
    cant_be_regenerated: bool
    returns_under: str
    per: AffectedJSON
    equal_to: list[str]
    divided: bool


class AbilityJSON(TypedDict, total=False):
    """One ability of a card (:class:`cards.model.Ability`)."""

    kind: str
    template: str
    text: str
    keyword: str
    parameter: str
    static: str
    affected: AffectedJSON
    power: int
    toughness: int
    keywords: list[str]
    trigger: str
    optional: bool
    cost: str
    tap: bool
    sacrifice_self: bool
    produces: list[str]
    effects: list[EffectJSON]
    restrictions: list[str]


class SentenceJSON(TypedDict):
    """A sentence of a card's text (its name written ``~``) and the template that read it (None: unread)."""

    text: str
    template: str | None


class CardModelJSON(TypedDict):
    """How a card's Oracle text was read (:class:`cards.model.CardModel`)."""

    name: str
    modelled: bool
    hand_written: bool
    templates: list[str]
    abilities: list[AbilityJSON]
    unread: list[str]
    sentences: list[SentenceJSON]
