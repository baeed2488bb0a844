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

from functools import cache
from typing import Any, cast
from collections.abc import Callable, Iterable

import cards
from cards.model import Affected, CardModel

from harness import decisions as D
from .base import Transition, invariant
from .card_abilities import has_keyword

# --------------------------------------------------------------------------- models


@cache
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


def damage_marked_problems(t: Transition, dealt: Iterable[tuple[str, int]]) -> list[str]:
    """Each permanent of ``dealt`` (``(id, amount)`` pairs: what the event's spell dealt it) still on the
    battlefield has that much more damage marked (CR 120.3e), unless a replacement effect applied to it."""
    out = []
    saved = replaced(t)
    for w, n in dealt:
        before, after = t.before["objects"].get(w), t.after["objects"].get(w)
        if before is None or after is None or after.get("zone") != "battlefield" or w in saved:
            continue
        if after.get("damage") != before.get("damage", 0) + n:
            out.append(f"120.3e: {w} has {after.get('damage')} damage marked after {t.event.get('card')} dealt it {n} (it "
                       f"had {before.get('damage', 0)})")
    return out


def damage_entries(t: Transition) -> list[dict]:
    return [e for e in t.log if e.get("kind") == "damage" and isinstance(e.get("amount"), int)
            and not isinstance(e.get("amount"), bool) and e["amount"] > 0]


# --------------------------------------------------------------------------- what an effect affects

_COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_TYPE_KINDS = {"creature": "Creature", "artifact": "Artifact", "enchantment": "Enchantment", "land": "Land"}


def _kind_matches(types, kind: str) -> bool:
    """Whether a permanent of card types ``types`` is a ``kind`` object (:mod:`cards.model`)."""
    if kind in _TYPE_KINDS:
        return _TYPE_KINDS[kind] in types
    if kind in ("any", "creature or player"):
        return "Creature" in types or (kind != "creature or player" and "Planeswalker" in types)
    return kind == "permanent"


#: The filters judged from the permanent alone (and the effect's controller): filter -> (obj, types, controller) -> ok.
_FILTERS: dict[str, Callable[[dict, Any, str], bool]] = {
    "you control": lambda obj, types, controller: obj.get("controller") == controller,
    "opponent controls": lambda obj, types, controller: obj.get("controller") != controller,
    "nonartifact": lambda obj, types, controller: "Artifact" not in types,
    "nonland": lambda obj, types, controller: "Land" not in types,
    "artifact": lambda obj, types, controller: "Artifact" in types,
    "tapped": lambda obj, types, controller: bool(obj.get("tapped")),
    "untapped": lambda obj, types, controller: not obj.get("tapped"),
    "nonlegendary": lambda obj, types, controller: "Legendary" not in (obj.get("supertypes") or ()),
    "attacking": lambda obj, types, controller: obj.get("combat") == "attacking",
    "blocking": lambda obj, types, controller: obj.get("combat") == "blocking",
    "attacking or blocking": lambda obj, types, controller: obj.get("combat") in ("attacking", "blocking"),
}


def _filter_holds(obj: dict, f: str, types, controller: str, oid: str | None, source_id: str | None) -> bool | None:
    """Whether ``obj`` (id ``oid``) passes filter ``f`` of an effect of ``source_id``; None when it can't be told."""
    judged = _FILTERS.get(f)
    if judged is not None:
        return judged(obj, types, controller)
    if f == "other":
        return None if source_id is None else source_id != oid
    if f.startswith("non-"):
        return f[4:] not in (obj.get("subtypes") or ())
    if f.startswith("non") and f[3:] in _COLORS:
        return _COLORS[f[3:]] not in (obj.get("colors") or ())
    if f in _COLORS:
        return _COLORS[f] in (obj.get("colors") or ())
    return None  # flying / without flying: keywords an effect may grant; can't tell


def matches(obj: dict, kind: str, filters, controller: str, oid: str | None = None,
            source_id: str | None = None) -> bool | None:
    """Whether the permanent ``obj`` is a ``kind`` object with ``filters`` (:mod:`cards.model`)
    for an effect controlled by ``controller`` (None: a filter this function can't judge)."""
    types = obj.get("types") or ()
    if not _kind_matches(types, kind):
        return False
    for f in filters:
        ok = _filter_holds(obj, f, types, controller, oid, source_id)
        if ok is None:
            return None
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


def _targets_taken(effect, target_effects: list, remaining: list) -> int | None:
    """How many of the ``remaining`` targets a ``scope="target"`` effect takes: its count, or what is left
    for the last effect with "up to"; None when too few are left or too many given."""
    a = effect.affected
    take = len(remaining) if (a.up_to and effect is target_effects[-1]) else a.count
    if take > len(remaining) or take > a.count or (take < a.count and not a.up_to):
        return None
    return take


def _legal_target(obs: dict, a: Affected, c, controller: str) -> bool:
    """Whether ``c`` is a legal target of its kind for an effect affecting ``a``: a player the kind
    allows, or a permanent on the battlefield that :func:`matches` the kind and filters."""
    if not isinstance(c, str):
        return False
    if c in obs["players"]:
        return a.kind in ("any", "creature or player", "player") or (a.kind == "opponent" and c != controller)
    obj = obs["objects"].get(c)
    return obj is not None and obj.get("zone") == "battlefield" and matches(obj, a.kind, a.filters,
                                                                              controller) is True


def _each_permanent(obs: dict, a: Affected, controller: str) -> list | None:
    """The permanents an ``each`` effect affects; None when a filter can't be judged."""
    found = []
    for oid, o in obs["objects"].items():
        if o.get("zone") != "battlefield":
            continue
        m = matches(o, a.kind, a.filters, controller)
        if m is None:
            return None
        if m:
            found.append(oid)
    return found


def _affected_untargeted(obs: dict, a: Affected, controller: str) -> list | None:
    """The players and objects a ``you`` / ``each`` effect affects; None for another scope (such as "it")."""
    if a.scope in ("you", "each") and (players := affected_players(obs, a, controller)) is not None:
        found = list(players)
        if a.kind == "creature and player":
            found += [oid for oid, o in obs["objects"].items() if o.get("zone") == "battlefield"
                      and "Creature" in (o.get("types") or ())]
        return found
    if a.scope == "each":
        return _each_permanent(obs, a, controller)
    return None


def affected_of(obs: dict, effects, controller: str, targets: list) -> list[list] | None:
    """For each effect of ``effects`` (a spell's, as it resolves on ``obs``), the objects (ids)
    and players it affects; targets are given to the effects with ``scope="target"`` in
    order. None when it can't be told: a target that isn't a legal one of its kind, targets
    left over or missing, a scope such as "it", or a filter :func:`matches` can't judge."""
    remaining = list(targets)
    out: list[list] = []
    target_effects = [e for e in effects if e.affected.scope == "target"]
    for effect in effects:
        a = effect.affected
        if a.scope == "target":
            take = _targets_taken(effect, target_effects, remaining)
            if take is None:
                return None
            chosen, remaining = remaining[:take], remaining[take:]
            if not all(_legal_target(obs, a, c, controller) for c in chosen):
                return None
            out.append(chosen)
            continue
        found = _affected_untargeted(obs, a, controller)
        if found is None:
            return None
        out.append(found)
    return None if remaining else out


# --------------------------------------------------------------------------- lifelink and deathtouch


def _life_explained_otherwise(t: Transition, objects: dict, dealt: list[dict]) -> bool:
    """Whether a source of the damage, or the activated object, could change life otherwise: an
    unmodelled card's ability activated, or a card whose model gains or loses life."""
    for oid in {e["source"] for e in dealt if isinstance(e.get("source"), str)} | {t.event.get("object")}:
        if not isinstance(oid, str) or oid not in objects:
            continue
        m = read_model(objects[oid].get("name"))
        if t.event.get("type") == "activate" and m is None:
            return True
        if m is not None and any(e.action in ("gain_life", "lose_life") for a in m.abilities for e in a.effects):
            return True
    return False


def _life_with_lifelink(t: Transition, objects: dict, dealt: list[dict], lifelinked: list[dict]) -> dict:
    """Each player's life after ``dealt``: less the damage dealt to them, plus their lifelink sources'
    damage (CR 120.3a, 702.15b)."""
    expected = {pid: p["life"] for pid, p in t.before["players"].items()}
    for e in dealt:
        if e.get("target") in expected:
            expected[e["target"]] -= e["amount"]
    for e in lifelinked:
        controller = objects[e["source"]].get("controller")
        if controller in expected:
            expected[controller] += e["amount"]
    return expected


@invariant("templates.lifelink_on_any_damage", refused=False, rules=("702.15b", "120.3f", "120.3a"),
           requires=("damage", "cards:lifelink"), on_log=("damage",))
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
    if triggers_logged(t) or _life_explained_otherwise(t, objects, dealt):
        return None
    out = []
    for pid, life in _life_with_lifelink(t, objects, dealt, lifelinked).items():
        after = t.after["players"].get(pid, {}).get("life")
        if after != life:
            gained = sum(e["amount"] for e in lifelinked if objects[e["source"]].get("controller") == pid)
            out.append(f"702.15b: {pid} has {after} life, expected {life} (before {t.before['players'][pid]['life']}"
                       f", lifelink damage of their sources {gained}, damage dealt to them "
                       f"{sum(e['amount'] for e in dealt if e.get('target') == pid)})")
    return out


def _dealt_granted_deathtouch(t: Transition) -> dict[str, str]:
    """The creatures dealt damage by a source whose deathtouch its card doesn't print (its keywords
    observed before the event), each with the source; printed deathtouch is ``sba.deathtouch_damage``'s."""
    before, after = t.before["objects"], t.after["objects"]
    dealt: dict[str, str] = {}
    for e in damage_entries(t):
        source = e.get("source")
        src = before.get(source) if isinstance(source, str) else None
        if not isinstance(source, str) or src is None or e.get("deathtouch") is True or has_keyword(src, "deathtouch"):
            continue  # not an object, or sba.deathtouch_damage sees it
        if "deathtouch" not in keywords_of(src):
            continue
        target = after.get(e.get("target")) if isinstance(e.get("target"), str) else None
        if target is not None and "Creature" in (target.get("types") or ()):
            dealt[e["target"]] = source
    return dealt


@invariant("templates.deathtouch_from_any_source", refused=False, rules=("702.2b", "704.5h", "702.12b"),
           requires=("sba.deathtouch_damage",), on_log=("damage",))
def deathtouch_from_any_source(t: Transition):
    """A creature dealt damage by a source with deathtouch the source's card doesn't print (granted
    by an Aura, an Equipment, an anthem or an effect: the source's keywords observed before the
    event) is destroyed (CR 702.2b, 704.5h), unless indestructible (702.12b) or a replacement
    effect applied to it. Printed deathtouch is ``sba.deathtouch_damage``'s."""
    if t.illegal is not None:
        return None
    after = t.after["objects"]
    dealt = _dealt_granted_deathtouch(t)
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


@invariant("templates.enters_tapped", refused=False, rules=("614.1c", "614.12"), requires=("cards:enters tapped",),
           on=("put_onto_battlefield", "cast"))
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


def _enters_damage(t: Transition, source, effects: list) -> list[str] | None:
    """"~ deals N damage to <target>": a damage of N from ``source`` to each target (CR 603.6a,
    120.3); None when no such effect."""
    out: list[str] = []
    checked = False
    dealt = [x for x in damage_entries(t) if x.get("source") == source]
    for x in effects:
        if x.action == "damage" and x.affected.scope == "target":
            checked = True
            hits = [d for d in dealt if d["amount"] == x.amount]
            if len(hits) < x.affected.count and not x.affected.up_to:
                logged = [(d.get('target'), d['amount']) for d in dealt]
                out.append(f"603.6a: {source} ({t.event.get('card')}) entered and its ability deals {x.amount} damage "
                           f"to {x.affected.count} target(s); the log has {logged}")
    return out if checked else None


def _life_after_enters_damage(t: Transition, source, controller: str) -> dict[str, int] | None:
    """Each player's life after the damage ``source`` dealt (with its lifelink, CR 702.15b); None when
    another source dealt damage (not this ability's to explain)."""
    expected = {pid: p["life"] for pid, p in t.before["players"].items()}
    lifelink = "lifelink" in keywords_of({**(t.after["objects"].get(source) or {}), "name": t.event.get("card")})
    for d in damage_entries(t):
        if d.get("source") != source:
            return None
        if d.get("target") in expected:
            expected[d["target"]] -= d["amount"]
        if lifelink:
            expected[controller] += d["amount"]
    return expected


def _enters_life(t: Transition, source, controller: str, effects: list, others: list) -> list[str] | None:
    """"you gain N life" / "each opponent loses N life" change those players' life (CR 119.3);
    None when not checked (an amount read from the game, another trigger, another source's damage)."""
    lives = [x for x in effects if x.action in ("gain_life", "lose_life")]
    if any(x.per is not None or x.equal_to is not None for x in lives):
        return None  # an amount read from the game (CR 608.2h): not checked here
    if not lives or others or not all(x.affected.scope in ("you", "each") for x in lives):
        return None
    expected = _life_after_enters_damage(t, source, controller)
    if expected is None:
        return None
    for x in lives:
        for p in affected_players(t.before, x.affected, controller) or ():
            expected[p] += x.amount if x.action == "gain_life" else -x.amount
    return [f"603.6a: {pid} has {t.after['players'][pid]['life']} life after {source} "
            f"({t.event.get('card')}) entered; its enters ability gives {life}"
            for pid, life in expected.items() if t.after["players"][pid]["life"] != life]


def _enters_draws(t: Transition, source, controller: str, effects: list, others: list) -> list[str] | None:
    """"draw N cards" puts N cards from its controller's library into their hand (CR 121.1); None when
    not checked (another trigger, zones not observed, fewer than N cards in the library)."""
    draws = [x for x in effects if x.action == "draw"]
    if not draws or others or not all(x.affected.scope == "you" for x in draws):
        return None
    n = sum(x.amount for x in draws)
    counts = _hand_and_library(t, controller)
    if counts is None:
        return None
    (hand0, lib0), (hand1, lib1) = counts
    if lib0 < n:
        return None
    if (hand1 - hand0, lib0 - lib1) != (n, n):
        return [f"121.1: {controller} draws {n} card(s) by {source}'s enters ability but their hand "
                f"went {hand0} -> {hand1} and library {lib0} -> {lib1}"]
    return []


@invariant("templates.enters_trigger_effects", rules=("603.6a", "603.2", "119.3", "120.3", "121.1"),
           requires=("triggers", "cards:enters trigger"), on=("put_onto_battlefield", "cast"))
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
    source = t.event.get("id")
    controller = cast(str, t.event.get("controller"))  # required by the event schema for cast, put_onto_battlefield
    effects = [x for a in abilities for x in a.effects]
    others = triggers_logged(t, except_source=source)
    parts = (_enters_damage(t, source, effects), _enters_life(t, source, controller, effects, others),
             _enters_draws(t, source, controller, effects, others))
    checked = [found for found in parts if found is not None]
    return [message for found in checked for message in found] if checked else None


def _hand_and_library(t: Transition, player: str) -> tuple[tuple[int, int], ...] | None:
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
