"""A card's Oracle characteristics (CR 109.3, 208): :class:`Card`, read from a record of the
pool, the card database or an ``--oracle`` file (:func:`_from_record`, :func:`_cards_of` for
each name a multi-face record gives), and :func:`mana_value` (CR 202.3). Imported by
:mod:`cards`, which is where users import them from."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

__all__ = ["KEYWORDS", "Card", "mana_value"]

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


@cache
def mana_value(mana_cost: str) -> int:
    """Mana value of a mana cost such as ``"{X}{G}{U}"`` outside the stack (CR 202.3, 107.3g: X = 0).

    A generic number counts its value; a hybrid symbol counts its largest part (``{2/W}``:
    2, ``{W/U}``: 1, CR 202.3f); a Phyrexian symbol 1 (CR 202.3g). A split card's cost
    ``"{1}{R} // {1}{U}"`` counts both halves (CR 709.4b).
    """
    total = 0
    for symbol in re.findall(r"\{([^}]*)\}", mana_cost or ""):
        if symbol.isdigit():
            total += int(symbol)
        elif "/" in symbol:
            total += max([int(p) for p in symbol.split("/") if p.isdigit()] or [1])
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

    Fields of database cards (defaults for the pool's): ``layout`` (``"normal"``,
    ``"split"``, ``"transform"``, ``"flip"``, ``"meld"``, or another of an ``--oracle``
    file), ``loyalty`` (a planeswalker's printed loyalty as an int, CR 306.5b; ``"X"`` is
    0; None otherwise), ``faces`` (the names of the faces of the multi-face card this is,
    or is a face of, front first; ``()`` for a one-face card). ``keywords`` of a database
    card are its record's keywords (``"Equip {2}"`` -> ``"equip {2}"``) together with those
    read from its text.
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
    layout: str = "normal"
    loyalty: int | None = None
    faces: tuple[str, ...] = ()

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


def _from_record(record: dict[str, Any], layout: str | None = None, faces: tuple[str, ...] = ()) -> Card:
    """The :class:`Card` of a record (of the pool, the database or an ``--oracle`` file), or
    of one face of a multi-face record (``layout`` and ``faces`` then come from the card)."""
    types = tuple(record.get("types") or ())
    text = record.get("oracle_text")
    creature = "Creature" in types
    keywords = _keywords(text or "") | {str(k).lower() for k in record.get("keywords") or ()}
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
        keywords=frozenset(keywords),
        published=text is not None,
        layout=layout or record.get("layout") or "normal",
        loyalty=_pt(record.get("loyalty")),
        faces=faces,
    )


#: Layouts whose full name ``"A // B"`` is one card with both halves' characteristics (CR
#: 709.4); for every other multi-face layout it is the front face's card.
_COMBINED_LAYOUTS = ("split", "aftermath")


def _cards_of(record: dict[str, Any]) -> dict[str, Card]:
    """The cards a record's names give: its name, then each face's name (module docstring)."""
    faces = [f for f in record.get("faces") or () if isinstance(f, dict) and f.get("name")]
    layout = record.get("layout") or "normal"
    if not faces or [f["name"] for f in faces] == [record["name"]]:  # one face: the card's (a meld card's front)
        return {record["name"]: _from_record(record, layout)}
    face_names = tuple(f["name"] for f in faces)
    found = {}
    for face in reversed(faces):  # a face named as the card (a meld card's front) is the card's face
        found[face["name"]] = _from_record(face, layout, face_names)
    if layout in _COMBINED_LAYOUTS or record["name"] in found:
        whole = found.get(record["name"]) or _from_record(record, layout, face_names)
    else:
        whole = found[face_names[0]]
    return {record["name"]: whole, **{n: c for n, c in found.items() if n != record["name"]}}


def _face_names(record: dict[str, Any]) -> list[str]:
    return [f["name"] for f in record.get("faces") or () if isinstance(f, dict) and f.get("name")
            and f["name"] != record.get("name")]
