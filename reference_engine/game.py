"""The reference engine's game: board set-up, events, observations.

A :class:`Game` is built from a board (see ``harness.protocol`` for the JSON shape),
performs one event at a time with :meth:`Game.apply`, and describes itself with
:meth:`Game.observe`. Every choice and every coin flip or die roll goes through the
``decider`` passed to ``apply``: the engine never calls :mod:`random`.
"""

from __future__ import annotations

from contextlib import contextmanager

from . import events
from .cards import card
from .destruction import DestructionRules
from .errors import BadBoard, IllegalAction, UnknownCard
from .layers import characteristics
from .objects import BATTLEFIELD, COMBAT_STATUSES, ZONES, GameObject, Player, PTEffect
from .state_based_actions import StateBasedActions

ENGINE_NAME = "rulesfuzz-reference"
ENGINE_VERSION = "0.1.0"

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
        "combat_status",
        "pt_until_end_of_turn",
        "cleanup",
        "log.zone_change_causes",
        "log.replacement_effects",
    }
)


class Game(DestructionRules, StateBasedActions):
    """One game in progress. Not thread-safe; cheap to create.

    The rules procedures are methods (``destroy``, ``apply_umbra_armor``,
    ``check_state_based_actions``, ...), so a fork of the engine is a subclass that
    overrides one of them.
    """

    def __init__(self, board: dict):
        self.players: dict[str, Player] = {}
        self.objects: dict[str, GameObject] = {}
        self.effects: list[PTEffect] = []
        self.log: list[dict] = []
        self._clock = 0
        self._deferred: list | None = None
        self._build(board)

    # ----------------------------------------------------------------- set-up
    def _build(self, board: dict) -> None:
        if not isinstance(board, dict):
            raise BadBoard("board: expected an object with 'players' and 'objects'")
        players = board.get("players")
        if not isinstance(players, list) or not players:
            raise BadBoard("board.players: expected a non-empty list")
        for i, spec in enumerate(players):
            where = f"board.players[{i}]"
            if not isinstance(spec, dict) or not isinstance(spec.get("id"), str):
                raise BadBoard(f"{where}: expected an object with a string 'id'")
            life = spec.get("life", 20)
            if not isinstance(life, int) or isinstance(life, bool):
                raise BadBoard(f"{where}.life: expected an integer, got {life!r}")
            if spec["id"] in self.players:
                raise BadBoard(f"{where}.id: duplicate player id {spec['id']!r}")
            self.players[spec["id"]] = Player(spec["id"], life)
        objects = board.get("objects", [])
        if not isinstance(objects, list):
            raise BadBoard("board.objects: expected a list")
        attachments = []
        for i, spec in enumerate(objects):
            where = f"board.objects[{i}]"
            if not isinstance(spec, dict):
                raise BadBoard(f"{where}: expected an object")
            oid = spec.get("id")
            if not isinstance(oid, str) or not oid:
                raise BadBoard(f"{where}.id: expected a non-empty string")
            if oid in self.objects:
                raise BadBoard(f"{where}.id: duplicate object id {oid!r}")
            try:
                definition, script = card(spec.get("card"))
            except (UnknownCard, TypeError) as exc:
                raise BadBoard(f"{where}.card: {exc}") from None
            owner = spec.get("owner")
            if owner not in self.players:
                raise BadBoard(f"{where}.owner: {owner!r} is not a player")
            controller = spec.get("controller", owner)
            if controller not in self.players:
                raise BadBoard(f"{where}.controller: {controller!r} is not a player")
            zone = spec.get("zone", BATTLEFIELD)
            if zone not in ZONES:
                raise BadBoard(f"{where}.zone: {zone!r} is not one of {list(ZONES)}")
            if zone != BATTLEFIELD and controller != owner:
                raise BadBoard(f"{where}.controller: only permanents have a controller other than their owner")
            if zone == BATTLEFIELD and set(definition.types) & {"Instant", "Sorcery"}:
                raise BadBoard(f"{where}: {definition.name} is not a permanent card and can't be on the battlefield")
            obj = GameObject(oid, definition, script, owner, controller, zone, self._tick())
            obj.token = self._flag(spec, "token", where)
            obj.tapped = self._flag(spec, "tapped", where)
            obj.summoning_sick = self._flag(spec, "summoning_sick", where)
            obj.damage = self._count(spec, "damage", where)
            obj.regeneration_shields = self._count(spec, "regeneration_shields", where)
            counters = spec.get("counters", {})
            if not isinstance(counters, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
                for k, v in counters.items()
            ):
                raise BadBoard(f"{where}.counters: expected a map of counter kind to a non-negative integer")
            obj.counters = {k: v for k, v in counters.items() if v}
            combat = spec.get("combat")
            if combat not in COMBAT_STATUSES:
                raise BadBoard(f"{where}.combat: expected one of {list(COMBAT_STATUSES)}, got {combat!r}")
            obj.combat = combat
            if zone != BATTLEFIELD and (obj.tapped or obj.damage or obj.combat or obj.regeneration_shields):
                raise BadBoard(f"{where}: only permanents can be tapped, damaged, in combat or shielded")
            if spec.get("attached_to") is not None:
                attachments.append((where, obj, spec["attached_to"]))
            self.objects[oid] = obj
        for where, obj, target in attachments:
            if obj.zone != BATTLEFIELD or "Aura" not in obj.card.subtypes:
                raise BadBoard(f"{where}.attached_to: only an Aura on the battlefield can be attached")
            if target not in self.objects:
                raise BadBoard(f"{where}.attached_to: no object {target!r} on the board")
            if not self.can_enchant(obj, target):
                raise BadBoard(f"{where}.attached_to: {obj.card.name} can't enchant {target!r}")
            obj.attached_to = target
        for obj in self.objects.values():
            if obj.zone == BATTLEFIELD and "Aura" in obj.card.subtypes and obj.attached_to is None:
                raise BadBoard(f"board: Aura {obj.id!r} on the battlefield is not attached to anything")

    @staticmethod
    def _flag(spec, key, where) -> bool:
        value = spec.get(key, False)
        if not isinstance(value, bool):
            raise BadBoard(f"{where}.{key}: expected true or false, got {value!r}")
        return value

    @staticmethod
    def _count(spec, key, where) -> int:
        value = spec.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise BadBoard(f"{where}.{key}: expected a non-negative integer, got {value!r}")
        return value

    # ---------------------------------------------------------------- queries
    def _tick(self) -> int:
        self._clock += 1
        return self._clock

    def battlefield(self) -> list[GameObject]:
        """Permanents on the battlefield, in timestamp order of entry."""
        return [o for o in self.objects.values() if o.zone == BATTLEFIELD]

    def attached_to(self, oid: str) -> list[GameObject]:
        """Permanents attached to ``oid`` (CR 301.5, 303.4b), in timestamp order."""
        found = [o for o in self.objects.values() if o.attached_to == oid and o.zone == BATTLEFIELD]
        found.sort(key=lambda o: o.timestamp)
        return found

    def effects_on(self, oid: str, sublayer: str) -> list[PTEffect]:
        """Resolved power/toughness effects on ``oid`` in ``sublayer``, in timestamp order."""
        return [e for e in self.effects if e.affected == oid and e.sublayer == sublayer]

    def can_enchant(self, aura: GameObject, target_id: str | None) -> bool:
        """Whether ``aura`` could legally be attached to ``target_id`` (CR 303.4, 702.5)."""
        return self.could_enchant(aura.script, aura.controller, aura.id, target_id)

    def could_enchant(self, script, controller: str, aura_id: str, target_id: str | None) -> bool:
        """Whether an Aura with ``script`` controlled by ``controller`` could enchant ``target_id``."""
        target = self.objects.get(target_id) if target_id else None
        if target is None or target.zone != BATTLEFIELD or target.id == aura_id:
            return False
        restriction = script.enchant
        if restriction == "permanent":
            return True
        if "Creature" not in characteristics(self, target).types:
            return False
        if restriction == "creature you control":
            return target.controller == controller
        return True

    # ---------------------------------------------------------------- changes
    @contextmanager
    def simultaneous(self):
        """Collect zone changes and perform them together on exit (CR 704.3: one event)."""
        outer = self._deferred is None
        if outer:
            self._deferred = []
        try:
            yield
        finally:
            if outer:
                moves, self._deferred = self._deferred, None
                for ids, cause in moves:
                    self._move(ids, cause)

    def move_to_graveyard(self, ids, cause: dict) -> None:
        """Put objects into their owners' graveyards, logging ``cause`` for each."""
        if not ids:
            return
        if self._deferred is not None:
            self._deferred.append((list(ids), cause))
        else:
            self._move(ids, cause)

    def _move(self, ids, cause) -> None:
        for oid in ids:
            obj = self.objects[oid]
            if obj.zone != BATTLEFIELD:
                continue  # already moved by another part of the same event
            obj.reset_for_zone_change()
            obj.zone = "graveyard"
            obj.controller = obj.owner
            obj.timestamp = self._tick()
            self.effects = [e for e in self.effects if e.affected != oid]
            self.log.append({"kind": "zone_change", "object": oid, "from": BATTLEFIELD, "to": "graveyard", "cause": cause})

    def cease_to_exist(self, oid: str) -> None:
        """CR 704.5d / 111.7: a token off the battlefield ceases to exist."""
        obj = self.objects.pop(oid)
        self.log.append(
            {"kind": "zone_change", "object": oid, "from": obj.zone, "to": None,
             "cause": {"event": "state_based_action", "rule": "704.5d"}}
        )

    def add_effect(self, affected: str, sublayer: str, power: int, toughness: int) -> None:
        """Create a resolved power/toughness effect until end of turn (CR 611.2a, 613.7b)."""
        self.effects.append(PTEffect(affected, sublayer, power, toughness, self._tick()))

    def new_object(self, oid: str, name: str, controller: str, token: bool = False) -> GameObject:
        """Put a new card or token onto the battlefield (CR 110.1, 613.7d)."""
        definition, script = card(name)
        obj = GameObject(oid, definition, script, controller, controller, BATTLEFIELD, self._tick(), token=token)
        obj.summoning_sick = "Creature" in definition.types
        self.objects[oid] = obj
        self.log.append({"kind": "zone_change", "object": oid, "from": None, "to": BATTLEFIELD,
                         "cause": {"event": "put_onto_battlefield"}})
        return obj

    # ------------------------------------------------------------- interface
    def apply(self, event: dict, decider) -> None:
        """Perform one event and everything that follows from it.

        Validates the event first: an illegal one raises :class:`IllegalAction` and
        changes nothing (not even the log). Then performs it, and checks state-based
        actions to a fixed point (CR 704.3).
        """
        if any(p.lost for p in self.players.values()):
            raise IllegalAction("game_over", "a player has lost the game; no more events")
        handler = events.HANDLERS.get(event.get("type")) if isinstance(event, dict) else None
        if handler is None:
            raise IllegalAction("unknown_event", f"unknown event {event!r}")
        perform = handler(self, event)  # validates; returns a callable that performs
        self.log = []
        perform(decider)
        self.check_state_based_actions(decider)

    def observe(self) -> dict:
        """The game as plain JSON-serialisable data; see ``harness.protocol.Observation``."""
        objects = {}
        zones: dict = {"battlefield": []}
        for zone in ZONES:
            if zone != BATTLEFIELD:
                zones[zone] = {pid: [] for pid in self.players}
        for obj in self.objects.values():
            ch = characteristics(self, obj)
            objects[obj.id] = {
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
            }
            if obj.zone == BATTLEFIELD:
                zones[BATTLEFIELD].append(obj.id)
            else:
                zones[obj.zone][obj.owner].append(obj.id)
        return {
            "players": {p.id: {"life": p.life, "lost": p.lost} for p in self.players.values()},
            "objects": objects,
            "zones": zones,
            "log": list(self.log),
        }


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
