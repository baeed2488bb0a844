"""Object phrases of Oracle text ("target nonartifact creature", "each creature without flying",
"creatures you control") as :class:`cards.model.Affected` (:func:`parse_affected`)."""

from __future__ import annotations

import re

from .model import Affected
from .wording import _ADJECTIVES, _CREATURE_TYPES, _IRREGULAR_PLURALS, _NOUNS, _TYPE_UNION, _number

__all__ = ["parse_affected"]


#: Object phrases read as they are (``Affected`` is frozen: one instance each).
_FIXED_PHRASES = {
    "any target": Affected("target", "any"), "~": Affected("self", "permanent"), "it": Affected("self", "permanent"),
    "enchanted creature": Affected("enchanted", "creature"), "equipped creature": Affected("equipped", "creature"),
    "you": Affected("you", "player"), "each player": Affected("each", "player"),
    "each opponent": Affected("each", "opponent"), "target player": Affected("target", "player"),
    "target opponent": Affected("target", "opponent"), "target player or planeswalker": Affected("target", "player"),
}


def parse_affected(phrase: str) -> Affected | None:
    """An object phrase such as ``"target nonartifact, nonblack creature"``, ``"each creature
    without flying"``, ``"any target"``, ``"creatures you control"`` as :class:`Affected`, or None."""
    p = phrase.strip()
    if p in _FIXED_PHRASES:
        return _FIXED_PHRASES[p]
    m = re.match(r"^(up to )?(?:(a|an|one|two|three|four|\d+) )?(target|each|all|another target) (.+)$", p)
    if m:
        up_to, count_word, scope_word, rest = m.groups()
        scope = "target" if "target" in scope_word else "each"
        count = _number(count_word) if count_word else 1
        if count is None:
            return None
        found = _object_description(rest)
        if found is None:
            return None
        kind, filters = found
        if scope_word == "another target":
            filters = ("other", *filters)
        return Affected(scope, kind, filters, count if scope == "target" else 1, bool(up_to))
    found = _object_description(p)  # "creatures you control" (an anthem's or a sweeper's group)
    if found and p.split()[-1] not in ("creature", "player", "permanent"):
        kind, filters = found
        return Affected("each", kind, filters)
    return None


_POWER_FILTER = re.compile(r"^(.+) with (power|toughness) (\d+) or (less|greater)$")
_SUBTYPE_CREATURES = re.compile(r"^((?:other )?)([A-Z][a-z]+(?:-[A-Z][a-z]+)?) creatures$")
_SUBTYPE_PLURAL = re.compile(r"^((?:other )?)([A-Z][a-z]+)$")


_SUFFIX_FILTERS = ((" you control", "you control"), (" an opponent controls", "opponent controls"),
                   (" your opponents control", "opponent controls"), (" with flying", "flying"),
                   (" without flying", "without flying"))
#: The nouns of :data:`_NOUNS`, longest first ("creature or player" before "player").
_NOUNS_LONGEST_FIRST = tuple(sorted(_NOUNS, key=len, reverse=True))


def _object_description(rest: str) -> tuple[str, tuple[str, ...]] | None:
    """The kind and filters of an object description without its scope ("nonblack creature
    you control", "artifact or enchantment", "other Zombies you control"), or None."""
    rest, filters = _filters_of(rest)
    if m := _TYPE_UNION.match(rest):
        return _type_union(m, filters)
    if (m := _SUBTYPE_CREATURES.match(rest)) and m.group(2) in _CREATURE_TYPES:  # "other Merfolk creatures"
        return "creature", (("other",) if m.group(1) else ()) + (m.group(2),) + tuple(filters)
    if (m := _SUBTYPE_PLURAL.match(rest)) and filters:  # "other Zombies you control" (today's templating)
        word = m.group(2)
        subtype = _IRREGULAR_PLURALS.get(word) or (word[:-1] if word.endswith("s") else None)
        if subtype is None or subtype not in _CREATURE_TYPES:
            return None
        return "creature", (("other",) if m.group(1) else ()) + (subtype,) + tuple(filters)
    return _noun_group(rest, filters)


def _filters_of(rest: str) -> tuple[str, list[str]]:
    """``rest`` without the filters written after and before its noun ("... you control",
    "... with power 2 or less", "attacking or blocking ..."), and those filters."""
    filters: list[str] = []
    for suffix, filt in _SUFFIX_FILTERS:
        if rest.endswith(suffix):
            rest = rest[: -len(suffix)]
            filters.append(filt)
            break
    if m := _POWER_FILTER.match(rest):  # "creature with power 2 or less"
        rest = m.group(1)
        filters.insert(0, f"{m.group(2)} {m.group(3)} or {m.group(4)}")
    if rest.startswith("attacking or blocking "):
        filters.insert(0, "attacking or blocking")
        rest = rest[len("attacking or blocking "):]
    return rest, filters


def _type_union(m: re.Match[str], filters: list[str]) -> tuple[str, tuple[str, ...]] | None:
    kinds = [k for k in m.groups() if k]
    if len(set(kinds)) != len(kinds) or any(f not in ("you control", "opponent controls") for f in filters):
        return None  # "artifact or creature with flying": the filter is the last type's only
    union = f"{kinds[0]} or {kinds[1]}" if len(kinds) == 2 else f"{kinds[0]}, {kinds[1]}, or {kinds[2]}"
    return "permanent", (union, *filters)  # a permanent of one of these types


def _noun_group(rest: str, filters: list[str]) -> tuple[str, tuple[str, ...]] | None:
    """"nonartifact, nonblack creature": a noun of :data:`_NOUNS` after adjectives."""
    for noun in _NOUNS_LONGEST_FIRST:
        if rest == noun or rest.endswith(" " + noun):
            adjectives = rest[: -len(noun)].strip()
            words = [w for w in re.split(r"[,\s]+", adjectives) if w and w != "and"] if adjectives else []
            if not all(_ADJECTIVES.match(w) for w in words):
                return None
            return _NOUNS[noun], tuple(words) + tuple(filters)
    return None


_NOT_PERMANENTS = ("player", "opponent", "any", "creature or player")


def _counted(rest: str) -> Affected | None:
    """What "for each <rest>" counts: permanents on the battlefield ("creature you control",
    "creature on the battlefield", "land an opponent controls"), as an ``each`` :class:`Affected`;
    None for anything else (cards in a hand, permanents destroyed this way, ...)."""
    anywhere = rest.endswith(" on the battlefield")
    if anywhere:
        rest = rest[: -len(" on the battlefield")]
    found = _object_description(rest)
    if found is None:
        return None
    kind, filters = found
    if kind in _NOT_PERMANENTS or not (anywhere or {"you control", "opponent controls"} & set(filters)):
        return None
    return Affected("each", kind, filters)
