"""Steps, edicts and small actions: the ``begin_step`` and ``edict`` events, 704.5b.

Capabilities ``steps`` (``begin_step``), ``sba.empty_library`` (704.5b) and ``edict``
(``harness.protocol``). Three more small actions live where their events are: a
``put_onto_battlefield`` with ``"tapped": true`` (capability ``put_onto_battlefield.tapped``,
:func:`reference_engine.events.put_onto_battlefield`), a ``damage`` event of 0
(``damage.zero``, :meth:`StepRules.deal_no_damage`) and flips and rolls by several players
(``chance.players``, :mod:`reference_engine.chance`).

``{"type": "begin_step", "step": "upkeep" | "draw", "player": P}``: the step of P's turn
begins, P being the active player (the harness says whose step it is, as ``begin_turn`` says
whose turn; the board's first player stays first in APNAP order). The previous step ended, so
mana pools empty (CR 500.4, 106.4). Then:

* upkeep (CR 503.1): no turn-based action; the "At the beginning of your upkeep" abilities of
  the permanents P controls trigger (503.1a, 603.2) and are put on the stack and resolve like
  any triggered ability (``harness.protocol``: part of the event).
* draw (CR 504.1): the "At the beginning of your draw step" abilities of P's permanents
  trigger, then P draws a card (a turn-based action, no stack): the top card of their library
  (its first library card, 121.2) goes to their hand, logged as a ``zone_change`` with cause
  ``{"event": "draw", "by": "draw step"}``. From an empty library P draws nothing and loses
  the game the next time state-based actions are checked (704.5b: logged ``player_lost`` with
  rule ``"704.5b"``), at once, before the abilities that triggered resolve (104.3).

Declined (``Unsupported``, before anything changes): a draw from a library a search shuffled
(its top card is unknown), an ability of the step whose draws need more cards than the library
has (a card effect's draw from too small a library is not modelled, unlike the draw step's),
and Contamination's upkeep ability (:mod:`reference_engine.unmodelled`).

``{"type": "edict", "player": P, "filter": "creature"}``: "target player sacrifices a
creature" (CR 701.17a): P chooses one of the creatures they control (decider kind
``"edict"``, options their ids; nobody is asked when there is one) and sacrifices it; a
player who controls none sacrifices nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness import decisions as D
from .errors import IllegalAction, Unsupported
from .layers import characteristics

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

#: ``begin_step``'s steps -> the trigger condition of the card models' abilities
#: (:mod:`cards.model`: "At the beginning of your upkeep" / "... your draw step").
STEP_TRIGGERS = {"upkeep": "upkeep", "draw": "draw step"}
#: The ``by`` of the draw step's ``zone_change`` cause.
DRAW_STEP = "draw step"
#: The filters of ``edict`` (the permanents the player may sacrifice).
EDICT_FILTERS = ("creature",)


def _player(game: GameBase, event) -> str:
    player = event.get("player")
    if not isinstance(player, str) or player not in game.players:
        raise IllegalAction("bad_event", f"player={player!r} is not a player")
    return player


def begin_step(game: GameBase, event):
    """Validate a ``begin_step`` event; return ``perform(decider)`` (module docstring)."""
    player = _player(game, event)
    step = event.get("step")
    if step not in STEP_TRIGGERS:
        raise IllegalAction("bad_event", f"step={step!r}: expected one of {list(STEP_TRIGGERS)}")
    game.decline_step(player, step)
    return lambda decider: game.begin_step(player, step, decider)


def edict(game: GameBase, event):
    """Validate an ``edict`` event; return ``perform(decider)`` (module docstring)."""
    player = _player(game, event)
    kind = event.get("filter")
    if kind not in EDICT_FILTERS:
        raise IllegalAction("bad_event", f"filter={kind!r}: expected one of {list(EDICT_FILTERS)}")
    return lambda decider: game.edict(player, kind, decider)


#: Event handlers of this module, added to ``reference_engine.events.HANDLERS``.
HANDLERS = {"begin_step": begin_step, "edict": edict}


class StepRules(GameBase):
    """Steps, 704.5b, edicts and 0 damage, a mixin of :class:`reference_engine.game.Game`."""

    # ------------------------------------------------------------ steps
    def step_abilities(self, player: str, step: str) -> list:
        """(permanent, card model ability) of each "at the beginning of your <step>" ability of
        a permanent ``player`` controls, in timestamp order (read from card models)."""
        found = []
        for obj in self.battlefield():
            if obj.controller != player:
                continue
            model = self.copiable_values(obj)[1].model
            if model is not None:
                found += [(obj, a) for a in model.of("triggered") if a.trigger == STEP_TRIGGERS[step]]
        return found

    def decline_step(self, player: str, step: str) -> None:
        """Raise Unsupported where the step would need what the engine doesn't model (module
        docstring); changes nothing."""
        library = [o for o in self.objects.values() if o.zone == "library" and o.owner == player]
        draws = sum(e.amount for _, a in self.step_abilities(player, step) for e in a.effects if e.action == "draw")
        if step == "draw":
            if not library:
                return  # 704.5b: the player loses before any ability of the step resolves
            draws += 1
        if draws and player in self.shuffled_libraries:
            raise Unsupported("ability:shuffle", f"{player}'s library was shuffled: its top card is unknown")
        if draws > len(library):
            raise Unsupported("rule:draw from an empty library", f"the {step} step's abilities would draw {draws} "
                                                                  f"card(s) from {player}'s library of {len(library)}")

    def begin_step(self, player: str, step: str, decider) -> None:
        """The ``step`` of ``player``'s turn begins (CR 500.4, 503.1, 504.1): pools empty, its
        abilities trigger, and in the draw step ``player`` draws a card."""
        self.empty_mana_pools()
        self.beginning_of_step_triggers(player, step)
        if step == "draw":
            self.draw_step_draw(player)

    def beginning_of_step_triggers(self, player: str, step: str) -> None:
        """"At the beginning of your upkeep / draw step" abilities of the permanents ``player``
        controls trigger (CR 503.1a, 504.2, 603.2)."""
        seen = set()
        for obj, _ in self.step_abilities(player, step):
            if obj.id not in seen:
                seen.add(obj.id)
                self.model_triggers(obj, STEP_TRIGGERS[step])

    def draw_step_draw(self, player: str) -> None:
        """The draw step's turn-based action (CR 504.1): ``player`` draws a card; from an empty
        library they draw nothing and lose at the next state-based action check (704.5b)."""
        if not any(o.zone == "library" and o.owner == player for o in self.objects.values()):
            self.empty_library_draws().add(player)
            return
        self.draw_cards(player, 1, DRAW_STEP)

    def empty_library_draws(self) -> set:
        """The players who attempted to draw from an empty library since state-based actions
        were last checked (CR 704.5b)."""
        found = self.__dict__.get("_empty_library_draws")
        if found is None:
            found = self.__dict__["_empty_library_draws"] = set()
        return found

    def lose_for_empty_library(self) -> bool:
        """The 704.5b state-based action: each player who attempted to draw from an empty library
        since the last check loses (logged ``player_lost``, rule ``"704.5b"``). Returns whether
        any did."""
        waiting = self.empty_library_draws()
        if not waiting:
            return False
        performed = False
        for pid in [p for p in self.players if p in waiting]:
            if not self.players[pid].lost:
                self.players[pid].lost = True
                self.log.append({"kind": "player_lost", "player": pid, "rule": "704.5b"})
                performed = True
        waiting.clear()
        return performed

    # ------------------------------------------------------------ edicts
    def edict(self, player: str, kind: str, decider) -> None:
        """"``player`` sacrifices a creature" (CR 701.17a): they choose one of the creatures they
        control and sacrifice it; nothing if they control none."""
        options = [o.id for o in self.battlefield() if o.controller == player and characteristics(self, o).is_creature]
        if not options:
            return
        self.sacrifice(self.objects[self.edict_choice(player, options, decider)])

    def edict_choice(self, player: str, options: list[str], decider) -> str:
        """The player an edict instructs chooses what to sacrifice (decider kind ``"edict"``;
        nobody is asked about one option)."""
        if len(options) == 1:
            return options[0]
        answer = decider.choose(player, D.EDICT, options)
        if answer not in options:
            raise ValueError(f"decider answered {answer!r}, not one of {options}")
        return answer

    # ------------------------------------------------------------ 0 damage
    def deal_no_damage(self, source: str, target: str) -> None:
        """A source that would deal 0 damage deals no damage at all (CR 120.8): nothing is dealt,
        marked or lost, deathtouch and lifelink don't apply (702.2b, 702.15b: they need damage
        dealt), no "dealt damage" ability triggers; nothing is logged."""
        return None

