"""What the mana invariants know of mana abilities, read from card data and the board only.

Not an engine: from a card's Oracle text (``cards``) and an observation, it says which
activated abilities a permanent has and what they cost (CR 602.1, 305.6 for basic land
types), what a mana ability would add, which "tapped for mana" replacement effects and
triggers apply (CR 106.12a/b), and the types each permanent could produce (CR 106.7),
computed as a least fixed point so that lands looking at each other terminate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import cards

from .views import per_observation

MANA_TYPES = ("W", "U", "B", "R", "G", "C")
COLORS = ("W", "U", "B", "R", "G")
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

FIXED, ANY_COLOR, LAND_YOU_CONTROL, OPPONENT_LAND = "fixed", "any color", "land you control", "opponent land"
_SYMBOL = re.compile(r"\{([^}]+)\}")
_REMINDER = re.compile(r"\s*\([^)]*\)")
_VERBS = ("Sacrifice ", "Discard ", "Pay ", "Exile ", "Remove ", "Tap ", "Untap ", "Return ")


@dataclass(frozen=True)
class Ability:
    """An activated ability as written: ``tap`` ({T}), ``untap`` ({Q}), ``mana_cost``
    (symbols), ``other`` (other cost parts), ``produces`` (None for a non-mana ability,
    else FIXED / ANY_COLOR / LAND_YOU_CONTROL / OPPONENT_LAND), ``fixed`` (the mana of a
    FIXED ability), ``zone`` (``"graveyard"`` for unearth)."""

    tap: bool
    untap: bool
    mana_cost: tuple[str, ...]
    other: tuple[str, ...]
    produces: str | None
    fixed: tuple[str, ...] = ()
    zone: str = "battlefield"


def _cost(text: str):
    mana, tap, untap, other = [], False, False, []
    for part in (p.strip() for p in text.split(",")):
        if part.startswith(_VERBS):
            other.append(part)
        elif part and not _SYMBOL.sub("", part).strip():
            for s in _SYMBOL.findall(part):
                tap, untap = tap or s == "T", untap or s == "Q"
                if s not in ("T", "Q"):
                    mana.append(s)
        else:
            return None
    return tuple(mana), tap, untap, tuple(other)


def _produces(effect: str):
    fixed = re.match(r"Add ((?:\{[WUBRGC]\})+)\.$", effect)
    if fixed:
        return FIXED, tuple(_SYMBOL.findall(fixed.group(1)))
    if effect == "Add one mana of any color.":
        return ANY_COLOR, ()
    if effect == "Add one mana of any type that a land you control could produce.":
        return LAND_YOU_CONTROL, ()
    if effect == "Add one mana of any color that a land an opponent controls could produce.":
        return OPPONENT_LAND, ()
    return None, ()


#: Activated abilities of cards whose Oracle text is not published, as their rulings state
#: them: Orb of Origin's first ability has no {T} in its cost (Orb of Origin ruling
#: 2024-11-08, "The poly supertype means Orb of Origin's first ability doesn't cost {T}");
#: nothing else of its cost or effect is ruled.
RULED_ABILITIES = {"Orb of Origin": (Ability(False, False, (), (), None),)}


@cache
def abilities(name: str, subtypes: tuple[str, ...] = ()) -> tuple[Ability, ...]:
    """The activated abilities of a permanent named ``name`` with ``subtypes``, in the
    protocol's order (basic land types first, then Oracle text order; for an unpublished
    card, :data:`RULED_ABILITIES`). Unknown names: none."""
    found = [Ability(True, False, (), (), FIXED, (BASIC_LAND_MANA[s],)) for s in subtypes if s in BASIC_LAND_MANA]
    found += RULED_ABILITIES.get(name, ())
    try:
        text = cards.card(name).oracle_text
    except cards.UnknownCardName:
        return tuple(found)
    for line in text.splitlines():
        line = _REMINDER.sub("", line).strip()
        if line.lower().startswith("unearth "):
            mana = tuple(_SYMBOL.findall(line))
            found.append(Ability(False, False, mana, (), None, zone="graveyard"))
            continue
        if line.lower().startswith("equip "):  # "Equip [cost]", CR 702.6a
            parsed = _cost(line[len("equip "):])
            if parsed is not None:
                found.append(Ability(parsed[1], parsed[2], parsed[0], parsed[3], None))
                continue
        cost, sep, effect = line.partition(": ")
        parsed = _cost(cost) if sep else None
        if parsed is not None:
            produces, fixed = _produces(effect)
            found.append(Ability(parsed[1], parsed[2], parsed[0], parsed[3], produces, fixed))
    return tuple(found)


def ability_of(obs: dict, oid: str, index) -> Ability | None:
    """Ability ``index`` of object ``oid`` in ``obs``, or None."""
    o = obs["objects"].get(oid) if isinstance(oid, str) else None
    if o is None or not isinstance(index, int) or isinstance(index, bool) or index < 0:
        return None
    found = abilities(o["name"], tuple(o["subtypes"]))
    return found[index] if index < len(found) else None


def activation_on_battlefield(event: dict, before: dict) -> tuple[str, dict, Ability | None] | None:
    """For an ``activate`` event on a permanent (CR 602.2): ``(object id, object as observed
    before, its ability as written or None)``; None for any other event or object."""
    if event.get("type") != "activate":
        return None
    oid = event.get("object")
    if not isinstance(oid, str):
        return None
    o = before["objects"].get(oid)
    if o is None or o["zone"] != "battlefield":
        return None
    return oid, o, ability_of(before, oid, event.get("ability"))


@cache
def _text(name: str) -> str:
    try:
        return cards.card(name).oracle_text
    except cards.UnknownCardName:
        return ""


@cache
def replacement(name: str) -> tuple[str, int] | None:
    """The "tapped for mana" replacement effect of a card (CR 106.12b): ``("you", k)`` for
    "If you tap a permanent for mana, it produces k times as much" (twice: 2, three
    times: 3), ``("black", 1)`` for Contamination's "If a land is tapped for mana, it
    produces {B} instead of any other type and amount", else None."""
    text = _text(name)
    if "If you tap a permanent for mana, it produces twice as much" in text:
        return ("you", 2)
    if "If you tap a permanent for mana, it produces three times as much" in text:
        return ("you", 3)
    if "If a land is tapped for mana, it produces {B} instead of any other type and amount" in text:
        return ("black", 1)
    return None


@cache
def land_trigger(name: str) -> bool:
    """Whether the card has "Whenever a player taps a land for mana, that player adds one
    mana of any type that land produced" (CR 106.12a)."""
    return "Whenever a player taps a land for mana, that player adds one mana of any type that land produced" \
        in _text(name)


@per_observation
def battlefield(obs: dict) -> tuple[tuple[str, dict], ...]:
    """(id, object) of every permanent, in the order the observation lists the battlefield
    (a shared view: :mod:`.views`)."""
    objects = obs["objects"]
    return tuple((oid, objects[oid]) for oid in obs["zones"]["battlefield"] if oid in objects)


def is_land(o: dict) -> bool:
    return "Land" in o["types"]


def replacements_for(obs: dict, source: dict, player: str) -> list[tuple[str, str, int]]:
    """Replacement effects that apply when ``player`` taps ``source`` for mana:
    (id, kind, factor) for each permanent whose card creates one (CR 106.12b)."""
    out = []
    for oid, o, r in _replacing(obs):
        if r[0] == "you" and o["controller"] == player:
            out.append((oid, "multiply", r[1]))
        elif r[0] == "black" and is_land(source):
            out.append((oid, "black", 1))
    return out


@per_observation
def _replacing(obs: dict) -> tuple[tuple[str, dict, tuple[str, int]], ...]:
    """``(id, object, its card's replacement)`` of each permanent whose card creates a "tapped for
    mana" replacement effect (:func:`replacement`), in battlefield order (a shared view: :mod:`.views`)."""
    return tuple((oid, o, r) for oid, o in battlefield(obs) if (r := replacement(o["name"])) is not None)


def apply_in_order(mana: dict[str, int], effects) -> dict[str, int]:
    """``mana`` after replacement effects (kind, factor) applied in order."""
    for kind, factor in effects:
        mana = {"B": 1} if kind == "black" else {t: n * factor for t, n in mana.items()}
    return mana


def outcomes(mana: dict[str, int], effects: list[tuple[str, int]]) -> list[dict[str, int]]:
    """The mana after ``effects`` in every possible order (CR 616.1), without duplicates (new dicts),
    worked out without trying the orders: with no "black" effect every order multiplies ``mana`` by
    every factor (one result); else the last black effect gives {B} (Contamination) and the
    multiplying effects placed after it, any of them, multiply that: one result per product of some
    of their factors, in increasing amount."""
    factors = [factor for kind, factor in effects if kind != "black"]
    if len(factors) == len(effects):
        return [apply_in_order(dict(mana), effects)]
    products = {1}
    for factor in factors:
        products |= {p * factor for p in products}
    return [{"B": p} for p in sorted(products)]


@per_observation
def could_produce(obs: dict) -> dict[str, frozenset[str]]:
    """The types each permanent could produce (CR 106.7), by id: the least fixed point of
    "what its mana abilities would add, after replacement effects in any order" (a shared view,
    worked out once per observation for every mana invariant: :mod:`.views`; not to be changed)."""
    perms = battlefield(obs)
    known: dict[str, frozenset[str]] = {oid: frozenset() for oid, _ in perms}
    changed = True
    while changed:
        changed = False
        for oid, o in perms:
            types = set(known[oid])
            for ability in abilities(o["name"], tuple(o["subtypes"])):
                base = base_types(obs, o, ability, known)
                if not base:
                    continue
                effects = [(k, f) for _, k, f in replacements_for(obs, o, o["controller"])] if ability.tap else []
                for result in outcomes({t: 1 for t in base}, effects):
                    types.update(t for t, n in result.items() if n)
            if frozenset(types) != known[oid]:
                known[oid] = frozenset(types)
                changed = True
    return known


def base_types(obs: dict, o: dict, ability: Ability, known: dict[str, frozenset[str]]) -> frozenset[str]:
    """The types ``ability`` of ``o`` could add before replacement effects."""
    if ability.produces == FIXED:
        return frozenset(ability.fixed)
    if ability.produces == ANY_COLOR:
        return frozenset(COLORS)
    if ability.produces == LAND_YOU_CONTROL:
        return frozenset().union(*(known.get(i, frozenset()) for i, x in battlefield(obs)
                                   if is_land(x) and x["controller"] == o["controller"]))
    if ability.produces == OPPONENT_LAND:
        return frozenset().union(*(known.get(i, frozenset()) for i, x in battlefield(obs)
                                   if is_land(x) and x["controller"] != o["controller"])) & frozenset(COLORS)
    return frozenset()


def pool(obs: dict, player: str) -> dict[str, int]:
    """``player``'s mana pool in ``obs`` (all six types; missing ones 0)."""
    found = obs["players"].get(player, {}).get("mana_pool") or {}
    return {t: int(found.get(t, 0)) for t in MANA_TYPES}


def payable(available: dict[str, int], symbols) -> bool | None:
    """Whether ``available`` mana pays ``symbols``; None for symbols this model can't judge."""
    left = dict(available)
    hybrid, generic = [], 0
    for s in symbols:
        if s in MANA_TYPES:
            if left.get(s, 0) <= 0:
                return False
            left[s] -= 1
        elif s.isdigit():
            generic += int(s)
        elif "/" in s and all(h in MANA_TYPES for h in s.split("/")):
            hybrid.append(s.split("/"))
        else:
            return None

    def go(i: int) -> bool:
        if i == len(hybrid):
            return sum(left.values()) >= generic
        for half in hybrid[i]:
            if left.get(half, 0) > 0:
                left[half] -= 1
                ok = go(i + 1)
                left[half] += 1
                if ok:
                    return True
        return False

    return go(0)
