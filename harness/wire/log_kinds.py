"""The log vocabulary: every kind of entry an observation's ``log`` may hold, its fields, and
every cause of a zone change.

An observation's ``log`` lists what the last event did, in order (``[{"kind": KIND, ...}]``).
:data:`KINDS` is the table of kinds, each with its fields and the CR rules it reports;
:data:`CAUSES` the shapes of a ``zone_change``'s ``cause``. Both are enforced: the harness
checks every observation's log against them (:func:`log_problems`, part of
``generic.observation_shape``), so an engine's entry of an unknown kind, without a required
field, with a field of the wrong type, or a zone change of an unknown cause is a finding
naming the entry and what exists; and the contract reference (``docs/reference.md``,
:mod:`harness.interfaces.contract`) renders them. A new kind of entry (or cause) is a row here.

Which entries a differential run compares, and with which capability, is
:data:`invariants.differential.LOG_KINDS` (a kind not there is always compared).

Nothing here imports the rest of the harness but :mod:`harness.wire.schemas` (for the event
types a cause may name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

__all__ = ["CAUSES", "Cause", "Field", "KINDS", "LogKind", "ZONES", "entry_problem", "log_problems"]

#: The zones an object may be in (CR 400.1); a ``zone_change``'s ``from``/``to`` is one, or null.
ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "stack")

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "boolean": (bool,), "object": (dict,), "array": (list,),
    "null": (type(None),),
}


@dataclass(frozen=True)
class Field:
    """One field of a log entry or a cause: ``types`` are JSON type names (``"string"``,
    ``"integer"``, ``"boolean"``, ``"object"``, ``"array"``, ``"null"``); a ``required``
    field is always present (checked); ``description`` says what it holds."""

    name: str
    types: tuple[str, ...]
    description: str
    required: bool = True

    @cached_property
    def exact_types(self) -> frozenset[type]:
        """The Python types all of whose values the field accepts (``str`` for ``"string"``,
        ``int`` for ``"integer"``, ...): a value of one is accepted without :meth:`accepts`' loop
        (a bool's type is ``bool``, not ``int``); any other is asked of :meth:`accepts`."""
        return frozenset(kind for name in self.types for kind in _JSON_TYPES[name])

    def accepts(self, value) -> bool:
        """Whether ``value`` has one of the field's JSON types (a bool is not an integer)."""
        for name in self.types:
            if name == "integer" and isinstance(value, int) and not isinstance(value, bool):
                return True
            if name != "integer" and isinstance(value, _JSON_TYPES[name]):
                return True
        return False


@dataclass(frozen=True)
class LogKind:
    """One kind of log entry: ``{"kind": kind, <fields>}``, what it reports (``summary``) and
    its CR ``rules``."""

    kind: str
    summary: str
    rules: tuple[str, ...]
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Cause:
    """One shape of a ``zone_change``'s ``cause``: ``{"event": event, <fields>}``."""

    event: str
    summary: str
    rules: tuple[str, ...]
    fields: tuple[Field, ...] = ()


def _f(name: str, types: str, description: str, required: bool = True) -> Field:
    return Field(name, tuple(types.split("|")), description, required)


_OBJECT = _f("object", "string", "the object's id")
_PLAYER = _f("player", "string", "the player's id")
_OBJECT_ON_STACK = _f("object", "string", "the id of the spell or ability (its `stack` entry's `id`)")
_MANA = "`{type: n}` with types `W` `U` `B` `R` `G` `C`"

#: Every kind of log entry, in the order the reference lists them.
KINDS: tuple[LogKind, ...] = (
    LogKind("zone_change", "an object moved from one zone to another, entered the game, or ceased to exist",
            ("400.1", "400.7", "111.7", "704.5d"), (
                _OBJECT,
                _f("from", "string|null", "the zone it left; null for an object that enters from outside the game "
                                          "(a card put onto the battlefield, a permanent spell that resolved, a "
                                          "token created); `stack` for a spell leaving the stack in a game with the "
                                          "stack (capability `stack`: it resolved, CR 608.2n, 608.3a, or didn't, "
                                          "608.2b)"),
                _f("to", "string|null", "the zone it entered; null when a token ceases to exist (CR 111.7, 704.5d: "
                                        "the token-ceases-to-exist entry follows the one that took it off the "
                                        "battlefield)"),
                _f("cause", "object", "why it moved: one of the causes below (with capability "
                                      "`log.zone_change_causes`; without it, may be left out)", required=False),
                _f("previous", "string", "a card that returns as a new object with a new id (capability `zones`, "
                                         "`flicker`): the id of the object it was (CR 400.7)", required=False),
            )),
    LogKind("replacement", "a replacement effect was applied to an event", ("614.1", "616.1"), (
        _f("effect", "string", "which: `umbra armor` (CR 702.89a), `regeneration` (701.15a), or a coin or die "
                               "effect's label (`Krark's Thumb`, `Pixie Guide`, `Pokey: roll a d20 instead`, ...)"),
        _f("source", "string", "the id of the object whose effect it is (the umbra Aura; absent for regeneration)",
           required=False),
        _f("affected", "string", "the object (or the player, for a coin or die) the event would have affected"),
    )),
    LogKind("damage", "damage was dealt", ("120.3", "120.4"), (
        _f("source", "string", "the id of the permanent that dealt it, or the spell's name for a spell (`Shock`)"),
        _f("target", "string", "the object or player dealt damage"),
        _f("amount", "integer", "how much"),
        _f("deathtouch", "boolean", "whether the source had deathtouch (CR 702.2)"),
        _f("combat", "boolean", "capability `combat`: true for combat damage (the `combat_damage` event, CR 510.2)",
           required=False),
    )),
    LogKind("damage_removed", "damage marked on a permanent was removed (umbra armor, regeneration, cleanup)",
            ("120.6", "702.89a", "701.15a", "514.2"), (
                _OBJECT, _f("amount", "integer", "how much damage was removed"),
            )),
    LogKind("tapped", "a permanent became tapped", ("701.26a",), (
        _OBJECT,
        _f("cause", "string", "`cost` ({T} or a mono cost, CR 107.5), `ability` (an ability's effect), `effect` "
                              "(a spell's or trigger's effect), `attack` (declared as an attacker, 508.1f); absent "
                              "when regeneration taps it (701.15a)",
           required=False),
    )),
    LogKind("untapped", "a permanent became untapped", ("701.26b", "502.3"), (
        _OBJECT,
        _f("cause", "string", "`cost` ({Q}, CR 107.6), `ability`, `effect`, or `untap step` (`begin_turn`, CR 502.3)",
           required=False),
    )),
    LogKind("removed_from_combat", "a creature was removed from combat (regeneration, a change of control)",
            ("506.4", "701.15a"), (_OBJECT,)),
    LogKind("life_gained", "a player gained life (a spell's effect, lifelink)", ("119.3", "702.15b"), (
        _PLAYER, _f("amount", "integer", "how much"),
    )),
    LogKind("life_lost", "a player lost life by an effect that says so (damage to a player is `damage`)",
            ("119.3",), (_PLAYER, _f("amount", "integer", "how much"))),
    LogKind("player_lost", "a player lost the game", ("104.3", "704.5a", "704.5b"), (
        _PLAYER, _f("rule", "string", "the rule: `704.5a` (0 or less life), `704.5b` (attempted to draw from an "
                                      "empty library)"),
    )),
    LogKind("attached", "an Aura or Equipment became attached to an object", ("303.4", "301.5", "613.7e"), (
        _OBJECT, _f("to", "string", "the id of the object it is now attached to"),
    )),
    LogKind("unattached", "an Equipment attached to anything but a creature became unattached", ("704.5n",), (
        _OBJECT, _f("rule", "string", "`704.5n`"),
    )),
    LogKind("regeneration_shield", "a permanent got a regeneration shield", ("701.15a",), (_OBJECT,)),
    LogKind("counters_added", "counters were put on a permanent (`add_counters`, \"enters with X +1/+1 counters\")",
            ("122.1", "107.3m"), (
                _OBJECT, _f("counter", "string", "the kind, e.g. `+1/+1`"), _f("amount", "integer", "how many"),
            )),
    LogKind("counters_removed", "+1/+1 and -1/-1 counters annihilated", ("704.5q", "122.3"), (
        _OBJECT, _f("rule", "string", "`704.5q`"),
        _f("amount", "integer", "N: N of each of +1/+1 and -1/-1 were removed"),
    )),
    LogKind("trigger", "a triggered ability triggered", ("603.2", "106.12a"), (
        _f("source", "string", "the id of the object whose ability it is"),
        _f("ability", "string", "which: `enters`, `dies`, `put into a graveyard`, `tapped for mana`, "
                                "`win a coin flip`, `roll one or more dice`, or a card model's trigger event"),
        _f("controller", "string", "the player who controls it"),
        _f("land", "string", "`tapped for mana` only: the id of the land tapped (CR 106.12a)", required=False),
    )),
    LogKind("trigger_removed", "a triggered ability (or an ability) did nothing for lack of a legal target",
            ("603.3d", "608.2b"), (
                _f("source", "string", "the id of the object whose ability it is"),
                _f("reason", "string", "`no legal target` (as it is put on the stack) or `illegal target` (as it "
                                       "resolves)"),
            )),
    LogKind("activated", "an activated ability was activated and its cost paid", ("602.2", "601.2h"), (
        _OBJECT, _f("ability", "integer", "its index among the object's activated abilities (the `activate` event)"),
        _PLAYER,
        _f("cost", "object", "the total cost paid: `{\"mana\": \"{2}{G/U}\", \"tap\": bool, \"untap\": bool, "
                             "\"other\": [...]}`"),
        _f("mana_ability", "boolean", "whether it is a mana ability (CR 605.1a)"),
    )),
    LogKind("ability_resolved", "an activated ability resolved", ("608.2",), (
        _OBJECT, _f("ability", "integer", "its index"), _f("targets", "array", "the ids of its targets"),
    )),
    LogKind("looked_at", "a player looked at a hidden card (the top card of a library)", ("401.2",), (
        _PLAYER, _OBJECT,
    )),
    LogKind("mana_produced", "a mana ability (or a triggered mana ability) produced mana", ("106.3", "106.12", "605"), (
        _PLAYER, _f("source", "string", "the id of the object whose ability produced it (CR 106.3)"),
        _f("ability", "integer|string", "its index, or `triggered` (Heartbeat of Spring, Mana Flare)"),
        _f("tapped_for_mana", "boolean", "whether the ability has {T} in its cost (CR 106.12)"),
        _f("produced", "object", f"before replacement effects: {_MANA}"),
        _f("mana", "object", f"added to the pool: {_MANA}"),
        _f("replacements", "array", "the labels of the replacement effects applied, in order (CR 106.12b)"),
    )),
    LogKind("mana_spent", "mana was spent from a pool to pay a cost", ("601.2h", "106.4"), (
        _PLAYER, _f("mana", "object", _MANA),
    )),
    LogKind("mana_lost", "unspent mana emptied from a pool at the end of a step", ("106.4", "500.4"), (
        _PLAYER, _f("mana", "object", _MANA),
    )),
    LogKind("coin_flip", "a coin was flipped (or a flip replaced)", ("705",), (
        _PLAYER, _f("instruction", "integer", "1, 2, ...: the coin of the event it belongs to"),
        _f("result", "string", "`heads` or `tails`"), _f("call", "string|null", "the call, or null"),
        _f("won", "boolean|null", "whether the call won; null when nobody wins (705.2) or the coin is ignored"),
        _f("ignored", "boolean", "whether an effect ignored it (Krark's Thumb: it never happened, 706.6)"),
        _f("replaced", "string|null", "null for a coin actually flipped; `die_roll` for a flip replaced by a d20 "
                                      "roll, whose `result` and `won` are what the original effect sees"),
    )),
    LogKind("die_roll", "a die was rolled (or a roll replaced)", ("706",), (
        _PLAYER, _f("instruction", "integer", "1, 2, ...: the die of the event it belongs to"),
        _f("sides", "integer", "its number of sides"),
        _f("natural", "integer|null", "the natural result (706.2), or null for a roll that never happened"),
        _f("result", "integer", "the result the effect sees"),
        _f("ignored", "boolean", "whether an effect ignored it"),
        _f("replaced", "string|null", "null, or `coin_flip` for a d20 roll replaced by a flip (20 for heads, 1 for "
                                      "tails)"),
    )),
    LogKind("put_on_stack", "capability `stack`: a spell was cast or an ability activated or put on the stack as it "
            "triggered (a game with the stack)", ("601.2a", "602.2a", "603.3", "405.2"), (
                _OBJECT_ON_STACK,
                _f("stack_kind", "string", "`spell` or `ability` (the observation's `stack` entry's `kind`)"),
                _f("controller", "string", "the player who controls it"),
                _f("targets", "array", "the ids of its targets, chosen as it was put on the stack (601.2c, 602.2b, "
                                       "603.3d)"),
            )),
    LogKind("resolved", "capability `stack`: the top object of the stack resolved after every player passed in "
            "succession (CR 117.4, 405.5, 608.2); what it did follows", ("608.2", "608.3", "117.4"),
            (_OBJECT_ON_STACK,)),
    LogKind("removed_from_stack", "capability `stack`: the top object of the stack didn't resolve, all its targets "
            "being illegal (CR 608.2b): removed from the stack, a spell put into its owner's graveyard",
            ("608.2b", "608.3b"), (
                _OBJECT_ON_STACK, _f("reason", "string", "`all targets illegal`"),
            )),
    LogKind("control_changed", "a permanent's controller changed", ("613.1b", "108.4"), (
        _OBJECT, _f("from", "string", "the previous controller"), _f("to", "string", "the new controller"),
    )),
)

_BY = "by"
_RULE_704 = re.compile(r"704\.5[a-z]")

#: Every shape of a ``zone_change``'s ``cause``. A zone change by an event of the vocabulary
#: that no row names (``{"event": TYPE, "by": ...}``) is a cause too: :func:`entry_problem`
#: accepts any event type of ``harness/schema/event.schema.json``.
CAUSES: tuple[Cause, ...] = (
    Cause("destroy", "destroyed (CR 701.7a), also by lethal or deathtouch damage (704.5g, 704.5h: the creature is "
                     "destroyed, so umbra armor and regeneration may replace it)", ("701.7a", "704.5g", "704.5h"), (
        _f(_BY, "string", "the spell's or ability's source name, `destroy effect` (the `destroy` event), or the "
                          "rule `704.5g` / `704.5h`; an umbra Aura destroyed instead has the same `by`"),
    )),
    Cause("sacrifice", "sacrificed (CR 701.17a): not destruction", ("701.17a",), (
        _f(_BY, "string", "the player who sacrificed it", required=False),
    )),
    Cause("state_based_action", "put into a graveyard, or out of the game, by a state-based action that is not a "
                                "destruction", ("704.5d", "704.5f", "704.5j", "704.5m"), (
        _f("rule", "string", "the 704.5 rule: `704.5d` (a token off the battlefield ceases to exist: `to` null), "
                             "`704.5f` (toughness 0 or less), `704.5j` (legend rule), `704.5m` (an Aura not legally "
                             "attached); never `704.5g` or `704.5h`, which destroy"),
    )),
    Cause("put_onto_battlefield", "a card from outside the game entered (the `put_onto_battlefield` event)",
          ("110.4", "707.5"), (
              _f("copy_of", "string", "the id of the creature it entered as a copy of (Clone)", required=False),
          )),
    Cause("resolution", "a spell left the stack as it resolved or didn't (capability `stack`, `from` `stack`)",
          ("608.2n", "608.2b", "608.3b"), (
              _f("rule", "string", "`608.2n` (an instant or sorcery that resolved goes to its owner's graveyard), "
                                   "`608.2b` (all its targets illegal: it doesn't resolve), `608.3b` (an Aura spell "
                                   "whose target is illegal)"),
          )),
    Cause("cast", "a permanent spell resolved and entered the battlefield (`from` null; `stack` in a game with the "
                  "stack)", ("608.3a",), (
        _f(_BY, "string", "the player who cast it", required=False),
    )),
    Cause("create_token", "a token was created (`from` null)", ("111.1", "111.2"), (
        _f(_BY, "string", "the spell's name or the id of the ability's source", required=False),
        _f("copy_of", "string", "the id of the object it is a copy of (Cackling Counterpart)", required=False),
    )),
    Cause("search", "a card found by a library search was put where the effect says", ("701.19",), (
        _f(_BY, "string", "the name of the spell or ability's source", required=False),
    )),
    Cause("ability", "an activated ability moved it (exile the top card, return a creature)", ("608.2",), (
        _f(_BY, "string", "the id of the ability's source", required=False),
    )),
    Cause("draw", "a card was drawn (library to hand)", ("121.1",), (
        _f(_BY, "string", "the name or id of what made the player draw", required=False),
    )),
    Cause("exile", "an effect exiled it (capability `zones`; CR 701.11a, 406.2): to its owner's exile, a new object "
                   "(400.7)", ("701.11a", "406.2", "400.3"), (
        _f(_BY, "string", "`exile effect` (the `exile` event) or the name of the card whose effect it is",
           required=False),
    )),
    Cause("return_to_hand", "an effect returned it to its owner's hand (capability `zones`; CR 400.3, 108.3)",
          ("400.3", "108.3", "400.7"), (
              _f(_BY, "string", "`return effect` (the `return_to_hand` event) or the card's name", required=False),
          )),
    Cause("flicker", "exiled, then returned to the battlefield under its owner's control (capability `zones`; CR "
                     "610.3c): the move to exile, and the return of the new object (`previous`: the old id; a token "
                     "never returns, 111.8)", ("610.3c", "400.7", "111.8"), (
        _f(_BY, "string", "`flicker effect` (the `flicker` event) or the card's name", required=False),
    )),
)

_KIND_BY_NAME: dict[str, LogKind] = {k.kind: k for k in KINDS}
_CAUSE_BY_EVENT: dict[str, Cause] = {c.event: c for c in CAUSES}


@lru_cache(maxsize=1)
def _event_types() -> frozenset[str]:
    from harness.wire import schemas  # jsonschema is imported lazily: nothing else here needs it

    return frozenset(schemas.load("event")["properties"]["type"]["enum"])


def _fields_problem(where: str, fields: tuple[Field, ...], value: dict) -> str | None:
    for spec in fields:
        if spec.name not in value:
            if spec.required:
                return f"{where} has no {spec.name!r} ({spec.description})"
        elif type(value[spec.name]) not in spec.exact_types and not spec.accepts(value[spec.name]):
            return f"{where}.{spec.name} = {value[spec.name]!r} is not {' or '.join(spec.types)}"
    return None


def cause_problem(cause) -> str | None:
    """Why ``cause`` is not a zone change cause of :data:`CAUSES` (or of an event type of the
    vocabulary), or None."""
    if not isinstance(cause, dict) or not isinstance(cause.get("event"), str):
        return f"cause {cause!r} is not an object with an \"event\""
    event = cause["event"]
    shape = _CAUSE_BY_EVENT.get(event)
    if shape is None:
        if event in _event_types():
            return None
        return (f"cause {cause!r}: unknown cause event {event!r} (causes: {', '.join(c.event for c in CAUSES)}, or an "
                f"event type; see docs/reference.md, harness/wire/log_kinds.py)")
    problem = _fields_problem("cause", shape.fields, cause)
    if problem:
        return problem
    if event == "state_based_action":
        rule = cause["rule"]
        if rule in ("704.5g", "704.5h"):
            return (f"cause {cause!r}: {rule} destroys (CR {rule}: the creature is destroyed), so its cause is "
                    f"{{\"event\": \"destroy\", \"by\": \"{rule}\"}}")
        if not _RULE_704.fullmatch(rule):
            return f"cause {cause!r}: rule {rule!r} is not a state-based action of CR 704.5"
    return None


def entry_problem(entry) -> str | None:
    """Why ``entry`` is not a log entry of :data:`KINDS`, or None: not an object, no or an
    unknown ``kind``, a required field missing, a field of the wrong type, a ``zone_change``
    with a zone that isn't one (:data:`ZONES` or null) or a cause that isn't one of
    :data:`CAUSES`."""
    if not isinstance(entry, dict):
        return f"{entry!r} is not an object"
    kind = entry.get("kind")
    spec = _KIND_BY_NAME.get(kind) if isinstance(kind, str) else None
    if spec is None:
        return (f"unknown kind {kind!r} (kinds: {', '.join(k.kind for k in KINDS)}; see docs/reference.md, "
                f"harness/wire/log_kinds.py)")
    problem = _fields_problem(spec.kind, spec.fields, entry)  # spec.kind == kind: looked up by it
    if problem:
        return problem
    if kind == "zone_change":
        for key in ("from", "to"):
            if entry[key] is not None and entry[key] not in ZONES:
                return f"zone_change.{key} = {entry[key]!r} is not a zone ({', '.join(ZONES)}) or null"
        if "cause" in entry:
            return cause_problem(entry["cause"])
    return None


def log_problems(log) -> list[str]:
    """Each entry of ``log`` (an observation's ``log``) that is not in the vocabulary, as
    ``"log[i] {entry}: reason"``; empty when all are. Not a list: one message."""
    if not isinstance(log, list):
        return ["log: expected a list"]
    out = []
    for i, entry in enumerate(log):
        problem = entry_problem(entry)
        if problem:
            out.append(f"log[{i}] {str(entry)[:160]}: {problem}")
    return out
