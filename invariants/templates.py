"""A modelled card is also a checked card: the rules of the templates the card reader accepts.

The expected outcome is worked out from the card model (:func:`cards.reader.model` of an
object's card name, or of a cast spell's ``card``) and the observation before the event;
the log is read only to find *what happened* (which damage was dealt, which triggers
triggered, which replacement effects applied), never to learn what should have happened.
Every check is "not applicable" (None) when it can't tell: an unmodelled card involved, a
replacement effect or another trigger that could explain a difference.

This module: shared helpers (models, what an effect affects), lifelink and deathtouch on
damage from any source, "enters tapped" and enters-trigger effects. The spells' effects
are in :mod:`invariants.spell_effects`, the static bonuses of Auras, Equipment and anthems
in :mod:`invariants.static_bonuses`.
"""

from __future__ import annotations

from functools import lru_cache

import cards
from cards.model import Affected, CardModel

from harness import decisions as D
from .base import Transition, invariant
from .card_abilities import has_keyword

# --------------------------------------------------------------------------- models


@lru_cache(maxsize=None)
def read_model(name) -> CardModel | None:
    """The model of the card named ``name`` when every line of its text is read (no
    ``unread`` sentence), else None (an unknown name such as a token's, or an unmodelled card)."""
    if not isinstance(name, str):
        return None
    try:
        from cards.reader import model
        found = model(name)
    except (cards.UnknownCardName, KeyError, ValueError):
        return None
    return found if found.published and not found.unread else None


def model_keywords(name) -> frozenset[str]:
    """The keyword abilities printed on the card (its model's keyword lines), lower case; empty
    for a name that is not a modelled card."""
    m = read_model(name)
    if m is None:
        return frozenset()
    return frozenset(a.keyword for a in m.abilities if a.kind == "keyword" and a.keyword)


def keywords_of(obj: dict) -> frozenset[str]:
    """Keywords an object has: those observed, those printed on its card (CR 702; no template
    removes an ability, so a printed keyword can't be lost), lower case."""
    observed = {str(k).lower() for k in (obj.get("keywords") or ())}
    return frozenset(observed) | model_keywords(obj.get("name")) | frozenset(
        k for k in ("lifelink", "deathtouch", "indestructible") if has_keyword(obj, k))


def triggers_logged(t: Transition, except_source=None) -> list[dict]:
    return [e for e in t.log if e.get("kind") == "trigger" and e.get("source") != except_source]


def replaced(t: Transition) -> set:
    """Objects a replacement effect applied to (or had damage removed) during the event."""
    return {e.get("affected") for e in t.log if e.get("kind") == "replacement"} | {
        e.get("object") for e in t.log if e.get("kind") == "damage_removed"}


def damage_entries(t: Transition) -> list[dict]:
    return [e for e in t.log if e.get("kind") == "damage" and isinstance(e.get("amount"), int)
            and not isinstance(e.get("amount"), bool) and e["amount"] > 0]


# --------------------------------------------------------------------------- what an effect affects

_COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_TYPE_KINDS = {"creature": "Creature", "artifact": "Artifact", "enchantment": "Enchantment", "land": "Land"}


def matches(obj: dict, kind: str, filters, controller: str, oid: str | None = None,
            source_id: str | None = None) -> bool | None:
    """Whether the permanent ``obj`` is a ``kind`` object with ``filters`` (:mod:`cards.model`)
    for an effect controlled by ``controller`` (None: a filter this function can't judge)."""
    types = obj.get("types") or ()
    if kind in _TYPE_KINDS:
        if _TYPE_KINDS[kind] not in types:
            return False
    elif kind in ("any", "creature or player"):
        if "Creature" not in types and (kind == "creature or player" or "Planeswalker" not in types):
            return False
    elif kind != "permanent":
        return False
    for f in filters:
        if f in ("you control", "opponent controls"):
            ok = (obj.get("controller") == controller) == (f == "you control")
        elif f == "other":
            if source_id is None:
                return None
            ok = source_id != oid
        elif f.startswith("non-"):
            ok = f[4:] not in (obj.get("subtypes") or ())
        elif f.startswith("non") and f[3:] in _COLORS:
            ok = _COLORS[f[3:]] not in (obj.get("colors") or ())
        elif f in _COLORS:
            ok = _COLORS[f] in (obj.get("colors") or ())
        elif f in ("nonartifact", "nonland"):
            ok = _TYPE_KINDS[f[3:]] not in types
        elif f == "artifact":
            ok = "Artifact" in types
        elif f in ("tapped", "untapped"):
            ok = bool(obj.get("tapped")) == (f == "tapped")
        elif f == "nonlegendary":
            ok = "Legendary" not in (obj.get("supertypes") or ())
        elif f in ("attacking", "blocking"):
            ok = obj.get("combat") == f
        elif f == "attacking or blocking":
            ok = obj.get("combat") in ("attacking", "blocking")
        else:
            return None  # flying / without flying: keywords an effect may grant; can't tell
        if not ok:
            return False
    return True


def affected_players(obs: dict, affected: Affected, controller: str) -> list[str] | None:
    """The players an ``each`` / ``you`` effect affects, or None when it isn't about players."""
    players = list(obs["players"])
    if affected.scope == "you":
        return [controller]
    if affected.scope == "each" and affected.kind in ("player", "creature and player"):
        return players
    if affected.scope == "each" and affected.kind == "opponent":
        return [p for p in players if p != controller]
    return None


def affected_of(obs: dict, effects, controller: str, targets: list) -> list[list] | None:
    """For each effect of ``effects`` (a spell's, as it resolves on ``obs``), the objects (ids)
    and players it affects; targets are given to the effects with ``scope="target"`` in
    order. None when it can't be told: a target that isn't a legal one of its kind, targets
    left over or missing, a scope such as "it", or a filter :func:`matches` can't judge."""
    remaining = list(targets)
    objects = obs["objects"]
    out: list[list] = []
    target_effects = [e for e in effects if e.affected.scope == "target"]
    for effect in effects:
        a = effect.affected
        if a.scope == "target":
            take = len(remaining) if (a.up_to and effect is target_effects[-1]) else a.count
            if take > len(remaining) or take > a.count or (take < a.count and not a.up_to):
                return None
            chosen, remaining = remaining[:take], remaining[take:]
            for c in chosen:
                if not isinstance(c, str):
                    return None
                if c in obs["players"]:
                    if a.kind not in ("any", "creature or player", "player") and not (
                            a.kind == "opponent" and c != controller):
                        return None
                    continue
                obj = objects.get(c)
                if obj is None or obj.get("zone") != "battlefield" or matches(obj, a.kind, a.filters,
                                                                              controller) is not True:
                    return None
            out.append(chosen)
        elif a.scope in ("you", "each") and (players := affected_players(obs, a, controller)) is not None:
            found = list(players)
            if a.kind == "creature and player":
                found += [oid for oid, o in objects.items() if o.get("zone") == "battlefield"
                          and "Creature" in (o.get("types") or ())]
            out.append(found)
        elif a.scope == "each":
            found = []
            for oid, o in objects.items():
                if o.get("zone") != "battlefield":
                    continue
                m = matches(o, a.kind, a.filters, controller)
                if m is None:
                    return None
                if m:
                    found.append(oid)
            out.append(found)
        else:
            return None
    return None if remaining else out


# --------------------------------------------------------------------------- lifelink and deathtouch


@invariant("templates.lifelink_on_any_damage", rules=("702.15b", "120.3f", "120.3a"),
           requires=("damage", "cards:lifelink"))
def lifelink_on_any_damage(t: Transition):
    """Damage dealt by a source with lifelink, to a creature or a player, by any event, makes its
    controller gain that much life (CR 702.15b, 120.3f): each player's life changes by the lifelink
    damage their sources dealt less the damage dealt to them.

    The source's lifelink is its keywords in the observation before the event or printed on its
    card; damage is read from the log's ``damage`` entries. A damage event to a player is
    ``damage.player_loses_life``'s; not applicable when a triggered ability or an effect with life
    in it (a spell, an ability of a card whose model gains or loses life) could explain a difference.
    """
    if t.illegal is not None or t.event.get("type") in ("cast", "put_onto_battlefield"):
        return None
    objects = t.before["objects"]
    dealt = damage_entries(t)
    lifelinked = [e for e in dealt if isinstance(e.get("source"), str) and e["source"] in objects
                  and "lifelink" in keywords_of(objects[e["source"]])]
    if not lifelinked:
        return None
    if t.event.get("type") == "damage" and t.event.get("target") in t.before["players"]:
        return None  # damage.player_loses_life checks it
    if triggers_logged(t):
        return None
    for oid in {e["source"] for e in dealt if isinstance(e.get("source"), str)} | {t.event.get("object")}:
        if not isinstance(oid, str) or oid not in objects:
            continue
        m = read_model(objects[oid].get("name"))
        if t.event.get("type") == "activate" and m is None:
            return None
        if m is not None and any(e.action in ("gain_life", "lose_life") for a in m.abilities for e in a.effects):
            return None
    expected = {pid: p["life"] for pid, p in t.before["players"].items()}
    for e in dealt:
        if e.get("target") in expected:
            expected[e["target"]] -= e["amount"]
    for e in lifelinked:
        controller = objects[e["source"]].get("controller")
        if controller in expected:
            expected[controller] += e["amount"]
    out = []
    for pid, life in expected.items():
        after = t.after["players"].get(pid, {}).get("life")
        if after != life:
            gained = sum(e["amount"] for e in lifelinked if objects[e["source"]].get("controller") == pid)
            out.append(f"702.15b: {pid} has {after} life, expected {life} (before {t.before['players'][pid]['life']}"
                       f", lifelink damage of their sources {gained}, damage dealt to them "
                       f"{sum(e['amount'] for e in dealt if e.get('target') == pid)})")
    return out


@invariant("templates.deathtouch_from_any_source", rules=("702.2b", "704.5h", "702.12b"),
           requires=("sba.deathtouch_damage",))
def deathtouch_from_any_source(t: Transition):
    """A creature dealt damage by a source with deathtouch the source's card doesn't print (granted
    by an Aura, an Equipment, an anthem or an effect: the source's keywords observed before the
    event) is destroyed (CR 702.2b, 704.5h), unless indestructible (702.12b) or a replacement
    effect applied to it. Printed deathtouch is ``sba.deathtouch_damage``'s."""
    if t.illegal is not None:
        return None
    before, after = t.before["objects"], t.after["objects"]
    dealt: dict[str, str] = {}
    for e in damage_entries(t):
        source = e.get("source")
        src = before.get(source) if isinstance(source, str) else None
        if src is None or e.get("deathtouch") is True or has_keyword(src, "deathtouch"):
            continue  # not an object, or sba.deathtouch_damage sees it
        if "deathtouch" not in keywords_of(src):
            continue
        target = after.get(e.get("target")) if isinstance(e.get("target"), str) else None
        if target is not None and "Creature" in (target.get("types") or ()):
            dealt[e["target"]] = source
    if not dealt:
        return None
    saved = replaced(t)
    out = []
    for oid, source in dealt.items():
        o = after[oid]
        if o["zone"] == "battlefield" and o.get("damage", 0) > 0 and (o.get("toughness") or 0) > 0 \
                and "indestructible" not in keywords_of(o) and oid not in saved:
            out.append(f"704.5h: creature {oid} was dealt damage by {source}, which has deathtouch, and is still on "
                       f"the battlefield with {o['damage']} damage")
    return out


# --------------------------------------------------------------------------- entering


def enters_as_itself(e: dict) -> bool:
    """Whether event ``e`` puts its card onto the battlefield as itself, with id ``e["id"]``: a
    ``put_onto_battlefield`` without ``copy_of``, or the ``cast`` of a permanent spell (it resolves
    and enters, CR 608.3)."""
    if e.get("type") == "put_onto_battlefield":
        return not e.get("copy_of")
    return e.get("type") == "cast" and isinstance(e.get("id"), str)


@invariant("templates.enters_tapped", rules=("614.1c", "614.12"), requires=("cards:enters tapped",))
def enters_tapped(t: Transition):
    """A permanent whose card says "~ enters tapped" is tapped once put onto the battlefield (CR 614.1c)."""
    e = t.event
    if t.illegal is not None or not enters_as_itself(e):
        return None
    m = read_model(e.get("card"))
    if m is None or not any(a.static == "enters tapped" for a in m.abilities):
        return None
    obj = t.after["objects"].get(e.get("id"))
    if obj is None or obj.get("zone") != "battlefield":
        return None
    return [] if obj.get("tapped") else [f"614.1c: {e.get('id')} ({e.get('card')}) entered untapped; its card says "
                                         f"it enters tapped"]


def _enters_abilities(t: Transition):
    """The enters abilities of the permanent the event put onto the battlefield, whose effects
    happened (not optional, or its controller said yes to "you may"); None if it can't be told."""
    e = t.event
    if t.illegal is not None or not enters_as_itself(e):
        return None
    m = read_model(e.get("card"))
    if m is None:
        return None
    abilities = [a for a in m.abilities if a.kind == "triggered" and a.trigger == "enters"]
    if not abilities:
        return None
    if any(x.get("kind") == "trigger_removed" for x in t.log):
        return None  # no legal target (CR 603.3d)
    found = []
    for a in abilities:
        if a.optional:
            answers = [d.answer for d in t.decisions if d.kind == D.MAY]
            if len(answers) != 1 or answers[0] != D.YES:
                return None  # declined, or can't tell which answer was this ability's
        found.append(a)
    return found


@invariant("templates.enters_trigger_effects", rules=("603.6a", "603.2", "119.3", "120.3", "121.1"),
           requires=("triggers", "cards:enters trigger"))
def enters_trigger_effects(t: Transition):
    """A permanent put onto the battlefield whose card says "When ~ enters, <effect>" does it
    (CR 603.6a): "~ deals N damage to <target>" is a damage of N from it to its target; "you gain
    N life" / "each opponent loses N life" change those players' life; "draw N cards" puts N
    cards into its controller's hand. Not applicable for "you may" when the answer isn't "yes",
    when the ability was removed for lack of a target, or another trigger could explain a change.
    """
    abilities = _enters_abilities(t)
    if not abilities:
        return None
    e = t.event
    source, controller = e.get("id"), e.get("controller")
    effects = [x for a in abilities for x in a.effects]
    out: list[str] = []
    checked = False
    dealt = [x for x in damage_entries(t) if x.get("source") == source]
    for x in effects:
        if x.action == "damage" and x.affected.scope == "target":
            checked = True
            hits = [d for d in dealt if d["amount"] == x.amount]
            if len(hits) < x.affected.count and not x.affected.up_to:
                out.append(f"603.6a: {source} ({e.get('card')}) entered and its ability deals {x.amount} damage to "
                           f"{x.affected.count} target(s); the log has {[(d.get('target'), d['amount']) for d in dealt]}")
    others = triggers_logged(t, except_source=source)
    lives = [x for x in effects if x.action in ("gain_life", "lose_life")]
    if any(x.per is not None or x.equal_to is not None for x in lives):
        lives = []  # an amount read from the game (CR 608.2h): not checked here
    if lives and not others and all(x.affected.scope in ("you", "each") for x in lives):
        expected = {pid: p["life"] for pid, p in t.before["players"].items()}
        lifelink = "lifelink" in keywords_of({**(t.after["objects"].get(source) or {}), "name": e.get("card")})
        for d in damage_entries(t):
            if d.get("source") != source:
                expected = None  # damage of another source: not this ability's to explain
                break
            if d.get("target") in expected:
                expected[d["target"]] -= d["amount"]
            if lifelink:
                expected[controller] += d["amount"]
        if expected is not None:
            for x in lives:
                for p in affected_players(t.before, x.affected, controller) or ():
                    expected[p] += x.amount if x.action == "gain_life" else -x.amount
            checked = True
            for pid, life in expected.items():
                if t.after["players"][pid]["life"] != life:
                    out.append(f"603.6a: {pid} has {t.after['players'][pid]['life']} life after {source} "
                               f"({e.get('card')}) entered; its enters ability gives {life}")
    draws = [x for x in effects if x.action == "draw"]
    if draws and not others and all(x.affected.scope == "you" for x in draws):
        n = sum(x.amount for x in draws)
        counts = _hand_and_library(t, controller)
        if counts is not None:
            (hand0, lib0), (hand1, lib1) = counts
            if lib0 >= n:
                checked = True
                if (hand1 - hand0, lib0 - lib1) != (n, n):
                    out.append(f"121.1: {controller} draws {n} card(s) by {source}'s enters ability but their hand "
                               f"went {hand0} -> {hand1} and library {lib0} -> {lib1}")
    return out if checked else None


def _hand_and_library(t: Transition, player: str):
    """``((hand, library) before, (hand, library) after)`` sizes of ``player``, if zones are observed."""
    sizes = []
    for obs in (t.before, t.after):
        zones = obs.get("zones")
        if not isinstance(zones, dict):
            return None
        hand, library = (zones.get("hand") or {}).get(player), (zones.get("library") or {}).get(player)
        if not isinstance(hand, list) or not isinstance(library, list):
            return None
        sizes.append((len(hand), len(library)))
    return tuple(sizes)
