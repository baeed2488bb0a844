"""Zone changes by effects (capability ``zones``): exile, return to hand, exile and return.

The events (``harness.protocol``):

* ``{"type": "exile", "object": ID}``: an effect exiles a permanent (CR 701.11a, 406.2): it
  goes to its owner's exile zone (each player's exile is listed apart in the observation).
* ``{"type": "return_to_hand", "object": ID}``: an effect returns a permanent to its
  owner's hand (CR 400.3, 108.3: the owner's, never the controller's).
* ``{"type": "flicker", "object": ID, "id": NEW_ID}``: "exile it, then return it to the
  battlefield under its owner's control" (CR 610.3c). The card that returns is a new object
  (CR 400.7) with the new id ``NEW_ID``: no counters, damage, regeneration shields, combat
  status, effects or Auras come with it; a creature is summoning sick (302.6) and its
  enters abilities trigger (603.6a). A token that left the battlefield can't come back
  (CR 111.8): it stays in exile and ceases to exist (704.5d).

What follows is the rest of the rules, in the state-based actions after the event: an Aura
attached to the object that left goes to its owner's graveyard (704.5m), an Equipment
stays on the battlefield unattached (704.5n, 301.5c), a token in exile or in a hand
ceases to exist (111.7, 704.5d). Umbra armor and regeneration replace destruction only
(702.89a, 701.15a): neither applies to these moves. Leaves-the-battlefield abilities
trigger looking back in time (603.10a); "dies" and "put into a graveyard" abilities don't
trigger, since the permanent doesn't go to a graveyard (700.4).

Log: ``zone_change`` (``object``, ``from`` "battlefield", ``to`` "exile" or "hand",
``cause`` ``{"event": "exile" | "return_to_hand" | "flicker", "by": NAME}``; ``by`` is
``"exile effect"``, ``"return effect"`` or ``"flicker effect"`` for the events, the
card's name for a card's effect). A returned card is a ``zone_change`` of the new object
from "exile" to "battlefield" with the same cause and ``"previous"``: the id of the object
it was. A card's effect that returns a card (a modelled "Exile target creature you
control, then return it ...") names the new object ``"<old id>.returned"`` (``-2``, ``-3``,
... when that id was used), as tokens an ability creates are named.

Written as a mixin of :class:`reference_engine.game.Game`, one method per step, so a fork can
override one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalAction, Unsupported
from .event_fields import permanent
from .objects import BATTLEFIELD, GameObject
from .records import EVENT_BY

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)


class ZoneRules(GameBase):
    """Exile, return to hand and exile-then-return, a mixin of :class:`reference_engine.game.Game`."""

    def exile(self, ids, by: str = EVENT_BY["exile"]) -> None:
        """Exile the permanents ``ids`` at the same time (CR 701.11a, 406.2): to their owners' exile zones."""
        self.leave_battlefield(ids, "exile", {"event": "exile", "by": by})

    def return_to_hand(self, ids, by: str = EVENT_BY["return_to_hand"]) -> None:
        """Return the permanents ``ids`` to their owners' hands at the same time (CR 400.3)."""
        self.leave_battlefield(ids, "hand", {"event": "return_to_hand", "by": by})

    def flicker(self, obj: GameObject, new_id: str, by: str = EVENT_BY["flicker"],
                controller: str | None = None) -> GameObject | None:
        """Exile ``obj``, then return that card to the battlefield as the new object ``new_id``
        under its owner's control (``controller``: "under your control", CR 610.3c). A token
        stays in exile (CR 111.8). Returns the new object, or None."""
        cause = {"event": "flicker", "by": by}
        self.leave_battlefield([obj.id], "exile", cause)
        if obj.token or obj.zone != "exile":
            return None  # CR 111.8: a token that left the battlefield can't come back
        return self.return_from_exile(obj, new_id, controller if controller is not None else obj.owner, cause)

    def leave_battlefield(self, ids, zone: str, cause: dict) -> None:
        """Move permanents from the battlefield to their owners' ``zone`` together (one event).

        Each one's last known information is recorded first (CR 608.2h), and their
        leaves-the-battlefield abilities trigger looking back in time (CR 603.10a). The card in
        its new zone is a new object (CR 400.7): no damage, counters, shields, combat status,
        attachment or effects; its owner holds it (CR 400.3).
        """
        leaving: list[GameObject] = []
        for oid in ids:
            obj = self.objects.get(oid)
            if obj is not None and obj.zone == BATTLEFIELD and obj not in leaving:
                leaving.append(obj)
        for obj in leaving:
            self.remember(obj)
        for obj in leaving:
            self.log.append({"kind": "zone_change", "object": obj.id, "from": BATTLEFIELD, "to": zone,
                             "cause": cause})
            self.leaves_triggers(obj, zone)
        for obj in leaving:
            obj.reset_for_zone_change(zone, obj.owner, self._tick())
            self.effects = [e for e in self.effects if e.affected != obj.id]

    def return_from_exile(self, card: GameObject, new_id: str, controller: str, cause: dict) -> GameObject:
        """The exiled ``card`` enters the battlefield as a new object with id ``new_id`` (CR 400.7)
        under ``controller``'s control, still owned by its owner (108.3): it enters as it is
        printed (a copy effect doesn't follow it), a creature summoning sick (302.6), "enters
        with" abilities apply with X = 0 (107.3m) and its enters abilities trigger (603.6a)."""
        del self.objects[card.id]
        mark = len(self.log)
        new = self.enter_battlefield(new_id, card.card, card.script, controller, cause=dict(cause))
        new.owner = card.owner
        for entry in self.log[mark:]:
            if entry.get("kind") == "zone_change" and entry.get("object") == new_id:
                entry["from"] = "exile"
                entry["previous"] = card.id
                break
        return new

    def leaves_triggers(self, obj: GameObject, to_zone: str) -> None:
        """Leaves-the-battlefield abilities of ``obj`` (CR 603.6c), whatever zone it goes to: those
        of :class:`reference_engine.triggers.TriggeredAbilities` (dies, put into a graveyard), then a
        card model's "When ~ leaves the battlefield, ..." (template ``leaves the battlefield
        trigger``), with its source as it last existed (603.10a: called while it is still on the
        battlefield)."""
        super().leaves_triggers(obj, to_zone)
        self.model_triggers(obj, "leaves the battlefield")

    def returned_id(self, old_id: str) -> str:
        """The id of the object a card's effect returns to the battlefield: ``"<old id>.returned"``."""
        return self.new_token_id(f"{old_id}.returned")


# ---------------------------------------------------------------- event handlers
def exile_event(game: GameBase, event):
    """``{"type": "exile", "object": ID}``: an effect exiles the permanent (CR 701.11a)."""
    obj = permanent(game, event, "object")
    return lambda decider: game.exile([obj.id])


def return_to_hand_event(game: GameBase, event):
    """``{"type": "return_to_hand", "object": ID}``: an effect returns the permanent to its owner's hand."""
    obj = permanent(game, event, "object")
    return lambda decider: game.return_to_hand([obj.id])


def flicker_event(game: GameBase, event):
    """``{"type": "flicker", "object": ID, "id": NEW_ID}``: exile it, then return it to the battlefield
    under its owner's control as the new object ``NEW_ID`` (CR 400.7, 610.3c).

    Declined (Unsupported) where the card's return needs a choice the event doesn't give: an Aura
    (its owner chooses what it enchants as it returns, CR 303.4f) and a card that may enter as a
    copy (Clone, CR 707.5)."""
    obj = permanent(game, event, "object")
    new_id = event.get("id")
    if not isinstance(new_id, str) or not new_id or new_id in game.objects or new_id in game.last_known \
            or new_id in game.players:
        raise IllegalAction("bad_event", f"id={new_id!r}: the returned card needs a new, unused object id")
    check_returnable(game, obj)
    return lambda decider: game.flicker(obj, new_id)


def check_returnable(game: GameBase, obj: GameObject) -> None:
    """Raise Unsupported when ``obj`` returning to the battlefield would need a choice the engine
    doesn't model (an Aura's object to enchant, CR 303.4f; a Clone's copy, 707.5). A token never
    returns (111.8): nothing to decline."""
    if obj.token:
        return
    if "Aura" in obj.card.subtypes:
        raise Unsupported("flicker:Aura", f"{obj.card.name} returning to the battlefield would enchant an object "
                                          f"its owner chooses (CR 303.4f; not modelled)")
    if obj.script.enters_as_copy is not None:
        raise Unsupported("flicker:enters as a copy", f"{obj.card.name} may enter as a copy as it returns "
                                                      f"(CR 707.5; the choice is not modelled)")


#: Event handlers of this module, added to ``reference_engine.events.HANDLERS``.
HANDLERS = {"exile": exile_event, "return_to_hand": return_to_hand_event, "flicker": flicker_event}
