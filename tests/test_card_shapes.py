"""The JSON of a card model has the shape cards.shapes declares (the TypedDicts the harness
type-checks against): every key a declared one, every required key there, nested shapes too."""

from __future__ import annotations

from itertools import islice
from typing import Any

import cards
from cards import reader, shapes

_NESTED = {"abilities": shapes.AbilityJSON, "sentences": shapes.SentenceJSON, "effects": shapes.EffectJSON,
           "affected": shapes.AffectedJSON, "per": shapes.AffectedJSON, "token": shapes.TokenJSON}


def _check(value: dict[str, Any], shape: Any, where: str) -> None:
    keys = set(value)
    declared = shape.__required_keys__ | shape.__optional_keys__
    assert keys <= declared, f"{where}: undeclared {sorted(keys - declared)}"
    assert shape.__required_keys__ <= keys, f"{where}: missing {sorted(shape.__required_keys__ - keys)}"
    for key, inner in value.items():
        if key in _NESTED and key in declared:
            for i, item in enumerate(inner if isinstance(inner, list) else [inner]):
                _check(item, _NESTED[key], f"{where}.{key}[{i}]")


def test_model_json_of_many_cards_has_the_declared_shape():
    names = [*islice(cards.database(), 0, None, 6), *cards.pool()]
    templates = set()
    for name in names:
        found = reader.model(name).to_json()
        _check(found, shapes.CardModelJSON, name)
        templates.update(found["templates"])
    assert {"keyword", "spell: damage", "anthem", "activated", "mana ability", "spell: tokens"} <= templates


def test_card_json_has_the_declared_shape():
    for name in [*cards.pool(), "Grizzly Bears", "Lightning Bolt"]:
        _check(cards.card(name).to_json(), shapes.CardJSON, name)


def test_shock_reads_as_two_damage_to_any_target():
    """Shock: "Shock deals 2 damage to any target." (its Oracle text)."""
    ability = reader.read(cards.database()["Shock"]).to_json()["abilities"][0]
    assert ability["kind"] == "spell" and ability["template"] == "spell: damage"
    assert ability["effects"] == [{"action": "damage", "affected": {"scope": "target", "kind": "any", "count": 1},
                                   "amount": 2}]
