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

**The card database.** Beyond the pool, ``cards/data/oracle.jsonl`` is a broad Oracle
card database (18,294 cards up to Ravnica Allegiance, from Forge's card scripts; its
provenance, licence and older templating are in ``cards/data/ORACLE.md``): one JSON
record a line, the fields of the pool's records plus ``layout``, ``keywords`` and, for
multi-face cards, ``faces``. :func:`database` is every card of it by name, read lazily
(a look-up bisects the sorted file for the card's line; a record is parsed when it is asked
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

**Where things are.** Every name above is imported from ``cards``; they live in its modules:
``cards.characteristics`` (:class:`Card`, :func:`mana_value`), ``cards.oracle_db`` (the card
database), ``cards.oracle_files`` (``--oracle`` files and the overlay they fill), this module
(the pool and the look-ups). The reader of Oracle text is ``cards.reader`` (with
``cards.abilities``, ``cards.effects``, ``cards.objects``, ``cards.wording``), its output
``cards.model``; ``cards.definitions`` reads an engine's card definitions, ``cards.stats``
counts what the reader models.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from .characteristics import KEYWORDS, Card, _cards_of, _from_record, mana_value
from .oracle_db import CardDatabase, database
from .oracle_files import (ORACLE_ENV, OracleFileError, _overlay, _overlay_faces, _read_environment, add_records,
                           clear_overlay, load_oracle_file, overlay, overlay_files, read_oracle_file)
from harness.protocol import RulesfuzzError

__all__ = ["Card", "UnknownCardName", "OracleFileError", "KEYWORDS", "card", "card_names", "pool", "names",
           "mana_value", "to_json", "database", "CardDatabase", "lookup", "closest", "all_names", "ORACLE_ENV",
           "load_oracle_file", "read_oracle_file", "add_records", "overlay", "overlay_files", "clear_overlay"]


class UnknownCardName(KeyError, RulesfuzzError):
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


def lookup(name: str) -> Card | None:
    """The card (or card face) named ``name``, or None: the curated pool first, then the
    ``--oracle`` files, then the card database (module docstring). Names are exact Oracle
    names (case matters)."""
    if not isinstance(name, str):
        return None
    found = pool().get(name) or _pool_faces().get(name)
    if found is not None:
        return found
    _read_environment()  # (once: it does nothing after the first call)
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


def to_json() -> list[dict[str, Any]]:
    """Every card as plain JSON, sorted by name."""
    return [pool()[n].to_json() for n in sorted(pool())]
