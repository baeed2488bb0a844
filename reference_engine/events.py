"""Event handlers: validate an event, then return a function that performs it.

Each handler takes ``(game, event)``; it raises :class:`IllegalAction` before changing
anything, or returns ``perform(decider)``. The event vocabulary is documented in
``harness.protocol``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import reference_engine.activation as activation
import reference_engine.chance as chance
import reference_engine.combat_events as combat_events
import reference_engine.search as search
import reference_engine.turn as turn
import reference_engine.zones as zones
from .cards import MODEL_SPELL, TOKEN_DEFS, card
from .errors import IllegalAction, UnknownCard, Unsupported
from .event_fields import new_ids as _new_ids
from .event_fields import permanent as _permanent
from .model_cards import protected_from
from .model_targets import deal_damage_from as _deal_damage
from .layers import characteristics, counter_pt
from .objects import COMBAT_STATUSES

if TYPE_CHECKING:
    from .game_base import GameBase


def _is_player(game: GameBase, value) -> bool:
    """Whether ``value`` names a player (ids are strings; anything else is not a player)."""
    return isinstance(value, str) and value in game.players


def _creature(game: GameBase, event, key):
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


def cast(game: GameBase, event):
    """``{"type": "cast", "card": NAME, "controller": P, "targets": [...]}``.

    An instant or sorcery resolves at once (the stack and mana are not modelled):
    Murder, Doom Blade (nonblack), Breathe Your Last (gain 1 life per colour of the
    destroyed creature, last known information, CR 608.2h), Wrath of God (all
    creatures, can't be regenerated), Shock and Lightning Bolt (any target), Giant
    Growth (+3/+3 until end of turn, layer 7c). Spells that create tokens take their new
    ids in ``"token_ids"``: Cackling Counterpart (``targets``: a creature the caster
    controls; one token that's a copy of it, CR 707.2) and Raise the Alarm (no target;
    two 1/1 white Soldier creature tokens, CR 111.3). A permanent card cast with ``"id"``:
    :func:`cast_permanent` (without an id it is refused as before, ``not_a_spell``).
    """
    try:
        definition, script = card(event.get("card"))
    except (UnknownCard, TypeError) as exc:
        raise IllegalAction("unknown_card", str(exc)) from None
    if definition.types and not {"Instant", "Sorcery"} & set(definition.types) and "id" in event:
        return cast_permanent(game, event, definition, script)
    if script.spell is None:  # (a permanent card cast without the id of the permanent it becomes, too)
        raise IllegalAction("not_a_spell", f"{definition.name} is not an instant or sorcery the engine can cast")
    controller = event.get("controller")
    if not _is_player(game, controller):
        raise IllegalAction("bad_event", f"controller={controller!r} is not a player")
    targets = event.get("targets", [])
    if not isinstance(targets, list):
        raise IllegalAction("bad_event", "targets: expected a list")
    kind, name = script.spell, definition.name
    if "division" in event and kind != MODEL_SPELL:  # CR 601.2d: only a spell that divides has a division
        raise IllegalAction("bad_event", f"division: {name} divides nothing")
    if kind == MODEL_SPELL:  # a card of the card database: its effects from its card model
        return game.cast_model_spell(definition, script, controller, event)
    if kind in search.SPELLS:  # Explosive Vegetation, Bile Blight
        return search.cast_spell(game, name, script, controller, targets)
    expected = 0 if kind in ("destroy_all_creatures", "soldier_tokens") else 1
    if len(targets) != expected:
        raise IllegalAction("illegal_target", f"{name} takes {expected} target(s), got {len(targets)}")
    if kind in _UNTARGETED_OR_ANY:
        return _UNTARGETED_OR_ANY[kind](game, event, name, script, controller, targets)
    obj = _creature(game, {"target": targets[0]}, "target")
    if kind == "destroy_nonblack" and "B" in characteristics(game, obj).colors:
        raise IllegalAction("illegal_target", f"{name} can't target black creature {obj.id!r}")
    return _TARGETING_A_CREATURE.get(kind, _cast_destroy)(game, event, name, script, controller, obj)


def _cast_damage(game: GameBase, event, name, script, controller, targets):
    """Shock, Lightning Bolt: damage to any target (a player or a creature)."""
    target = targets[0]
    if not _is_player(game, target):
        _creature(game, {"target": target}, "target")

    def perform(decider):
        _deal_damage(game, name, None, target, script.spell_amount)

    return perform


def _cast_soldier_tokens(game: GameBase, event, name, script, controller, targets):
    """Raise the Alarm: two 1/1 white Soldier creature tokens (CR 111.3)."""
    ids = _new_ids(game, event, "token_ids", script.spell_amount)

    def perform(decider):
        soldier, soldier_script = TOKEN_DEFS["Soldier"]
        for oid in ids:
            game.create_token(oid, soldier, soldier_script, controller, name)

    return perform


def _cast_destroy_all_creatures(game: GameBase, event, name, script, controller, targets):
    """Wrath of God: destroy all creatures; they can't be regenerated."""
    def perform(decider):
        ids = [o.id for o in game.battlefield() if characteristics(game, o).is_creature]
        game.destroy(ids, name, decider, cant_be_regenerated=frozenset(ids))

    return perform


def _cast_pump(game: GameBase, event, name, script, controller, obj):
    """Giant Growth: +3/+3 until end of turn (layer 7c)."""
    def perform(decider):
        game.add_effect(obj.id, "7c", script.spell_amount, script.spell_amount, source=name)

    return perform


def _cast_token_copy(game: GameBase, event, name, script, controller, obj):
    """Cackling Counterpart: a token that's a copy of a creature the caster controls (CR 707.2)."""
    if obj.controller != controller:
        raise IllegalAction("illegal_target", f"{name} targets a creature you control; {obj.id!r} is "
                                              f"controlled by {obj.controller}")
    token_id = _new_ids(game, event, "token_ids", 1)[0]

    def perform(decider):
        game.create_token_copy(token_id, obj.id, controller, name)

    return perform


def _cast_destroy(game: GameBase, event, name, script, controller, obj):
    """Murder, Doom Blade, Breathe Your Last (1 life per colour of the destroyed creature, last
    known information, CR 608.2h)."""
    kind = script.spell

    def perform(decider):
        colors = len(characteristics(game, obj).colors)  # last known information
        game.destroy([obj.id], name, decider)
        if kind == "destroy_gain_life" and colors:
            game.players[controller].life += colors
            game.log.append({"kind": "life_gained", "player": controller, "amount": colors})

    return perform


#: The curated spells by kind (a script's ``spell``): with no target or any target ...
_UNTARGETED_OR_ANY = {"damage": _cast_damage, "soldier_tokens": _cast_soldier_tokens,
                      "destroy_all_creatures": _cast_destroy_all_creatures}
#: ... and with a creature as their target (any other kind destroys it: _cast_destroy).
_TARGETING_A_CREATURE = {"pump": _cast_pump, "token_copy": _cast_token_copy}


def damage(game: GameBase, event):
    """``{"type": "damage", "source": ID, "target": ID or P, "amount": N}``.

    A permanent deals N >= 1 damage, e.g. in a fight; deathtouch and lifelink come
    from the source's abilities (CR 702.2, 702.15). N = 0 (capability ``damage.zero``): it
    deals no damage at all (CR 120.8, :meth:`reference_engine.steps.StepRules.deal_no_damage`).
    """
    source = _permanent(game, event, "source")
    target = event.get("target")
    if not _is_player(game, target):
        _creature(game, event, "target")
    amount = _int(event, "amount", 0)
    if amount == 0:
        return lambda decider: game.deal_no_damage(source.id, target)
    return lambda decider: _deal_damage(game, source.id, source, target, amount)


def destroy_event(game: GameBase, event):
    """``{"type": "destroy", "targets": [ID...], "cant_be_regenerated": bool}``.

    An effect destroys every target at the same time (CR 701.7), e.g. "destroy
    target creature and target Aura".
    """
    targets = event.get("targets")
    if (not isinstance(targets, list) or not targets or not all(isinstance(t, str) for t in targets)
            or len(set(targets)) != len(targets)):
        raise IllegalAction("bad_event", "targets: expected a non-empty list of distinct ids")
    for i in range(len(targets)):
        _permanent(game, {"target": targets[i]}, "target")
    no_regen = frozenset(targets) if event.get("cant_be_regenerated") else frozenset()
    return lambda decider: game.destroy(targets, "destroy effect", decider, no_regen)


def sacrifice(game: GameBase, event):
    """``{"type": "sacrifice", "object": ID}``: its controller sacrifices it (CR 701.17a)."""
    obj = _permanent(game, event, "object")
    return lambda decider: game.sacrifice(obj)


def modify_pt(game: GameBase, event):
    """``{"type": "modify_pt", "object": ID, "power": N, "toughness": N}``.

    The creature gets +N/+N (or -N/-N) until end of turn: layer 7c (CR 613.4c).
    """
    obj = _creature(game, event, "object")
    power, toughness = _int(event, "power"), _int(event, "toughness")
    return lambda decider: game.add_effect(obj.id, "7c", power, toughness, source="modify_pt")


def set_base_pt(game: GameBase, event):
    """``{"type": "set_base_pt", "object": ID, "power": N, "toughness": N}`` (N >= 0).

    "Target creature has base power and toughness N/N until end of turn": layer 7b
    (CR 613.4b), applied in timestamp order with other setting effects such as Octopus
    Umbra's (CR 613.7; Octopus Umbra ruling: effects that start to apply later overwrite it).
    """
    obj = _creature(game, event, "object")
    power, toughness = _int(event, "power", 0), _int(event, "toughness", 0)
    return lambda decider: game.add_effect(obj.id, "7b", power, toughness, source="set_base_pt")


def switch_pt(game: GameBase, event):
    """``{"type": "switch_pt", "object": ID}``: "switch target creature's power and
    toughness until end of turn", layer 7d (CR 613.4d), after all counters and modifying
    effects whatever their timestamps."""
    obj = _creature(game, event, "object")
    return lambda decider: game.add_effect(obj.id, "7d", 0, 0, source="switch_pt")


def create_effect(game: GameBase, event):
    """``{"type": "create_effect", "affects": "creatures_you_control", "controller": P,
    "power": N, "toughness": N}``: an anthem until end of turn, "creatures you control get
    +N/+N until end of turn" (layer 7c, CR 613.4c). It affects the creatures P controls
    as it resolves, not those that enter later (CR 611.2c); one timestamp for all.
    """
    if event.get("affects") != "creatures_you_control":
        raise IllegalAction("bad_event", f"affects={event.get('affects')!r}: expected 'creatures_you_control'")
    controller = event.get("controller")
    if not _is_player(game, controller):
        raise IllegalAction("bad_event", f"controller={controller!r} is not a player")
    power, toughness = _int(event, "power"), _int(event, "toughness")

    def perform(decider):
        affected = [o.id for o in game.battlefield()
                    if o.controller == controller and characteristics(game, o).is_creature]
        if affected:
            game.add_effect(affected, "7c", power, toughness, source="create_effect")

    return perform


def add_counters(game: GameBase, event):
    """``{"type": "add_counters", "object": ID, "kind": "+1/+1" | "-1/-1" | "+1/+0" | ..., "amount": N}``.

    Put N >= 1 power/toughness counters of that kind on a permanent (CR 122.1a; layer 7c,
    CR 613.4c). +1/+1 and -1/-1 counters then annihilate as a state-based action
    (CR 704.5q). Logged as ``counters_added``.
    """
    obj = _permanent(game, event, "object")
    kind = event.get("kind")
    if counter_pt(kind) is None:
        raise IllegalAction("bad_event", f"kind={kind!r}: expected a power/toughness counter such as '+1/+1'")
    amount = _int(event, "amount", 1)

    def perform(decider):
        obj.counters[kind] = obj.counters.get(kind, 0) + amount
        game.log.append({"kind": "counters_added", "object": obj.id, "counter": kind, "amount": amount})

    return perform


def cast_permanent(game: GameBase, event, definition, script):
    """``{"type": "cast", "card": NAME, "controller": P, "targets": [ID] (an Aura) or [], "id": NEW_ID}``:
    a permanent spell resolves at once (the stack isn't modelled).

    It becomes a permanent and enters the battlefield under P's control (CR 608.3a), summoning sick
    if it is a creature (302.6); an Aura spell targets what it will enchant (303.4a, 601.2c) and
    enters attached to it (608.3c); an Equipment enters unattached. Its enters abilities trigger
    (603.6a). A land is played, not cast (CR 305.1): refused. An Aura's target must be legal as it
    is cast (601.2c; it is also checked on resolution, 608.3b, the same moment here), else
    IllegalAction. Logged as a ``zone_change`` from nowhere (as a card from outside the game) with
    cause ``{"event": "cast", "by": P}``. Not modelled (declined): an Aura that enchants a player, a
    permanent that may enter as a copy (Clone: the choice on resolution).
    """
    name = definition.name
    if "Land" in definition.types:
        raise IllegalAction("not_a_spell", f"{name} is a land: it is played, not cast (CR 305.1)")
    controller = event.get("controller")
    if not _is_player(game, controller):
        raise IllegalAction("bad_event", f"controller={controller!r} is not a player")
    oid = event.get("id")
    if not isinstance(oid, str) or not oid or oid in game.objects or oid in game.last_known or oid in game.players:
        raise IllegalAction("bad_event", f"id={oid!r}: a permanent spell needs a new, unused object id")
    if "x" in event or "copy_of" in event or event.get("attach_to") is not None:
        raise IllegalAction("bad_event", "x, copy_of and attach_to are put_onto_battlefield's fields, not cast's")
    targets = event.get("targets", [])
    if not isinstance(targets, list):
        raise IllegalAction("bad_event", "targets: expected a list")
    if script.enters_as_copy is not None:
        raise Unsupported("cast:enters as a copy", f"{name} may enter as a copy: its choice on resolution is "
                                                   f"not modelled for a cast")
    attach_to = None
    if "Aura" in definition.subtypes:
        if script.enchant == "player":
            raise Unsupported("ability:enchant player", f"{name} enchants a player (not modelled)")
        if len(targets) != 1:
            raise IllegalAction("illegal_target", f"{name} is an Aura spell: it takes 1 target, got {len(targets)}")
        target = _permanent(game, {"target": targets[0]}, "target")
        if not game.could_enchant(script, controller, oid, target.id) or _protected_from(game, target, definition):
            raise IllegalAction("illegal_target", f"{name} can't target {target.id!r}: it can't enchant it "
                                                  f"(CR 303.4a, 608.3b)")
        attach_to = target.id
    elif targets:
        raise IllegalAction("illegal_target", f"{name} is a permanent spell with no target, got {targets!r}")

    def perform(decider):
        game.new_object(oid, name, controller, attach_to=attach_to, cause={"event": "cast", "by": controller})

    return perform


def put_onto_battlefield(game: GameBase, event):
    """``{"type": "put_onto_battlefield", "id": NEW_ID, "card": NAME, "controller": P,
    "attach_to": ID?, "copy_of": ID?, "x": N?}``.

    A card from outside the game enters the battlefield under P's control; an Aura
    enters attached to ``attach_to``, which must be legal (CR 303.4i).

    ``x`` (cards with {X} in their mana cost only): the card is a spell cast with X = N
    that resolves, so its "enters with X +1/+1 counters" uses N (CR 107.3m); without
    it X is 0. ``copy_of`` (Clone: any creature on the battlefield; Mirror Image: a
    creature P controls): it enters as a copy of that creature (CR 707.5); without it,
    it enters as itself (a 0/0 Clone). ``tapped`` (capability ``put_onto_battlefield.tapped``):
    "put onto the battlefield tapped", it enters tapped (CR 614.1c style; 110.5b: it doesn't
    become tapped, nothing is logged for it).
    """
    oid = event.get("id")
    if not isinstance(oid, str) or not oid or oid in game.objects or oid in game.last_known:
        raise IllegalAction("bad_event", f"id={oid!r}: expected a new, unused object id")
    try:
        definition, script = card(event.get("card"))
    except (UnknownCard, TypeError) as exc:
        raise IllegalAction("unknown_card", str(exc)) from None
    if not definition.types or set(definition.types) & {"Instant", "Sorcery"}:
        raise IllegalAction("not_a_permanent", f"{definition.name} is not a permanent card")
    controller = event.get("controller")
    if not _is_player(game, controller):
        raise IllegalAction("bad_event", f"controller={controller!r} is not a player")
    attach_to = _entering_attached_to(game, event, definition, script, controller, oid)
    x = 0
    if "x" in event:
        if not definition.x_in_cost:
            raise IllegalAction("bad_event", f"x: {definition.name} has no {{X}} in its mana cost")
        x = _int(event, "x", 0)
    tapped = event.get("tapped", False)
    if not isinstance(tapped, bool):
        raise IllegalAction("bad_event", f"tapped: expected true or false, got {tapped!r}")
    copy_of = event.get("copy_of")
    if copy_of is not None:
        _check_copy_of(game, event, definition, script, controller)

    def perform(decider):
        entering = {"attach_to": attach_to, "spell_x": x}
        if tapped:
            entering["tapped"] = True
        if copy_of is not None:
            entering.update(copy_effect=game.copy_source_values(game.objects[copy_of]), copy_of=copy_of,
                            cause={"event": "put_onto_battlefield", "copy_of": copy_of})
        game.new_object(oid, definition.name, controller, **entering)

    return perform


def _entering_attached_to(game: GameBase, event, definition, script, controller: str, oid: str) -> str | None:
    """What a permanent put onto the battlefield enters attached to: an Aura to a legal
    ``attach_to`` (CR 303.4i), an Equipment of the card database to a creature if it says so
    (CR 301.5c), anything else to nothing (an ``attach_to`` is refused)."""
    attach_to = event.get("attach_to")
    if "Aura" in definition.subtypes:
        if script.enchant == "player":
            raise Unsupported("ability:enchant player", f"{definition.name} enchants a player (not modelled)")
        target = _permanent(game, {"attach_to": attach_to}, "attach_to")
        if not game.could_enchant(script, controller, oid, target.id) \
                or _protected_from(game, target, definition):
            raise IllegalAction("illegal_attachment", f"{definition.name} can't enchant {target.id!r}")
        return attach_to
    if "Equipment" in definition.subtypes and script.model is not None:
        if attach_to is not None:  # CR 301.5c: it enters attached to a creature
            target = _creature(game, {"attach_to": attach_to}, "attach_to")
            if _protected_from(game, target, definition):
                raise IllegalAction("illegal_attachment", f"{definition.name} can't equip {target.id!r} "
                                                          f"(CR 702.16c)")
        return attach_to
    if attach_to is not None:
        raise IllegalAction("illegal_attachment", f"{definition.name} is not an Aura")
    return None


def _check_copy_of(game: GameBase, event, definition, script, controller: str) -> None:
    """``copy_of``: Clone copies any creature, Mirror Image one its controller controls (CR 707.5)."""
    if script.enters_as_copy is None:
        raise IllegalAction("bad_event", f"copy_of: {definition.name} can't enter as a copy")
    original = _creature(game, event, "copy_of")
    if script.enters_as_copy == "creature you control" and original.controller != controller:
        raise IllegalAction("illegal_choice", f"{definition.name} copies a creature you control; "
                                              f"{original.id!r} is controlled by {original.controller}")


def attach(game: GameBase, event):
    """``{"type": "attach", "aura": ID, "to": ID}``: move an Aura (Felidar Umbra's ability).

    The Aura gets a new timestamp (CR 613.7e); an illegal attachment is refused and the
    Aura doesn't move (CR 303.4j).
    """
    aura = _permanent(game, event, "aura")
    if "Equipment" in characteristics(game, aura).subtypes and game.copiable_values(aura)[1].model is not None:
        # An Equipment of the card database: attach it to a creature (CR 301.5c, 701.3a);
        # attaching it to the creature it equips does nothing, which is refused like a move
        # of an Aura to where it is (CR 701.3b).
        target = _creature(game, event, "to")
        if target.id == aura.attached_to or _protected_from(game, target, aura):
            raise IllegalAction("illegal_attachment", f"{aura.card.name} can't become attached to {target.id!r}")
        return lambda decider: game.attach_aura(aura, target)
    if not characteristics(game, aura).is_aura:
        raise IllegalAction("not_an_aura", f"aura={aura.id!r} is not an Aura")
    target = _permanent(game, event, "to")
    if target.id == aura.attached_to or not game.can_enchant(aura, target.id):
        raise IllegalAction("illegal_attachment", f"{aura.card.name} can't become attached to {target.id!r}")

    return lambda decider: game.attach_aura(aura, target)


def _protected_from(game: GameBase, target, attachment) -> bool:
    """Whether ``target`` has protection from ``attachment`` (an object or a card definition):
    it can't be enchanted or equipped by it (CR 702.16c)."""
    keywords = characteristics(game, target).keywords
    if not any(k.startswith("protection from ") for k in keywords):
        return False
    ch = characteristics(game, attachment) if hasattr(attachment, "zone") else attachment
    return protected_from(keywords, ch.colors, ch.types)


def activate_regeneration(game: GameBase, event):
    """``{"type": "activate_regeneration", "object": ID}``: "Regenerate this" resolves.

    Creates a regeneration shield for this turn (CR 701.15a). Mana is not modelled.
    """
    obj = _permanent(game, event, "object")
    if not game.copiable_values(obj)[1].regenerate:
        raise IllegalAction("no_such_ability", f"object={obj.id!r} ({obj.card.name}) has no regeneration ability")

    def perform(decider):
        obj.regeneration_shields += 1
        game.log.append({"kind": "regeneration_shield", "object": obj.id})

    return perform


def set_combat(game: GameBase, event):
    """``{"type": "set_combat", "object": ID, "status": "attacking" | "blocking" | null}``.

    Combat status as a flag (combat itself is not modelled) so that effects that remove
    a creature from combat (regeneration, CR 701.15a) can be seen.
    """
    obj = _creature(game, event, "object")
    status = event.get("status")
    if status not in COMBAT_STATUSES:
        raise IllegalAction("bad_event", f"status={status!r}: expected one of {list(COMBAT_STATUSES)}")
    if status is not None and status != obj.combat:
        _decline_combat(game, obj, status)

    def perform(decider):
        obj.combat = status

    return perform


def _decline_combat(game: GameBase, obj, status) -> None:
    """Combat is a status here, not declared attackers and blockers (CR 508, 509): where a
    card model's combat ability would matter, decline. A creature that can't block is made
    to block, one with (or attached to a permanent with) a combat restriction or a combat
    trigger ("Whenever ~ attacks", "blocks", "becomes blocked") changes combat status, or
    anything blocks while such a creature attacks."""
    def statics(o):
        models = [game.copiable_values(o)[1].model] + [game.copiable_values(a)[1].model for a in game.attached_to(o.id)]
        return [a for m in models if m is not None for a in m.abilities]

    mine = statics(obj)
    if status == "blocking" and any(a.static == "can't block" for a in mine):
        raise Unsupported("ability:can't block", f"{obj.card.name} can't block (CR 509.1b)")
    combat = [a for a in mine if a.static == "combat restriction"
              or (a.kind == "triggered" and a.trigger not in ("enters", "dies"))]
    if combat:
        raise Unsupported("ability:combat", f"{obj.card.name}: {combat[0].text!r} (combat is not modelled)")
    if status == "blocking" and any(o.combat == "attacking" and any(
            a.static == "combat restriction" or (a.kind == "triggered" and a.trigger not in ("enters", "dies"))
            for a in statics(o)) for o in game.battlefield()):
        raise Unsupported("ability:combat", "an attacking creature's combat ability would matter")


def cleanup(game: GameBase, event):
    """``{"type": "cleanup"}``: the cleanup step (CR 514.2).

    All damage is removed from permanents and "until end of turn" and "this turn"
    effects end (including regeneration shields); combat is over, so combat status ends.
    """

    def perform(decider):
        for obj in game.battlefield():
            game.remove_damage(obj)
            if obj.regeneration_shields:
                obj.regeneration_shields = 0
            if obj.combat is not None:
                obj.combat = None
        game.effects = [e for e in game.effects if not e.until_end_of_turn]
        game.empty_mana_pools()  # CR 106.4: the step ends

    return perform


def change_control(game: GameBase, event):
    """``{"type": "change_control", "object": ID, "controller": P}``: "P gains control of target
    permanent", a resolved effect with no duration (layer 2, CR 613.1b), e.g. Agent of
    Treachery's enters ability. See :mod:`reference_engine.control`."""
    obj = _permanent(game, event, "object")
    controller = event.get("controller")
    if not _is_player(game, controller):
        raise IllegalAction("bad_event", f"controller={controller!r} is not a player")
    return lambda decider: game.change_control(obj, controller)


HANDLERS = {
    "cast": cast,
    "damage": damage,
    "destroy": destroy_event,
    "sacrifice": sacrifice,
    "modify_pt": modify_pt,
    "set_base_pt": set_base_pt,
    "switch_pt": switch_pt,
    "create_effect": create_effect,
    "add_counters": add_counters,
    "put_onto_battlefield": put_onto_battlefield,
    "attach": attach,
    "activate_regeneration": activate_regeneration,
    "set_combat": set_combat,
    "cleanup": cleanup,
    "change_control": change_control,
    "activate": activation.activate,
    "pass_step": turn.pass_step,
    "begin_turn": turn.begin_turn,
}
HANDLERS.update(chance.HANDLERS)  # flip_coins, roll_dice
combat_events.extend(HANDLERS)  # declare_attackers, declare_blockers, combat_damage, end_of_combat; set_combat in combat
import reference_engine.steps as steps  # noqa: E402

HANDLERS.update(steps.HANDLERS)  # begin_step, edict
HANDLERS.update(zones.HANDLERS)  # exile, return_to_hand, flicker
