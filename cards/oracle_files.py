"""``--oracle`` files (MTGJSON's AtomicCards shape, see :mod:`cards`): :func:`read_oracle_file`
reads one as records of the database's shape; :func:`load_oracle_file` and :func:`add_records`
add cards to the overlay :func:`cards.lookup` reads after the curated pool and before the
database (also :func:`overlay`, :func:`overlay_files`, :func:`clear_overlay`, and the files
of the environment variable :data:`ORACLE_ENV`)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from .characteristics import _COMBINED_LAYOUTS, Card, _cards_of, _face_names
from harness.protocol import RulesfuzzError

__all__ = ["ORACLE_ENV", "OracleFileError", "read_oracle_file", "load_oracle_file", "add_records", "overlay",
           "overlay_files", "clear_overlay"]

#: A file's path, as ``open`` takes it.
OraclePath = str | os.PathLike[str]

#: The environment variable naming ``--oracle`` files (``os.pathsep``-separated) a process
#: loads at its first look-up (:func:`load_oracle_file`).
ORACLE_ENV = "RULESFUZZ_ORACLE"


class OracleFileError(ValueError, RulesfuzzError):
    """An ``--oracle`` file that can't be used: missing, unreadable, not JSON, or not of
    MTGJSON's AtomicCards shape. ``path`` is the file; the text is one line, the file first."""

    def __init__(self, path: OraclePath, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


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


def read_oracle_file(path: OraclePath) -> dict[str, dict[str, Any]]:
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


def _atomic_face(path: OraclePath, name: str, entry: object) -> dict[str, Any]:
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


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def _atomic_record(path: OraclePath, name: object, entries: object) -> dict[str, Any]:
    """One card of an AtomicCards file as a database record (``source``: the file)."""
    if not isinstance(name, str) or not name:
        raise OracleFileError(path, f"card name {name!r}: expected a non-empty string")
    if isinstance(entries, dict):
        entries = [entries]
    if not isinstance(entries, list) or not entries:
        raise OracleFileError(path, f"card {name!r}: expected a non-empty list of face objects")
    faces = [_atomic_face(path, name, entry) for entry in entries]
    layout = str(entries[0].get("layout") or "normal")
    if len(entries) > 1 or any(e.get("faceName") for e in entries):  # a multi-face card: its faces by side
        order = sorted(range(len(entries)), key=lambda i: (str(entries[i].get("side") or ""), i))
        faces = [faces[i] for i in order]
        record = _combined(name, faces) if layout in _COMBINED_LAYOUTS else {**faces[0], "name": name, "faces": faces}
    else:
        record = {**faces[0], "name": name}
    return {"name": name, "layout": layout, **{k: v for k, v in record.items() if k != "name"},
            "source": f"--oracle {path}"}


def _combined(name: str, faces: list[dict[str, Any]]) -> dict[str, Any]:
    """The record of a split card: both halves' characteristics combined (CR 709.4)."""
    return {
        "name": name, "mana_cost": " // ".join(f["mana_cost"] or "" for f in faces),
        "type_line": " // ".join(f["type_line"] for f in faces),
        "supertypes": _union(f["supertypes"] for f in faces), "types": _union(f["types"] for f in faces),
        "subtypes": _union(f["subtypes"] for f in faces), "power": None, "toughness": None,
        "loyalty": None, "defense": None, "colors": [c for c in "WUBRG" if any(c in f["colors"] for f in faces)],
        "color_indicator": None, "keywords": _union(f["keywords"] for f in faces),
        "oracle_text": "\n//\n".join(f["oracle_text"] for f in faces), "faces": faces,
    }


def _union(lists: Iterable[list[str]]) -> list[str]:
    found: list[str] = []
    for items in lists:
        found += [i for i in items if i not in found]
    return found


def load_oracle_file(path: OraclePath) -> list[str]:
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


def add_records(records: Iterable[dict[str, Any]]) -> list[str]:
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
