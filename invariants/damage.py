"""Damage to players (CR 120.3a, 702.15b).

Damage dealt to a player causes that player to lose that much life; a source with
lifelink also makes its controller gain that much life. Nothing else in one damage
event changes a player's life total in the rules in scope.
"""

from __future__ import annotations

from .base import Transition, invariant
from .card_abilities import damage_spells
from .observed import on_battlefield


def damage_to_player(before: dict, event: dict) -> tuple[str, int, str | None] | None:
    """``(player, amount, lifelink controller or None)`` when ``event`` deals damage to a player.

    A ``damage`` event from a permanent on the battlefield, or a cast of a damage spell
    (Shock, Lightning Bolt) at a player; None for any other event.
    """
    players = before.get("players", {})
    kind = event.get("type")
    if kind == "damage":
        target, amount, source = event.get("target"), event.get("amount"), event.get("source")
        if not (isinstance(target, str) and target in players and on_battlefield(before, source)):
            return None
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            return None
        obj = before["objects"][source]
        return target, amount, obj["controller"] if "lifelink" in obj["keywords"] else None
    if kind == "cast" and event.get("card") in damage_spells():
        targets = event.get("targets") or []
        if len(targets) == 1 and isinstance(targets[0], str) and targets[0] in players:
            return targets[0], damage_spells()[event["card"]], None
    return None


@invariant("damage.player_loses_life", refused=False,
           rules=("120.3a", "702.15b"), requires=("damage",), on=("damage", "cast"))
def player_loses_life(t: Transition):
    """A player dealt N damage loses exactly N life; no other player's life changes but by lifelink."""
    if t.illegal is not None:
        return None
    dealt = damage_to_player(t.before, t.event)
    if dealt is None:
        return None
    target, amount, lifelinker = dealt
    out = []
    for pid, after in t.after["players"].items():
        before = t.before["players"].get(pid)
        if before is None:
            continue
        expected = before["life"] - (amount if pid == target else 0) + (amount if pid == lifelinker else 0)
        if after["life"] != expected:
            out.append(f"{pid} has {after['life']} life after {target} was dealt {amount} damage "
                       f"(life {before['life']} before; expected {expected})")
    return out
