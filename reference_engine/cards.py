"""Card definitions: Oracle data (package data) plus the behaviour this engine models.

Each card the engine can put into a game has two parts:

* its Oracle characteristics (name, mana cost, types, colours, printed power and
  toughness, rules text), read from the neutral card data package :mod:`cards`;
* a :class:`CardScript` that says which of its abilities the engine models, and lists
  the abilities it does *not* model, so nothing is dropped silently.

Only cards with a script are playable; :func:`card` raises :class:`UnknownCard` for the
rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache

import cards as card_data
from cards import Card, mana_value  # noqa: F401  (mana_value is re-exported)
from cards import reader as card_reader
from cards.model import CardModel

from .abilities import SEARCH_BASIC_LAND_TAPPED
from .errors import UnknownCard
from .unpublished import UNPUBLISHED

#: Keyword abilities the engine understands (CR 702): a card's keywords are those of its
#: Oracle keywords (card data) that are in this set (:func:`card`).
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
        "trample",
    }
)


#: Spell kinds of reference_engine.search (a script's ``spell``): Explosive Vegetation's search
#: for up to ``spell_amount`` basic land cards, Bile Blight's -N/-N to a creature and every other
#: creature with the same name (CR 201.2a).
SEARCH_BASIC_LANDS_TAPPED = "search for basic land cards, onto the battlefield tapped"
SAME_NAME_MINUS = "target creature and all others with the same name get -N/-N"

#: The Oracle characteristics of a card (CR 109.3, 208): the neutral card data's record,
#: shared with the harness and the invariants (no card fact is written twice).
CardDef = Card


@dataclass(frozen=True, slots=True)
class CardScript:
    """What the reference engine models of a card.

    Fields (``keywords``, ``enchanted_pt`` and ``enchanted_base_pt`` of a card are read from
    its Oracle data by :func:`card`; a script gives them only for a token, which has no card):
        keywords: keyword abilities printed on the card that the engine understands (CR 702).
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
        enters_with_x_counters: "This enters with X +1/+1 counters on it", a replacement
            effect (CR 614.1c) whose X is the X of the spell that became the permanent
            (CR 107.3m); 0 for a copy or a permanent not cast.
        enters_as_copy: "You may have this enter as a copy of any creature on the
            battlefield" (``"creature"``, Clone) or "... any creature you control"
            (``"creature you control"``, Mirror Image): CR 707.5, layer 1.
        enters_trigger: the kind of its "When this enters, ..." triggered ability (CR 603.6a):
            ``"destroy nonartifact nonblack"`` (Nekrataal) or ``"search artifact to graveyard"``
            (Goblin Engineer).
        dies_trigger: the kind of its "When this dies, ..." ability (CR 603.6c, 700.4):
            ``"thopter per +1/+1 counter"`` (Hangarback Walker).
        graveyard_trigger: the kind of its "When this is put into a graveyard from the
            battlefield, ..." ability (CR 603.6c): ``"copy enchanted creature, black"``
            (Penumbra Umbra).
        activated: the kind of each activated ability written in its Oracle text, in order
            (kinds in :mod:`reference_engine.abilities`; the costs are read from the text,
            and a basic land type's mana ability comes from the subtype, CR 305.6).
        mana_replacement: its "tapped for mana" replacement effect (CR 106.12b), a kind
            of :mod:`reference_engine.mana`: Mana Reflection, Nyxbloom Ancient, Contamination.
        land_mana_trigger: "Whenever a player taps a land for mana, that player adds one
            mana of any type that land produced" (CR 106.12a; Heartbeat of Spring, Mana Flare).
        chance_replacements: its replacement effects on coin flips and die rolls (CR 614.1a,
            705, 706), names of :data:`reference_engine.chance.REPLACEMENTS`.
        chance_trigger: its ability that triggers on coin flips or die rolls, a name of
            :data:`reference_engine.chance.TRIGGERS`.
        equipped_pt: (+power, +toughness) an Equipment gives the equipped creature, a
            layer 7c effect (CR 613.4c; Sword of the Meek's "Equipped creature gets +1/+2").
        no_maximum_hand_size: "You have no maximum hand size" (CR 402.2; Thought Vessel).
        grants_playtest_supertypes: Orb of Origin's last ability, "other noncreature
            artifacts" are mono and continuous (its rulings; :mod:`reference_engine.playtest`).
        not_modelled: abilities on the card the engine does not model.
        enters_tapped: "This enters tapped" (CR 614.1c; a card of the card database).
        equipped_keywords: keywords an Equipment grants the equipped creature (layer 6).
        model: for a card of the card database (not of the curated pool), its
            :class:`cards.model.CardModel`, from which :func:`script_from_model` derived
            this script; the engine resolves its spell, triggered and activated abilities
            and its anthems from it (:mod:`reference_engine.model_cards`). None for the
            curated pool's hand-written scripts. Not compared (its derived fields are).
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
    enters_with_x_counters: bool = False
    enters_as_copy: str | None = None
    enters_trigger: str | None = None
    dies_trigger: str | None = None
    graveyard_trigger: str | None = None
    activated: tuple[str, ...] = ()
    mana_replacement: str | None = None
    land_mana_trigger: bool = False
    chance_replacements: tuple[str, ...] = ()
    chance_trigger: str | None = None
    equipped_pt: tuple[int, int] | None = None
    no_maximum_hand_size: bool = False
    grants_playtest_supertypes: bool = False
    not_modelled: tuple[str, ...] = field(default=())
    enters_tapped: bool = False
    equipped_keywords: frozenset[str] = frozenset()
    model: CardModel | None = field(default=None, compare=False, repr=False)


def _umbra(grants=(), not_modelled=(), enchant="creature", graveyard_trigger=None):
    return CardScript(
        enchant=enchant,
        enchanted_keywords=frozenset(grants),
        graveyard_trigger=graveyard_trigger,
        not_modelled=tuple(not_modelled),
    )


#: The scripted card pool. Keys are Oracle names.
SCRIPTS: dict[str, CardScript] = {
    # Umbra Auras (CR 702.89).
    "Hyena Umbra": _umbra(grants={"first strike"}),
    "Bear Umbra": _umbra(not_modelled=('granted "Whenever this creature attacks, untap all lands you control."',)
    ),
    "Snake Umbra": _umbra(not_modelled=('granted "Whenever this creature deals damage to an opponent, you may draw a card."',),
    ),
    "Spider Umbra": _umbra(grants={"reach"}),
    "Boar Umbra": _umbra(),
    "Eel Umbra": _umbra(not_modelled=("Flash (casting is not modelled)",)),
    "Eland Umbra": _umbra(),
    "Drake Umbra": _umbra(grants={"flying"}),
    "Mammoth Umbra": _umbra(grants={"vigilance"}),
    "Felidar Umbra": _umbra(
        grants={"lifelink"},
        not_modelled=("the mana cost {1}{W} of its attach ability (the attach event is free)",),
    ),
    "Crab Umbra": _umbra(not_modelled=("{2}{U}: Untap enchanted creature.",)),
    "Indrik Umbra": _umbra(grants={"first strike"}, not_modelled=("all creatures able to block it do so",)
    ),
    "Treefolk Umbra": _umbra(),  # "assigns combat damage equal to its toughness": reference_engine.combat
    "Octopus Umbra": _umbra(not_modelled=('granted "Whenever this creature attacks, you may tap target creature with power 8 or less."',),
    ),
    "Penumbra Umbra": _umbra(enchant="creature you control", graveyard_trigger="copy enchanted creature, black"),
    "Dog Umbra": CardScript(
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
    "Typhoid Rats": CardScript(),
    "Darksteel Myr": CardScript(),
    "River Boa": CardScript(regenerate=True, not_modelled=("Islandwalk", "the {G} cost of its regeneration ability")),
    "Drudge Skeletons": CardScript(regenerate=True, not_modelled=("the {B} cost of its regeneration ability",)),
    "Isamaru, Hound of Konda": CardScript(),
    # Copies (CR 707) and {X} (CR 107.3).
    "Clone": CardScript(enters_as_copy="creature"),
    "Mirror Image": CardScript(enters_as_copy="creature you control"),
    "Hangarback Walker": CardScript(
        enters_with_x_counters=True, dies_trigger="thopter per +1/+1 counter",
        not_modelled=("{1}, {T}: Put a +1/+1 counter on Hangarback Walker. (use the add_counters event)",),
    ),
    "Endless One": CardScript(enters_with_x_counters=True),
    "Stonecoil Serpent": CardScript(
        enters_with_x_counters=True,
        not_modelled=("protection from multicolored",),
    ),
    "Hydroid Krasis": CardScript(
        enters_with_x_counters=True,
        not_modelled=("When you cast this spell, you gain half X life and draw half X cards. (casting is not "
                      "modelled)",),
    ),
    # Enters-the-battlefield triggered abilities (CR 603.6a).
    "Nekrataal": CardScript(enters_trigger="destroy nonartifact nonblack"),
    "Goblin Engineer": CardScript(
        enters_trigger="search artifact to graveyard",
        not_modelled=("{R}, {T}, Sacrifice an artifact: Return target artifact card with mana value 3 or less "
                      "from your graveyard to the battlefield.", "the shuffle (library order is not modelled)"),
    ),
    # Instants and sorceries: resolved directly by the "cast" event (the stack is not modelled).
    "Murder": CardScript(spell="destroy"),
    "Doom Blade": CardScript(spell="destroy_nonblack"),
    "Breathe Your Last": CardScript(spell="destroy_gain_life"),
    "Wrath of God": CardScript(spell="destroy_all_creatures"),
    "Shock": CardScript(spell="damage", spell_amount=2),
    "Lightning Bolt": CardScript(spell="damage", spell_amount=3),
    "Giant Growth": CardScript(spell="pump", spell_amount=3),
    "Cackling Counterpart": CardScript(spell="token_copy", not_modelled=("Flashback {5}{U}{U}",)),
    "Raise the Alarm": CardScript(spell="soldier_tokens", spell_amount=2),
    # Coins and dice (CR 705, 706; reference_engine.chance).
    "Krark's Thumb": CardScript(chance_replacements=("thumb",)),
    "Pixie Guide": CardScript(chance_replacements=("advantage",)),
    # Its unpublished first ability is unknown (reference_engine.unpublished): only what its rulings state.
    "Pokey, the Scallywagg": CardScript(chance_replacements=("pokey: flip to d20", "pokey: d20 to flip")),
    "Tavern Scoundrel": CardScript(chance_trigger="win a coin flip", activated=("flip a coin",)),
    "Brazen Dwarf": CardScript(chance_trigger="roll one or more dice"),
    # Omnipresent Impostor's names and library searches (reference_engine.search; its rulings 2024-11-08).
    # Its names come from its Oracle text (cards.Card.has_all_card_names); changeling is observed as
    # the keyword (no card of the pool checks a creature type).
    "Omnipresent Impostor": CardScript(),
    "Sakura-Tribe Elder": CardScript(activated=(SEARCH_BASIC_LAND_TAPPED,),
                                     not_modelled=("the shuffle (library order is not modelled)",)),
    "Explosive Vegetation": CardScript(spell=SEARCH_BASIC_LANDS_TAPPED, spell_amount=2,
                                       not_modelled=("the shuffle (library order is not modelled)",)),
    "Bile Blight": CardScript(spell=SAME_NAME_MINUS, spell_amount=3),
    # Playtest supertypes (reference_engine.playtest). Orb of Origin's Oracle text is not
    # published (reference_engine.unpublished): its first ability (cost without {T}, poly)
    # and its last (mono and continuous for other noncreature artifacts) are modelled
    # exactly as its rulings (2024-11-08) state, nothing else.
    "Orb of Origin": CardScript(grants_playtest_supertypes=True),
    "Sword of the Meek": CardScript(
        equipped_pt=(1, 2), activated=("equip",),
        not_modelled=("Whenever a 1/1 creature enters the battlefield under your control, you may return Sword "
                      "of the Meek from your graveyard to the battlefield, then attach it to that creature.",),
    ),
}

from .mana_scripts import mana_card_scripts  # noqa: E402  (its scripts are CardScripts)

SCRIPTS.update(mana_card_scripts(CardScript))

#: Tokens whose characteristics are defined by the effect that creates them (CR 111.3,
#: 111.4: an unnamed token is named after its subtypes plus "Token").
TOKEN_DEFS: dict[str, tuple[CardDef, CardScript]] = {
    "Soldier": (
        CardDef("Soldier Token", "", (), ("Creature",), ("Soldier",), ("W",), 1, 1, ""),
        CardScript(),
    ),
    "Thopter": (
        CardDef("Thopter Token", "", (), ("Artifact", "Creature"), ("Thopter",), (), 1, 1, "Flying"),
        CardScript(keywords=frozenset({"flying"})),
    ),
    # Estrid, the Masked's -1: "Create a white Aura enchantment token named Mask attached to
    # another target permanent. The token has enchant permanent and umbra armor."
    "Mask": (
        CardDef("Mask", "", (), ("Enchantment",), ("Aura",), ("W",), None, None, "Enchant permanent\nUmbra armor",
                frozenset({"enchant permanent", "umbra armor"})),
        CardScript(keywords=frozenset({"umbra armor"}), enchant="permanent"),
    ),
    # CR 111.10a: "a colorless Treasure artifact token with '{T}, Sacrifice this artifact:
    # Add one mana of any color.'" (Tavern Scoundrel).
    "Treasure": (
        CardDef("Treasure Token", "", (), ("Artifact",), ("Treasure",), (), None, None,
                "{T}, Sacrifice this artifact: Add one mana of any color."),
        CardScript(not_modelled=("{T}, Sacrifice this artifact: Add one mana of any color.",)),
    ),
}


def token_definition(name) -> tuple[CardDef, CardScript] | None:
    """The characteristics an effect of the card pool defines for a token named ``name``
    (``"Mask"``, ``"Thopter Token"``, ``"Soldier Token"``; CR 111.3, 111.4), or None."""
    return next((d for d in TOKEN_DEFS.values() if d[0].name == name), None)


@cache
def card(name: str) -> tuple[CardDef, CardScript]:
    """The definition and script of a playable card: a card of the curated pool with its
    hand-written script (:data:`SCRIPTS`), or any other *modelled* card of the card data
    (``cards.reader.model(name).modelled``) with the script :func:`script_from_model`
    derives from its card model.

    Raises:
        UnknownCard: the name is not an Oracle name in the card data, or the engine
            has no script for it and its card is not modelled (or is a face of a
            multi-face card, whose other faces the engine doesn't model).
    """
    script = SCRIPTS.get(name)
    if script is None or name not in card_data.pool():
        if name in SCRIPTS or not isinstance(name, str) or name in card_data.pool():
            raise UnknownCard(name, sorted(SCRIPTS))
        found = _modelled_card(name)
        if found is None:
            raise UnknownCard(name, sorted(SCRIPTS))
        return found
    definition = UNPUBLISHED.get(name) or card_data.card(name)
    return definition, replace(script, keywords=frozenset(definition.keywords) & KEYWORDS,
                               enchanted_pt=_pt(_ENCHANTED_GETS, definition.oracle_text),
                               enchanted_base_pt=_pt(_ENCHANTED_BASE, definition.oracle_text))


#: "Enchanted creature gets +N/+M" (a layer 7c effect, CR 613.4c) and "Enchanted creature has
#: base power and toughness N/M" (layer 7b, CR 613.4b), read from an Aura's Oracle text.
_ENCHANTED_GETS = re.compile(r"^Enchanted creature gets \+(\d+)/\+(\d+)", re.M)
_ENCHANTED_BASE = re.compile(r"^Enchanted creature has base power and toughness (\d+)/(\d+)", re.M)


def _pt(pattern: re.Pattern, text: str) -> tuple[int, int] | None:
    match = pattern.search(text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def playable_cards() -> list[str]:
    """Names of every card of the scripted pool (the curated cards with a hand-written
    script), sorted. The engine also plays every modelled card of the card data:
    :func:`plays`."""
    return sorted(SCRIPTS)


def plays(name) -> bool:
    """Whether the engine plays the card named ``name``: a card of the scripted pool, or a
    modelled card of the card data (:func:`card` succeeds)."""
    try:
        card(name)
    except (UnknownCard, TypeError):
        return False
    return True


def _modelled_card(name: str) -> tuple[CardDef, CardScript] | None:
    """A card of the card data that the reader models, with its derived script, or None."""
    definition = card_data.lookup(name)
    if definition is None or definition.name != name or definition.faces or definition.layout != "normal":
        return None
    model = card_reader.read(definition)
    if not model.modelled or model.hand_written:
        return None
    return definition, script_from_model(model, definition)


#: Keyword abilities a model card's keyword lines give that are observed as keywords
#: (``enchant`` and ``equip`` are not: they are its enchant restriction and its equip ability).
_NOT_OBSERVED = ("enchant", "equip")


def script_from_model(model: CardModel, definition: CardDef | None = None) -> CardScript:
    """The :class:`CardScript` of a modelled card that has no hand-written one, derived from its
    card model (``cards.reader.read``): what the engine's existing fields can say (keywords,
    enchant restriction, Aura and Equipment bonuses, regeneration, activated ability kinds,
    enters tapped) plus the model itself, which :mod:`reference_engine.model_cards` reads
    for spells, triggered and activated effects and anthems.
    """
    import reference_engine.abilities as A

    keywords = frozenset(k for k in model.keywords() if k.split(" ")[0] not in _NOT_OBSERVED)
    enchant = next((a.parameter for a in model.abilities if a.kind == "keyword" and a.keyword == "enchant"), None)
    enchanted_pt = equipped_pt = None
    enchanted_keywords: frozenset[str] = frozenset()
    equipped_keywords: frozenset[str] = frozenset()
    for a in model.of("static"):
        if a.static != "bonus" or a.affected is None:
            continue
        if a.affected.scope == "enchanted":
            enchanted_pt = (a.power, a.toughness) if (a.power or a.toughness) else enchanted_pt
            enchanted_keywords |= frozenset(a.keywords)
        elif a.affected.scope == "equipped":
            equipped_pt = (a.power, a.toughness) if (a.power or a.toughness) else equipped_pt
            equipped_keywords |= frozenset(a.keywords)
    activated: tuple[str, ...] = ()
    if definition is not None:
        activated = _activated_kinds(model, definition, A)
    spell = None
    if definition is not None and set(definition.types) & {"Instant", "Sorcery"}:
        spell = MODEL_SPELL
    return CardScript(
        keywords=keywords, enchant=enchant, enchanted_pt=enchanted_pt, enchanted_keywords=enchanted_keywords,
        regenerate=any(a.template == "regenerate" for a in model.of("activated")),
        spell=spell, activated=activated,
        equipped_pt=equipped_pt, equipped_keywords=equipped_keywords,
        enters_tapped=any(a.static == "enters tapped" for a in model.of("static")),
        model=model,
    )


#: The ``spell`` kind of an instant or sorcery whose effects come from its card model.
MODEL_SPELL = "model"


def _activated_kinds(model: CardModel, definition: CardDef, A) -> tuple[str, ...]:
    """One kind of :mod:`.abilities` per activated ability written in the card's text, in
    order (:func:`.abilities.activated_lines`): each model ability of kind ``"mana"``,
    ``"activated"`` or the equip keyword, in text order (the intrinsic mana ability of a
    basic land type is not written, CR 305.6). If the two readings disagree on how many
    there are, every one is ``NOT_MODELLED`` (activating it is declined)."""
    written = A.activated_lines(definition.oracle_text)
    read = [a for a in model.abilities
            if (a.kind in ("mana", "activated") and not a.text.startswith("("))
            or (a.kind == "keyword" and a.keyword == "equip")]
    if len(written) != len(read):
        return (A.NOT_MODELLED,) * len(written)
    kinds = []
    for (_cost, effect, _line), a in zip(written, read):
        if a.kind == "keyword":
            kinds.append(A.EQUIP if effect == A.EQUIP else A.NOT_MODELLED)
        elif a.kind == "mana":
            if a.produces == ("any color",):
                kinds.append(A.ADD_ANY_COLOR)
            elif len(a.produces) > 1:
                kinds.append(A.ADD_ONE_OF)
            else:
                kinds.append(A.ADD)
        else:
            kinds.append(A.MODEL_EFFECT)
    return tuple(kinds)
