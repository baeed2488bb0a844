"""``rulesfuzz check``: a short fixed conformance checklist, what an engine team runs first.

Each check is one line (``PASS``/``FAIL`` name: why). They use only the protocol, so they
judge an in-process engine and an ``exec:`` engine alike:

1. ``initialize``: the engine's ``EngineInfo`` is valid (schema ``engine_info``; every
   capability is a name of :data:`harness.protocol.CAPABILITIES`).
2. ``cards``: every card it declares is an Oracle name of the card data (:mod:`cards`).
3. ``board_round_trip``: ``new_game`` of a small board observes the same board back
   (life totals, every object's card, zone, owner, controller, tapped, damage, and its
   printed power and toughness from the card data).
4. ``plain_json``: every observation is plain JSON (it survives a JSON round trip) with
   the required fields (schema ``observation``).
5. ``illegal_changes_nothing``: an event naming an object that doesn't exist is refused
   with ``IllegalAction``, and the observation is unchanged.
6. ``determinism``: the same board, events and decisions give the same observations twice.
7. ``accepts_legal_events``: each event of the claimed kinds (damage, destroy, sacrifice),
   on a fresh small board where it is legal, is performed, not refused with ``IllegalAction``.

Expected values come from the board given and the card data, never from the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from collections.abc import Callable

import cards

from harness.wire import schemas
from harness.running.decider import ReplayDecider
from harness.protocol import CAPABILITIES, EngineInfo, IllegalAction, Unsupported
from harness.serve import info_to_json
from harness.protocol import RulesfuzzError

MISSING = "no-such-object"
#: Vanilla creatures tried first for the small board when the engine claims the whole pool.
PREFERRED = ("Grizzly Bears",)


#: Lines of a process engine's stderr shown under a failed check (the last ones).
STDERR_SHOWN = 10
_TAIL_MARK = "\n  last lines of the engine's stderr:"


@dataclass(frozen=True)
class CheckResult:
    """One line of the checklist: ``name``, ``ok`` and ``why`` (what was seen); for a failed check
    of a process engine (``exec:``), ``stderr``: the last lines it wrote to its stderr, shown
    under the line as ``rulesfuzz run`` shows them under a finding."""

    name: str
    ok: bool
    why: str
    stderr: tuple[str, ...] = ()

    def __str__(self) -> str:
        line = f"{'PASS' if self.ok else 'FAIL'}  {self.name}: {self.why}"
        if not self.stderr:
            return line
        count = f"{len(self.stderr)} line{'s' if len(self.stderr) != 1 else ''}"
        return "\n".join([line, f"      last {count} of the engine's stderr:",
                          *(f"      | {text}" for text in self.stderr)])


def stderr_of(exc: BaseException) -> list[str]:
    """The engine's stderr tail an engine fault carries (``EngineProcessError.stderr``, or the
    lines :mod:`harness.connection.rpc` appends to a timeout's message); empty when it has none."""
    tail = getattr(exc, "stderr", None)
    if isinstance(tail, (list, tuple)) and tail:
        return [str(line) for line in tail]
    text = str(exc)
    if _TAIL_MARK not in text:
        return []
    return [line[len("    | "):] for line in text.split(_TAIL_MARK, 1)[1].splitlines() if line.startswith("    | ")]


class _FirstOption:
    """A decider that answers the first option, heads and 1, and records its answers for a replay."""

    def __init__(self):
        self.asked: list = []
        self.recorded: list[dict] = []

    def _note(self, player, kind, options, answer):
        self.recorded.append({"player": player, "kind": kind, "options": list(options), "answer": answer})
        return answer

    def choose(self, player, kind, options):
        return self._note(player, kind, options, list(options)[0])

    def flip_coin(self, player):
        return self._note(player, "coin_flip", ("heads", "tails"), "heads")

    def roll_die(self, player, sides):
        return self._note(player, f"d{sides}", (), 1)


def _creatures(info: EngineInfo) -> list[cards.Card]:
    declared = getattr(info, "cards", None)
    names = sorted(declared) if declared is not None else cards.names()
    names = sorted(names, key=lambda n: n not in PREFERRED)  # cards every engine is likely to play first
    found = []
    for name in names:
        try:
            card = cards.card(name)
        except KeyError:
            continue
        if card.is_type("Creature") and not card.keywords and card.toughness and not card.supertypes:
            found.append(card)
    if not found:  # every creature has a keyword: take any creature
        found = [c for c in map(_card_or_none, names) if c is not None and c.is_type("Creature") and c.toughness]
    return found


def _card_or_none(name):
    try:
        return cards.card(name)
    except KeyError:
        return None


def small_board(info: EngineInfo) -> dict | None:
    """Two players (life 17 and 20) and two creatures the engine plays, one with 1 damage (and tapped, when the
    engine claims ``tap_untap_costs``, whose board feature tapped permanents are); None if it plays none."""
    creatures = _creatures(info)
    if not creatures:
        return None
    first = next((c for c in creatures if (c.toughness or 0) >= 2), creatures[0])  # each has a toughness
    second = creatures[0]
    return {
        "players": [{"id": "P1", "life": 17}, {"id": "P2", "life": 20}],
        "objects": [
            {"id": "c1", "card": first.name, "zone": "battlefield", "owner": "P1", "controller": "P1",
             "tapped": "tap_untap_costs" in info.capabilities, "summoning_sick": False, "damage": 1 if (first.toughness or 0) >= 2 else 0},
            {"id": "c2", "card": second.name, "zone": "battlefield", "owner": "P2", "controller": "P2",
             "tapped": False, "summoning_sick": False, "damage": 0},
        ],
    }


def _illegal_event(info: EngineInfo) -> dict | None:
    caps = info.capabilities
    if "sacrifice" in caps:
        return {"type": "sacrifice", "object": MISSING}
    if "destroy" in caps:
        return {"type": "destroy", "targets": [MISSING], "cant_be_regenerated": False}
    if "damage" in caps:
        return {"type": "damage", "source": MISSING, "target": "P1", "amount": 1}
    return None


def _events(info: EngineInfo) -> list[dict]:
    """A few events on the small board, from the capabilities claimed."""
    caps = info.capabilities
    events = []
    if "damage" in caps:
        events += [{"type": "damage", "source": "c2", "target": "c1", "amount": 1},
                   {"type": "damage", "source": "c1", "target": "P2", "amount": 2}]
    if "destroy" in caps:
        events.append({"type": "destroy", "targets": ["c2"], "cant_be_regenerated": False})
    if "sacrifice" in caps:
        events.append({"type": "sacrifice", "object": "c1"})
    return events


class Checklist:
    """Runs the checks on ``engine``; ``results`` holds one :class:`CheckResult` per check."""

    def __init__(self, engine):
        self.engine = engine
        self.info = engine.info
        self.results: list[CheckResult] = []
        self.observations: list = []

    def _check(self, name: str, body: Callable[[], str]) -> None:
        try:
            why = body()
            self.results.append(CheckResult(name, True, why))
        except _Failed as failed:
            self.results.append(CheckResult(name, False, str(failed), self._stderr()))
        except Exception as exc:  # noqa: BLE001  an engine fault is a failed check, not a crash of check
            first = (str(exc).splitlines() or [""])[0][:300]
            self.results.append(CheckResult(name, False, f"{type(exc).__name__}: {first}",
                                            tuple(stderr_of(exc)[-STDERR_SHOWN:]) or self._stderr()))

    def _stderr(self) -> tuple[str, ...]:
        """The last lines a process engine (``exec:``, :class:`harness.connection.rpc.ProcessEngine`) wrote to
        its stderr; empty for an in-process engine."""
        tail = getattr(self.engine, "stderr_tail", None)
        if callable(tail):
            tail = tail()
        return tuple(str(line) for line in tail[-STDERR_SHOWN:]) if isinstance(tail, (list, tuple)) else ()

    def run(self) -> list[CheckResult]:
        self._check("initialize", self.initialize)
        self._check("cards", self.cards)
        self._check("board_round_trip", self.board_round_trip)
        self._check("illegal_changes_nothing", self.illegal_changes_nothing)
        self._check("determinism", self.determinism)
        self._check("accepts_legal_events", self.accepts_legal_events)
        self._check("plain_json", self.plain_json)  # last: judges every observation seen above
        return self.results

    # ------------------------------------------------------------------ checks
    def initialize(self) -> str:
        raw = getattr(self.engine, "initialize_result", None) or info_to_json(self.info)
        problems = schemas.problems(raw, "engine_info")
        if problems:
            raise _Failed("EngineInfo: " + "; ".join(problems[:3]))
        unknown = sorted(set(raw["capabilities"]) - set(CAPABILITIES))
        if unknown:
            raise _Failed(f"unknown capabilities {unknown}; see harness.protocol.CAPABILITIES")
        why = f"{raw['name']} {raw['version']}, {len(raw['capabilities'])} capabilities"
        try:
            redundant = redundant_claims(self.info)
        except (KeyError, ValueError):  # an unknown card or a bad definition: the `cards` check says so
            redundant = {}
        if redundant:  # accepted, never refused: the claim just no longer changes what is checked
            why += "; claimed but implied by its cards, so claiming changes nothing: " + ", ".join(
                f"{cap} ({card})" for cap, card in sorted(redundant.items()))
        return why

    def cards(self) -> str:
        declared = getattr(self.info, "cards", None)
        defined = [d.get("name") for d in getattr(self.info, "card_definitions", ()) or () if isinstance(d, dict)]
        if declared is None:
            return "plays the curated card pool" + (f" and {len(defined)} defined cards" if defined else "")
        try:
            from cards.definitions import define

            define(getattr(self.info, "card_definitions", ()) or ())
        except ValueError as exc:
            raise _Failed(f"card_definitions: {exc}") from None
        unknown = sorted(c for c in declared if cards.lookup(c) is None)
        if unknown:
            near = cards.closest(unknown[0]) if isinstance(unknown[0], str) else []
            raise _Failed(f"not in the card data: {unknown}; closest to {unknown[0]!r}: {', '.join(near) or 'none'}; "
                          f"see `rulesfuzz cards`")
        return f"{len(declared)} cards, all in the card data" + (f", {len(defined)} defined" if defined else "")

    def _new_game(self, board):
        game = self.engine.new_game(board)
        observation = game.observe()
        self.observations.append(observation)
        return game, observation

    def board_round_trip(self) -> str:
        board = small_board(self.info)
        if board is None:
            raise _Failed("the engine declares no creature card to build a board with")
        _, obs = self._new_game(board)
        wrong = []
        for player in board["players"]:
            seen = (obs.get("players") or {}).get(player["id"])
            if not isinstance(seen, dict) or seen.get("life") != player["life"] or seen.get("lost") is not False:
                wrong.append(f"players.{player['id']}: expected life {player['life']}, not lost; got {seen!r}")
        for spec in board["objects"]:
            seen = (obs.get("objects") or {}).get(spec["id"])
            if not isinstance(seen, dict):
                wrong.append(f"objects.{spec['id']}: missing")
                continue
            card = cards.card(spec["card"])
            expected = {"name": spec["card"], "zone": spec["zone"], "owner": spec["owner"],
                        "controller": spec["controller"], "tapped": spec["tapped"], "damage": spec["damage"],
                        "power": card.power, "toughness": card.toughness}
            wrong += [f"objects.{spec['id']}.{k}: expected {v!r}, got {seen.get(k)!r}"
                      for k, v in expected.items() if seen.get(k) != v]
        battlefield = (obs.get("zones") or {}).get("battlefield")
        if not isinstance(battlefield, list) or sorted(battlefield) != ["c1", "c2"]:
            wrong.append(f"zones.battlefield: expected ['c1', 'c2'], got {battlefield!r}")
        if wrong:
            raise _Failed("; ".join(wrong[:4]) + (f" (and {len(wrong) - 4} more)" if len(wrong) > 4 else ""))
        return f"2 players and 2 objects ({board['objects'][0]['card']}, {board['objects'][1]['card']}) observed back"

    def illegal_changes_nothing(self) -> str:
        board, event = small_board(self.info), _illegal_event(self.info)
        if board is None or event is None:
            raise _Failed("needs a creature card and one of sacrifice, destroy or damage")
        game, before = self._new_game(board)
        try:
            game.apply(event, _FirstOption())
        except IllegalAction as exc:
            reason = exc.reason
        except Unsupported as exc:
            raise _Failed(f"{event} was declined as unsupported ({exc.reason}), not refused as illegal") from None
        else:
            raise _Failed(f"{event} names no object of the game but was not refused with IllegalAction")
        after = game.observe()
        self.observations.append(after)
        changed = [k for k in ("players", "objects", "zones") if before.get(k) != after.get(k)]
        if changed:
            raise _Failed(f"refused ({reason}) but changed {', '.join(changed)}")
        return f"{event['type']} of a missing object refused ({reason}), nothing changed"

    def _play(self, board, events, decider_for) -> list:
        game, first = self._new_game(board)
        seen = [first]
        for i, event in enumerate(events):
            try:
                game.apply(event, decider_for(i))
            except IllegalAction as exc:
                seen.append({"illegal": exc.reason})
            except Unsupported as exc:
                seen.append({"unsupported": exc.reason})
                break
            observation = game.observe()
            self.observations.append(observation)
            seen.append(observation)
        return seen

    def determinism(self) -> str:
        board = small_board(self.info)
        events = _events(self.info)
        if board is None or not events:
            raise _Failed("needs a creature card and one of damage, destroy or sacrifice")
        deciders: list[_FirstOption] = []

        def record(_):
            deciders.append(_FirstOption())
            return deciders[-1]

        first = self._play(board, events, record)
        second = self._play(board, events, lambda i: ReplayDecider(deciders[i].recorded, strict=True))
        for step, (a, b) in enumerate(zip(first, second)):
            if a != b:
                fields = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
                raise _Failed(f"after event {step} the two runs differ in {fields}")
        if len(first) != len(second):
            raise _Failed(f"one run stopped after {len(first) - 1} events, the other after {len(second) - 1}")
        decisions = sum(len(d.recorded) for d in deciders)
        return f"{len(events)} events, {decisions} decisions: the same observations twice"

    def accepts_legal_events(self) -> str:
        """Each claimed event kind, on a fresh small board where it is legal, is performed, not
        refused: an engine that refuses everything would pass every run vacuously."""
        board = small_board(self.info)
        events = _events(self.info)
        if board is None or not events:
            raise _Failed("needs a creature card and one of damage, destroy or sacrifice")
        refused, declined = [], []
        for event in events:
            game, _ = self._new_game(board)
            try:
                game.apply(dict(event), _FirstOption())
            except IllegalAction as exc:
                refused.append(f"{event['type']} ({exc.reason or 'illegal'})")
                continue
            except Unsupported as exc:
                declined.append(f"{event['type']} ({exc.reason})")
                continue
            self.observations.append(game.observe())
        if refused:
            raise _Failed(f"refused legal events on the small board: {', '.join(refused)}: every run would test "
                          f"nothing of them (rulesfuzz run exits 2, status refused)")
        done = len(events) - len(declined)
        return f"{done} legal events performed" + (f", {len(declined)} declined: {', '.join(declined)}" if declined else "")

    def plain_json(self) -> str:
        from invariants.generic import observation_problems

        if not self.observations:
            raise _Failed("no observation was seen")
        for i, obs in enumerate(self.observations):
            try:
                again = json.loads(json.dumps(obs))
            except (TypeError, ValueError) as exc:
                raise _Failed(f"observation {i} is not JSON: {exc}") from None
            if again != obs:
                raise _Failed(f"observation {i} changes in a JSON round trip (tuples, non-string keys?)")
            problems = schemas.problems(obs, "observation") or observation_problems(obs)
            if problems:
                raise _Failed(f"observation {i}: " + "; ".join(problems[:3]))
        return f"{len(self.observations)} observations, each plain JSON with the required fields"


class _Failed(RulesfuzzError):
    """A check that did not hold; the message says why."""


def redundant_claims(info) -> dict[str, str]:
    """The capabilities ``info`` claims that its declared cards imply anyway (capability -> the
    card and why, :func:`harness.generation.plan.implied_capabilities`): accepted, but claiming them no
    longer changes what is checked. Empty for ``cards=None`` (the curated pool follows claims)."""
    if getattr(info, "cards", None) is None and not getattr(info, "card_definitions", ()):
        return {}
    from harness.generation.plan import Plan

    claimed = frozenset(info.capabilities)
    found = {}
    for cap in sorted(claimed):
        plan = Plan.of(claimed - {cap}, getattr(info, "cards", None), getattr(info, "card_definitions", ()) or (),
                       getattr(info, "counter_kinds", None))
        if cap in plan.implied:
            found[cap] = plan.implied[cap].split(":")[0]
    return found


def check(engine) -> list[CheckResult]:
    """Run the checklist on ``engine`` (any protocol engine); one :class:`CheckResult` per check."""
    return Checklist(engine).run()
