"""The card model: what a card's Oracle text says, as data the whole project reads.

:mod:`cards.reader` turns a card's Oracle text into a :class:`CardModel`: a tuple of
:class:`Ability` values, one per ability the project models (keywords, spell effects,
static, triggered, activated and mana abilities), and the sentences it could not read.
The generators (``harness``), the invariants and the reference engine read this model,
never a card's name: a card with a known template works everywhere at once, as in
Forge's and XMage's declarative card definitions.

A card is *modelled* when every sentence of its text was read (``CardModel.unread`` is
empty) or when it is a card of the curated pool, whose rules the reference engine
models by hand (``CardModel.hand_written``: Pokey, Octopus Umbra, Omnipresent Impostor,
...). Everything here is plain frozen data, JSON-serialisable with :meth:`CardModel.to_json`.

Vocabulary (strings, so models read the same in JSON and in Python):

* :data:`ACTIONS`: what an :class:`Effect` does (CR 701 keyword actions and the basic
  verbs: destroy 701.7, damage 120, P/T until end of turn 613.4c, counters 122, life
  119, draw 121, tokens 111, regenerate 701.15, tap and untap 701.21).
* :class:`Affected` ``scope``: ``"target"`` (chosen as the spell or ability is put on the
  stack, CR 115), ``"each"`` (every object or player that matches, "each creature",
  "all creatures"), ``"self"`` (the card itself, "~"), ``"enchanted"`` / ``"equipped"``
  (the permanent an Aura or Equipment is attached to), ``"you"`` (the controller),
  ``"controller"`` (the controller of the affected object: "its controller").
* ``kind``: ``"creature"``, ``"player"``, ``"any"`` (a creature, player or planeswalker:
  "any target", CR 115.4), ``"creature or player"``, ``"permanent"``, ``"artifact"``,
  ``"enchantment"``, ``"land"``, ``"opponent"``, ``"creature and player"`` ("each creature
  and each player").
* ``filters``: ``"non<color>"``, ``"<color>"``, ``"nonartifact"``, ``"artifact"``,
  ``"nonland"``, ``"you control"``, ``"opponent controls"``, ``"other"``, ``"tapped"``,
  ``"untapped"``, ``"flying"``, ``"without flying"``, ``"attacking"``, ``"blocking"``,
  ``"attacking or blocking"``, ``"nonlegendary"``, ``"non-<Subtype>"``, ``"power <N> or less"``,
  ``"power <N> or greater"``, ``"toughness <N> or less"``, ``"toughness <N> or greater"``
  ("target creature with power 2 or less"), ``"<Subtype>"`` (a creature type of CR 205.3m,
  capitalised: "Other Zombie creatures you control", "All Sliver creatures", "Other Elves
  you control" give ``"Zombie"``, ``"Sliver"``, ``"Elf"``), and, on kind ``"permanent"``, two
  or three card types as written, a permanent of any of them: ``"artifact or enchantment"``,
  ``"creature or land"``, ``"artifact, creature, or land"`` ("target artifact or enchantment",
  "all artifacts and enchantments").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .shapes import CardModelJSON

__all__ = ["ACTIONS", "TEMPLATES", "Affected", "Effect", "TokenDef", "Ability", "CardModel"]

#: What an effect does.
ACTIONS = frozenset({
    "destroy",  # CR 701.7
    "damage",  # CR 120
    "pt",  # +N/+M or -N/-M until end of turn (layer 7c, CR 613.4c)
    "gain_keywords",  # "gains flying until end of turn" (layer 6, CR 613.1f)
    "counters",  # put N counters of a kind (CR 122)
    "gain_life", "lose_life",  # CR 119
    "draw",  # CR 121
    "create_tokens",  # CR 111
    "regenerate",  # CR 701.15
    "tap", "untap",  # CR 701.21
    "exile",  # CR 701.11a, 406.2: to its owner's exile
    "return_to_hand",  # CR 400.3: "return ... to its owner's hand"
    "flicker",  # "exile ..., then return it to the battlefield under its owner's control" (CR 610.3c, 400.7)
})

#: Every template the reader knows, by name, with the CR rules it stands for. A model's
#: :attr:`CardModel.templates` are names of this table; ``rulesfuzz cards --stats`` counts them.
TEMPLATES: dict[str, str] = {
    "vanilla": "no rules text (CR 207.1)",
    "keyword": "a keyword ability on a keyword line (CR 702)",
    "enchant": "Enchant <object> (CR 303.4a, 702.5)",
    "equip": "Equip <cost> (CR 702.6)",
    "umbra armor": "Umbra armor / Totem armor (CR 702.89)",
    "spell: destroy": "Destroy target / all ... (CR 701.7)",
    "spell: damage": "~ deals N damage to ... (CR 120)",
    "spell: pt": "... get(s) +N/+M or -N/-M until end of turn (CR 613.4c)",
    "spell: counters": "Put N +1/+1 counters on ... (CR 122)",
    "spell: life": "You gain / target player loses N life (CR 119)",
    "spell: draw": "Draw N cards (CR 121)",
    "spell: tokens": "Create N P/T ... creature tokens (CR 111)",
    "spell: tap": "Tap or untap target ... (CR 701.21)",
    "spell: regenerate": "Regenerate target ... (CR 701.15)",
    "spell: exile": "Exile target / all ... (CR 701.11a, 406.2, 400.7)",
    "spell: return to hand": "Return target / all ... to its owner's hand (CR 400.3, 400.7)",
    "spell: flicker": "Exile target ..., then return it to the battlefield under its owner's / your control (CR "
                      "610.3c, 400.7)",
    "aura bonus": "Enchanted creature gets +N/+M and/or has <keywords> (CR 303.4, 613.4c)",
    "equipment bonus": "Equipped creature gets +N/+M and/or has <keywords> (CR 301.5, 613.4c)",
    "anthem": "Creatures you control get +N/+M and/or have <keywords> (CR 613.4c, 613.1f)",
    "enters trigger": "When ~ enters the battlefield, <effect> (CR 603.6a)",
    "dies trigger": "When ~ dies, <effect> (CR 603.6c, 700.4)",
    "leaves the battlefield trigger": "When ~ leaves the battlefield, <effect> (CR 603.6c, 603.10a): whatever zone "
                                      "it goes to",
    "upkeep trigger": "At the beginning of your upkeep, <effect> (CR 503.1a, 603.2)",
    "draw step trigger": "At the beginning of your draw step, <effect> (CR 504.2, 603.2)",
    "creature dies trigger": "Whenever a / another [nontoken] creature [you control] dies, <effect> (CR 603.2, "
                             "603.10a, 700.4)",
    "spell: divided damage": "~ deals N damage divided as you choose among one, two, or three / any number of "
                             "targets (CR 601.2d, 120)",
    "activated": "<cost>: <effect> (CR 602)",
    "regenerate": "<cost>: Regenerate ~ (CR 701.15)",
    "mana ability": "{T}: Add <mana> (CR 605.1a, 106)",
    "enters tapped": "~ enters the battlefield tapped (CR 614.1c)",
    "can't block": "~ can't block (CR 509.1b; played with capability combat)",
    "can't be blocked": "~ can't be blocked (CR 509.1b)",
    "carried keyword": "a keyword whose rules apply only in combat or while casting (shadow, bushido N, convoke, "
                       "...): read, not played (CR 702; cards.reader.CARRIED_KEYWORDS)",
    "combat restriction": "~ / enchanted creature can't attack, attacks each combat if able, can block only "
                          "creatures with flying, ... (CR 508.1c-d, 509.1b-c): \"can't attack\", \"can't block\", "
                          "\"can't attack or block\" are played with capability combat (Ability.restrictions); the "
                          "others are read, not played",
    "combat trigger": "Whenever ~ attacks / blocks / becomes blocked, <effect> (CR 603.2, 508.3a, 509.3): read, "
                      "never triggered (combat is not modelled)",
    "stack restriction": "~ can't be countered (CR 701.5a): read, not played (the stack is not modelled)",
    "hand-written": "a card of the curated pool whose rules the reference engine models by hand",
}


@dataclass(frozen=True, slots=True)
class Affected:
    """What an effect affects: ``scope``, ``kind``, ``filters`` (see the module docstring) and,
    for ``scope="target"``, ``count`` targets (``up_to``: "up to N target", CR 601.2c)."""

    scope: str
    kind: str = "creature"
    filters: tuple[str, ...] = ()
    count: int = 1
    up_to: bool = False


@dataclass(frozen=True, slots=True)
class TokenDef:
    """A token an effect defines (CR 111.3, 111.4): its characteristics. ``name`` is its
    subtypes plus "Token" (CR 111.4), e.g. ``"Goblin Token"``."""

    name: str
    power: int
    toughness: int
    colors: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing an ability does: ``action`` (:data:`ACTIONS`) to ``affected``.

    ``amount``: damage dealt, life, cards, tokens or counters (an int >= 0);
    ``power``/``toughness``: the P/T change of ``"pt"`` (negative for -N/-N);
    ``keywords``: what ``"gain_keywords"`` gives; ``counter``: the counter kind
    (``"+1/+1"``); ``token``: what ``"create_tokens"`` creates; ``until_end_of_turn``:
    the effect ends in the cleanup step (CR 514.2); ``cant_be_regenerated``: "It can't be
    regenerated" (CR 701.15c); ``controller``: for ``"create_tokens"``, who gets them
    (``"you"``); ``returns_under``: for ``"flicker"``, whose control the card returns under:
    None for "its owner's" (CR 610.3c), ``"you"`` for "your" (the controller of the effect).

    Amounts read from the game as the effect resolves (CR 608.2h): ``per`` ("N life for each
    creature you control", "... for each creature on the battlefield"): the amount is ``amount``
    times the number of permanents ``per`` describes (scope ``"each"``); ``equal_to`` ("life
    equal to its power"): ``(characteristic, of)``, characteristic ``"power"`` or
    ``"toughness"``, of ``"self"`` (the source; "~'s power", or "its" in an ability with no
    target before it), ``"target"`` ("its" after an effect with one target: that object, as it
    last existed if it left, 608.2h) or ``"that creature"`` (the creature whose dying triggered
    a creature dies trigger, as it last existed, 603.10a); ``amount`` is then 0.
    ``divided``: "N damage divided as you choose among one, two, or three targets": the caster
    divides ``amount`` among 1 to ``affected.count`` targets as the spell is cast, each at least 1
    (CR 601.2d).
    """

    action: str
    affected: Affected
    amount: int = 0
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    counter: str | None = None
    token: TokenDef | None = None
    until_end_of_turn: bool = False
    cant_be_regenerated: bool = False
    returns_under: str | None = None
    per: Affected | None = None
    equal_to: tuple[str, str] | None = None
    divided: bool = False


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card, read from ``text`` (its sentence(s), the card's name written ``~``).

    ``kind``: ``"keyword"``, ``"spell"`` (an instant's or sorcery's effect, CR 113.3a),
    ``"static"`` (CR 604), ``"triggered"`` (CR 603), ``"activated"`` (CR 602) or ``"mana"``
    (a mana ability, CR 605). ``template`` is a name of :data:`TEMPLATES`.

    Keywords: ``keyword`` (lower case, e.g. ``"flying"``, ``"protection from"``,
    ``"enchant"``, ``"equip"``, ``"umbra armor"``, ``"islandwalk"``) and ``parameter``
    (``"red"``, ``"creature"``, ``"{2}"``, or None).
    Static abilities: ``static`` is ``"bonus"`` (``affected`` gets ``power``/``toughness``
    and ``keywords``, as long as the source is on the battlefield and, for an Aura or an
    Equipment, attached: CR 611.3a), ``"enters tapped"``, ``"can't block"``,
    ``"can't be blocked"``, ``"combat restriction"`` (any other restriction or requirement on
    attacking, blocking or combat damage of ``affected``, the card itself or the creature it
    enchants or equips: its ``text`` says which; combat is not modelled, so it never applies
    to a game the project plays) and ``"can't be countered"`` (a spell on the stack, CR 701.5a).
    ``restrictions``: of a ``"can't block"``, ``"can't be blocked"`` or ``"combat restriction"``
    ability, the restrictions an engine claiming ``combat`` plays on ``affected`` (the card itself,
    the enchanted or the equipped creature): any of ``"can't attack"`` (CR 508.1c), ``"can't block"``
    (509.1b) and ``"can't be blocked"`` (509.1b); empty for a restriction or requirement that is only
    read ("attacks each combat if able", "can block only creatures with flying", ...).
    Triggered abilities: ``trigger`` is ``"enters"``, ``"dies"``, ``"upkeep"`` ("At the beginning
    of your upkeep", CR 503.1a), ``"draw step"`` ("At the beginning of your draw step", 504.2) or
    ``"a creature dies"`` ("Whenever a creature dies"; ``affected`` is the creatures it watches:
    scope ``"each"``, kind ``"creature"``, filters ``"other"``, ``"nontoken"``, ``"you control"``,
    ``"opponent controls"``), or a combat trigger,
    ``"attacks"``, ``"blocks"``, ``"becomes blocked"``, ``"blocks or becomes blocked"`` (never
    triggered: attackers and blockers are not declared); ``optional`` for "you may".
    Activated and mana abilities: ``cost`` is the mana part (``"{1}{G}"``, ``""``),
    ``tap`` for {T}, ``sacrifice_self`` for "Sacrifice ~"; mana abilities produce
    ``produces`` (mana symbols such as ``("G",)``, or ``("any color",)``).
    ``effects`` are what a spell, trigger or activated ability does, in order.
    """

    kind: str
    template: str
    text: str
    keyword: str | None = None
    parameter: str | None = None
    static: str | None = None
    affected: Affected | None = None
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    trigger: str | None = None
    optional: bool = False
    cost: str | None = None
    tap: bool = False
    sacrifice_self: bool = False
    produces: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()
    restrictions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CardModel:
    """How a card's Oracle text was read.

    ``name``: its Oracle name; ``abilities``: what was read, in text order; ``unread``:
    the sentences no template reads (the card's name written ``~``); ``hand_written``:
    a card of the curated pool, modelled by hand in the reference engine (its rules can't
    all be said by templates). ``sentences`` pairs every sentence with the template that
    read it (None: unread), for ``rulesfuzz cards NAME``.
    """

    name: str
    abilities: tuple[Ability, ...] = ()
    unread: tuple[str, ...] = ()
    hand_written: bool = False
    published: bool = True
    sentences: tuple[tuple[str, str | None], ...] = field(default=())

    @property
    def modelled(self) -> bool:
        """Every sentence is read (or the card is modelled by hand), so the project can
        generate it, check it and play it in the reference engine."""
        return self.hand_written or (self.published and not self.unread)

    @property
    def templates(self) -> tuple[str, ...]:
        """The template names of its abilities, each once, in text order (``("vanilla",)``
        for a card without rules text)."""
        found = tuple(dict.fromkeys(a.template for a in self.abilities))
        if self.hand_written:
            return ("hand-written", *found)
        return found or (("vanilla",) if self.published and not self.unread else ())

    def keywords(self) -> frozenset[str]:
        """Its keyword abilities as written on keyword lines, lower case, with their parameter
        (``"protection from red"``, ``"enchant creature"``, ``"equip {1}"``)."""
        return frozenset(
            (a.keyword if a.parameter is None else f"{a.keyword} {a.parameter}")
            for a in self.abilities if a.kind == "keyword" and a.keyword)

    def of(self, kind: str) -> tuple[Ability, ...]:
        """Its abilities of ``kind`` (``"spell"``, ``"static"``, ``"triggered"``, ...)."""
        return tuple(a for a in self.abilities if a.kind == kind)

    def to_json(self) -> CardModelJSON:
        """The model as plain JSON (``rulesfuzz cards --json NAME``)."""
        return {"name": self.name, "modelled": self.modelled, "hand_written": self.hand_written,
                "templates": list(self.templates), "abilities": [_clean(asdict(a)) for a in self.abilities],
                "unread": list(self.unread),
                "sentences": [{"text": t, "template": tpl} for t, tpl in self.sentences]}


def _clean(value: Any) -> Any:
    """``asdict`` output without defaults that say nothing (None, empty, False, 0)."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if v not in (None, (), [], False, 0) or k == "scope"}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value
