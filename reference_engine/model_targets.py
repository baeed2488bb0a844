"""What a card model's effects target and affect, and what the engine checks before they
resolve (:mod:`reference_engine.model_cards` resolves them).

:class:`Source` is what an effect comes from; :func:`legal_target` and :func:`each_affected`
decide the objects and players an effect affects (kinds and filters of ``cards.model.Affected``,
hexproof, shroud, protection, CR 115, 702.11, 702.16, 702.18); :func:`assign_targets` splits an
event's targets among the targeting effects and :func:`divide_damage` a divided damage (CR
601.2d); :func:`check_effects` declines (``Unsupported``) where the engine can't be right;
:func:`deal_damage` deals damage from any source (CR 120.3, 702.2, 702.15b).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from cards.model import Affected

from .cards import CardDef, CardScript
from .errors import IllegalAction, Unsupported
from .filters import COLOR_LETTERS, matches
from .layers import characteristics
from .objects import BATTLEFIELD, GameObject
from .records import Source
from .zones import check_returnable

if TYPE_CHECKING:
    from .game_base import GameBase


# ---------------------------------------------------------------- protection, filters
def protections(keywords) -> list[str]:
    """The qualities of a permanent's protection abilities ("red", "artifacts", ...; CR 702.16a)."""
    return [k[len("protection from "):] for k in keywords if k.startswith("protection from ")]


def protected_from(keywords, colors, types) -> bool:
    """Whether an object with ``keywords`` has protection from a source with ``colors`` and
    ``types`` (CR 702.16a)."""
    for quality in protections(keywords):
        if quality in COLOR_LETTERS and COLOR_LETTERS[quality] in colors:
            return True
        if (quality == "artifacts" and "Artifact" in types) or (quality == "creatures" and "Creature" in types):
            return True
        if quality == "everything" or (quality == "multicolored" and len(colors) > 1) \
                or (quality == "monocolored" and len(colors) == 1):
            return True
    return False


def object_matches(game: GameBase, obj: GameObject, kind: str, filters, controller: str, source_id: str | None) -> bool:
    """Whether permanent ``obj`` is a ``kind`` with ``filters`` (cards.model) for an effect that
    ``controller`` controls from ``source_id``. Raises Unsupported for a filter not modelled
    (:func:`reference_engine.filters.matches` of its characteristics)."""
    if obj.zone != BATTLEFIELD:
        return False
    return matches(obj, characteristics(game, obj), kind, filters, controller, source_id)


def legal_target(game: GameBase, affected: Affected, target, source: Source) -> bool:
    """Whether ``target`` (an object id or a player id) is a legal target of an effect
    affecting ``affected`` from ``source`` (CR 115, 601.2c): the right kind and filters, on
    the battlefield, not hexproof against ``source``'s controller (CR 702.11b), not shroud
    (702.18a), no protection from ``source``'s quality (702.16b)."""
    if not isinstance(target, str):
        return False
    if target in game.players:
        if affected.kind in ("player", "any", "creature or player"):
            return not game.players[target].lost
        if affected.kind == "opponent":
            return target != source.controller
        return False
    obj = game.objects.get(target)
    if obj is None or obj.zone != BATTLEFIELD or affected.kind in ("player", "opponent"):
        return False
    if not object_matches(game, obj, affected.kind, affected.filters, source.controller, source.obj):
        return False
    keywords = characteristics(game, obj).keywords
    if "shroud" in keywords or ("hexproof" in keywords and obj.controller != source.controller):
        return False
    return not protected_from(keywords, source.colors, source.types)


def each_affected(game: GameBase, affected: Affected, source: Source) -> list[str]:
    """The objects and players an "each"/"all" effect affects, ids in timestamp order then
    players in turn order (CR 101.4: players of the board's order)."""
    kind = affected.kind
    found: list[str] = []
    if kind not in ("player", "opponent"):
        objects_kind = "creature" if kind == "creature and player" else kind
        found = [o.id for o in game.battlefield()
                 if object_matches(game, o, objects_kind, affected.filters, source.controller, source.obj)]
    if kind in ("player", "creature and player"):
        found += [p for p in game.players if not game.players[p].lost]
    elif kind == "opponent":
        found += [p for p in game.players if p != source.controller and not game.players[p].lost]
    return found


def _ambiguous_self(ability_text: str, effects) -> bool:
    """"it" after a targeting effect names the target, not the source: the reader reads both
    as the source (``scope "self"``), so the engine can't tell."""
    text = ability_text.replace("~", "")
    return any(e.affected.scope == "target" for e in effects) and any(e.affected.scope == "self" for e in effects) \
        and (" it " in f" {text} " or "It " in text or " it." in text)


# ---------------------------------------------------------------- targets
def targeting(effects) -> list[int]:
    """Indices of the effects that target."""
    return [i for i, e in enumerate(effects) if e.affected.scope == "target"]


def assign_targets(game: GameBase, effects, targets: list, source: Source) -> dict[int, list]:
    """The event's ``targets`` split among the targeting effects, in order, each checked; raises
    IllegalAction (``"illegal_target"``) for a wrong number or an illegal target."""
    wanted = targeting(effects)
    assigned: dict[int, list] = {}
    rest = list(targets)
    for n, i in enumerate(wanted):
        affected = effects[i].affected
        last = n == len(wanted) - 1
        if affected.up_to and last:
            take = rest[:affected.count]
            if len(rest) > affected.count:
                raise IllegalAction("illegal_target", f"{source.name} takes up to {affected.count} target(s) "
                                                      f"for {effects[i].action}, got {len(rest)}")
        else:
            if len(rest) < affected.count:
                raise IllegalAction("illegal_target", f"{source.name} takes {affected.count} target(s) for "
                                                      f"{effects[i].action}, got {len(rest)}")
            take = rest[:affected.count]
        rest = rest[len(take):]
        if len(set(map(repr, take))) != len(take):
            raise IllegalAction("illegal_target", f"{source.name}: the same target twice for one 'target' (CR 115.3)")
        for t in take:
            if not isinstance(t, str) or (t not in game.players and t not in game.objects):
                raise IllegalAction("no_such_object", f"target {t!r} is not an object or a player in the game")
            obj = game.objects.get(t)
            if obj is not None and obj.zone != BATTLEFIELD:
                raise IllegalAction("not_on_battlefield", f"target {t!r} is in the {obj.zone}, not on the battlefield")
            if not legal_target(game, affected, t, source):
                raise IllegalAction("illegal_target", f"{source.name} can't target {t!r} "
                                                      f"({affected.kind} {' '.join(affected.filters)})".rstrip())
        assigned[i] = take
    if rest:
        raise IllegalAction("illegal_target", f"{source.name} takes {len(targets) - len(rest)} target(s), "
                                              f"got {len(targets)}")
    return assigned


def check_effects(game: GameBase, effects, assigned: dict[int, list], source: Source, ability_text: str) -> None:
    """Raise Unsupported where the engine can't be right for these effects now (module
    docstring). Changes nothing."""
    if _ambiguous_self(ability_text, effects):
        raise Unsupported("ability:it", f"{source.name}: {ability_text!r} ('it' may be its target)")
    for i, effect in enumerate(effects):
        if effect.affected.scope == "controller":
            raise Unsupported("ability:its controller", f"{source.name}: {ability_text!r}")
        if effect.affected.scope == "self" and source.obj is None:
            raise Unsupported("ability:self", f"{source.name}: a spell's effect on itself ({ability_text!r})")
        if effect.action == "damage":
            _check_damage(game, effect, assigned.get(i), source)
        if effect.action == "draw":
            for player in _players(game, effect.affected, assigned.get(i), source):
                _check_draw(game, player, effect.amount)
        if effect.action == "flicker":  # a return that needs a choice (an Aura, a Clone) is declined
            _check_flicker(game, effect, assigned.get(i, []), source)


def _check_damage(game: GameBase, effect, targets: list | None, source: Source) -> None:
    """Damage to a permanent that isn't a creature (a planeswalker) or that a protection would
    prevent (CR 702.16e) is declined."""
    recipients = targets if effect.affected.scope == "target" else \
        each_affected(game, effect.affected, source) if effect.affected.scope == "each" else []
    for r in recipients or ():
        obj = game.objects.get(r)
        if obj is None:
            continue
        ch = characteristics(game, obj)
        if not ch.is_creature:
            raise Unsupported("ability:planeswalker", f"damage to {r!r}, not a creature, is not modelled")
        if protected_from(ch.keywords, source.colors, source.types):
            raise Unsupported("ability:protection", f"{r!r}'s protection would prevent damage from "
                                                    f"{source.name} (CR 702.16e)")


def _check_flicker(game: GameBase, effect, targets: list, source: Source) -> None:
    scope = effect.affected.scope
    ids = targets if scope == "target" else each_affected(game, effect.affected, source) \
        if scope == "each" else [source.obj] if scope == "self" and source.obj else []
    for oid in ids:
        obj = game.objects.get(oid)
        if obj is not None:
            check_returnable(game, obj)


def _check_draw(game: GameBase, player: str, amount: int) -> None:
    library = [o for o in game.objects.values() if o.zone == "library" and o.owner == player]
    if len(library) < amount:
        raise Unsupported("rule:draw from an empty library", f"{player} would draw {amount} card(s) from a library "
                                                             f"of {len(library)} (CR 704.5b is not modelled)")
    if player in game.shuffled_libraries:
        raise Unsupported("ability:shuffle", f"{player}'s library was shuffled: its top card is unknown")


def _players(game: GameBase, affected: Affected, targets, source: Source) -> list[str]:
    if affected.scope == "you":
        return [source.controller]
    if affected.scope == "target":
        return [t for t in targets or () if t in game.players]
    if affected.scope == "each":
        return [p for p in each_affected(game, affected, source) if p in game.players]
    return []


def divide_damage(effects, assigned: dict[int, list], event: dict, name: str):
    """"~ deals N damage divided as you choose among one, two, or three targets" (CR 601.2d): the
    caster announces the division as the spell is cast, the event's ``division`` (one amount per
    target of that effect, in the order of ``targets``, each at least 1, adding up to N; optional
    with one target). Returns the effects with the divided one split into one effect per target
    with its share, and the targets re-assigned; IllegalAction for a missing or wrong division, no
    target, or a division of a spell that divides nothing."""
    division = event.get("division")
    divided = [i for i, e in enumerate(effects) if e.divided]
    if not divided:
        if division is not None:
            raise IllegalAction("bad_event", f"division: {name} divides nothing")
        return effects, assigned
    i = divided[0]
    effect, chosen = effects[i], assigned.get(i, [])
    if not chosen:
        raise IllegalAction("illegal_target", f"{name} divides its damage among at least one target (CR 601.2d)")
    if division is None and len(chosen) == 1:
        division = [effect.amount]
    if not isinstance(division, list) or len(division) != len(chosen) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in division) \
            or sum(division) != effect.amount:
        raise IllegalAction("bad_event", f"division: {name} divides {effect.amount} damage among {len(chosen)} "
                                         f"target(s), each at least 1 (CR 601.2d); got {division!r}")
    one = replace(effect.affected, count=1, up_to=False)
    split = [replace(effect, affected=one, amount=n, divided=False) for n in division]
    new_effects = list(effects[:i]) + split + list(effects[i + 1:])
    new_assigned = {}
    for j, targets in assigned.items():
        if j < i:
            new_assigned[j] = targets
        elif j > i:
            new_assigned[j + len(split) - 1] = targets
    for k, t in enumerate(chosen):
        new_assigned[i + k] = [t]
    return tuple(new_effects), new_assigned


# ---------------------------------------------------------------- resolving
def mark_damage(game: GameBase, label: str, target: str, amount: int, deathtouch: bool, combat: bool = False) -> None:
    """The damage itself, from a source logged as ``label`` (CR 120.3): lost as life by a player (120.3a),
    marked on a creature (120.3e), deathtouch damage recorded (704.5h); logged as a ``damage`` entry, with
    ``"combat": true`` for combat damage. Lifelink is the caller's (702.15b: once per source in combat)."""
    entry = {"kind": "damage", "source": label, "target": target, "amount": amount, "deathtouch": deathtouch}
    if combat:
        entry["combat"] = True
    game.log.append(entry)
    if target in game.players:
        game.players[target].life -= amount
    else:
        obj = game.objects[target]
        obj.damage += amount
        if deathtouch:
            obj.deathtouch_damage = True


def deal_damage(game: GameBase, label: str, keywords, controller: str | None, target: str, amount: int) -> None:
    """Deal ``amount`` damage from a source logged as ``label`` with ``keywords`` (CR 120.3):
    marked on a creature, lost as life by a player; deathtouch (702.2) and lifelink (702.15b:
    its controller gains that much life) from the source's keywords."""
    deathtouch, lifelink = "deathtouch" in keywords, "lifelink" in keywords
    mark_damage(game, label, target, amount, deathtouch)
    if lifelink and controller is not None:
        game.players[controller].life += amount
        game.log.append({"kind": "life_gained", "player": controller, "amount": amount})


def deal_damage_from(game: GameBase, source_name, source_obj, target, amount):
    """Deal ``amount`` damage (CR 120.3): marked on creatures, lost as life by players;
    deathtouch and lifelink (CR 702.15b: on any damage) from the source permanent's keywords."""
    keywords = characteristics(game, source_obj).keywords if source_obj is not None else frozenset()
    deal_damage(game, source_name, keywords, source_obj.controller if source_obj is not None else None,
                target, amount)


def token_definition(token) -> tuple[CardDef, CardScript]:
    """The characteristics a :class:`cards.model.TokenDef` defines (CR 111.3, 111.4)."""
    text = ", ".join(k.capitalize() for k in token.keywords)
    return (CardDef(token.name, "", (), tuple(token.types), tuple(token.subtypes), tuple(token.colors),
                    token.power, token.toughness, text[:1].upper() + text[1:] if text else "",
                    frozenset(token.keywords)),
            CardScript(keywords=frozenset(token.keywords)))
