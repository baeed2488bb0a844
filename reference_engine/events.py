"""Event handlers: validate an event, then return a function that performs it.

Each handler takes ``(game, event)``; it raises :class:`IllegalAction` before changing
anything, or returns ``perform(decider)``. The event vocabulary is documented in
``harness.protocol``.
"""

from __future__ import annotations

from .cards import card
from .errors import IllegalAction, UnknownCard
from .layers import characteristics
from .objects import BATTLEFIELD, COMBAT_STATUSES


def _permanent(game, event, key):
    oid = event.get(key)
    obj = game.objects.get(oid) if isinstance(oid, str) else None
    if obj is None:
        raise IllegalAction("no_such_object", f"{key}={oid!r} is not an object in the game")
    if obj.zone != BATTLEFIELD:
        raise IllegalAction("not_on_battlefield", f"{key}={oid!r} is in the {obj.zone}, not on the battlefield")
    return obj


def _creature(game, event, key):
    obj = _permanent(game, event, key)
    if not characteristics(game, obj).is_creature:
        raise IllegalAction("illegal_target", f"{key}={obj.id!r} ({obj.card.name}) is not a creature")
    return obj


def _int(event, key, low=None):
    value = event.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or (low is not None and value < low):
        bound = f" >= {low}" if low is not None else ""
        raise IllegalAction("bad_event", f"{key}: expected an integer{bound}, got {value!r}")
    return value


def _deal_damage(game, source_name, source_obj, target, amount):
    """Deal ``amount`` damage (CR 120.3): marked on creatures, lost as life by players."""
    deathtouch = lifelink = False
    if source_obj is not None:
        keywords = characteristics(game, source_obj).keywords
        deathtouch, lifelink = "deathtouch" in keywords, "lifelink" in keywords
    game.log.append({"kind": "damage", "source": source_name, "target": target, "amount": amount,
                     "deathtouch": deathtouch})
    if target in game.players:
        game.players[target].life -= amount
    else:
        obj = game.objects[target]
        obj.damage += amount
        if deathtouch:
            obj.deathtouch_damage = True
    if lifelink:  # CR 702.15b
        game.players[source_obj.controller].life += amount
        game.log.append({"kind": "life_gained", "player": source_obj.controller, "amount": amount})


def cast(game, event):
    """``{"type": "cast", "card": NAME, "controller": P, "targets": [...]}``.

    An instant or sorcery resolves at once (the stack and mana are not modelled):
    Murder, Doom Blade (nonblack), Breathe Your Last (gain 1 life per colour of the
    destroyed creature, last known information, CR 608.2h), Wrath of God (all
    creatures, can't be regenerated), Shock and Lightning Bolt (any target), Giant
    Growth (+3/+3 until end of turn).
    """
    try:
        definition, script = card(event.get("card"))
    except (UnknownCard, TypeError) as exc:
        raise IllegalAction("unknown_card", str(exc)) from None
    if script.spell is None:
        raise IllegalAction("not_a_spell", f"{definition.name} is not an instant or sorcery the engine can cast")
    controller = event.get("controller")
    if controller not in game.players:
        raise IllegalAction("bad_event", f"controller={controller!r} is not a player")
    targets = event.get("targets", [])
    if not isinstance(targets, list):
        raise IllegalAction("bad_event", "targets: expected a list")
    kind, name = script.spell, definition.name
    expected = 0 if kind == "destroy_all_creatures" else 1
    if len(targets) != expected:
        raise IllegalAction("illegal_target", f"{name} takes {expected} target(s), got {len(targets)}")
    if kind == "damage":
        target = targets[0]
        if target not in game.players:
            _creature(game, {"target": target}, "target")

        def perform(decider):
            _deal_damage(game, name, None, target, script.spell_amount)

        return perform
    if kind == "destroy_all_creatures":
        def perform(decider):
            ids = [o.id for o in game.battlefield() if characteristics(game, o).is_creature]
            game.destroy(ids, name, decider, cant_be_regenerated=frozenset(ids))

        return perform
    obj = _creature(game, {"target": targets[0]}, "target")
    if kind == "destroy_nonblack" and "B" in characteristics(game, obj).colors:
        raise IllegalAction("illegal_target", f"{name} can't target black creature {obj.id!r}")
    if kind == "pump":
        def perform(decider):
            game.add_effect(obj.id, "7c", script.spell_amount, script.spell_amount)

        return perform

    def perform(decider):
        colors = len(characteristics(game, obj).colors)  # last known information
        game.destroy([obj.id], name, decider)
        if kind == "destroy_gain_life" and colors:
            game.players[controller].life += colors
            game.log.append({"kind": "life_gained", "player": controller, "amount": colors})

    return perform


def damage(game, event):
    """``{"type": "damage", "source": ID, "target": ID or P, "amount": N}``.

    A permanent deals N >= 1 damage, e.g. in a fight; deathtouch and lifelink come
    from the source's abilities (CR 702.2, 702.15).
    """
    source = _permanent(game, event, "source")
    target = event.get("target")
    if target not in game.players:
        _creature(game, event, "target")
    amount = _int(event, "amount", 1)
    return lambda decider: _deal_damage(game, source.id, source, target, amount)


def destroy_event(game, event):
    """``{"type": "destroy", "targets": [ID...], "cant_be_regenerated": bool}``.

    An effect destroys every target at the same time (CR 701.7), e.g. "destroy
    target creature and target Aura".
    """
    targets = event.get("targets")
    if not isinstance(targets, list) or not targets or len(set(targets)) != len(targets):
        raise IllegalAction("bad_event", "targets: expected a non-empty list of distinct ids")
    for i in range(len(targets)):
        _permanent(game, {"target": targets[i]}, "target")
    no_regen = frozenset(targets) if event.get("cant_be_regenerated") else frozenset()
    return lambda decider: game.destroy(targets, "destroy effect", decider, no_regen)


def sacrifice(game, event):
    """``{"type": "sacrifice", "object": ID}``: its controller sacrifices it (CR 701.17a)."""
    obj = _permanent(game, event, "object")
    return lambda decider: game.sacrifice(obj)


def modify_pt(game, event):
    """``{"type": "modify_pt", "object": ID, "power": N, "toughness": N}``.

    The creature gets +N/+N (or -N/-N) until end of turn: layer 7c (CR 613.4c).
    """
    obj = _creature(game, event, "object")
    power, toughness = _int(event, "power"), _int(event, "toughness")
    return lambda decider: game.add_effect(obj.id, "7c", power, toughness)


def put_onto_battlefield(game, event):
    """``{"type": "put_onto_battlefield", "id": NEW_ID, "card": NAME, "controller": P, "attach_to": ID?}``.

    A card from outside the game enters the battlefield under P's control; an Aura
    enters attached to ``attach_to``, which must be legal (CR 303.4i).
    """
    oid = event.get("id")
    if not isinstance(oid, str) or not oid or oid in game.objects:
        raise IllegalAction("bad_event", f"id={oid!r}: expected a new, unused object id")
    try:
        definition, script = card(event.get("card"))
    except (UnknownCard, TypeError) as exc:
        raise IllegalAction("unknown_card", str(exc)) from None
    if not definition.types or set(definition.types) & {"Instant", "Sorcery"}:
        raise IllegalAction("not_a_permanent", f"{definition.name} is not a permanent card")
    controller = event.get("controller")
    if controller not in game.players:
        raise IllegalAction("bad_event", f"controller={controller!r} is not a player")
    attach_to = event.get("attach_to")
    is_aura = "Aura" in definition.subtypes
    if is_aura:
        target = _permanent(game, {"attach_to": attach_to}, "attach_to")
        if not game.could_enchant(script, controller, oid, target.id):
            raise IllegalAction("illegal_attachment", f"{definition.name} can't enchant {target.id!r}")
    elif attach_to is not None:
        raise IllegalAction("illegal_attachment", f"{definition.name} is not an Aura")

    def perform(decider):
        obj = game.new_object(oid, definition.name, controller)
        if is_aura:
            obj.attached_to = attach_to

    return perform


def attach(game, event):
    """``{"type": "attach", "aura": ID, "to": ID}``: move an Aura (Felidar Umbra's ability).

    The Aura gets a new timestamp (CR 613.7e); an illegal attachment is refused and the
    Aura doesn't move (CR 303.4j).
    """
    aura = _permanent(game, event, "aura")
    if "Aura" not in aura.card.subtypes:
        raise IllegalAction("not_an_aura", f"aura={aura.id!r} is not an Aura")
    target = _permanent(game, event, "to")
    if target.id == aura.attached_to or not game.can_enchant(aura, target.id):
        raise IllegalAction("illegal_attachment", f"{aura.card.name} can't become attached to {target.id!r}")

    def perform(decider):
        aura.attached_to = target.id
        aura.timestamp = game._tick()
        game.log.append({"kind": "attached", "object": aura.id, "to": target.id})

    return perform


def activate_regeneration(game, event):
    """``{"type": "activate_regeneration", "object": ID}``: "Regenerate this" resolves.

    Creates a regeneration shield for this turn (CR 701.15a). Mana is not modelled.
    """
    obj = _permanent(game, event, "object")
    if not obj.script.regenerate:
        raise IllegalAction("no_such_ability", f"object={obj.id!r} ({obj.card.name}) has no regeneration ability")

    def perform(decider):
        obj.regeneration_shields += 1
        game.log.append({"kind": "regeneration_shield", "object": obj.id})

    return perform


def set_combat(game, event):
    """``{"type": "set_combat", "object": ID, "status": "attacking" | "blocking" | null}``.

    Combat status as a flag (combat itself is not modelled) so that effects that remove
    a creature from combat (regeneration, CR 701.15a) can be seen.
    """
    obj = _creature(game, event, "object")
    status = event.get("status")
    if status not in COMBAT_STATUSES:
        raise IllegalAction("bad_event", f"status={status!r}: expected one of {list(COMBAT_STATUSES)}")

    def perform(decider):
        obj.combat = status

    return perform


def cleanup(game, event):
    """``{"type": "cleanup"}``: the cleanup step (CR 514.2).

    All damage is removed from permanents and "until end of turn" and "this turn"
    effects end (including regeneration shields); combat is over, so combat status ends.
    """

    def perform(decider):
        for obj in game.battlefield():
            game.remove_damage(obj)
            obj.regeneration_shields = 0
            obj.combat = None
        game.effects = [e for e in game.effects if not e.until_end_of_turn]

    return perform


HANDLERS = {
    "cast": cast,
    "damage": damage,
    "destroy": destroy_event,
    "sacrifice": sacrifice,
    "modify_pt": modify_pt,
    "put_onto_battlefield": put_onto_battlefield,
    "attach": attach,
    "activate_regeneration": activate_regeneration,
    "set_combat": set_combat,
    "cleanup": cleanup,
}
