"""pool: an in-process rules engine written from scratch against the rulesfuzz protocol.

It stands for an outside team's engine: it imports only ``harness.protocol`` (EngineInfo,
IllegalAction, Unsupported) and the standard library, and carries its own card table
(``cards.py`` beside this file, written by hand from the Oracle texts).

Cards (41): vanilla and keyword creatures, a legend (Jasmine Boreal), three Auras, three
Equipment, removal (Terror, Go for the Throat), burn (Searing Spear, Lightning Strike,
Flame Slash, Pyroclasm), pump/shrink/counters (Titanic Growth, Disfigure, Last Gasp,
Battlegrowth), Dragon Fodder's Goblin tokens, two mana elves (played as 1/1 creatures: no
``mana`` capability), Lone Missionary's enters trigger and Glorious Anthem.

Rules implemented:

* 120.3: damage to a player is lost as life, to a creature marked on it; 702.15b lifelink
  (any damage a lifelink source deals gains its controller that much life); 702.2b
  deathtouch; 702.12b indestructible.
* 701.7 destroy, 701.17 sacrifice; 400.7: a permanent that leaves the battlefield becomes a
  new object (no damage, counters, effects, attachment, combat status).
* 613.4c (layer 7c): Aura and Equipment bonuses (only while attached, CR 301.5, 611.3a),
  Glorious Anthem, +1/+1 and -1/-1 counters (and any P/T counter kind of a board) and
  until-end-of-turn effects (modify_pt, pump spells).
* 303.4, 301.5c: an Aura enchants a creature; an Equipment equips only a creature.
* 111.1-111.4: Dragon Fodder's two 1/1 red Goblin creature tokens named "Goblin Token".
* 603: Lone Missionary's enters ability triggers and resolves within the event.
* 514.2: cleanup removes damage and ends until-end-of-turn effects at once.
* 704.3: state-based actions until none applies: 704.5a, d, f, g, h, j (the controller
  chooses, decider kind ``legend_rule``, options the ids of the legends, answer the one
  kept), m, n, q.
* Combat (capability ``combat``, CR 506-511): declare_attackers (508.1a untapped, 302.6 not
  summoning sick unless haste 702.10c, 702.3b defender; 508.1f taps but vigilance 702.20b),
  declare_blockers (509.1a untapped, 702.9b flying/reach, 702.111b menace; 509.1h stays
  blocked), combat_damage (510.4/702.7b first strike step; 510.1c division asked as decider
  kind ``damage_assignment``; 510.2 all at once; 702.2b deathtouch, 702.15b lifelink once per
  source), end_of_combat (511.3; cleanup ends combat too). Declined: more than two players. No
  card of the table has trample, double strike, protection or a combat restriction.
* The stack (capability ``stack``, a board saying ``"stack": true``; CR 405, 117, 601.2, 603.3,
  608): ``cast`` puts the spell on the stack under its ``id`` (601.2a) with its targets,
  checked as it is cast (601.2c); its caster must hold priority (117.1) and gets it back
  (117.3c); a sorcery only while the stack is empty (307.1). Abilities that trigger during an
  event go on the stack after it and its state-based actions (117.5), in APNAP order from the
  active player (603.3b; decider kind ``trigger_order`` for a player's several), as
  ``<source id>.ability<n>``. ``pass_priority``: priority goes to the next player (117.3d);
  when every player has passed in succession (117.4) the top object resolves (405.5, 608.1) and
  the active player receives priority (117.3b). As it resolves a spell's targets are checked
  again (608.2b): a target that changed zones is a new object (400.7), and one that no longer
  meets the targeting restrictions is illegal; with all its targets illegal it doesn't resolve
  (removed from the stack), an instant or sorcery then goes to its owner's graveyard (608.2n).
  A triggered ability exists independently of its source (113.7a): Lone Missionary's gains its
  controller, fixed as it triggered (603.3a), 4 life even if the Missionary has left. Any other
  event between passes restarts the succession (117.4); cleanup and the combat events are
  refused while the stack isn't empty (500.2) and give the active player priority (117.3a).

``engine`` is the correct engine; ``buggy.py`` beside it has five planted bugs.
"""

from __future__ import annotations

import copy
import importlib.util
import re
import sys
from pathlib import Path

from harness.protocol import EngineInfo, IllegalAction, Unsupported


def _sibling(name: str):
    """Load ``name``.py beside this file (the engine is loaded by path, not as a package)."""
    modname = f"_pool_engine_{name}"
    if modname not in sys.modules:
        spec = importlib.util.spec_from_file_location(modname, Path(__file__).with_name(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
        spec.loader.exec_module(module)
    return sys.modules[modname]


_cards = _sibling("cards")
CARDS: dict[str, dict] = _cards.CARDS
TOKENS: dict[str, dict] = _cards.TOKENS

CAPABILITIES = frozenset({
    "destroy", "damage", "deathtouch", "indestructible", "sacrifice", "legend_rule",
    "pt_until_end_of_turn", "cleanup", "counters", "tokens", "triggers", "log.zone_change_causes",
    "sba.life_total", "sba.token_zone", "sba.zero_toughness", "sba.lethal_damage", "sba.deathtouch_damage",
    "sba.unattached_aura", "sba.counter_annihilation", "combat", "stack",
})
#: Events of the turn structure: refused while the stack is not empty (CR 500.2); priority then
#: goes to the active player (117.3a).
TURN_EVENTS = frozenset({"cleanup", "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat"})
#: Refusal reasons of a spell's targeting (CR 601.2c): as it resolves they make a target illegal (608.2b).
TARGET_REASONS = frozenset({"illegal_target", "not_on_battlefield"})
ZONES = ("battlefield", "library", "hand", "graveyard", "exile")
_PT_KIND = re.compile(r"^([+-]\d+)/([+-]\d+)$")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class PoolGame:
    """One game: ``players`` {id: {"life", "lost"}}, ``objects`` by id, until-end-of-turn ``effects``, the log."""

    def __init__(self, board: dict):
        self.players: dict[str, dict] = {}
        self.objects: dict[str, dict] = {}
        self.effects: list[dict] = []  # {"object", "power", "toughness", "source"}: until end of turn, 7c
        self.used_ids: set[str] = set()
        self.timestamp = 0
        self.log: list[dict] = []
        # the declared combat (capability combat): {"attacking_player", "defending_player", "step",
        # "first_strikers", "attackers", "blocks" {blocker: attacker}, "blockers_declared"}, or None
        self.combat: dict | None = None
        # the stack (capability stack, a board saying "stack": true): entries bottom to top, each
        # {"id", "kind", "card", "source", "controller", "targets", "trigger", "ability"} plus private
        # keys starting with "_"; priority {"player", "passed", "active_player"}; every stack id used
        self.stack_game = False
        self.stack: list[dict] = []
        self.priority: dict = {}
        self.stack_ids: set[str] = set()
        if not isinstance(board, dict) or not isinstance(board.get("players"), list) or not board["players"]:
            raise ValueError("board.players: expected a non-empty list")
        for i, spec in enumerate(board["players"]):
            life = spec.get("life", 20) if isinstance(spec, dict) else None
            if not isinstance(spec, dict) or not isinstance(spec.get("id"), str) or spec["id"] in self.players \
                    or not _is_int(life):
                raise ValueError(f"board.players[{i}]: expected a new string 'id' and an integer 'life'")
            self.players[spec["id"]] = {"life": life, "lost": False}
        specs = board.get("objects", [])
        if not isinstance(specs, list):
            raise ValueError("board.objects: expected a list")
        for i, spec in enumerate(specs):
            self._add(spec, f"board.objects[{i}]")
        for oid, obj in self.objects.items():
            host = obj["attached_to"]
            if host is not None and (host not in self.objects or host == oid):
                raise ValueError(f"board object {oid}: attached_to {host!r} is not another object of the board")
        self.stack_game = board.get("stack", False)
        if not isinstance(self.stack_game, bool):
            raise ValueError(f"board.stack: expected true or false, got {self.stack_game!r}")
        first = next(iter(self.players))  # CR 102.1, 117.3a: the board's first player is the active player
        self.priority = {"player": first, "passed": [], "active_player": first}

    def _add(self, spec, where: str) -> None:
        if not isinstance(spec, dict):
            raise ValueError(f"{where}: expected an object")
        oid, name = spec.get("id"), spec.get("card")
        if not isinstance(oid, str) or not oid or oid in self.objects or oid in self.players:
            raise ValueError(f"{where}.id: expected a new non-empty string, got {oid!r}")
        token = spec.get("token", False)
        if not isinstance(token, bool):
            raise ValueError(f"{where}.token: expected a boolean")
        if name in CARDS:
            proto = CARDS[name]
        elif token and name in TOKENS:
            proto = TOKENS[name]
        else:
            raise Unsupported(f"card:{name}", f"{where}.card: pool doesn't play {name!r}")
        if spec.get("regeneration_shields"):
            raise Unsupported("board:regeneration_shields", f"{where}: pool has no regeneration")
        owner = spec.get("owner")
        controller = spec.get("controller", owner)
        zone = spec.get("zone", "battlefield")
        if owner not in self.players or controller not in self.players:
            raise ValueError(f"{where}.owner/controller: expected player ids, got {owner!r}/{controller!r}")
        if zone not in ZONES:
            raise ValueError(f"{where}.zone: {zone!r} is not one of {list(ZONES)}")
        counters = spec.get("counters") or {}
        if not isinstance(counters, dict) or any(not _PT_KIND.match(str(k)) or not _is_int(v) or v < 0
                                                 for k, v in counters.items()):
            if isinstance(counters, dict) and all(_is_int(v) for v in counters.values()):
                raise Unsupported("board:counters", f"{where}.counters: only power/toughness counters")
            raise ValueError(f"{where}.counters: expected {{kind: integer >= 0}}")
        damage = spec.get("damage", 0)
        if not _is_int(damage) or damage < 0:
            raise ValueError(f"{where}.damage: expected an integer >= 0")
        state = {key: spec.get(key, False) for key in ("tapped", "summoning_sick")}
        if not all(isinstance(v, bool) for v in state.values()):
            raise ValueError(f"{where}: tapped and summoning_sick are booleans")
        combat = spec.get("combat")
        if combat not in (None, "attacking", "blocking"):
            raise ValueError(f"{where}.combat: expected null, 'attacking' or 'blocking'")
        attached = spec.get("attached_to")
        if attached is not None and not isinstance(attached, str):
            raise ValueError(f"{where}.attached_to: expected an id or null")
        if zone != "battlefield":
            if controller != owner or damage or any(state.values()) or counters or attached or combat:
                raise ValueError(f"{where}: only a permanent has a controller of its own, damage, counters, "
                                 f"tapped status, an attachment or a combat status")
        elif proto["types"] and set(proto["types"]) & {"Instant", "Sorcery"}:
            raise ValueError(f"{where}: {name} (an instant or sorcery) can't be on the battlefield")
        self.timestamp += 1
        self.used_ids.add(oid)
        self.objects[oid] = {
            "id": oid, "name": name, "proto": proto, "zone": zone, "owner": owner, "controller": controller,
            "token": token, "damage": damage, "counters": {k: v for k, v in counters.items() if v},
            "attached_to": attached, "combat": combat, "deathtouched": False, "timestamp": self.timestamp,
            "seq": self.timestamp, **state,
        }

    # ------------------------------------------------------------------ characteristics
    def types(self, obj) -> list[str]:
        return obj["proto"]["types"]

    def is_creature(self, obj) -> bool:
        return "Creature" in self.types(obj)

    def keywords(self, obj) -> list[str]:
        return obj["proto"]["keywords"]

    def ability(self, obj):
        return obj["proto"]["ability"]

    def _attachment_bonuses(self, obj) -> list[tuple[int, int]]:
        """Layer 7c bonuses of the Auras and Equipment attached to ``obj`` (CR 301.5, 303.4)."""
        out = []
        for other in self.objects.values():
            ability = self.ability(other)
            if other["zone"] == "battlefield" and other["attached_to"] == obj["id"] and ability \
                    and ability[0] in ("aura", "equipment"):
                out.append((ability[1], ability[2]))
        return out

    def power_toughness(self, obj) -> tuple[int | None, int | None]:
        """CR 613: printed P/T, then layer 7c: attachments, anthems, counters, until-end-of-turn effects."""
        proto = obj["proto"]
        if proto["power"] is None:
            return None, None
        power, toughness = proto["power"], proto["toughness"]
        if obj["zone"] != "battlefield":
            return power, toughness
        for p, t in self._attachment_bonuses(obj):
            power, toughness = power + p, toughness + t
        for other in self.objects.values():
            ability = self.ability(other)
            if other["zone"] == "battlefield" and ability and ability[0] == "anthem" \
                    and other["controller"] == obj["controller"]:
                power, toughness = power + ability[1], toughness + ability[2]
        for kind, n in obj["counters"].items():
            m = _PT_KIND.match(kind)
            power, toughness = power + int(m.group(1)) * n, toughness + int(m.group(2)) * n
        for effect in self.effects:
            if effect["object"] == obj["id"]:
                power, toughness = power + effect["power"], toughness + effect["toughness"]
        return power, toughness

    # ------------------------------------------------------------------ events
    def apply(self, event: dict, decider) -> None:
        """Perform ``event``, then state-based actions (CR 704.3) and triggers. IllegalAction/Unsupported
        leave the game unchanged."""
        if any(p["lost"] for p in self.players.values()):
            raise IllegalAction("game_over", "a player has lost the game")
        kind = event.get("type") if isinstance(event, dict) else None
        if not isinstance(kind, str):
            raise IllegalAction("bad_event", f"expected an event object with a 'type', got {event!r:.60}")
        handler = {
            "cast": self._cast, "damage": self._damage_event, "destroy": self._destroy_event,
            "sacrifice": self._sacrifice_event, "put_onto_battlefield": self._put_onto_battlefield,
            "attach": self._attach_event, "modify_pt": self._modify_pt, "add_counters": self._add_counters,
            "cleanup": self._cleanup, "declare_attackers": self._declare_attackers,
            "declare_blockers": self._declare_blockers, "combat_damage": self._combat_damage,
            "end_of_combat": self._end_of_combat, "pass_priority": self._pass_priority,
        }.get(kind)
        if handler is None:
            raise Unsupported(f"event:{kind}", "pool doesn't model this event")
        if self.stack_game and kind == "cast":
            handler = self._cast_to_stack
        if self.stack_game and kind in TURN_EVENTS and self.stack:
            raise IllegalAction("stack_not_empty", f"{kind}: the stack is not empty (CR 500.2)")
        saved = copy.deepcopy(self._state())
        try:
            self._decider = decider
            perform = handler(event)  # validates before anything changes
            self.log = []
            self.triggers: list[dict] = []
            perform()
            if self.stack_game and kind in TURN_EVENTS:
                self.priority["player"] = self.priority["active_player"]  # CR 117.3a
            if self.stack_game and kind != "pass_priority":
                self.priority["passed"] = []  # an event between passes: no succession (CR 117.4)
            self._state_based_actions(decider)
            if self.stack_game:
                self._put_triggers_on_stack(decider)  # CR 117.5, 603.3b
            else:
                self._resolve_triggers(decider)
        except (IllegalAction, Unsupported):
            self._restore(saved)
            raise

    def _state(self) -> tuple:
        return (self.players, self.objects, self.effects, self.used_ids, self.timestamp, self.log, self.combat,
                self.stack, self.priority, self.stack_ids)

    def _restore(self, saved: tuple) -> None:
        (self.players, self.objects, self.effects, self.used_ids, self.timestamp, self.log, self.combat,
         self.stack, self.priority, self.stack_ids) = saved

    def _player(self, pid) -> str:
        if not isinstance(pid, str) or pid not in self.players:
            raise IllegalAction("bad_event", f"{pid!r} is not a player")
        return pid

    def _permanent(self, oid, creature: bool = False) -> dict:
        obj = self.objects.get(oid) if isinstance(oid, str) else None
        if obj is None or obj["zone"] != "battlefield":
            raise IllegalAction("not_on_battlefield", f"{oid!r} is not a permanent on the battlefield")
        if creature and not self.is_creature(obj):
            raise IllegalAction("illegal_target", f"{oid!r} is not a creature")
        return obj

    def _new_id(self, oid) -> str:
        if not isinstance(oid, str) or not oid or oid in self.used_ids or oid in self.players:
            raise IllegalAction("bad_event", f"id={oid!r}: expected a new, unused object id")
        return oid

    def _cast(self, event):
        name, targets = event.get("card"), event.get("targets", [])
        controller = self._player(event.get("controller"))
        if name not in CARDS:
            raise Unsupported(f"card:{name}", "pool doesn't play this card")
        card = CARDS[name]
        if not {"Instant", "Sorcery"} & set(card["types"]):
            raise IllegalAction("not_a_spell", f"{name} is not an instant or sorcery")
        if not isinstance(targets, list):
            raise IllegalAction("bad_event", "targets: expected a list")
        ability = card["ability"]
        effect = ability[0]
        if effect in ("damage_each_creature", "tokens"):
            if targets:
                raise IllegalAction("illegal_target", f"{name} has no target")
            if effect == "damage_each_creature":
                return lambda: self._pyroclasm(name, controller, ability[1])
            ids = event.get("token_ids")
            if not isinstance(ids, list) or len(ids) != ability[1] or len(set(map(repr, ids))) != len(ids):
                raise IllegalAction("bad_event", f"{name}: token_ids must name {ability[1]} new ids")
            for tid in ids:
                self._new_id(tid)
            return lambda: self._create_tokens(name, controller, ids, ability[2])
        if len(targets) != 1:
            raise IllegalAction("illegal_target", f"{name}: exactly one target")
        target = targets[0]
        if effect == "damage" and ability[2] == "any" and isinstance(target, str) and target in self.players:
            return lambda: self._deal_damage(name, None, controller, target, ability[1])
        obj = self._permanent(target, creature=True)
        if effect == "destroy":
            if ability[1]["nonartifact"] and "Artifact" in self.types(obj):
                raise IllegalAction("illegal_target", f"{name}: {target} is an artifact creature")
            if ability[1]["nonblack"] and "B" in obj["proto"]["colors"]:
                raise IllegalAction("illegal_target", f"{name}: {target} is black")
            return lambda: self._destroy([target], {"event": "destroy", "by": name})
        if effect == "damage":
            return lambda: self._deal_damage(name, None, controller, target, ability[1])
        if effect == "pump":
            return lambda: self.effects.append({"object": target, "power": ability[1], "toughness": ability[2],
                                                "source": name})
        if effect == "counter":
            return lambda: self._put_counters(target, ability[1], ability[2])
        raise Unsupported(f"card:{name}", f"pool can't cast {name}")  # pragma: no cover

    def _damage_event(self, event):
        source = self._permanent(event.get("source"))
        target, amount = event.get("target"), event.get("amount")
        if not (isinstance(target, str) and target in self.players):
            self._permanent(target, creature=True)
        if not _is_int(amount) or amount < 1:
            raise IllegalAction("bad_event", f"amount: expected an integer >= 1, got {amount!r}")
        return lambda: self._deal_damage(event["source"], source, source["controller"], target, amount)

    def _destroy_event(self, event):
        targets = event.get("targets")
        if not isinstance(targets, list) or not targets or len(set(map(repr, targets))) != len(targets):
            raise IllegalAction("bad_event", "targets: expected a non-empty list of distinct ids")
        for target in targets:
            self._permanent(target)
        # cant_be_regenerated: this engine has no regeneration shields, so it changes nothing
        return lambda: self._destroy(targets, {"event": "destroy", "by": "destroy effect"})

    def _sacrifice_event(self, event):
        obj = self._permanent(event.get("object"))
        return lambda: self._move([obj["id"]], {"event": "sacrifice", "by": obj["controller"]})

    def _put_onto_battlefield(self, event):
        oid, name = event.get("id"), event.get("card")
        controller = self._player(event.get("controller"))
        if event.get("copy_of") is not None:
            raise Unsupported("event:put_onto_battlefield:copy_of", "pool has no copy effects")
        if "x" in event:
            raise Unsupported("event:put_onto_battlefield:x", "pool has no {X} cards")
        self._new_id(oid)
        if name not in CARDS:
            raise Unsupported(f"card:{name}", "pool doesn't play this card")
        card = CARDS[name]
        if {"Instant", "Sorcery"} & set(card["types"]):
            raise IllegalAction("not_a_permanent", f"{name} is not a permanent card")
        host = event.get("attach_to")
        kind = card["ability"][0] if card["ability"] else None
        if kind == "aura":
            if host is None:
                raise IllegalAction("no_legal_attachment", f"{name} must enter attached to a creature (CR 303.4f)")
            self._permanent(host, creature=True)
        elif kind == "equipment":
            if host is not None:
                self._permanent(host, creature=True)  # CR 301.5c
        elif host is not None:
            raise IllegalAction("bad_event", f"{name} can't enter attached to anything")
        return lambda: self._enter(oid, name, controller, host)

    def _attach_event(self, event):
        aid, host = event.get("aura"), event.get("to")
        attachment = self._permanent(aid)
        kind = self.ability(attachment)[0] if self.ability(attachment) else None
        if kind not in ("aura", "equipment"):
            raise IllegalAction("not_an_aura", f"{aid} is neither an Aura nor an Equipment")
        if host == aid:
            raise IllegalAction("illegal_target", f"{aid} can't be attached to itself")
        self._permanent(host, creature=True)  # enchant creature (CR 303.4a); Equipment, CR 301.5c
        return lambda: self._attach(aid, host)

    def _modify_pt(self, event):
        obj = self._permanent(event.get("object"), creature=True)
        power, toughness = event.get("power"), event.get("toughness")
        if not _is_int(power) or not _is_int(toughness):
            raise IllegalAction("bad_event", "power and toughness: expected integers")
        return lambda: self.effects.append({"object": obj["id"], "power": power, "toughness": toughness,
                                            "source": "modify_pt"})

    def _add_counters(self, event):
        obj = self._permanent(event.get("object"))
        kind, amount = event.get("kind"), event.get("amount")
        if not _is_int(amount) or amount < 1:
            raise IllegalAction("bad_event", f"amount: expected an integer >= 1, got {amount!r}")
        if kind not in ("+1/+1", "-1/-1"):
            raise Unsupported(f"counters:{kind}", "pool puts only +1/+1 and -1/-1 counters")
        return lambda: self._put_counters(obj["id"], kind, amount)

    def _cleanup(self, event):
        def perform():
            for oid, obj in self.objects.items():  # CR 514.2: at once
                if obj["zone"] == "battlefield" and obj["damage"]:
                    self.log.append({"kind": "damage_removed", "object": oid, "amount": obj["damage"]})
                    obj["damage"] = 0
                obj["deathtouched"] = False
                if obj["zone"] == "battlefield":
                    obj["combat"] = None  # 514: the combat phase is over
            self.effects = []
            self.combat = None
        return perform

    # ------------------------------------------------------------------ combat (CR 506-511)
    def _in_combat(self, oid, status):
        obj = self.objects.get(oid)
        return obj if obj is not None and obj["zone"] == "battlefield" and obj["combat"] == status else None

    def _current_combat(self):
        """The declared combat, while one of its attackers or blockers is still in combat (CR 506.4)."""
        c = self.combat
        if c is None:
            return None
        if not any(self._in_combat(a, "attacking") for a in c["attackers"]) \
                and not any(self._in_combat(b, "blocking") for b in c["blocks"]):
            return None
        return c

    def _attackers_now(self) -> list[str]:
        c = self._current_combat()
        return [] if c is None else sorted(a for a in c["attackers"] if self._in_combat(a, "attacking"))

    def _blockers_now(self) -> list[str]:
        c = self._current_combat()
        return [] if c is None else sorted(b for b in c["blocks"] if self._in_combat(b, "blocking"))

    def _blockers_of(self, attacker: str) -> list[str]:
        c = self._current_combat()
        if c is None or not self._in_combat(attacker, "attacking"):
            return []
        return sorted(b for b, a in c["blocks"].items() if a == attacker and self._in_combat(b, "blocking"))

    def _blocked_attacker(self, blocker: str):
        c = self._current_combat()
        if c is None or not self._in_combat(blocker, "blocking"):
            return None
        a = c["blocks"].get(blocker)
        return a if a is not None and self._in_combat(a, "attacking") else None

    def _is_blocked(self, attacker: str):
        """CR 509.1h: whether a blocker was declared for it; None before blockers are declared."""
        c = self._current_combat()
        if c is None or not c["blockers_declared"]:
            return None
        return attacker in c["blocks"].values()

    def _declare_attackers(self, event):
        """CR 508.1: the attacking player declares attackers, each attacking the other player."""
        player = self._player(event.get("player"))
        if len(self.players) != 2:
            raise Unsupported("combat:multiplayer", "pool models combat of two players only (CR 506.2)")
        ids = event.get("attackers")
        if not isinstance(ids, list) or len(set(map(repr, ids))) != len(ids):
            raise IllegalAction("bad_event", "attackers: expected a list of distinct ids")
        if self._current_combat() is not None or any(
                o["zone"] == "battlefield" and o["combat"] is not None for o in self.objects.values()):
            raise IllegalAction("combat_in_progress", "a combat is in progress (end_of_combat first, CR 511.3)")
        for oid in ids:
            obj = self.objects.get(oid) if isinstance(oid, str) else None
            if obj is None or obj["zone"] != "battlefield" or not self.is_creature(obj) \
                    or obj["controller"] != player:
                raise IllegalAction("illegal_attack", f"{oid!r} is not a creature {player} controls (508.1a)")
            keywords = self.keywords(obj)
            if obj["tapped"]:
                raise IllegalAction("illegal_attack", f"{oid!r} is tapped (508.1a)")
            if obj["summoning_sick"] and "haste" not in keywords:
                raise IllegalAction("illegal_attack", f"{oid!r} is summoning sick (302.6)")
            if "defender" in keywords:
                raise IllegalAction("illegal_attack", f"{oid!r} has defender (702.3b)")
        defending = next(pid for pid in self.players if pid != player)

        def perform():
            for oid in ids:  # 508.1f, 702.20b
                if "vigilance" not in self.keywords(self.objects[oid]):
                    self.objects[oid]["tapped"] = True
                    self.log.append({"kind": "tapped", "object": oid, "cause": "attack"})
            for oid in ids:  # 508.1k
                self.objects[oid]["combat"] = "attacking"
            self.combat = {"attacking_player": player, "defending_player": defending, "step": "declare_attackers",
                           "first_strikers": [], "attackers": list(ids), "blocks": {}, "blockers_declared": False}
        return perform

    def _declare_blockers(self, event):
        """CR 509.1: the defending player declares blockers."""
        c = self._current_combat()
        if c is None or not c["attackers"]:
            raise IllegalAction("no_attackers", "no attackers were declared (508.8)")
        if c["step"] != "declare_attackers":
            raise IllegalAction("wrong_step", "blockers are declared once, before combat damage (509.1)")
        blocks = event.get("blocks", {})
        if not isinstance(blocks, dict):
            raise IllegalAction("bad_event", "blocks: expected a map of blocker id to attacker id")
        count: dict[str, int] = {}
        for blocker_id, attacker_id in blocks.items():
            blocker = self.objects.get(blocker_id)
            if blocker is None or blocker["zone"] != "battlefield" or not self.is_creature(blocker) \
                    or blocker["controller"] != c["defending_player"] or blocker["combat"] is not None:
                raise IllegalAction("illegal_block", f"{blocker_id!r} is not a creature the defending player controls")
            if blocker["tapped"]:
                raise IllegalAction("illegal_block", f"{blocker_id!r} is tapped (509.1a)")
            if not isinstance(attacker_id, str) or attacker_id not in c["attackers"] \
                    or not self._in_combat(attacker_id, "attacking"):
                raise IllegalAction("illegal_block", f"{attacker_id!r} is not an attacking creature")
            attacker = self.objects[attacker_id]
            if "flying" in self.keywords(attacker) and not {"flying", "reach"} & set(self.keywords(blocker)):
                raise IllegalAction("illegal_block", f"{attacker_id!r} has flying (702.9b)")
            count[attacker_id] = count.get(attacker_id, 0) + 1
        for attacker_id, n in count.items():
            if n == 1 and "menace" in self.keywords(self.objects[attacker_id]):
                raise IllegalAction("illegal_block", f"{attacker_id!r} has menace (702.111b)")

        def perform():
            for blocker_id in blocks:
                self.objects[blocker_id]["combat"] = "blocking"
            c["blocks"] = dict(blocks)
            c["blockers_declared"] = True
            c["step"] = "declare_blockers"
        return perform

    def _damage_amount(self, oid) -> int:
        return self.power_toughness(self.objects[oid])[0] or 0

    def _combat_damage(self, event):
        """One combat damage step (CR 510; first strike 702.7b, 510.4)."""
        c = self._current_combat()
        if c is None or not c["attackers"]:
            raise IllegalAction("no_attackers", "no attackers were declared (508.8)")
        if c["step"] == "combat_damage":
            raise IllegalAction("wrong_step", "the combat damage steps are over (510.4)")
        return self._combat_damage_step

    def _combat_damage_step(self) -> None:
        c = self.combat
        combatants = self._attackers_now() + self._blockers_now()
        if c["step"] in ("declare_attackers", "declare_blockers"):
            c["blockers_declared"] = True  # none declared: nobody blocks
            strikers = [oid for oid in combatants if "first strike" in self.keywords(self.objects[oid])]
            if strikers:
                c["first_strikers"], c["step"], dealing = sorted(strikers), "first_strike_damage", strikers
            else:
                c["step"], dealing = "combat_damage", combatants
        else:
            c["step"] = "combat_damage"
            dealing = [oid for oid in combatants if oid not in c["first_strikers"]]
        assignments: list[tuple[str, str, int]] = []
        decider = self._decider
        for oid in sorted(o for o in dealing if self.objects[o]["combat"] == "attacking"):
            amount = self._damage_amount(oid)
            if amount <= 0:  # 510.1a
                continue
            if not self._is_blocked(oid):  # 510.1b
                assignments.append((oid, c["defending_player"], amount))
                continue
            blockers = self._blockers_of(oid)  # none left: no damage (no trample in the pool)
            remaining = amount
            for i, b in enumerate(blockers):  # 510.1c: divided as the attacking player chooses
                if i == len(blockers) - 1:
                    n = remaining
                elif remaining <= 0:
                    n = 0
                else:
                    options = [f"{k} damage to {b}" for k in range(0, remaining + 1)]
                    answer = decider.choose(self.objects[oid]["controller"], "damage_assignment", options)
                    if answer not in options:
                        raise ValueError(f"damage_assignment: {answer!r} is not one of {options}")
                    n = int(answer.split(" ", 1)[0])
                remaining -= n
                if n > 0:
                    assignments.append((oid, b, n))
        for oid in sorted(o for o in dealing if self.objects[o]["combat"] == "blocking"):
            attacker, amount = self._blocked_attacker(oid), self._damage_amount(oid)
            if attacker is not None and amount > 0:  # 510.1d
                assignments.append((oid, attacker, amount))
        dealt: dict[str, int] = {}
        for source, target, amount in assignments:  # 510.2: all at once
            deathtouch = "deathtouch" in self.keywords(self.objects[source])
            self.log.append({"kind": "damage", "source": source, "target": target, "amount": amount,
                             "deathtouch": deathtouch, "combat": True})
            if target in self.players:
                self.players[target]["life"] -= amount
            else:
                self.objects[target]["damage"] += amount
                self.objects[target]["deathtouched"] |= deathtouch
            dealt[source] = dealt.get(source, 0) + amount
        for source, amount in dealt.items():  # 702.15b: one life gain per source
            if "lifelink" in self.keywords(self.objects[source]):
                self._gain_life(self.objects[source]["controller"], amount)

    def _end_of_combat(self, event):
        def perform():  # 511.3
            for obj in self.objects.values():
                if obj["zone"] == "battlefield":
                    obj["combat"] = None
            self.combat = None
        return perform

    # ------------------------------------------------------------------ the stack (CR 405, 117, 601.2, 608)
    def _stamp(self, target):
        """What ``target`` is now: a player (None), or an object's zone and the sequence number it got
        as it entered that zone (a zone change makes it a new object, CR 400.7)."""
        if target in self.players:
            return None
        obj = self.objects.get(target)
        return None if obj is None else (obj["zone"], obj["seq"])

    def _same_object(self, target, stamp) -> bool:
        if target in self.players:
            return not self.players[target]["lost"]
        return stamp is not None and self._stamp(target) == stamp

    def _cast_to_stack(self, event):
        """CR 601.2: a cast in a stack game puts the spell on the stack; it resolves later."""
        oid = event.get("id")
        if not isinstance(oid, str) or not oid or oid in self.used_ids or oid in self.players \
                or oid in self.stack_ids or oid in (event.get("token_ids") or ()):
            raise IllegalAction("bad_event", f"id={oid!r}: a spell on the stack needs a new, unused id (CR 405.1)")
        self._cast(event)  # the card and its targets, checked as it is cast (601.2c); nothing happens yet
        name, controller = event["card"], event["controller"]
        if controller != self.priority["player"]:
            raise IllegalAction("no_priority", f"{controller} doesn't hold priority, "
                                               f"{self.priority['player']} does (CR 117.1)")
        if "Instant" not in CARDS[name]["types"] and self.stack:
            raise IllegalAction("sorcery_timing", f"{name} only while the stack is empty (CR 307.1)")
        targets = list(event.get("targets", []))

        def perform():
            self._push({"id": oid, "kind": "spell", "card": name, "source": None, "controller": controller,
                        "targets": targets, "trigger": None, "ability": None, "_event": copy.deepcopy(event),
                        "_stamps": {t: self._stamp(t) for t in targets}})
            self.used_ids.add(oid)
            self.priority["player"] = controller  # CR 117.3c
        return perform

    def _push(self, entry: dict) -> None:
        """CR 405.2: on top of the stack."""
        self.stack.append(entry)
        self.stack_ids.add(entry["id"])
        self.log.append({"kind": "put_on_stack", "object": entry["id"], "stack_kind": entry["kind"],
                         "controller": entry["controller"], "targets": list(entry["targets"])})

    def _ability_id(self, source: str) -> str:
        n = 1
        while f"{source}.ability{n}" in self.stack_ids or f"{source}.ability{n}" in self.used_ids:
            n += 1
        return f"{source}.ability{n}"

    def _apnap(self) -> list[str]:
        """CR 101.4: the active player, then the others in turn order (the board's order)."""
        players = list(self.players)
        i = players.index(self.priority["active_player"])
        return players[i:] + players[:i]

    def _put_triggers_on_stack(self, decider) -> None:
        """CR 117.5, 603.3b: the abilities that triggered go on the stack, the active player's first,
        each player putting their own in the order they choose (decider kind ``trigger_order``)."""
        waiting, self.triggers = self.triggers, []
        if any(p["lost"] for p in self.players.values()):
            return  # the game is over (CR 104.2a)
        for player in self._apnap():
            mine = [t for t in waiting if t["controller"] == player]
            while mine:
                trigger = mine[0]
                if len(mine) > 1:
                    options = [f"{t['ability']}:{t['source']}" for t in mine]
                    answer = decider.choose(player, "trigger_order", options)
                    if answer not in options:
                        raise ValueError(f"trigger_order: the decider answered {answer!r}, not one of {options}")
                    trigger = mine[options.index(answer)]
                mine.remove(trigger)
                self._push({"id": self._ability_id(trigger["source"]), "kind": "ability", "card": None,
                            "source": trigger["source"], "controller": player, "targets": [],
                            "trigger": trigger["ability"], "ability": None, "_trigger": dict(trigger)})

    def _pass_priority(self, event):
        """CR 117.3d, 117.4: the player holding priority passes; after every player has, in succession,
        the top object of the stack resolves (405.5, 608.1)."""
        player = event.get("player")
        if not isinstance(player, str) or player not in self.players:
            raise IllegalAction("bad_event", f"player={player!r} is not a player")
        if not self.stack_game:
            raise IllegalAction("no_stack", "this game has no stack: spells resolve as they are cast")
        if not self.stack:
            raise IllegalAction("empty_stack", "the stack is empty: nothing to pass priority over")
        if player != self.priority["player"]:
            raise IllegalAction("no_priority", f"{player} doesn't hold priority, {self.priority['player']} does "
                                               f"(CR 117.3d)")
        live = {p for p, state in self.players.items() if not state["lost"]}
        if not live <= set(self.priority["passed"]) | {player}:
            def pass_on():
                players = list(self.players)
                self.priority["passed"].append(player)
                self.priority["player"] = players[(players.index(player) + 1) % len(players)]  # CR 117.3d
            return pass_on
        entry = self.stack[-1]
        plan = self._resolution(entry)  # worked out before anything changes; None: it doesn't resolve

        def resolve():
            self.stack.pop()
            if plan is None:  # CR 608.2b
                self.log.append({"kind": "removed_from_stack", "object": entry["id"], "reason": "all targets illegal"})
                if entry["kind"] == "spell":
                    self._spell_to_graveyard(entry, "608.2b")
            else:
                self.log.append({"kind": "resolved", "object": entry["id"]})
                plan()
                if entry["kind"] == "spell":
                    self._spell_to_graveyard(entry, "608.2n")  # the last step of its resolution
            self.priority.update(player=self.priority["active_player"], passed=[])  # CR 117.3b
        return resolve

    def _resolution(self, entry: dict):
        """What resolving ``entry`` does, or None when all its targets are illegal (CR 608.2b)."""
        if entry["kind"] == "ability":  # Lone Missionary's: no target, independent of its source (113.7a)
            trigger = entry["_trigger"]

            def gain():
                if not self.players[trigger["controller"]]["lost"]:
                    self._gain_life(trigger["controller"], trigger["life"])
            return gain
        event, targets = entry["_event"], entry["targets"]
        legal = [t for t in targets if self._same_object(t, entry["_stamps"].get(t)) and self._legal_target(event, t)]
        if targets and not legal:
            return None
        try:
            return self._cast({**event, "targets": legal})  # the illegal targets it doesn't affect (608.2b)
        except IllegalAction as exc:  # e.g. a token id used meanwhile: not a question of targets
            raise Unsupported("stack:resolution", f"{entry['id']} ({entry['card']}) can't resolve as cast: "
                                                  f"{exc}") from None

    def _legal_target(self, event: dict, target) -> bool:
        """Whether ``target`` still meets the spell's targeting restrictions (CR 608.2b, 115.1)."""
        try:
            self._cast({**event, "targets": [target]})
        except IllegalAction as exc:
            if exc.reason in TARGET_REASONS:
                return False
            raise
        return True

    def _spell_to_graveyard(self, entry: dict, rule: str) -> None:
        """CR 608.2n, 608.2b: the spell's card goes to its owner's (its caster's) graveyard."""
        self.timestamp += 1
        name, owner = entry["card"], entry["controller"]
        self.objects[entry["id"]] = {
            "id": entry["id"], "name": name, "proto": CARDS[name], "zone": "graveyard", "owner": owner,
            "controller": owner, "token": False, "damage": 0, "counters": {}, "attached_to": None, "combat": None,
            "deathtouched": False, "timestamp": self.timestamp, "seq": self.timestamp, "tapped": False,
            "summoning_sick": False,
        }
        self.log.append({"kind": "zone_change", "object": entry["id"], "from": "stack", "to": "graveyard",
                         "cause": {"event": "resolution", "rule": rule}})

    # ------------------------------------------------------------------ rules
    def _enter(self, oid: str, name: str, controller: str, host: str | None) -> None:
        """CR 110.1, 302.6: a card from outside the game enters under ``controller`` (its owner)."""
        self.timestamp += 1
        self.used_ids.add(oid)
        card = CARDS[name]
        self.objects[oid] = {
            "id": oid, "name": name, "proto": card, "zone": "battlefield", "owner": controller, "controller": controller,
            "token": False, "damage": 0, "counters": {}, "attached_to": host, "combat": None, "deathtouched": False,
            "timestamp": self.timestamp, "seq": self.timestamp, "tapped": False,
            "summoning_sick": "Creature" in card["types"],
        }
        self.log.append({"kind": "zone_change", "object": oid, "from": None, "to": "battlefield",
                         "cause": {"event": "put_onto_battlefield"}})
        if card["ability"] and card["ability"][0] == "etb_gain_life":  # CR 603.2, 603.6a
            self.log.append({"kind": "trigger", "source": oid, "ability": "enters", "controller": controller})
            self.triggers.append({"source": oid, "controller": controller, "ability": "enters",
                                  "life": card["ability"][1]})

    def _create_tokens(self, spell: str, controller: str, ids: list[str], token: str) -> None:
        """CR 111.2-111.4: tokens created under ``controller``, who owns them, summoning sick."""
        for tid in ids:
            self.timestamp += 1
            self.used_ids.add(tid)
            self.objects[tid] = {
                "id": tid, "name": token, "proto": TOKENS[token], "zone": "battlefield", "owner": controller,
                "controller": controller, "token": True, "damage": 0, "counters": {}, "attached_to": None,
                "combat": None, "deathtouched": False, "timestamp": self.timestamp, "seq": self.timestamp,
                "tapped": False, "summoning_sick": True,
            }
            self.log.append({"kind": "zone_change", "object": tid, "from": None, "to": "battlefield",
                             "cause": {"event": "create_token", "by": spell}})

    def _attach(self, aid: str, host: str) -> None:
        obj = self.objects[aid]
        if obj["attached_to"] == host:
            return  # CR 701.3b: attaching to what it's attached to does nothing
        obj["attached_to"] = host
        self.timestamp += 1
        obj["timestamp"] = self.timestamp  # CR 613.7e
        self.log.append({"kind": "attached", "object": aid, "to": host})

    def _gain_life(self, player: str, amount: int) -> None:
        self.players[player]["life"] += amount
        self.log.append({"kind": "life_gained", "player": player, "amount": amount})

    def _deal_damage(self, source_name: str, source: dict | None, controller: str, target: str, amount: int) -> None:
        """CR 120.3: ``source`` is the dealing permanent (None for a spell), ``controller`` its controller."""
        self._deal_damage_all(source_name, source, controller, [target], amount)

    def _deal_damage_all(self, source_name, source, controller, targets, amount) -> None:
        """One source deals ``amount`` damage to each of ``targets`` at once (CR 120.2)."""
        keywords = self.keywords(source) if source is not None else []
        deathtouch, lifelink = "deathtouch" in keywords, "lifelink" in keywords
        for target in targets:
            self.log.append({"kind": "damage", "source": source_name, "target": target, "amount": amount,
                             "deathtouch": deathtouch})
            if target in self.players:
                self.players[target]["life"] -= amount  # CR 120.3a
            else:
                obj = self.objects[target]
                obj["damage"] += amount  # CR 120.3e
                obj["deathtouched"] |= deathtouch
        if lifelink and targets:  # CR 702.15b: the damage also causes its controller to gain that much life
            self._gain_life(controller, amount * len(targets))

    def _pyroclasm_victims(self, controller: str) -> list[str]:
        """"Each creature": every creature on the battlefield, whoever controls it."""
        return [oid for oid, o in self.objects.items() if o["zone"] == "battlefield" and self.is_creature(o)]

    def _pyroclasm(self, name: str, controller: str, amount: int) -> None:
        self._deal_damage_all(name, None, controller, self._pyroclasm_victims(controller), amount)

    def _put_counters(self, oid: str, kind: str, amount: int) -> None:
        obj = self.objects[oid]
        obj["counters"][kind] = obj["counters"].get(kind, 0) + amount
        self.log.append({"kind": "counters_added", "object": oid, "counter": kind, "amount": amount})

    def _is_indestructible(self, obj) -> bool:
        return "indestructible" in self.keywords(obj)

    def _destroy(self, ids: list[str], cause: dict) -> None:
        """CR 701.7a, 702.12b: destroy every permanent of ``ids`` that isn't indestructible, at once."""
        doomed = [oid for oid in ids if self.objects[oid]["zone"] == "battlefield"
                  and not self._is_indestructible(self.objects[oid])]
        self._move(doomed, cause)

    def _leave_battlefield(self, obj) -> None:
        """CR 400.7: the object in the graveyard is a new object with none of its permanent's state."""
        obj.update(zone="graveyard", controller=obj["owner"], tapped=False, summoning_sick=False, damage=0,
                   counters={}, attached_to=None, combat=None, deathtouched=False)
        self.effects = [e for e in self.effects if e["object"] != obj["id"]]

    def _move(self, ids: list[str], cause: dict) -> None:
        """Put permanents into their owners' graveyards at once (CR 400.3)."""
        for oid in ids:
            obj = self.objects[oid]
            if obj["zone"] != "battlefield":
                continue
            self.log.append({"kind": "zone_change", "object": oid, "from": "battlefield", "to": "graveyard",
                             "cause": cause})
            self.timestamp += 1
            obj["seq"] = self.timestamp
            self._leave_battlefield(obj)

    # ------------------------------------------------------------------ state-based actions
    def _legend_rule(self, decider) -> list[str]:
        """CR 704.5j: each player with two or more legends of one name keeps one (their choice)."""
        groups: dict[tuple, list[str]] = {}
        for oid, o in self.objects.items():
            if o["zone"] == "battlefield" and "Legendary" in o["proto"]["supertypes"]:
                groups.setdefault((o["controller"], o["name"]), []).append(oid)
        out = []
        for (controller, _), ids in groups.items():
            if len(ids) > 1:
                keep = decider.choose(controller, "legend_rule", list(ids))
                if keep not in ids:
                    raise ValueError(f"legend_rule: the decider answered {keep!r}, not one of {ids}")
                out += [oid for oid in ids if oid != keep]
        return out

    def _aura_illegal(self, aura: dict) -> bool:
        """CR 704.5m, 303.4d: an Aura attached to nothing, or to anything but a creature on the battlefield."""
        host = self.objects.get(aura["attached_to"]) if aura["attached_to"] is not None else None
        return host is None or host is aura or host["zone"] != "battlefield" or not self.is_creature(host)

    def _equipment_illegal(self, equipment: dict) -> bool:
        """CR 704.5n, 301.5c: an Equipment attached to anything but a creature on the battlefield."""
        host = self.objects.get(equipment["attached_to"]) if equipment["attached_to"] is not None else None
        return equipment["attached_to"] is not None and (
            host is None or host["zone"] != "battlefield" or not self.is_creature(host))

    def _state_based_actions(self, decider) -> None:
        """CR 704.3: perform every applicable state-based action at once, until none applies."""
        while True:
            lost = [pid for pid, p in self.players.items() if p["life"] <= 0 and not p["lost"]]
            vanish = [oid for oid, o in self.objects.items() if o["token"] and o["zone"] != "battlefield"]
            zero, lethal, deathtouched, auras, unattach, annihilate = [], [], [], [], [], []
            for oid, o in self.objects.items():
                if o["zone"] != "battlefield":
                    continue
                if self.is_creature(o):
                    toughness = self.power_toughness(o)[1]
                    if toughness <= 0:
                        zero.append(oid)
                    elif not self._is_indestructible(o):
                        if o["damage"] >= toughness:
                            lethal.append(oid)
                        elif o["deathtouched"] and o["damage"] > 0:
                            deathtouched.append(oid)
                kind = self.ability(o)[0] if self.ability(o) else None
                if kind == "aura" and self._aura_illegal(o):
                    auras.append(oid)
                if kind == "equipment" and self._equipment_illegal(o):
                    unattach.append(oid)
                if o["counters"].get("+1/+1") and o["counters"].get("-1/-1"):
                    annihilate.append(oid)
            legends = self._legend_rule(decider)
            for o in self.objects.values():  # deathtouch damage counts since the last check (704.5h)
                o["deathtouched"] = False
            if not (lost or vanish or zero or lethal or deathtouched or legends or auras or unattach or annihilate):
                return
            for pid in lost:
                self.players[pid]["lost"] = True
                self.log.append({"kind": "player_lost", "player": pid, "rule": "704.5a"})
            for oid in vanish:  # CR 704.5d, 111.7
                self.log.append({"kind": "zone_change", "object": oid, "from": self.objects[oid]["zone"], "to": None,
                                 "cause": {"event": "state_based_action", "rule": "704.5d"}})
                del self.objects[oid]
            for oid in annihilate:  # CR 704.5q
                counters = self.objects[oid]["counters"]
                n = min(counters["+1/+1"], counters["-1/-1"])
                for kind in ("+1/+1", "-1/-1"):
                    counters[kind] -= n
                    if not counters[kind]:
                        del counters[kind]
                self.log.append({"kind": "counters_removed", "object": oid, "rule": "704.5q", "amount": n})
            for oid in unattach:  # CR 704.5n
                self.objects[oid]["attached_to"] = None
                self.log.append({"kind": "unattached", "object": oid, "rule": "704.5n"})
            moved = set()
            for ids, cause in ((zero, {"event": "state_based_action", "rule": "704.5f"}),
                               (lethal, {"event": "destroy", "by": "704.5g"}),
                               (deathtouched, {"event": "destroy", "by": "704.5h"}),
                               (legends, {"event": "state_based_action", "rule": "704.5j"}),
                               (auras, {"event": "state_based_action", "rule": "704.5m"})):
                ids = [oid for oid in ids if oid not in moved]
                moved.update(ids)
                self._move(ids, cause)

    def _resolve_triggers(self, decider) -> None:
        """CR 603.3: the abilities that triggered during the event resolve one by one, SBAs after each."""
        while self.triggers:
            trigger = self.triggers.pop(0)
            if not self.players[trigger["controller"]]["lost"]:
                self._gain_life(trigger["controller"], trigger["life"])
            self._state_based_actions(decider)

    # ------------------------------------------------------------------ observation
    def observe(self) -> dict:
        """The game as plain JSON data (``harness.protocol.Observation``), with the last event's log."""
        objects = {}
        zones: dict = {"battlefield": []}
        for zone in ZONES[1:]:
            zones[zone] = {pid: [] for pid in self.players}
        for oid, obj in sorted(self.objects.items(), key=lambda item: item[1]["seq"]):
            proto = obj["proto"]
            power, toughness = self.power_toughness(obj)
            objects[oid] = {
                "name": obj["name"], "zone": obj["zone"], "owner": obj["owner"], "controller": obj["controller"],
                "token": obj["token"], "tapped": obj["tapped"], "summoning_sick": obj["summoning_sick"],
                "damage": obj["damage"], "counters": dict(obj["counters"]), "attached_to": obj["attached_to"],
                "combat": obj["combat"], "regeneration_shields": 0, "supertypes": list(proto["supertypes"]),
                "types": list(proto["types"]), "subtypes": list(proto["subtypes"]),
                "colors": list(proto["colors"]), "keywords": sorted(self.keywords(obj)),
                "power": power, "toughness": toughness, "mana_value": _cards.mana_value(proto["mana_cost"]),
            }
            if obj["zone"] == "battlefield":
                zones["battlefield"].append(oid)
            else:
                zones[obj["zone"]][obj["owner"]].append(oid)
        out = {"players": {pid: dict(p) for pid, p in self.players.items()}, "objects": objects,
               "zones": zones, "log": copy.deepcopy(self.log)}
        c = self._current_combat()
        if c is not None:
            out["combat"] = {"attacking_player": c["attacking_player"], "defending_player": c["defending_player"],
                             "step": c["step"], "first_strikers": list(c["first_strikers"])}
            for oid in self._attackers_now():
                objects[oid]["blocked"] = self._is_blocked(oid)
                objects[oid]["blocked_by"] = self._blockers_of(oid)
            for oid in self._blockers_now():
                objects[oid]["blocking"] = self._blocked_attacker(oid)
        if self.stack_game:
            out["stack"] = [{k: v for k, v in e.items() if not k.startswith("_")} for e in self.stack]
            out["priority"] = copy.deepcopy(self.priority)
        return out


class PoolEngine:
    """The pool engine: ``game_class`` builds its games (buggy.py swaps in a subclass)."""

    game_class = PoolGame
    name = "pool"
    capabilities = CAPABILITIES

    def __init__(self):
        self.info = EngineInfo(name=self.name, version="1.0", capabilities=frozenset(self.capabilities),
                               cards=frozenset(CARDS))

    def new_game(self, board: dict) -> PoolGame:
        return self.game_class(board)


engine = PoolEngine()
