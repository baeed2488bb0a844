"""A cast spell of a modelled card did what its model says (CR 608.2, 701.7, 120, 613.4c, 122, 119, 121, 111).

Each invariant reads the cast card's model (:func:`invariants.templates.read_model`), works
out what each effect affects on the observation before the event
(:func:`invariants.templates.affected_of`: targets in effect order, "each ..." as the spell
resolves, CR 611.2c), and checks its action's consequence in the observation after it.
Not applicable (None) for a card whose text isn't all read, a spell whose targets can't be
matched to its effects, and whenever another effect of the same event could explain a
difference (a trigger, a replacement effect, another effect of the spell on the same object).
"""

from __future__ import annotations

import cards as card_data

from .base import Transition, invariant
from .card_abilities import has_keyword
from .damage import damage_to_player
from .observed import umbra_auras
from .templates import affected_of, damage_entries, damage_marked_problems, keywords_of, read_model, replaced, triggers_logged


def _resolved(t: Transition):
    """``(effects, affected lists, caster)`` of a cast modelled spell, or None."""
    e = t.event
    if t.illegal is not None or e.get("type") != "cast":
        return None
    m = read_model(e.get("card"))
    if m is None:
        return None
    spells = m.of("spell")
    if not spells:
        return None
    effects = [x for a in spells for x in a.effects]
    if any(x.divided for x in effects):
        return None  # the damage each target gets is the caster's division: templates.divided_damage
    caster = e.get("controller")
    if caster not in t.before["players"] or not isinstance(caster, str):
        return None
    targets = e.get("targets") or []
    if not isinstance(targets, list):
        return None
    affected = affected_of(t.before, effects, caster, targets)
    if affected is None:
        return None
    return effects, affected, caster


def _of(resolved, action: str):
    effects, affected, _ = resolved
    return [(x, who) for x, who in zip(effects, affected) if x.action == action]


@invariant("templates.spell_destroys", rules=("701.7a", "701.7b"),
           requires=("destroy",), on=("cast",))
def spell_destroys(t: Transition):
    """Each permanent a modelled "Destroy target/each ..." spell affects leaves the battlefield (CR
    701.7a), unless indestructible (702.12b: it stays), regenerated (a shield it has, 701.15a, unless
    "can't be regenerated", 701.15c) or saved by umbra armor (702.89a); those two are not applicable here
    (the regeneration and umbra armor invariants check them)."""
    resolved = _resolved(t)
    if resolved is None:
        return None
    destroys = _of(resolved, "destroy")
    if not destroys:
        return None
    only_destroy = all(x.action == "destroy" for x in resolved[0]) and not triggers_logged(t)
    saved = replaced(t)
    out, checked = [], False
    for effect, who in destroys:
        for oid in who:
            before = t.before["objects"].get(oid)
            found = None if before is None else _destroyed(t, effect, oid, before, only_destroy, saved)
            if found is not None:
                checked = True
                out += found
    return out if checked else None


def _destroyed(t: Transition, effect, oid: str, before: dict, only_destroy: bool, saved: set) -> list[str] | None:
    """Permanent ``oid`` the spell destroys left the battlefield (CR 701.7a), or stayed if indestructible
    (702.12b, judged only when the spell does nothing else); None when not judged here: umbra armor
    (702.89a) or a regeneration shield (701.15a) may have saved it."""
    after = t.after["objects"].get(oid)
    on = after is not None and after.get("zone") == "battlefield"
    name = t.event.get("card")
    if "indestructible" in keywords_of(before):
        if not only_destroy:
            return None
        return [] if on else [f"702.12b: {oid} is indestructible but {name} took it off the battlefield"]
    if oid in saved or umbra_auras(t.before, oid):
        return None  # umbra armor (702.89a): its own invariants
    if before.get("regeneration_shields", 0) > 0 and not effect.cant_be_regenerated:
        return None  # a shield is used (701.15a): regeneration's invariants
    if not on:
        return []
    why = " (it can't be regenerated, 701.15c)" if effect.cant_be_regenerated and before.get(
        "regeneration_shields", 0) else ""
    return [f"701.7a: {name} destroys {oid} ({before.get('name')}) but it is still on the battlefield{why}"]


@invariant("templates.spell_deals_damage", rules=("120.3", "120.1"), requires=("damage",), on=("cast",))
def spell_deals_damage(t: Transition):
    """A modelled "~ deals N damage to ..." spell deals N damage to each object and player it affects
    (the log's ``damage`` entries from a source that is not a permanent), and a creature still on the
    battlefield, with no replacement effect applied to it, has that damage marked (CR 120.3e).
    Not applicable to an object with protection (its damage may be prevented, 702.16e)."""
    resolved = _resolved(t)
    if resolved is None:
        return None
    damages = _of(resolved, "damage")
    if not damages:
        return None
    expected: dict[str, int] = {}
    for effect, who in damages:
        for w in who:
            obj = t.before["objects"].get(w)
            if obj is not None and any(k.startswith("protection") for k in keywords_of(obj)):
                return None
            expected[w] = expected.get(w, 0) + effect.amount
    permanents = set(t.before["objects"])
    dealt: dict[str | None, int] = {}  # recipient (None: an entry without a target) -> damage
    for d in damage_entries(t):
        if d.get("source") not in permanents:
            dealt[d.get("target")] = dealt.get(d.get("target"), 0) + d["amount"]
    out = []
    for w, n in expected.items():
        if dealt.get(w, 0) != n:
            out.append(f"120.3: {t.event.get('card')} deals {n} damage to {w}; the log shows {dealt.get(w, 0)}")
    for w in dealt.keys() - expected.keys():
        out.append(f"120.3: {t.event.get('card')} dealt {dealt[w]} damage to {w}, which it doesn't affect")
    return out + damage_marked_problems(t, expected.items())


@invariant("templates.spell_changes_life", rules=("119.3", "120.3a", "608.2"), requires=("cards:life spell",),
           on=("cast",))
def spell_changes_life(t: Transition):
    """After a modelled spell with life in it ("you gain N life", "target player loses N life", damage
    to players), each player's life is as before plus what its effects give and less the damage it
    deals them (CR 119.3, 120.3a). Not applicable when a trigger or a lifelink source is in the log,
    or for a spell at a player that ``damage.player_loses_life`` checks."""
    resolved = _resolved(t)
    if resolved is None:
        return None
    effects, affected, caster = resolved
    if not _changes_life(t, effects, affected):
        return None
    expected = {pid: p["life"] for pid, p in t.before["players"].items()}
    for x, who in zip(effects, affected):
        for w in who:
            if w not in expected:
                continue
            expected[w] += {"gain_life": x.amount, "lose_life": -x.amount, "damage": -x.amount}.get(x.action, 0)
    return [f"119.3: {pid} has {t.after['players'][pid]['life']} life after {t.event.get('card')}; expected {life} "
            f"(before {t.before['players'][pid]['life']})"
            for pid, life in expected.items() if t.after["players"].get(pid, {}).get("life") != life]


def _changes_life(t: Transition, effects: list, affected: list) -> bool:
    """Whether the spell's effects change life (gain, loss, damage to a player, CR 119.3, 120.3a) and
    nothing else could: no damage event at a player (``damage.player_loses_life``'s), no trigger, no
    amount read from the game (``templates.life_from_the_game``'s), no damage by a permanent."""
    if not any(x.action in ("gain_life", "lose_life") or (x.action == "damage" and any(
            w in t.before["players"] for w in who)) for x, who in zip(effects, affected)):
        return False
    if damage_to_player(t.before, t.event) is not None or triggers_logged(t):
        return False
    if any(x.per is not None or x.equal_to is not None for x in effects):
        return False  # an amount read from the game: templates.life_from_the_game
    return not any(d.get("source") in t.before["objects"] for d in damage_entries(t))  # nothing of the spell's


def _untouched(t: Transition, oid: str, effects, affected, action: str) -> bool:
    """Whether nothing but ``action`` effects of the spell affects ``oid`` and the event changed
    no other permanent (no zone change, attachment, control change or trigger)."""
    if any(oid in who and x.action != action and not (action == "pt" and x.action == "gain_keywords")
           for x, who in zip(effects, affected)):
        return False
    return not any(e.get("kind") in ("zone_change", "attached", "unattached", "control_changed", "trigger")
                   for e in t.log)


@invariant("templates.spell_pt_until_end_of_turn", rules=("613.4c", "611.2c", "613.1f"),
           requires=("pt_until_end_of_turn",), on=("cast",))
def spell_pt_until_end_of_turn(t: Transition):
    """Each creature a modelled "... get(s) +N/+M until end of turn" spell affects has its computed
    power and toughness changed by exactly +N/+M (layer 7c, CR 613.4c) and has the keywords it gains
    (613.1f); the set of creatures is fixed as it resolves (611.2c). Not applicable when the event
    changed other permanents (zone changes, attachments, triggers) or the creature's counters."""
    resolved = _resolved(t)
    if resolved is None:
        return None
    effects, affected, _ = resolved
    delta: dict[str, list] = {}
    for x, who in zip(effects, affected):
        if x.action in ("pt", "gain_keywords"):
            for oid in who:
                d = delta.setdefault(oid, [0, 0, set()])
                d[0] += x.power
                d[1] += x.toughness
                d[2] |= set(x.keywords)
    out, checked = [], False
    for oid, (p, tough, kws) in delta.items():
        before, after = t.before["objects"].get(oid), t.after["objects"].get(oid)
        if before is None or after is None or after.get("zone") != "battlefield" or (
                after.get("counters") != before.get("counters")) or not _untouched(t, oid, effects, affected, "pt"):
            continue
        if before.get("power") is None or before.get("toughness") is None:
            continue
        checked = True
        out += _pumped(t, oid, before, after, (p, tough), kws)
    return out if checked else None


def _pumped(t: Transition, oid: str, before: dict, after: dict, change: tuple[int, int], kws: set) -> list[str]:
    """Creature ``oid``'s computed P/T changed by exactly ``change`` (layer 7c, CR 613.4c) and it has the
    keywords ``kws`` it gains (613.1f)."""
    out = []
    p, tough = change
    want = (before["power"] + p, before["toughness"] + tough)
    if (after.get("power"), after.get("toughness")) != want:
        out.append(f"613.4c: {oid} is {after.get('power')}/{after.get('toughness')} after {t.event.get('card')}; "
                   f"expected {want[0]}/{want[1]} ({before['power']}/{before['toughness']} {p:+d}/{tough:+d})")
    missing = {k for k in kws if k not in {str(x).lower() for x in after.get("keywords") or ()}}
    if missing:
        out.append(f"613.1f: {oid} should have {sorted(missing)} until end of turn after {t.event.get('card')}")
    return out


@invariant("templates.spell_puts_counters", rules=("122.1", "122.6", "704.5q"),
           requires=("counters", "cards:counters spell"), on=("cast",))
def spell_puts_counters(t: Transition):
    """Each permanent a modelled "Put N +1/+1 (-1/-1) counters on ..." spell affects has N more of them
    (CR 122.6), counted net of +1/+1 and -1/-1 annihilating (704.5q)."""
    resolved = _resolved(t)
    if resolved is None:
        return None
    effects, affected, _ = resolved
    net: dict[str, int] = {}
    for x, who in zip(effects, affected):
        if x.action == "counters":
            for oid in who:
                net[oid] = net.get(oid, 0) + (x.amount if x.counter == "+1/+1" else -x.amount)
    out, checked = [], False

    def value(obj):
        c = obj.get("counters") or {}
        return c.get("+1/+1", 0) - c.get("-1/-1", 0)

    for oid, n in net.items():
        before, after = t.before["objects"].get(oid), t.after["objects"].get(oid)
        if before is None or after is None or after.get("zone") != "battlefield":
            continue
        checked = True
        if value(after) - value(before) != n:
            out.append(f"122.6: {t.event.get('card')} puts net {n:+d} +1/+1 counters on {oid}; its counters went "
                       f"{before.get('counters')} -> {after.get('counters')}")
    return out if checked else None


def _drawn(resolved) -> dict[str, int]:
    """The cards each player the spell's "draw" effects affect draws."""
    draws: dict[str, int] = {}
    for x, who in _of(resolved, "draw"):
        for p in who:
            draws[p] = draws.get(p, 0) + x.amount
    return draws


@invariant("templates.spell_draws", rules=("121.1", "121.2"), requires=("library", "cards:draw spell"), on=("cast",))
def spell_draws(t: Transition):
    """A player a modelled "Draw N cards" spell affects puts the top N cards of their library into
    their hand (CR 121.1, 121.2): hand +N, library -N, the new hand cards from their library.
    Not applicable when zones are not observed or the library has fewer than N cards."""
    resolved = _resolved(t)
    if resolved is None:
        return None
    draws = _drawn(resolved)
    if not draws or triggers_logged(t):
        return None
    zones_before, zones_after = t.before.get("zones"), t.after.get("zones")
    if not isinstance(zones_before, dict) or not isinstance(zones_after, dict):
        return None
    out, checked = [], False
    for p, n in draws.items():
        (h0, l0), (h1, l1) = [[list((z.get(k) or {}).get(p) or []) for k in ("hand", "library")]
                              for z in (zones_before, zones_after)]
        if len(l0) < n:
            continue
        checked = True
        new = [c for c in h1 if c not in h0]
        if len(h1) - len(h0) != n or len(l0) - len(l1) != n or not set(new) <= set(l0):
            out.append(f"121.1: {p} draws {n} card(s) by {t.event.get('card')} but their hand went {len(h0)} -> "
                       f"{len(h1)} and library {len(l0)} -> {len(l1)}")
    return out if checked else None


def _new_objects(t: Transition) -> list:
    """The objects the event created: new after it, or logged as coming from nowhere and gone again."""
    created = [oid for oid in t.after["objects"] if oid not in t.before["objects"]]
    created += [e.get("object") for e in t.log if e.get("kind") == "zone_change" and e.get("from") is None
                and e.get("object") not in t.after["objects"] and e.get("object") not in t.before["objects"]]
    return list(dict.fromkeys(created))


def _token_problems(oid, obj: dict, token, caster: str) -> list[str]:
    """How the token ``obj`` differs from the characteristics the effect defines (CR 111.3), under its
    caster's control and ownership (111.2)."""
    out = []
    got = (obj.get("token"), obj.get("controller"), obj.get("owner"), sorted(obj.get("colors") or ()),
           sorted(obj.get("types") or ()), sorted(obj.get("subtypes") or ()))
    exp = (True, caster, caster, sorted(token.colors), sorted(token.types), sorted(token.subtypes))
    if got != exp:
        out.append(f"111.3: {oid} is (token, controller, owner, colors, types, subtypes) {got}; expected {exp}")
    base = obj.get("copiable")
    if isinstance(base, dict) and (base.get("power"), base.get("toughness")) != (token.power, token.toughness):
        out.append(f"111.3: {oid}'s copiable P/T is {base.get('power')}/{base.get('toughness')}; the effect "
                   f"defines {token.power}/{token.toughness}")
    missing = set(token.keywords) - {str(k).lower() for k in obj.get("keywords") or ()}
    if missing:
        out.append(f"111.3: {oid} lacks {sorted(missing)}")
    return out


@invariant("templates.spell_creates_tokens", rules=("111.1", "111.2", "111.3", "111.4"), requires=("tokens",),
           on=("cast",))
def spell_creates_tokens(t: Transition):
    """A modelled "Create N P/T <colors> <Subtypes> creature tokens" spell puts exactly N new tokens onto
    the battlefield under its caster's control (CR 111.2), each with the characteristics the effect
    defines (111.3): name "<Subtypes> Token" (111.4), colors, types, subtypes, P/T (the copiable values
    if observed) and keywords."""
    resolved = _resolved(t)
    if resolved is None:
        return None
    effects, _, caster = resolved
    makes = [x for x in effects if x.action == "create_tokens" and x.token is not None]
    if not makes or len(makes) != len([x for x in effects if x.action == "create_tokens"]):
        return None
    created = _new_objects(t)
    want = sum(x.amount for x in makes)
    out = []
    if len(created) != want:
        out.append(f"111.2: {t.event.get('card')} creates {want} token(s); {len(created)} new object(s) {created}")
    defs = {x.token.name: x.token for x in makes}
    for oid in created:
        obj = t.after["objects"].get(oid)
        if obj is None:
            continue
        token = defs.get(obj.get("name"))
        if token is None:
            out.append(f"111.4: {oid} is named {obj.get('name')!r}; the tokens are {sorted(defs)}")
        else:
            out += _token_problems(oid, obj, token, caster)
    return out


def _permanent_card(name):
    """The card ``name`` if it is a permanent card (CR 110.4a: not an instant or sorcery), else None."""
    try:
        card = card_data.card(name)
    except (KeyError, TypeError, ValueError, LookupError):
        return None
    return card if card.types and not {"Instant", "Sorcery"} & set(card.types) else None


def _entered_problems(t: Transition, oid: str, obj: dict, card, caster) -> list[str]:
    """The permanent ``obj`` a cast of ``card`` put onto the battlefield is under its caster's control
    (CR 608.3a), summoning sick if a creature (302.6), attached to its target if an Aura (608.3c)."""
    out = []
    if obj.get("controller") != caster:
        out.append(f"608.3a: {oid} ({card.name}) entered under {obj.get('controller')}'s control; {caster} cast it")
    if "Creature" in (obj.get("types") or ()) and obj.get("summoning_sick") is False:
        out.append(f"302.6: creature {oid} ({card.name}) just entered the battlefield and is not summoning sick")
    targets = t.event.get("targets") or []
    if "Aura" in card.subtypes and len(targets) == 1 and obj.get("attached_to") != targets[0]:
        out.append(f"608.3c: Aura {oid} ({card.name}) targeted {targets[0]} but is attached to "
                   f"{obj.get('attached_to')}")
    return out


@invariant("spells.permanent_spell_enters", refused=False,
           rules=("608.3", "608.3a", "608.3c", "303.4a", "302.6", "110.2"),
           requires=("cast_permanents", "cards:permanent spells"), on=("cast",))
def permanent_spell_enters(t: Transition):
    """A permanent spell that was cast resolves: it becomes a permanent and enters the battlefield
    under its caster's control (CR 608.3a), a creature summoning sick (302.6), an Aura attached to
    the object it targeted (608.3c, 303.4a).

    Applies to an accepted ``cast`` of a permanent card with a new ``id``. It may leave again
    during the same event (a state-based action, an ability): the log then shows it leaving the
    battlefield, and only its having entered is checked. An event refused (IllegalAction) is
    not applicable (an Aura spell with an illegal target doesn't resolve, 608.3b).
    """
    e = t.event
    if t.illegal is not None or e.get("type") != "cast" or not isinstance(e.get("id"), str):
        return None
    card = _permanent_card(e.get("card"))
    caster = e.get("controller")
    if card is None or caster not in t.before["players"] or e["id"] in t.before["objects"]:
        return None
    oid, obj = e["id"], t.after["objects"].get(e["id"])
    if obj is not None and obj.get("zone") == "battlefield":
        return _entered_problems(t, oid, obj, card, caster)
    if any(x.get("kind") == "zone_change" and x.get("object") == oid and x.get("from") == "battlefield"
           for x in t.log):
        return []  # it entered and left again during the event
    where = "no object" if obj is None else f"in the {obj.get('zone')}"
    return [f"608.3a: {card.name} was cast by {caster} and resolved, but {oid} is {where}, not on the "
            f"battlefield"]


__all__ = ["permanent_spell_enters", "spell_destroys", "spell_deals_damage", "spell_changes_life", "spell_pt_until_end_of_turn",
           "spell_puts_counters", "spell_draws", "spell_creates_tokens", "has_keyword"]
