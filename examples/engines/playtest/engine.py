"""playtest: a small engine written from scratch for Orb of Origin's playtest supertypes.

Like ``examples/engines/tiny``, it imports nothing from ``reference_engine``: only the
protocol (``harness.protocol``) and the Oracle characteristics of its cards (``cards``).

Cards (``EngineInfo.cards``): Orb of Origin (a poly noncreature artifact known from its
rulings: its first ability has no {T} in its cost, no other cost or effect is ruled; its
last ability makes the other noncreature artifacts mono and continuous), Thought Vessel
("You have no maximum hand size. {T}: Add {C}."), Sword of the Meek ("Equipped creature
gets +1/+2. Equip {2}"; its graveyard trigger is declined), Grizzly Bears, Darksteel Myr
(an indestructible artifact creature, which the Orb leaves alone) and Forest.

Rules implemented (Orb of Origin rulings 2024-11-08, and the CR):

* mono: an ability whose cost has no {T} costs an additional {T} (CR 118.8), never a
  second; continuous: a tapped permanent has no abilities (no keywords, nothing to
  activate, no static ability); poly: the Orb's first ability costs {T} only while another
  Orb is on the battlefield, which makes it mono. Orbs grant both supertypes to the other
  noncreature artifacts on the battlefield while they are there.
* 107.5 ({T}: a tapped permanent can't pay it), 106.4 (mana pools, paid from, emptied by
  ``pass_step`` and ``begin_turn``), 605.3b (mana abilities resolve at once), 502.3 and
  302.6 (``begin_turn``: the player's permanents untap and stop being summoning sick).
* 702.6a (equip: target creature you control), 701.3b (attaching to the same creature does
  nothing), 704.5n (an Equipment not attached to a creature becomes unattached), 613.4c
  (the Sword's +1/+2, while it has its abilities), 402.2 (maximum hand size seven, none
  while a Thought Vessel with its abilities is controlled).
* 701.7a and 702.12b (``destroy``: to the owner's graveyard, indestructible stays), 400.7.

Board fields read: players ``id``, ``life``; objects ``id``, ``card``, ``owner``,
``controller``, ``zone``, ``tapped``, ``summoning_sick``, ``attached_to`` (an Equipment on a
creature). Tokens, counters, damage, combat and shields are declined (``Unsupported``).

Observation fields: players ``life``, ``lost``, ``mana_pool``, ``max_hand_size``; objects
``name``, ``zone``, ``owner``, ``controller``, ``token``, ``tapped``, ``summoning_sick``,
``damage``, ``counters``, ``attached_to``, ``combat``, ``regeneration_shields``,
``supertypes``, ``types``, ``subtypes``, ``colors``, ``keywords``, ``power``, ``toughness``,
``mana_value``; ``zones``; log entries ``activated``, ``tapped``, ``untapped``,
``mana_produced``, ``mana_spent``, ``mana_lost``, ``ability_resolved``, ``attached``,
``unattached``, ``zone_change``.

``engine`` is correct; ``buggy`` has two planted bugs (:data:`BUGS`).
"""

from __future__ import annotations

import cards
from harness.protocol import EngineInfo, IllegalAction, Unsupported

ORB, VESSEL, SWORD = "Orb of Origin", "Thought Vessel", "Sword of the Meek"
CARDS = (ORB, VESSEL, SWORD, "Grizzly Bears", "Darksteel Myr", "Forest")
CAPABILITIES = frozenset({"destroy", "indestructible", "mana", "tap_untap_costs", "playtest_supertypes"})
MANA_TYPES = ("W", "U", "B", "R", "G", "C")
ZONES = ("battlefield", "library", "hand", "graveyard", "exile")
#: Each card's activated abilities: (mana cost symbols, {T} in the printed cost, what it does).
ABILITIES = {
    "Forest": [((), True, ("add", "G"))],
    VESSEL: [((), True, ("add", "C"))],
    SWORD: [(("2",), False, ("equip", None))],
    ORB: [((), False, ("nothing", None))],  # its first ability: no {T} (poly ruling); nothing else ruled
}
BUGS = {
    "vessel_keeps_hand_size": "402.2: a tapped continuous Thought Vessel still gives no maximum hand size",
    "orb_grants_to_creatures": "Orb of Origin makes artifact creatures mono and continuous too",
}


class PlaytestGame:
    """One game: players, objects by id in timestamp order, mana pools, the last event's log."""

    def __init__(self, board: dict, bugs: frozenset[str]):
        self.bugs = bugs
        self.players: dict[str, dict] = {}
        self.objects: dict[str, dict] = {}
        self.log: list[dict] = []
        for i, spec in enumerate(board.get("players") or []):
            if not isinstance(spec, dict) or not isinstance(spec.get("id"), str):
                raise ValueError(f"board.players[{i}]: expected an object with a string 'id'")
            self.players[spec["id"]] = {"life": spec.get("life", 20), "lost": False, "pool": dict.fromkeys(MANA_TYPES, 0)}
        if not self.players:
            raise ValueError("board.players: expected a non-empty list")
        for i, spec in enumerate(board.get("objects") or []):
            for key in ("token", "counters", "damage", "combat", "regeneration_shields"):
                if spec.get(key):
                    raise Unsupported(f"board:{key}", f"board.objects[{i}].{key} is not modelled")
            if spec.get("card") not in CARDS:
                raise Unsupported(f"card:{spec.get('card')}", "not one of this engine's cards")
            if spec.get("owner") not in self.players:
                raise ValueError(f"board.objects[{i}].owner: not a player")
            zone = spec.get("zone", "battlefield")
            if zone not in ZONES:
                raise ValueError(f"board.objects[{i}].zone: {zone!r}")
            self.objects[spec["id"]] = {
                "card": cards.card(spec["card"]), "owner": spec["owner"],
                "controller": spec.get("controller", spec["owner"]), "zone": zone,
                "tapped": bool(spec.get("tapped")), "sick": bool(spec.get("summoning_sick")),
                "attached_to": spec.get("attached_to"),
            }
        for oid, o in self.objects.items():
            if o["attached_to"] is not None:
                host = self.objects.get(o["attached_to"])
                if "Equipment" not in o["card"].subtypes or host is None or not host["card"].is_type("Creature"):
                    raise Unsupported("board:attached_to", f"{oid}: only an Equipment on a creature is modelled")

    # ------------------------------------------------------------- the playtest rules
    def battlefield(self) -> list[str]:
        return [oid for oid, o in self.objects.items() if o["zone"] == "battlefield"]

    def granted(self, oid: str) -> tuple[str, ...]:
        """Mono and continuous for a noncreature artifact while another Orb is on the battlefield."""
        o = self.objects[oid]
        card = o["card"]
        creature_ok = "orb_grants_to_creatures" in self.bugs
        if o["zone"] != "battlefield" or "Artifact" not in card.types or (card.is_type("Creature") and not creature_ok):
            return ()
        orbs = [i for i in self.battlefield() if self.objects[i]["card"].name == ORB and i != oid]
        return ("Mono", "Continuous") if orbs else ()

    def has_abilities(self, oid: str) -> bool:
        return not (self.objects[oid]["tapped"] and "Continuous" in self.granted(oid))

    def abilities(self, oid: str) -> list:
        return ABILITIES.get(self.objects[oid]["card"].name, []) if self.has_abilities(oid) else []

    def max_hand_size(self, player: str) -> int | None:
        for oid in self.battlefield():
            o = self.objects[oid]
            if o["controller"] == player and o["card"].name == VESSEL and (
                    self.has_abilities(oid) or "vessel_keeps_hand_size" in self.bugs):
                return None
        return 7

    # ------------------------------------------------------------- events
    def apply(self, event: dict, decider) -> None:
        kind = event.get("type") if isinstance(event, dict) else None
        handler = {"activate": self.activate, "begin_turn": self.begin_turn, "pass_step": self.pass_step,
                   "put_onto_battlefield": self.put, "destroy": self.destroy}.get(kind)
        if handler is None:
            raise Unsupported(f"event:{kind}", "not an event this engine plays")
        if any(o["zone"] == "graveyard" and o["card"].name == SWORD for o in self.objects.values()):
            raise Unsupported("ability:graveyard trigger", "Sword of the Meek's return from a graveyard")
        perform = handler(event)  # validates first: an illegal event changes nothing
        self.log = []
        perform(decider)
        self.unattach()

    def activate(self, event):
        oid, index = event.get("object"), event.get("ability")
        o = self.objects.get(oid) if isinstance(oid, str) else None
        if o is None or o["zone"] != "battlefield":
            raise IllegalAction("not_on_battlefield", f"{oid!r} is not a permanent")
        abilities = self.abilities(oid)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(abilities):
            raise IllegalAction("no_such_ability", f"{oid!r} has {len(abilities)} activated abilities")
        mana, tap, (effect, arg) = abilities[index]
        tap = tap or "Mono" in self.granted(oid)  # mono: an additional {T}, never a second
        player = o["controller"]
        if tap and o["tapped"]:
            raise IllegalAction("already_tapped", f"{oid!r} is tapped (CR 107.5)")
        pool = self.players[player]["pool"]
        if sum(int(s) for s in mana) > sum(pool.values()):
            raise IllegalAction("insufficient_mana", f"{player}'s pool can't pay {mana}")
        targets = [i for i in self.battlefield() if self.objects[i]["controller"] == player
                   and self.objects[i]["card"].is_type("Creature")] if effect == "equip" else None
        if targets == []:
            raise IllegalAction("no_legal_target", "equip needs a creature you control")

        def perform(decider):
            self.log.append({"kind": "activated", "object": oid, "ability": index, "player": player,
                             "cost": {"mana": "".join(f"{{{s}}}" for s in mana), "tap": tap, "untap": False,
                                      "other": []}, "mana_ability": effect == "add"})
            target = self.choose(decider, player, "target", targets) if targets else None
            if mana:
                spent: dict[str, int] = {}
                for _ in range(sum(int(s) for s in mana)):
                    t = self.choose(decider, player, "mana_payment", [t for t in MANA_TYPES if pool[t]])
                    pool[t] -= 1
                    spent[t] = spent.get(t, 0) + 1
                self.log.append({"kind": "mana_spent", "player": player, "mana": spent})
            if tap:
                o["tapped"] = True
                self.log.append({"kind": "tapped", "object": oid, "cause": "cost"})
            if effect == "add":
                pool[arg] += 1
                self.log.append({"kind": "mana_produced", "player": player, "source": oid, "ability": index,
                                 "tapped_for_mana": tap, "produced": {arg: 1}, "mana": {arg: 1}, "replacements": []})
                return
            self.log.append({"kind": "ability_resolved", "object": oid, "ability": index,
                             "targets": [target] if target else []})
            if effect == "equip" and o["attached_to"] != target:
                o["attached_to"] = target
                self.log.append({"kind": "attached", "object": oid, "to": target})

        return perform

    @staticmethod
    def choose(decider, player, kind, options):
        if len(options) == 1:
            return options[0]
        answer = decider.choose(player, kind, list(options))
        if answer not in options:
            raise ValueError(f"decider answered {answer!r}, not one of {options}")
        return answer

    def empty_pools(self) -> None:
        for pid, p in self.players.items():
            left = {t: n for t, n in p["pool"].items() if n}
            if left:
                self.log.append({"kind": "mana_lost", "player": pid, "mana": left})
                p["pool"] = dict.fromkeys(MANA_TYPES, 0)

    def pass_step(self, event):
        return lambda decider: self.empty_pools()

    def begin_turn(self, event):
        player = event.get("player")
        if player not in self.players:
            raise IllegalAction("bad_event", f"player={player!r}")

        def perform(decider):
            self.empty_pools()
            for oid in self.battlefield():
                o = self.objects[oid]
                if o["controller"] == player:
                    o["sick"] = False
                    if o["tapped"]:
                        o["tapped"] = False
                        self.log.append({"kind": "untapped", "object": oid, "cause": "untap step"})

        return perform

    def put(self, event):
        oid, name, controller = event.get("id"), event.get("card"), event.get("controller")
        if not isinstance(oid, str) or not oid or oid in self.objects:
            raise IllegalAction("bad_event", f"id={oid!r}: expected a new id")
        if name not in CARDS:
            raise Unsupported(f"card:{name}", "not one of this engine's cards")
        if controller not in self.players:
            raise IllegalAction("bad_event", f"controller={controller!r}")
        if event.get("attach_to") is not None or event.get("copy_of") is not None or "x" in event:
            raise IllegalAction("bad_event", f"{name} enters unattached, as itself")

        def perform(decider):
            card = cards.card(name)
            self.objects[oid] = {"card": card, "owner": controller, "controller": controller, "zone": "battlefield",
                                 "tapped": False, "sick": card.is_type("Creature"), "attached_to": None}
            self.log.append({"kind": "zone_change", "object": oid, "from": None, "to": "battlefield",
                             "cause": {"event": "put_onto_battlefield"}})

        return perform

    def destroy(self, event):
        targets = event.get("targets")
        if not isinstance(targets, list) or not targets or any(
                t not in self.objects or self.objects[t]["zone"] != "battlefield" for t in targets):
            raise IllegalAction("illegal_target", f"targets={targets!r}")

        def perform(decider):
            for oid in dict.fromkeys(targets):
                o = self.objects[oid]
                if "indestructible" in self.keywords(oid):
                    continue
                o.update(zone="graveyard", controller=o["owner"], tapped=False, sick=False, attached_to=None)
                self.log.append({"kind": "zone_change", "object": oid, "from": "battlefield", "to": "graveyard",
                                 "cause": {"event": "destroy", "by": "destroy effect"}})

        return perform

    def unattach(self) -> None:
        """CR 704.5n."""
        for oid in self.battlefield():
            o = self.objects[oid]
            host = self.objects.get(o["attached_to"] or "")
            if o["attached_to"] and (host is None or host["zone"] != "battlefield"):
                o["attached_to"] = None
                self.log.append({"kind": "unattached", "object": oid, "rule": "704.5n"})

    # ------------------------------------------------------------- observation
    def keywords(self, oid: str) -> list[str]:
        return sorted(self.objects[oid]["card"].keywords) if self.has_abilities(oid) else []

    def observe(self) -> dict:
        objects, zones = {}, {"battlefield": [], **{z: {p: [] for p in self.players} for z in ZONES[1:]}}
        for oid, o in self.objects.items():
            card, on = o["card"], o["zone"] == "battlefield"
            power, toughness = card.power, card.toughness
            if on and power is not None:
                for sid in self.battlefield():
                    if self.objects[sid]["attached_to"] == oid and self.has_abilities(sid):
                        power, toughness = power + 1, toughness + 2  # Sword of the Meek, layer 7c
            objects[oid] = {
                "name": card.name, "zone": o["zone"], "owner": o["owner"], "controller": o["controller"],
                "token": False, "tapped": o["tapped"], "summoning_sick": o["sick"], "damage": 0, "counters": {},
                "attached_to": o["attached_to"], "combat": None, "regeneration_shields": 0,
                "supertypes": list(card.supertypes) + [s for s in self.granted(oid) if s not in card.supertypes],
                "types": list(card.types), "subtypes": list(card.subtypes), "colors": list(card.colors),
                "keywords": self.keywords(oid) if on else sorted(card.keywords), "power": power,
                "toughness": toughness, "mana_value": card.mana_value,
            }
            if on:
                zones["battlefield"].append(oid)
            else:
                zones[o["zone"]][o["owner"]].append(oid)
        players = {pid: {"life": p["life"], "lost": p["lost"], "mana_pool": dict(p["pool"]),
                         "max_hand_size": self.max_hand_size(pid)} for pid, p in self.players.items()}
        return {"players": players, "objects": objects, "zones": zones, "log": list(self.log)}


class PlaytestEngine:
    """The engine: ``info`` and ``new_game(board)``; ``bugs`` names planted bugs of :data:`BUGS`."""

    def __init__(self, bugs=()):
        self.bugs = frozenset(bugs)
        self.info = EngineInfo(name="playtest" + ("-buggy" if self.bugs else ""), version="1.0",
                               capabilities=CAPABILITIES, cards=frozenset(CARDS))

    def new_game(self, board: dict) -> PlaytestGame:
        return PlaytestGame(board, self.bugs)


engine = PlaytestEngine()
buggy = PlaytestEngine(bugs=BUGS)
