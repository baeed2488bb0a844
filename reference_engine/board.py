"""Board set-up (CR 103, 110.1, 303.4, 301.5): a :class:`reference_engine.game.Game`'s players and
objects from a board (``harness.protocol``'s JSON shape), validated, with a :class:`BadBoard` that
names the field at fault. A mixin of ``Game``.

The board's objects are put in as one change to the state (``objects.VERSION``), then attached
in the board's order: each attachment is checked (an Aura can enchant its object, CR 303.4; an
Equipment equips a creature, CR 301.5c) in the state the attachments before it made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CardDef, CardScript, card, token_definition
from .errors import BadBoard, UnknownCard
from .objects import BATTLEFIELD, COMBAT_STATUSES, VERSION, ZONES, GameObject, Player

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

_NO_COUNTERS: dict = {}  # a board object's counters when it gives none (never changed)


class BoardSetup(GameBase):
    """Building a game from its board, a mixin of :class:`reference_engine.game.Game`."""

    def _build(self, board: dict) -> None:
        if not isinstance(board, dict):
            raise BadBoard("board: expected an object with 'players' and 'objects'")
        players = board.get("players")
        if not isinstance(players, list) or not players:
            raise BadBoard("board.players: expected a non-empty list")
        for i, spec in enumerate(players):
            self._build_player(f"board.players[{i}]", spec)
        objects = board.get("objects", [])
        if not isinstance(objects, list):
            raise BadBoard("board.objects: expected a list")
        attachments = []
        built = self.objects
        for i, spec in enumerate(objects):
            where = f"board.objects[{i}]"
            obj = self._build_object(where, spec)
            target = spec.get("attached_to")
            if target is not None:
                attachments.append((where, obj, target))
            dict.__setitem__(built, obj.id, obj)  # the objects put in count as one change (below)
        VERSION[0] += 1
        for where, obj, target in attachments:
            self._build_attachment(where, obj, target)
        for obj in built.values():
            if obj.attached_to is None and obj.zone == BATTLEFIELD and "Aura" in obj.card.subtypes:
                raise BadBoard(f"board: Aura {obj.id!r} on the battlefield is not attached to anything")

    def _build_player(self, where: str, spec) -> None:
        if not isinstance(spec, dict) or not isinstance(spec.get("id"), str):
            raise BadBoard(f"{where}: expected an object with a string 'id'")
        life = spec.get("life", 20)
        if not isinstance(life, int) or isinstance(life, bool):
            raise BadBoard(f"{where}.life: expected an integer, got {life!r}")
        if spec["id"] in self.players:
            raise BadBoard(f"{where}.id: duplicate player id {spec['id']!r}")
        self.players[spec["id"]] = Player(spec["id"], life)

    def _build_object(self, where: str, spec) -> GameObject:
        """The object a board's ``objects`` entry describes (not yet attached nor in ``objects``)."""
        if not isinstance(spec, dict):
            raise BadBoard(f"{where}: expected an object")
        oid = spec.get("id")
        if not isinstance(oid, str) or not oid:
            raise BadBoard(f"{where}.id: expected a non-empty string")
        if oid in self.objects:
            raise BadBoard(f"{where}.id: duplicate object id {oid!r}")
        if oid in self.players:
            raise BadBoard(f"{where}.id: {oid!r} is already a player id (event targets name either)")
        definition, script = self._board_card(where, spec)
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
        if zone == BATTLEFIELD and ("Instant" in definition.types or "Sorcery" in definition.types):
            raise BadBoard(f"{where}: {definition.name} is not a permanent card and can't be on the battlefield")
        timestamp = self._tick()
        # Built with its status at once (a new object changes no game's state, objects.GameObject).
        return GameObject(oid, definition, script, owner, controller, zone, timestamp,
                          *self._board_status(where, spec, definition, zone))

    @staticmethod
    def _board_card(where: str, spec: dict) -> tuple[CardDef, CardScript]:
        try:
            return card(spec.get("card"))
        except (UnknownCard, TypeError) as exc:
            # A board token may also be a token an effect of the pool defines (CR 111.3).
            defined = token_definition(spec.get("card")) if spec.get("token") is True else None
            if defined is None:
                raise BadBoard(f"{where}.card: {exc}") from None
            return defined

    def _board_status(self, where: str, spec: dict, definition: CardDef, zone: str) -> tuple:
        """The board object's status, validated: ``(token, tapped, summoning_sick, damage,
        deathtouch_damage, counters, attached_to, combat, regeneration_shields)``, the fields of
        :class:`GameObject` after its timestamp (attached later, by :meth:`_build_attachment`)."""
        token, tapped, summoning_sick = self._flags(spec, where)
        damage, shields = self._counts(spec, where)
        counters = spec.get("counters", _NO_COUNTERS)
        if counters is not _NO_COUNTERS and (not isinstance(counters, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
            for k, v in counters.items()
        )):
            raise BadBoard(f"{where}.counters: expected a map of counter kind to a non-negative integer")
        combat = spec.get("combat")
        if combat not in COMBAT_STATUSES:
            raise BadBoard(f"{where}.combat: expected one of {list(COMBAT_STATUSES)}, got {combat!r}")
        if "Creature" not in definition.types and (damage or combat):
            raise BadBoard(f"{where}: only creatures can have damage marked or be in combat (CR 120.3, 506.4)")
        if zone != BATTLEFIELD and (tapped or damage or combat or shields):
            raise BadBoard(f"{where}: only permanents can be tapped, damaged, in combat or shielded")
        return (token, tapped, summoning_sick, damage, False,
                {k: v for k, v in counters.items() if v} if counters else None, None, combat, shields)

    def _build_attachment(self, where: str, obj: GameObject, target) -> None:
        equipment = "Equipment" in obj.card.subtypes
        if obj.zone != BATTLEFIELD or ("Aura" not in obj.card.subtypes and not equipment):
            raise BadBoard(f"{where}.attached_to: only an Aura or an Equipment on the battlefield can be attached")
        if target not in self.objects:
            raise BadBoard(f"{where}.attached_to: no object {target!r} on the board")
        if equipment:
            host = self.objects[target]
            if host.zone != BATTLEFIELD or "Creature" not in host.card.types:
                raise BadBoard(f"{where}.attached_to: an Equipment equips a creature on the battlefield "
                               f"(CR 301.5c), not {target!r}")
        elif not self.can_enchant(obj, target):
            raise BadBoard(f"{where}.attached_to: {obj.card.name} can't enchant {target!r}")
        obj.attached_to = target

    @classmethod
    def _flags(cls, spec, where) -> tuple[bool, bool, bool]:
        """The board object's ``token``, ``tapped`` and ``summoning_sick``, validated (by
        :meth:`_flag` unless all three are true or false)."""
        flags = spec.get("token", False), spec.get("tapped", False), spec.get("summoning_sick", False)
        if type(flags[0]) is bool and type(flags[1]) is bool and type(flags[2]) is bool:
            return flags
        return cls._flag(spec, "token", where), cls._flag(spec, "tapped", where), \
            cls._flag(spec, "summoning_sick", where)

    @classmethod
    def _counts(cls, spec, where) -> tuple[int, int]:
        """The board object's ``damage`` and ``regeneration_shields``, validated (by :meth:`_count`
        unless both are non-negative ints)."""
        damage, shields = spec.get("damage", 0), spec.get("regeneration_shields", 0)
        if type(damage) is int and damage >= 0 and type(shields) is int and shields >= 0:
            return damage, shields
        return cls._count(spec, "damage", where), cls._count(spec, "regeneration_shields", where)

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
