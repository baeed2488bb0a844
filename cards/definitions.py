"""Card definitions an engine gives for cards the database doesn't have (custom or playtest
cards): ``{"name", "mana_cost", "type_line", "power", "toughness", "oracle_text"}``.

:func:`define` turns each into a record of the database's shape (``type_line`` split into
``supertypes``, ``types`` and ``subtypes`` at the dash, CR 205.1; ``colors`` from the mana
cost's coloured symbols, CR 105.2, 202.2) and registers it in the overlay of
:mod:`cards` (the one ``--oracle`` files use, :func:`cards.add_records`), so :func:`cards.card` finds it for the rest
of the process, after the curated pool and before the database, and
:func:`cards.reader.model` reads its text like any other card's.
"""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Iterable
from harness.protocol import RulesfuzzError

__all__ = ["DefinitionError", "FIELDS", "SUPERTYPES", "record_of", "define"]

#: The fields of a definition; ``name`` and ``type_line`` are required.
FIELDS = ("name", "mana_cost", "type_line", "power", "toughness", "oracle_text")
#: Supertypes (CR 205.4a) and the playtest ones of Orb of Origin's rulings.
SUPERTYPES = frozenset({"Basic", "Legendary", "Ongoing", "Snow", "World", "Mono", "Continuous", "Poly"})
_SOURCE = "EngineInfo.card_definitions"


class DefinitionError(ValueError, RulesfuzzError):
    """A definition that can't be read; the text is one line naming the card and the field."""


def record_of(definition: Any) -> dict[str, Any]:
    """The database record of one definition. Raises :class:`DefinitionError`."""
    name = _checked_name(definition)
    type_line = (definition.get("type_line") or "").strip()
    supertypes, types, subtypes = _types_of(name, type_line)
    pt = _power_and_toughness(name, definition, "Creature" in types)
    mana_cost = definition.get("mana_cost") or ""
    colors = [c for c in "WUBRG" if re.search(r"\{[^}]*" + c + r"[^}]*\}", mana_cost)]
    return {"name": name, "layout": "normal", "mana_cost": mana_cost or None, "type_line": type_line,
            "supertypes": supertypes, "types": types, "subtypes": subtypes, "colors": colors,
            "power": pt["power"], "toughness": pt["toughness"], "keywords": [],
            "oracle_text": definition.get("oracle_text") or "", "source": _SOURCE}


def _checked_name(definition: Any) -> str:
    """The name of a definition that is an object of :data:`FIELDS` whose texts are strings."""
    if not isinstance(definition, dict):
        raise DefinitionError(f"a card definition must be an object {{{', '.join(FIELDS)}}}, "
                              f"got {type(definition).__name__}")
    name = definition.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DefinitionError("a card definition needs a non-empty 'name'")
    unknown = sorted(set(definition) - set(FIELDS))
    if unknown:
        raise DefinitionError(f"card definition {name!r}: unknown field {', '.join(map(repr, unknown))}; "
                              f"accepted: {', '.join(FIELDS)}")
    for key in ("mana_cost", "type_line", "oracle_text"):
        if definition.get(key) is not None and not isinstance(definition[key], str):
            raise DefinitionError(f"card definition {name!r}: {key}: expected a string")
    return name


def _types_of(name: str, type_line: str) -> tuple[list[str], list[str], list[str]]:
    """A type line's supertypes, card types and subtypes (CR 205.1)."""
    if not type_line:
        raise DefinitionError(f"card definition {name!r}: type_line: expected e.g. 'Creature — Bear'")
    left, _, right = _split_type_line(type_line)
    words = left.split()
    supertypes = [w for w in words if w in SUPERTYPES]
    types = [w for w in words if w not in SUPERTYPES]
    if not types:
        raise DefinitionError(f"card definition {name!r}: type_line {type_line!r} has no card type")
    return supertypes, types, right.split()


def _power_and_toughness(name: str, definition: dict[str, Any], creature: bool) -> dict[str, str | None]:
    """``{"power": ..., "toughness": ...}`` as strings (``"*"`` stays), None for a noncreature's missing one."""
    pt: dict[str, str | None] = {}
    for key in ("power", "toughness"):
        value = definition.get(key)
        if isinstance(value, bool) or (value is not None and not isinstance(value, (int, str))):
            raise DefinitionError(f"card definition {name!r}: {key}: expected a number or a string such as '*'")
        if creature and value is None:
            raise DefinitionError(f"card definition {name!r}: a creature needs {key}")
        pt[key] = None if value is None else str(value)
    return pt


def _split_type_line(type_line: str) -> tuple[str, str, str]:
    for dash in (" — ", " - ", "—"):
        if dash in type_line:
            left, right = type_line.split(dash, 1)
            return left.strip(), dash, right.strip()
    return type_line, "", ""


def define(definitions: Iterable[Any]) -> list[str]:
    """Register ``definitions`` (see the module docstring) for :func:`cards.card`; returns
    their names in order. Defining the same card again replaces it. Raises
    :class:`DefinitionError` (nothing is registered) for a definition that can't be read."""
    import cards

    from . import reader

    records = [record_of(d) for d in definitions or ()]
    names = [r["name"] for r in records]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise DefinitionError(f"card definition {duplicated[0]!r} given twice")
    if records:
        cards.add_records(records)
        reader.model.cache_clear()
    return names
