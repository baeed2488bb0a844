"""Small actions: an edict (CR 701.17a), a permanent put onto the battlefield tapped (110.5b) and a
source that would deal 0 damage (120.8).

Each is worked out from the event, the board before it and the decisions asked during it; the log
is read for what happened (zone changes and their causes, damage, life gained).
"""

from __future__ import annotations

from typing import cast

from harness import decisions as D
from .base import Decision, Transition, invariant


def _creatures_of(obs: dict, player: str) -> list[str]:
    return sorted(oid for oid, o in obs["objects"].items() if o.get("zone") == "battlefield"
                  and o.get("controller") == player and "Creature" in (o.get("types") or ()))


def _left(t: Transition) -> list[str]:
    """Ids of the objects on the battlefield before the event and not on it after (or gone)."""
    return [oid for oid, o in t.before["objects"].items() if o.get("zone") == "battlefield"
            and (t.after["objects"].get(oid) or {}).get("zone") != "battlefield"]


def _sacrificed_nothing(player: str, left: list[str], sacrificed: list[str], asked: list[Decision]) -> list[str]:
    """A player who controls no creature sacrifices nothing and is asked nothing (CR 701.17a)."""
    out = []
    if left or sacrificed:
        out.append(f"701.17a: {player} controls no creature, so sacrifices nothing; {sorted(set(left) | set(sacrificed))} "
                   f"left the battlefield")
    if asked:
        out.append(f"701.17a: {player} controls no creature, yet was asked {asked[0].options}")
    return out


def _exactly_one_sacrificed(player: str, creatures: list[str], sacrificed: list[str], out: list[str]) -> str | None:
    """The creature the log's ``sacrifice`` causes name (None if not exactly one of ``player``'s); a
    message in ``out`` unless they name exactly one creature ``player`` controls."""
    chosen = [oid for oid in sacrificed if oid in creatures]
    others = [oid for oid in sacrificed if oid not in creatures]
    if len(chosen) != 1 or others:
        out.append(f"701.17a: {player} sacrifices exactly one creature they control; sacrificed {sacrificed} "
                   f"(their creatures: {creatures})")
    return chosen[0] if chosen else None


def _to_owners_graveyard(t: Transition, gone: str) -> list[str]:
    """A sacrificed permanent goes to its owner's graveyard (CR 701.17a, 404.1)."""
    after = t.after["objects"].get(gone)
    owner = t.before["objects"][gone].get("owner")
    if after is not None and (after.get("zone") != "graveyard" or after.get("owner") != owner):
        return [f"701.17a: {gone}, sacrificed, goes to its owner's ({owner}) graveyard, not the "
                f"{after.get('zone')}"]
    return []


def _player_chose(t: Transition, player: str, creatures: list[str], asked: list[Decision],
                  gone: str | None) -> list[str]:
    """The player the edict instructs chooses among exactly their creatures when they have two or more
    (CR 701.17a); nobody else is asked."""
    out = []
    if len(creatures) >= 2:
        if not asked:
            if not D.unknown_asked(t.decisions):
                out.append(f"701.17a: {player} controls {len(creatures)} creatures {creatures} and chooses which to "
                           f"sacrifice: nobody was asked (decider kind edict)")
            return out
        d = asked[0]
        if d.player != player:
            out.append(f"701.17a: {d.player} was asked which creature to sacrifice; {player}, the player the "
                       f"edict instructs, chooses")
        if sorted(map(str, d.options)) != creatures:
            out.append(f"701.17a: the options {sorted(d.options)} are not the creatures {player} controls "
                       f"{creatures}")
        if gone is not None and d.answer != gone:
            out.append(f"701.17a: {player} chose to sacrifice {d.answer}, but {gone} was sacrificed")
    elif asked and asked[0].player != player:
        out.append(f"701.17a: {asked[0].player} was asked which creature {player} sacrifices")
    return out


@invariant("edict.player_chooses", rules=("701.17a",), requires=("edict",), on=("edict",))
def edict_player_chooses(t: Transition):
    """"Target player sacrifices a creature": that player chooses one of the creatures they control (decider
    kind ``edict``, asked of them, the options exactly their creatures, when they have two or more) and
    that creature goes to its owner's graveyard (CR 701.17a): not destroyed, so nothing replaces it; a
    player who controls no creature sacrifices nothing.

    What was sacrificed is read from the log's ``sacrifice`` causes or, without them, from the board
    after the event (not applicable when more than one of the player's creatures left: a dies trigger
    or a lost bonus, 704.5f, may explain the others)."""
    e = t.event
    player = e.get("player")
    if t.illegal is not None or e.get("type") != "edict" or player not in t.before["players"] \
            or e.get("filter") != "creature":
        return None
    player = cast(str, player)  # a key of players
    creatures = _creatures_of(t.before, player)
    asked = [d for d in t.decisions if d.kind == D.EDICT]
    left = _left(t)
    sacrificed = cast("list[str]", [x.get("object") for x in t.log if x.get("kind") == "zone_change"
                                    and (x.get("cause") or {}).get("event") == "sacrifice"])
    if not creatures:
        return _sacrificed_nothing(player, left, sacrificed, asked)
    mine = [oid for oid in creatures if oid in left]
    if not mine:
        return [f"701.17a: {player} controls {creatures} and must sacrifice one of them; all are still on the "
                f"battlefield"]
    out: list[str] = []
    gone: str | None
    if sacrificed:
        gone = _exactly_one_sacrificed(player, creatures, sacrificed, out)
    elif len(mine) == 1:
        gone = mine[0]
    else:
        return None  # no sacrifice cause logged: a dies trigger or a lost bonus (704.5f) may explain the rest
    if gone is not None:
        out += _to_owners_graveyard(t, gone)
    return out + _player_chose(t, player, creatures, asked, gone)


@invariant("put_onto_battlefield.enters_tapped", refused=False, rules=("110.5b", "614.1c"),
           requires=("put_onto_battlefield.tapped",), on=("put_onto_battlefield",))
def put_tapped(t: Transition):
    """A permanent an effect puts onto the battlefield tapped (``"tapped": true``) is tapped as it enters
    (CR 110.5b): it enters tapped, so it doesn't *become* tapped (no ``tapped`` log entry for it)."""
    e = t.event
    if t.illegal is not None or e.get("type") != "put_onto_battlefield" or e.get("tapped") is not True:
        return None
    oid = e.get("id")
    obj = t.after["objects"].get(oid)
    if obj is None or obj.get("zone") != "battlefield":
        return None  # it left again in the same event (a state-based action)
    out = []
    if not obj.get("tapped"):
        out.append(f"110.5b: {oid} ({e.get('card')}) was put onto the battlefield tapped but is untapped")
    if any(x.get("kind") == "tapped" and x.get("object") == oid for x in t.log):
        out.append(f"110.5b: {oid} entered tapped; it didn't become tapped, yet the log has a 'tapped' entry for it")
    return out


@invariant("damage.zero_is_no_damage", refused=False,
           rules=("120.8", "702.2b", "702.15b", "603.2"), requires=("damage", "damage.zero"),
           on=("damage",))
def zero_is_no_damage(t: Transition):
    """A source that would deal 0 damage deals no damage at all (CR 120.8): nothing is marked or lost, a
    deathtouch source destroys nothing (702.2b needs damage dealt), lifelink gains no life (702.15b),
    no ability triggers on damage dealt; nothing is logged but what happened: nothing."""
    e = t.event
    if t.illegal is not None or e.get("type") != "damage" or e.get("amount") != 0 or isinstance(e.get("amount"), bool):
        return None
    out = []
    for pid, p in t.before["players"].items():
        after = t.after["players"].get(pid) or {}
        if after.get("life") != p.get("life"):
            out.append(f"120.8: {pid}'s life went {p.get('life')} -> {after.get('life')} after a source dealt 0 damage, "
                       f"which is no damage (no life lost, no lifelink)")
    target = e.get("target")
    o = t.before["objects"].get(target) if isinstance(target, str) else None
    if o is not None and o.get("zone") == "battlefield" and (o.get("toughness") or 0) > (o.get("damage") or 0):
        after = t.after["objects"].get(target) or {}
        if after.get("zone") != "battlefield" or after.get("damage") != o.get("damage"):
            out.append(f"120.8: {target} ({o.get('name')}) is in the {after.get('zone')} with {after.get('damage')} "
                       f"damage (it had {o.get('damage')}, on the battlefield) after a source dealt it 0 damage: no "
                       f"damage is dealt, so deathtouch destroys nothing (702.2b)")
    logged = [x for x in t.log if x.get("kind") in ("damage", "life_gained", "trigger")]
    if logged:
        out.append(f"120.8: a source that would deal 0 damage deals none (nothing triggers, no lifelink); the log "
                   f"has {logged}")
    return out
