"""What a run generates for one engine, decided once per run from its ``EngineInfo``.

A :class:`Plan` joins three things: the cards the engine plays (``EngineInfo.cards``,
None meaning the whole pool of :mod:`cards`), the capabilities it claims, and the
capability table ``harness.protocol.CAPABILITIES``. It says which cards each generator
list may use, which board features boards may have, which rules (events) the state
machine runs and which invariants are checked, and for everything left out, why.
``rulesfuzz plan --engine E`` prints it.

**Declared cards** (``EngineInfo.cards`` naming cards of the database, and
``EngineInfo.card_definitions``): a card of the curated pool goes into today's named
lists (``strategies.CARD_LISTS``); any other card goes into the lists its *model* says
(:func:`lists_of`: a creature, a destroy spell of one target creature, a sweeper, an
Aura with a bonus, an Equipment, ...), never by its name. A card whose text isn't all
read (``CardModel.unread``) is in :attr:`Plan.unmodelled` with the sentences not read,
and in no list. With ``cards=None`` the lists are exactly the curated ones, each card
kept when the engine claims what it needs (:func:`card_needs`).

**Implied capabilities.** What the cards on a plan's boards and events reach is checked
whether or not the engine claims it (:func:`implied_capabilities`): a legend implies
``legend_rule`` (CR 704.5j), a deathtouch creature ``deathtouch`` and
``sba.deathtouch_damage`` (704.5h), creatures beside damage ``sba.lethal_damage``
(704.5g), and so on. :attr:`Plan.capabilities` is the claims and those together; it
gates the rules and board features and selects the invariants
(:func:`effective_capabilities`). An engine's known gap is ``--skip-invariant``, not a
claim left out.

A card needs the capabilities its Oracle characteristics call for (:func:`card_needs`):
a legend needs ``legend_rule``, a deathtouch creature ``deathtouch``, a card whose text
says "umbra armor" ``umbra_armor``, a creature with {X} in its cost that enters with X
counters ``x_costs`` and ``counters``, and so on. Rules of the state machine name the
capabilities and the card list they need (``harness.rules.needs``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from hypothesis import strategies as st

import cards as card_data
from cards import reader
from cards.model import TEMPLATES, Effect

from harness.generation import strategies as S
from harness.generation.needs import card_needs
from harness.protocol import CAPABILITIES


#: Board feature -> the capability that unlocks it, from the capability table.
FEATURES: dict[str, str] = {feature: cap.name for cap in CAPABILITIES.values() for feature in cap.board_features}

#: Capabilities a card itself implies (its keywords, supertypes, abilities): a declared
#: card needing only these is generated without a claim, and implies them.
CARD_IMPLIED = frozenset({"legend_rule", "deathtouch", "indestructible", "umbra_armor", "regeneration"})
#: What an instant's or sorcery's own effect needs (card_needs): casting a declared spell is
#: the card's event, not an event kind the engine claims.
SPELL_IMPLIED = frozenset({"destroy", "damage", "pt_until_end_of_turn"})

#: The generator lists filled from card models (besides the curated ones of strategies.CARD_LISTS).
MODEL_LISTS = ("shrink_spells", "counter_spells", "token_makers", "life_draw_spells", "bonus_auras", "equipment",
               "anthems", "activated_creatures", "divided_damage_spells")


def _single_spell_effect(model) -> Effect | None:
    spells = model.of("spell")
    if len(model.abilities) != len(spells) or len(spells) != 1 or len(spells[0].effects) != 1:
        return None
    return spells[0].effects[0]


def lists_of(card: card_data.Card, model) -> tuple[str, ...]:
    """The generator lists a modelled card that is not of the curated pool belongs to, read
    from its model (:class:`cards.model.CardModel`) and Oracle characteristics, never its name.
    Empty when no generator plays what it does (``rulesfuzz plan`` says so)."""
    keywords = model.keywords()
    if card.is_type("Creature"):
        return _creature_lists(card, model, keywords)
    if card.is_type("Instant") or card.is_type("Sorcery"):
        effect = _single_spell_effect(model)
        if effect is None:
            return ()
        return _removal_spell_lists(effect) or _other_spell_lists(effect)
    return _noncreature_permanent_lists(card, model, keywords)


def _creature_lists(card: card_data.Card, model, keywords) -> tuple[str, ...]:
    """lists_of a creature card."""
    found: list[str] = ["creatures"]
    if "Legendary" in card.supertypes:
        found.append("legends")
    if "deathtouch" in keywords:
        found.append("deathtouch_creatures")
    if "Legendary" not in card.supertypes and (card.toughness or 0) > 1 and "indestructible" not in keywords:
        found.append("survivors")
    if any(a.trigger == "enters" for a in model.of("triggered")):
        found.append("enters_trigger_creatures")
    if model.of("activated") or model.of("mana"):
        found.append("activated_creatures")
    if any(a.static == "bonus" and a.affected and a.affected.scope == "each" for a in model.of("static")):
        found.append("anthems")
    return tuple(found)


def _one_target(effect) -> bool:
    a = effect.affected
    return a.scope == "target" and a.count == 1 and not a.up_to


def _removal_spell_lists(effect) -> tuple[str, ...]:
    """lists_of a spell of one effect that destroys or deals damage (empty if it does neither)."""
    a = effect.affected
    one = _one_target(effect)
    if effect.action == "destroy" and one and a.kind == "creature":
        return ("destroy_spells",)
    if effect.action == "destroy" and a.scope == "each" and a.kind == "creature":
        return ("sweepers",)
    if effect.action == "damage" and effect.divided:  # CR 601.2d (harness.rules.steps)
        return ("divided_damage_spells",)
    if effect.action == "damage" and one and a.kind in ("any", "creature", "player", "creature or player"):
        return ("damage_spells",)
    if effect.action == "damage" and a.scope == "each" and a.kind in ("creature", "creature and player"):
        return ("sweepers",)
    return ()


def _other_spell_lists(effect) -> tuple[str, ...]:
    """lists_of a spell of one effect that neither destroys nor deals damage."""
    a = effect.affected
    one = _one_target(effect)
    if effect.action in ("pt", "gain_keywords") and one and a.kind == "creature":
        return ("shrink_spells",) if effect.toughness < 0 else ("pump_spells",)
    if effect.action == "counters" and one and a.kind == "creature" and effect.counter:
        return ("counter_spells",)
    if effect.action == "create_tokens" and effect.token is not None:
        return ("token_makers",)
    if effect.action in ("exile", "return_to_hand", "flicker") and (one or a.scope == "each") \
            and a.kind not in ("player", "opponent", "any", "creature or player"):
        return ("zone_spells",)
    if effect.action in ("gain_life", "lose_life", "draw") and (a.scope != "target" or one):
        return ("life_draw_spells",)
    return ()


def _noncreature_permanent_lists(card: card_data.Card, model, keywords) -> tuple[str, ...]:
    """lists_of a card neither a creature nor an instant or sorcery: Auras, Equipment, anthems."""
    enchant = [x for x in model.of("keyword") if x.keyword == "enchant"]
    bonus = [x for x in model.of("static") if x.static == "bonus"]
    if "Aura" in card.subtypes and enchant and enchant[0].parameter in ("creature", "creature you control"):
        if "umbra armor" in keywords:
            return ("umbra_auras",)
        if any(x.affected and x.affected.scope == "enchanted" for x in bonus):
            return ("bonus_auras",)
        return ()
    if "Equipment" in card.subtypes and any(x.keyword == "equip" for x in model.of("keyword")):
        return ("equipment",)
    if bonus and all(x.affected and x.affected.scope == "each" for x in bonus) and not card.is_type("Land"):
        return ("anthems",)
    return ()


def group_key(name: str, model) -> tuple:
    """The template group of a card in a list (swarm-style drawing: a group, then a card of
    it): its templates, and for a spell what its effect affects."""
    if model is None:
        return ("curated",)
    effect = _single_spell_effect(model)
    extra = (effect.action, effect.affected.scope, effect.affected.kind, bool(effect.affected.filters)) if effect \
        else ()
    return (*model.templates, *extra)


def implied_capabilities(lists: dict[str, tuple[str, ...]], claimed, models: dict | None = None) -> dict[str, str]:
    """The capabilities what a plan's cards reach implies, beyond those ``claimed``:
    capability -> the card that implies it and why (``rulesfuzz plan`` prints it).

    ``lists`` are a plan's generator lists, ``models`` the card models of its declared cards
    that are not of the curated pool (name -> :class:`cards.model.CardModel`). A legend on
    the boards means two of the same name under one controller (CR 704.5j); a deathtouch
    creature, deathtouch and 704.5h; creatures beside a damage event or spell, 704.5g; an
    indestructible card, 702.12; an umbra armor Aura, 702.89; a regeneration ability,
    701.15; a triggered ability, CR 603; a -N/-N spell beside creatures, 704.5f.
    """
    claimed = frozenset(claimed)
    models = models or {}
    members = list(dict.fromkeys(c for names in lists.values() for c in names))
    found: dict[str, str] = {}

    def imply(cap: str, why: str) -> None:
        if cap not in claimed and cap not in found:
            found[cap] = why

    _imply_from_lists(lists, imply)
    _imply_from_abilities(members, models, imply)
    if lists.get("umbra_auras"):
        imply("umbra_armor", f"{lists['umbra_auras'][0]}: umbra armor (CR 702.89)")
    _imply_beside_creatures(lists, claimed, models, imply)
    castable = [n for n in models if card_data.card(n).is_type("Creature") or "Aura" in card_data.card(n).subtypes]
    if castable:
        imply("cards:permanent spells", f"{castable[0]}: a declared permanent card, cast with cast_permanents (CR 608.3)")
    _imply_card_features(members, imply)
    return found


def _imply_from_lists(lists: dict[str, tuple[str, ...]], imply) -> None:
    """implied_capabilities of legends (CR 704.5j) and deathtouch creatures (702.2, 704.5h)."""
    if lists.get("legends"):
        imply("legend_rule", f"{lists['legends'][0]}: a legendary permanent, two of the same name under one "
                             f"controller (CR 704.5j)")
    if lists.get("deathtouch_creatures"):
        first = lists["deathtouch_creatures"][0]
        imply("deathtouch", f"{first}: deathtouch (CR 702.2)")
        imply("sba.deathtouch_damage", f"{first}: deathtouch damage destroys (CR 704.5h)")


def _imply_from_abilities(members: list[str], models: dict, imply) -> None:
    """implied_capabilities of each card's indestructible (702.12), regeneration (701.15), triggers (603)."""
    for name in members:
        card = card_data.card(name)
        model = models.get(name)
        keywords = model.keywords() if model is not None else card.keywords
        if "indestructible" in keywords:
            imply("indestructible", f"{name}: indestructible (CR 702.12)")
        if model is not None and any(a.template == "regenerate" for a in model.abilities) \
                or model is None and "Regenerate" in card.oracle_text:
            imply("regeneration", f"{name}: regeneration (CR 701.15)")
        if model is not None and model.of("triggered"):
            imply("triggers", f"{name}: a triggered ability (CR 603)")


def _imply_beside_creatures(lists: dict[str, tuple[str, ...]], claimed: frozenset[str], models: dict, imply) -> None:
    """implied_capabilities of creatures beside damage (CR 704.5g) or a -N/-N spell (704.5f)."""
    creatures = lists.get("creatures", ())
    if not creatures:
        return
    damage = lists.get("damage_spells") or [n for n in lists.get("sweepers", ())
                                            if n in models and (effect := _single_spell_effect(models[n])) is not None
                                            and effect.action == "damage"]  # a modelled sweeper has one
    if damage:
        imply("sba.lethal_damage", f"{damage[0]}: damage beside creatures (CR 704.5g)")
    elif "damage" in claimed:
        imply("sba.lethal_damage", f"{creatures[0]}: a creature beside damage events (claim damage; CR 704.5g)")
    if lists.get("shrink_spells"):
        imply("sba.zero_toughness", f"{lists['shrink_spells'][0]}: -N/-N beside creatures (CR 704.5f)")


def _imply_card_features(members: list[str], imply) -> None:
    """implied_capabilities of card features (``cards:...``): lifelink (702.15), templates, life read
    from the game (608.2h)."""
    for name in members:
        model = reader.model(name)
        if "lifelink" in model.keywords() or any("lifelink" in a.keywords for a in model.abilities) \
                or any("lifelink" in e.keywords for a in model.abilities for e in a.effects):
            imply("cards:lifelink", f"{name}: lifelink, its own or one it grants (CR 702.15)")
        for template in model.templates:
            feature = TEMPLATE_FEATURES.get(template)
            if feature is not None:
                imply(feature, f"{name}: {template} ({TEMPLATES[template]})")
        if any(e.per is not None or e.equal_to is not None for a in model.abilities for e in a.effects):
            imply("cards:life from the game", f"{name}: a life amount read from the game (CR 608.2h)")


def area_cards(capabilities, declared, plays_needs) -> dict[str, str]:
    """The cards the rules areas (:mod:`harness.rules`) put on boards or into events by name,
    beyond the generator lists (``Plan.lists``), for an engine whose plan has ``capabilities``
    (claimed and implied) and declares ``declared`` (None: the curated pool): card -> which
    area puts it there and when. ``plays_needs(card)`` says whether the engine claims what the
    card needs (``Plan.plays``, which the search corner asks).

    Each entry follows its area's own gate: the mana corner and ``put_mana_permanent``
    (capability ``mana``; the {Q} creatures, the graveyard's creature card and the library's
    land with ``tap_untap_costs``), the chance scenes (``chance``; Tavern Scoundrel's
    activation with a Forest, with ``mana`` and ``tap_untap_costs``), the playtest corner and
    scenes (``playtest_supertypes``, ``mana``, ``tap_untap_costs``; Grizzly Bears and two
    Forests to equip a Sword of the Meek), the search corner (``library_search``), the upkeep
    scenes (``steps``, ``triggers``) and the stack corner (the board feature "stack games").
    ``tests/test_plan_cards.py`` runs the state machine and checks that every card a run
    observed is in ``Plan.cards``, so an area that names a new card must be added here."""
    caps = frozenset(capabilities)
    found: dict[str, str] = {}

    def declares(card: str) -> bool:
        return declared is None or card in declared

    def add(cards, why: str, plays=declares) -> None:
        for card in cards:
            if plays(card):
                found.setdefault(card, why)

    _mana_and_chance_cards(caps, add, declares)
    _playtest_and_search_cards(caps, add, declares, plays_needs)
    _steps_and_stack_cards(caps, add, declares, plays_needs)
    return found


def _mana_and_chance_cards(caps: frozenset[str], add, declares) -> None:
    """area_cards of the mana corner and the chance scenes."""
    from harness.rules import chance, mana

    if "mana" in caps:
        add(mana.MANA_LANDS + mana.MANA_CREATURES + mana.MANA_ARTIFACTS + mana.MANA_ENCHANTMENTS,
            "mana corner and mana permanents put onto the battlefield (capability mana)")
        add([c for board in mana.RULING_BOARDS for c, _, _ in board if c not in mana.COST_CREATURES],
            "mana corner's ruling boards (capability mana)")
        if "tap_untap_costs" in caps:
            add(mana.COST_CREATURES, "mana corner's {Q} creatures (capabilities mana, tap_untap_costs)")
            add(("Grizzly Bears",), "mana corner's creature card in a graveyard, for Order of Whiteclay "
                                    "(capabilities mana, tap_untap_costs)")
    if "chance" in caps:
        add(chance.CHANCE_CARDS, "chance scenes (capability chance)")
        if {"mana", "tap_untap_costs"} <= caps and all(declares(c) for c in (chance.SCOUNDREL, "Forest")):
            add((chance.SCOUNDREL, "Forest"), "Tavern Scoundrel's activation, paid with a Forest's mana "
                                              "(capabilities chance, mana, tap_untap_costs)")


def _playtest_and_search_cards(caps: frozenset[str], add, declares, plays_needs) -> None:
    """area_cards of the playtest corner and scenes and the search corner."""
    from harness.rules import playtest, search

    if set(playtest.PLAYTEST) <= caps and declares(playtest.ORB):
        why = "playtest corner and scenes (capabilities " + ", ".join(playtest.PLAYTEST) + ")"
        add((playtest.ORB, *playtest.PLAYTEST_ARTIFACTS), why)
        if declares(playtest.SWORD) and all(declares(c) for c in ("Grizzly Bears", "Forest")):
            add(("Grizzly Bears", "Forest"), "playtest scenes: a creature and two Forests to equip Sword of the Meek "
                                             "(capabilities " + ", ".join(playtest.PLAYTEST) + ")")
    if "library_search" in caps:
        corner = (search.IMPOSTOR, "Forest", "Darksteel Myr")
        add(corner, "search corner (capability library_search)", lambda c: declares(c) and plays_needs(c))


def _steps_and_stack_cards(caps: frozenset[str], add, declares, plays_needs) -> None:
    """area_cards of the upkeep scenes and the stack corner."""
    if {"steps", "triggers"} <= caps:
        from harness.rules import steps

        add(steps.STEP_CARDS, "upkeep scenes' permanents with step abilities (capabilities steps, triggers)")
        if {"chance", "chance.players"} <= caps:
            add((steps.THUMB,), "several players' flips, with Krark's Thumb (capabilities chance, chance.players)")
    if FEATURES.get("stack games") in caps:
        from harness.rules import stack

        add(("Hangarback Walker", *stack.PENUMBRA_HOSTS, "Penumbra Umbra"),
            f"stack corner (capability {FEATURES['stack games']})", lambda c: declares(c) and plays_needs(c))


#: Templates whose invariants are checked only where a card of the plan has them: template
#: name -> the card feature (a name of the form ``cards:...``, never claimed: only implied)
#: that the invariants of :mod:`invariants.static_bonuses`, :mod:`invariants.templates` and
#: :mod:`invariants.spell_effects` require. A rule no card of the engine can reach is not
#: checked, and not counted as a rule the run never exercised.
TEMPLATE_FEATURES: dict[str, str] = {
    "aura bonus": "cards:attached bonus", "equipment bonus": "cards:attached bonus",
    "anthem": "cards:anthem", "enters tapped": "cards:enters tapped", "spell: life": "cards:life spell",
    "spell: draw": "cards:draw spell", "spell: counters": "cards:counters spell", "enters trigger": "cards:enters trigger",
    "creature dies trigger": "cards:creature dies trigger", "spell: divided damage": "cards:divided damage",
    "leaves the battlefield trigger": "cards:leaves trigger",
}


@dataclass(frozen=True)
class Plan:
    """Cards, board features, rules and invariants of a run for one engine.

    ``claimed``: what the engine claims; ``implied``: what its cards imply beyond that
    (capability -> the card and why, :func:`implied_capabilities`); ``capabilities``: both
    (what gates rules and features and selects invariants). ``declared_cards``: its
    ``EngineInfo.cards`` and defined cards (None: the curated pool). ``lists[name]`` are the
    cards of generator list ``name`` (``strategies.CARD_LISTS`` and :data:`MODEL_LISTS`) the
    run may use; ``left_out_cards[name]`` says why a card of those lists is not used;
    ``unmodelled[name]`` are the sentences of a declared card no template reads (never
    generated). ``features`` are the board features boards may have, ``left_out_features``
    those they may not, with why. ``counter_kinds``: the counter kinds boards and events use.
    ``area_cards[card]`` says which rules area puts a card on boards or into events by name
    (:func:`area_cards`: lands and mana creatures of the mana corner, ...): with the lists'
    cards, they are :attr:`cards`, every card a run can play.
    """

    capabilities: frozenset[str]
    declared_cards: frozenset[str] | None = None
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    left_out_cards: dict[str, str] = field(default_factory=dict)
    features: frozenset[str] = frozenset()
    left_out_features: dict[str, str] = field(default_factory=dict)
    claimed: frozenset[str] = frozenset()
    implied: dict[str, str] = field(default_factory=dict)
    unmodelled: dict[str, tuple[str, ...]] = field(default_factory=dict)
    models: dict = field(default_factory=dict)
    groups: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    counter_kinds: tuple[str, ...] = S.COUNTER_KINDS
    area_cards: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, capabilities, cards=None, definitions=(), counter_kinds=None) -> Plan:
        """The plan for an engine claiming ``capabilities`` and playing ``cards`` (None: the
        curated pool), ``definitions`` (card definitions, registered here:
        :func:`cards.definitions.define`) and ``counter_kinds`` (None: every kind)."""
        from cards.definitions import define

        caps = frozenset(capabilities)
        defined = define(definitions) if definitions else []
        declared = frozenset(cards) | frozenset(defined) if cards is not None else None
        pool = card_data.names()
        left_out: dict[str, str] = {}
        waived = frozenset() if cards is None else CARD_IMPLIED
        lists = _curated_lists(caps, declared, waived, left_out)
        extra = sorted((declared - pool) if declared is not None else defined)
        unmodelled, models = _add_declared(extra, lists, left_out)
        groups = _grouped(lists, models)
        frozen = {name: tuple(members) for name, members in lists.items()}
        implied = implied_capabilities(frozen, caps, models)
        every = caps | frozenset(implied)
        features, left_features = _board_features(every)
        kinds = S.COUNTER_KINDS if counter_kinds is None else tuple(
            [k for k in S.COUNTER_KINDS if k in counter_kinds] + sorted(set(counter_kinds) - set(S.COUNTER_KINDS)))
        plan = cls(every, declared, frozen, left_out, frozenset(features), left_features, caps, implied, unmodelled,
                   models, groups, kinds)
        by_area = area_cards(every, declared, plan.plays)
        _add_step_cards(every, models, by_area)
        plan.area_cards.update((card, why) for card, why in by_area.items() if card not in plan.listed_cards)
        for card in plan.area_cards:
            left_out.pop(card, None)  # left out of the generator lists, but a rules area plays it
        return plan

    @classmethod
    def for_info(cls, info) -> Plan:
        """The plan of an engine's ``EngineInfo`` (its claims, cards, definitions, counter kinds)."""
        return cls.of(info.capabilities, getattr(info, "cards", None), getattr(info, "card_definitions", ()) or (),
                      getattr(info, "counter_kinds", None))

    @staticmethod
    def _why_not(name: str, caps: frozenset[str], declared: frozenset[str] | None,
                 waived: frozenset[str] = frozenset()) -> str | None:
        if declared is not None and name not in declared:
            return "not in the engine's EngineInfo.cards"
        card = card_data.card(name)
        if waived:  # a declared card: what it implies itself is no claim
            waived = waived | (SPELL_IMPLIED if card.is_type("Instant") or card.is_type("Sorcery") else frozenset())
        missing = sorted(card_needs(card) - caps - waived)
        return f"needs capability {', '.join(missing)}" if missing else None

    def plays(self, card: str) -> bool:
        """Whether ``card`` may be on this plan's boards: the engine declares it (or declares
        no list) and claims every capability it needs (:func:`card_needs`) that the card
        doesn't imply itself; a declared card outside the pool, when it is modelled. Answered once
        per card and plan (the plan and the card data don't change; boards ask it as they are drawn)."""
        known = self.__dict__.setdefault("_plays", {})
        found = known.get(card)
        if found is None:
            found = known[card] = self._reads_as_played(card)
        return found

    def _reads_as_played(self, card: str) -> bool:
        """:meth:`plays`, read from the plan and the card data."""
        if card in self.models:
            return True
        if card in self.unmodelled:
            return False
        return self._why_not(card, self.claimed or self.capabilities, self.declared_cards,
                             CARD_IMPLIED if self.declared_cards is not None else frozenset()) is None

    def has(self, feature: str) -> bool:
        """Whether boards may have ``feature`` (a board feature of the capability table)."""
        return feature in self.features

    def model(self, card: str):
        """The model of a declared card outside the curated pool (None for a pool card)."""
        return self.models.get(card)

    @cached_property
    def listed_cards(self) -> frozenset[str]:
        """Every card some generator list of this plan uses."""
        return frozenset(c for members in self.lists.values() for c in members)

    @cached_property
    def cards(self) -> frozenset[str]:
        """Every card a run of this plan can put on a board or into an event: those of its
        generator lists and those its rules areas name (:attr:`area_cards`)."""
        return self.listed_cards | frozenset(self.area_cards)

    def choice(self, name: str) -> st.SearchStrategy[str]:
        """A strategy drawing one card of list ``name`` (built once per plan): with several
        template groups (declared cards of the database), a group first, then a card of it,
        so a group with many members doesn't drown the rest; shrinks to the list's first card."""
        cache = self.__dict__.setdefault("_choices", {})
        if name not in cache:
            groups = self.groups.get(name, ())
            if len(groups) > 1:
                # A group index, then a card of that group (st.one_of of sampled_from strategies
                # would be one draw over every card: a large group would drown the rest).
                cache[name] = st.integers(0, len(groups) - 1).flatmap(lambda i: st.sampled_from(groups[i]))
            else:
                cache[name] = st.sampled_from(self.lists[name])
        return cache[name]


def _curated_lists(caps: frozenset[str], declared: frozenset[str] | None, waived: frozenset[str],
                   left_out: dict[str, str]) -> dict[str, list[str]]:
    """Plan.of's generator lists of the curated pool (``strategies.CARD_LISTS``) and the empty
    :data:`MODEL_LISTS`; why each card left out is, into ``left_out``."""
    lists: dict[str, list[str]] = {}
    for name, members in S.CARD_LISTS.items():
        kept = []
        for card in members:
            why = Plan._why_not(card, caps, declared, waived)
            if why:
                left_out[card] = why
            else:
                kept.append(card)
        lists[name] = kept
    for name in MODEL_LISTS:
        lists.setdefault(name, [])
    return lists


def _add_declared(extra: list[str], lists: dict[str, list[str]],
                  left_out: dict[str, str]) -> tuple[dict[str, tuple[str, ...]], dict]:
    """Plan.of's declared cards outside the pool (``extra``) put into the lists their models say:
    (unmodelled card -> the sentences not read, modelled card -> its model)."""
    unmodelled: dict[str, tuple[str, ...]] = {}
    models = {}
    for name in extra:
        model = reader.model(name)
        if not model.modelled:
            unmodelled[name] = tuple(model.unread)
            continue
        models[name] = model
        where = lists_of(card_data.card(name), model)
        if not where:
            left_out[name] = "modelled, but no generator plays what it does yet"
        for list_name in where:
            lists[list_name].append(name)
    return unmodelled, models


def _grouped(lists: dict[str, list[str]], models: dict) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Plan.of's template groups of each list with a modelled card (:func:`group_key`; the curated
    cards first, then the vanilla group); each such list reordered group by group."""
    groups: dict[str, tuple[tuple[str, ...], ...]] = {}
    for name, members in lists.items():
        if not any(m in models for m in members):
            continue
        by_key: dict[tuple, list[str]] = {}
        curated = [m for m in members if m not in models]
        if curated:
            by_key[("curated",)] = curated
        modelled = sorted((m for m in members if m in models),
                          key=lambda m: (group_key(m, models[m]) != ("vanilla",), group_key(m, models[m]), m))
        for m in modelled:
            by_key.setdefault(group_key(m, models[m]), []).append(m)
        groups[name] = tuple(tuple(v) for v in by_key.values())
        lists[name] = [m for group in groups[name] for m in group]
    return groups


def _board_features(every: frozenset[str]) -> tuple[set[str], dict[str, str]]:
    """Plan.of's board features the capabilities ``every`` unlock, and those left out with why."""
    features, left_features = set(), {}
    for feature, cap in FEATURES.items():
        if cap in every:
            features.add(feature)
        else:
            left_features[feature] = f"needs capability {cap}"
    return features, left_features


def _add_step_cards(every: frozenset[str], models: dict, by_area: dict[str, str]) -> None:
    """Plan.of's declared cards read with a step ability: the upkeep scenes play them."""
    if {"steps", "triggers"} <= every:
        from harness.rules.steps import STEP_TEMPLATES

        for name, model in sorted(models.items()):
            if any(a.template in STEP_TEMPLATES for a in model.abilities):
                by_area.setdefault(name, "upkeep scenes' permanents with step abilities (capabilities steps, "
                                         "triggers)")


_EFFECTIVE: dict[int, tuple[object, frozenset[str]]] = {}


def effective_capabilities(info) -> frozenset[str]:
    """What an engine's runs check: the capabilities it claims and those its cards imply
    (:attr:`Plan.capabilities` of :meth:`Plan.for_info`), worked out once per ``EngineInfo``
    (the differential oracle asks on every example)."""
    hit = _EFFECTIVE.get(id(info))
    if hit is not None and hit[0] is info:
        return hit[1]
    found = Plan.for_info(info).capabilities
    _EFFECTIVE[id(info)] = (info, found)
    return found


FULL = Plan.of(CAPABILITIES)
