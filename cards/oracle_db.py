"""The card database (``cards/data/oracle.jsonl.gz``, see :mod:`cards`): :class:`CardDatabase`,
read lazily, and :func:`database`."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

from .characteristics import Card, _cards_of, _face_names

__all__ = ["CardDatabase", "database"]


class CardDatabase(Mapping[str, Card]):
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

    def __contains__(self, name: object) -> bool:
        return name in self._lines

    def record(self, name: str) -> dict[str, Any]:
        """The raw record of the card named ``name`` (a new dict). Raises KeyError."""
        record: dict[str, Any] = json.loads(self._lines[name])
        return record

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
