"""Small engines written from scratch (nothing of ``reference_engine``) that hand out parts of their
own state in their observations, as a team's engine might, for ``tests/test_speedups_from_outside.py``.

``CounterEngine`` plays Grizzly Bears (2/2, the Oracle card) and Forest (a basic land: no power or
toughness) with power/toughness counters only:
``add_counters`` (CR 122.1a: each +1/+1 counter gives +1/+1, each -1/-1 counter -1/-1), then the
state-based actions 704.5f (a creature with toughness 0 or less is put into its owner's graveyard)
and 704.5q (N +1/+1 and N -1/-1 counters are removed, N the smaller count). Its game keeps each
permanent's counters in a dict made as the first counter is put on it, and its observation puts
``obj.get("counters", {})`` in the entry: a fresh empty dict while there is none, the game's own
dict after (changed in place by the next ``add_counters``). Every other dict and list of an
observation is new. ``bugs`` plants rules bugs: ``"no_annihilation"`` (704.5q not performed),
``"no_zero_toughness"`` (704.5f not performed). ``EntryKeepingGame`` and ``EntryViewGame`` hand out
the same entry dicts from one observation to the next: unchanged, or changed in place.
"""

from __future__ import annotations

import cards
from harness.protocol import EngineInfo, IllegalAction, Unsupported

ZONES = ("battlefield", "library", "hand", "graveyard", "exile")
CARDS = ("Grizzly Bears", "Forest")
KINDS = ("+1/+1", "-1/-1")


class CounterGame:
    #: Whether observe hands out the game's own counters dict (False: a copy, the honest engine).
    shares = True

    def __init__(self, board: dict, bugs: frozenset[str]):
        self.bugs = bugs
        self.players = {p["id"]: {"life": p.get("life", 20), "lost": False} for p in board["players"]}
        self.objects: dict[str, dict] = {}
        self.log: list[dict] = []
        for spec in board.get("objects", []):
            for feature in ("token", "attached_to", "combat", "regeneration_shields", "damage"):
                if spec.get(feature):
                    raise Unsupported(f"board:{feature}", f"{feature} on the board is not modelled")
            if spec.get("card") not in CARDS:
                raise Unsupported(f"card:{spec.get('card')}", f"plays only {', '.join(CARDS)}")
            zone = spec.get("zone", "battlefield")
            if zone not in ZONES:
                raise ValueError(f"{spec['id']}: zone {zone!r}")
            owner = spec["owner"]
            self.objects[spec["id"]] = {"card": spec["card"], "zone": zone, "owner": owner, "controller": spec.get("controller", owner),
                                        "tapped": bool(spec.get("tapped")),
                                        "summoning_sick": bool(spec.get("summoning_sick"))}
            if spec.get("counters"):  # the board's counters: the game's dict from the start
                if set(spec["counters"]) - set(KINDS):
                    raise Unsupported("board:counters", "models +1/+1 and -1/-1 counters only")
                self.objects[spec["id"]]["counters"] = dict(spec["counters"])
        self.log = []
        self._state_based_actions()

    def apply(self, event: dict, decider) -> None:
        kind = event.get("type")
        if kind == "put_onto_battlefield":
            return self._put_onto_battlefield(event)
        if kind != "add_counters":
            raise Unsupported(f"event:{kind}", "performs only add_counters and put_onto_battlefield")
        obj = self.objects.get(event.get("object"))
        counter, amount = event.get("kind"), event.get("amount")
        if obj is None or obj["zone"] != "battlefield":
            raise IllegalAction("not_on_battlefield", f"{event.get('object')!r} is not a permanent")
        if counter not in KINDS:
            raise Unsupported(f"event:add_counters:{counter}", "models +1/+1 and -1/-1 counters only")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            raise IllegalAction("bad_event", f"amount {amount!r}")
        self.log = [{"kind": "counters_added", "object": event["object"], "counter": counter, "amount": amount}]
        counters = obj.setdefault("counters", {})  # made with the first counter, changed in place after
        counters[counter] = counters.get(counter, 0) + amount
        self._state_based_actions()

    def _put_onto_battlefield(self, event: dict) -> None:
        """CR 110.1, 302.6: a Grizzly Bears card from outside the game enters under its controller, summoning sick."""
        oid, controller = event.get("id"), event.get("controller")
        if event.get("copy_of") is not None or "x" in event or event.get("attach_to") is not None:
            raise Unsupported("event:put_onto_battlefield:copy", "no copies, X or Auras")
        if event.get("card") not in CARDS:
            raise Unsupported(f"card:{event.get('card')}", f"plays only {', '.join(CARDS)}")
        if not isinstance(oid, str) or not oid or oid in self.objects or oid in self.players \
                or controller not in self.players:
            raise IllegalAction("bad_event", f"id {oid!r}, controller {controller!r}")
        self.objects[oid] = {"card": event["card"], "zone": "battlefield", "owner": controller, "controller": controller, "tapped": False,
                             "summoning_sick": True}
        self.log = [{"kind": "zone_change", "object": oid, "from": None, "to": "battlefield"}]

    @staticmethod
    def _pt(obj: dict) -> tuple[int | None, int | None]:
        """Power and toughness (CR 122.1a: each +1/+1 counter +1/+1, each -1/-1 counter -1/-1 on the
        battlefield); None for a card without them (a land)."""
        card = cards.card(obj["card"])
        if card.toughness is None:
            return None, None
        counters = obj.get("counters", {}) if obj["zone"] == "battlefield" else {}
        bonus = counters.get("+1/+1", 0) - counters.get("-1/-1", 0)
        return card.power + bonus, card.toughness + bonus

    def _dies(self, obj: dict) -> bool:
        """CR 704.5f: a creature with toughness 0 or less."""
        toughness = self._pt(obj)[1]
        return toughness is not None and toughness <= 0

    def _state_based_actions(self) -> None:
        """CR 704.3: 704.5f and 704.5q, performed at once, until none applies."""
        while True:
            dying = [oid for oid, o in self.objects.items() if o["zone"] == "battlefield" and self._dies(o)
                     and "no_zero_toughness" not in self.bugs]
            pairs = {oid: min(o["counters"].get("+1/+1", 0), o["counters"].get("-1/-1", 0))
                     for oid, o in self.objects.items() if o["zone"] == "battlefield" and "counters" in o
                     and oid not in dying and "no_annihilation" not in self.bugs}
            pairs = {oid: n for oid, n in pairs.items() if n}
            if not dying and not pairs:
                return
            for oid in dying:  # a new object in the graveyard (CR 400.7): no counters
                o = self.objects[oid]
                o.update(zone="graveyard", controller=o["owner"], tapped=False, summoning_sick=False)
                o.pop("counters", None)
                self.log.append({"kind": "zone_change", "object": oid, "from": "battlefield", "to": "graveyard"})
            for oid, n in pairs.items():
                counters = self.objects[oid]["counters"]
                for k in ("+1/+1", "-1/-1"):
                    counters[k] -= n
                    if not counters[k]:
                        del counters[k]
                self.log.append({"kind": "counters_removed", "object": oid, "rule": "704.5q", "amount": n})

    def observe(self) -> dict:
        objects, zones = {}, {"battlefield": []}
        for zone in ZONES[1:]:
            zones[zone] = {pid: [] for pid in self.players}
        for oid, o in self.objects.items():
            card = cards.card(o["card"])
            counters = o.get("counters", {})
            power, toughness = self._pt(o)
            objects[oid] = {
                "name": card.name, "zone": o["zone"], "owner": o["owner"], "controller": o["controller"], "token": False,
                "tapped": o["tapped"], "summoning_sick": o["summoning_sick"], "damage": 0,
                "counters": counters if self.shares else dict(counters), "attached_to": None, "combat": None,
                "regeneration_shields": 0, "supertypes": list(card.supertypes), "types": list(card.types),
                "subtypes": list(card.subtypes), "colors": list(card.colors), "keywords": [], "power": power,
                "toughness": toughness, "mana_value": card.mana_value,
            }
            if o["zone"] == "battlefield":
                zones["battlefield"].append(oid)
            else:
                zones[o["zone"]][o["owner"]].append(oid)
        return {"players": {pid: dict(p) for pid, p in self.players.items()}, "objects": objects, "zones": zones,
                "log": [dict(e) for e in self.log]}


class HonestCounterGame(CounterGame):
    """The same game handing out a copy of its counters (nothing of its state)."""

    shares = False


class EntryKeepingGame(HonestCounterGame):
    """Gives out an object's entry of the last observation again, the very dict, while it is equal
    to the one built now (as the reference engine does), and never changes an entry once given out."""

    def observe(self) -> dict:
        observation = super().observe()
        kept = self.__dict__.setdefault("_kept", {})
        objects = observation["objects"]
        for oid, entry in objects.items():
            if kept.get(oid) == entry:
                objects[oid] = kept[oid]
            else:
                kept[oid] = entry
        return observation


class EntryViewGame(HonestCounterGame):
    """Keeps one entry dict per object, brought up to date in place at each observation and given
    out again: an earlier observation changes as the game is observed after an event."""

    def observe(self) -> dict:
        observation = super().observe()
        views = self.__dict__.setdefault("_views", {})
        objects = observation["objects"]
        for oid, entry in objects.items():
            view = views.setdefault(oid, {})
            view.clear()
            view.update(entry)
            objects[oid] = view
        return observation


class CounterEngine:
    CAPABILITIES = frozenset({"counters", "sba.counter_annihilation", "sba.zero_toughness"})

    def __init__(self, bugs=(), game=CounterGame):
        self.bugs = frozenset(bugs)
        self.game = game
        self.info = EngineInfo(name=f"counters-{game.__name__}-{'-'.join(sorted(self.bugs)) or 'correct'}",
                               version="1", capabilities=self.CAPABILITIES, cards=frozenset(CARDS), counter_kinds=frozenset(KINDS))

    def new_game(self, board: dict) -> CounterGame:
        return self.game(board, self.bugs)
