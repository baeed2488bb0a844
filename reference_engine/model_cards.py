"""Cards played from their card model: every modelled card of the card data that has no
hand-written script (``cards.model``, ``cards.reader``; :func:`reference_engine.cards.script_from_model`).

What the model says, the engine does through the same procedures as the curated cards:

* Spells (instants and sorceries, the ``cast`` event): each :class:`cards.model.Effect` in
  order. The spell is the source of its damage (CR 120.3), logged by its name, with no
  deathtouch or lifelink (it has no keywords). Targets are the event's ``targets``, taken
  in order by each targeting effect (``count`` of them, fewer for "up to"); a target that
  isn't legal (wrong kind or filters, not on the battlefield, hexproof or shroud, CR 702.11,
  702.18, protection from the spell's quality, CR 702.16b) is ``IllegalAction``
  (``"illegal_target"``) and changes nothing.
* Triggered abilities "When ~ enters" and "When ~ dies" (CR 603.6a, 603.6c, 700.4): they
  trigger as the curated ones do, choose targets as they are put on the stack (decider kind
  ``"target"``, nobody asked when only one is legal; no legal target: ``trigger_removed``,
  CR 603.3d), ask "you may" on resolution (kind ``"may"``, options ``["yes", "no"]``, CR
  603.5) and recheck their targets (608.2b). A dies ability uses its source as it last
  existed (CR 603.10a): its name, controller and keywords.
* Activated abilities (the ``activate`` event): costs are paid as for every ability
  (:mod:`reference_engine.costs`), then the effects resolve with the source's keywords
  (deathtouch, lifelink on any damage it deals, CR 702.2, 702.15b) as it is or, if it left
  the battlefield paying the cost, as it last existed.
* Static abilities: anthems ("Creatures you control get +1/+1", layer 7c and layer 6,
  CR 613.4c, 613.1f) while their source is on the battlefield, with its timestamp; Aura
  and Equipment bonuses are script fields (``enchanted_pt``, ``equipped_pt``, ...).

Where the engine can't be right, it declines (:class:`Unsupported`): a planeswalker as the
target of damage, damage a protection would prevent (CR 702.16e), drawing from a library
with too few cards (704.5b) or one a search shuffled, a self-reference ("it") the reader
can't tell from a target, more than one target for a triggered or activated ability.

Log entries: as for the curated cards (``damage`` with ``source`` the spell's name or the
permanent's id, ``zone_change`` with cause ``{"event": "destroy", "by": NAME}``,
``{"event": "create_token", "by": NAME or ID}``, ``{"event": "draw", "by": NAME or ID}``
for a card drawn, library to hand), ``life_gained``, ``life_lost`` (``player``, ``amount``),
``counters_added``, ``tapped`` / ``untapped`` (cause ``"effect"``), ``trigger``,
``trigger_removed``, ``ability_resolved``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cards.model import Ability, Effect

from harness import decisions as D
from .abilities import MODEL_EFFECT
from .cards import CardDef, CardScript
from .errors import Unsupported
from .event_fields import new_ids
from .layers import characteristics, copiable_scripts
from .objects import BATTLEFIELD, GameObject, PTEffect, Trigger
# What effects target and affect, and the checks before they resolve; re-exported from here, where
# the engine and the forks have imported them from (reference_engine.model_targets).
from .model_targets import (COLOR_LETTERS, Source, assign_targets, check_effects, deal_damage,  # noqa: F401
                            divide_damage, each_affected, legal_target, object_matches, protected_from,
                            protections, targeting, token_definition)
from .triggers import MODEL_TRIGGER  # its ability in ``Trigger.info``

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)


@dataclass(frozen=True, slots=True)
class Affecting:
    """What one effect affects as it resolves: ``affected`` (ids of objects and players, in
    order), the ``objects`` among them still on the battlefield and the ``players``."""

    affected: list[str]
    objects: list[str]
    players: list[str]


#: The method of :class:`ModelAbilities` that performs each action of ``cards.model.ACTIONS``.
EFFECT_ACTIONS = {
    "destroy": "effect_destroy", "damage": "effect_damage", "pt": "effect_pt_or_keywords",
    "gain_keywords": "effect_pt_or_keywords", "counters": "effect_counters", "gain_life": "effect_gain_life",
    "lose_life": "effect_lose_life", "draw": "effect_draw", "create_tokens": "effect_create_tokens",
    "tap": "effect_tap_or_untap", "untap": "effect_tap_or_untap", "regenerate": "effect_regenerate",
    "exile": "effect_exile", "return_to_hand": "effect_return_to_hand", "flicker": "effect_flicker",
}


class ModelAbilities(GameBase):
    """Abilities read from card models, a mixin of :class:`reference_engine.game.Game`."""

    # ------------------------------------------------------------ sources
    def source_of(self, obj: GameObject) -> Source:
        """``obj`` on the battlefield as a source of its abilities."""
        ch = characteristics(self, obj)
        return Source(obj.id, ch.name, obj.id, obj.controller, ch.colors, ch.types, ch.keywords, ch.power,
                      ch.toughness)

    def spell_source(self, definition: CardDef, controller: str) -> Source:
        """An instant or sorcery as the source of its effects (it has no keywords)."""
        return Source(definition.name, definition.name, None, controller, definition.colors, definition.types)

    # ------------------------------------------------------------ effects
    def resolve_model_effects(self, effects, source: Source, assigned: dict[int, list], decider,
                              cause: str = "ability", token_ids: list | None = None) -> None:
        """Perform ``effects`` in order (CR 608.2c); each targeting effect does nothing to a
        target no longer legal (608.2b)."""
        new_ids = list(token_ids or [])
        known: dict[str, tuple] = {}  # each target's power and toughness as it last existed (CR 608.2h)
        for i, effect in enumerate(effects):
            for oid in (t for ts in assigned.values() for t in ts):
                obj = self.objects.get(oid)
                if obj is not None and obj.zone == BATTLEFIELD:
                    ch = characteristics(self, obj)
                    known[oid] = (ch.power, ch.toughness)
            if effect.per is not None or effect.equal_to is not None:
                effect = self.amount_from_the_game(effects, i, source, assigned, known)
            scope = effect.affected.scope
            if scope == "target":
                affected = [t for t in assigned.get(i, []) if legal_target(self, effect.affected, t, source)]
            elif scope == "each":
                affected = each_affected(self, effect.affected, source)
            elif scope == "self":
                obj = self.objects.get(source.obj) if source.obj else None
                affected = [obj.id] if obj is not None and obj.zone == BATTLEFIELD else []
            elif scope == "you":
                affected = [source.controller]
            else:  # pragma: no cover - declined before (check_effects)
                raise Unsupported("ability:scope", f"scope {scope!r}")
            self.perform_model_effect(effect, affected, source, decider, cause, new_ids)

    def amount_from_the_game(self, effects, i: int, source: Source, assigned: dict, known: dict) -> Effect:
        """Effect ``effects[i]`` with the amount it reads from the game as it resolves (CR 608.2h;
        :class:`cards.model.Effect` ``per`` and ``equal_to``): "N life for each creature you control"
        counts them now; "life equal to its power" reads the object now, or as it last existed if
        it left (the source, the target of the effect before it, or the creature that died). A
        negative power gives 0 (CR 107.1b)."""
        effect = effects[i]
        if effect.per is not None:
            counted = [x for x in each_affected(self, effect.per, source) if x in self.objects]
            return replace(effect, amount=effect.amount * len(counted), per=None)
        which, of = effect.equal_to
        value = None
        if of == "that creature":
            value = source.that_creature
        elif of == "self":
            obj = self.objects.get(source.obj) if source.obj else None
            if obj is not None and obj.zone == BATTLEFIELD:
                ch = characteristics(self, obj)
                value = (ch.power, ch.toughness)
            else:
                value = (source.power, source.toughness)
        elif of == "target":
            earlier = [j for j in targeting(effects) if j < i]
            oid = assigned.get(earlier[-1], [None])[0] if earlier and assigned.get(earlier[-1]) else None
            value = known.get(oid)
        n = (value or (None, None))[0 if which == "power" else 1]
        return replace(effect, amount=max(0, n or 0), equal_to=None)

    def creature_dies_triggers(self, dying: GameObject) -> None:
        """"Whenever a / another creature [you control] dies" abilities of the permanents on the
        battlefield trigger as ``dying`` dies (CR 603.2, 700.4), looking back in time (603.10a):
        called while it and everything leaving with it are still on the battlefield, so a watcher
        dying at the same time sees it. Each remembers the creature as it last existed."""
        ch = characteristics(self, dying)
        if not ch.is_creature:
            return
        for watcher, script in copiable_scripts(self):  # each permanent with its copiable values' script
            model = script.model
            if model is None:
                continue
            for ability in model.of("triggered"):
                if ability.trigger == "a creature dies" and self.watches(watcher, dying, ability.affected):
                    source = replace(self.source_of(watcher), that_creature=(ch.power, ch.toughness))
                    self.trigger(Trigger(watcher.id, watcher.controller, "a creature dies", MODEL_TRIGGER,
                                         {"ability": ability, "source": source, "died": dying.id}))

    def watches(self, watcher: GameObject, dying: GameObject, watched) -> bool:
        """Whether a creature dies ability of ``watcher`` watches ``dying`` (its filters: ``other``,
        ``nontoken``, ``you control``, ``opponent controls``; control as they last existed)."""
        for f in (watched.filters if watched is not None else ()):
            if (f == "other" and dying.id == watcher.id) or (f == "nontoken" and dying.token) \
                    or (f == "you control" and dying.controller != watcher.controller) \
                    or (f == "opponent controls" and dying.controller == watcher.controller):
                return False
            if f not in ("other", "nontoken", "you control", "opponent controls"):
                raise Unsupported("ability:filter", f"the filter {f!r} of a creature dies trigger is not modelled")
        return True

    def perform_model_effect(self, effect: Effect, affected: list[str], source: Source, decider, cause: str,
                             new_ids: list) -> None:
        """One effect on the objects and players ``affected``: the method of :data:`EFFECT_ACTIONS`
        for its action, given the objects on the battlefield and the players among them."""
        objects = [a for a in affected if a in self.objects and self.objects[a].zone == BATTLEFIELD]
        players = [a for a in affected if a in self.players]
        method = EFFECT_ACTIONS.get(effect.action)
        if method is None:  # pragma: no cover - every action of cards.model.ACTIONS is handled
            raise Unsupported("ability:action", f"action {effect.action!r}")
        getattr(self, method)(effect, Affecting(affected, objects, players), source, decider, new_ids)

    def effect_destroy(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        self.destroy(on.objects, source.name, decider,
                     cant_be_regenerated=frozenset(on.objects) if effect.cant_be_regenerated else frozenset())

    def effect_damage(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        for target in on.affected:
            if target in self.players or target in on.objects:
                deal_damage(self, source.label, source.keywords, source.controller, target, effect.amount)

    def effect_pt_or_keywords(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        """"+N/+M until end of turn" (layer 7c, creatures only) and "gains <keywords>" (layer 6)."""
        action = effect.action
        creatures = [o for o in on.objects if characteristics(self, self.objects[o]).is_creature
                     or action == "gain_keywords"]
        if creatures and action == "pt":
            self.add_effect(creatures, "7c", effect.power, effect.toughness, source=source.label)
        if creatures and effect.keywords:
            self.add_keyword_effect(creatures, effect.keywords, source.label)

    def effect_counters(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        kind = effect.counter
        for oid in on.objects:
            assert kind is not None, "the reader gives a counters effect its counter kind"
            obj = self.objects[oid]
            obj.counters[kind] = obj.counters.get(kind, 0) + effect.amount
            self.log.append({"kind": "counters_added", "object": oid, "counter": kind, "amount": effect.amount})

    def effect_gain_life(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        for p in on.players if effect.amount else ():  # gaining 0 life is no life gain event (CR 119.9)
            self.players[p].life += effect.amount
            self.log.append({"kind": "life_gained", "player": p, "amount": effect.amount})

    def effect_lose_life(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        for p in on.players if effect.amount else ():
            self.players[p].life -= effect.amount
            self.log.append({"kind": "life_lost", "player": p, "amount": effect.amount})

    def effect_draw(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        for p in on.players:
            self.draw_cards(p, effect.amount, source.name)

    def effect_create_tokens(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        definition, script = token_definition(effect.token)
        for p in on.players:
            for n in range(1, effect.amount + 1):
                oid = new_ids.pop(0) if new_ids else self.new_token_id(f"{source.label}.token{n}")
                self.create_token(oid, definition, script, p, source.label)

    def effect_tap_or_untap(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        for oid in on.objects:
            self.set_tapped(self.objects[oid], effect.action == "tap", "effect")

    def effect_regenerate(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        for oid in on.objects:
            self.objects[oid].regeneration_shields += 1
            self.log.append({"kind": "regeneration_shield", "object": oid})

    def effect_exile(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        self.exile(on.objects, source.name)  # CR 701.11a: all at once (reference_engine.zones)

    def effect_return_to_hand(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        self.return_to_hand(on.objects, source.name)  # CR 400.3

    def effect_flicker(self, effect: Effect, on: Affecting, source: Source, decider, new_ids: list) -> None:
        """CR 610.3c, 400.7: each returns as a new object, "<old id>.returned"."""
        for oid in on.objects:
            obj = self.objects.get(oid)
            if obj is not None and obj.zone == BATTLEFIELD:
                under = source.controller if effect.returns_under == "you" else None
                self.flicker(obj, self.returned_id(oid), source.name, controller=under)

    def add_keyword_effect(self, affected, keywords, source: str | None) -> None:
        """"... gain(s) <keywords> until end of turn": a layer 6 effect (CR 613.1f), one
        timestamp for all the objects it affects (CR 611.2c)."""
        timestamp = self._tick()
        for oid in [affected] if isinstance(affected, str) else affected:
            self.effects.append(PTEffect(oid, "6", 0, 0, timestamp, True, source, tuple(keywords)))

    def draw_cards(self, player: str, amount: int, by: str) -> None:
        """``player`` draws ``amount`` cards (CR 121.1): the top cards of their library (the
        first library cards of the board) go to their hand, one at a time (121.2)."""
        for _ in range(amount):
            top = next((o for o in self.objects.values() if o.zone == "library" and o.owner == player), None)
            if top is None:  # pragma: no cover - declined before (check_effects)
                raise Unsupported("rule:draw from an empty library", f"{player}'s library is empty")
            del self.objects[top.id]  # to the end of the creation order: the next card is the new top
            self.objects[top.id] = top
            top.zone = "hand"
            top.timestamp = self._tick()
            self.log.append({"kind": "zone_change", "object": top.id, "from": "library", "to": "hand",
                             "cause": {"event": "draw", "by": by}})

    # ------------------------------------------------------------ spells
    def cast_model_spell(self, definition: CardDef, script: CardScript, controller: str, event: dict):
        """Validate a ``cast`` of a spell read from its card model; return ``perform(decider)``."""
        targets = event.get("targets", [])
        source = self.spell_source(definition, controller)
        model = script.model
        assert model is not None, "a model spell's script is derived from its card model (script_from_model)"
        effects = tuple(e for a in model.of("spell") for e in a.effects)
        text = " ".join(a.text for a in model.of("spell"))
        assigned = assign_targets(self, effects, targets, source)
        effects, assigned = divide_damage(effects, assigned, event, definition.name)
        check_effects(self, effects, assigned, source, text)
        token_ids = None
        if "token_ids" in event:
            count = sum(e.amount for e in effects if e.action == "create_tokens")
            token_ids = new_ids(self, event, "token_ids", count)

        def perform(decider):
            self.resolve_model_effects(effects, source, assigned, decider, "spell", token_ids)

        return perform

    # ------------------------------------------------------------ triggers
    def model_triggers(self, obj: GameObject, event: str, script: CardScript | None = None) -> None:
        """``obj``'s triggered abilities read from its model for ``event`` ("enters", "dies")."""
        script = script if script is not None else self.copiable_values(obj)[1]
        if script.model is None:
            return
        for ability in script.model.of("triggered"):
            if ability.trigger == event:
                source = self.source_of(obj)
                self.trigger(Trigger(obj.id, obj.controller, event, MODEL_TRIGGER,
                                     {"ability": ability, "source": source}))

    def choose_model_targets(self, trigger: Trigger, decider) -> bool:
        """Targets of a model trigger as it is put on the stack (CR 603.3d): one per targeting
        effect, through the decider (kind ``"target"``); False if one has none."""
        ability: Ability = trigger.info["ability"]
        source: Source = trigger.info["source"]
        wanted = targeting(ability.effects)
        assigned: dict[int, list] = {}
        for i in wanted:
            affected = ability.effects[i].affected
            if affected.count != 1 or affected.up_to:
                raise Unsupported("ability:targets", f"{source.name}: {ability.text!r} (more than one target)")
            options = [o.id for o in self.battlefield() if legal_target(self, affected, o.id, source)] + \
                [p for p in self.players if legal_target(self, affected, p, source)]
            if not options:
                self.log.append({"kind": "trigger_removed", "source": trigger.source, "reason": "no legal target"})
                return False
            assigned[i] = [self._choose(trigger.controller, D.TARGET, options, decider)]
        trigger.info["assigned"] = assigned
        trigger.targets = [t for i in wanted for t in assigned[i]]
        return True

    def resolve_model_trigger(self, trigger: Trigger, decider) -> None:
        """A model trigger resolves (CR 608.2): "you may" asks its controller, an illegal target
        removes it (608.2b), then its effects."""
        ability: Ability = trigger.info["ability"]
        source: Source = trigger.info["source"]
        still = self.objects.get(trigger.source)
        if trigger.ability in ("enters", "upkeep", "draw step", "a creature dies") and still is not None \
                and still.zone == BATTLEFIELD:  # as it is now; else as it last existed (CR 608.2h)
            source = replace(self.source_of(still), that_creature=source.that_creature)
        assigned = trigger.info.get("assigned", {})
        if assigned and not any(legal_target(self, ability.effects[i].affected, t, source)
                                for i, ts in assigned.items() for t in ts):
            self.log.append({"kind": "trigger_removed", "source": trigger.source, "reason": "illegal target"})
            return
        check_effects(self, ability.effects, assigned, source, ability.text)
        if ability.optional and self._choose(trigger.controller, D.MAY, [D.YES, D.NO], decider) != D.YES:
            return
        self.resolve_model_effects(ability.effects, source, assigned, decider)

    # ------------------------------------------------------------ activated abilities
    def model_ability(self, obj: GameObject, ability) -> Ability:
        """The model ability an activated ability of ``obj`` is (by its index among the written ones)."""
        model = self.copiable_values(obj)[1].model
        assert model is not None, "a MODEL_EFFECT ability is one of a card model's"
        read = [a for a in model.abilities
                if (a.kind in ("mana", "activated") and not a.text.startswith("("))
                or (a.kind == "keyword" and a.keyword == "equip")]
        offset = len(self.printed_abilities(obj)) - len(read)  # a basic land type's abilities come first
        return read[ability.index - offset]

    def model_activation_targets(self, obj: GameObject, ability) -> list[str] | None:
        """Legal targets of a model activated ability (None: it doesn't target); declines more
        than one target and what :func:`check_effects` declines."""
        model = self.model_ability(obj, ability)
        source = self.source_of(obj)
        check_effects(self, model.effects, {}, source, model.text)
        wanted = targeting(model.effects)
        if not wanted:
            return None
        if len(wanted) > 1 or any(model.effects[i].affected.count != 1 or model.effects[i].affected.up_to
                                  for i in wanted):
            raise Unsupported("ability:targets", f"{source.name}: {model.text!r} (more than one target)")
        affected = model.effects[wanted[0]].affected
        return [o.id for o in self.battlefield() if legal_target(self, affected, o.id, source)] + \
            [p for p in self.players if legal_target(self, affected, p, source)]

    def target_options(self, obj: GameObject, ability):
        if ability.kind == MODEL_EFFECT:
            return self.model_activation_targets(obj, ability)
        return super().target_options(obj, ability)

    def pay_cost(self, obj: GameObject, ability, cost, player: str, decider) -> None:
        """Remember the source as it is before paying: if paying the cost makes it leave the
        battlefield ("Sacrifice ~"), its ability uses it as it last existed (CR 608.2h)."""
        if ability.kind == MODEL_EFFECT and obj.zone == BATTLEFIELD:
            self._activation_source = self.source_of(obj)
        return super().pay_cost(obj, ability, cost, player, decider)

    def resolve_activated_ability(self, obj: GameObject, ability, player: str, targets: list[str], decider) -> None:
        """A model activated ability resolves (CR 608.2): an illegal target makes it do nothing
        (608.2b); else its effects, from its source as it is, or as it last existed."""
        if ability.kind != MODEL_EFFECT:
            return super().resolve_activated_ability(obj, ability, player, targets, decider)
        model = self.model_ability(obj, ability)
        source = self.source_of(obj) if obj.zone == BATTLEFIELD else getattr(self, "_activation_source", None)
        self._activation_source = None
        if source is None:  # pragma: no cover - the snapshot is taken as the cost is paid
            source = self.source_of(obj)
        wanted = targeting(model.effects)
        assigned = {wanted[0]: list(targets)} if wanted else {}
        if targets and not legal_target(self, model.effects[wanted[0]].affected, targets[0], source):
            self.log.append({"kind": "trigger_removed", "source": obj.id, "reason": "illegal target"})
            return None
        self.log.append({"kind": "ability_resolved", "object": obj.id, "ability": ability.index,
                         "targets": list(targets)})
        self.resolve_model_effects(model.effects, source, assigned, decider)
        return None
