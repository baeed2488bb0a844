"""The engine protocol: what rulesfuzz needs from a rules engine, and nothing more.

An engine is any object of this shape (a :class:`typing.Protocol`: no subclassing):

``engine.info``
    :class:`EngineInfo`: name, version and the capabilities it claims. Invariants and
    generators are selected by capability, never by engine name.
``engine.new_game(board) -> game``
    Builds a game from a board (JSON shape below). A board it cannot build raises
    any exception whose message says which field is wrong.
``game.apply(event, decider) -> None``
    Performs one event and everything that follows: replacement effects, state-based
    actions to a fixed point, triggered abilities. An illegal attempt raises
    :class:`IllegalAction` and leaves the game unchanged.
``game.observe() -> Observation``
    Plain JSON-serialisable data (shape below), with the log of the last event.

Choices and chance are inputs: every player choice and every coin flip or die roll goes
through ``decider``, a :class:`Decider`. An engine that calls :mod:`random` can't be
fuzzed reproducibly.

Board (``BoardSpec``)::

    {"players": [{"id": "P1", "life": 20}, {"id": "P2", "life": 20}],
     "objects": [{"id": "o1", "card": "Grizzly Bears", "zone": "battlefield",
                  "owner": "P1", "controller": "P1", "tapped": false,
                  "summoning_sick": false, "damage": 0, "counters": {},
                  "attached_to": null, "token": false, "combat": null,
                  "regeneration_shields": 0}]}

Objects are listed in timestamp order (CR 613.7d); ``card`` is an Oracle name.

Events (``Event``), the harness's vocabulary, like a judge's test scenario:

* ``{"type": "cast", "card": NAME, "controller": P, "targets": [ID or P]}``: an instant
  or sorcery resolves (Murder, Doom Blade, Breathe Your Last, Wrath of God, Shock,
  Lightning Bolt, Giant Growth).
* ``{"type": "damage", "source": ID, "target": ID or P, "amount": N}``: a permanent
  deals damage (deathtouch and lifelink from its abilities).
* ``{"type": "destroy", "targets": [ID...], "cant_be_regenerated": bool}``: an effect
  destroys all targets at once (CR 701.7).
* ``{"type": "sacrifice", "object": ID}`` (CR 701.17).
* ``{"type": "modify_pt", "object": ID, "power": N, "toughness": N}``: +N/+N or
  -N/-N until end of turn (CR 613.4c).
* ``{"type": "put_onto_battlefield", "id": NEW_ID, "card": NAME, "controller": P,
  "attach_to": ID or null}``.
* ``{"type": "attach", "aura": ID, "to": ID}`` (CR 303.4j, 613.7e).
* ``{"type": "activate_regeneration", "object": ID}`` (CR 701.15a).
* ``{"type": "set_combat", "object": ID, "status": "attacking" | "blocking" | null}``.
* ``{"type": "cleanup"}``: the cleanup step (CR 514.2).

Observation::

    {"players": {"P1": {"life": 20, "lost": false}, ...},
     "objects": {"o1": {"name", "zone", "owner", "controller", "token", "tapped",
                        "summoning_sick", "damage", "counters", "attached_to",
                        "combat", "regeneration_shields", "supertypes", "types",
                        "subtypes", "colors", "keywords", "power", "toughness"}},
     "zones": {"battlefield": [ID...], "graveyard": {"P1": [ID...]}, "hand": ...,
               "library": ..., "exile": ...},
     "log": [entry, ...]}

Characteristics are the computed ones, after all layers (CR 613). An object keeps its
id across zone changes. Log entries (``kind`` first):

* ``zone_change``: ``object``, ``from``, ``to`` (null when a token ceases to exist or an
  object is created), ``cause``: ``{"event": "destroy", "by": NAME or RULE}``,
  ``{"event": "sacrifice", "by": P}``, ``{"event": "state_based_action", "rule": RULE}``,
  ``{"event": "put_onto_battlefield"}``.
* ``replacement``: ``effect`` ("umbra armor" with ``source`` the Aura, or
  "regeneration"), ``affected``.
* ``damage`` (``source``, ``target``, ``amount``, ``deathtouch``), ``damage_removed``
  (``object``, ``amount``), ``tapped``, ``removed_from_combat``, ``life_gained``,
  ``player_lost``, ``attached``, ``regeneration_shield``, ``counters_removed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, runtime_checkable

Observation = dict[str, Any]
Event = dict[str, Any]
BoardSpec = dict[str, Any]


class IllegalAction(Exception):
    """Raised by ``game.apply`` for an event the rules don't allow; the game is unchanged.

    ``reason`` is a short code such as ``"not_on_battlefield"`` or ``"illegal_target"``.
    """

    def __init__(self, reason: str, message: str = ""):
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason


@dataclass(frozen=True)
class EngineInfo:
    """An engine's name, version and claimed capabilities (a frozenset of strings).

    Capabilities used today: ``destroy``, ``sacrifice``, ``damage``, ``deathtouch``,
    ``indestructible``, ``regeneration``, ``umbra_armor``, ``legend_rule``,
    ``combat_status``, ``pt_until_end_of_turn``, ``cleanup``,
    ``log.zone_change_causes``, ``log.replacement_effects``.
    ``ignored_fields`` names observation fields the engine does not model; the
    differential oracle does not compare them.
    """

    name: str
    version: str
    capabilities: frozenset[str]
    ignored_fields: frozenset[str] = field(default_factory=frozenset)


@runtime_checkable
class Decider(Protocol):
    """Answers every choice and every random outcome an engine needs.

    ``choose(player, kind, options)`` returns one element of ``options`` (a list of
    strings); ``kind`` names the choice (``"replacement_effect"`` for CR 616.1,
    ``"legend_rule"`` for CR 704.5j). ``flip_coin(player)`` returns ``"heads"`` or
    ``"tails"``; ``roll_die(player, sides)`` returns an int in 1..sides.
    """

    def choose(self, player: str, kind: str, options: Sequence[str]) -> str: ...

    def flip_coin(self, player: str) -> str: ...

    def roll_die(self, player: str, sides: int) -> int: ...


@runtime_checkable
class Game(Protocol):
    """A game in progress: see the module docstring."""

    def apply(self, event: Event, decider: Decider) -> None: ...

    def observe(self) -> Observation: ...


@runtime_checkable
class Engine(Protocol):
    """A rules engine: ``info`` and ``new_game(board)``."""

    info: EngineInfo

    def new_game(self, board: BoardSpec) -> Game: ...
