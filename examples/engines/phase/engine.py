"""phase: rulesfuzz's in-process adapter for phase-python (the phase-rs rules engine).

phase (https://github.com/phase-rs/phase, MIT OR Apache-2.0) reads Oracle text itself;
``phase-python`` (PyPI, 0.103.0) is an unofficial binding of it. This adapter imports
``phase`` and ``harness.protocol`` (and ``cards`` for the Oracle records it builds phase's
card data from); it never imports the reference engine.

* **Cards.** :data:`POOL` are cards that phase reads without an ``Unimplemented`` part and
  that rulesfuzz's card model reads completely, so the reference engine can judge every
  finding. phase's card data is built offline, from the project's own Oracle records
  (``cards.database().record(name)``), through the wheel's ``build_oracle_face``.
* **Boards** are built without a single game action: one template game (both decks hold
  every pool card once, kept to turn 1's precombat main phase) is exported once; each
  board is that export with its ``objects``, zones, ``battlefield``, tapped status, marked
  damage, counters and attachments written in, loaded with ``Engine.load_game``.
* **Events** are phase's own game actions: ``cast`` (an instant, a sorcery or a permanent
  spell) puts the real card into its caster's hand, gives the caster its mana (debug
  ``AddMana``), casts it with the event's targets (checked against the spell's: phase picks
  a lone legal target itself) and passes priority until it has resolved; the board's
  second player casts a sorcery in its own main phase (debug ``SetPhase`` with
  ``active_player``, and back). ``put_onto_battlefield`` moves the card onto the
  battlefield (debug ``MoveToZone``, then ``Attach`` for an Aura or Equipment) and runs
  state-based actions; ``attach`` of an Equipment is its equip ability, paid, of an Aura
  debug ``Attach``; ``sacrifice`` is phase's sacrifice (debug ``Sacrifice``);
  ``activate_regeneration`` activates the creature's own regenerate ability, paid.
  Effect events without a card (``destroy``, ``damage``, ``modify_pt``, ``add_counters``)
  are declined (Unsupported): phase has no entry point that performs them as one effect,
  and made-up cards would judge the adapter, not phase.
* **Decisions** phase asks go through the decider with the harness's kinds and labels
  (:mod:`harness.decisions`): ``ChooseLegend`` is ``legend_rule`` (options the ids, the
  answer kept), ``ReplacementChoice`` on a destruction is ``replacement_effect``
  (``umbra armor:<Aura id>``, ``regeneration``); any other prompt is asked under its own
  phase name (an unknown kind: recorded, answered, never read as "not asked").
* **Log entries** come from phase's events (``ZoneChanged``, ``DamageDealt``,
  ``CounterAdded``, ``Regenerated``, ``CreatureDestroyed`` of an umbra Aura); what phase
  doesn't report (damage removed, tapped, attached, life gained, a player's loss, shields
  created, tokens ceasing to exist, 704.5q annihilation) is derived from the observations
  before and after. Zone-change causes would be guesses, so ``log.zone_change_causes``
  isn't claimed. docs/phase.md has the details and the findings.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cached_property

import phase

import cards
from harness import decisions as D
from harness.protocol import EngineInfo, IllegalAction, Unsupported

#: The cards the adapter declares (see docs/phase.md for why each was kept).
POOL = (
    # vanilla and keyword creatures
    "Grizzly Bears", "Hill Giant", "Savannah Lions", "Craw Wurm", "Pillarfield Ox", "Dross Crocodile",
    "Serra Angel", "Giant Spider", "Wall of Stone", "Knight of Meadowgrain", "Child of Night",
    "Vampire Nighthawk", "Typhoid Rats", "Darksteel Gargoyle",
    # legends
    "Jasmine Boreal", "Isamaru, Hound of Konda",
    # burn and removal
    "Lightning Bolt", "Shock", "Searing Spear", "Flame Slash", "Pyroclasm",
    "Murder", "Doom Blade", "Terror", "Go for the Throat", "Wrath of God", "Day of Judgment",
    # pump, shrink, counters
    "Giant Growth", "Titanic Growth", "Disfigure", "Last Gasp", "Battlegrowth",
    # Auras (two umbra), Equipment, anthem
    "Holy Strength", "Unholy Strength", "Spider Umbra", "Hyena Umbra", "Mammoth Umbra", "Bonesplitter", "Short Sword",
    "Glorious Anthem",
    # tokens, regeneration
    "Raise the Alarm", "Dragon Fodder", "Drudge Skeletons",
)

CAPABILITIES = frozenset({
    "damage", "sacrifice", "legend_rule", "deathtouch", "indestructible", "umbra_armor", "regeneration", "tokens",
    "counters", "cast_permanents", "sba.life_total", "sba.token_zone", "sba.zero_toughness", "sba.lethal_damage",
    "sba.deathtouch_damage", "sba.unattached_aura", "sba.counter_annihilation", "log.replacement_effects",
})

#: A regeneration shield as phase's regenerate effect (``{B}: Regenerate ~``) creates it (CR 701.15a).
SHIELD = {"condition": None, "description": "Regenerate", "event": "Destroy", "execute": None,
          "expiry": {"type": "EndOfTurn"}, "mode": {"type": "Mandatory"}, "origin": "Resolution",
          "shield_kind": "Regeneration", "valid_card": {"type": "SelfRef"}}
COLORS = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G"}
COLOR_NAMES = {v: k for k, v in COLORS.items()}
ZONES = {"Battlefield": "battlefield", "Graveyard": "graveyard", "Hand": "hand", "Library": "library",
         "Exile": "exile", "Stack": "stack", "Command": "command"}
PHASE_ZONE = {v: k for k, v in ZONES.items()}
COUNTERS = {"P1P1": "+1/+1", "M1M1": "-1/-1"}
PHASE_COUNTER = {v: k for k, v in COUNTERS.items()}
#: Keywords phase lists that the harness doesn't observe as keywords (CR 702.5, 702.6).
NOT_OBSERVED = re.compile(r"^(enchant|equip)\b")


def mtgjson(record: dict) -> dict:
    """The MTGJSON atomic-card fields ``build_oracle_face`` reads, from an Oracle record of
    ``cards.database()`` (the keywords list included: without it phase reads "Deathtouch"
    as spell text)."""
    colors = list(record.get("colors") or [])
    return {
        "name": record["name"], "manaCost": record.get("mana_cost") or None, "colors": colors,
        "colorIdentity": colors, "layout": record.get("layout") or "normal",
        "manaValue": float(cards.card(record["name"]).mana_value), "identifiers": {},
        "types": list(record["types"]), "subtypes": list(record["subtypes"]),
        "supertypes": list(record["supertypes"]), "power": record.get("power"),
        "toughness": record.get("toughness"), "text": record.get("oracle_text") or "",
        "keywords": [_mtgjson_keyword(k) for k in record.get("keywords") or []], "type": record.get("type_line"),
        "loyalty": record.get("loyalty"), "defense": record.get("defense"),
    }


def _mtgjson_keyword(keyword: str) -> str:
    """MTGJSON names a keyword without its parameter: "Enchant creature" is "Enchant", "Equip {1}"
    is "Equip" (phase reads the parameter from the text; without "Enchant" an Aura can't be cast)."""
    for name in ("Enchant", "Equip"):
        if keyword.startswith(name + " ") or keyword == name:
            return name
    return keyword


def build_faces(names=POOL) -> dict:
    """phase's card data (``card-data.json``'s shape: lower-case name -> face)."""
    return {name.lower(): phase.build_oracle_face(mtgjson(cards.database().record(name)), None) for name in names}


def _action(kind: str, data=None) -> phase.GameAction:
    return phase.GameAction.from_dict({"type": kind, "data": data} if data is not None else {"type": kind})


def _debug(kind: str, data=None) -> phase.GameAction:
    return _action("Debug", {"type": kind, "data": data} if data is not None else {"type": kind})


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class PhaseEngine:
    """The adapter: ``info`` and ``new_game(board)``."""

    def __init__(self, pool=POOL):
        self.pool = tuple(pool)
        self.info = EngineInfo(name="phase", version="0.103.0", capabilities=CAPABILITIES,
                               cards=frozenset(self.pool), counter_kinds=frozenset(COUNTERS.values()))

    @cached_property
    def engine(self) -> phase.Engine:
        return phase.Engine.from_json(json.dumps(build_faces(self.pool)))

    @cached_property
    def template(self) -> tuple[str, dict]:
        """One game at turn 1's precombat main phase, player 0 active with priority, debug
        actions allowed: (its export as JSON text, a prototype object per card name)."""
        game = self.engine.new_game(list(self.pool), list(self.pool), seed=1, first_player=0)
        for _ in range(50):
            wait = game.waiting_for()
            if wait["type"] == "MulliganDecision":
                player = wait["data"]["pending"][0]["player"]
                game.apply(player, next(a for a in game.actions() if a.data["choice"]["type"] == "Keep"))
            elif wait["type"] == "Priority" and game.phase == "PreCombatMain":
                break
            else:
                game.apply(game.priority_player(), _action("PassPriority"))
        export = game.state()
        state = export["state"]
        state["debug_mode"] = True
        state["format_config"]["allow_debug_actions"] = True
        protos = {}
        for obj in state["objects"].values():
            protos.setdefault(obj["name"], obj)
        for key in ("objects",):
            state[key] = {}
        for key in ("battlefield", "exile", "stack", "zone_changes_this_turn", "deck_pools",
                    "zone_change_library_knowledge_stamps"):
            if isinstance(state.get(key), list):
                state[key] = []
        for player in state["players"]:
            for zone in ("hand", "library", "graveyard"):
                player[zone] = []
        return json.dumps(export), protos

    def new_game(self, board: dict) -> PhaseGame:
        return PhaseGame(self, board)


class PhaseGame:
    """One game of phase, seen through the harness's ids (``ids``: harness id -> phase id)."""

    def __init__(self, engine: PhaseEngine, board: dict):
        self.engine = engine
        self.log: list[dict] = []
        self.events: list = []
        self.token_ids: list[str] = []
        self.entering: set[int] = set()
        if not isinstance(board, dict) or not isinstance(board.get("players"), list) or len(board["players"]) != 2:
            raise ValueError("board.players: expected a list of two players")
        self.players = []
        for i, spec in enumerate(board["players"]):
            if not isinstance(spec, dict) or not isinstance(spec.get("id"), str) or not _is_int(spec.get("life", 20)):
                raise ValueError(f"board.players[{i}]: expected a string 'id' and an integer 'life'")
            self.players.append(spec["id"])
        if len(set(self.players)) != 2:
            raise ValueError("board.players: two distinct ids")
        self.seat = {pid: i for i, pid in enumerate(self.players)}
        self.ids: dict[str, int] = {}
        self.names: dict[int, str] = {}
        text, self.protos = engine.template
        export = json.loads(text)
        state = export["state"]
        for i, spec in enumerate(board["players"]):
            state["players"][i]["life"] = spec.get("life", 20)
        specs = board.get("objects", [])
        if not isinstance(specs, list):
            raise ValueError("board.objects: expected a list")
        self.next_id = 1
        self.timestamp = 1
        for i, spec in enumerate(specs):
            self._add_object(state, spec, f"board.objects[{i}]")
        for i, spec in enumerate(specs):  # attachments, once every object exists
            host = spec.get("attached_to")
            if host is None:
                continue
            if host not in self.ids or host == spec["id"]:
                raise ValueError(f"board.objects[{i}].attached_to: {host!r} is not another object of the board")
            pid, hid = self.ids[spec["id"]], self.ids[host]
            state["objects"][str(pid)]["attached_to"] = {"type": "Object", "data": hid}
            state["objects"][str(hid)]["attachments"].append(pid)
        state["next_object_id"] = self.next_id + 1
        state["next_timestamp"] = self.timestamp + 1
        self.game = engine.engine.load_game(export)
        self.obs = self._observe()

    # ------------------------------------------------------------------ board
    def _proto(self, name):
        proto = self.protos.get(name)
        if proto is None:
            raise Unsupported(f"card:{name}", f"the phase adapter doesn't declare {name!r}")
        return proto

    def _add_object(self, state: dict, spec, where: str) -> None:
        if not isinstance(spec, dict) or not isinstance(spec.get("id"), str) or spec["id"] in self.ids:
            raise ValueError(f"{where}.id: expected a new string id")
        if spec.get("token") and spec.get("card") not in self.protos:
            raise Unsupported("board:token", f"{where}: a token named {spec.get('card')!r} (only tokens of a pool "
                                             f"card, CR 111.11)")
        if spec.get("combat") is not None:
            raise Unsupported("board:combat", f"{where}: no combat on boards")
        shields = spec.get("regeneration_shields", 0)
        if not _is_int(shields) or shields < 0:
            raise ValueError(f"{where}.regeneration_shields: expected an integer >= 0")
        proto = self._proto(spec.get("card"))
        owner = spec.get("owner", self.players[0])
        controller = spec.get("controller", owner)
        if owner not in self.seat or controller not in self.seat:
            raise ValueError(f"{where}.owner/controller: expected player ids")
        zone = spec.get("zone", "battlefield")
        if zone not in PHASE_ZONE or zone in ("stack", "command"):
            raise ValueError(f"{where}.zone: {zone!r}")
        if zone != "battlefield" and controller != owner:
            raise ValueError(f"{where}: only a permanent has a controller of its own")
        counters = spec.get("counters") or {}
        if not isinstance(counters, dict) or not all(_is_int(v) and v >= 0 for v in counters.values()):
            raise ValueError(f"{where}.counters: expected {{kind: integer >= 0}}")
        for kind, n in counters.items():
            if n and kind not in PHASE_COUNTER:
                raise Unsupported(f"counters:{kind}", f"{where}: only +1/+1 and -1/-1 counters")
        damage = spec.get("damage", 0)
        if not _is_int(damage) or damage < 0:
            raise ValueError(f"{where}.damage: expected an integer >= 0")
        pid = self.next_id
        self.next_id += 1
        obj = copy.deepcopy(proto)
        self.timestamp += 1
        obj.update(id=pid, card_id=pid, owner=self.seat[owner], controller=self.seat[controller],
                   base_controller=self.seat[controller], zone=PHASE_ZONE[zone], tapped=bool(spec.get("tapped")),
                   damage_marked=damage, counters={PHASE_COUNTER[k]: n for k, n in counters.items() if n},
                   attached_to=None, attachments=[], timestamp=self.timestamp if zone == "battlefield" else 0)
        if spec.get("token"):
            obj.update(is_token=True, display_source="Token")
        if shields and zone == "battlefield":  # what phase's regenerate effect leaves on the creature
            obj["replacement_definitions"] = list(obj.get("replacement_definitions") or []) + [
                dict(SHIELD) for _ in range(shields)]
        if zone == "battlefield":
            sick = bool(spec.get("summoning_sick"))
            obj.update(summoning_sick=sick, has_summoning_sickness=sick)
            if "Instant" in obj["card_types"]["core_types"] or "Sorcery" in obj["card_types"]["core_types"]:
                raise ValueError(f"{where}: an instant or sorcery can't be on the battlefield")
            obj["entered_battlefield_turn"] = 1 if spec.get("summoning_sick") else 0
            state["battlefield"].append(pid)
        elif zone == "exile":
            state["exile"].append(pid)
        else:
            state["players"][self.seat[owner]][zone].append(pid)
        state["objects"][str(pid)] = obj
        self.ids[spec["id"]] = pid
        self.names[pid] = spec["id"]

    # ------------------------------------------------------------------ helpers
    def _player(self, pid) -> int:
        if pid not in self.seat:
            raise IllegalAction("bad_event", f"{pid!r} is not a player")
        return self.seat[pid]

    def _live(self, oid) -> dict:
        obj = self.obs["objects"].get(oid) if isinstance(oid, str) else None
        if obj is None or obj["zone"] != "battlefield":
            raise IllegalAction("not_on_battlefield", f"{oid!r} is not a permanent on the battlefield")
        return obj

    def _new_id(self, oid) -> str:
        if not isinstance(oid, str) or not oid or oid in self.ids or oid in self.seat:
            raise IllegalAction("bad_event", f"id={oid!r}: expected a new, unused object id")
        return oid

    def _insert(self, name: str, seat: int, zone: str = "Hand", harness_id: str | None = None) -> int:
        """Put a new card object of ``name`` into ``seat``'s ``zone`` (export, edit, reload)."""
        proto = self._proto(name)
        export = self.game.state()
        state = export["state"]
        pid = max(int(state.get("next_object_id", 1)), self.next_id)
        self.next_id = pid + 1
        obj = copy.deepcopy(proto)
        obj.update(id=pid, card_id=pid, owner=seat, controller=seat, base_controller=seat, zone=zone,
                   tapped=False, damage_marked=0, counters={}, attached_to=None, attachments=[], timestamp=0)
        state["objects"][str(pid)] = obj
        state["players"][seat][zone.lower()].append(pid)
        state["next_object_id"] = pid + 1
        self.game = self.engine.engine.load_game(export)
        self.entering.add(pid)
        if harness_id is not None:
            self.ids[harness_id] = pid
            self.names[pid] = harness_id
        return pid

    def _ref(self, target) -> dict:
        """A phase target ({"Player": seat} or {"Object": id}) for a harness id."""
        if target in self.seat:
            return {"Player": self.seat[target]}
        if target in self.ids:
            return {"Object": self.ids[target]}
        raise IllegalAction("illegal_target", f"{target!r} is neither a player nor an object")

    def _label(self, ref) -> str | None:
        if "Player" in ref:
            return self.players[ref["Player"]]
        return self.names.get(ref.get("Object"))

    def _apply(self, seat: int, action) -> list:
        try:
            return list(self.game.apply(seat, action).events or [])
        except ValueError as exc:
            raise _Refused(str(exc)) from None

    # ------------------------------------------------------------------ events
    def apply(self, event: dict, decider) -> None:
        if any(p["lost"] for p in self.obs["players"].values()):
            raise IllegalAction("game_over", "a player has lost the game")
        kind = event.get("type") if isinstance(event, dict) else None
        handler = {
            "cast": self._cast, "put_onto_battlefield": self._put, "attach": self._attach,
            "sacrifice": self._sacrifice, "activate_regeneration": self._regenerate,
        }.get(kind)
        if handler is None:
            raise Unsupported(f"event:{kind}", "phase has no entry point that performs this event as one effect")
        saved = (self.game.state(), dict(self.ids), dict(self.names), self.next_id)
        before = self.obs
        self.events: list = []
        self.token_ids = []
        self.entering = set()
        try:
            handler(event, decider)
        except (IllegalAction, Unsupported, _Refused) as exc:
            export, self.ids, self.names, self.next_id = saved
            self.game = self.engine.engine.load_game(export)
            if isinstance(exc, _Refused):
                raise IllegalAction("illegal_action", f"phase refused it: {exc}") from None
            raise
        for ev in self.events:  # tokens an effect created get the event's token ids, in order
            data = ev.get("data") or {}
            if ev.get("type") == "ZoneChanged" and data.get("to") == "Battlefield" \
                    and (data.get("record") or {}).get("is_token") and data.get("object_id") not in self.names:
                self._name_token(data["object_id"])
        self.obs = self._observe()
        self.obs["log"] = self._log(before, self.obs, event)

    def _settle(self, decider, targets=None, active: int = 0) -> None:
        """Answer phase's prompts until it waits for priority with an empty stack: pass
        priority while the stack isn't empty, ask the decider what players choose.

        ``targets`` (a cast): the phase targets the spell must have, in order; phase
        chooses a lone legal target itself, so the spell's targets are checked against
        them once it is on the stack (IllegalAction when they differ)."""
        wanted = list(targets) if targets is not None else None
        for _ in range(200):
            wait = self.game.waiting_for()
            kind, data = wait["type"], wait.get("data") or {}
            if kind == "Priority" and targets is not None:
                self._check_targets(wanted)
                targets = None
            if kind == "Priority":
                if not self.game.stack():
                    if data.get("player") != 0 and active == 0:  # the active player has priority (CR 117.3b)
                        self.events += self._apply(data["player"], _action("PassPriority"))
                        continue
                    return
                self.events += self._apply(data["player"], _action("PassPriority"))
            elif kind == "ChooseLegend":
                options = [self.names.get(c, str(c)) for c in data["candidates"]]
                keep = decider.choose(self.players[data["player"]], D.LEGEND_RULE, options)
                pid = data["candidates"][options.index(keep)]
                self.events += self._apply(data["player"], _action("ChooseLegend", {"keep": pid}))
            elif kind == "TargetSelection" and targets is not None:
                legal = data["selection"]["current_legal_targets"]
                want = targets.pop(0) if targets else None
                if want is None or want not in legal:
                    raise IllegalAction("illegal_target", f"{want!r} is not a legal target ({legal})")
                self.events += self._apply(data["player"], _action("ChooseTarget", {"target": want}))
            elif kind == "ReplacementChoice":
                self._replacement(data, decider)
            elif kind == "GameOver":
                return
            else:
                self._ask(wait, decider)
        raise RuntimeError("phase kept asking: more than 200 prompts in one event")

    def _check_targets(self, wanted: list) -> None:
        chosen = [ev["data"]["target"] for ev in self.events if ev.get("type") == "BecomesTarget"]
        if chosen != wanted:
            raise IllegalAction("illegal_target", f"the spell's targets would be {chosen}, not {wanted}")

    def _replacement(self, data, decider) -> None:
        """CR 616.1: the affected object's controller chooses which replacement effect applies."""
        seat = data.get("player", 0)
        actions = [a for a in self.game.actions() if a.kind == "ChooseReplacement"]
        by_label = {}
        for a in actions:  # two regeneration shields are one choice: "regeneration"
            by_label.setdefault(self._replacement_label(a, data), a)
        labels = list(by_label)
        answer = decider.choose(self.players[seat], D.REPLACEMENT_EFFECT, labels)
        self.events += self._apply(seat, by_label[answer])

    def _replacement_label(self, action, data) -> str:
        index = action.data.get("index")
        candidates = data.get("candidates") or data.get("options") or []
        desc = json.dumps(candidates[index] if isinstance(index, int) and index < len(candidates) else action.data)
        if "Regenerat" in desc:
            return D.REGENERATION
        source = re.search(r'"source(?:_id)?":\s*(\d+)', desc)
        if ("Totem" in desc or "Umbra" in desc or "umbra" in desc) and source:
            return D.umbra_armor_option(self.names.get(int(source.group(1)), source.group(1)))
        return f"phase:{desc}"

    def _ask(self, wait, decider) -> None:
        """A prompt the harness has no kind for: asked under phase's name, options the actions."""
        seat = (wait.get("data") or {}).get("player", self.game.priority_player())
        actions = self.game.actions()
        if not actions:
            raise RuntimeError(f"phase waits for {wait['type']} with no legal action")
        labels = [json.dumps(a.to_dict(), sort_keys=True) for a in actions]
        answer = decider.choose(self.players[seat], f"phase:{wait['type']}", labels)
        self.events += self._apply(seat, actions[labels.index(answer)])

    def _mana(self, seat: int, cost) -> None:
        """Give ``seat`` exactly the mana of ``cost`` (debug AddMana): colored shards, generic as colorless."""
        if not cost or cost.get("type") != "Cost":
            return
        mana = [s for s in cost.get("shards", [])] + ["Colorless"] * int(cost.get("generic", 0))
        if any(m not in ("White", "Blue", "Black", "Red", "Green", "Colorless") for m in mana):
            raise Unsupported("cost", f"phase adapter can't pay {cost}")
        if mana:
            self.events += self._apply(seat, _debug("AddMana", {"player_id": seat, "mana": mana}))

    def _give_priority(self, seat: int) -> None:
        """Priority to ``seat`` with the stack empty: the active player passes (CR 117.3d)."""
        wait = self.game.waiting_for()
        if wait["type"] != "Priority" or self.game.stack():
            raise RuntimeError(f"phase isn't waiting for priority on an empty stack: {wait}")
        if wait["data"]["player"] != seat:
            self.events += self._apply(wait["data"]["player"], _action("PassPriority"))

    def _cast_card(self, name: str, seat: int, targets: list, decider, harness_id: str | None = None) -> int:
        pid = self._insert(name, seat, "Hand", harness_id)
        obj = self.game.object(pid)
        types = obj["card_types"]["core_types"]
        sorcery_speed = "Instant" not in types
        if sorcery_speed and seat != 0:
            self._set_active(seat)  # CR 307.1: a sorcery is cast in its caster's own main phase
        self._give_priority(seat)
        self._mana(seat, obj.get("mana_cost"))
        cast = [a for a in self.game.actions() if a.kind == "CastSpell" and a.data.get("object_id") == pid]
        if not cast:
            raise IllegalAction("cant_cast", f"phase lists no cast of {name}")
        self.events += self._apply(seat, cast[0])
        self._settle(decider, targets=list(targets), active=seat if sorcery_speed else 0)
        if sorcery_speed and seat != 0:
            self._set_active(0)
        return pid

    def _set_active(self, seat: int) -> None:
        """Make ``seat`` the active player, in its precombat main phase with priority (debug
        ``SetPhase``): the harness's events are a judge's scenario, where the board's second
        player may cast a sorcery too; nothing else of the game changes."""
        self.events += self._apply(self.game.priority_player(),
                                   _debug("SetPhase", {"phase": "PreCombatMain", "active_player": seat}))

    def _cast(self, event, decider) -> None:
        name, seat = event.get("card"), self._player(event.get("controller"))
        targets = event.get("targets", [])
        if name not in self.engine.pool:
            raise Unsupported(f"card:{name}", "not declared")
        card = cards.card(name)
        if not isinstance(targets, list):
            raise IllegalAction("bad_event", "targets: expected a list")
        harness_id = None
        if not (card.is_type("Instant") or card.is_type("Sorcery")):
            # A permanent spell (CR 608.3): it resolves and enters as the event's new id; an
            # Aura spell targets what it will enchant (303.4a, 608.3c).
            if card.is_type("Land"):
                raise IllegalAction("not_a_spell", f"{name} is a land: played, not cast (CR 305.1)")
            if "id" not in event:
                raise IllegalAction("not_a_spell", f"{name}: a permanent spell is cast with an 'id'")
            harness_id = self._new_id(event.get("id"))
            if "Aura" not in card.subtypes and targets:
                raise IllegalAction("illegal_target", f"{name} has no target")
        token_ids = event.get("token_ids") or []
        for tid in token_ids:
            self._new_id(tid)
        self.token_ids = list(token_ids)
        self._cast_card(name, seat, [self._ref(t) for t in targets], decider, harness_id)

    def _put(self, event, decider) -> None:
        oid, name = self._new_id(event.get("id")), event.get("card")
        seat = self._player(event.get("controller"))
        if event.get("copy_of") is not None or "x" in event:
            raise Unsupported("event:put_onto_battlefield:copy_or_x", "no copies or X in this pool")
        if name not in self.engine.pool:
            raise Unsupported(f"card:{name}", "not declared")
        card = cards.card(name)
        if card.is_type("Instant") or card.is_type("Sorcery"):
            raise IllegalAction("not_a_permanent", f"{name} is not a permanent card")
        host = event.get("attach_to")
        aura = "Aura" in card.subtypes
        if aura:
            if host is None:
                raise IllegalAction("no_legal_attachment", f"{name} must enter attached (CR 303.4f)")
            target = self._live(host)
            if "Creature" not in target["types"]:
                raise IllegalAction("no_legal_attachment", f"{host} is not a creature (enchant creature)")
        elif host is not None:
            if "Equipment" not in card.subtypes:
                raise IllegalAction("bad_event", f"{name} can't enter attached")
            if "Creature" not in self._live(host)["types"]:
                raise IllegalAction("illegal_target", f"{host} is not a creature (CR 301.5c)")
        pid = self._insert(name, seat, "Hand", oid)
        self.events += self._apply(0, _debug("MoveToZone", {"object_id": pid, "to_zone": "Battlefield"}))
        if host is not None:
            self.events += self._apply(0, _debug("Attach", {"object_id": pid,
                                                            "target": {"type": "Object", "data": self.ids[host]}}))
        self.events += self._apply(0, _debug("RunStateBasedActions"))
        self._settle(decider)

    def _attach(self, event, decider) -> None:
        aid, to = event.get("aura"), event.get("to")
        attachment = self._live(aid)
        host = self._live(to)
        if aid == to:
            raise IllegalAction("illegal_target", "can't attach to itself")
        if "Creature" not in host["types"]:
            raise IllegalAction("illegal_target", f"{to} is not a creature")
        if "Equipment" in attachment["subtypes"]:
            self._equip(aid, to, attachment, host, decider)
            return
        if "Aura" not in attachment["subtypes"]:
            raise IllegalAction("not_an_aura", f"{aid} is neither an Aura nor an Equipment")
        if attachment["attached_to"] == to:
            return
        self.events += self._apply(0, _debug("Attach", {"object_id": self.ids[aid],
                                                        "target": {"type": "Object", "data": self.ids[to]}}))
        self.events += self._apply(0, _debug("RunStateBasedActions"))
        self._settle(decider)

    def _equip(self, aid, to, equipment, host, decider) -> None:
        """An Equipment moved by its equip ability (CR 702.6a): "attach to target creature you
        control", sorcery speed; other attachments of an Equipment are declined."""
        if host["controller"] != equipment["controller"]:
            raise Unsupported("attach:equipment", "only its equip ability moves an Equipment here: onto a creature "
                                                  "its controller controls (CR 702.6a)")
        seat = self.seat[equipment["controller"]]
        if equipment["attached_to"] == to:
            return  # CR 701.3b
        pid = self.ids[aid]
        abilities = self.game.object(pid).get("abilities") or []
        index = next((i for i, a in enumerate(abilities) if (a.get("ability_tag") or {}).get("type") == "Equip"), None)
        cost = (abilities[index].get("cost") or {}) if index is not None else {}
        if index is None or cost.get("type") != "Mana":
            raise Unsupported("attach:equipment", f"{equipment['name']}: no equip ability with a mana cost in phase")
        if seat != 0:
            self._set_active(seat)  # equip only as a sorcery (CR 702.6a)
        self._give_priority(seat)
        self._mana(seat, cost.get("cost"))
        equip = [a for a in self.game.actions() if a.kind == "ActivateAbility" and a.data.get("source_id") == pid
                 and a.data.get("ability_index") == index]
        if not equip:
            raise IllegalAction("cant_equip", f"phase lists no equip of {aid}")
        self.events += self._apply(seat, equip[0])
        self._settle(decider, targets=[{"Object": self.ids[to]}], active=seat)
        if seat != 0:
            self._set_active(0)

    def _sacrifice(self, event, decider) -> None:
        oid = event.get("object")
        self._live(oid)
        self.events += self._apply(0, _debug("Sacrifice", {"object_id": self.ids[oid]}))
        self.events += self._apply(0, _debug("RunStateBasedActions"))
        self._settle(decider)

    def _regenerate(self, event, decider) -> None:
        oid = event.get("object")
        self._live(oid)
        pid = self.ids[oid]
        obj = self.game.object(pid)
        seat = obj["controller"]
        index = next((i for i, a in enumerate(obj.get("abilities") or [])
                      if a.get("kind") == "Activated" and "Regenerate" in json.dumps(a.get("effect"))), None)
        if index is None:
            raise IllegalAction("no_such_ability", f"{oid} has no regenerate ability")
        self._give_priority(seat)
        self._mana(seat, (obj["abilities"][index].get("cost") or {}).get("cost")
                   if isinstance(obj["abilities"][index].get("cost"), dict) else None)
        act = [a for a in self.game.actions() if a.kind == "ActivateAbility" and a.data.get("source_id") == pid
               and a.data.get("ability_index") == index]
        if not act:
            raise IllegalAction("cant_activate", f"phase lists no activation of {oid}'s ability")
        self.events += self._apply(seat, act[0])
        self._settle(decider)

    # ------------------------------------------------------------------ observation
    def _observe(self) -> dict:
        state = self.game.state()["state"]
        objects, zones = {}, {"battlefield": []}
        for zone in ("graveyard", "hand", "library", "exile"):
            zones[zone] = {pid: [] for pid in self.players}
        live = {}
        for key, obj in state["objects"].items():
            live[int(key)] = obj
        for pid, oid in list(self.names.items()):
            obj = live.get(pid)
            if obj is None:
                continue  # a token that ceased to exist
            objects[oid] = self._object(obj)
        for pid in state.get("battlefield", []):
            if pid in self.names:
                zones["battlefield"].append(self.names[pid])
        for seat, player in enumerate(state["players"]):
            for zone in ("graveyard", "hand", "library"):
                zones[zone][self.players[seat]] = [self.names[i] for i in player.get(zone, []) if i in self.names]
        for pid in state.get("exile", []):
            if pid in self.names:
                zones["exile"][objects[self.names[pid]]["owner"]].append(self.names[pid])
        players = {}
        for seat, player in enumerate(state["players"]):
            status = (player.get("status") or {}).get("type")
            players[self.players[seat]] = {"life": player["life"],
                                           "lost": bool(player.get("is_eliminated")) or status not in ("Active", None)}
        return {"players": players, "objects": objects, "zones": zones, "log": []}

    def _object(self, obj: dict) -> dict:
        zone = ZONES.get(obj["zone"], str(obj["zone"]).lower())
        types = obj.get("card_types") or {}
        keywords = sorted({self._keyword(k) for k in obj.get("keywords") or []} - {None})
        attached = obj.get("attached_to")
        power, toughness = obj.get("power"), obj.get("toughness")
        battlefield = zone == "battlefield"
        return {
            "name": obj["name"], "zone": zone, "owner": self.players[obj["owner"]],
            "controller": self.players[obj["controller"] if battlefield else obj["owner"]],
            "token": bool(obj.get("is_token")), "tapped": bool(obj.get("tapped")) if battlefield else False,
            "summoning_sick": bool(obj.get("summoning_sick")) if battlefield else False,
            "damage": obj.get("damage_marked", 0) if battlefield else 0,
            "counters": {COUNTERS.get(k, k): n for k, n in (obj.get("counters") or {}).items() if n}
            if battlefield else {},
            "attached_to": self.names.get(attached["data"]) if battlefield and isinstance(attached, dict) else None,
            "combat": None, "regeneration_shields": self._shields(obj) if battlefield else 0,
            "supertypes": list(types.get("supertypes", [])), "types": list(types.get("core_types", [])),
            "subtypes": list(types.get("subtypes", [])),
            "colors": [COLORS[c] for c in obj.get("color") or [] if c in COLORS],
            "keywords": keywords, "power": power, "toughness": toughness,
        }

    @staticmethod
    def _keyword(k) -> str | None:
        if isinstance(k, dict):
            k = k.get("type") or next(iter(k), None)
        if not isinstance(k, str):
            return None
        word = re.sub(r"(?<!^)(?=[A-Z])", " ", k).lower()
        word = {"totem armor": "umbra armor"}.get(word, word)
        return None if NOT_OBSERVED.match(word) else word

    @staticmethod
    def _shields(obj) -> int:
        """Regeneration shields (CR 701.15a): phase keeps each as a replacement definition."""
        return sum(1 for r in obj.get("replacement_definitions") or [] if r.get("shield_kind") == "Regeneration"
                   and not r.get("is_consumed"))

    # ------------------------------------------------------------------ log
    def _log(self, before: dict, after: dict, event: dict) -> list[dict]:
        log = []
        for ev in self.events:
            kind, data = ev.get("type"), ev.get("data") or {}
            if kind == "ZoneChanged":
                pid = data.get("object_id")
                oid = self.names.get(pid)
                if oid is None:
                    continue
                if data.get("to") == "Stack":
                    continue  # a spell cast: the harness sees it resolve, not on the stack
                src = ZONES.get(data.get("from"), None) if data.get("from") else None
                if pid in self.entering:  # a card from outside the game (the adapter's hidden hand copy)
                    src = None
                    self.entering.discard(pid)
                elif oid not in before["objects"] and src is None:
                    src = None
                dst = ZONES.get(data.get("to")) if data.get("to") else None
                if src == dst:
                    continue
                log.append({"kind": "zone_change", "object": oid, "from": src, "to": dst})
            elif kind == "DamageDealt":
                src = self.names.get(data.get("source_id"))
                target = self._label(data.get("target") or {})
                if target is None:
                    continue
                spell = src is None
                name = None
                if spell:
                    obj = self.game.object(data.get("source_id")) or {}
                    name = obj.get("name")
                source_obj = before["objects"].get(src) if src else None
                log.append({"kind": "damage", "source": src if src else name, "target": target,
                            "amount": data.get("amount"),
                            "deathtouch": bool(source_obj and "deathtouch" in source_obj["keywords"])})
            elif kind == "CounterAdded":
                oid = self.names.get(data.get("object_id"))
                if oid is not None:
                    log.append({"kind": "counters_added", "object": oid,
                                "counter": COUNTERS.get(data.get("counter_type"), data.get("counter_type")),
                                "amount": data.get("count", 1)})
            elif kind in ("LifeChanged", "LifeGained"):
                pass
        # Replacement effects phase applied: "Regenerated" names the creature; umbra armor shows
        # as the Aura's destruction (CreatureDestroyed of the Aura) while it enchanted the creature.
        replaced = []
        for ev in self.events:
            data = ev.get("data") or {}
            oid = self.names.get(data.get("object_id"))
            if oid is None or oid not in before["objects"]:
                continue
            if ev.get("type") == "Regenerated":
                log.append({"kind": "replacement", "effect": D.REGENERATION, "affected": oid})
                replaced.append(oid)
            elif ev.get("type") == "CreatureDestroyed" and "umbra armor" in before["objects"][oid]["keywords"] \
                    and before["objects"][oid]["attached_to"] is not None:
                host = before["objects"][oid]["attached_to"]
                log.append({"kind": "replacement", "effect": D.UMBRA_ARMOR, "source": oid, "affected": host})
                replaced.append(host)
        dealt = {}
        for entry in log:
            if entry["kind"] == "damage" and entry["target"] in before["objects"]:
                dealt[entry["target"]] = dealt.get(entry["target"], 0) + entry["amount"]
        for oid, prev in before["objects"].items():
            if prev["zone"] != "battlefield":
                continue
            marked = prev["damage"] + dealt.get(oid, 0)
            obj = after["objects"].get(oid)
            if oid in replaced:  # CR 701.15a, 702.89a: all damage is removed from it
                if marked:
                    log.append({"kind": "damage_removed", "object": oid, "amount": marked})
            elif obj is not None and obj["zone"] == "battlefield" and obj["damage"] < marked:
                log.append({"kind": "damage_removed", "object": oid, "amount": marked - obj["damage"]})
        # Derived from the observations before and after (phase doesn't report these as events).
        for oid, obj in after["objects"].items():
            prev = before["objects"].get(oid)
            if prev is None or obj["zone"] != "battlefield" or prev["zone"] != "battlefield":
                continue
            if obj["regeneration_shields"] > prev["regeneration_shields"]:
                for _ in range(obj["regeneration_shields"] - prev["regeneration_shields"]):
                    log.append({"kind": "regeneration_shield", "object": oid})
            if obj["tapped"] and not prev["tapped"]:
                log.append({"kind": "tapped", "object": oid})
            if obj["attached_to"] is not None and obj["attached_to"] != prev["attached_to"]:
                log.append({"kind": "attached", "object": oid, "to": obj["attached_to"]})
        for pid, player in after["players"].items():
            prev = before["players"][pid]
            if player["life"] > prev["life"]:
                log.append({"kind": "life_gained", "player": pid, "amount": player["life"] - prev["life"]})
            if player["lost"] and not prev["lost"]:
                log.append({"kind": "player_lost", "player": pid, "rule": "704.5a"})
        # Tokens that ceased to exist (704.5d) and 704.5q counter annihilation: derived.
        for oid, obj in before["objects"].items():
            if oid not in after["objects"] and obj["token"]:
                last = [e["to"] for e in log if e["kind"] == "zone_change" and e["object"] == oid]
                log.append({"kind": "zone_change", "object": oid, "from": last[-1] if last else obj["zone"],
                            "to": None})
        for oid, obj in after["objects"].items():
            prev = before["objects"].get(oid)
            if obj["zone"] != "battlefield" or prev is None or prev["zone"] != "battlefield":
                continue
            added = {}
            for entry in log:
                if entry["kind"] == "counters_added" and entry["object"] == oid:
                    added[entry["counter"]] = added.get(entry["counter"], 0) + entry["amount"]
            plus = prev["counters"].get("+1/+1", 0) + added.get("+1/+1", 0) - obj["counters"].get("+1/+1", 0)
            minus = prev["counters"].get("-1/-1", 0) + added.get("-1/-1", 0) - obj["counters"].get("-1/-1", 0)
            if plus == minus and plus > 0:
                log.append({"kind": "counters_removed", "object": oid, "rule": "704.5q", "amount": plus})
        return log

    def _name_token(self, pid: int) -> str | None:
        if self.token_ids:
            oid = self.token_ids.pop(0)
            self.ids[oid] = pid
            self.names[pid] = oid
            return oid
        return None

    def observe(self) -> dict:
        return copy.deepcopy(self.obs)


class _Refused(Exception):
    """phase raised ValueError("Invalid action ...") for an action the adapter applied."""


engine = PhaseEngine()
