"""Templates whose numbers and triggers come from the game: damage divided as the caster chooses (CR
601.2d), life "for each creature you control" and "equal to its power" (608.2h), and "Whenever a
creature dies" abilities (603.2, 603.10a).

As in :mod:`invariants.templates`, what should happen comes from the card model
(:func:`invariants.templates.read_model`), the event and the board before it; the log says what
happened. Not applicable where another trigger, a replacement effect or a filter these checks
can't judge could explain a difference.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import cast

from .base import Transition, invariant
from .on_change import IdsWhere
from .templates import damage_entries, damage_marked_problems, keywords_of, matches, read_model, triggers_logged


def _spell_model(t: Transition):
    e = t.event
    if t.illegal is not None or e.get("type") != "cast":
        return None
    m = read_model(e.get("card"))
    if m is None or not m.of("spell") or e.get("controller") not in t.before["players"]:
        return None
    return m


# --------------------------------------------------------------------------- divided damage
def division_problem(effect, targets, division) -> str | None:
    """Why ``division`` is not a legal division of the divided ``effect`` among ``targets`` (CR
    601.2d: each target at least 1, adding up to the damage; one amount per target; optional with
    one target), or None."""
    if not targets:
        return "no target"
    if division is None:
        return None if len(targets) == 1 else f"{len(targets)} targets and no division"
    if not isinstance(division, list) or len(division) != len(targets):
        return f"division {division!r} for {len(targets)} target(s)"
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in division):
        return f"division {division!r}: each target must receive at least 1"
    if sum(division) != effect.amount:
        return f"division {division!r} adds up to {sum(division)}, not {effect.amount}"
    if len(targets) > effect.affected.count:
        return f"{len(targets)} targets, more than {effect.affected.count}"
    return None


def _divided_effect(t: Transition):
    """The one effect of the cast spell when it is a modelled divided damage spell with no other effect."""
    m = read_model(t.event.get("card"))
    if m is None:
        return None
    effects = [x for a in m.of("spell") for x in a.effects]
    divided = [x for x in effects if x.divided]
    if len(divided) != 1 or len(effects) != 1:
        return None
    return divided[0]


def _announced_division_problem(effect, targets: list, division) -> str | None:
    """Why the announced targets and division are illegal (CR 601.2d, a target named twice 115.3), or None."""
    problem = division_problem(effect, targets, division)
    if problem is None and len(set(map(repr, targets))) != len(targets):
        problem = "the same target twice"
    return problem


def _any_protected(t: Transition, targets: list) -> bool:
    """Whether a target has protection (its damage may be prevented, CR 702.16e)."""
    for w in targets:
        obj = t.before["objects"].get(w)
        if obj is not None and any(k.startswith("protection") for k in keywords_of(obj)):
            return True
    return False


def _dealt_by_the_spell(t: Transition) -> Counter:
    """``{recipient: damage}`` the log shows from sources that are not permanents before (the spell)."""
    permanents = set(t.before["objects"])
    dealt: Counter = Counter()
    for d in damage_entries(t):
        if d.get("source") not in permanents:
            dealt[d.get("target")] += d["amount"]
    return dealt


def _dealt_as_divided(card, targets: list, division: list, dealt: Counter) -> list[str]:
    """Each target is dealt its announced amount and nothing else is dealt damage (CR 601.2d)."""
    out = []
    for w, n in zip(targets, division):
        if dealt.get(w, 0) != n:
            out.append(f"601.2d: {card} divides {division} among {targets}: {w} is dealt {n}; the log shows "
                       f"{dealt.get(w, 0)}")
    extra = set(dealt) - set(targets)
    if extra:
        out.append(f"601.2d: {card} dealt damage to {sorted(extra)}, none of its targets {targets}")
    return out


@invariant("templates.divided_damage", rules=("601.2d", "120.3", "115.3"), requires=("damage", "cards:divided damage"),
           on=("cast",))
def divided_damage(t: Transition):
    """A modelled "~ deals N damage divided as you choose among one, two, or three targets" spell deals each
    target the amount the caster announced (the cast's ``division``, in the order of ``targets``), each at
    least 1, N in all (CR 601.2d); an illegal division is refused (the game unchanged), and so is a
    target named twice (115.3)."""
    e = t.event
    if e.get("type") != "cast":
        return None
    effect = _divided_effect(t)
    if effect is None:
        return None
    targets = e.get("targets") or []
    problem = _announced_division_problem(effect, targets, e.get("division"))
    if problem is not None:
        return [] if t.illegal is not None else [f"601.2d: {e.get('card')} divides {effect.amount} damage among 1 to "
                                                  f"{effect.affected.count} targets, each at least 1: {problem}; the "
                                                  f"cast must be refused, yet it resolved"]
    if t.illegal is not None:
        return None  # an illegal target (kind, hexproof, ...): the template invariants of targets judge it
    division = e.get("division") or [effect.amount]
    if _any_protected(t, targets):
        return None  # its damage may be prevented (702.16e)
    out = _dealt_as_divided(e.get("card"), targets, division, _dealt_by_the_spell(t))
    return out + damage_marked_problems(t, zip(targets, division))


# --------------------------------------------------------------------------- life from the game
def amount_on(before: dict, effects, i: int, controller: str, targets: list) -> int | None:
    """The amount ``effects[i]`` reads from the game on ``before`` (CR 608.2h): ``per`` counts the
    permanents it describes; ``equal_to`` of the target of the effect before it reads that target's
    power or toughness (as it last existed: as it is before the event, when nothing of the spell
    changed it before). None when it can't be told (a filter :func:`matches` can't judge, a
    reference to the spell itself)."""
    effect = effects[i]
    if effect.per is not None:
        n = 0
        for oid, o in before["objects"].items():
            if o.get("zone") != "battlefield":
                continue
            ok = matches(o, effect.per.kind, effect.per.filters, controller, oid)
            if ok is None:
                return None
            n += bool(ok)
        return effect.amount * n
    if effect.equal_to is not None:
        which, of = effect.equal_to
        if of != "target":
            return None
        earlier = [j for j in range(i) if effects[j].affected.scope == "target"]
        if len(earlier) != 1 or effects[earlier[0]].affected.count != 1:
            return None
        index = sum(effects[j].affected.count for j in range(earlier[0]) if effects[j].affected.scope == "target")
        oid = targets[index] if index < len(targets) else None
        o = before["objects"].get(oid) if isinstance(oid, str) else None
        if o is None or any(effects[j].action in ("pt", "counters") for j in range(i)):
            return None
        value = o.get(which)
        return max(0, value) if isinstance(value, int) else None
    return effect.amount


#: The players a life effect's Affected scope names: ``(scope, kind) -> players(caster, targets taken,
#: players)``; a kind of None matches any.
_LIFE_RECIPIENTS = {
    ("you", None): lambda caster, take, players: [caster],
    ("target", None): lambda caster, take, players: [w for w in take if w in players],
    ("each", "player"): lambda caster, take, players: list(players),
    ("each", "opponent"): lambda caster, take, players: [p for p in players if p != caster],
}


def _life_recipients(affected, caster: str, take: list, players: dict) -> list | None:
    """Who a life effect's ``affected`` names (CR 119.3), or None for a scope not judged here."""
    pick = _LIFE_RECIPIENTS.get((affected.scope, None)) or _LIFE_RECIPIENTS.get((affected.scope, affected.kind))
    return pick(caster, take, players) if pick is not None else None


def _life_from_the_game_applies(t: Transition, effects: list) -> bool:
    """Whether the spell reads a life amount from the game and nothing else could change life or the count:
    its other effects only destroy or pump (a destroy not with a count), no trigger or damage logged."""
    lives = [i for i, x in enumerate(effects) if x.action in ("gain_life", "lose_life")]
    if not any(effects[i].per is not None or effects[i].equal_to is not None for i in lives):
        return False
    if any(x.action not in ("gain_life", "lose_life", "destroy", "pt") for x in effects):
        return False
    if triggers_logged(t) or damage_entries(t):
        return False
    # the destroy changes what is counted
    return not (any(effects[i].per is not None for i in lives) and any(x.action == "destroy" for x in effects))


def _expected_life(t: Transition, effects: list) -> dict | None:
    """``{player: life}`` after the spell's life effects, each amount read from the board before (CR 608.2h),
    or None when an amount or a recipient can't be told."""
    caster, targets = t.event["controller"], list(t.event.get("targets") or [])
    expected = {pid: p["life"] for pid, p in t.before["players"].items()}
    n_targets = 0
    for i, x in enumerate(effects):
        if x.affected.scope == "target":
            take = targets[n_targets:n_targets + x.affected.count]
            n_targets += x.affected.count
        else:
            take = []
        if x.action not in ("gain_life", "lose_life"):
            continue
        amount = amount_on(t.before, effects, i, caster, targets)
        if amount is None:
            return None
        who = _life_recipients(x.affected, caster, take, expected)
        if who is None:
            return None
        for w in who:
            expected[w] += amount if x.action == "gain_life" else -amount
    return expected


@invariant("templates.life_from_the_game", rules=("608.2h", "119.3", "107.1b"), requires=("cards:life from the game",),
           on=("cast",))
def life_from_the_game(t: Transition):
    """A modelled spell whose life amount comes from the game changes life by that amount as it resolves
    (CR 608.2h): "you gain 2 life for each creature you control" counts them; "Destroy target creature.
    You gain life equal to its toughness." reads the creature as it last existed (a negative number is
    0, 107.1b).

    Only for spells whose other effects don't change the count (a destroy of the one target, a pump of
    it: those aren't counted here) and when no trigger, lifelink or other damage is in the log."""
    m = _spell_model(t)
    if m is None:
        return None
    effects = [x for a in m.of("spell") for x in a.effects]
    if not _life_from_the_game_applies(t, effects):
        return None
    expected = _expected_life(t, effects)
    if expected is None:
        return None
    return [f"608.2h: {pid} has {t.after['players'][pid]['life']} life after {t.event.get('card')}; the amount it reads "
            f"from the game gives {life} (before {t.before['players'][pid]['life']})"
            for pid, life in expected.items() if t.after["players"].get(pid, {}).get("life") != life]


# --------------------------------------------------------------------------- whenever a creature dies
@cache
def _dies_abilities(name) -> tuple:
    """The "Whenever a creature dies" abilities of the card named ``name`` (none for a card not modelled)."""
    m = read_model(name)
    return () if m is None else tuple(a for a in m.abilities if a.kind == "triggered" and a.trigger == "a creature dies")


#: The permanents with "Whenever a creature dies" abilities, of the step's observations (kept on change:
#: :mod:`.on_change`): most boards have none, and then no object is read.
_WATCHERS = IdsWhere(lambda o: o.get("zone") == "battlefield" and bool(_dies_abilities(o.get("name"))))


def watchers(before: dict, ids: frozenset) -> dict[str, tuple]:
    """``{permanent id: its "Whenever a creature dies" abilities}`` on the battlefield before the event, in
    the order of its objects; ``ids`` are their ids (:data:`_WATCHERS` of ``before``)."""
    if not ids:
        return {}
    return {oid: _dies_abilities(o.get("name")) for oid, o in before["objects"].items() if oid in ids}


def watches(watcher: dict, watcher_id: str, dying: dict, dying_id: str, watched) -> bool:
    """Whether an ability watching ``watched`` (an ``each creature`` Affected with filters) sees ``dying``
    die (its controller and token status as it last existed, before the event)."""
    for f in watched.filters if watched is not None else ():
        if f == "other" and dying_id == watcher_id:
            return False
        if f == "nontoken" and dying.get("token"):
            return False
        if f == "you control" and dying.get("controller") != watcher.get("controller"):
            return False
        if f == "opponent controls" and dying.get("controller") == watcher.get("controller"):
            return False
    return True


def _creatures_died(t: Transition) -> list[str] | None:
    """The creatures put into a graveyard from the battlefield during the event (CR 700.4), in log order;
    None when one was not on the battlefield before it (it entered during the event)."""
    died: list[str] = []
    for x in t.log:
        if x.get("kind") == "zone_change" and x.get("from") == "battlefield" and x.get("to") == "graveyard":
            o = t.before["objects"].get(x.get("object"))
            if o is None or o.get("zone") != "battlefield":
                return None  # entered during the event
            if "Creature" in (o.get("types") or ()):
                died.append(x["object"])
    return died


def _expected_triggers(t: Transition, found: dict[str, tuple], died: list[str]) -> Counter[str]:
    """How many times each watcher's abilities trigger: once per creature that died and it watches (603.10a)."""
    expected: Counter[str] = Counter()
    for w, abilities in found.items():
        for a in abilities:
            for d in died:
                if watches(t.before["objects"][w], w, t.before["objects"][d], d, a.affected):
                    expected[w] += 1
    return expected


@invariant("templates.creature_dies_triggers", rules=("603.2", "603.10a", "700.4"),
           requires=("triggers", "cards:creature dies trigger"))
def creature_dies_triggers(t: Transition):
    """Each "Whenever a / another [nontoken] creature [you control] dies" ability of a permanent on the
    battlefield triggers once for each creature that dies (is put into a graveyard from the battlefield,
    CR 700.4) and that it watches, including a creature dying at the same time as it (603.10a: it looks
    back in time), and never for a creature that left for another zone.

    Not applicable when a watcher or a creature that died was not on the battlefield before the event
    (it entered during it), or control changed during it."""
    ids = _WATCHERS.pair(t.before, t.after)[0]  # asked on every step: kept on change from the step before
    if t.illegal is not None:
        return None
    found = watchers(t.before, ids)
    if not found:
        return None
    if any(x.get("kind") == "control_changed" or (x.get("kind") == "zone_change" and x.get("to") == "battlefield")
           for x in t.log):
        return None  # control changed, or something entered (it may watch what dies after it entered)
    died = _creatures_died(t)
    if died is None:
        return None
    left_at = {x.get("object"): n for n, x in enumerate(t.log) if x.get("kind") == "zone_change"
               and x.get("from") == "battlefield"}
    if any(w in left_at for w in found):
        # a watcher left: it sees the creatures leaving with it, not those dying after it; the log's order
        # can't always tell which left together, so not applicable
        return None
    expected = _expected_triggers(t, found, died)
    # a trigger entry's source is a string (harness.wire.log_kinds)
    seen = Counter(cast(str, x.get("source")) for x in t.log
                   if x.get("kind") == "trigger" and x.get("ability") == "a creature dies")
    out = []
    for w in set(expected) | set(seen):
        if expected.get(w, 0) != seen.get(w, 0):
            o = t.before["objects"].get(w) or {}
            out.append(f"603.2: {w} ({o.get('name')}) watches creatures dying; {len(died)} creature(s) died {died} and "
                       f"{expected.get(w, 0)} trigger(s) were expected from it, the log shows {seen.get(w, 0)}")
    return out
