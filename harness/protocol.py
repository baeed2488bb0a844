"""The engine protocol: what rulesfuzz needs from a rules engine, and nothing more.

An engine is any object of this shape (a :class:`typing.Protocol`: no subclassing):

``engine.info``
    :class:`EngineInfo`: name, version and the capabilities it claims. Invariants and
    generators are selected by capability, never by engine name.
``engine.new_game(board) -> game``
    Builds a game from a board (:class:`BoardSpec`). A board it cannot build raises
    any exception whose message says which field is wrong.
``game.apply(event, decider) -> None``
    Performs one event and everything that follows: replacement effects, state-based
    actions to a fixed point, triggered abilities. An illegal attempt raises
    :class:`IllegalAction` and leaves the game unchanged.
``game.observe() -> Observation``
    Plain JSON-serialisable data (:class:`Observation`), with the log of the last event.

Choices and chance are inputs: every player choice and every coin flip or die roll goes
through ``decider``, a :class:`Decider`. An engine that calls :mod:`random` can't be
fuzzed reproducibly.

What each part means is **docs/reference.md**, generated from the code that enforces it
(``python3 -m harness.interfaces.contract --write``; ``rulesfuzz reference`` prints it), each fact in one
place:

* boards, events and observations: ``harness/schema/{board,event,observation}.schema.json``
  (an event type's meaning is the ``description`` of its ``allOf`` branch; a field's, of its
  property), with the ``TypedDict`` shapes below;
* capabilities: :data:`CAPABILITIES` (summary, CR rules, board features, events, details),
  joined with the invariants each unlocks (``invariants.REGISTRY``);
* log entries and zone-change causes: :mod:`harness.wire.log_kinds` (checked on every observation);
* decision kinds and their options: :mod:`harness.decisions` (listed in :class:`Decider`);
* what a differential run normalises: :data:`invariants.differential.CONVENTIONS`;
* the wire protocol: docs/protocol.md, :data:`ENGINE_METHODS`, :data:`HARNESS_METHODS`,
  :data:`ERROR_CODES`.

"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NotRequired, Protocol, Required, TypedDict, runtime_checkable
from collections.abc import Callable, Sequence



#: The value of an observed object's ``names`` when it has every card name (Omnipresent Impostor).
ALL_NAMES = "all"


# ---------------------------------------------------------------- JSON shapes
class PlayerSpec(TypedDict):
    """A player of a board: ``{"id": "P1", "life": 20}``."""

    id: str
    life: int


class ObjectSpec(TypedDict, total=False):
    """An object of a board; only ``id`` and ``card`` are required (defaults: battlefield,
    untapped, no damage, no counters, not attached, not a token, not in combat)."""

    id: Required[str]
    card: Required[str]
    zone: str
    owner: str
    controller: str
    tapped: bool
    summoning_sick: bool
    damage: int
    counters: dict[str, int]
    attached_to: str | None
    token: bool
    combat: Literal["attacking", "blocking"] | None
    regeneration_shields: int


class BoardSpec(TypedDict):
    """A board: players (the first is the active player) and objects in timestamp order."""

    players: list[PlayerSpec]
    objects: list[ObjectSpec]
    stack: NotRequired[bool]  # a game with the stack (capability stack)


class Event(TypedDict, total=False):
    """One event of the harness's vocabulary (``harness/schema/event.schema.json``, docs/reference.md);
    ``type`` selects which of the other fields it has."""

    type: Required[str]
    card: str
    controller: str
    targets: list[str]
    token_ids: list[str]
    source: str
    target: str
    amount: int
    cant_be_regenerated: bool
    object: str
    power: int
    toughness: int
    affects: str
    kind: str
    id: str
    attach_to: str | None
    copy_of: str
    x: int
    aura: str
    to: str
    status: Literal["attacking", "blocking"] | None
    player: str
    count: int
    calls: bool
    sides: int
    ability: int
    step: str
    filter: str
    players: list[str]
    tapped: bool
    division: list[int]
    attackers: list[str]
    blocks: dict[str, str]


class ObservedPlayer(TypedDict, total=False):
    """A player as observed: life total and whether they lost (CR 104.3); the mana pool
    (capability ``mana``); the maximum hand size (CR 402.2; capability
    ``playtest_supertypes``): an int, or None for no maximum (Thought Vessel)."""

    life: Required[int]
    lost: Required[bool]
    mana_pool: NotRequired[dict[str, int]]
    max_hand_size: NotRequired[int | None]


class ObservedCharacteristics(TypedDict, total=False):
    """The characteristics (CR 109.3) an observed object has and its copiable values have too
    (the reference engine's observed copiable values derive from it, CR 707.2): declared once, here."""

    name: Required[str]
    supertypes: list[str]
    types: list[str]
    subtypes: list[str]
    colors: list[str]
    keywords: list[str]
    power: int | None
    toughness: int | None


class ObservedObject(ObservedCharacteristics, total=False):
    """An object as observed, with its computed characteristics (CR 613; the fields of
    :class:`ObservedCharacteristics`) and its status, zone and owner."""

    zone: Required[str]
    owner: str
    controller: str
    token: bool
    tapped: bool
    summoning_sick: bool
    damage: int
    counters: dict[str, int]
    attached_to: str | None
    combat: str | None
    regeneration_shields: int
    mana_value: NotRequired[int]
    copiable: NotRequired[dict[str, Any] | None]
    pt_effects: NotRequired[list[dict[str, Any]]]
    #: ``"all"`` for an object with every card name (Omnipresent Impostor); absent otherwise.
    names: NotRequired[Literal["all"]]
    #: Capability ``combat``, on a creature in a declared combat: an attacker's ``blocked``
    #: (None until blockers are declared) and ``blocked_by``, a blocker's ``blocking``.
    blocked: NotRequired[bool | None]
    blocked_by: NotRequired[list[str]]
    blocking: NotRequired[str | None]


class LogEntry(TypedDict, total=False):
    """One entry of an observation's log; ``kind`` selects the other fields (:mod:`harness.wire.log_kinds`
    lists each kind's), among them ``object`` (the id of the object most kinds are about) and ``cause``
    (a ``zone_change`` 's cause object; a string for a tap or an untap)."""

    kind: Required[str]
    object: Any
    cause: Any


class Observation(TypedDict, total=False):
    """What ``game.observe()`` returns (``harness/schema/observation.schema.json``, docs/reference.md)."""

    players: Required[dict[str, ObservedPlayer]]
    objects: Required[dict[str, ObservedObject]]
    zones: dict[str, Any]
    log: list[LogEntry]
    #: Capability ``stack``, a game whose board says ``"stack": true``: the stack, bottom to top.
    stack: NotRequired[list[dict[str, Any]]]
    #: Capability ``stack``: ``{"player", "passed", "active_player"}`` (CR 117.3, 117.4).
    priority: NotRequired[dict[str, Any]]
    #: Capability ``combat``: the declared combat in progress, absent when there is none.
    combat: NotRequired[dict[str, Any]]


class RulesfuzzError(Exception):
    """The base of every exception rulesfuzz defines (:mod:`harness.errors` lists them all), so a
    user catches rulesfuzz's errors by type: ``except RulesfuzzError``. Each keeps its other
    bases too (``ValueError``, ``KeyError``, ``OSError`` ...), so ``except ValueError`` still
    catches those it caught. Defined here because this module imports nothing of the project;
    the two ``BaseException`` signals (a run's budget ran out, an example cut short) are not
    errors and don't derive from it."""


class Unsupported(RulesfuzzError):
    """Raised by ``engine.new_game`` or ``game.apply``: "this engine doesn't model that".

    Not a rules verdict and never blamed on the engine: the example ends at that step
    (the steps before it were checked and count), and the run counts declines by
    ``reason``, a short code such as ``"card:Hydroid Krasis"`` or
    ``"ability:protection"``. A run where most examples are declined at once exits 2
    (the engine's declaration and what it accepts disagree).
    """

    def __init__(self, reason: str, message: str = ""):
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


class IllegalAction(RulesfuzzError):
    """Raised by ``game.apply`` for an event the rules don't allow; the game is unchanged.

    ``reason`` is a short code such as ``"not_on_battlefield"`` or ``"illegal_target"``.
    """

    #: Set by :mod:`harness.connection.rpc` on the refusal of an engine process whose error data
    #: carried the game's observation (``None`` when it carried none); engines don't set it.
    observation: Observation | None

    def __init__(self, reason: str, message: str = ""):
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason


# ---------------------------------------------------------------- records
@dataclass(frozen=True, slots=True)
class Decision:
    """One question an engine asked its decider: who, what kind, the options, the answer."""

    player: str | None
    kind: str
    options: tuple
    answer: Any

    def to_json(self) -> dict:
        return {"player": self.player, "kind": self.kind, "options": list(self.options), "answer": self.answer}


@dataclass(slots=True)
class Transition:
    """One step, what a step invariant checks: ``before`` and ``after`` observations around ``event``.

    ``illegal`` is the reason code when the engine refused the event (then ``after``
    must equal ``before``); ``decisions`` are those asked while performing it;
    ``error`` describes an exception other than IllegalAction, or a hang;
    ``reference`` (differential mode) is ``{"after": observation, "illegal": reason or
    None, "ignored": fields}`` from the reference engine given the same decisions.
    ``log`` is the step's log: ``after["log"]`` (the same list), or ``[]`` for a refused event (or an
    ``after`` of the wrong shape);
    read when the transition is made (invariants read it about nine times a step: an attribute, not
    a property), so a transition with another ``after`` or ``illegal`` is made anew
    (``dataclasses.replace``), never changed in place.
    """

    before: dict
    event: dict
    after: dict
    illegal: str | None = None
    decisions: list[Decision] = field(default_factory=list)
    error: str | None = None
    reference: dict | None = None
    log: list[dict] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        get = getattr(self.after, "get", None) if self.illegal is None else None
        # An ``after`` that is no mapping (an engine's observation of the wrong shape, which the
        # step's shape check reports) has no log.
        self.log = get("log", []) if get is not None else []


@dataclass(slots=True)
class ScenarioRun:
    """A whole example, what a scenario invariant checks.

    ``replay()`` runs the same board, events and decisions on a fresh game of the same
    engine and returns its observations after each event; ``replay(every_step=False)``
    returns only the last one (cheaper: no observation in between).
    """

    board: dict
    events: list[dict]
    observations: list[dict]
    replay: Callable[..., list[dict]]


@dataclass(frozen=True, slots=True)
class Violation:
    """An invariant that failed on a step: which (its registered name), where (1-based
    step, 0 for the board), and what was wrong."""

    invariant: str
    step: int
    messages: tuple[str, ...]



@dataclass(frozen=True)
class EngineInfo:
    """An engine's name, version and claimed capabilities (a frozenset of strings).

    Capabilities: the names of :data:`CAPABILITIES` (docs/reference.md says what each
    unlocks).
    ``ignored_fields`` names what the engine does not model, as dotted paths with
    ``*`` for any id (``objects.*.mana_value``, ``players.*.life``, ``log.damage``,
    ``zones``; a bare field name means ``objects.*.<name>``); the differential oracle
    does not compare them (:mod:`invariants.differential`).

    **Cards.** ``cards`` names the cards it plays: any Oracle name :func:`cards.card`
    knows (the curated pool and the whole card database), or None for the curated pool,
    each card as far as the capabilities claimed allow (the behaviour before declared
    cards). ``card_definitions`` defines cards the database doesn't have (custom or
    playtest cards): a tuple of dicts ``{"name", "mana_cost", "type_line", "power",
    "toughness", "oracle_text"}`` (:mod:`cards.definitions`: ``type_line`` is split into
    supertypes, types and subtypes, colours come from the mana cost). They are registered
    when the engine is loaded, so ``cards.card(name)`` finds them for the rest of the run,
    and the engine plays them too (their names need not be repeated in ``cards``; with
    ``cards=None`` they are played beside the pool). A declared card is generated by what
    its Oracle text does (:mod:`cards.reader`'s model), never by its name; a card whose
    text isn't all read is listed by ``rulesfuzz plan`` with the sentences not read, and
    never generated. What declared cards imply (a legend: the legend rule; deathtouch:
    704.5h; an Aura or Equipment: boards with it attached) needs no capability claim
    (:func:`harness.generation.plan.implied_capabilities`).

    ``counter_kinds`` (with capability ``counters``): the power/toughness counter kinds it
    models, e.g. ``{"+1/+1", "-1/-1"}``; None: every kind of
    ``harness.generation.strategies.COUNTER_KINDS``.
    """

    name: str
    version: str
    capabilities: frozenset[str]
    ignored_fields: frozenset[str] = field(default_factory=frozenset)
    #: The Oracle names of the cards the engine plays (None: the curated pool of
    #: :mod:`cards`, as far as the claimed capabilities allow). Generation draws only these cards.
    cards: frozenset[str] | None = None
    #: Definitions of cards the database doesn't have (dicts, see above); played too.
    card_definitions: tuple = ()
    #: The P/T counter kinds the engine models (None: all of ``strategies.COUNTER_KINDS``).
    counter_kinds: frozenset[str] | None = None


@runtime_checkable
class Decider(Protocol):
    """Answers every choice and every random outcome an engine needs.

    ``choose(player, kind, options)`` returns one element of ``options`` (a list of
    strings); ``kind`` names the choice (``"replacement_effect"`` for CR 616.1,
    ``"legend_rule"`` for CR 704.5j, ``"trigger_order"`` for CR 603.3b, ``"target"``
    for a triggered ability's target, CR 603.3d, ``"search"`` for a library search,
    ``"mana_type"`` and ``"mana_payment"`` for mana, ``"may"`` and ``"tap_or_untap"``,
    ``"coin_call"`` for a call of heads or tails, CR 705.2, ``"coin_kept"`` for the coin
    Krark's Thumb keeps). The published table of kinds, who is asked, the options' form
    and the rules is :data:`harness.decisions.TABLE` (listed below); a kind it doesn't
    know is answered and recorded all the same.
    ``flip_coin(player)`` returns ``"heads"`` or ``"tails"``; ``roll_die(player, sides)``
    returns an int in 1..sides.
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


@dataclass(frozen=True)
class Capability:
    """One capability an engine may claim, and what claiming it unlocks.

    ``rules`` are the CR rules it stands for; ``board_features`` the board features
    generation may put on a board (names used by the strategies), ``events`` the event
    types (or event variants ``TYPE:VARIANT``) it generates; ``details`` what claiming it
    means beyond the summary and the events' own descriptions (Markdown; the decider kinds,
    ids and orders an engine must follow). The invariants a capability unlocks are not
    listed here: each invariant names the capabilities it requires
    (``invariants.REGISTRY``), and ``rulesfuzz plan`` and docs/reference.md
    (:mod:`harness.interfaces.contract`) join the two.
    """

    name: str
    summary: str
    rules: tuple[str, ...] = ()
    board_features: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    details: str = ""


def _table(*rows: Capability) -> dict[str, Capability]:
    return {row.name: row for row in rows}


# What some capabilities mean beyond their summary (Capability.details; rendered by
# harness.interfaces.contract): Markdown, one file per capability in harness/schema/capabilities/,
# read as one paragraph (package data, so this module still imports nothing of the project).
_DETAILS = Path(__file__).with_name("schema") / "capabilities"


def _details(capability: str) -> str:
    """The details paragraph of ``capability``: its file's lines joined by single spaces.

    Raises OSError if harness/schema/capabilities/CAPABILITY.md is missing."""
    text = (_DETAILS / f"{capability}.md").read_text(encoding="utf-8")
    return " ".join(line.strip() for line in text.splitlines() if line.strip())



#: Every capability name an engine may claim: capability -> what it unlocks.
CAPABILITIES: dict[str, Capability] = _table(
    Capability("destroy", "destroy effects and spells", ("701.7",), events=("destroy", "cast:destroy")),
    Capability("sacrifice", "sacrifice", ("701.17",), events=("sacrifice",)),
    Capability("damage", "damage from permanents and spells", ("120",), board_features=("marked damage",),
               events=("damage", "cast:damage")),
    Capability("deathtouch", "deathtouch", ("702.2",), board_features=("deathtouch creatures",)),
    Capability("indestructible", "indestructible", ("702.12",), board_features=("indestructible creatures",)),
    Capability("regeneration", "regeneration shields", ("701.15",), board_features=("regeneration_shields",),
               events=("activate_regeneration",)),
    Capability("umbra_armor", "umbra armor Auras", ("702.89",), board_features=("umbra Auras",),
               events=("put_onto_battlefield:aura", "attach")),
    # State-based actions (CR 704.5), one capability per rule, so an engine claims exactly
    # the ones it implements and each has its own invariant.
    Capability("sba.life_total", "a player with 0 or less life loses", ("704.5a",)),
    Capability("sba.token_zone", "a token in a zone other than the battlefield ceases to exist", ("704.5d",)),
    Capability("sba.zero_toughness", "a creature with toughness 0 or less goes to its owner's graveyard",
               ("704.5f",)),
    Capability("sba.lethal_damage", "a creature with lethal damage marked is destroyed", ("704.5g",)),
    Capability("sba.deathtouch_damage", "a creature dealt damage by a deathtouch source is destroyed", ("704.5h",)),
    Capability("legend_rule", "the legend rule", ("704.5j",), board_features=("legendary permanents",)),
    Capability("sba.unattached_aura", "an Aura attached illegally or to nothing goes to its owner's graveyard",
               ("704.5m",)),
    Capability("sba.counter_annihilation", "+1/+1 and -1/-1 counters on one permanent annihilate", ("704.5q",)),
    Capability("combat_status", "attacking and blocking status", ("506.4",), board_features=("combat",),
               events=("set_combat",)),
    Capability("combat", "combat: declared attackers and blockers (untapped, summoning sickness, defender, "
               "vigilance, \"can't attack\" and \"can't block\", flying and reach, menace), combat damage steps "
               "(first strike, double strike), damage assignment among blockers (decider kind damage_assignment), "
               "trample, deathtouch, lifelink, removal from combat, end of combat",
               ("506.4", "508.1", "509.1", "510.1", "510.2", "510.4", "511.3", "302.6", "702.2c", "702.3b", "702.4",
                "702.7", "702.9b", "702.15b", "702.17b", "702.19b", "702.20b", "702.111b"),
               board_features=("combat creatures",),
               events=("declare_attackers", "declare_blockers", "combat_damage", "end_of_combat")),
    Capability("pt_until_end_of_turn", "+N/+N and -N/-N until end of turn", ("613.4c",), events=("modify_pt",)),
    Capability("cleanup", "the cleanup step", ("514.2",), events=("cleanup",)),
    Capability("control_change", "control-changing effects: a player gains control of a permanent",
               ("613.1b", "108.4", "506.4", "302.6"), board_features=("owner is not controller",),
               events=("change_control",)),
    Capability("zones", "zone changes by effects: exile, return to its owner's hand, exile and return to the "
               "battlefield (a new object with a new id); Auras left behind go to the graveyard, Equipment "
               "stays unattached, tokens cease to exist",
               ("400.7", "400.3", "701.11a", "610.3c", "111.7", "111.8", "704.5d", "704.5m", "704.5n", "302.6"),
               events=("exile", "return_to_hand", "flicker")),
    Capability("layers", "P/T layers 7b, 7c, 7d", ("613",), events=("set_base_pt", "switch_pt", "create_effect")),
    Capability("counters", "power/toughness counters", ("122", "704.5q"), board_features=("counters",),
               events=("add_counters",)),
    Capability("copies", "copy effects and token copies", ("707",), events=("put_onto_battlefield:copy_of",)),
    Capability("cast_permanents", "casting the permanent cards it declares: a creature, artifact or enchantment "
               "spell resolves and enters under its caster's control; an Aura spell with the object it will "
               "enchant as its target (the cast event with an id)", ("608.3", "303.4a", "302.6"),
               events=("cast:permanent",)),
    Capability("tokens", "tokens on the board and created by effects", ("111",), board_features=("tokens",),
               events=("cast:token",), details=_details('tokens')),
    Capability("x_costs", "X in enters abilities", ("107.3m",), events=("put_onto_battlefield:x",)),
    Capability("triggers", "triggered abilities", ("603",), details=_details('triggers')),
    Capability("library", "cards in libraries", ("401",), board_features=("library cards",)),
    Capability("chance", "coin flips and die rolls through the decider, and the effects that replace or watch them "
               "(Krark's Thumb, Pixie Guide, Pokey, the Scallywagg, Tavern Scoundrel, Brazen Dwarf)",
               ("705", "706", "614.5", "616.1"), board_features=("chance permanents",),
               events=("flip_coins", "roll_dice"), details=_details('chance')),
    Capability("library_search", "Omnipresent Impostor's names (all card names, \"names\": \"all\", CR 201.2) and "
               "library searches that may find it in place of any card (Sakura-Tribe Elder, Goblin Engineer, "
               "Explosive Vegetation; Bile Blight's name check)",
               ("201.2", "201.2a", "205.4c", "604.3"), board_features=("Omnipresent Impostors", "search libraries"),
               events=("activate:search", "cast:search", "cast:same name"), details=_details('library_search')),
    Capability("playtest_supertypes", "Orb of Origin's playtest supertypes: mono (an additional {T}), continuous "
               "(no abilities while tapped), poly; Thought Vessel's maximum hand size, Sword of the Meek's equip",
               ("205.4", "402.2", "613.1d", "613.1f", "118.8", "702.6a", "704.5n"),
               board_features=("playtest artifacts",), events=("activate:equip", "activate:orb"), details=_details('playtest_supertypes')),
    Capability("stack", "the stack and priority in games whose board says \"stack\": true: casts and non-mana "
               "abilities wait on the stack, triggered abilities are put on it in APNAP order, the top object "
               "resolves when every player passes priority in succession (pass_priority), illegal targets and last "
               "known information as it resolves; observations carry stack and priority",
               ("405", "117.3", "117.4", "601.2", "602.2", "603.3b", "608.2b", "608.2h", "603.10a"),
               board_features=("stack games",), events=("pass_priority", "cast:stack"), details=_details('stack')),
    Capability("log.zone_change_causes", "zone changes are logged with their causes", ()),
    Capability("log.replacement_effects", "replacement effects applied are logged", ("614",)),
    Capability("observe.copiable", "observations carry copiable values", ("707.2",)),
    Capability("observe.pt_effects", "observations carry P/T effects in timestamp order", ("613.7",)),
    Capability("mana", "mana pools, mana abilities, tapped-for-mana triggers and replacement effects, could produce",
               ("106.4", "106.5", "106.6a", "106.7", "106.12", "605"),
               board_features=("lands", "mana creatures", "mana artifacts", "mana enchantments"),
               events=("activate:mana", "pass_step", "begin_turn"), details=_details('mana')),
    Capability("tap_untap_costs", "{T} and {Q} in activation costs, summoning sickness, mana costs of abilities",
               ("107.5", "107.6", "302.6", "602.2"),
               board_features=("untap-cost creatures", "summoning_sick", "tapped permanents"),
               events=("activate",)),
    # Steps, chance and small actions (harness/rules/steps.py generates them).
    Capability("steps", "the upkeep and draw steps: \"at the beginning of your upkeep\" and \"... your draw "
               "step\" abilities trigger, the active player draws a card (begin_step; with steps, these cards of "
               "the database are played too: harness.rules.steps.STEP_CARDS)",
               ("503.1", "503.1a", "504.1", "504.2", "121.1", "603.2"), events=("begin_step",)),
    Capability("sba.empty_library", "a player who attempted to draw from an empty library loses (the draw "
               "step's draw)", ("704.5b",)),
    Capability("chance.players", "one event instructs several players to flip coins or roll dice, each with their "
               "own replacement effects and triggers (the players field of flip_coins and roll_dice)",
               ("705.2", "706.1", "614.1a"), events=("flip_coins:players", "roll_dice:players")),
    Capability("damage.zero", "a source that would deal 0 damage deals no damage (the damage event with amount 0)",
               ("120.8",), events=("damage:zero",)),
    Capability("edict", "\"target player sacrifices a creature\": the player chooses which (decider kind edict)",
               ("701.17a",), events=("edict",)),
    Capability("put_onto_battlefield.tapped", "an effect puts a permanent onto the battlefield tapped (the tapped "
               "field of put_onto_battlefield)", ("110.5b", "614.1c"), events=("put_onto_battlefield:tapped",)),
)


# --------------------------------------------------------------------------- wire protocol
# The same protocol spoken to an engine in another process: JSON-RPC 2.0, one message per
# line on the child's stdin/stdout (docs/protocol.md; schemas in harness/schema/). The
# client is harness.connection.rpc, the server for in-process engines harness.serve.

#: The version of the wire protocol, sent in ``initialize`` and answered back.
PROTOCOL_VERSION = 1

#: Methods the harness calls on the engine.
ENGINE_METHODS = ("initialize", "new_game", "apply", "observe", "dispose", "shutdown")

#: Methods the engine may call on the harness while an ``apply`` is pending (the decider).
HARNESS_METHODS = ("choose", "flip_coin", "roll_die")

#: JSON-RPC error codes of the protocol: name -> code. ``illegal_action`` and
#: ``unsupported`` carry ``data.reason`` (:class:`IllegalAction`, :class:`Unsupported`);
#: ``bad_board`` says in its message which field is wrong; ``decision_refused`` is the
#: harness's answer to a callback it can't answer (the engine then abandons the apply).
ERROR_CODES = {
    "parse_error": -32700,
    "invalid_request": -32600,
    "method_not_found": -32601,
    "invalid_params": -32602,
    "internal_error": -32603,
    "illegal_action": -32001,
    "unsupported": -32002,
    "bad_board": -32003,
    "unknown_game": -32004,
    "protocol_version": -32005,
    "decision_refused": -32010,
}
