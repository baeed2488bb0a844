"""The reference engine's game: events, observations.

A :class:`Game` is built from a board (see ``harness.protocol`` for the JSON shape;
:mod:`reference_engine.board` builds it),
performs one event at a time with :meth:`Game.apply`, and describes itself with
:meth:`Game.observe`. Every choice and every coin flip or die roll goes through the
``decider`` passed to ``apply``: the engine never calls :mod:`random`.
"""

from __future__ import annotations

from contextlib import nullcontext
from operator import attrgetter

import reference_engine.events as events
import reference_engine.unmodelled as unmodelled
from .activation import ActivatedAbilityEffects
from .board import BoardSetup
from .cards import card, mana_value
from .chance import ChanceRules
from .combat import CombatRules
from .control import ControlRules
from .copies import CopyRules
from .costs import CostPayment
from .destruction import DestructionRules
from .errors import IllegalAction
from .kept import KEEPING_CLASSES, PROTECTION_NAMED_KEY, keeps
from .layers import Layers, card_types, characteristics, state_cache
from .mana import ManaRules, counts, empty_pool
from .model_cards import ModelAbilities, protected_from
from .observed import observed_entries
from .objects import (BATTLEFIELD, OBJECT_FIELDS, VERSION, GameObject, LastKnown, ObjectsDict, Player,
                      PTEffect, TrackedDict, TrackedList, Trigger)
from .search import SearchRules
from .stack import StackEntry, StackRules
from .playtest import PlaytestRules
from .shapes import ObservedCopiable, ObservedPTEffect
from .state_based_actions import StateBasedActions
from .steps import StepRules
from .triggers import TriggeredAbilities
from .zones import ZoneRules

_OBJECT_FIELDS = attrgetter(*OBJECT_FIELDS)
_EFFECT_FIELDS = attrgetter(*PTEffect.__slots__)
_NOTHING = nullcontext()  # what Game.unchanging() returns (reusable)
#: The game's containers whose changes in place change the state version (Game.__setattr__).
_TRACKED_CONTAINERS: dict[str, type] = {"objects": ObjectsDict, "players": TrackedDict, "effects": TrackedList}
#: The game's attributes that characteristics never read: rebinding them leaves the state version
#: as it is. The caches, the log, the clock (the timestamps it gives are set on objects and effects,
#: which count), the triggers waiting and the stack's list (its objects are in ``objects``), the
#: zone changes deferred to one event; who has priority, who passed, the active player, the entry
#: resolving and the activation being put on the stack (reference_engine.stack), the combat's
#: record (reference_engine.combat: what characteristics read of combat, a creature's combat
#: status, is on the object).
_UNTRACKED_ATTRIBUTES = frozenset({"_cache", "_cache_version", "_kept_cache", "_anthem_guard", "log", "_clock",
                                   "pending_triggers", "stack", "_deferred", "priority_player", "passed",
                                   "active_player", "resolving", "_deferring", "_activation_source", "combat_state"})

ENGINE_NAME = "rulesfuzz-reference"
ENGINE_VERSION = "0.2.0"

#: What this engine models; the harness selects invariants and generators by these.
CAPABILITIES = frozenset(
    {
        "destroy",
        "sacrifice",
        "damage",
        "deathtouch",
        "indestructible",
        "regeneration",
        "umbra_armor",
        "legend_rule",
        "sba.life_total",
        "sba.token_zone",
        "sba.zero_toughness",
        "sba.lethal_damage",
        "sba.deathtouch_damage",
        "sba.unattached_aura",
        "sba.counter_annihilation",
        "tokens",
        "cast_permanents",  # the cast event with an id: a permanent spell resolves (CR 608.3)
        "library",
        "combat_status",
        "pt_until_end_of_turn",
        "cleanup",
        "control_change",
        "log.zone_change_causes",
        "log.replacement_effects",
        # Layers, counters and copies (CR 613, 122, 707).
        "layers",
        "counters",
        "copies",
        "x_costs",
        "triggers",
        "observe.copiable",
        "observe.pt_effects",
        # Mana abilities, pools and activation costs (CR 106, 605, 107.5, 107.6, 302.6).
        "mana",
        "tap_untap_costs",
        # Coins and dice (CR 705, 706).
        "chance",
        # Omnipresent Impostor's names and library searches (CR 201.2; its rulings 2024-11-08).
        "library_search",
        # Orb of Origin's playtest supertypes (its rulings, 2024-11-08).
        "playtest_supertypes",
        # Steps, chance by several players, 0 damage, edicts, put tapped (reference_engine.steps).
        "steps",
        "sba.empty_library",
        "chance.players",
        "damage.zero",
        "edict",
        "put_onto_battlefield.tapped",
        # The stack and priority in a game whose board says "stack": true (CR 405, 117, 601.2, 603.3b, 608.2b;
        # reference_engine.stack).
        "stack",
        # Exile, return to hand, exile and return (CR 400.7, 701.11, 610.3c; reference_engine.zones).
        "zones",
        # Declared attackers and blockers, combat damage steps (CR 506-511; reference_engine.combat).
        "combat",
    }
)


class Game(StackRules, CombatRules, PlaytestRules, DestructionRules, StateBasedActions, Layers, CopyRules, ChanceRules, SearchRules,
           ZoneRules, TriggeredAbilities, ControlRules, ManaRules, ModelAbilities, CostPayment, ActivatedAbilityEffects,
           StepRules, BoardSetup):
    """One game in progress. Not thread-safe; cheap to create.

    The rules procedures are methods (``destroy``, ``apply_umbra_armor``,
    ``check_state_based_actions``, ``apply_pt_layers``, ``create_token_copy``,
    ``resolve_triggers``, ...), so a fork of the engine is a subclass that overrides one
    of them. The methods a fork may override, with their parameters and CR rules, are
    the fork API, listed in ``docs/fork-api.md``.

    State: ``players``, ``objects`` (by id, in timestamp order of creation), ``effects``
    (resolved power/toughness effects), ``last_known`` (each object as it last existed on
    the battlefield, CR 608.2h), ``pending_triggers`` and ``stack`` (triggered abilities,
    CR 603.3), ``log`` (what the last event did).
    """

    #: Whether an observation gives out, for an object unchanged since the last one, the very entry
    #: dict the last observation gave out (reference_engine.observed.observed_entries): observations are
    #: read-only for their callers (the harness never changes one: invariants.on_change), the engine
    #: never changes an entry once given out, and an entry that is the last observation's entry is
    #: unchanged since. False: each observation shares no dict or list with another (a copy of each
    #: kept entry), for a caller that changes what it is given.
    shares_unchanged_entries = True

    def __init__(self, board: dict):
        # The game's attributes in a dict of its own from the start (not the class's shared keys): the
        # engine reads and sets some through __dict__, which would otherwise turn the shared-key
        # values into a split dict, one whose attributes CPython 3.11 reads without its specialised
        # look-ups (until a key added in another order than the first game's makes it a plain dict).
        # Only a speed-up; nothing of the state.
        object.__setattr__(self, "__dict__", {})
        self.players: dict[str, Player] = {}
        self.objects: dict[str, GameObject] = {}
        self.effects: list[PTEffect] = []
        self.last_known: dict[str, LastKnown] = {}
        self.pending_triggers: list[Trigger] = []
        self.stack: list[Trigger | StackEntry] = []  # a game with the stack: entries (reference_engine.stack)
        self.log: list[dict] = []
        self.mana_pools: dict[str, list] = {}  # CR 106.4, see reference_engine.mana
        self.shuffled_libraries: set[str] = set()  # owners whose library order is no longer the board's
        self._clock = 0
        self._deferred: list | None = None
        self._cache: dict | None = None  # what is computed from the state at _cache_version (layers.state_cache)
        self._cache_version = -1
        self._kept_cache: dict | None = None  # 704.5m verdicts kept from the last check (state_based_actions)
        self._build(board)
        self.init_stack(board)  # the board's "stack" flag (reference_engine.stack)

    def __setattr__(self, name: str, value) -> None:
        """Rebinding the game's state increments the state version (``objects.VERSION``);
        ``objects`` becomes an :class:`ObjectsDict`, ``players`` a :class:`TrackedDict`, ``effects`` a
        :class:`TrackedList`, so their changes in place count too. The caches and the log
        (never read by characteristics) don't count."""
        if name in _UNTRACKED_ATTRIBUTES:
            object.__setattr__(self, name, value)
            return
        wrap = _TRACKED_CONTAINERS.get(name)
        if wrap is not None and type(value) is not wrap:
            value = wrap(value)
        object.__setattr__(self, name, value)
        VERSION[0] += 1

    # ---------------------------------------------------------------- queries
    def _tick(self) -> int:
        """The next timestamp (CR 613.7): the game's clock, advanced."""
        clock = self.__dict__["_clock"] = self._clock + 1  # not the state (Game.__setattr__)
        return clock

    def battlefield(self) -> list[GameObject]:
        """Permanents on the battlefield, in timestamp order of entry."""
        cache = self._cache
        if cache is None or self._cache_version != VERSION[0]:  # state_cache's check, without its call
            cache = state_cache(self)
        found = cache.get("battlefield")
        if found is None:
            found = cache["battlefield"] = [o for o in self.objects.values() if o.zone == BATTLEFIELD]
        return found.copy()

    def attached_to(self, oid: str) -> list[GameObject]:
        """Permanents attached to ``oid`` (CR 301.5, 303.4b), in timestamp order."""
        cache = self._cache
        if cache is None or self._cache_version != VERSION[0]:  # state_cache's check, without its call
            cache = state_cache(self)
        index = cache.get("attached")
        if index is None:
            index = cache["attached"] = {}
            for o in self.objects.values():
                if o.attached_to is not None and o.zone == BATTLEFIELD:
                    index.setdefault(o.attached_to, []).append(o)
            for found in index.values():
                found.sort(key=lambda o: o.timestamp)
        found = index.get(oid)
        return found.copy() if found is not None else []

    def state_stamp(self) -> tuple:
        """Every value of the game's state that characteristics (CR 613) can read, as a
        tuple compared by value: each object's fields in creation order (its counters as
        items, so counters changed in place count), each resolved power/toughness effect,
        each player. Any change to an object, effect or player gives a different stamp."""
        return (tuple([(_OBJECT_FIELDS(o), tuple(o.counters.items())) for o in self.objects.values()]),
                tuple(map(_EFFECT_FIELDS, self.effects)),
                tuple([(p.id, p.life, p.lost) for p in self.players.values()]))

    def unchanging(self):
        """A block during which the game state does not change (observing it, looking for
        state-based actions). Kept for forks: what is computed from the state is now
        remembered as long as the state version stays the same, in or out of such a block
        (:func:`reference_engine.layers.state_cache`); so a context manager that does nothing."""
        return _NOTHING

    def effects_on(self, oid: str, sublayer: str) -> list[PTEffect]:
        """Resolved power/toughness effects on ``oid`` in ``sublayer``, in timestamp order."""
        return [e for e in self.effects if e.affected == oid and e.sublayer == sublayer]

    def can_enchant(self, aura: GameObject, target_id: str | None) -> bool:
        """Whether ``aura`` could legally be attached to ``target_id`` (CR 303.4, 702.5); not to
        a permanent with protection from a quality the Aura has (CR 702.16c)."""
        if target_id is None or not self.could_enchant(self.copiable_values(aura)[1], aura.controller, aura.id,
                                                       target_id):
            return False
        if not protection_possible(self):  # no permanent has protection: nothing to compute
            return True
        target = self.objects[target_id]
        keywords = characteristics(self, target).keywords
        if any(k.startswith("protection from ") for k in keywords):
            ch = characteristics(self, aura)
            return not protected_from(keywords, ch.colors, ch.types)
        return True

    def could_enchant(self, script, controller: str, aura_id: str, target_id: str | None) -> bool:
        """Whether an Aura with ``script`` controlled by ``controller`` could enchant ``target_id``
        (its card types are those :func:`reference_engine.layers.card_types` reads: no effect changes
        card types)."""
        target = self.objects.get(target_id) if target_id else None
        if target is None or target.zone != BATTLEFIELD or target.id == aura_id:
            return False
        restriction = script.enchant
        if restriction == "permanent":
            return True
        if restriction in ("artifact", "land", "enchantment"):  # a card of the card database
            return restriction.capitalize() in card_types(self, target)
        if restriction == "player":  # an Aura that enchants a player is not attached to an object
            return False
        if "Creature" not in card_types(self, target):
            return False
        if restriction == "creature you control":
            return target.controller == controller
        return True

    # ---------------------------------------------------------------- changes
    def simultaneous(self):
        """Collect zone changes and perform them together on exit (CR 704.3: one event)."""
        return _Simultaneous(self)

    def move_to_graveyard(self, ids, cause: dict) -> None:
        """Put objects into their owners' graveyards, logging ``cause`` for each."""
        if not ids:
            return
        if self._deferred is not None:
            self._deferred.append((list(ids), cause))
        else:
            self._move(ids, cause)

    def _move(self, ids, cause) -> None:
        """Move permanents to their owners' graveyards together (one event).

        Each one's last known information is recorded first, for all of them, and their
        leaves-the-battlefield abilities trigger looking back in time (CR 603.10a).
        """
        leaving: list[GameObject] = []
        named: set[str] = set()  # the ids of leaving (each object is under its own id in objects)
        for oid in ids:
            obj = self.objects[oid]
            if obj.zone == BATTLEFIELD and oid not in named:  # else already moved by the same event
                named.add(oid)
                leaving.append(obj)
        for obj in leaving:
            self.remember(obj)
        for obj in leaving:
            self.log.append({"kind": "zone_change", "object": obj.id, "from": BATTLEFIELD, "to": "graveyard",
                             "cause": cause})
            self.leaves_triggers(obj, "graveyard")
        for obj in leaving:
            obj.reset_for_zone_change("graveyard", obj.owner, self._tick())
            if self.effects:
                remaining = [e for e in self.effects if e.affected != obj.id]
                if len(remaining) != len(self.effects):  # its effects end (CR 400.7)
                    self.effects = remaining

    def attach_aura(self, aura: GameObject, target: GameObject) -> None:
        """Attach ``aura`` to ``target``: it gets a new timestamp (CR 613.7e), so its static
        effects now apply after those of earlier timestamps (Octopus Umbra ruling)."""
        aura.attached_to = target.id
        aura.timestamp = self._tick()
        self.log.append({"kind": "attached", "object": aura.id, "to": target.id})

    def remember(self, obj: GameObject) -> None:
        """Record ``obj`` as it exists on the battlefield now: last known information (CR 608.2h)."""
        self.last_known[obj.id] = LastKnown(self.copiable_values(obj), obj.attached_to, dict(obj.counters),
                                            obj.controller)

    def cease_to_exist(self, oid: str) -> None:
        """CR 704.5d / 111.7: a token off the battlefield ceases to exist."""
        obj = self.objects.pop(oid)
        self.log.append(
            {"kind": "zone_change", "object": oid, "from": obj.zone, "to": None,
             "cause": {"event": "state_based_action", "rule": "704.5d"}}
        )

    def add_effect(self, affected, sublayer: str, power: int, toughness: int, source: str | None = None) -> None:
        """Create a resolved power/toughness effect until end of turn (CR 611.2a, 613.7b).

        ``affected`` is an id, or a list of ids for one effect on several objects (one
        timestamp; the set is fixed as it resolves, CR 611.2c).
        """
        timestamp = self._tick()
        for oid in [affected] if isinstance(affected, str) else affected:
            self.effects.append(PTEffect(oid, sublayer, power, toughness, timestamp, True, source))

    def new_object(self, oid: str, name: str, controller: str, token: bool = False, **entering) -> GameObject:
        """Put a new card or token named ``name`` onto the battlefield (CR 110.1, 613.7d).

        ``entering`` are keyword arguments of :meth:`enter_battlefield` (``copy_effect``,
        ``copy_of``, ``spell_x``, ``attach_to``, ``cause``).
        """
        definition, script = card(name)
        return self.enter_battlefield(oid, definition, script, controller, token=token, **entering)

    def decline_if_unmodelled(self, event: dict) -> None:
        """Raise :class:`Unsupported` where a not-modelled ability would matter (see
        :mod:`reference_engine.unmodelled`)."""
        unmodelled.decline_if_unmodelled(self, event)

    # ------------------------------------------------------------- interface
    def apply(self, event: dict, decider) -> None:
        """Perform one event and everything that follows from it.

        Validates the event first: an illegal one raises :class:`IllegalAction` and
        changes nothing (not even the log); one that an ability the engine does not model
        would change raises :class:`Unsupported`, also before changing anything. Then performs it, checks state-based
        actions to a fixed point (CR 704.3), and puts the abilities that triggered on the
        stack and resolves them, checking state-based actions after each (CR 603.3).
        """
        for player in self.players.values():
            if player.lost:
                raise IllegalAction("game_over", "a player has lost the game; no more events")
        if self.stack_game:  # spells and abilities wait on the stack (reference_engine.stack)
            return self.apply_with_stack(event, decider)
        kind = event.get("type") if isinstance(event, dict) else None
        handler = events.HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise IllegalAction("unknown_event", f"unknown event {event!r}")
        perform = handler(self, event)  # validates; returns a callable that performs
        self.decline_if_unmodelled(event)
        self.__dict__["log"] = []  # not the state: set without Game.__setattr__ (_UNTRACKED_ATTRIBUTES)
        perform(decider)
        self.check_state_based_actions(decider)
        self.resolve_triggers(decider)

    def observe(self) -> dict:
        """The game as plain JSON-serialisable data; see ``harness.protocol.Observation``."""
        block = self.unchanging()
        if block is _NOTHING:  # this class's: a block that does nothing
            observation = self._observe()
        else:
            with block:
                observation = self._observe()
        if self.stack_game:
            observation.update(self.observe_stack())  # "stack" and "priority" (reference_engine.stack)
        return observation

    def _observe(self) -> dict:
        cache = self._cache
        if cache is None or self._cache_version != VERSION[0]:  # state_cache's check, without its call
            cache = state_cache(self)
        objects, zones = observed_entries(self, cache, characteristics, self._observe_object)
        players = {}
        pools = self.mana_pools  # a player's pool (ManaRules.mana_pool), read without making one
        for p in self.players.values():
            pid = p.id
            pool = pools.get(pid)
            players[pid] = {"life": p.life, "lost": p.lost, "mana_pool": counts(pool) if pool else empty_pool(),
                            "max_hand_size": self.max_hand_size(pid)}
        observation = {
            "players": players,
            "objects": objects,
            "zones": zones,
            "log": list(self.log),
        }
        self.observe_combat(observation)  # the combat in progress, if any (reference_engine.combat)
        return observation

    def _observe_object(self, obj: GameObject, ch) -> dict:
        """The observed entry of ``obj`` whose characteristics are ``ch`` (built afresh)."""
        entry = {
            "name": ch.name,
            "zone": obj.zone,
            "owner": obj.owner,
            "controller": obj.controller,
            "token": obj.token,
            "tapped": obj.tapped,
            "summoning_sick": obj.summoning_sick,
            "damage": obj.damage,
            "counters": dict(obj.counters),
            "attached_to": obj.attached_to,
            "combat": obj.combat,
            "regeneration_shields": obj.regeneration_shields,
            "supertypes": list(ch.supertypes),
            "types": list(ch.types),
            "subtypes": list(ch.subtypes),
            "colors": list(ch.colors),
            "keywords": sorted(ch.keywords),
            "power": ch.power,
            "toughness": ch.toughness,
            "mana_value": mana_value(ch.mana_cost),
            "copiable": self.observe_copiable(obj) if obj.zone == BATTLEFIELD and "Creature" in ch.types else None,
            "pt_effects": self.observe_pt_effects(obj, ch),
        }
        if self.has_all_names(obj):  # Omnipresent Impostor, in every zone (harness.protocol ALL_NAMES)
            entry["names"] = "all"
        return entry

    def observe_copiable(self, obj: GameObject) -> ObservedCopiable:
        """The creature's copiable values (CR 707.2, 613.2c) as plain data (rules text
        left out: the name, or the token's defining effect, determines it)."""
        definition, script = self.copiable_values(obj)
        return {
            "name": definition.name, "mana_cost": definition.mana_cost,
            "supertypes": list(definition.supertypes), "types": list(definition.types),
            "subtypes": list(definition.subtypes), "colors": list(definition.colors),
            "keywords": sorted(script.keywords), "power": definition.power, "toughness": definition.toughness,
        }

    def observe_pt_effects(self, obj: GameObject, ch) -> list[ObservedPTEffect]:
        """The continuous effects on the object's power and toughness, in timestamp order (CR 613.7)."""
        if obj.zone != BATTLEFIELD or ch.power is None:
            return []
        cache = self._cache
        if cache is None or self._cache_version != VERSION[0]:  # state_cache's check, without its call
            cache = state_cache(self)
        known = cache.get("pt_effects")
        effects = known.get(obj.id) if known is not None else None
        if effects is None:
            effects = self.pt_effects(obj)
        if not effects:
            return []
        return [
            {"layer": e.sublayer, "power": e.power if e.sublayer != "7d" else None,
             "toughness": e.toughness if e.sublayer != "7d" else None, "source": e.source,
             "until_end_of_turn": e.until_end_of_turn}
            for e in effects
        ]


#: The state cache's key of :func:`protection_possible`.
_PROTECTION_KEY = "a permanent may have protection"


def protection_possible(game: Game) -> bool:
    """Whether a permanent of ``game`` may have protection now (CR 702.16): True when the text of a
    permanent's copiable values names protection (it has it, or grants it: every keyword of layer
    6 is an ability of a permanent's copiable values, CR 613.1f, 707.2, or of a resolved effect) or
    a resolved effect grants it; always True for a game whose class computes characteristics with
    a method from outside this package (:func:`reference_engine.kept.keeps`). Found once per state
    (:func:`reference_engine.layers.state_cache`). False: no permanent has a protection keyword,
    so none is protected from anything."""
    keeping = KEEPING_CLASSES.get(type(game))  # keeps(game), without its call once found
    if not (keeping or keeping is None and keeps(game)):
        return True
    cache = game._cache
    if cache is None or game._cache_version != VERSION[0]:  # state_cache's check, without its call
        cache = state_cache(game)
    found = cache.get(_PROTECTION_KEY)
    if found is None:
        named = cache.get(PROTECTION_NAMED_KEY)  # carried from state to state (reference_engine.kept.CARRIED)
        if named is None:
            named = False
            permanents = cache.get("battlefield")  # this package's Game.battlefield (keeps), read without a copy
            for o in game.battlefield() if permanents is None else permanents:
                if "rotection" in (o.card if o.copy_effect is None else o.copy_effect[0]).oracle_text:  # [Pp]rotection
                    named = True
                    break
            cache[PROTECTION_NAMED_KEY] = named
        found = cache[_PROTECTION_KEY] = named or (
            bool(game.effects) and any(k.startswith("protection") for e in game.effects for k in e.keywords))
    return found


class _Simultaneous:
    """The block of :meth:`Game.simultaneous`: the outermost one collects the zone changes
    (``Game._deferred``) and performs them together as it ends, however it ends (an exception
    goes on after them)."""

    __slots__ = ("game", "outer")

    def __init__(self, game: Game):
        self.game = game
        self.outer = False

    def __enter__(self) -> None:
        game = self.game
        self.outer = game._deferred is None
        if self.outer:
            game.__dict__["_deferred"] = []  # not the state: set without Game.__setattr__ (_UNTRACKED_ATTRIBUTES)

    def __exit__(self, *exc) -> None:
        if self.outer:
            game = self.game
            moves = game._deferred or []
            game.__dict__["_deferred"] = None
            for ids, cause in moves:
                game._move(ids, cause)


class ReferenceEngine:
    """The reference engine: ``new_game(board)`` builds a :class:`Game`.

    Raises :class:`BadBoard` for a malformed board and names the field at fault.
    """

    name = ENGINE_NAME
    version = ENGINE_VERSION
    capabilities = CAPABILITIES
    game_class = Game

    def new_game(self, board: dict) -> Game:
        return self.game_class(board)
