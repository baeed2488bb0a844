"""tiny: a small rules engine written from scratch against the rulesfuzz protocol.

It stands for an engine nobody on the rulesfuzz side wrote: it imports nothing from
``reference_engine``, only the protocol's exceptions and records (``harness.protocol``)
and the Oracle characteristics of its five cards (``cards``).

Cards (``EngineInfo.cards``): Grizzly Bears (vanilla 2/2), Typhoid Rats (deathtouch),
Darksteel Myr (indestructible), Murder ("destroy target creature"), Shock ("2 damage to
any target").

Rules implemented:

* 120.3a, 120.3e: damage to a player is lost as life; damage to a creature is marked on it.
* 701.7a: destroy moves a permanent to its owner's graveyard; 702.12b: indestructible
  permanents aren't destroyed (by Murder, a destroy effect or lethal damage).
* 701.17a: a permanent's controller sacrifices it: it goes to its owner's graveyard.
* 110.1, 302.6: a creature card put onto the battlefield from outside the game enters
  under its controller (who owns it), summoning sick.
* 702.2b-c: any nonzero damage from a deathtouch source is lethal.
* 704.3: state-based actions are checked until none applies: 704.5a (0 or less life
  loses), 704.5g (lethal damage destroys), 704.5h (deathtouch damage destroys).
* 400.7: a permanent that leaves the battlefield becomes a new object with no damage,
  untapped, not summoning sick; in a graveyard its controller is its owner.

Board fields read: players ``id``, ``life``; objects ``id``, ``card``, ``owner``,
``controller``, ``zone``, ``tapped``, ``summoning_sick``, ``damage``. Anything else it
doesn't model (tokens, counters, Auras, combat, regeneration shields, other cards,
other events, copies and X) is declined with :class:`Unsupported`; malformed or illegal events are
refused with :class:`IllegalAction` and change nothing.

Observation fields: players ``life``, ``lost``; objects ``name``, ``zone``, ``owner``,
``controller``, ``token``, ``tapped``, ``summoning_sick``, ``damage``, ``counters``,
``attached_to``, ``combat``, ``regeneration_shields``, ``supertypes``, ``types``,
``subtypes``, ``colors``, ``keywords``, ``power``, ``toughness``, ``mana_value``
(no ``copiable``, no ``pt_effects``); ``zones``; log entries ``damage``,
``zone_change`` (with its cause) and ``player_lost``.

``engine`` is the correct engine; ``buggy`` has three planted bugs of different kinds
(:data:`BUGS`), each switched on by name: ``TinyEngine(bugs={"deathtouch_ignored"})``.
"""

from __future__ import annotations

import cards
from harness.protocol import EngineInfo, IllegalAction, Unsupported

CARDS = ("Grizzly Bears", "Typhoid Rats", "Darksteel Myr", "Murder", "Shock")
#: What each spell does when it resolves: ("destroy", None) or ("damage", amount).
SPELLS = {"Murder": ("destroy", None), "Shock": ("damage", 2)}
CAPABILITIES = frozenset({
    "destroy", "damage", "deathtouch", "indestructible", "sacrifice", "log.zone_change_causes",
    "sba.life_total", "sba.lethal_damage", "sba.deathtouch_damage",
})
ZONES = ("battlefield", "library", "hand", "graveyard", "exile")
UNMODELLED_BOARD = ("token", "counters", "attached_to", "combat", "regeneration_shields")
#: The planted bugs of ``buggy``: name -> the rule it breaks.
BUGS = {
    "deathtouch_ignored": "704.5h: a creature dealt damage by a deathtouch source is not destroyed",
    "damage_kept_off_battlefield": "400.7: a creature put into a graveyard keeps its marked damage",
    "damage_to_wrong_player": "120.3a: damage to a player is lost as life by the source's controller",
}


class TinyGame:
    """One game: players ``{id: {"life", "lost"}}``, objects by id in timestamp order, the log."""

    def __init__(self, board: dict, bugs: frozenset[str]):
        self.bugs = bugs
        self.players: dict[str, dict] = {}
        self.objects: dict[str, dict] = {}
        self.log: list[dict] = []
        if not isinstance(board, dict) or not isinstance(board.get("players"), list) or not board["players"]:
            raise ValueError("board.players: expected a non-empty list")
        for i, spec in enumerate(board["players"]):
            life = spec.get("life", 20) if isinstance(spec, dict) else None
            if not isinstance(spec, dict) or not isinstance(spec.get("id"), str) or spec["id"] in self.players \
                    or not isinstance(life, int) or isinstance(life, bool):
                raise ValueError(f"board.players[{i}]: expected a new string 'id' and an integer 'life'")
            self.players[spec["id"]] = {"life": life, "lost": False}
        specs = board.get("objects", [])
        if not isinstance(specs, list):
            raise ValueError("board.objects: expected a list")
        for i, spec in enumerate(specs):
            self._add(spec, f"board.objects[{i}]")

    def _add(self, spec, where: str) -> None:
        if not isinstance(spec, dict):
            raise ValueError(f"{where}: expected an object")
        for feature in UNMODELLED_BOARD:
            if spec.get(feature):
                raise Unsupported(f"board:{feature}", f"{where}.{feature}: tiny doesn't model it")
        oid, name = spec.get("id"), spec.get("card")
        if not isinstance(oid, str) or not oid or oid in self.objects or oid in self.players:
            raise ValueError(f"{where}.id: expected a new non-empty string, got {oid!r}")
        if name not in CARDS:
            raise Unsupported(f"card:{name}", f"{where}.card: tiny plays only {', '.join(CARDS)}")
        card = cards.card(name)
        owner = spec.get("owner")
        controller = spec.get("controller", owner)
        zone = spec.get("zone", "battlefield")
        if owner not in self.players or controller not in self.players:
            raise ValueError(f"{where}.owner/controller: expected player ids, got {owner!r}/{controller!r}")
        if zone not in ZONES:
            raise ValueError(f"{where}.zone: {zone!r} is not one of {list(ZONES)}")
        state = {key: spec.get(key, False) for key in ("tapped", "summoning_sick")}
        damage = spec.get("damage", 0)
        if not all(isinstance(v, bool) for v in state.values()) or not isinstance(damage, int) \
                or isinstance(damage, bool) or damage < 0:
            raise ValueError(f"{where}: tapped and summoning_sick are booleans, damage an integer >= 0")
        if zone != "battlefield" and (controller != owner or damage or any(state.values())):
            raise ValueError(f"{where}: only a permanent has a controller of its own, damage or tapped status")
        if zone == "battlefield" and not card.is_type("Creature"):
            raise ValueError(f"{where}: {name} can't be on the battlefield (tiny's permanents are creatures)")
        self.objects[oid] = {"card": card, "zone": zone, "owner": owner, "controller": controller,
                             "damage": damage, "deathtouch_damage": False, **state}

    # ------------------------------------------------------------------ events
    def apply(self, event: dict, decider) -> None:
        """Perform ``event``, then state-based actions (CR 704.3). Raises IllegalAction or Unsupported."""
        if any(p["lost"] for p in self.players.values()):
            raise IllegalAction("game_over", "a player has lost the game")
        kind = event.get("type") if isinstance(event, dict) else None
        if not isinstance(kind, str):
            raise IllegalAction("bad_event", f"expected an event object with a 'type', got {event!r:.60}")
        handler = {"cast": self._cast, "damage": self._damage, "destroy": self._destroy_event,
                   "sacrifice": self._sacrifice, "put_onto_battlefield": self._put_onto_battlefield}.get(kind)
        if handler is None:
            raise Unsupported(f"event:{kind}", "tiny performs only cast, damage, destroy, sacrifice and "
                                               "put_onto_battlefield")
        perform = handler(event)  # validates before anything changes
        self.log = []
        perform()
        self._state_based_actions()

    def _permanent(self, oid, creature: bool = False) -> dict:
        obj = self.objects.get(oid) if isinstance(oid, str) else None
        if obj is None or obj["zone"] != "battlefield":
            raise IllegalAction("not_on_battlefield", f"{oid!r} is not a permanent on the battlefield")
        if creature and not obj["card"].is_type("Creature"):
            raise IllegalAction("illegal_target", f"{oid!r} is not a creature")
        return obj

    def _cast(self, event):
        name, controller, targets = event.get("card"), event.get("controller"), event.get("targets")
        if name not in SPELLS:
            if name in CARDS:
                raise IllegalAction("not_a_spell", f"{name} is not an instant or sorcery")
            raise Unsupported(f"card:{name}", f"tiny casts only {', '.join(SPELLS)}")
        if controller not in self.players or not isinstance(targets, list) or len(targets) != 1:
            raise IllegalAction("illegal_target", f"{name}: a player casts it with exactly one target")
        effect, amount = SPELLS[name]
        target = targets[0]
        if not (effect == "damage" and isinstance(target, str) and target in self.players):  # "any target"
            self._permanent(target, creature=True)
        if effect == "damage":
            return lambda: self._deal_damage(name, controller, None, target, amount)
        return lambda: self._destroy([target], name)

    def _damage(self, event):
        source = self._permanent(event.get("source"))
        target, amount = event.get("target"), event.get("amount")
        if not (isinstance(target, str) and target in self.players):
            self._permanent(target, creature=True)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            raise IllegalAction("bad_event", f"amount: expected an integer >= 1, got {amount!r}")
        return lambda: self._deal_damage(event["source"], source["controller"], source, target, amount)

    def _destroy_event(self, event):
        targets = event.get("targets")
        if not isinstance(targets, list) or not targets or len(set(map(repr, targets))) != len(targets):
            raise IllegalAction("bad_event", "targets: expected a non-empty list of distinct ids")
        for target in targets:
            self._permanent(target)
        return lambda: self._destroy(targets, "destroy effect")

    def _sacrifice(self, event):
        obj = self._permanent(event.get("object"))
        return lambda: self._move([event["object"]], {"event": "sacrifice", "by": obj["controller"]})

    def _put_onto_battlefield(self, event):
        oid, name, controller = event.get("id"), event.get("card"), event.get("controller")
        if event.get("copy_of") is not None or "x" in event:
            raise Unsupported("event:put_onto_battlefield:" + ("copy_of" if "x" not in event else "x"),
                              "tiny has no copy effects and no {X} cards")
        if not isinstance(oid, str) or not oid or oid in self.objects or oid in self.players:
            raise IllegalAction("bad_event", f"id={oid!r}: expected a new, unused object id")
        if name not in CARDS:
            raise Unsupported(f"card:{name}", f"tiny plays only {', '.join(CARDS)}")
        if not cards.card(name).is_type("Creature") or event.get("attach_to") is not None:
            raise IllegalAction("not_a_permanent", f"{name} can't enter the battlefield unattached here")
        if controller not in self.players:
            raise IllegalAction("bad_event", f"controller={controller!r} is not a player")
        return lambda: self._enter(oid, name, controller)

    # ------------------------------------------------------------------ rules
    def _enter(self, oid: str, name: str, controller: str) -> None:
        """CR 110.1, 302.6: a creature card from outside the game enters under ``controller``, summoning sick."""
        self.objects[oid] = {"card": cards.card(name), "zone": "battlefield", "owner": controller,
                             "controller": controller, "damage": 0, "deathtouch_damage": False, "tapped": False,
                             "summoning_sick": True}
        self.log.append({"kind": "zone_change", "object": oid, "from": None, "to": "battlefield",
                         "cause": {"event": "put_onto_battlefield"}})

    def _deal_damage(self, source_name: str, controller: str, source: dict | None, target: str, amount: int) -> None:
        """CR 120.3: ``source`` is the dealing permanent (None for a spell), ``controller`` its controller."""
        deathtouch = source is not None and "deathtouch" in source["card"].keywords
        self.log.append({"kind": "damage", "source": source_name, "target": target, "amount": amount,
                         "deathtouch": deathtouch})
        if target in self.players:
            loser = controller if "damage_to_wrong_player" in self.bugs else target
            self.players[loser]["life"] -= amount
        else:
            self.objects[target]["damage"] += amount
            self.objects[target]["deathtouch_damage"] |= deathtouch

    def _destroy(self, ids: list[str], by: str) -> None:
        """CR 701.7a, 702.12b: destroy every permanent of ``ids`` that isn't indestructible, at once."""
        doomed = [oid for oid in ids if self.objects[oid]["zone"] == "battlefield"
                  and "indestructible" not in self.objects[oid]["card"].keywords]
        self._move(doomed, {"event": "destroy", "by": by})

    def _move(self, ids: list[str], cause: dict) -> None:
        """Put permanents into their owners' graveyards (CR 400.3); each becomes a new object (400.7)."""
        for oid in ids:
            obj = self.objects[oid]
            self.log.append({"kind": "zone_change", "object": oid, "from": "battlefield", "to": "graveyard",
                             "cause": cause})
            obj.update(zone="graveyard", controller=obj["owner"], tapped=False, summoning_sick=False,
                       deathtouch_damage=False)
            if "damage_kept_off_battlefield" not in self.bugs:
                obj["damage"] = 0

    def _state_based_actions(self) -> None:
        """CR 704.3: perform 704.5a, 704.5g and 704.5h simultaneously until none applies."""
        while True:
            lost = [pid for pid, p in self.players.items() if p["life"] <= 0 and not p["lost"]]
            for pid in lost:
                self.players[pid]["lost"] = True
                self.log.append({"kind": "player_lost", "player": pid, "rule": "704.5a"})
            lethal, deathtouched = [], []
            for oid, obj in self.objects.items():
                if obj["zone"] != "battlefield" or "indestructible" in obj["card"].keywords:
                    continue
                if obj["damage"] >= obj["card"].toughness:
                    lethal.append(oid)
                elif obj["deathtouch_damage"] and "deathtouch_ignored" not in self.bugs:
                    deathtouched.append(oid)
            for obj in self.objects.values():  # deathtouch counts since the last check (704.5h)
                obj["deathtouch_damage"] = False
            if not (lost or lethal or deathtouched):
                return
            self._destroy(lethal, "704.5g")
            self._destroy(deathtouched, "704.5h")

    # ------------------------------------------------------------------ observation
    def observe(self) -> dict:
        """The game as plain JSON data (``harness.protocol.Observation``), with the last event's log."""
        objects, zones = {}, {"battlefield": []}
        for zone in ZONES[1:]:
            zones[zone] = {pid: [] for pid in self.players}
        for oid, obj in self.objects.items():
            card = obj["card"]
            objects[oid] = {
                "name": card.name, "zone": obj["zone"], "owner": obj["owner"], "controller": obj["controller"],
                "token": False, "tapped": obj["tapped"], "summoning_sick": obj["summoning_sick"],
                "damage": obj["damage"], "counters": {}, "attached_to": None, "combat": None,
                "regeneration_shields": 0, "supertypes": list(card.supertypes), "types": list(card.types),
                "subtypes": list(card.subtypes), "colors": list(card.colors), "keywords": sorted(card.keywords),
                "power": card.power, "toughness": card.toughness, "mana_value": card.mana_value,
            }
            if obj["zone"] == "battlefield":
                zones["battlefield"].append(oid)
            else:
                zones[obj["zone"]][obj["owner"]].append(oid)
        return {"players": {pid: dict(p) for pid, p in self.players.items()}, "objects": objects,
                "zones": zones, "log": [dict(entry) for entry in self.log]}


class TinyEngine:
    """The tiny engine; ``bugs`` names planted bugs from :data:`BUGS` (ValueError for others)."""

    def __init__(self, bugs=()):
        self.bugs = frozenset(bugs)
        if self.bugs - BUGS.keys():
            raise ValueError(f"unknown bugs {sorted(self.bugs - BUGS.keys())}; known: {sorted(BUGS)}")
        self.info = EngineInfo(name="tiny-buggy" if self.bugs else "tiny", version="1.0",
                               capabilities=CAPABILITIES, cards=frozenset(CARDS))

    def new_game(self, board: dict) -> TinyGame:
        return TinyGame(board, self.bugs)


engine = TinyEngine()
buggy = TinyEngine(bugs=BUGS)
