"""Coins and dice (CR 705, 706): flips, rolls, and the effects that replace or watch them.

Two events instruct a player to use chance: ``flip_coins`` ("P flips N coins", each coin
its own flip, CR 705) and ``roll_dice`` ("P rolls N K-sided dice", one roll of N dice,
CR 706.1). Every coin and every die goes through the decider (``flip_coin``,
``roll_die``); the engine never draws anything itself. When the effect needs a winner
(CR 705.2) the player calls heads or tails first (decider kind ``"coin_call"``).

Before a flip or roll happens, the replacement effects that apply to it are applied one
at a time, the affected player choosing which next (CR 616.1, 616.1e, 616.1f; decider
kind ``"replacement_effect"``, options ``"<effect>:<source id>"``, plus ``"none"`` when
every applicable one is optional). Each gets one opportunity to affect the event and the
events that replace it (CR 614.5):

* Krark's Thumb, "If you would flip a coin, instead flip two coins and ignore one":
  its controller's flips only; which coin to keep is the controller's choice (decider
  kind ``"coin_kept"``, options the distinct results, asked only when they differ).
* Pixie Guide, "If you would roll one or more dice, instead roll that many dice plus
  one and ignore the lowest roll": each Pixie Guide adds a die and ignores the lowest
  of them (ties: the earliest of the lowest, CR 706.6; the tied dice are alike).
* Pokey, the Scallywagg (rulings 2024-11-08; unpublished Oracle text, see
  :mod:`reference_engine.unpublished`): its second ability may replace a coin flip
  with a d20 roll, whose result the original effect sees as tails (1-10) or heads
  (11-20); its third ability may replace a d20 roll with a coin flip, seen as 20
  (heads) or 1 (tails). After a replacement every other effect sees what actually
  happens: a roll, not a flip (Pixie Guide and Brazen Dwarf apply, Krark's Thumb and
  Tavern Scoundrel don't), or the reverse. Both abilities may apply to one event, once
  each ("the nonsense stops there").

This engine's reading where the rulings are silent (each documented in one place):

* Pokey's abilities apply to an instruction to flip *one* coin or roll *one* d20: once
  Krark's Thumb made it two coins, or Pixie Guide made it several dice, or for an
  instruction to roll several d20s, they no longer apply. Likewise Krark's Thumb applies
  to a flip of one coin (its own modified event, two coins, is not flipped again).
* A coin flipped instead of a d20 roll (Pokey's third ability) is called: the rulings
  have Tavern Scoundrel ("whenever you win a coin flip") trigger after it, so it can be
  won (CR 705.2). An instruction has one call: a flip that was called keeps its call.

An ignored flip or roll never happened (CR 706.6; the same for coins): nothing triggers
on it and no effect applies to it. Log entries (``harness.protocol``): ``coin_flip`` and
``die_roll`` for every coin and die, including the instructions that were replaced
(``"replaced"``: the kind of event they became) and what the original effect saw;
``replacement`` for each replacement effect applied.

Tavern Scoundrel's activated ability, "{1}, {T}, Sacrifice another permanent: Flip a coin."
(the ``activate`` event, :mod:`reference_engine.activation`): the permanent sacrificed is
chosen as the cost is paid (CR 601.2h; decider kind ``"sacrifice"``, options the other
permanents its controller controls), and the flip is called (CR 705.2: the effect doesn't
care only about heads or tails).

Triggered abilities: Tavern Scoundrel, "Whenever you win a coin flip, create two Treasure
tokens" (ids ``"<source>.treasure1"``, ``"<source>.treasure2"``); Brazen Dwarf,
"Whenever you roll one or more dice, this creature deals 1 damage to each opponent".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast
from collections.abc import Callable

from dataclasses import dataclass
from operator import attrgetter

from harness import decisions as D
from .abilities import FLIP_A_COIN
from .cards import TOKEN_DEFS
from .errors import IllegalAction
from .layers import copiable_scripts
from .model_targets import deal_damage_from
from .objects import BATTLEFIELD, GameObject, Trigger
from .records import ChanceEvent

if TYPE_CHECKING:
    from .cards import CardScript
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

COIN = (D.HEADS, D.TAILS)


def _single_flip(e: ChanceEvent) -> bool:
    return e.kind == "flip" and e.count == 1 and e.ignore == 0


def _single_d20(e: ChanceEvent) -> bool:
    return e.kind == "roll" and e.count == 1 and e.sides == 20 and e.ignore == 0


@dataclass(frozen=True, slots=True)
class Replacement:
    """A replacement effect on flips or rolls: ``label`` (the decider option's stem),
    ``optional`` ("you may"), ``applies(event)`` and ``apply(event) -> event``."""

    label: str
    optional: bool
    applies: Callable[[ChanceEvent], bool]
    apply: Callable[[ChanceEvent], ChanceEvent]


#: The replacement effects of the card scripts' ``chance_replacements``, by name.
REPLACEMENTS: dict[str, Replacement] = {
    "thumb": Replacement("Krark's Thumb", False, _single_flip, lambda e: ChanceEvent("flip", 2, 2, 1)),
    "advantage": Replacement("Pixie Guide", False, lambda e: e.kind == "roll",
                             lambda e: ChanceEvent("roll", e.count + 1, e.sides, e.ignore + 1)),
    "pokey: flip to d20": Replacement("Pokey: roll a d20 instead", True, _single_flip,
                                      lambda e: ChanceEvent("roll", 1, 20)),
    "pokey: d20 to flip": Replacement("Pokey: flip a coin instead", True, _single_d20,
                                      lambda e: ChanceEvent("flip")),
}

#: Triggered abilities of the card scripts' ``chance_trigger``: name -> what it does.
TRIGGERS = {
    "win a coin flip": "create two Treasures",  # Tavern Scoundrel
    "roll one or more dice": "1 damage to each opponent",  # Brazen Dwarf
}


def d20_as_coin(value: int) -> str | None:
    """What the original effect sees for a flip replaced by a d20 roll (Pokey ruling
    2024-11-08): tails for 1-10, heads for 11-20, neither otherwise."""
    return "tails" if 1 <= value <= 10 else "heads" if 11 <= value <= 20 else None


def coin_as_d20(result: str | None) -> int | None:
    """What the original effect sees for a d20 roll replaced by a flip (Pokey ruling
    2024-11-08): 20 for heads, 1 for tails."""
    return 20 if result == "heads" else 1 if result == "tails" else None


def _player(game: GameBase, event) -> str:
    player = event.get("player")
    if not isinstance(player, str) or player not in game.players:
        raise IllegalAction("bad_event", f"player={player!r} is not a player")
    return player


def _positive(event, key) -> int:
    value = event.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise IllegalAction("bad_event", f"{key}: expected an integer >= 1, got {value!r}")
    return value


def _players(game: GameBase, event, player: str) -> list[str]:
    """The ``players`` who each flip or roll (capability ``chance.players``): distinct players,
    ``player`` first; ``[player]`` without it."""
    players = event.get("players")
    if players is None:
        return [player]
    if not isinstance(players, list) or not players or players[0] != player or len(set(players)) != len(players) \
            or not all(isinstance(p, str) and p in game.players for p in players):
        raise IllegalAction("bad_event", f"players: expected distinct players starting with {player!r}, got "
                                         f"{players!r}")
    return players


def flip_coins(game: GameBase, event):
    """``{"type": "flip_coins", "player": P, "count": N, "calls": bool}``: an effect
    instructs P to flip N >= 1 coins, one at a time (CR 705). With ``calls`` P calls
    each one and wins it if the call matches (CR 705.2); without, nobody wins or loses. With
    ``"players": [P, Q, ...]`` (capability ``chance.players``) each of them flips N coins, in
    that order, each with their own replacement effects (Krark's Thumb: "if *you* would flip")."""
    player = _player(game, event)
    players = _players(game, event, player)
    count = _positive(event, "count")
    calls = event.get("calls")
    if not isinstance(calls, bool):
        raise IllegalAction("bad_event", f"calls: expected true or false, got {calls!r}")
    return lambda decider: game.instruct_players(players, ChanceEvent("flip"), count, calls, decider)


def roll_dice(game: GameBase, event):
    """``{"type": "roll_dice", "player": P, "count": N, "sides": K}``: an effect instructs
    P to roll N >= 1 K-sided dice (K >= 1, CR 706.1a), one roll of N dice. With ``"players":
    [P, Q, ...]`` (capability ``chance.players``) each of them rolls, in that order."""
    player = _player(game, event)
    players = _players(game, event, player)
    count = _positive(event, "count")
    sides = _positive(event, "sides")
    return lambda decider: game.instruct_players(players, ChanceEvent("roll", count, sides), 1, False, decider)


#: What :meth:`ChanceRules._chance_sources_having` reads of a script: its replacement effects on
#: flips and rolls, its ability that triggers on one.
_CHANCE_REPLACEMENTS = attrgetter("chance_replacements")
_CHANCE_TRIGGER = attrgetter("chance_trigger")

#: Event handlers of this module, added to ``reference_engine.events.HANDLERS``.
HANDLERS = {"flip_coins": flip_coins, "roll_dice": roll_dice}


class ChanceRules(GameBase):
    """Coins and dice, a mixin of :class:`reference_engine.game.Game`."""

    def has_abilities(self, obj: GameObject) -> bool:
        """Whether the permanent has its abilities now (a hook: an effect that removes all
        abilities, CR 613.1f, overrides it)."""
        return True

    def chance_sources(self, player: str) -> list[tuple[GameObject, CardScript]]:
        """(permanent, its script) for each permanent ``player`` controls that has its
        abilities, in timestamp order; copies have the abilities they copy (CR 707.2)."""
        return [(o, self.copiable_values(o)[1]) for o in self.battlefield()
                if o.controller == player and self.has_abilities(o)]

    def _chance_sources_having(self, player: str, having: Callable[[CardScript], object]) \
            -> list[tuple[GameObject, CardScript]]:
        """:meth:`chance_sources` of ``player`` whose script has what ``having(script)`` reads (a true
        value), in the same order. With this class's ``chance_sources``, the permanents' scripts are
        read first (:func:`reference_engine.layers.copiable_scripts`, found once per state), and only
        those that have it are asked whether they have their abilities; a fork's ``chance_sources``
        is called."""
        if type(self).chance_sources is not ChanceRules.chance_sources:
            return [(o, script) for o, script in self.chance_sources(player) if having(script)]
        return [(o, script) for o, script in copiable_scripts(self)
                if having(script) and o.controller == player and self.has_abilities(o)]

    def chance_replacements(self, player: str) -> list[tuple[str, str, Replacement]]:
        """(source id, option label, replacement) of each replacement effect on ``player``'s
        flips and rolls: those of permanents ``player`` controls (each card says "you")."""
        return [(obj.id, f"{REPLACEMENTS[name].label}:{obj.id}", REPLACEMENTS[name])
                for obj, script in self._chance_sources_having(player, _CHANCE_REPLACEMENTS)
                for name in script.chance_replacements]

    def instruct_players(self, players: list[str], start: ChanceEvent, instructions: int, calls: bool,
                         decider) -> None:
        """An effect instructs each of ``players``, in order, to flip ``instructions`` coins one at a
        time (instructions 1..N) or to make one roll (``start``): each flip or roll is that player's,
        with the replacement effects that player's permanents have (CR 705.2, 706.1, 614.1a)."""
        for player in players:
            for i in range(1, instructions + 1):
                self.chance_instruction(player, start, calls, i, decider)

    def chance_instruction(self, player: str, start: ChanceEvent, calls: bool, instruction: int, decider):
        """Carry out one instruction to flip a coin or roll dice, with its replacement effects.

        Returns what the original effect sees: ``"heads"``/``"tails"`` (or None) for a
        flip, the list of results not ignored for a roll. Logs the instructions that were
        replaced (a ``coin_flip`` or ``die_roll`` entry each, with what the effect that
        gave it saw), then one entry per coin or die that was actually flipped or rolled;
        then the abilities that trigger on them trigger (CR 603.2).
        """
        call = decider.choose(player, D.COIN_CALL, list(COIN)) if start.kind == "flip" and calls else None
        own_call = call  # the call the instructed flip was made with
        chain, event = self.apply_chance_replacements(player, start, decider)
        replaced = [before for before, r in chain if r.apply(before).kind != before.kind]
        if event.kind == "flip" and call is None and any(before.kind == "roll" for before in replaced):
            call = decider.choose(player, D.COIN_CALL, list(COIN))  # see the module docstring
        seen: str | list[int] | list[int | None] | None  # what the original effect sees (a flip's result, a roll's)
        if event.kind == "flip":
            seen, entries = self.flip(player, event, call, instruction, decider)
        else:
            seen, entries = self.roll(player, event, instruction, decider)
        happened = list(entries)
        for before in reversed(replaced):
            if before.kind == "flip":  # replaced by a d20 roll (Pokey's second ability)
                rolled = cast("list[int]", seen)  # the d20 roll that replaced it
                seen = d20_as_coin(rolled[0]) if rolled else None
                entries.insert(0, {"kind": "coin_flip", "player": player, "instruction": instruction,
                                   "result": seen, "call": own_call,
                                   "won": (seen == own_call) if own_call and seen else None,
                                   "ignored": False, "replaced": "die_roll"})
            else:  # a d20 roll replaced by a flip (Pokey's third ability)
                seen = [coin_as_d20(cast("str | None", seen))]  # the flip that replaced it
                entries.insert(0, {"kind": "die_roll", "player": player, "instruction": instruction, "sides": 20,
                                   "natural": None, "result": seen[0], "ignored": False, "replaced": "coin_flip"})
        self.log.extend(entries)
        for entry in happened:
            if entry["kind"] == "coin_flip" and entry["won"]:
                self.chance_triggers(player, "win a coin flip")
        if event.kind == "roll":
            self.chance_triggers(player, "roll one or more dice")
        return seen

    def apply_chance_replacements(self, player: str, event: ChanceEvent, decider):
        """Apply the replacement effects that apply to ``event``, one at a time, ``player``
        choosing which next (CR 616.1e, 616.1f), each at most once (CR 614.5).

        Returns (chain, final event): chain is [(event before, replacement applied)].
        """
        used: set[str] = set()
        chain = []
        while True:
            applicable = [(source, label, r) for source, label, r in self.chance_replacements(player)
                          if label not in used and r.applies(event)]
            if not applicable:
                break
            options = [label for _, label, _ in applicable]
            if all(r.optional for _, _, r in applicable):
                options.append(D.NONE)
            answer = options[0] if len(options) == 1 else decider.choose(player, D.REPLACEMENT_EFFECT, options)
            if answer not in options:
                raise ValueError(f"decider answered {answer!r}, not one of {options}")
            if answer == D.NONE:
                break
            source, label, r = applicable[options.index(answer)]
            used.add(label)
            self.log.append({"kind": "replacement", "effect": r.label, "source": source, "affected": player})
            chain.append((event, r))
            event = r.apply(event)
        return chain, event

    def flip(self, player: str, event: ChanceEvent, call: str | None, instruction: int,
             decider) -> tuple[str, list[dict]]:
        """Flip ``event.count`` coins; with more than one (Krark's Thumb), keep one and ignore
        the rest, which never happened. Returns the kept result and a ``coin_flip`` log
        entry per coin: the kept one is won if it matches ``call`` (CR 705.2)."""
        results = [decider.flip_coin(player) for _ in range(event.count)]
        for r in results:
            if r not in COIN:
                raise ValueError(f"decider flipped {r!r}, not heads or tails")
        kept = 0
        if len(set(results)) > 1:
            options = list(dict.fromkeys(results))
            answer = decider.choose(player, D.COIN_KEPT, options)
            if answer not in options:
                raise ValueError(f"decider answered {answer!r}, not one of {options}")
            kept = results.index(answer)
        entries = []
        for i, result in enumerate(results):
            ignored = i != kept
            entries.append({"kind": "coin_flip", "player": player, "instruction": instruction, "result": result,
                            "call": None if ignored else call,
                            "won": None if ignored or call is None else result == call,
                            "ignored": ignored, "replaced": None})
        return results[kept], entries

    def roll(self, player: str, event: ChanceEvent, instruction: int, decider) -> tuple[list[int], list[dict]]:
        """Roll ``event.count`` dice, ignoring the ``event.ignore`` lowest (CR 706.6).
        Returns the results not ignored, in the order rolled, and a ``die_roll`` log entry
        per die."""
        results = [decider.roll_die(player, event.sides) for _ in range(event.count)]
        for r in results:
            if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= event.sides:
                raise ValueError(f"decider rolled {r!r} on a d{event.sides}")
        ignored = set(sorted(range(len(results)), key=lambda i: (results[i], i))[:event.ignore])
        entries = [{"kind": "die_roll", "player": player, "instruction": instruction, "sides": event.sides,
                    "natural": result, "result": result, "ignored": i in ignored, "replaced": None}
                   for i, result in enumerate(results)]
        return [r for i, r in enumerate(results) if i not in ignored], entries

    def chance_triggers(self, player: str, what: str) -> None:
        """Abilities of ``player``'s permanents that trigger on ``what`` (CR 603.2)."""
        for obj, script in self._chance_sources_having(player, _CHANCE_TRIGGER):
            if script.chance_trigger == what:
                self.trigger(Trigger(obj.id, obj.controller, what, TRIGGERS[what]))

    # ------------------------------------------------ Tavern Scoundrel's activated ability
    SACRIFICE_ANOTHER = "Sacrifice another permanent"

    def check_other_cost(self, obj: GameObject, ability, part: str, player: str) -> None:
        """"Sacrifice another permanent": ``player`` must control another permanent (CR 601.2h)."""
        if part != self.SACRIFICE_ANOTHER:
            return super().check_other_cost(obj, ability, part, player)
        if not any(o.controller == player and o.id != obj.id for o in self.battlefield()):
            raise IllegalAction("no_sacrifice", f"{player} controls no other permanent to sacrifice")
        return None

    def pay_other_cost(self, obj: GameObject, ability, part: str, player: str, decider) -> None:
        """Sacrifice the other permanent ``player`` chooses (decider kind ``"sacrifice"``, CR 701.17a)."""
        if part != self.SACRIFICE_ANOTHER:
            return super().pay_other_cost(obj, ability, part, player, decider)
        options = [o.id for o in self.battlefield() if o.controller == player and o.id != obj.id]
        answer = options[0] if len(options) == 1 else decider.choose(player, D.SACRIFICE, options)
        if answer not in options:
            raise ValueError(f"decider answered {answer!r}, not one of {options}")
        self.sacrifice(self.objects[answer])
        return None

    def resolve_activated_ability(self, obj: GameObject, ability, player: str, targets: list[str], decider) -> None:
        """Tavern Scoundrel's "Flip a coin." resolves: one called flip by its controller."""
        if ability.kind != FLIP_A_COIN:
            return super().resolve_activated_ability(obj, ability, player, targets, decider)
        self.log.append({"kind": "ability_resolved", "object": obj.id, "ability": ability.index, "targets": []})
        self.chance_instruction(player, ChanceEvent("flip"), True, 1, decider)
        return None

    def resolve_trigger(self, trigger: Trigger, decider) -> None:
        """Tavern Scoundrel's and Brazen Dwarf's abilities resolve; others as before."""
        if trigger.kind == "create two Treasures":
            definition, script = TOKEN_DEFS["Treasure"]
            for i in (1, 2):
                self.create_token(self.new_token_id(f"{trigger.source}.treasure{i}"), definition, script,
                                  trigger.controller, trigger.source)
        elif trigger.kind == "1 damage to each opponent":
            source = self.objects.get(trigger.source)
            source = source if source is not None and source.zone == BATTLEFIELD else None
            for opponent in self.players:
                if opponent != trigger.controller:
                    deal_damage_from(self, trigger.source, source, opponent, 1)
        else:
            super().resolve_trigger(trigger, decider)

