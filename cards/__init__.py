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

**The card database.** Beyond the pool, ``cards/data/oracle.jsonl.gz`` is a broad Oracle
card database (18,294 cards up to Ravnica Allegiance, from Forge's card scripts; its
provenance, licence and older templating are in ``cards/data/ORACLE.md``): one JSON
record a line, the fields of the pool's records plus ``layout``, ``keywords`` and, for
multi-face cards, ``faces``. :func:`database` is every card of it by name, read lazily
(only the names are indexed at the first look-up; a record is parsed when it is asked
for). Files of the team's own newer data (MTGJSON's AtomicCards shape) add or override
cards: :func:`load_oracle_file` (``rulesfuzz run --oracle FILE``, ``oracle = ...`` in
``[tool.rulesfuzz]``, and the paths of the environment variable ``RULESFUZZ_ORACLE``,
separated by ``os.pathsep``, loaded at a process's first look-up).

**Which card a name is.** :func:`card` and :func:`lookup` look a name up in this order,
the first that has it wins: the curated pool (``cards.json``: later cards, playtest
cards and corrected texts, the project's own facts), the ``--oracle`` files (the last
loaded first: newer data than the database), the database. In each, a card's name
comes before a face's name. A face's name (the back face of a transforming card, one
half of a split card, a flip card's flipped face, a melded permanent) gives a
:class:`Card` of that face; the full ``"A // B"`` name of a transforming, flip or
modal card gives its front face's card (the characteristics it has outside the
battlefield and stack, CR 712.8a), that of a split card the whole card with both halves'
characteristics combined (CR 709.4). :func:`pool`, :func:`names`, :func:`records`,
:func:`card_names` and :func:`to_json` are the curated pool only.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["Card", "UnknownCardName", "OracleFileError", "KEYWORDS", "card", "card_names", "pool", "names",
           "mana_value", "to_json", "database", "CardDatabase", "lookup", "closest", "all_names", "ORACLE_ENV",
           "load_oracle_file", "read_oracle_file", "add_records", "overlay", "overlay_files", "clear_overlay"]

#: The environment variable naming ``--oracle`` files (``os.pathsep``-separated) a process
#: loads at its first look-up (:func:`load_oracle_file`).
ORACLE_ENV = "RULESFUZZ_ORACLE"

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
    """The name is not an Oracle name of a card (or of a card's face) of the pool, the
    ``--oracle`` files or the card database.

    ``name`` is the name asked for, ``known`` the sorted names of the pool. Its text names
    the closest known names (:func:`closest`, worked out when the text is first asked for).
    """

    def __init__(self, name: str, known: list[str]):
        super().__init__(name)
        self.name = name
        self.known = known
        self._closest: list[str] | None = None

    @property
    def closest(self) -> list[str]:
        """The (at most 3) known names closest to ``name``, closest first."""
        if self._closest is None:
            self._closest = closest(self.name) if isinstance(self.name, str) else []
        return self._closest

    def __str__(self) -> str:
        near = f"closest: {', '.join(self.closest)}" if self.closest else "no close name"
        return f"unknown card {self.name!r}: not an Oracle name of the card database ({near})"


class OracleFileError(ValueError):
    """An ``--oracle`` file that can't be used: missing, unreadable, not JSON, or not of
    MTGJSON's AtomicCards shape. ``path`` is the file; the text is one line, the file first."""

    def __init__(self, path, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


@lru_cache(maxsize=None)
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


class CardDatabase(Mapping):
    """The card database (``cards/data/oracle.jsonl.gz``): every card by name, a read-only
    mapping of name to :class:`Card`. Only the names are indexed when it is first used
    (the file's lines start with the name); a card's record is parsed when asked for, and
    its :class:`Card` kept. Keys are card names; :meth:`lookup` also takes face names."""

    _SEPARATOR = b'", "layout": "'

    def __init__(self, data: bytes):
        self._lines: dict[str, bytes] = {}
        self._faces: dict[str, str] = {}  # a face's name -> the card's name (when not a card's name)
        self._cards: dict[str, dict[str, Card]] = {}
        for line in data.split(b"\n"):
            if not line:
                continue
            end = line.find(self._SEPARATOR, 10) if line.startswith(b'{"name": "') else -1
            if end < 0:  # not the file's usual layout: parse the line
                name = json.loads(line)["name"]
            else:
                raw = line[10:end]
                name = json.loads(b'"' + raw + b'"') if b"\\" in raw else raw.decode("utf-8")
                if line.startswith(b'normal"', end + len(self._SEPARATOR)):
                    self._lines[name] = line
                    continue
            self._lines[name] = line
            record = json.loads(line)
            for face in _face_names(record):
                self._faces.setdefault(face, name)

    def __getitem__(self, name: str) -> Card:
        return self._of(name)[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    def __contains__(self, name) -> bool:
        return name in self._lines

    def record(self, name: str) -> dict[str, Any]:
        """The raw record of the card named ``name`` (a new dict). Raises KeyError."""
        return json.loads(self._lines[name])

    def face_names(self) -> frozenset[str]:
        """The names of the faces of its multi-face cards that are not a card's name."""
        return frozenset(self._faces)

    def lookup(self, name: str) -> Card | None:
        """The card (or the face of a card) named ``name``, or None."""
        if name in self._lines:
            return self[name]
        owner = self._faces.get(name)
        return self._of(owner)[name] if owner is not None else None

    def _of(self, name: str) -> dict[str, Card]:
        found = self._cards.get(name)
        if found is None:
            found = self._cards[name] = _cards_of(json.loads(self._lines[name]))
        return found


@lru_cache(maxsize=1)
def database() -> CardDatabase:
    """Every card of the card database by name (:class:`CardDatabase`, read once, lazily)."""
    data = resources.files("cards").joinpath("data/oracle.jsonl.gz").read_bytes()
    import gzip

    return CardDatabase(gzip.decompress(data))


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


@lru_cache(maxsize=1)
def _pool_faces() -> dict[str, Card]:
    """The faces of the pool's multi-face records (a record's optional ``faces``) by name."""
    found: dict[str, Card] = {}
    for record in records().values():
        if record.get("faces"):
            for name, face in _cards_of(record).items():
                if name not in records():
                    found.setdefault(name, face)
    return found


# The --oracle overlay: the files loaded (in order) and their cards by name, a face's name
# mapped to its card too; _overlay_faces holds those face names that are no card's name.
_overlay_paths: list[str] = []
_overlay: dict[str, Card] = {}
_overlay_faces: dict[str, Card] = {}
_environment_read = False


def _read_environment() -> None:
    global _environment_read
    if _environment_read:
        return
    _environment_read = True
    for path in filter(None, os.environ.get(ORACLE_ENV, "").split(os.pathsep)):
        if os.path.abspath(path) not in _overlay_paths:
            load_oracle_file(path)


def lookup(name: str) -> Card | None:
    """The card (or card face) named ``name``, or None: the curated pool first, then the
    ``--oracle`` files, then the card database (module docstring). Names are exact Oracle
    names (case matters)."""
    if not isinstance(name, str):
        return None
    found = pool().get(name) or _pool_faces().get(name)
    if found is not None:
        return found
    if not _environment_read:
        _read_environment()
    found = _overlay.get(name) or _overlay_faces.get(name)
    if found is not None:
        return found
    return database().lookup(name)


def card(name: str) -> Card:
    """The card (or card face) named ``name`` (:func:`lookup`).

    Raises:
        UnknownCardName: ``name`` is no Oracle name of the pool, the ``--oracle`` files or
            the card database; its text names the closest names.
    """
    found = lookup(name)
    if found is None:
        raise UnknownCardName(name, sorted(pool()))
    return found


@lru_cache(maxsize=1)
def creature_types() -> frozenset[str]:
    """The creature types of CR 205.3m (rules effective 2025-02-07), from ``data/creature_types.txt``.

    The card database's Oracle texts are of 2019: a creature subtype it has that isn't here was
    retired or renamed since (Hound became Dog, Viashino Lizard, ...), so an engine with today's
    Oracle data may have another type in its place."""
    text = resources.files("cards").joinpath("data/creature_types.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def all_names() -> frozenset[str]:
    """Every name :func:`card` knows: the names of the pool's, the ``--oracle`` files' and the
    database's cards and of their faces."""
    _read_environment()
    return frozenset().union(pool(), _pool_faces(), _overlay, _overlay_faces, database(),
                             database().face_names())


def closest(name: str, n: int = 3) -> list[str]:
    """The (at most ``n``) names of :func:`all_names` closest to ``name`` (``difflib``, case
    not counted), closest first; a name equal but for case comes first."""
    by_lower: dict[str, str] = {}
    for known in sorted(all_names()):
        by_lower.setdefault(known.lower(), known)
    wanted = name.lower()
    import difflib

    near = difflib.get_close_matches(wanted, by_lower, n=n, cutoff=0.6)
    if wanted in by_lower and wanted not in near[:1]:
        near = [wanted, *[m for m in near if m != wanted]][:n]
    return [by_lower[m] for m in near]


def read_oracle_file(path) -> dict[str, dict[str, Any]]:
    """The cards of an ``--oracle`` file as records of the database's shape, by name.

    The file is JSON of MTGJSON's AtomicCards shape, ``{"data": {"Card Name": [face, ...]}}``
    (or the bare ``{"Card Name": [face, ...]}`` mapping), each face an object with MTGJSON's
    fields ``name``, ``faceName``, ``side``, ``layout``, ``manaCost``, ``type``,
    ``supertypes``, ``types``, ``subtypes``, ``power``, ``toughness``, ``loyalty``,
    ``defense``, ``colors``, ``colorIndicator``, ``keywords``, ``text`` (others are ignored).

    Raises:
        OracleFileError: the file is missing or unreadable, not JSON, or not of that shape
            (the message names the card and field at fault).
    """
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        raise OracleFileError(path, "no such file") from None
    except IsADirectoryError:
        raise OracleFileError(path, "is a folder, not a file") from None
    except OSError as exc:
        raise OracleFileError(path, f"can't read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise OracleFileError(path, f"not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise OracleFileError(path, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if isinstance(data, dict) and isinstance(data.get("data"), dict):
        data = data["data"]
    if not isinstance(data, dict):
        raise OracleFileError(path, "expected an object {\"data\": {\"Card Name\": [faces]}} (MTGJSON AtomicCards) "
                                    "or {\"Card Name\": [faces]}")
    return {name: _atomic_record(path, name, entries) for name, entries in data.items()}


_STRING_FIELDS = ("name", "faceName", "side", "layout", "manaCost", "type", "power", "toughness", "loyalty",
                  "defense", "text")
_LIST_FIELDS = ("supertypes", "types", "subtypes", "colors", "colorIndicator", "keywords")


def _atomic_face(path, name: str, entry) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise OracleFileError(path, f"card {name!r}: expected a list of face objects, found {type(entry).__name__}")
    for key in _STRING_FIELDS:
        if entry.get(key) is not None and not isinstance(entry[key], (str, int)) or isinstance(entry.get(key), bool):
            raise OracleFileError(path, f"card {name!r}: {key}: expected a string, got {entry[key]!r}")
    for key in _LIST_FIELDS:
        value = entry.get(key)
        if value is not None and (not isinstance(value, list) or not all(isinstance(v, str) for v in value)):
            raise OracleFileError(path, f"card {name!r}: {key}: expected a list of strings, got {value!r}")
    text = entry.get("text")
    return {
        "name": entry.get("faceName") or name, "mana_cost": entry.get("manaCost") or None,
        "type_line": entry.get("type") or "", "supertypes": list(entry.get("supertypes") or ()),
        "types": list(entry.get("types") or ()), "subtypes": list(entry.get("subtypes") or ()),
        "power": _text_or_none(entry.get("power")), "toughness": _text_or_none(entry.get("toughness")),
        "loyalty": _text_or_none(entry.get("loyalty")), "defense": _text_or_none(entry.get("defense")),
        "colors": list(entry.get("colors") or ()), "color_indicator": entry.get("colorIndicator"),
        "keywords": list(entry.get("keywords") or ()), "oracle_text": text if text is not None else "",
    }


def _text_or_none(value) -> str | None:
    return None if value is None else str(value)


def _atomic_record(path, name, entries) -> dict[str, Any]:
    """One card of an AtomicCards file as a database record (``source``: the file)."""
    if not isinstance(name, str) or not name:
        raise OracleFileError(path, f"card name {name!r}: expected a non-empty string")
    if isinstance(entries, dict):
        entries = [entries]
    if not isinstance(entries, list) or not entries:
        raise OracleFileError(path, f"card {name!r}: expected a non-empty list of face objects")
    faces = [_atomic_face(path, name, entry) for entry in entries]
    layout = str(entries[0].get("layout") or "normal")
    multi = len(entries) > 1 or any(e.get("faceName") for e in entries)
    if multi:
        order = sorted(range(len(entries)), key=lambda i: (str(entries[i].get("side") or ""), i))
        faces = [faces[i] for i in order]
    if not multi:
        record = {**faces[0], "name": name}
    elif layout in _COMBINED_LAYOUTS:
        record = {
            "name": name, "mana_cost": " // ".join(f["mana_cost"] or "" for f in faces),
            "type_line": " // ".join(f["type_line"] for f in faces),
            "supertypes": _union(f["supertypes"] for f in faces), "types": _union(f["types"] for f in faces),
            "subtypes": _union(f["subtypes"] for f in faces), "power": None, "toughness": None,
            "loyalty": None, "defense": None, "colors": [c for c in "WUBRG" if any(c in f["colors"] for f in faces)],
            "color_indicator": None, "keywords": _union(f["keywords"] for f in faces),
            "oracle_text": "\n//\n".join(f["oracle_text"] for f in faces), "faces": faces,
        }
    else:
        record = {**faces[0], "name": name, "faces": faces}
    return {"name": name, "layout": layout, **{k: v for k, v in record.items() if k != "name"},
            "source": f"--oracle {path}"}


def _union(lists) -> list[str]:
    found: list[str] = []
    for items in lists:
        found += [i for i in items if i not in found]
    return found


def load_oracle_file(path) -> list[str]:
    """Add the cards of an ``--oracle`` file (:func:`read_oracle_file`) to the look-ups of
    this process: they override the database's cards of the same names (a file loaded
    later overrides one loaded before), the curated pool still wins. Returns the names of
    its cards, in the file's order.

    Raises:
        OracleFileError: a missing, unreadable or malformed file (nothing is loaded).
    """
    loaded = read_oracle_file(path)
    full = os.path.abspath(path)
    if full in _overlay_paths:
        _overlay_paths.remove(full)
    _overlay_paths.append(full)
    return add_records(loaded.values())


def add_records(records) -> list[str]:
    """Add records of the database's shape (``name``, ``layout``, ``mana_cost``, ``type_line``,
    ``supertypes``, ``types``, ``subtypes``, ``power``, ``toughness``, ``loyalty``, ``colors``,
    ``keywords``, ``oracle_text``, optional ``faces``, ``source``) to the overlay the
    ``--oracle`` files use: they override the database's cards (and earlier overlay
    records) of the same names; the curated pool still wins. Returns their names in order.
    Not passed to ``--workers`` processes (only :func:`overlay_files` are)."""
    names = []
    for record in records:
        name = record["name"]
        for face in _face_names(_overlay_record(name)):
            _overlay_faces.pop(face, None)
        _overlay_records[name] = record
        found = _cards_of(record)
        _overlay[name] = found.pop(name)
        _overlay_faces.update(found)
        names.append(name)
    return names


_overlay_records: dict[str, dict[str, Any]] = {}


def _overlay_record(name: str) -> dict[str, Any]:
    return _overlay_records.get(name) or {}


def overlay_files() -> tuple[str, ...]:
    """The ``--oracle`` files loaded in this process (absolute paths, in loading order)."""
    return tuple(_overlay_paths)


def overlay() -> dict[str, dict[str, Any]]:
    """The records of the cards of the ``--oracle`` files loaded, by name (a copy)."""
    return dict(_overlay_records)


def clear_overlay() -> None:
    """Forget every ``--oracle`` file loaded (for tests; :envvar:`RULESFUZZ_ORACLE` is not read again)."""
    global _environment_read
    _overlay_paths.clear()
    _overlay.clear()
    _overlay_faces.clear()
    _overlay_records.clear()
    _environment_read = True


def to_json() -> list[dict[str, Any]]:
    """Every card as plain JSON, sorted by name."""
    return [pool()[n].to_json() for n in sorted(pool())]
