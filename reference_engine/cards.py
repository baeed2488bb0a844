"""Card definitions: Oracle data (package data) plus the behaviour this engine models.

Each card the engine can put into a game has two parts:

* its Oracle characteristics (name, mana cost, types, colours, printed power and
  toughness, rules text), read from ``reference_engine/data/cards.json``, a copy of the
  project's reference Oracle data;
* a :class:`CardScript` that says which of its abilities the engine models, and lists
  the abilities it does *not* model, so nothing is dropped silently.

Only cards with a script are playable; :func:`card` raises :class:`UnknownCard` for the
rest.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from .errors import UnknownCard

#: Keyword abilities the engine understands (CR 702).
KEYWORDS = frozenset(
    {
        "deathtouch",  # 702.2
        "indestructible",  # 702.12
        "umbra armor",  # 702.89
        "first strike",
        "flying",
        "lifelink",
        "reach",
        "vigilance",
        "flash",
        "changeling",
    }
)


@dataclass(frozen=True, slots=True)
class CardDef:
    """The Oracle characteristics of a card (CR 109.3, 208).

    ``power`` and ``toughness`` are ints, or None for non-creatures. ``x_in_cost`` is
    the number of {X} symbols in the mana cost (CR 107.3).
    """

    name: str
    mana_cost: str
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...]
    power: int | None
    toughness: int | None
    oracle_text: str

    @property
    def x_in_cost(self) -> int:
        return self.mana_cost.count("{X}")


@dataclass(frozen=True, slots=True)
class CardScript:
    """What the reference engine models of a card.

    Fields:
        keywords: keyword abilities printed on the card (CR 702).
        enchant: for Auras, the enchant restriction: ``"creature"``,
            ``"creature you control"`` or ``"permanent"`` (CR 303.4a, 702.5).
        enchanted_pt: (+power, +toughness) the Aura gives the enchanted creature,
            a layer 7c effect (CR 613.4c).
        enchanted_base_pt: base power and toughness the Aura sets, a layer 7b effect
            (CR 613.4b), e.g. Octopus Umbra's 8/8.
        enchanted_keywords: keywords the Aura grants to the enchanted permanent
            (layer 6, CR 613.1f).
        grants_umbra_armor_to_auras: Umbra Mystic's static ability.
        umbra_armor_unless_opponent_controls: Dog Umbra: the Aura has umbra armor
            unless another player controls the enchanted creature.
        regenerate: the permanent has "{cost}: Regenerate this" (CR 701.15a);
            mana is not modelled, so activating it only needs the permanent on the
            battlefield.
        spell: for instants and sorceries, the effect kind the engine resolves.
        spell_amount: damage dealt or +N/+N given by the spell.
        not_modelled: abilities on the card the engine does not model.
    """

    keywords: frozenset[str] = frozenset()
    enchant: str | None = None
    enchanted_pt: tuple[int, int] | None = None
    enchanted_base_pt: tuple[int, int] | None = None
    enchanted_keywords: frozenset[str] = frozenset()
    grants_umbra_armor_to_auras: bool = False
    umbra_armor_unless_opponent_controls: bool = False
    regenerate: bool = False
    spell: str | None = None
    spell_amount: int = 0
    not_modelled: tuple[str, ...] = field(default=())


def _umbra(pt=None, base=None, grants=(), not_modelled=(), enchant="creature", extra=()):
    return CardScript(
        keywords=frozenset({"umbra armor", *extra}),
        enchant=enchant,
        enchanted_pt=pt,
        enchanted_base_pt=base,
        enchanted_keywords=frozenset(grants),
        not_modelled=tuple(not_modelled),
    )


#: The scripted card pool. Keys are Oracle names.
SCRIPTS: dict[str, CardScript] = {
    # Umbra Auras (CR 702.89).
    "Hyena Umbra": _umbra(pt=(1, 1), grants={"first strike"}),
    "Bear Umbra": _umbra(
        pt=(2, 2), not_modelled=('granted "Whenever this creature attacks, untap all lands you control."',)
    ),
    "Snake Umbra": _umbra(
        pt=(1, 1),
        not_modelled=('granted "Whenever this creature deals damage to an opponent, you may draw a card."',),
    ),
    "Spider Umbra": _umbra(pt=(1, 1), grants={"reach"}),
    "Boar Umbra": _umbra(pt=(3, 3)),
    "Eel Umbra": _umbra(pt=(1, 1), extra={"flash"}, not_modelled=("Flash (casting is not modelled)",)),
    "Eland Umbra": _umbra(pt=(0, 4)),
    "Drake Umbra": _umbra(pt=(3, 3), grants={"flying"}),
    "Mammoth Umbra": _umbra(pt=(3, 3), grants={"vigilance"}),
    "Felidar Umbra": _umbra(
        grants={"lifelink"},
        not_modelled=("the mana cost {1}{W} of its attach ability (the attach event is free)",),
    ),
    "Crab Umbra": _umbra(not_modelled=("{2}{U}: Untap enchanted creature.",)),
    "Indrik Umbra": _umbra(
        pt=(4, 4), grants={"first strike"}, not_modelled=("all creatures able to block it do so",)
    ),
    "Treefolk Umbra": _umbra(
        pt=(0, 2), not_modelled=("assigns combat damage equal to its toughness (combat damage is not modelled)",)
    ),
    "Octopus Umbra": _umbra(
        base=(8, 8),
        not_modelled=('granted "Whenever this creature attacks, you may tap target creature with power 8 or less."',),
    ),
    "Dog Umbra": CardScript(
        keywords=frozenset({"flash"}),
        enchant="creature",
        umbra_armor_unless_opponent_controls=True,
        not_modelled=(
            "Flash (casting is not modelled)",
            "enchanted creature can't attack or block while another player controls it",
        ),
    ),
    "Umbra Mystic": CardScript(grants_umbra_armor_to_auras=True),
    # Creatures.
    "Grizzly Bears": CardScript(),
    "Typhoid Rats": CardScript(keywords=frozenset({"deathtouch"})),
    "Darksteel Myr": CardScript(keywords=frozenset({"indestructible"})),
    "River Boa": CardScript(regenerate=True, not_modelled=("Islandwalk", "the {G} cost of its regeneration ability")),
    "Drudge Skeletons": CardScript(regenerate=True, not_modelled=("the {B} cost of its regeneration ability",)),
    "Isamaru, Hound of Konda": CardScript(),
    # Instants and sorceries: resolved directly by the "cast" event (the stack is not modelled).
    "Murder": CardScript(spell="destroy"),
    "Doom Blade": CardScript(spell="destroy_nonblack"),
    "Breathe Your Last": CardScript(spell="destroy_gain_life"),
    "Wrath of God": CardScript(spell="destroy_all_creatures"),
    "Shock": CardScript(spell="damage", spell_amount=2),
    "Lightning Bolt": CardScript(spell="damage", spell_amount=3),
    "Giant Growth": CardScript(spell="pump", spell_amount=3),
}


def _pt(value) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int):
        return value
    if re.fullmatch(r"-?\d+", str(value)):
        return int(value)
    return 0  # '*' power/toughness: only characteristic-defining abilities set it


@lru_cache(maxsize=1)
def oracle_data() -> dict[str, dict]:
    """All Oracle records shipped with the package, keyed by card name."""
    text = resources.files("reference_engine").joinpath("data/cards.json").read_text(encoding="utf-8")
    return {record["name"]: record for record in json.loads(text)}


@lru_cache(maxsize=None)
def card(name: str) -> tuple[CardDef, CardScript]:
    """The definition and script of a playable card.

    Raises:
        UnknownCard: the name is not an Oracle name in the package data, or the
            engine has no script for it.
    """
    record = oracle_data().get(name)
    script = SCRIPTS.get(name)
    if record is None or script is None:
        raise UnknownCard(name, sorted(SCRIPTS))
    type_line = record.get("type_line") or ""
    definition = CardDef(
        name=name,
        mana_cost=record.get("mana_cost") or "",
        supertypes=tuple(record.get("supertypes") or ()),
        types=tuple(record.get("types") or ()),
        subtypes=tuple(record.get("subtypes") or ()),
        colors=tuple(record.get("colors") or ()),
        power=_pt(record.get("power")) if "Creature" in type_line else None,
        toughness=_pt(record.get("toughness")) if "Creature" in type_line else None,
        oracle_text=record.get("oracle_text") or "",
    )
    return definition, script


def playable_cards() -> list[str]:
    """Names of every card the engine can play, sorted."""
    return sorted(SCRIPTS)
