"""The plain values the reference engine's mixins share, below every rules module.

They hold no rules: :class:`Characteristics` (an object after the layers, computed by
:mod:`reference_engine.layers`), :class:`Combat` (the combat in progress,
:mod:`reference_engine.combat`), :class:`Mana` (one mana in a pool, :mod:`reference_engine.mana`),
:class:`ChanceEvent` (a flip or roll as replacements modify it, :mod:`reference_engine.chance`),
:class:`Source` (what an effect comes from, :mod:`reference_engine.model_targets`),
:class:`StackEntry` (a spell or ability on the stack, :mod:`reference_engine.stack`) and
:data:`EVENT_BY` (the default ``by`` of :mod:`reference_engine.zones`' moves). Each is
re-exported by the module that uses it, where it was defined before; living here, the typed base
:mod:`reference_engine.game_base` (and any module) can name them without importing a rules
module, so the engine's modules import one another without a cycle (issue 24, item 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .abilities import ActivatedAbility
    from .objects import GameObject, Trigger
    from .shapes import ObservedStackObject

#: The step a combat starts in (``reference_engine.combat``, CR 508).
DECLARE_ATTACKERS = "declare_attackers"

#: The ``by`` of each zone event's cause (``reference_engine.zones``; a card's effect has the card's
#: name instead): the default ``by`` of exile, return_to_hand and flicker.
EVENT_BY = {"exile": "exile effect", "return_to_hand": "return effect", "flicker": "flicker effect"}


@dataclass(slots=True)
class Characteristics:
    """An object's characteristics after all layers (CR 613.1).

    ``keywords`` is a frozenset of keyword abilities (layer 6); ``mana_cost`` and
    ``text`` are the copiable mana cost and rules text.
    """

    name: str
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...]
    keywords: frozenset[str]
    power: int | None
    toughness: int | None
    mana_cost: str = ""
    text: str = ""

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def is_aura(self) -> bool:
        return "Aura" in self.subtypes


@dataclass(slots=True)
class Combat:
    """The combat in progress: who attacks whom, the declared blocks (blocker -> attacker, kept
    after a blocker leaves combat: the attacker stays blocked, CR 509.1h), the last step reached,
    and the creatures that had first strike or double strike as the first combat damage step
    began (CR 510.4). Whether a creature is still attacking or blocking is its ``combat`` field."""

    attacking_player: str
    defending_player: str
    attackers: tuple[str, ...]
    blocks: dict[str, str] = field(default_factory=dict)
    blockers_declared: bool = False
    step: str = DECLARE_ATTACKERS
    first_strikers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Mana:
    """One mana in a pool: ``type`` (one of W U B R G C), ``source`` (object id, CR 106.3),
    ``restrictions`` (how it may be spent, CR 106.6; none in the card pool)."""

    type: str
    source: str
    restrictions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChanceEvent:
    """A coin flip or die roll about to happen, as replacement effects modify it.

    ``kind`` is ``"flip"`` or ``"roll"``; ``count`` coins or dice with ``sides`` sides
    (2 for a coin); ``ignore`` of them are ignored (Krark's Thumb: all but one; Pixie
    Guide: the lowest).
    """

    kind: str
    count: int = 1
    sides: int = 2
    ignore: int = 0


@dataclass(frozen=True, slots=True)
class Source:
    """What an effect comes from: ``label`` (the spell's name or the permanent's id, as logged),
    ``name`` (its name, for causes ``by``), ``obj`` (the permanent's id, None for a spell),
    ``controller``, and the ``colors``, ``types`` and ``keywords`` it has (or last had)."""

    label: str
    name: str
    obj: str | None
    controller: str
    colors: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    keywords: frozenset[str] = frozenset()
    #: Its power and toughness now (or as it last existed); None for a spell or a noncreature.
    power: int | None = None
    toughness: int | None = None
    #: For a creature dies trigger: (power, toughness) of the creature that died, as it last
    #: existed (CR 603.10a), the "that creature" of its effects.
    that_creature: tuple | None = None


@dataclass(slots=True)
class StackEntry:
    """A spell or ability on the stack (CR 405.1, 112.1, 113.1a).

    ``id``: a spell's is its cast event's ``id``; an ability's ``"<source id>.ability<n>"``
    (n = 1, 2, ...: the first not used in this game). ``card``: a spell's card name;
    ``source``: an ability's source id; ``trigger``: what a triggered ability triggered on (the
    log's ``trigger`` ``ability``), None for an activated one; ``ability``: an activated
    ability's index. ``event`` is the spell's cast event (or the ability's activate event);
    ``payload`` the :class:`Trigger`, or ``(object, ability, player)`` of an activated ability;
    ``stamps`` what each object it refers to was when it was put on the stack
    (:meth:`StackRules.stamp`); ``info`` what resolving needs (the activation's source
    snapshot).
    """

    id: str
    kind: str
    controller: str
    targets: list
    card: str | None = None
    source: str | None = None
    trigger: str | None = None
    ability: int | None = None
    event: dict | None = None
    payload: Trigger | tuple[GameObject, ActivatedAbility, str] | None = None
    stamps: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)

    def to_json(self) -> ObservedStackObject:
        return {"id": self.id, "kind": self.kind, "card": self.card, "source": self.source,
                "controller": self.controller, "targets": list(self.targets), "trigger": self.trigger,
                "ability": self.ability}
