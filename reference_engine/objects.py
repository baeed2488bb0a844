"""Game objects, players and continuous effects: the engine's state (CR 109, 102, 611)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import CardDef, CardScript

BATTLEFIELD = "battlefield"
#: Zones an object can be in (CR 400.1). The stack is not modelled: spells resolve at once.
ZONES = ("library", "hand", "battlefield", "graveyard", "exile")
COMBAT_STATUSES = (None, "attacking", "blocking")


@dataclass(slots=True)
class GameObject:
    """A card or token in a zone (CR 109.1).

    The id stays the same when the object changes zones, so the harness can follow it;
    the rules still treat it as a new object (CR 400.7): damage, counters, effects,
    regeneration shields, combat status and attachments do not follow it.

    Fields: ``card`` and ``script`` are the object's own characteristics: for a card,
    what is printed on it; for a token, what the effect that created it defined (CR
    111.3), which for a token copy includes the copied values and the exceptions of the
    copy effect (CR 707.9b). ``damage`` is marked damage (CR 120.3), ``deathtouch_damage``
    records that a deathtouch source dealt it damage since state-based actions were last
    checked (704.5h); ``timestamp`` is CR 613.7d/e. ``copy_effect`` is the layer 1 copy
    effect of a permanent that entered as a copy (Clone, CR 707.5): the copiable values it
    copied, fixed when it entered (CR 707.2b); ``copy_of`` is the id of the object copied.
    ``spell_x`` is the value of X chosen for the spell that became this permanent, which
    only its enters abilities use (CR 107.3m); the permanent's own X is 0.
    """

    id: str
    card: CardDef
    script: CardScript
    owner: str
    controller: str
    zone: str
    timestamp: int
    token: bool = False
    tapped: bool = False
    summoning_sick: bool = False
    damage: int = 0
    deathtouch_damage: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    attached_to: str | None = None
    combat: str | None = None
    regeneration_shields: int = 0
    copy_effect: tuple[CardDef, CardScript] | None = None
    copy_of: str | None = None
    spell_x: int = 0

    def reset_for_zone_change(self) -> None:
        """CR 400.7: the object in the new zone remembers nothing of the old one."""
        self.tapped = False
        self.summoning_sick = False
        self.damage = 0
        self.deathtouch_damage = False
        self.counters = {}
        self.attached_to = None
        self.combat = None
        self.regeneration_shields = 0
        self.copy_effect = None
        self.copy_of = None
        self.spell_x = 0


@dataclass(slots=True)
class Player:
    """A player (CR 102): life total (CR 119) and whether they have lost (CR 104.3)."""

    id: str
    life: int = 20
    lost: bool = False


@dataclass(slots=True)
class PTEffect:
    """A power/toughness effect (CR 611.2, 613.4).

    ``sublayer`` is ``"7b"`` (set base to power/toughness), ``"7c"`` (modify by
    power/toughness) or ``"7d"`` (switch; power and toughness unused), or ``"6"`` for an
    effect that grants ``keywords`` ("gains flying until end of turn", layer 6, CR 613.1f;
    not a power/toughness effect, never listed in ``pt_effects``). ``until_end_of_turn``
    effects end in the cleanup step (CR 514.2). ``source`` names what created it: a
    spell's name, an event type, or the id of the Aura whose static ability it is.
    """

    affected: str
    sublayer: str
    power: int
    toughness: int
    timestamp: int
    until_end_of_turn: bool = True
    source: str | None = None
    keywords: tuple[str, ...] = ()


@dataclass(slots=True)
class LastKnown:
    """An object as it last existed on the battlefield (last known information, CR 608.2h).

    ``copiable`` is its copiable values (layer 1, CR 707.2); ``attached_to`` the object it
    was attached to; ``counters`` its counters; ``controller`` its controller.
    """

    copiable: tuple[CardDef, CardScript]
    attached_to: str | None
    counters: dict[str, int]
    controller: str


@dataclass(slots=True)
class Trigger:
    """A triggered ability that has triggered (CR 603.2) and waits to be put on the stack.

    ``ability`` is ``"enters"``, ``"dies"`` or ``"put into a graveyard"``; ``kind`` is the
    script's effect kind; ``info`` holds what the ability will need (last known
    information, CR 603.10a); ``targets`` are chosen as it is put on the stack (CR 603.3d).
    """

    source: str
    controller: str
    ability: str
    kind: str
    info: dict = field(default_factory=dict)
    targets: list[str] = field(default_factory=list)
