"""A reader of Oracle text: a :class:`cards.Card` in, a :class:`cards.model.CardModel` out.

The reader knows a fixed set of templates (:data:`cards.model.TEMPLATES`) in both
templatings the card data has: today's ("enters", "mana value", "Umbra armor", "this
creature") and the 2018-2020 one of the Oracle database ("enters the battlefield",
"converted mana cost", "Totem armor", the card naming itself). Reminder text is ignored
(CR 207.2: it has no rules meaning). A line that no template reads is kept, whole, in
``CardModel.unread``: the card is then *unmodelled* and never generated.

Entry points: :func:`read` (one card), :func:`model` (by name), :func:`parse_effects`
(an effect sentence such as ``"~ deals 3 damage to any target."``).

Its parts: :mod:`cards.abilities` reads a line (keyword lines, static, triggered and
activated abilities, a spell's effect), :mod:`cards.effects` an effect sentence,
:mod:`cards.objects` an object phrase ("target nonblack creature"), and :mod:`cards.wording`
holds the words they know (keywords, numbers, nouns, creature types) and :func:`normalise`.
"""

from __future__ import annotations

from functools import cache

from . import Card
from .abilities import PLAYED_RESTRICTIONS, _line
from .effects import ZONE_ACTIONS, parse_effects
from .model import Ability, CardModel
from .objects import parse_affected
from .wording import CARRIED_KEYWORDS, KEYWORDS, normalise

__all__ = ["KEYWORDS", "CARRIED_KEYWORDS", "read", "model", "parse_effects", "normalise", "parse_affected",
           "PLAYED_RESTRICTIONS", "ZONE_ACTIONS"]

_BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


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


@cache
def model(name: str) -> CardModel:
    """The model of the card named ``name`` (:func:`cards.card`); raises
    :class:`cards.UnknownCardName` for a name no card data has. A card of the curated pool
    (``cards/data/cards.json``) is ``hand_written``: modelled, its rules the reference
    engine's own (its sentences are still read, for ``rulesfuzz cards NAME``)."""
    from dataclasses import replace

    from . import card, pool

    found = read(card(name))
    return replace(found, hand_written=True) if name in pool() else found
