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

    Fields: ``damage`` is marked damage (CR 120.3), ``deathtouch_damage`` records
    that a deathtouch source dealt it damage since state-based actions were last
    checked (704.5h); ``timestamp`` is CR 613.7d/e; ``copy_of`` holds copiable values
    set by a copy effect (layer 1, CR 707) when issue-level features use it.
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


@dataclass(slots=True)
class Player:
    """A player (CR 102): life total (CR 119) and whether they have lost (CR 104.3)."""

    id: str
    life: int = 20
    lost: bool = False


@dataclass(slots=True)
class PTEffect:
    """A power/toughness effect from a resolved spell or ability (CR 611.2, 613.4).

    ``sublayer`` is ``"7b"`` (set base to power/toughness), ``"7c"`` (modify by
    power/toughness) or ``"7d"`` (switch). ``until_end_of_turn`` effects end in the
    cleanup step (CR 514.2).
    """

    affected: str
    sublayer: str
    power: int
    toughness: int
    timestamp: int
    until_end_of_turn: bool = True
