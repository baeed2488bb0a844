"""Activated abilities of a permanent: their costs and what they do (CR 602, 605, 118).

An activated ability is written "[Cost]: [Effect.]" (CR 602.1). Its cost is read from
the card's Oracle text, so no card fact is written twice; what the effect does is the
script's ``activated`` kind, one per activated ability in Oracle text order. A basic land
type gives its permanent an intrinsic mana ability (CR 305.6: Forest has "{T}: Add
{G}."), listed before the printed ones.

Ability indices (the ``ability`` field of the ``activate`` event) count activated
abilities only, from 0, in that order: Birds of Paradise's "{T}: Add one mana of any
color." is ability 0 (Flying is not activated); Fatestitcher's unearth is ability 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The mana types (CR 106.1b), in the order W, U, B, R, G, C.
MANA_TYPES = ("W", "U", "B", "R", "G", "C")
#: The five colours of mana (CR 106.1a).
COLORS = ("W", "U", "B", "R", "G")
#: The intrinsic mana ability of each basic land type (CR 305.6).
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

# Effect kinds of the ``activated`` field of a card script.
ADD = "add"  #: "Add {G}." / "Add {C}.": the symbols in the text.
ADD_ANY_COLOR = "add one mana of any color"
#: "Add {R} or {G}.": one mana of one of the types in the text (a card of the card database).
ADD_ONE_OF = "add one mana of one of the types"
ADD_LAND_YOU_CONTROL_TYPE = "add one mana of any type a land you control could produce"
ADD_OPPONENT_LAND_COLOR = "add one mana of any color a land an opponent controls could produce"
DOUBLE_COUNTERS = "double the counters on target permanent"
RETURN_SMALL_CREATURE = "return target creature card with mana value 3 or less from your graveyard"
LOOK_AND_EXILE_TOP = "look at the top card of your library, you may exile it"
TAP_OR_UNTAP_ANOTHER = "you may tap or untap another target permanent"
UNEARTH = "unearth"
FLIP_A_COIN = "flip a coin"  #: Tavern Scoundrel (reference_engine.chance)
#: Sakura-Tribe Elder (reference_engine.search).
SEARCH_BASIC_LAND_TAPPED = "search for a basic land card, onto the battlefield tapped"
#: Equip [cost]: "[Cost]: Attach this permanent to target creature you control. Activate
#: only as a sorcery." (CR 702.6a; Sword of the Meek).
EQUIP = "equip"
#: An ability the rulings describe only by its cost: it resolves with no effect modelled
#: (Orb of Origin's first ability, reference_engine.unpublished).
EFFECT_NOT_IN_RULINGS = "effect not in the rulings"
#: An ability of a card whose script names no activated ability kinds: activating it
#: raises ``Unsupported`` (e.g. River Boa's "{G}: Regenerate", played by the
#: ``activate_regeneration`` event instead).
NOT_MODELLED = "not modelled"
#: An activated ability of a card of the card database whose effects its card model says
#: (``cards.model.Ability.effects``; :mod:`reference_engine.model_cards`).
MODEL_EFFECT = "card model effects"

# Kinds of a script's ``mana_replacement``: "If you tap a permanent for mana, it produces
# twice (three times) as much of that mana instead" and Contamination's "If a land is
# tapped for mana, it produces {B} instead of any other type and amount".
DOUBLE, TRIPLE, CONTAMINATION = "twice as much", "three times as much", "black instead"
MULTIPLIERS = {DOUBLE: 2, TRIPLE: 3}

#: Kinds that are mana abilities (CR 605.1a: no target, could add mana).
MANA_KINDS = frozenset({ADD, ADD_ANY_COLOR, ADD_LAND_YOU_CONTROL_TYPE, ADD_OPPONENT_LAND_COLOR, ADD_ONE_OF})
KINDS = MANA_KINDS | {DOUBLE_COUNTERS, RETURN_SMALL_CREATURE, LOOK_AND_EXILE_TOP, TAP_OR_UNTAP_ANOTHER, UNEARTH,
                      FLIP_A_COIN, SEARCH_BASIC_LAND_TAPPED, EQUIP, EFFECT_NOT_IN_RULINGS, NOT_MODELLED,
                      MODEL_EFFECT}

_SYMBOL = re.compile(r"\{([^}]+)\}")
_REMINDER = re.compile(r"\s*\([^)]*\)")
_COST_VERBS = ("Sacrifice ", "Discard ", "Pay ", "Exile ", "Remove ", "Tap ", "Untap ", "Return ")


@dataclass(frozen=True, slots=True)
class Cost:
    """An activation cost (CR 118, 602.1a).

    ``mana``: its mana symbols without braces, in order (``("2", "G/U")``); ``tap``: it
    has {T} (CR 107.5); ``untap``: it has {Q} (CR 107.6); ``other``: the other parts as
    written (``("Sacrifice another permanent",)``), which the engine pays through
    :meth:`reference_engine.costs.CostPayment.pay_other_cost`.
    """

    mana: tuple[str, ...] = ()
    tap: bool = False
    untap: bool = False
    other: tuple[str, ...] = ()

    def with_tap(self) -> Cost:
        """This cost plus {T} (an additional cost, CR 118.8), unchanged if it has {T}."""
        return self if self.tap else Cost(self.mana, True, self.untap, self.other)

    def to_json(self) -> dict:
        return {"mana": "".join(f"{{{s}}}" for s in self.mana), "tap": self.tap, "untap": self.untap,
                "other": list(self.other)}


@dataclass(frozen=True, slots=True)
class ActivatedAbility:
    """One activated ability of a permanent.

    ``index``: its number (see the module docstring); ``cost``: its printed cost;
    ``kind``: what it does (one of :data:`KINDS`); ``mana``: for :data:`ADD`, the mana it
    adds, e.g. ``("G",)``; ``text``: its Oracle text; ``zone``: where it can be
    activated from (``"graveyard"`` for unearth, CR 702.84a).
    """

    index: int
    cost: Cost
    kind: str
    mana: tuple[str, ...] = ()
    text: str = ""
    zone: str = "battlefield"

    @property
    def is_mana_ability(self) -> bool:
        """CR 605.1a: no target, could add mana, not a loyalty ability."""
        return self.kind in MANA_KINDS


def parse_cost(text: str) -> Cost:
    """The :class:`Cost` written ``text`` (``"{2}, {Q}"``, ``"{1}, {T}, Sacrifice another permanent"``).

    Raises ValueError for a part that is neither mana symbols, {T}, {Q} nor a cost verb.
    """
    mana: list[str] = []
    tap = untap = False
    other: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if part.startswith(_COST_VERBS):
            other.append(part)
            continue
        if not part or _SYMBOL.sub("", part).strip():
            raise ValueError(f"not an activation cost part: {part!r}")
        for symbol in _SYMBOL.findall(part):
            if symbol == "T":
                tap = True
            elif symbol == "Q":
                untap = True
            else:
                mana.append(symbol)
    return Cost(tuple(mana), tap, untap, tuple(other))


def _is_cost(text: str) -> bool:
    try:
        parse_cost(text)
    except ValueError:
        return False
    return True


def activated_lines(oracle_text: str) -> list[tuple[str, str, str]]:
    """The activated abilities written in ``oracle_text``: (cost text, effect text, whole line).

    A line "[Cost]: [Effect]" (CR 602.1), an unearth keyword line "Unearth [cost]"
    (CR 702.84a) or an equip keyword line "Equip [cost]" (CR 702.6a); reminder text is
    ignored.
    """
    found = []
    for line in oracle_text.splitlines():
        line = _REMINDER.sub("", line).strip()
        if line.lower().startswith("unearth "):
            found.append((line[len("unearth "):], UNEARTH, line))
            continue
        if line.lower().startswith("equip ") and _is_cost(line[len("equip "):]):
            found.append((line[len("equip "):], EQUIP, line))
            continue
        cost, sep, effect = line.partition(": ")
        if sep and _is_cost(cost):
            found.append((cost, effect, line))
    return found


def abilities_of(oracle_text: str, subtypes, kinds: tuple[str, ...]) -> tuple[ActivatedAbility, ...]:
    """Every activated ability of an object with ``oracle_text`` and ``subtypes``.

    ``kinds`` is the script's ``activated`` field, one kind per written ability (empty:
    every written one is :data:`NOT_MODELLED`). Raises ValueError when the script and the
    text disagree on how many there are.
    """
    abilities: list[ActivatedAbility] = []
    for subtype in subtypes:
        if subtype in BASIC_LAND_MANA:
            color = BASIC_LAND_MANA[subtype]
            abilities.append(ActivatedAbility(len(abilities), Cost(tap=True), ADD, (color,),
                                              f"{{T}}: Add {{{color}}}."))
    written = activated_lines(oracle_text)
    if not kinds:
        kinds = (NOT_MODELLED,) * len(written)
    if len(written) != len(kinds):
        raise ValueError(f"the script names {len(kinds)} activated abilities, the Oracle text has {len(written)}")
    for (cost, effect, line), kind in zip(written, kinds):
        if kind not in KINDS:
            raise ValueError(f"unknown activated ability kind {kind!r}")
        mana: tuple[str, ...] = ()
        if kind == ADD:
            match = re.match(r"Add ((?:\{[WUBRGC]\})+)\.", effect)
            if match is None:
                raise ValueError(f"{line!r}: expected 'Add' and mana symbols")
            mana = tuple(_SYMBOL.findall(match.group(1)))
        elif kind == ADD_ONE_OF:
            match = re.match(r"Add (\{[WUBRGC]\}(?:,? (?:or )?\{[WUBRGC]\})+)\.", effect)
            if match is None:
                raise ValueError(f"{line!r}: expected 'Add {{A}} or {{B}}'")
            mana = tuple(_SYMBOL.findall(match.group(1)))
        abilities.append(ActivatedAbility(len(abilities), parse_cost(cost), kind, mana, line,
                                          "graveyard" if kind == UNEARTH else "battlefield"))
    return tuple(abilities)
