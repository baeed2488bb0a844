"""The stack and priority (capability ``stack``; CR 405, 117, 601.2, 602.2, 603.3, 608).

A game has a stack only when its board says so (``"stack": true``, generated only for an engine
that claims ``stack``); every other game plays as before: a spell or ability resolves as it is
cast or activated, and triggered abilities resolve within the event that triggered them.

In a game with the stack (a *stack game*):

* ``cast`` puts the spell on the stack (CR 601.2a) with the targets the event names, checked
  as it is cast (601.2c); every cast carries ``"id"``, the id of the spell (a new one, as for a
  permanent spell, which keeps it as it resolves). Its caster must hold priority (117.1); a
  sorcery, or a permanent spell without flash, only while the stack is empty (307.1, 117.1a;
  phases and "your turn" are not modelled: any player holding priority with the stack empty).
* ``activate`` of an ability that is not a mana ability pays its cost and puts the ability on
  the stack (602.2; targets chosen as it is activated, 602.2b); a mana ability still resolves at
  once (605.3a). The activating player (the permanent's controller) must hold priority (117.1,
  117.1d); an equip ability only with the stack empty (702.6a: "activate only as a sorcery").
* After every event (and after each resolution) state-based actions are checked (117.5, 704.3)
  and the abilities that triggered are put on the stack, in APNAP order starting with the
  active player, each player ordering their own (603.3b, decider kind ``"trigger_order"``);
  their targets are chosen then (603.3d). They don't resolve until everybody passes.
* ``{"type": "pass_priority", "player": P}``: P, who holds priority, passes (117.3d): priority
  goes to the next player in turn order, or, if every player has now passed in succession
  (117.4), the top object of the stack resolves (405.5, 608.1) and the active player receives
  priority (117.3b). Refused (IllegalAction) when P doesn't hold priority (``"no_priority"``),
  when the stack is empty (``"empty_stack"``: ending a step is ``pass_step``'s, 500.2) or in a
  game without the stack (``"no_stack"``).
* Any other event (an effect: ``destroy``, ``damage``, ``sacrifice``, ...) may happen while
  objects wait on the stack; it is no pass, so the succession of passes starts again (117.4:
  "without taking any actions in between"). The turn-structure events ``pass_step``,
  ``begin_turn``, ``begin_step`` and ``cleanup`` are refused while the stack is not empty
  (``"stack_not_empty"``, 500.2); ``begin_turn``/``begin_step`` make their player the active
  player; after them the active player receives priority (117.3a).

Resolution (608.2): a spell or ability whose targets are all illegal doesn't resolve (608.2b):
it is removed from the stack, and a spell goes to its owner's graveyard; one with some legal
targets doesn't affect the illegal ones. A target that left its zone, even if it came back
(CR 400.7: a new object with the id the harness follows), is illegal. An instant or sorcery
goes to its owner's graveyard as the last step of its resolution (608.2n); a permanent spell
enters the battlefield (608.3a), an Aura spell whose target is illegal goes to the graveyard
(608.3b). Triggered abilities use last known information for an object that left the
battlefield (603.10a, 608.2h): Hangarback Walker counts its counters as it last existed,
Penumbra Umbra copies the creature it enchanted as it last existed if it left before the
ability resolved.

Observation (stack games only): ``stack`` (bottom to top, :meth:`StackEntry.to_json`) and
``priority`` (``{"player", "passed", "active_player"}``). Log: ``put_on_stack`` (``object``,
``stack_kind``, ``controller``, ``targets``), ``resolved`` (``object``), ``removed_from_stack``
(``object``, ``reason``), and a spell's ``zone_change`` from ``"stack"`` (cause ``{"event":
"resolution", "rule": "608.2n" | "608.2b" | "608.3b"}``, or ``{"event": "cast", "by": P}`` for a
permanent spell that enters).

Declined (Unsupported, never a wrong verdict): a spell whose targets were legal as it was cast
and that can't be re-checked the same way as it resolves (a token id used meanwhile); a card
model's spell or ability some of whose targets left and came back while others are legal; a
triggered ability whose source, or the object it refers to, left the battlefield and came back
(or left twice) before it resolves, where that would matter (the engine keeps one last known
information per id); an activated ability whose source left or changed controller before it
resolves, where its effect depends on it.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, cast

import reference_engine.activation as activation
import reference_engine.events as _events
from .abilities import (DOUBLE_COUNTERS, EFFECT_NOT_IN_RULINGS, EQUIP, FLIP_A_COIN, LOOK_AND_EXILE_TOP,
                        SEARCH_BASIC_LAND_TAPPED, TAP_OR_UNTAP_ANOTHER)
from .cards import MODEL_SPELL, card
from .errors import BadBoard, IllegalAction, UnknownCard, Unsupported
from .model_cards import check_effects, legal_target, targeting
from .objects import BATTLEFIELD, GameObject, Trigger
from .records import StackEntry
from .triggers import MODEL_TRIGGER

if TYPE_CHECKING:
    from cards.model import Affected

    from .abilities import ActivatedAbility
    from .game_base import GameBase
    from .shapes import ObservedStack
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

SPELL, ABILITY = "spell", "ability"
#: Events of the turn structure: refused while the stack is not empty (CR 500.2).
TURN_EVENTS = frozenset({"pass_step", "begin_turn", "begin_step", "cleanup", "declare_attackers", "declare_blockers",
                         "combat_damage", "end_of_combat"})
#: IllegalAction reasons of a cast's validation that say a target is illegal (CR 608.2b).
TARGET_REASONS = frozenset({"illegal_target", "not_on_battlefield", "no_such_object"})
#: Triggered ability kinds whose effect doesn't depend on their source as it is now.
SOURCE_FREE_TRIGGERS = frozenset({"destroy nonartifact nonblack", "search artifact to graveyard", "create two Treasures",
                                  "copy enchanted creature, black", "thopter per +1/+1 counter"})
#: Activated ability kinds whose effect doesn't depend on their source as it is now.
SOURCE_FREE_ABILITIES = frozenset({DOUBLE_COUNTERS, LOOK_AND_EXILE_TOP, TAP_OR_UNTAP_ANOTHER, SEARCH_BASIC_LAND_TAPPED,
                                   FLIP_A_COIN, EQUIP, EFFECT_NOT_IN_RULINGS})
#: Abilities that trigger when their source leaves the battlefield (CR 603.6c, 603.10a).
LEAVES_ABILITIES = frozenset({"dies", "put into a graveyard"})


def copied_event(value):
    """A copy of an event (``value``) as :func:`copy.deepcopy` makes it, equal to it and sharing no
    dict or list with it: a JSON event's dicts and lists are copied here, its strings, numbers,
    booleans and nulls are themselves (immutable); any other value is copied by :func:`copy.deepcopy`."""
    kind = type(value)
    if kind is dict:
        return {key: copied_event(item) for key, item in value.items()}
    if kind is list:
        return [copied_event(item) for item in value]
    if kind is str or kind is int or value is None or kind is bool or kind is float:
        return value
    return copy.deepcopy(value)


class StackRules(GameBase):
    """The stack and priority, a mixin of :class:`reference_engine.game.Game` (module docstring).

    Fork API: :meth:`top_of_stack` (what resolves next), :meth:`all_passed` (whether a pass
    completes the succession), :meth:`apnap_order` (whose triggers go on the stack first),
    :meth:`resolve_entry`, :meth:`fizzle` (a spell or ability whose targets are all illegal).
    """

    stack_game = False

    # ------------------------------------------------------------------ set-up
    def init_stack(self, board: dict) -> None:
        """Read the board's ``stack`` flag (BadBoard if it isn't true or false)."""
        value = board.get("stack", False)
        if not isinstance(value, bool):
            raise BadBoard(f"board.stack: expected true or false, got {value!r}")
        self.stack_game = value
        first = next(iter(self.players))
        self.active_player = first  # CR 102.1, 117.3a: the board's first player
        self.priority_player = first
        self.passed: list[str] = []
        self.departures: dict[str, int] = {}  # times each id left the battlefield (CR 400.7)
        self.stack_ids: set[str] = set()  # every id a stack object ever had
        self._deferring = False
        self.resolving: StackEntry | None = None

    # ------------------------------------------------------------------ queries
    def apnap_order(self) -> list[str]:
        """CR 603.3b, 101.4: the active player first, then the others in turn order."""
        players = list(self.players)
        if not self.stack_game:
            return players
        i = players.index(self.active_player)
        return players[i:] + players[:i]

    def next_player(self, player: str) -> str:
        """The player after ``player`` in turn order (CR 117.3d)."""
        players = list(self.players)
        return players[(players.index(player) + 1) % len(players)]

    def all_passed(self, player: str) -> bool:
        """Whether ``player`` passing now means every player has passed in succession (CR 117.4)."""
        still = {p for p, state in self.players.items() if not state.lost}
        return still <= set(self.passed) | {player}

    def top_of_stack(self) -> StackEntry:
        """The object that resolves next: the last one put on the stack (CR 405.5, 608.1)."""
        return cast(StackEntry, self.stack[-1])  # in a stack game every object on the stack is an entry

    def stamp(self, oid) -> tuple | None:
        """What object ``oid`` is now: ``(zone, timestamp, times it left the battlefield)``, or
        None for a player or an unknown id."""
        obj = self.objects.get(oid) if isinstance(oid, str) else None
        if obj is None:
            return None
        return obj.zone, obj.timestamp, self.departures.get(oid, 0)

    def same_object(self, oid: str, stamp: tuple | None) -> bool:
        """Whether ``oid`` is still the object ``stamp`` recorded: it hasn't changed zones since
        (CR 400.7; a permanent's timestamp also changes as it is attached, so on the battlefield
        only leaving it counts)."""
        if stamp is None:
            return oid in self.players
        obj = self.objects.get(oid)
        if obj is None:
            return False
        zone, timestamp, departures = stamp
        if obj.zone != zone or self.departures.get(oid, 0) != departures:
            return False
        return zone == BATTLEFIELD or obj.timestamp == timestamp

    def leaves_triggers(self, obj: GameObject, to_zone: str) -> None:
        """Count the departure (the object becomes a new one, CR 400.7), then trigger as before."""
        self.departures[obj.id] = self.departures.get(obj.id, 0) + 1
        super().leaves_triggers(obj, to_zone)

    def stack_id(self, source: str) -> str:
        """A new id for an ability of ``source``: ``"<source>.ability<n>"``."""
        n = 1
        while f"{source}.ability{n}" in self.stack_ids or f"{source}.ability{n}" in self.objects:
            n += 1
        return f"{source}.ability{n}"

    def observe_stack(self) -> ObservedStack:
        """The observation's ``stack`` and ``priority`` fields (stack games only)."""
        return {"stack": [cast(StackEntry, e).to_json() for e in self.stack],
                "priority": {"player": self.priority_player, "passed": list(self.passed),
                             "active_player": self.active_player}}

    # ------------------------------------------------------------------ events
    def apply_with_stack(self, event: dict, decider) -> None:
        """``Game.apply`` in a stack game (module docstring): validate, perform, check
        state-based actions, put the abilities that triggered on the stack."""
        kind = event.get("type") if isinstance(event, dict) else None
        handler = _events.HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise IllegalAction("unknown_event", f"unknown event {event!r}")
        declined: dict | None = event
        if kind == "cast":
            perform = self.cast_to_stack(event)
        elif kind == "activate":
            perform = self.activate_to_stack(event)
        elif kind == "pass_priority":
            perform = handler(self, event)  # declines for the object that resolves (pass_priority)
            declined = None
        else:
            if kind in TURN_EVENTS and self.stack:
                raise IllegalAction("stack_not_empty", f"{kind}: the stack is not empty (CR 500.2)")
            perform = handler(self, event)
        if declined is not None:
            self.decline_if_unmodelled(declined)
        state = self.__dict__  # the log and the passes are not the state: set without Game.__setattr__
        state["log"] = []
        perform(decider)
        if kind in ("begin_turn", "begin_step"):
            self.active_player = event["player"]
        if kind in TURN_EVENTS:
            self.priority_player = self.active_player  # CR 117.3a
        if kind != "pass_priority":
            state["passed"] = []  # an action or an event between passes: no succession (CR 117.4)
        self.check_state_based_actions(decider)
        self.put_waiting_triggers(decider)

    def _check_priority(self, player: str, what: str) -> None:
        if player != self.priority_player:
            raise IllegalAction("no_priority", f"{what}: {player} doesn't hold priority, {self.priority_player} "
                                               f"does (CR 117.1)")

    def cast_to_stack(self, event: dict):
        """Validate a ``cast`` in a stack game; return ``perform`` that puts the spell on the stack."""
        perform = _events.cast(self, event)  # the cast's own validation: card, controller, targets (CR 601.2c)
        del perform
        definition, _ = card(event.get("card"))
        oid = event.get("id")
        if not isinstance(oid, str) or not oid or oid in self.objects or oid in self.last_known \
                or oid in self.players or oid in self.stack_ids:
            raise IllegalAction("bad_event", f"id={oid!r}: a spell on the stack needs a new, unused id")
        controller = event["controller"]
        self._check_priority(controller, f"cast {definition.name}")
        if "Instant" not in definition.types and "flash" not in definition.keywords and self.stack:
            raise IllegalAction("sorcery_timing", f"{definition.name} can be cast only while the stack is empty "
                                                  f"(CR 307.1, 117.1a)")
        targets = list(event.get("targets", []))

        def put(decider):
            entry = StackEntry(oid, SPELL, controller, targets, card=definition.name, event=copied_event(event))
            entry.stamps = {t: self.stamp(t) for t in targets}
            self.put_on_stack(entry)
            self.priority_player = controller  # CR 117.3c

        return put

    def activate_to_stack(self, event: dict):
        """Validate an ``activate`` in a stack game; ``perform`` pays the cost and puts a non-mana
        ability on the stack (a mana ability resolves at once)."""
        perform = activation.activate(self, event)
        obj = self.objects[event["object"]]
        ability = self.activated_abilities(obj)[event["ability"]]
        self._check_priority(obj.controller, f"activate {obj.card.name}'s ability {event['ability']}")
        if ability.kind == EQUIP and self.stack:
            raise IllegalAction("sorcery_timing", f"{obj.card.name}'s equip ability only as a sorcery (CR 702.6a)")
        player = obj.controller

        def put(decider):
            self._deferring = event
            try:
                perform(decider)
            finally:
                self._deferring = False
            self.priority_player = player  # CR 117.3c

        return put

    def resolve_activated_ability(self, obj, ability, player, targets, decider):
        """While an activation is being performed in a stack game, the ability goes on the stack
        (CR 602.2a); as it resolves, it does what it says."""
        if not self._deferring:
            return super().resolve_activated_ability(obj, ability, player, targets, decider)
        entry = StackEntry(self.stack_id(obj.id), ABILITY, player, list(targets), source=obj.id,
                           ability=ability.index, event=copied_event(self._deferring),
                           payload=(obj, ability, player))
        entry.info["activation_source"] = getattr(self, "_activation_source", None)
        entry.info["source_controller"] = obj.controller
        entry.stamps = {t: self.stamp(t) for t in targets}
        entry.stamps[obj.id] = self.stamp(obj.id)
        self.put_on_stack(entry)
        return None

    def put_on_stack(self, entry: StackEntry) -> None:
        """Put ``entry`` on top of the stack (CR 405.2) and log it."""
        self.stack.append(entry)
        self.stack_ids.add(entry.id)
        self.log.append({"kind": "put_on_stack", "object": entry.id, "stack_kind": entry.kind,
                         "controller": entry.controller, "targets": list(entry.targets)})

    def put_waiting_triggers(self, decider) -> None:
        """The abilities that triggered go on the stack (CR 117.5, 603.3b): through
        :meth:`put_triggers_on_stack`, then each becomes a :class:`StackEntry`."""
        if not self.pending_triggers or any(p.lost for p in self.players.values()):
            self.__dict__["pending_triggers"] = []  # not the state: set without Game.__setattr__
            return
        start = len(self.stack)
        self.put_triggers_on_stack(decider)
        added, self.stack[start:] = self.stack[start:], []
        for trigger in added:  # the triggered abilities put_triggers_on_stack just put there
            self.put_on_stack(self.trigger_entry(cast(Trigger, trigger)))

    def trigger_entry(self, trigger: Trigger) -> StackEntry:
        """A triggered ability as a stack object, stamped with its source, targets and the
        creature it refers to (Penumbra Umbra's enchanted creature)."""
        entry = StackEntry(self.stack_id(trigger.source), ABILITY, trigger.controller, list(trigger.targets),
                           source=trigger.source, trigger=trigger.ability, payload=trigger)
        refers = [trigger.source, *trigger.targets]
        if trigger.info.get("enchanted"):
            refers.append(trigger.info["enchanted"])
        entry.stamps = {oid: self.stamp(oid) for oid in refers}
        return entry

    # ------------------------------------------------------------------ resolution
    def resolution(self, entry: StackEntry):
        """What resolving ``entry`` will do, worked out before anything changes: ``perform(decider)``,
        or None when all its targets are illegal (CR 608.2b). Raises Unsupported where the
        engine can't be right (module docstring)."""
        if entry.kind == SPELL:
            return self.spell_resolution(entry)
        if entry.trigger is None:
            return self.activated_resolution(entry)
        return self.trigger_resolution(entry)

    def _targets_illegal(self, entry: StackEntry, legal) -> bool | None:
        """Whether all of ``entry``'s targets are illegal now: each one that changed zones since
        (400.7) or that ``legal(target)`` rejects. None when it has no targets. Raises Unsupported
        when some are legal and one of the others is a new object the effect would see as legal."""
        if not entry.targets:
            return None
        same = {t: self.same_object(t, entry.stamps.get(t)) for t in entry.targets}
        verdict = {t: same[t] and legal(t) for t in entry.targets}
        if not any(verdict.values()):
            return True
        if any(not same[t] and legal(t) for t in entry.targets):
            raise Unsupported("stack:new object", f"{entry.id}: a target left its zone and came back as a new "
                                                  f"object while another target is still legal")
        return False

    def spell_resolution(self, entry: StackEntry):
        definition, script = card(entry.card)
        event = cast(dict, copied_event(entry.event))  # a spell's entry keeps its cast event
        if script.spell == MODEL_SPELL:
            model = script.model
            assert model is not None, "a model spell's script is derived from its card model (script_from_model)"

            source = self.spell_source(definition, entry.controller)
            effects = tuple(e for a in model.of("spell") for e in a.effects)
            wanted = targeting(effects)
            affected_of: dict[str, Affected] = {}
            rest = list(entry.targets)
            for i in wanted:  # the targets of each targeting effect, as assign_targets split them
                count = effects[i].affected.count
                for t in rest[:count]:
                    affected_of.setdefault(t, effects[i].affected)
                rest = rest[count:]
            if self._targets_illegal(entry, lambda t: t in affected_of and legal_target(
                    self, affected_of[t], t, source)):
                return None
            assigned = {}
            rest = list(entry.targets)
            for i in wanted:
                take = rest[:effects[i].affected.count]
                assigned[i], rest = take, rest[len(take):]
            check_effects(self, effects, assigned, source, " ".join(a.text for a in model.of("spell")))
            token_ids = None
            if "token_ids" in event:
                token_ids = self._revalidated(lambda: _events._new_ids(
                    self, event, "token_ids", sum(e.amount for e in effects if e.action == "create_tokens")), entry)
            return lambda decider: self.resolve_model_effects(effects, source, assigned, decider, "spell", token_ids)
        if entry.targets and not all(self.same_object(t, entry.stamps.get(t)) for t in entry.targets):
            return None  # one target (the curated spells): a new object is an illegal target
        try:
            return _events.cast(self, event)
        except IllegalAction as exc:
            if entry.targets and exc.reason in TARGET_REASONS:
                return None
            raise Unsupported("stack:resolution", f"{entry.id} ({entry.card}) can't be re-checked as it resolves: "
                                                  f"{exc}") from None

    def _revalidated(self, check, entry):
        try:
            return check()
        except IllegalAction as exc:
            raise Unsupported("stack:resolution", f"{entry.id} ({entry.card}): {exc}") from None

    def trigger_resolution(self, entry: StackEntry):
        trigger = cast(Trigger, entry.payload)  # the entry of a triggered ability (resolution)
        source_stamp = entry.stamps.get(trigger.source)
        moved = not self.same_object(trigger.source, source_stamp)
        if moved and trigger.ability not in LEAVES_ABILITIES and (
                trigger.kind not in SOURCE_FREE_TRIGGERS or trigger.kind == MODEL_TRIGGER):
            raise Unsupported("stack:last known information", f"{entry.id}: its source {trigger.source} left the "
                                                               f"battlefield before it resolved")
        enchanted = trigger.info.get("enchanted")
        if enchanted:
            was, obj = entry.stamps.get(enchanted), self.objects.get(enchanted)
            if was is None:  # a token that had ceased to exist: its last known information stays
                unchanged = obj is None
            else:  # the same object, or one that left the battlefield once since, whose information is kept
                unchanged = self.same_object(enchanted, was) or (
                    was[0] == BATTLEFIELD and self.departures.get(enchanted, 0) == was[2] + 1
                    and (obj is None or obj.zone != BATTLEFIELD))
            if not unchanged:
                raise Unsupported("stack:last known information", f"{entry.id}: {enchanted} changed zones more "
                                                                   f"than once before the ability resolved")
        if entry.targets:
            if trigger.kind == "destroy nonartifact nonblack":
                legal = lambda t: t in self.objects and self.legal_nekrataal_target(self.objects[t])  # noqa: E731
            elif trigger.kind == MODEL_TRIGGER:
                ability, source = trigger.info["ability"], trigger.info["source"]
                affected = {t: ability.effects[i].affected for i, ts in trigger.info.get("assigned", {}).items()
                            for t in ts}
                legal = lambda t: t in affected and legal_target(self, affected[t], t, source)  # noqa: E731
            else:
                raise Unsupported("stack:targets", f"{entry.id}: a {trigger.kind!r} ability's targets")
            if self._targets_illegal(entry, legal):
                return None
        return lambda decider: self.resolve_trigger(trigger, decider)

    def activated_resolution(self, entry: StackEntry):
        obj, ability, player = cast("tuple[GameObject, ActivatedAbility, str]", entry.payload)  # an activation's
        if ability.kind not in SOURCE_FREE_ABILITIES and (
                not self.same_object(obj.id, entry.stamps.get(obj.id)) or obj.controller != entry.info.get(
                "source_controller")):
            raise Unsupported("stack:last known information", f"{entry.id}: its source {obj.id} left the battlefield "
                                                               f"or changed controller before it resolved")
        if entry.targets:
            legal_now = self.target_options(obj, ability)
            if self._targets_illegal(entry, lambda t: legal_now is not None and t in legal_now):
                return None

        def perform(decider):
            self._activation_source = entry.info.get("activation_source")
            self.resolve_activated_ability(obj, ability, player, list(entry.targets), decider)

        return perform

    def resolve_entry(self, entry: StackEntry, plan, decider) -> None:
        """``entry`` leaves the stack: it resolves (``plan``) or, with all its targets illegal
        (``plan`` None), doesn't (CR 608.2b). Then the active player receives priority (117.3b)."""
        self.stack.remove(entry)
        self.resolving = entry
        try:
            if plan is None:
                self.fizzle(entry, decider)
            else:
                self.log.append({"kind": "resolved", "object": entry.id})
                plan(decider)
                if entry.kind == SPELL:
                    self.spell_resolved(entry)
        finally:
            self.resolving = None
        self.priority_player = self.active_player
        self.passed = []

    def fizzle(self, entry: StackEntry, decider) -> None:
        """CR 608.2b: the spell or ability doesn't resolve; it is removed from the stack, and a
        spell is put into its owner's graveyard (608.3b for an Aura spell)."""
        self.log.append({"kind": "removed_from_stack", "object": entry.id, "reason": "all targets illegal"})
        if entry.kind == SPELL:
            definition, _ = card(entry.card)
            permanent = not {"Instant", "Sorcery"} & set(definition.types)
            self.spell_to_graveyard(entry, "608.3b" if permanent else "608.2b")
        else:
            self.log.append({"kind": "trigger_removed", "source": entry.source, "reason": "illegal target"})

    def spell_resolved(self, entry: StackEntry) -> None:
        """After a spell's effects: an instant or sorcery goes to its owner's graveyard (CR 608.2n);
        a permanent spell has entered the battlefield from the stack (608.3a)."""
        definition, _ = card(entry.card)
        if {"Instant", "Sorcery"} & set(definition.types):
            self.spell_to_graveyard(entry, "608.2n")
            return
        for e in self.log:
            if e.get("kind") == "zone_change" and e.get("object") == entry.id and e.get("from") is None:
                e["from"] = "stack"
                break

    def spell_to_graveyard(self, entry: StackEntry, rule: str) -> None:
        """The spell's card goes to its owner's (its caster's) graveyard: an object of the game from now on."""
        try:
            definition, script = card(entry.card)
        except UnknownCard:  # pragma: no cover - cast validated the card
            return
        self.objects[entry.id] = GameObject(entry.id, definition, script, entry.controller, entry.controller,
                                            "graveyard", self._tick())
        self.log.append({"kind": "zone_change", "object": entry.id, "from": "stack", "to": "graveyard",
                         "cause": {"event": "resolution", "rule": rule}})


def pass_priority(game: GameBase, event):
    """``{"type": "pass_priority", "player": P}``: P passes priority (module docstring)."""
    player = event.get("player")
    if not isinstance(player, str) or player not in game.players:
        raise IllegalAction("bad_event", f"player={player!r} is not a player")
    if not game.stack_game:
        raise IllegalAction("no_stack", "this game has no stack (its board doesn't say \"stack\": true): spells "
                                        "resolve as they are cast")
    if not game.stack:
        raise IllegalAction("empty_stack", "the stack is empty: nothing to pass priority over (ending a step is "
                                           "pass_step, CR 500.2)")
    game._check_priority(player, "pass_priority")
    entry = game.top_of_stack() if game.all_passed(player) else None
    plan = None
    if entry is not None:
        if entry.event is not None:
            game.decline_if_unmodelled(entry.event)  # what the spell or ability does happens now
        plan = game.resolution(entry)

    def perform(decider):
        game.passed.append(player)
        if entry is None:
            game.priority_player = game.next_player(player)  # CR 117.3d
        else:
            game.resolve_entry(entry, plan, decider)

    return perform


HANDLERS = {"pass_priority": pass_priority}
_events.HANDLERS.update(HANDLERS)  # the event vocabulary's handlers (reference_engine.events) know it too
