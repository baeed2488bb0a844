"""The card database (``cards/data/oracle.jsonl.gz``, see :mod:`cards`): :class:`CardDatabase`,
read lazily, and :func:`database`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

from .characteristics import Card, _cards_of, _face_names

__all__ = ["CardDatabase", "database"]


class CardDatabase(Mapping[str, Card]):
    """The card database (``cards/data/oracle.jsonl.gz``): every card by name, a read-only
    mapping of name to :class:`Card`. Only the names are indexed when it is first used
    (the file's lines start with the name: one regular-expression scan finds each line's
    start and name; only the other lines, e.g. multi-face cards', are parsed, for their faces'
    names); a card's record is parsed when asked for, and its :class:`Card` kept. Keys are
    card names; :meth:`lookup` also takes face names."""

    _SEPARATOR = b'", "layout": "'
    #: The head of each line (after its newline): a usual line's name (no quote, no escape)
    #: and whether its layout is normal; the groups are None for any other line. (Compiled
    #: when first used, by ``re``'s cache: importing ``cards`` need not compile it.)
    _HEAD = rb'\n(?:\{"name": "([^"\\\n]*)", "layout": "(normal")?)?'

    def __init__(self, data: bytes):
        self._data = b"\n" + data  # every line follows a newline
        self._starts: dict[str, int] = {}  # a card's name -> where its line starts in _data
        self._faces: dict[str, str] = {}  # a face's name -> the card's name (when not a card's name)
        self._cards: dict[str, dict[str, Card]] = {}
        starts = self._starts
        for head in re.finditer(self._HEAD, self._data):
            if head[2]:  # a normal card's usual line: its name is all it needs
                starts[head[1].decode()] = head.start() + 1
            else:
                self._index(head.start() + 1)

    def _index(self, start: int) -> None:
        """Index the line starting at ``start`` of ``_data`` (not a normal card's usual line):
        its card's name and its faces' names."""
        line = self._line_at(start)
        if not line:
            return
        end = line.find(self._SEPARATOR, 10) if line.startswith(b'{"name": "') else -1
        if end < 0:  # not the file's usual layout: parse the line
            name = json.loads(line)["name"]
        else:
            raw = line[10:end]
            name = json.loads(b'"' + raw + b'"') if b"\\" in raw else raw.decode("utf-8")
            if line.startswith(b'normal"', end + len(self._SEPARATOR)):
                self._starts[name] = start
                return
        self._starts[name] = start
        record = json.loads(line)
        for face in _face_names(record):
            self._faces.setdefault(face, name)

    def _line_at(self, start: int) -> bytes:
        end = self._data.find(b"\n", start)
        return self._data[start:end if end >= 0 else len(self._data)]

    def _line(self, name: str) -> bytes:
        """The line of the card named ``name``. Raises KeyError."""
        return self._line_at(self._starts[name])

    def __getitem__(self, name: str) -> Card:
        return self._of(name)[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._starts)

    def __len__(self) -> int:
        return len(self._starts)

    def __contains__(self, name: object) -> bool:
        return name in self._starts

    def record(self, name: str) -> dict[str, Any]:
        """The raw record of the card named ``name`` (a new dict). Raises KeyError."""
        record: dict[str, Any] = json.loads(self._line(name))
        return record

    def face_names(self) -> frozenset[str]:
        """The names of the faces of its multi-face cards that are not a card's name."""
        return frozenset(self._faces)

    def lookup(self, name: str) -> Card | None:
        """The card (or the face of a card) named ``name``, or None."""
        if name in self._starts:
            return self[name]
        owner = self._faces.get(name)
        return self._of(owner)[name] if owner is not None else None

    def _of(self, name: str) -> dict[str, Card]:
        found = self._cards.get(name)
        if found is None:
            found = self._cards[name] = _cards_of(json.loads(self._line(name)))
        return found


@lru_cache(maxsize=1)
def database() -> CardDatabase:
    """Every card of the card database by name (:class:`CardDatabase`, read once, lazily)."""
    data = resources.files("cards").joinpath("data/oracle.jsonl.gz").read_bytes()
    import gzip

    return CardDatabase(gzip.decompress(data))
