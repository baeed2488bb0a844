"""The JSON shapes of what the reference engine observes beyond ``harness.protocol``'s
``Observation`` (which types these parts as plain dicts), as ``TypedDict`` s for the type checker.

``ObservedCopiable``: an object's ``copiable`` values (capability ``observe.copiable``; CR 707.2);
``ObservedPTEffect``: one of its ``pt_effects`` (``observe.pt_effects``; CR 613.7);
``ObservedStackObject`` and ``ObservedPriority``: the ``stack`` and ``priority`` of a game with
the stack (capability ``stack``; CR 405, 117); ``ObservedCombat``: the declared ``combat`` in
progress (capability ``combat``; CR 506-511).
"""

from __future__ import annotations

from typing import Required, TypedDict

from harness.protocol import ObservedCharacteristics


class ObservedCopiable(ObservedCharacteristics, total=False):
    """A creature's copiable values (CR 707.2, 613.2c): the characteristics an observed object
    has (``harness.protocol.ObservedCharacteristics``) and its mana cost; rules text left out."""

    mana_cost: Required[str]


class ObservedPTEffect(TypedDict):
    """A continuous effect on a creature's power and toughness (CR 613.4): its sublayer
    (``"7b"``, ``"7c"``, ``"7d"``: then power and toughness are None), its source."""

    layer: str
    power: int | None
    toughness: int | None
    source: str | None
    until_end_of_turn: bool


class ObservedStackObject(TypedDict):
    """A spell or ability on the stack (CR 405.1): ``kind`` ``"spell"`` or ``"ability"``."""

    id: str
    kind: str
    card: str | None
    source: str | None
    controller: str
    targets: list[str]
    trigger: str | None
    ability: int | None


class ObservedPriority(TypedDict):
    """Who holds priority, who passed in succession, whose turn it is (CR 117.3, 117.4)."""

    player: str
    passed: list[str]
    active_player: str


class ObservedStack(TypedDict):
    """The ``stack`` (bottom to top) and ``priority`` fields of a game with the stack."""

    stack: list[ObservedStackObject]
    priority: ObservedPriority


class ObservedCombat(TypedDict):
    """The declared combat in progress: the step last reached, the creatures with first strike
    that dealt damage in the first combat damage step (CR 510.4)."""

    attacking_player: str
    defending_player: str
    step: str
    first_strikers: list[str]
