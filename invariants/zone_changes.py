"""Zone changes by effects: exile, return to hand, exile and return (capability ``zones``).

CR 400.7: "An object that moves from one zone to another becomes a new object with no memory
of, or relation to, its previous existence." The checks here work out what must be true from
the observation before the event, the event and the card data, and read the log only to find
what happened (which object a returned card became, what a triggered ability did):

* the card goes to its *owner's* exile or hand (CR 400.3, 108.3, 701.11a);
* it keeps nothing of the permanent it was (400.7): no counters, damage, regeneration
  shields (a public bug report: "a regeneration shield survives a zone change"), combat
  status (506.4), attachment, tapped status;
* a flickered card returns as a new object with the event's new id, under its owner's control
  (610.3c), remembering nothing, a creature summoning sick (302.6), its enters abilities
  triggering (603.6a); a token never returns (111.8);
* Auras left behind go to their owners' graveyards (704.5m, 303.4c); Equipment stays on the
  battlefield unattached (704.5n, 301.5c); a token ceases to exist once it left (111.7,
  704.5d), after its zone change;
* exile and bounce are not destruction: no umbra armor or regeneration replaces them
  (702.89a, 701.15a), and nothing "dies" (700.4, 603.6c).

The moves judged are those of the ``exile``, ``return_to_hand`` and ``flicker`` events, of a
cast spell of a modelled card whose effects exile, return to hand or flicker its targets
(:mod:`cards.model` actions ``exile``, ``return_to_hand``, ``flicker``: worked out from its model
and targets), and those the log shows an ability making (an enters ability returning a creature
to its owner's hand): for them only *what* moved is read from the log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast
from collections.abc import Callable

import cards
from cards import reader

from .base import Transition, invariant
from .card_abilities import card_text
from .templates import affected_of, read_model
from .views import per_step

#: Event type or card-model action -> the zone the object goes to (a flicker: exile, then back).
DESTINATION = {"exile": "exile", "return_to_hand": "hand", "flicker": "exile"}
#: The event types :func:`moves` finds moves of; on any other step, only the log's zone_change entries.
MOVING_EVENTS = (*DESTINATION, "cast")
_REQUIRES = ("zones",)


@dataclass(frozen=True)
class Move:
    """One permanent a zone-change effect of the event moved: ``kind`` (``exile``,
    ``return_to_hand``, ``flicker``), its id, the object as it was before, the id of the new
    object a flicker returns (the event's ``id``, or for a card's effect the object the log
    says it became: None when it didn't come back), and who controls it on its return (None:
    not known, an ability's "under your control")."""

    kind: str
    oid: str
    before: dict
    new_id: str | None
    returns_under: str | None


def _returned_as(t: Transition, oid: str) -> str | None:
    """The object the log says the card ``oid`` became on the battlefield (``previous``)."""
    return next((e.get("object") for e in t.log if e.get("kind") == "zone_change" and e.get("previous") == oid
                 and e.get("to") == "battlefield"), None)


@per_step
def moves(t: Transition) -> tuple[Move, ...]:
    """The permanents the event's zone-change effects moved (see the module docstring): the event's
    own, then those of the log in its order; one tuple shared by the checks of a step (:func:`.views.per_step`)."""
    return tuple(_moves(t))


def _moves(t: Transition) -> list[Move]:
    """:func:`moves`, computed."""
    if t.illegal is not None:
        return []
    e = t.event
    kind = e.get("type")
    objects = t.before["objects"]
    if kind in DESTINATION:
        oid = e.get("object")
        before = objects.get(oid) if isinstance(oid, str) else None
        if not isinstance(oid, str) or before is None or before.get("zone") != "battlefield":
            return []
        new_id = e.get("id") if kind == "flicker" and isinstance(e.get("id"), str) else None
        return [Move(kind, oid, before, new_id, before.get("owner") if kind == "flicker" else None),
                *_logged_moves(t, {oid})]
    found = _cast_moves(t) if kind == "cast" else []
    return found + _logged_moves(t, {m.oid for m in found})


def _logged_moves(t: Transition, known: set) -> list[Move]:
    """Moves the log shows an ability making during the event (an enters ability returning a
    creature to its owner's hand, an activated ability exiling its target): the zone changes off
    the battlefield whose cause is one of the zone-change effects, of permanents on the battlefield
    before. Only *what* moved is read from the log; what must follow is the rules'."""
    found: list[Move] = []
    for e in t.log:
        raw_cause = e.get("cause")
        cause: dict = raw_cause if isinstance(raw_cause, dict) else {}
        oid = e.get("object")
        if e.get("kind") != "zone_change" or e.get("from") != "battlefield" or cause.get("event") not in DESTINATION \
                or oid in known or any(m.oid == oid for m in found):
            continue
        before = t.before["objects"].get(oid)
        if before is None or before.get("zone") != "battlefield" or not isinstance(oid, str):
            continue
        kind = cause["event"]
        under = _logged_flicker_returns_under(cause, before) if kind == "flicker" else None
        found.append(Move(kind, oid, before, _returned_as(t, oid) if kind == "flicker" else None, under))
    return found


def _logged_flicker_returns_under(cause: dict, before: dict) -> str | None:
    """Who controls a card an ability flickered on its return: its owner when every flicker of the
    causing card's model returns it "under its owner's control" (CR 610.3c), else None (not known)."""
    model = read_model(cause.get("by"))
    flickers = [x for a in (model.abilities if model else ()) for x in a.effects if x.action == "flicker"]
    if flickers and all(getattr(x, "returns_under", None) is None for x in flickers):
        return before.get("owner")  # "under its owner's control" (CR 610.3c)
    return None


def _cast_affected(t: Transition, effects: list) -> tuple[str, list[list]] | None:
    """The caster of the cast spell and what each of its ``effects`` affects (:func:`affected_of`), or
    None when it can't be told (a caster who is no player, targets that are no list)."""
    e = t.event
    caster = e.get("controller")
    if caster not in t.before["players"] or not isinstance(caster, str) or not isinstance(e.get("targets", []), list):
        return None
    affected = affected_of(t.before, effects, caster, e.get("targets") or [])
    return None if affected is None else (caster, affected)


def _returns_under(effect, caster: str, before: dict) -> str | None:
    """Who controls a card a spell's effect moved on its return: for a flicker its owner (CR 610.3c)
    or, "under your control", the caster; None for a move that doesn't return."""
    if effect.action != "flicker":
        return None
    return caster if getattr(effect, "returns_under", None) == "you" else before.get("owner")


def _cast_moves(t: Transition) -> list[Move]:
    """Moves of a cast spell of a modelled card, worked out from its model and its targets."""
    objects = t.before["objects"]
    model = read_model(t.event.get("card"))
    if model is None or not model.of("spell"):
        return []
    effects = [x for a in model.of("spell") for x in a.effects]
    if not any(x.action in DESTINATION for x in effects):
        return []
    cast_affected = _cast_affected(t, effects)
    if cast_affected is None:
        return []
    caster, affected = cast_affected
    found: list[Move] = []
    for effect, who in zip(effects, affected):
        if effect.action not in DESTINATION:
            continue
        for oid in who:
            before = objects.get(oid)
            if before is None or before.get("zone") != "battlefield" or any(m.oid == oid for m in found):
                continue
            found.append(Move(effect.action, oid, before, _returned_as(t, oid) if effect.action == "flicker"
                              else None, _returns_under(effect, caster, before)))
    return found


def _zone_list(obs: dict, zone: str, player) -> list:
    return ((obs.get("zones") or {}).get(zone) or {}).get(player) or []


def _name(m: Move) -> str:
    return f"{m.oid} ({m.before.get('name')})"


def _by_trigger(t: Transition, oid: str, kinds: tuple[str, ...]) -> bool:
    """Whether the log has an entry of one of ``kinds`` about ``oid`` (something that happened to it
    after it entered: an enters ability putting counters on it, damage, a shield, tapping)."""
    return any(e.get("kind") in kinds and oid in (e.get("object"), e.get("target"), e.get("affected")) for e in t.log)


# --------------------------------------------------------------------------- where it goes

@invariant("zones.moved_to_its_owners_zone", rules=("400.3", "108.3", "701.11a", "406.2"), requires=_REQUIRES,
           on=MOVING_EVENTS, on_log=("zone_change",))
def moved_to_its_owners_zone(t: Transition):
    """An exiled card is in its owner's exile zone, a card returned to hand in its owner's hand (not
    its controller's: CR 400.3, 108.3); a flickered card is not left on the battlefield as it was
    (CR 701.11a). A token may have ceased to exist (``zones.token_ceases_to_exist``)."""
    found = moves(t)
    if not found:
        return None
    out = []
    for m in found:
        after = t.after["objects"].get(m.oid)
        owner = m.before.get("owner")
        if m.kind == "flicker":
            if after is not None and after.get("zone") == "battlefield":
                out.append(f"701.11a: {_name(m)} was exiled to be returned, but the object is still on the battlefield "
                           f"(the card returns as a new object, CR 400.7)")
            continue
        zone = DESTINATION[m.kind]
        if after is None:
            if not m.before.get("token"):
                out.append(f"400.7: {_name(m)}, a card, vanished instead of going to {owner}'s {zone}")
            continue
        if after.get("zone") != zone:
            out.append(f"{'701.11a' if zone == 'exile' else '400.3'}: {_name(m)} should be in its owner's {zone}; "
                       f"it is in the {after.get('zone')}")
            continue
        if m.oid not in _zone_list(t.after, zone, owner):
            holder = [p for p, ids in ((t.after.get("zones") or {}).get(zone) or {}).items() if m.oid in (ids or ())]
            out.append(f"400.3: {_name(m)}, owned by {owner} and controlled by {m.before.get('controller')}, is in the "
                       f"{zone} of {holder or 'nobody'}, not its owner's")
        if after.get("owner") != owner:
            out.append(f"108.3: {_name(m)} was owned by {owner}; in the {zone} it is owned by {after.get('owner')}")
    return out


@invariant("zones.left_with_no_memory", rules=("400.7", "506.4", "701.15a"), requires=_REQUIRES,
           on=MOVING_EVENTS, on_log=("zone_change",))
def left_with_no_memory(t: Transition):
    """A card that went to exile or a hand remembers nothing of the permanent it was (CR 400.7): no
    counters, damage, regeneration shields (a shield is "the next time it would be destroyed this
    turn", 701.15a, of that permanent only), combat status (506.4), attachment, tapped status."""
    found = [m for m in moves(t) if m.kind != "flicker"]
    if not found:
        return None
    out = []
    checked = False
    for m in found:
        after = t.after["objects"].get(m.oid)
        if after is None or after.get("zone") == "battlefield":
            continue
        checked = True
        kept = {f: after.get(f) for f, empty in (("counters", {}), ("damage", 0), ("regeneration_shields", 0),
                                                 ("combat", None), ("attached_to", None), ("tapped", False))
                if (after.get(f) or empty) != empty}
        if kept:
            out.append(f"400.7: {_name(m)} went to the {after.get('zone')} and kept {kept}: a new object remembers "
                       f"nothing of the permanent it was")
    return out if checked else None


# --------------------------------------------------------------------------- flicker

@invariant("zones.flicker_returns_a_new_object", rules=("400.7", "610.3c", "108.3", "111.8"), requires=_REQUIRES,
           on=MOVING_EVENTS, on_log=("zone_change",))
def flicker_returns_a_new_object(t: Transition):
    """A flickered card returns as a new object (CR 400.7): the event's new id, its owner's card,
    under its owner's control (610.3c; "under your control": the caster's), the old object no
    longer anywhere in the game. A flickered token doesn't return (111.8): no object gets the new id."""
    found = [m for m in moves(t) if m.kind == "flicker"]
    if not found:
        return None
    out = []
    for m in found:
        if m.before.get("token"):
            if t.event.get("type") == "flicker" and m.new_id in t.after["objects"]:
                out.append(f"111.8: token {_name(m)} left the battlefield and can't come back, but {m.new_id} "
                           f"returned")
            elif m.new_id is not None and t.event.get("type") != "flicker":
                out.append(f"111.8: token {_name(m)} was flickered and came back as {m.new_id}")
            continue
        if m.new_id is None:
            out.append(f"610.3c: {_name(m)} was exiled and not returned to the battlefield")
            continue
        new = t.after["objects"].get(m.new_id)
        if new is None:
            out.append(f"400.7: {_name(m)} was flickered, but no object {m.new_id} (the card it returns as) exists")
            continue
        if m.oid in t.after["objects"]:
            out.append(f"400.7: {_name(m)} returned as {m.new_id}, but the old object is still in the "
                       f"{t.after['objects'][m.oid].get('zone')} (one card, two objects)")
        if new.get("owner") != m.before.get("owner"):
            out.append(f"108.3: {m.new_id} is owned by {new.get('owner')}; the card is {m.before.get('owner')}'s")
        if new.get("zone") == "battlefield" and m.returns_under is not None and new.get("controller") != m.returns_under:
            out.append(f"610.3c: {m.new_id} returned under {new.get('controller')}'s control; it returns under "
                       f"{m.returns_under}'s")
    return out


def _returned(t: Transition) -> list[tuple[Move, dict]]:
    """(move, new object) of every flickered card that is on the battlefield after the event."""
    out = []
    for m in moves(t):
        if m.kind != "flicker" or m.new_id is None or m.before.get("token"):
            continue
        new = t.after["objects"].get(m.new_id)
        if new is not None and new.get("zone") == "battlefield":
            out.append((m, new))
    return out


_ENTERS_TAPPED = re.compile(r"(?:^|\n)~ enters tapped\.")

#: What a returned object may have only when an ability of the event gave it (the log's entries of
#: those kinds about it): field, log kinds, how the kept value is described.
_GIVEN_BY_AN_ABILITY: tuple[tuple[str, tuple[str, ...], Callable[[Any], str]], ...] = (
    ("counters", ("counters_added",), lambda v: f"counters {v}"),
    ("damage", ("damage",), lambda v: f"damage {v}"),
    ("regeneration_shields", ("regeneration_shield",), lambda v: f"{v} regeneration shield(s)"),
)


def _kept_of_the_old(t: Transition, new_id: str, new: dict) -> list[str]:
    """What the new object ``new_id`` has of the old permanent (CR 400.7, 506.4, 613.7d): counters,
    damage, shields, tapping no ability of the event gave it, combat status, attachment, "until end
    of turn" effects."""
    kept = [describe(new[field]) for field, kinds, describe in _GIVEN_BY_AN_ABILITY
            if new.get(field) and not _by_trigger(t, new_id, kinds)]
    if new.get("combat"):
        kept.append(f"combat status {new['combat']!r} (506.4)")
    if new.get("attached_to") is not None:
        kept.append(f"attached to {new['attached_to']}")
    text = reader.normalise(card_text(new.get("name")), new.get("name") or "")
    if new.get("tapped") and not _ENTERS_TAPPED.search(text) and not _by_trigger(t, new_id, ("tapped",)):
        kept.append("tapped")
    if any(e.get("until_end_of_turn") for e in new.get("pt_effects") or ()) \
            and not any(e.get("kind") == "trigger" for e in t.log):
        kept.append(f"until-end-of-turn effects {[e for e in new['pt_effects'] if e.get('until_end_of_turn')]}")
    return kept


@invariant("zones.returned_object_remembers_nothing", rules=("400.7", "506.4", "701.15a", "613.7d"),
           requires=_REQUIRES, on=MOVING_EVENTS, on_log=("zone_change",))
def returned_object_remembers_nothing(t: Transition):
    """A flickered card is on the battlefield as a new object (CR 400.7): none of the old permanent's
    counters, damage, regeneration shields, combat status (506.4), attachment or "until end of turn"
    effects; untapped unless it enters tapped. What an ability of the event did to the new object
    (an enters ability's counters, damage, shield or tapping: the log) is not the old one's."""
    found = _returned(t)
    if not found:
        return None
    out = []
    for m, new in found:
        kept = _kept_of_the_old(t, cast(str, m.new_id), new)  # a returned move's new_id is never None
        if kept:
            out.append(f"400.7: {_name(m)} returned as {m.new_id} with {', '.join(kept)} of the permanent it was")
    return out


@invariant("zones.returned_creature_is_summoning_sick", rules=("302.6", "400.7"), requires=_REQUIRES,
           on=MOVING_EVENTS, on_log=("zone_change",))
def returned_creature_is_summoning_sick(t: Transition):
    """A flickered creature card returns summoning sick (CR 302.6): its controller hasn't controlled
    the new object continuously since their most recent turn began."""
    found = [(m, new) for m, new in _returned(t) if "Creature" in (new.get("types") or ())]
    if not found:
        return None
    return [f"302.6: {_name(m)} returned as the creature {m.new_id}, which is not summoning sick"
            for m, new in found if not new.get("summoning_sick")]


@invariant("zones.returned_card_enters_abilities_trigger", rules=("603.6a", "400.7"), requires=("zones", "triggers"),
           on=MOVING_EVENTS, on_log=("zone_change",))
def returned_card_enters_abilities_trigger(t: Transition):
    """A flickered card whose text says "When ~ enters, ..." enters the battlefield as a new object,
    so that ability triggers (CR 603.6a): the log has a ``trigger`` of the new object, ability "enters"."""
    out, checked = [], False
    for m, new in _returned(t):
        text = reader.normalise(card_text(new.get("name")), new.get("name") or "")
        if not re.search(r"(?:^|\n)When(?:ever)? ~ enters\b", text):
            continue
        checked = True
        if not any(e.get("kind") == "trigger" and e.get("source") == m.new_id and e.get("ability") == "enters"
                   for e in t.log):
            out.append(f"603.6a: {_name(m)} returned as {m.new_id}, but its enters ability didn't trigger")
    return out if checked else None


# --------------------------------------------------------------------------- what it leaves behind

def _attachments(t: Transition, m: Move) -> list[tuple[str, dict, str]]:
    """(id, object, "Aura" or "Equipment") of the permanents attached to the moved one before."""
    out = []
    for aid, a in t.before["objects"].items():
        if a.get("zone") != "battlefield" or a.get("attached_to") != m.oid or aid == m.oid:
            continue
        subtypes = _subtypes(a)
        if "Aura" in subtypes:
            out.append((aid, a, "Aura"))
        elif "Equipment" in subtypes:
            out.append((aid, a, "Equipment"))
    return out


def _subtypes(obj: dict) -> tuple[str, ...]:
    """Subtypes from the card data (a token whose name is no card: as observed)."""
    name = obj.get("name")
    if not isinstance(name, str):
        return tuple(obj.get("subtypes") or ())
    try:
        return tuple(cards.card(name).subtypes)
    except (cards.UnknownCardName, TypeError):
        return tuple(obj.get("subtypes") or ())


@invariant("zones.auras_left_behind_go_to_the_graveyard", rules=("704.5m", "303.4c", "400.7"), requires=_REQUIRES,
           on=MOVING_EVENTS, on_log=("zone_change",))
def auras_left_behind_go_to_the_graveyard(t: Transition):
    """An Aura attached to a permanent that was exiled, returned to hand or flickered is put into its
    owner's graveyard (CR 704.5m, 303.4c): the object it enchanted is gone, and the card that returns
    is a new object it isn't attached to (400.7). An Aura token ceases to exist there (704.5d)."""
    out, checked = [], False
    for m in moves(t):
        for aid, aura, kind in _attachments(t, m):
            if kind != "Aura":
                continue
            checked = True
            after = t.after["objects"].get(aid)
            if after is None:
                if not aura.get("token"):
                    out.append(f"400.7: Aura {aid} ({aura.get('name')}) vanished")
                continue
            if after.get("zone") != "graveyard" or aid not in _zone_list(t.after, "graveyard", aura.get("owner")):
                where = after.get("zone") + (f", attached to {after.get('attached_to')}" if after.get("attached_to")
                                             else "")
                out.append(f"704.5m: Aura {aid} ({aura.get('name')}) enchanted {_name(m)}, which left the battlefield "
                           f"({m.kind}); it must be in {aura.get('owner')}'s graveyard, and is {where}")
    return out if checked else None


@invariant("zones.equipment_left_behind_stays_unattached", rules=("704.5n", "301.5c", "400.7"), requires=_REQUIRES,
           on=MOVING_EVENTS, on_log=("zone_change",))
def equipment_left_behind_stays_unattached(t: Transition):
    """An Equipment attached to a permanent that was exiled, returned to hand or flickered stays on the
    battlefield, attached to nothing (CR 704.5n, 301.5c): not to the card that returns, a new object
    (400.7). Not applicable to one that something in the log moved or attached again."""
    out, checked = [], False
    for m in moves(t):
        for eid, equipment, kind in _attachments(t, m):
            if kind != "Equipment":
                continue
            if any(e.get("object") == eid and e.get("kind") in ("zone_change", "attached") for e in t.log):
                continue
            checked = True
            after = t.after["objects"].get(eid)
            if after is None or after.get("zone") != "battlefield":
                out.append(f"704.5n: Equipment {eid} ({equipment.get('name')}) equipped {_name(m)}, which left the "
                           f"battlefield; it stays on the battlefield, but is "
                           f"{'gone' if after is None else 'in the ' + str(after.get('zone'))}")
            elif after.get("attached_to") is not None:
                out.append(f"704.5n: Equipment {eid} ({equipment.get('name')}) equipped {_name(m)}, which left the "
                           f"battlefield ({m.kind}); it must be unattached, and is attached to {after['attached_to']}")
    return out if checked else None


@invariant("zones.token_ceases_to_exist", rules=("111.7", "111.8", "704.5d", "603.6c"), requires=_REQUIRES,
           on=MOVING_EVENTS, on_log=("zone_change",))
def token_ceases_to_exist(t: Transition):
    """A token exiled, returned to hand or flickered goes to that zone and then ceases to exist (CR
    111.7, 704.5d; 111.8: it can't come back): it is no object of the game after the event, and the
    log shows its move before it ceased (its leaves-the-battlefield abilities trigger, 603.6c)."""
    found = [m for m in moves(t) if m.before.get("token")]
    if not found:
        return None
    out = []
    for m in found:
        after = t.after["objects"].get(m.oid)
        if after is not None:
            out.append(f"704.5d: token {_name(m)} left the battlefield and still exists, in the {after.get('zone')}")
            continue
        entries = [e for e in t.log if e.get("kind") == "zone_change" and e.get("object") == m.oid]
        moved = [i for i, e in enumerate(entries) if e.get("from") == "battlefield"
                 and e.get("to") == DESTINATION[m.kind]]
        ceased = [i for i, e in enumerate(entries) if e.get("to") is None]
        if entries and (not moved or not ceased or ceased[-1] < moved[0]):
            out.append(f"111.7: token {_name(m)}'s log should move it to the {DESTINATION[m.kind]} and then cease it "
                       f"(to null); it has {[(e.get('from'), e.get('to')) for e in entries]}")
    return out


@invariant("zones.not_destruction", rules=("702.89a", "701.15a", "700.4", "603.6c"), requires=_REQUIRES,
           on=MOVING_EVENTS, on_log=("zone_change",))
def not_destruction(t: Transition):
    """Exile, return to hand and flicker are not destruction: no replacement effect of destruction
    (umbra armor, 702.89a; regeneration, 701.15a) applies to the permanent, and it doesn't die (700.4:
    "dies" is "is put into a graveyard from the battlefield"): no "dies" or "put into a graveyard"
    ability of it triggers."""
    found = moves(t)
    if not found:
        return None
    out = []
    for m in found:
        for e in t.log:
            if e.get("kind") == "replacement" and e.get("affected") == m.oid:
                out.append(f"702.89a: {e.get('effect')} replaced {_name(m)}'s {m.kind}, but it replaces destruction only")
            if e.get("kind") == "trigger" and e.get("source") == m.oid and e.get("ability") in (
                    "dies", "put into a graveyard"):
                out.append(f"700.4: {_name(m)}'s {e.get('ability')!r} ability triggered, but it went to the "
                           f"{DESTINATION[m.kind]} ({m.kind}), not a graveyard")
    return out


@invariant("zones.leaves_the_battlefield_abilities_trigger", refused=False, rules=("603.6c", "603.10a"),
           requires=("triggers", "cards:leaves trigger"))
def leaves_the_battlefield_abilities_trigger(t: Transition):
    """A permanent whose card says "When ~ leaves the battlefield, ..." triggers whatever zone it goes to
    (CR 603.6c: exile, a hand, a graveyard; a token too, before it ceases to exist), looking back in
    time (603.10a): the log has a ``trigger`` of it, ability "leaves the battlefield"."""
    if t.illegal is not None:
        return None
    out, checked = [], False
    for e in t.log:
        oid = e.get("object")
        before = t.before["objects"].get(oid) if isinstance(oid, str) else None
        if e.get("kind") != "zone_change" or e.get("from") != "battlefield" or before is None \
                or before.get("zone") != "battlefield":
            continue
        if "Continuous" in (before.get("supertypes") or ()) and before.get("tapped"):
            continue  # a tapped continuous permanent has no abilities (Orb of Origin's rulings)
        model = read_model(before.get("name"))
        if model is None or not any(a.trigger == "leaves the battlefield" for a in model.of("triggered")):
            continue
        checked = True
        if not any(x.get("kind") == "trigger" and x.get("source") == oid and x.get("ability") == "leaves the battlefield"
                   for x in t.log):
            out.append(f"603.6c: {oid} ({before.get('name')}) left the battlefield (to the {e.get('to')}), but its "
                       f"leaves-the-battlefield ability didn't trigger")
    return out if checked else None
