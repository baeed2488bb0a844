"""The card database (``cards/data/oracle.jsonl``, see :mod:`cards`): :class:`CardDatabase`,
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
    """The card database (``cards/data/oracle.jsonl``): every card by name, a read-only
    mapping of name to :class:`Card`. Keys are card names; :meth:`lookup` also takes face
    names. A card's record is parsed when asked for, and its :class:`Card` kept.

    ``data``: JSON lines, one record each. When ``sorted_names`` (the package's file: its
    lines are sorted by name, ``str.lower``, with no blank line), nothing is indexed when it
    is made: a card's line is found by bisecting the bytes, reading a line's name only where
    the search probes (about 15 lines a look-up); the names of the faces that are no card's
    name are indexed from the lines that are not a normal card's alone, the first time a
    name is not found. Every name is indexed (one regular-expression scan finds each line's
    start and name) to iterate, count or list the face names, when a search meets two names
    that differ only in case, and at the first look-up of data not ``sorted_names``."""

    _SEPARATOR = b'", "layout": "'
    #: The head of each line (after its newline): a usual line's name (no quote, no escape)
    #: and whether its layout is normal; the groups are None for any other line. (Compiled
    #: when first used, by ``re``'s cache: importing ``cards`` need not compile it.)
    _HEAD = rb'\n(?:\{"name": "([^"\\\n]*)", "layout": "(normal")?)?'
    #: The newline before every line that is not a normal card's usual line (the lines that
    #: may name faces): the lines ``_HEAD``'s second group does not match.
    _OTHER = rb'\n(?!\{"name": "[^"\\\n]*", "layout": "normal")'
    _PREFIX = b'{"name": "'

    def __init__(self, data: bytes, sorted_names: bool = False):
        self._data = data
        self._sorted = sorted_names
        self._starts: dict[str, int] = {}  # a card's name -> where its line starts in _data (those found so far)
        self._faces: dict[str, str] = {}  # a face's name -> the card's name (when not a card's name)
        self._faces_indexed = False  # every line that may name faces was indexed
        self._indexed = False  # every line was indexed: _starts has every card
        self._cards: dict[str, dict[str, Card]] = {}

    def _index_all(self) -> dict[str, int]:
        """Every card's name -> its line's start (indexing every line the first time)."""
        if not self._indexed:
            starts = self._starts
            self._index(0)  # the first line (the others follow a newline)
            for head in re.finditer(self._HEAD, self._data):
                if head[2]:  # a normal card's usual line: its name is all it needs
                    starts[head[1].decode()] = head.start() + 1
                else:
                    self._index(head.start() + 1)
            self._indexed = self._faces_indexed = True
        return self._starts

    def _face_owners(self) -> dict[str, str]:
        """A face's name -> its card's name, for the faces that are no card's name."""
        if not self._faces_indexed:
            self._index(0)
            for other in re.finditer(self._OTHER, self._data):
                self._index(other.start() + 1)
            self._faces_indexed = True
        return self._faces

    def _start(self, name: str) -> int | None:
        """Where the line of the card named ``name`` starts in ``_data``, or None."""
        start = self._starts.get(name)
        if start is None and not self._indexed:
            if not self._sorted:
                return self._index_all().get(name)
            start = self._bisect(name)
            if start is not None:
                self._starts[name] = start
        return start

    def _bisect(self, name: str) -> int | None:
        """The start of the line of the card named ``name``, searched in the sorted lines;
        None when no line has that name."""
        data, key = self._data, name.lower()
        lo, hi = 0, len(data)  # the line, if any, starts in [lo, hi); lo and hi are line starts
        while lo < hi:
            middle = (lo + hi) // 2
            mid = data.find(b"\n", middle) + 1
            if not lo < mid < hi:  # no line starts in (middle, hi): the line holding middle
                mid = data.rfind(b"\n", 0, middle + 1) + 1
            found = self._name_at(mid)
            if found == name:
                return mid
            if found.lower() < key:
                lo = data.find(b"\n", mid) + 1 or len(data)
            elif found.lower() > key:
                hi = mid
            else:  # a name differing only in case: their order is not the file's to tell
                return self._index_all().get(name)
        return None

    def _name_at(self, start: int) -> str:
        """The name of the card whose line starts at ``start`` of ``_data``."""
        data = self._data
        end = data.find(self._SEPARATOR, start + 10) if data.startswith(self._PREFIX, start) else -1
        raw = data[start + 10:end]
        if end < 0 or b"\n" in raw:  # not the file's usual layout: parse the line
            return str(json.loads(self._line_at(start))["name"])
        return json.loads(b'"' + raw + b'"') if b"\\" in raw else raw.decode("utf-8")

    def _index(self, start: int) -> None:
        """Index the line starting at ``start`` of ``_data`` (not a normal card's usual line):
        its card's name and its faces' names."""
        line = self._line_at(start)
        if not line:
            return
        end = line.find(self._SEPARATOR, 10) if line.startswith(self._PREFIX) else -1
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
        start = self._start(name)
        if start is None:
            raise KeyError(name)
        return self._line_at(start)

    def __getitem__(self, name: str) -> Card:
        return self._of(name)[name]

    def __iter__(self) -> Iterator[str]:
        starts = self._index_all()  # in the file's order, whatever was looked up first
        return iter(sorted(starts, key=starts.__getitem__))

    def __len__(self) -> int:
        return len(self._index_all())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._start(name) is not None

    def record(self, name: str) -> dict[str, Any]:
        """The raw record of the card named ``name`` (a new dict). Raises KeyError."""
        record: dict[str, Any] = json.loads(self._line(name))
        return record

    def face_names(self) -> frozenset[str]:
        """The names of the faces of its multi-face cards that are not a card's name."""
        self._index_all()
        return frozenset(self._faces)

    def lookup(self, name: str) -> Card | None:
        """The card (or the face of a card) named ``name``, or None."""
        if self._start(name) is not None:
            return self[name]
        owner = self._face_owners().get(name)
        return self._of(owner)[name] if owner is not None else None

    def _of(self, name: str) -> dict[str, Card]:
        found = self._cards.get(name)
        if found is None:
            found = self._cards[name] = _cards_of(json.loads(self._line(name)))
        return found


def file_bytes() -> bytes:
    """The card database's file, ``cards/data/oracle.jsonl``: JSON lines sorted by name
    (``str.lower``), no blank line (``tests/test_card_database.py`` checks). It is kept
    uncompressed: reading its 10.8 MB takes about 6 ms, inflating the gzip file of the same
    lines took about 30 ms at every process's first look-up (a wheel compresses it anyway)."""
    return resources.files("cards").joinpath("data/oracle.jsonl").read_bytes()


@lru_cache(maxsize=1)
def database() -> CardDatabase:
    """Every card of the card database by name (:class:`CardDatabase`, read once, lazily)."""
    return CardDatabase(file_bytes(), sorted_names=True)
