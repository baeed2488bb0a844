"""Layers and counters: CR 613 (interaction of continuous effects), 122 and 704.5q (counters), and
the Gatherer rulings of Octopus Umbra about them; the helpers the copy invariants
(:mod:`invariants.copies`) read too.

The observation fields these invariants read (``harness.protocol``): per object
``copiable`` (its copiable values, CR 707.2), ``pt_effects`` (the continuous effects on
its power and toughness in timestamp order, with their layer), ``counters``,
``mana_cost`` and ``mana_value``; log entries ``counters_added``, ``counters_removed``,
``trigger`` and ``zone_change`` with cause ``create_token`` / ``copy_of``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import invariants.card_abilities as card_abilities
from .base import Transition, invariant
from .generic import _changed_objects
from .on_change import IdsWhere, removed_ids
from .views import per_step

LAYERS = frozenset({"layers", "observe.pt_effects", "observe.copiable"})

OCTOPUS_1 = ("Octopus Umbra None: Octopus Umbra overwrites all previous effects that set the creature's base "
             "power and toughness")
OCTOPUS_2 = "Octopus Umbra None: Any power- or toughness-modifying effects (those that give +N/+N, for example)"

#: Auras whose static ability sets base power and toughness (layer 7b): read from the card data.
SETTING_AURAS = card_abilities.setting_auras()

_COUNTER = re.compile(r"^([+-])(\d+)/([+-])(\d+)$")


# ----------------------------------------------------------------- helpers
def counter_pt(kind: str) -> tuple[int, int] | None:
    """(power, toughness) one counter of ``kind`` gives (CR 122.1a), None for other counters."""
    m = _COUNTER.match(kind) if isinstance(kind, str) else None
    if m is None:
        return None
    ps, p, ts, t = m.groups()
    return (int(p) if ps == "+" else -int(p)), (int(t) if ts == "+" else -int(t))


def layered_pt(obj: dict) -> tuple[int, int] | None:
    """Power and toughness of an observed permanent recomputed in layer order (CR 613.4).

    From the copiable power and toughness (layer 1), 7b: setting effects in timestamp
    order, the latest wins; 7c: every modifying effect and every counter, whenever it
    started; 7d: each switch. None if it has no power and toughness.
    """
    copiable = obj.get("copiable") or {}
    power, toughness = copiable.get("power"), copiable.get("toughness")
    if power is None or toughness is None:
        return None
    effects = obj.get("pt_effects") or []
    for e in effects:
        if e.get("layer") == "7b":
            power, toughness = e["power"], e["toughness"]
    for e in effects:
        if e.get("layer") == "7c":
            power += e["power"]
            toughness += e["toughness"]
    for kind, n in (obj.get("counters") or {}).items():
        pt = counter_pt(kind)
        if pt:
            power += pt[0] * n
            toughness += pt[1] * n
    for e in effects:
        if e.get("layer") == "7d":
            power, toughness = toughness, power
    return power, toughness


@per_step
def entered(t: Transition) -> list[tuple[str, dict]]:
    """(id, zone_change entry) of every object that entered the battlefield from nowhere in this event
    (a list shared by the checks of the step, :func:`.views.per_step`: callers must not change it)."""
    return [(e["object"], e) for e in t.log
            if e.get("kind") == "zone_change" and e.get("from") is None and e.get("to") == "battlefield"]


def moved_in_event(t: Transition, oid: str) -> bool:
    """Whether ``oid`` changed zones during the event (then it is a new object, CR 400.7)."""
    return any(e.get("kind") == "zone_change" and e.get("object") == oid for e in t.log)


def on_battlefield_after(t: Transition, oid: str) -> dict | None:
    obj = t.after["objects"].get(oid)
    return obj if obj is not None and obj["zone"] == "battlefield" else None


def counters_added(t: Transition, oid: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in t.log:
        if e.get("kind") == "counters_added" and e.get("object") == oid:
            out[e["counter"]] = out.get(e["counter"], 0) + e["amount"]
    return out


def counters_annihilated(t: Transition, oid: str) -> int:
    """The +1/+1 and -1/-1 counter pairs 704.5q removed from ``oid`` during the event: as the log's
    ``counters_removed`` entries say; without one, what the observations show (an engine need not
    log the removal): every pair removed, when the counters after are the counters before plus
    those added less that many of each kind, else none."""
    logged = [e for e in t.log if e.get("kind") == "counters_removed" and e.get("object") == oid
              and e.get("rule") == "704.5q"]
    if logged:
        return sum(e.get("amount", 0) for e in logged)
    before = (t.before["objects"].get(oid) or {}).get("counters") or {}
    after = (t.after["objects"].get(oid) or {}).get("counters") or {}
    added = counters_added(t, oid)
    plus, minus = (before.get(k, 0) + added.get(k, 0) for k in ("+1/+1", "-1/-1"))
    pairs = min(plus, minus)
    if pairs and (after.get("+1/+1", 0), after.get("-1/-1", 0)) == (plus - pairs, minus - pairs):
        return pairs
    return 0


def expected_counters(before: dict, t: Transition, oid: str) -> dict[str, int]:
    """Counters ``before`` plus those the log says were added, minus the 704.5q pairs removed."""
    counts = dict(before)
    for kind, n in counters_added(t, oid).items():
        counts[kind] = counts.get(kind, 0) + n
    gone = counters_annihilated(t, oid)
    if gone:
        for kind in ("+1/+1", "-1/-1"):
            counts[kind] = counts.get(kind, 0) - gone
    return {k: v for k, v in counts.items() if v}


#: The event types that can start a setting effect (:func:`new_setting_effects`: on any other, none).
SETTING_EVENTS = ("set_base_pt", "put_onto_battlefield", "attach")


def new_setting_effects(t: Transition) -> list[tuple[str, str | None]]:
    """(creature id, source) of each setting effect (layer 7b) this event starts on a creature.

    ``set_base_pt`` (source ``"set_base_pt"``), and an Octopus Umbra entering attached or
    becoming attached (source: the Aura's id, CR 613.7e).
    """
    ev = t.event
    kind = ev.get("type")
    out: list[tuple[str | None, str | None]] = []
    if kind == "set_base_pt":
        out.append((ev.get("object"), "set_base_pt"))
    elif kind == "put_onto_battlefield" and ev.get("card") in SETTING_AURAS and ev.get("attach_to"):
        out.append((ev["attach_to"], ev.get("id")))
    elif kind == "attach":
        aura = t.before["objects"].get(ev.get("aura"))
        if aura is not None and aura["name"] in SETTING_AURAS:
            out.append((ev.get("to"), ev.get("aura")))
    return [(oid, src) for oid, src in out
            if isinstance(oid, str) and on_battlefield_after(t, oid) and not moved_in_event(t, oid)]


def each_case(t: Transition, cases_of: Callable[[Transition], Sequence[tuple]],
              problems: Callable[..., list[str]]) -> list[str] | None:
    """What an invariant about the cases an event makes returns: None (it does not apply) for an illegal
    event or one in which ``cases_of`` finds no case; else the problems ``problems(t, *case)`` finds in
    each case, in order."""
    if t.illegal is not None:
        return None
    cases = cases_of(t)
    if not cases:
        return None
    return [problem for case in cases for problem in problems(t, *case)]


def _effects(obj: dict, layer: str) -> list[dict]:
    return [e for e in obj.get("pt_effects") or [] if e.get("layer") == layer]


def _still_applies(t: Transition, oid: str, effect: dict) -> bool:
    """Whether an effect on ``oid`` before the event can still apply after it: a resolved
    effect lasts until cleanup; an Aura's static effect lasts while the Aura stays
    attached (the event may have destroyed it, e.g. by umbra armor)."""
    if effect.get("until_end_of_turn"):
        return True
    source = t.after["objects"].get(effect.get("source") or "")
    return source is not None and source["zone"] == "battlefield" and source["attached_to"] == oid


# ---------------------------------------------------------------- layers
@invariant(
    "layers.power_toughness_in_layer_order",
    rules=("613.1", "613.4b", "613.4c", "613.4d", "613.7", "122.1a"),
    rulings=(OCTOPUS_1, OCTOPUS_2),
    requires=LAYERS,
)
def power_toughness_in_layer_order(t: Transition):
    """Every creature's power and toughness is its copiable P/T with its effects applied in layer order.

    7b setting effects in timestamp order (the latest wins), then 7c: every modifying
    effect and every counter, +1/+0 and -0/-1 ones included, whenever it started, then
    7d switches. A setting effect never wipes out counters or modifying effects.

    Checked on change only: each creature's verdict depends on it alone, so after an observation
    found sound only the objects new or changed since (:func:`invariants.generic._changed_objects`)
    are checked; the unchanged creatures checked then still make it apply.
    """
    after, before = t.after, t.before
    objects = after["objects"]
    held: frozenset = _NO_IDS  # the creatures checked before (on change only)
    removed: set | frozenset = _NO_IDS  # the ids gone since
    same = False  # whether the creatures checked are those checked before (on change: none joins or leaves)
    if before is _layered_sound[0] and before is not after:
        held = _layered_sound[1]
        objects = _changed_objects(after, before)
        removed = removed_ids(after, before)  # the ids checked before are before's: less those gone
        same = not removed or held.isdisjoint(removed)
    out: list[str] = []
    checked: list[str] = []
    same = _check_layered(objects, out, checked, held) and same
    if same:  # each changed creature was checked before and is again: the ids checked are the same
        _layered_sound[:] = (None, frozenset()) if out else (after, held)
        return out if checked or held else None
    kept = held.difference(removed, objects) if held and (objects or removed) else held  # checked, unchanged since
    _layered_sound[:] = (None, frozenset()) if out else (after, kept.union(checked) if checked else kept)
    return out if checked or kept else None


def _check_layered(objects: dict, out: list[str], checked: list[str], held: frozenset) -> bool:
    """Check the creatures on the battlefield among ``objects`` (by id) that have a power and toughness: their
    messages added to ``out``, their ids to ``checked``. Whether each of ``objects`` is one of ``held``
    exactly when it is checked (then ``held`` less ``objects`` plus ``checked`` is ``held``)."""
    same = True
    for oid, o in objects.items():
        if o["zone"] != "battlefield" or "Creature" not in o["types"] or (expected := layered_pt(o)) is None:
            same = same and oid not in held
            continue
        checked.append(oid)
        same = same and oid in held
        if (o["power"], o["toughness"]) != expected:
            out.append(f"{oid} ({o['name']}) is {o['power']}/{o['toughness']} but its copiable P/T "
                       f"{o['copiable'].get('power')}/{o['copiable'].get('toughness')}, effects "
                       f"{[(e['layer'], e.get('power'), e.get('toughness'), e.get('source')) for e in o['pt_effects']]}"
                       f" and counters {o['counters']} give {expected[0]}/{expected[1]} in layer order")
    return same


#: [the last observation power_toughness_in_layer_order found sound (by reference), the ids of the
#: creatures it checked there (a frozenset)].
_layered_sound: list = [None, frozenset()]


@invariant(
    "layers.later_setting_effect_wins",
    rules=("613.4b", "613.7", "613.7a", "613.7b", "613.7e"),
    rulings=(OCTOPUS_1,),
    requires=LAYERS,
    on=SETTING_EVENTS,
)
def later_setting_effect_wins(t: Transition):
    """A setting effect that starts to apply is applied after every earlier one (its timestamp is the latest).

    An Octopus Umbra that enters attached or becomes attached gets a new timestamp
    (613.7e) and overwrites earlier setting effects; a later "base power and toughness
    N/N" effect overwrites it. Earlier setting effects are not removed, only overridden.
    """
    return each_case(t, new_setting_effects, _not_the_latest_setting_effect)


def _not_the_latest_setting_effect(t: Transition, oid: str, source: str | None) -> list[str]:
    """later_setting_effect_wins for the setting effect from ``source`` that started to apply to ``oid``."""
    out = []
    after = t.after["objects"][oid]
    setting = _effects(after, "7b")
    if not setting or setting[-1].get("source") != source:
        out.append(f"the setting effect from {source} started to apply to {oid} but is not the latest of its "
                   f"layer 7b effects {[e.get('source') for e in setting]}")
    before = t.before["objects"].get(oid)
    if before is not None:
        earlier = [e for e in _effects(before, "7b") if e.get("source") != source and _still_applies(t, oid, e)]
        still = [e for e in setting if e.get("source") != source]
        if earlier != still:
            out.append(f"the earlier setting effects on {oid} changed from {earlier} to {still} when {source} "
                       f"started to apply")
    return out


@invariant(
    "layers.modifying_effects_and_counters_still_apply",
    rules=("613.4b", "613.4c", "122.1a"),
    rulings=(OCTOPUS_2,),
    requires=LAYERS | {"counters"},
    on=SETTING_EVENTS,
)
def modifying_effects_and_counters_still_apply(t: Transition):
    """When a setting effect starts to apply, the creature's modifying effects and counters stay and apply on top.

    Octopus Umbra ruling: "+N/+N" effects and counters "will apply to the creature's
    new base power and toughness, even if they started to apply before Octopus Umbra
    became attached."
    """
    return each_case(t, new_setting_effects, _modifying_effects_or_counters_lost)


def _modifying_effects_or_counters_lost(t: Transition, oid: str, source: str | None) -> list[str]:
    """modifying_effects_and_counters_still_apply for the setting effect from ``source`` that started to apply
    to ``oid``."""
    before, after = t.before["objects"].get(oid), t.after["objects"][oid]
    if before is None:
        return []
    out = []
    still = [e for e in _effects(before, "7c") if _still_applies(t, oid, e)]
    if _effects(after, "7c") != still:
        out.append(f"{oid}'s modifying effects changed from {still} to {_effects(after, '7c')} "
                   f"when the setting effect from {source} started")
    if after["counters"] != expected_counters(before["counters"], t, oid):
        out.append(f"{oid}'s counters changed from {before['counters']} to {after['counters']} when the "
                   f"setting effect from {source} started")
    base = _effects(after, "7b")[-1] if _effects(after, "7b") else None
    if base is not None and base.get("source") == source:
        p, t_ = base["power"], base["toughness"]
        for e in _effects(after, "7c"):
            p, t_ = p + e["power"], t_ + e["toughness"]
        for kind, n in after["counters"].items():
            pt = counter_pt(kind)
            if pt:
                p, t_ = p + pt[0] * n, t_ + pt[1] * n
        if len(_effects(after, "7d")) % 2:
            p, t_ = t_, p
        if (after["power"], after["toughness"]) != (p, t_):
            out.append(f"{oid} is {after['power']}/{after['toughness']}; base {base['power']}/{base['toughness']} "
                       f"from {source} with its modifying effects and counters on top gives {p}/{t_}")
    return out


def _entered_unaffected(t: Transition, oid: str, obj: dict) -> list[str]:
    """A permanent that entered during the event is affected by no earlier resolved effect (CR 611.2c), only
    by static abilities: an anthem's (its source attached to nothing, 611.3a), or an Aura's or Equipment's
    attached to it."""
    out = []
    for e in obj.get("pt_effects") or []:
        source = t.after["objects"].get(e.get("source") or "")
        # a static ability's effect (an anthem: its source attached to nothing) applies to what enters
        # (CR 611.3a); an Aura's or Equipment's only to what it is attached to
        if e.get("until_end_of_turn") or source is None or source.get("attached_to") not in (oid, None):
            out.append(f"{oid} entered during this event but is affected by {e} (CR 611.2c)")
    return out


def _created_effects(obj: dict) -> int:
    return len([e for e in obj.get("pt_effects") or [] if e.get("source") == "create_effect"])


def _created_effect_affects_the_controllers_creatures(t: Transition) -> list[str]:
    """``create_effect`` adds one effect to each creature its controller controls as it resolves and none to
    any other (CR 611.2c, 613.7b)."""
    out = []
    controller = t.event.get("controller")
    for oid, o in t.after["objects"].items():
        before = t.before["objects"].get(oid)
        if o["zone"] != "battlefield" or before is None or before["zone"] != "battlefield" \
                or moved_in_event(t, oid) or "Creature" not in before["types"]:
            continue
        new = _created_effects(o) - _created_effects(before)
        wanted = 1 if before["controller"] == controller else 0
        if new != wanted:
            out.append(f"create_effect by {controller} added {new} effect(s) to {oid} controlled by "
                       f"{before['controller']}, expected {wanted}")
    return out


@invariant(
    "layers.resolved_effects_affect_a_fixed_set", refused=False,
    rules=("611.2c", "613.7b"),
    requires=LAYERS,
)
def resolved_effects_affect_a_fixed_set(t: Transition):
    """An effect from a resolved spell affects only the objects it affected as it resolved.

    A permanent that enters is affected by no earlier "until end of turn" effect (only by
    the Auras attached to it); ``create_effect`` ("creatures you control get +N/+N until
    end of turn") affects exactly the creatures its controller controls as it resolves.
    """
    if t.illegal is not None:
        return None
    out = []
    applicable = False
    for oid, _ in entered(t):
        obj = on_battlefield_after(t, oid)
        if obj is None:
            continue
        applicable = True
        out += _entered_unaffected(t, oid, obj)
    if t.event.get("type") == "create_effect":
        applicable = True
        out += _created_effect_affects_the_controllers_creatures(t)
    return out if applicable else None


@invariant(
    "layers.until_end_of_turn_effects_end", refused=False,
    rules=("514.2", "611.2a"),
    requires=LAYERS | {"cleanup"},
    on=("cleanup",),
)
def until_end_of_turn_effects_end(t: Transition):
    """After the cleanup step no "until end of turn" power/toughness effect is left; Aura effects stay."""
    if t.illegal is not None or t.event.get("type") != "cleanup":
        return None
    return [f"{oid} still has {e} after cleanup" for oid, o in t.after["objects"].items()
            for e in o.get("pt_effects") or [] if e.get("until_end_of_turn")]


# -------------------------------------------------------------- counters
#: The objects with counters (in any zone) of the step's observations (kept on change: :mod:`.on_change`).
_WITH_COUNTERS = IdsWhere(lambda o: bool(o["counters"]))
#: The objects with a counter count that is 0 (in any zone) of the step's observations (kept on change).
_ZERO_COUNTS = IdsWhere(lambda o: not all(o["counters"].values()))
_NO_IDS: frozenset = frozenset()


def _moved_and_touched(log: list[dict]) -> tuple[set | frozenset, set | frozenset]:
    """The ids the log moves (``zone_change`` entries) and those it adds or removes counters of, in one pass
    (shared empty frozensets for an empty log)."""
    if not log:
        return _NO_IDS, _NO_IDS
    moved, touched = set(), set()
    for e in log:
        kind = e.get("kind")
        if kind == "zone_change":
            moved.add(e.get("object"))
        elif kind == "counters_added" or kind == "counters_removed":
            touched.add(e.get("object"))
    return moved, touched


def _counters_to_read(t: Transition, touched: set | frozenset) -> dict:
    """The objects of ``t.after`` whose counters :func:`counters_change_only_by_counter_events` must
    read, in the order of ``t.after``: the new or changed ones (:func:`_changed_objects`), those the log
    adds or removes counters of, and those with a counter count that is 0 (an object equal to its
    version before, whose counters the log names not, is found only if it has one: the counters
    expected are its counters before without the zero counts), from an index kept on change
    (:data:`_ZERO_COUNTS`)."""
    objects = t.after["objects"]
    changed = _changed_objects(t.after, t.before)
    zero = _ZERO_COUNTS.pair(t.before, t.after)[1]
    if not touched and not zero:
        return changed  # nothing to read but the changed objects
    extra = {oid for oid in touched if oid in objects} if touched else set()
    extra.update(zero)
    if extra.issubset(changed):
        return changed
    return {oid: o for oid, o in objects.items() if oid in changed or oid in extra}


@invariant(
    "counters.change_only_by_counter_events", refused=False,
    rules=("122.1", "122.3", "704.5q", "702.89a"),
    requires=frozenset({"counters"}),
)
def counters_change_only_by_counter_events(t: Transition):
    """A permanent's counters change only as the log says: added, or +1/+1 and -1/-1 pairs removed (704.5q).

    Nothing else removes counters: not a setting effect, not a switch, not umbra armor
    (it removes damage, never counters), not Giant Growth. Read on change: the objects of
    :func:`_counters_to_read` only (the others give no message), none when no object of either
    observation has counters (:data:`_WITH_COUNTERS`).
    """
    if t.illegal is not None:
        return None
    had, has = _WITH_COUNTERS.pair(t.before, t.after)
    if not had and not has:
        return None  # no counters anywhere: nothing to check
    out = []
    moved, touched = _moved_and_touched(t.log)
    olds = t.before["objects"]
    for oid, after in _counters_to_read(t, touched).items():
        before = olds.get(oid)
        if before is None or before["zone"] != "battlefield" or after["zone"] != "battlefield" or oid in moved:
            continue
        had = before["counters"]
        expected = expected_counters(had, t, oid) if oid in touched else \
            ({k: v for k, v in had.items() if v} if had else {})  # the log names no counter of it
        if after["counters"] != expected:
            out.append(f"{oid} ({after['name']}) had counters {before['counters']}, the log adds "
                       f"{counters_added(t, oid)} and annihilates {counters_annihilated(t, oid)} pair(s), "
                       f"but it now has {after['counters']}")
    return out


@invariant(
    "counters.umbra_armor_removes_damage_not_counters", refused=False,
    rules=("702.89a", "122.1"),
    requires=frozenset({"counters", "umbra_armor"}),
    on_log=("replacement",),
)
def umbra_armor_removes_damage_not_counters(t: Transition):
    """A creature saved by umbra armor keeps its counters: umbra armor removes damage, never counters."""
    if t.illegal is not None:
        return None
    saved = {e["affected"] for e in t.log if e.get("kind") == "replacement" and e.get("effect") == "umbra armor"}
    cases = [oid for oid in saved if oid in t.before["objects"] and on_battlefield_after(t, oid)
             and not moved_in_event(t, oid) and t.before["objects"][oid]["counters"]]
    if not cases:
        return None
    return [f"{oid} was saved by umbra armor and its counters went from {t.before['objects'][oid]['counters']} to "
            f"{t.after['objects'][oid]['counters']}" for oid in cases
            if t.after["objects"][oid]["counters"] != expected_counters(t.before["objects"][oid]["counters"], t, oid)]
