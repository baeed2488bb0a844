"""Static bonuses apply exactly while their source applies them (CR 611.3a, 301.5, 303.4, 613.4c, 613.1f).

"A continuous effect from a static ability ... applies at all times" while its source is on the
battlefield (CR 611.3a): an Aura's "Enchanted creature gets +N/+M and has ..." applies to the
creature it is attached to (303.4), an Equipment's "Equipped creature ..." likewise (301.5), an
anthem's "Creatures you control get +N/+M" to the creatures that match as long as it is on the
battlefield. Checked in a *differential* form, robust to what the observation doesn't show: after
an event that only moves bonus sources (attaches, or takes an Aura, an Equipment or an anthem
onto or off the battlefield), each creature on the battlefield before and after, under the same
controller and with the same counters, has its computed P/T changed by exactly the bonuses it
gained less those it lost, and has the keywords of the bonuses applying to it now; a keyword of a
bonus it lost is gone when nothing else explains it.

Not applicable when a permanent on the battlefield (before or after) is a card whose text isn't all
read (its abilities could change P/T), when a permanent is continuous (Orb of Origin: abilities
that come and go with tapping), when a trigger is in the log, or for events that change P/T
themselves (spells but destroy spells, P/T and counter events, cleanup, control changes).
"""

from __future__ import annotations

from .base import Transition, invariant
from .templates import matches, model_keywords, read_model
from .views import per_observation

#: Events that may move bonus sources and change P/T by nothing else.
_MOVING = frozenset({"attach", "sacrifice", "destroy", "activate", "put_onto_battlefield", "damage", "cast"})


@per_observation
def _sources(obs: dict):
    """``((id, obj, Ability), ...)``: the bonus static abilities of the permanents on the battlefield, or
    None when a permanent there is an unmodelled card (a name that is not a card, such as a token's,
    has no abilities but those the observation shows) or continuous. A shared view (:mod:`.views`):
    worked out once per observation for both bonus invariants, before and after each step."""
    found = []
    for oid, o in obs["objects"].items():
        if o.get("zone") != "battlefield":
            continue
        if "Continuous" in (o.get("supertypes") or ()):
            return None
        m = read_model(o.get("name"))
        if m is None:
            if _is_card(o.get("name")):
                return None
            continue
        found += [(oid, o, a) for a in m.abilities if a.kind == "static" and a.static == "bonus"]
    return tuple(found)


def _is_card(name) -> bool:
    import cards
    try:
        cards.card(name)
    except Exception:  # noqa: BLE001  unknown name: a token an effect defines
        return False
    return True


def _bonus(obs: dict, sources, cid: str, kind: str):
    """``(power, toughness, keywords, contributing source ids)`` of ``kind`` ("attached" or
    "anthem") bonuses that apply to creature ``cid`` in ``obs``; None if a filter can't be judged."""
    c = obs["objects"][cid]
    p = t = 0
    kws: set[str] = set()
    ids = set()
    for sid, s, a in sources:
        scope = a.affected.scope if a.affected else None
        if scope in ("enchanted", "equipped"):
            if kind != "attached" or s.get("attached_to") != cid:
                continue
        elif scope == "each":
            if kind != "anthem":
                continue
            m = matches(c, a.affected.kind, a.affected.filters, s.get("controller"), oid=cid, source_id=sid)
            if m is None:
                return None
            if not m:
                continue
        else:
            continue
        p, t = p + a.power, t + a.toughness
        kws |= {k.lower() for k in a.keywords}
        ids.add((sid, a.text))
    return p, t, kws, ids


def _to_read(t: Transition, kind: str, before_src: tuple, after_src: tuple):
    """``(id, object after)`` of the objects whose bonuses of ``kind`` may have moved, in the order of
    ``t.after``: for "attached", those an Aura or Equipment among the sources before (``before_src``) or
    after (``after_src``, :func:`_sources`) is attached to (any other has no attached bonus in either,
    none to move); for "anthem", every object; none when there is no bonus before or after (nothing moved)."""
    objects = t.after["objects"]
    if not (before_src or after_src):
        return ()
    if kind != "attached":
        return objects.items()
    hosts = {s.get("attached_to") for found in (before_src, after_src) for _, s, a in found
             if a.affected and a.affected.scope in ("enchanted", "equipped")}
    return [(cid, a) for cid, a in objects.items() if cid in hosts]


def _spell_or_ability_changes_pt(t: Transition) -> bool:
    """Whether the event is a spell other than a destroy spell, or an ability whose effects change
    P/T, keywords or counters themselves (so no bonus alone explains a change)."""
    e = t.event
    if e.get("type") == "cast":
        m = read_model(e.get("card"))
        if m is None or not m.of("spell") or any(x.action != "destroy" for a in m.of("spell") for x in a.effects):
            return True
    if e.get("type") == "activate":
        obj = t.before["objects"].get(e.get("object")) if isinstance(e.get("object"), str) else None
        m = read_model(obj.get("name")) if obj else None
        if m is None or any(x.action in ("pt", "gain_keywords", "counters") for a in m.of("activated")
                            for x in a.effects):
            return True
    return False


def _same_creature_on_battlefield(b: dict, a: dict) -> bool:
    """Whether ``b`` (before) and ``a`` (after) are one creature on the battlefield throughout, under
    the same controller with the same counters, whose own abilities are read and whose P/T is shown."""
    if a.get("zone") != "battlefield" or b.get("zone") != "battlefield":
        return False
    if "Creature" not in (a.get("types") or ()) or "Creature" not in (b.get("types") or ()):
        return False
    if a.get("controller") != b.get("controller") or a.get("counters") != b.get("counters"):
        return False
    if read_model(a.get("name")) is None and _is_card(a.get("name")):
        return False  # its own abilities may count Auras or Equipment
    return None not in (a.get("power"), a.get("toughness"), b.get("power"), b.get("toughness"))


def _switches(o: dict) -> int:
    """How many P/T switching effects (layer 7d) apply to ``o``."""
    return sum(1 for e in o.get("pt_effects") or () if isinstance(e, dict) and e.get("layer") == "7d")


def _lowered(keywords) -> set[str]:
    return {str(k).lower() for k in keywords or ()}


def _check_creature(cid: str, b: dict, a: dict, mine0, mine1) -> list[str]:
    """Messages for creature ``cid`` whose bonuses of the kind checked went from ``mine0`` to
    ``mine1`` (the other kind's unchanged): its P/T changed by exactly the difference (CR 611.3a), and it
    has the keywords of the bonuses applying to it now (CR 613.1f)."""
    out = []
    dp, dt = mine1[0] - mine0[0], mine1[1] - mine0[1]
    if _switches(a) % 2:  # switched after the bonus applies (layer 7d after 7c, CR 613.4d)
        dp, dt = dt, dp
    want = (b["power"] + dp, b["toughness"] + dt)
    if (a["power"], a["toughness"]) != want:
        gained = sorted(s for s, _ in mine1[3] - mine0[3])
        lost = sorted(s for s, _ in mine0[3] - mine1[3])
        out.append(f"611.3a: {cid} is {a['power']}/{a['toughness']}, expected {want[0]}/{want[1]} "
                   f"({b['power']}/{b['toughness']} {dp:+d}/{dt:+d}: bonuses gained from {gained}, lost from {lost})")
    has = _lowered(a.get("keywords"))
    missing = mine1[2] - has
    if missing:
        out.append(f"613.1f: {cid} lacks {sorted(missing)}, which the bonuses applying to it now give")
    return out


def _check_lost_keywords(cid: str, b: dict, a: dict, mine0, mine1, rest0, rest1) -> list[str]:
    """A keyword of a bonus ``cid`` lost is gone when nothing else explains it (CR 611.3a)."""
    has = _lowered(a.get("keywords"))
    # its own keywords: its card's, or a token's as the effect that created it defined them (its
    # copiable values, CR 707.2, 111.3: a Thopter token's flying)
    printed = model_keywords(a.get("name")) | _lowered((a.get("copiable") or {}).get("keywords"))
    explained = printed | mine0[2] | rest0[2]
    if _lowered(b.get("keywords")) <= explained:  # no effect of unknown duration
        gone = (mine0[2] - mine1[2] - rest1[2] - printed) & has
        if gone:
            return [f"611.3a: {cid} still has {sorted(gone)} from a bonus that no longer applies to it"]
    return []


def _check(t: Transition, kind: str, other: str):
    e = t.event
    if t.illegal is not None or e.get("type") not in _MOVING or _spell_or_ability_changes_pt(t):
        return None
    if any(x.get("kind") in ("trigger", "control_changed", "counters_added", "counters_removed") for x in t.log):
        return None
    before_src, after_src = _sources(t.before), _sources(t.after)
    if before_src is None or after_src is None:
        return None
    out: list[str] = []
    checked = False
    for cid, a in _to_read(t, kind, before_src, after_src):
        b = t.before["objects"].get(cid)
        if b is None or not _same_creature_on_battlefield(b, a):
            continue
        mine0, mine1 = _bonus(t.before, before_src, cid, kind), _bonus(t.after, after_src, cid, kind)
        rest0, rest1 = _bonus(t.before, before_src, cid, other), _bonus(t.after, after_src, cid, other)
        if mine0 is None or mine1 is None or rest0 is None or rest1 is None or mine0[3] == mine1[3] \
                or rest0[3] != rest1[3]:
            continue  # nothing of this kind moved for it, or the other kind moved too
        if _switches(b) != _switches(a):
            continue  # a switch began or ended too (layer 7d)
        checked = True
        out += _check_creature(cid, b, a, mine0, mine1)
        out += _check_lost_keywords(cid, b, a, mine0, mine1, rest0, rest1)
    return out if checked else None


@invariant("templates.attached_bonus_while_attached", rules=("611.3a", "303.4", "301.5", "613.4c", "613.1f"),
           requires=("cards:attached bonus",), on=_MOVING)
def attached_bonus_while_attached(t: Transition):
    """An Aura's or Equipment's "Enchanted/Equipped creature gets +N/+M and has <keywords>" applies
    exactly while it is attached (CR 303.4, 301.5, 611.3a): after an event that attaches, moves or
    removes one, the creature it left lost exactly that bonus and the one it joined gained it."""
    return _check(t, "attached", "anthem")


@invariant("templates.anthem_bonus_while_on_battlefield", rules=("611.3a", "613.4c", "613.1f"),
           requires=("cards:anthem",), on=_MOVING)
def anthem_bonus_while_on_battlefield(t: Transition):
    """An anthem's "Creatures you control get +N/+M and have <keywords>" applies exactly while it is on
    the battlefield (CR 611.3a): after an event that puts one onto or takes one off the battlefield,
    every creature it matches gained or lost exactly its bonus."""
    return _check(t, "anthem", "attached")
