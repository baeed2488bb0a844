"""Which permanents an effect's kind and filters match (``cards.model.Affected``), from their
characteristics: :func:`matches`, for a card model's targets and affected objects
(:func:`reference_engine.model_targets.object_matches`) and its anthems
(:meth:`reference_engine.layers.Layers.anthem_effects`). It reads characteristics the caller
computed, so the layers and the card models use it without importing each other.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from collections.abc import Callable

from .errors import Unsupported

if TYPE_CHECKING:
    from .objects import GameObject
    from .records import Characteristics

COLOR_LETTERS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def _has_subtype(ch, subtype: str) -> bool:
    """A subtype check; a changeling creature has every creature type (CR 702.73a)."""
    return subtype in ch.subtypes or ("changeling" in ch.keywords and ch.is_creature)


_PT_FILTER = re.compile(r"^(power|toughness) (\d+) or (less|greater)$")
_KINDS = {"creature": "Creature", "artifact": "Artifact", "enchantment": "Enchantment", "land": "Land"}


def matches(obj: GameObject, ch: Characteristics, kind: str, filters, controller: str, source_id: str | None) -> bool:
    """Whether permanent ``obj``, of characteristics ``ch``, is a ``kind`` with ``filters`` (cards.model)
    for an effect that ``controller`` controls from ``source_id``. Raises Unsupported for a filter
    not modelled."""
    union = [k.strip() for k in kind.replace(", or ", ", ").replace(" or ", ", ").split(", ")]
    if kind in _KINDS:
        if _KINDS[kind] not in ch.types:
            return False
    elif len(union) > 1 and all(k in _KINDS for k in union):  # "artifact or enchantment"
        if not any(_KINDS[k] in ch.types for k in union):
            return False
    elif kind not in ("permanent", "any", "creature or player", "creature and player"):
        return False
    elif kind != "permanent" and not ch.is_creature:
        if "Planeswalker" in ch.types:
            raise Unsupported("ability:planeswalker", f"{obj.id!r} is a planeswalker (damage to it is not modelled)")
        return False
    for f in filters:
        if not _filter(obj, ch, f, controller, source_id):
            return False
    return True


#: Filters that are one test of the object (its characteristics ``ch``) for an effect that
#: ``controller`` controls from ``source_id``: ``test(obj, ch, controller, source_id)``.
_FILTERS: dict[str, Callable[[GameObject, Characteristics, str, str | None], bool]] = {
    **{color: (lambda letter: lambda obj, ch, c, s: letter in ch.colors)(letter)  # noqa: B023 (bound by the outer lambda)
       for color, letter in COLOR_LETTERS.items()},
    **{f"non{color}": (lambda letter: lambda obj, ch, c, s: letter not in ch.colors)(letter)  # noqa: B023 (bound by the outer lambda)
       for color, letter in COLOR_LETTERS.items()},
    "artifact": lambda obj, ch, c, s: "Artifact" in ch.types,
    "nonartifact": lambda obj, ch, c, s: "Artifact" not in ch.types,
    "nonland": lambda obj, ch, c, s: "Land" not in ch.types,
    "nonlegendary": lambda obj, ch, c, s: "Legendary" not in ch.supertypes,
    "you control": lambda obj, ch, c, s: obj.controller == c,
    "opponent controls": lambda obj, ch, c, s: obj.controller != c,
    "other": lambda obj, ch, c, s: obj.id != s,
    "tapped": lambda obj, ch, c, s: obj.tapped,
    "untapped": lambda obj, ch, c, s: not obj.tapped,
    "flying": lambda obj, ch, c, s: "flying" in ch.keywords,
    "without flying": lambda obj, ch, c, s: "flying" not in ch.keywords,
    "attacking": lambda obj, ch, c, s: obj.combat == "attacking",
    "blocking": lambda obj, ch, c, s: obj.combat == "blocking",
    "attacking or blocking": lambda obj, ch, c, s: obj.combat in ("attacking", "blocking"),
}


def _filter(obj: GameObject, ch: Characteristics, f: str, controller: str, source_id: str | None) -> bool:
    test = _FILTERS.get(f)
    if test is not None:
        return test(obj, ch, controller, source_id)
    return _written_filter(ch, f)


def _written_filter(ch: Characteristics, f: str) -> bool:
    """A filter that names a subtype, a power or toughness bound or a union of kinds."""
    if f.startswith("non-"):
        return not _has_subtype(ch, f[4:])
    m = _PT_FILTER.match(f)
    if m:  # "power 2 or less" (CR 208: its power now)
        value = ch.power if m.group(1) == "power" else ch.toughness
        if value is None:
            return False
        return value <= int(m.group(2)) if m.group(3) == "less" else value >= int(m.group(2))
    if f[:1].isupper() and f.isalpha():  # a creature type: "Zombie"
        return _has_subtype(ch, f)
    union = [k.strip() for k in f.replace(", or ", ", ").replace(" or ", ", ").split(", ")]
    if len(union) > 1 and all(k in _KINDS for k in union):  # "target creature or enchantment" (kind permanent)
        return any(_KINDS[k] in ch.types for k in union)
    raise Unsupported("ability:filter", f"the filter {f!r} is not modelled")
