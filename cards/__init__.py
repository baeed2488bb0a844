"""Neutral card data: the Oracle characteristics of every card in rulesfuzz's pool.

One place for card facts (CR 109.3, 208): the reference engine, the harness's strategies
and the invariants all read them from here, so no card fact is written twice. This
package imports nothing from ``reference_engine``, ``harness`` or ``invariants``.

The data is ``cards/data/cards.json``, the project's copy of its reference Oracle data:
a list of records with ``name``, ``mana_cost``, ``type_line``, ``supertypes``,
``types``, ``subtypes``, ``colors``, ``power``, ``toughness``, ``oracle_text``, optional
``faces`` (the faces of a double-faced card, each with its ``name``), and
where the card came from (``source``, ``notes``). A record whose Oracle text is not
published (``"oracle_text": null``, e.g. a playtest card known only from its rulings)
is still a card of the pool; what an engine models of it is the engine's business.

Entry points: :func:`card` (one :class:`Card` by Oracle name), :func:`pool` (every
card), :func:`names`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["Card", "UnknownCardName", "KEYWORDS", "card", "card_names", "pool", "names", "mana_value", "to_json"]

#: Keyword abilities (CR 702) recognised on a keyword line of Oracle text. A line counts
#: as a keyword line when every comma-separated part, reminder text removed, is one of
#: these (or "protection from ...", "enchant ...", "flashback ...", "...walk").
KEYWORDS = frozenset(
    {
        "deathtouch",  # 702.2
        "first strike",  # 702.7
        "flash",  # 702.8
        "flying",  # 702.9
        "indestructible",  # 702.12
        "vigilance",  # 702.20
        "trample",  # 702.19
        "reach",  # 702.17
        "lifelink",  # 702.15
        "changeling",  # 702.73
        "umbra armor",  # 702.89
        "unearth",  # 702.84
    }
)
_PARAMETRISED = re.compile(r"^(protection from .+|enchant .+|flashback .+|\w+walk|unearth .+)$")
_REMINDER = re.compile(r"\s*\([^)]*\)")


class UnknownCardName(KeyError):
    """The name is not an Oracle name of a card in the pool.

    ``name`` is the name asked for, ``known`` the sorted names of the pool.
    """

    def __init__(self, name: str, known: list[str]):
        super().__init__(name)
        self.name = name
        self.known = known

    def __str__(self) -> str:
        return f"unknown card {self.name!r}: not an Oracle name in the card pool ({len(self.known)} cards)"


@lru_cache(maxsize=None)
def mana_value(mana_cost: str) -> int:
    """Mana value of a mana cost such as ``"{X}{G}{U}"`` outside the stack (CR 202.3, 107.3g: X = 0).

    A hybrid symbol counts 1; a generic number counts its value.
    """
    total = 0
    for symbol in re.findall(r"\{([^}]*)\}", mana_cost or ""):
        if symbol.isdigit():
            total += int(symbol)
        elif symbol not in ("X", "Y", "Z"):
            total += 1
    return total


def _pt(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int):
        return value
    if re.fullmatch(r"-?\d+", str(value)):
        return int(value)
    return 0  # '*': only a characteristic-defining ability sets it (CR 604.3)


def _keywords(oracle_text: str) -> frozenset[str]:
    found: set[str] = set()
    for line in oracle_text.splitlines():
        parts = [p.strip().lower() for p in _REMINDER.sub("", line).split(",")]
        if parts and all(p in KEYWORDS or _PARAMETRISED.match(p) for p in parts if p) and any(parts):
            found.update(p for p in parts if p)
    return frozenset(found)


@dataclass(frozen=True, slots=True)
class Card:
    """The Oracle characteristics of a card (CR 109.3, 208), as printed.

    ``power`` and ``toughness`` are ints, or None for a card that is not a creature
    (CR 208.3); ``colors`` are the one-letter colours (CR 105.2). ``keywords`` are the
    keyword abilities on keyword lines of the Oracle text, lower case (CR 702), e.g.
    ``"deathtouch"``, ``"umbra armor"``, ``"enchant creature"``. A token's definition
    (CR 111.3) is a :class:`Card` too. ``published`` is False for a card known only
    from its rulings (no Oracle text in the data).
    """

    name: str
    mana_cost: str
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...]
    power: int | None
    toughness: int | None
    oracle_text: str
    keywords: frozenset[str] = field(default=frozenset())
    published: bool = True

    @property
    def x_in_cost(self) -> int:
        """How many {X} symbols its mana cost has (CR 107.3)."""
        return self.mana_cost.count("{X}")

    @property
    def mana_value(self) -> int:
        """Its mana value not on the stack (CR 202.3, 107.3g)."""
        return mana_value(self.mana_cost)

    @property
    def has_all_card_names(self) -> bool:
        """Whether its rules text gives it every card name, in every zone and outside the game
        (Omnipresent Impostor's characteristic-defining ability, its rulings 2024-11-08;
        CR 604.3): see :func:`card_names`."""
        return "has all card names" in self.oracle_text

    def is_type(self, card_type: str) -> bool:
        """True if ``card_type`` (e.g. ``"Creature"``) is one of its card types (CR 205.2a)."""
        return card_type in self.types

    def to_json(self) -> dict[str, Any]:
        """Its characteristics as plain JSON (the shape of ``rulesfuzz cards --json``)."""
        return {
            "name": self.name, "mana_cost": self.mana_cost, "mana_value": self.mana_value,
            "supertypes": list(self.supertypes), "types": list(self.types), "subtypes": list(self.subtypes),
            "colors": list(self.colors), "power": self.power, "toughness": self.toughness,
            "keywords": sorted(self.keywords), "oracle_text": self.oracle_text, "published": self.published,
        }


def _from_record(record: dict[str, Any]) -> Card:
    types = tuple(record.get("types") or ())
    text = record.get("oracle_text")
    creature = "Creature" in types
    return Card(
        name=record["name"],
        mana_cost=record.get("mana_cost") or "",
        supertypes=tuple(record.get("supertypes") or ()),
        types=types,
        subtypes=tuple(record.get("subtypes") or ()),
        colors=tuple(record.get("colors") or ()),
        power=_pt(record.get("power")) if creature else None,
        toughness=_pt(record.get("toughness")) if creature else None,
        oracle_text=text or "",
        keywords=_keywords(text or ""),
        published=text is not None,
    )


@lru_cache(maxsize=1)
def records() -> dict[str, dict[str, Any]]:
    """The raw Oracle records shipped with the package, keyed by name (with provenance)."""
    text = resources.files("cards").joinpath("data/cards.json").read_text(encoding="utf-8")
    return {record["name"]: record for record in json.loads(text)}


@lru_cache(maxsize=1)
def pool() -> dict[str, Card]:
    """Every card of the pool by Oracle name, in the data's order."""
    return {name: _from_record(record) for name, record in records().items()}


def names() -> frozenset[str]:
    """The Oracle names of every card in the pool."""
    return frozenset(pool())


@lru_cache(maxsize=1)
def card_names() -> frozenset[str]:
    """Every card name of the pool: each card's name and the name of each of its faces
    (a record's optional ``faces``, e.g. the back face of a double-faced card), never the
    name of a token an effect defines (Soldier Token, Treasure Token, Mask: a token is not
    a card, CR 111.1). These are the names an object with all card names has (Omnipresent
    Impostor's rulings 2024-11-08: "the names of all cards, including the back faces of
    double-faced cards ... not the names of tokens")."""
    found = set(records())
    for record in records().values():
        found.update(face["name"] for face in record.get("faces") or () if face.get("name"))
    return frozenset(found)


def card(name: str) -> Card:
    """The card named ``name``.

    Raises:
        UnknownCardName: ``name`` is not an Oracle name of the pool.
    """
    try:
        return pool()[name]
    except KeyError:
        raise UnknownCardName(name, sorted(pool())) from None


def to_json() -> list[dict[str, Any]]:
    """Every card as plain JSON, sorted by name."""
    return [pool()[n].to_json() for n in sorted(pool())]
