"""Hypothesis strategies for boards and event parameters.

Boards are legal positions (no state-based action pending) built to contain the
interactions the rulings talk about: several umbra Auras on one creature, Auras
controlled by the other player, indestructible creatures, regeneration shields,
deathtouch sources beside creatures only deathtouch damage destroys, attacking and
tapped creatures, damage already marked, and legends;
for layers and copies (CR 613, 707): counters of every P/T kind, asymmetric ones such as
+1/+0 included, creature tokens, Octopus Umbra's setting effect, Penumbra Umbra on its
controller's creature, creatures with {X} in their cost that entered with X counters,
and cards in libraries for Goblin Engineer's search.
"""

from __future__ import annotations

import functools
import re

from hypothesis import strategies as st

import cards as card_data
from harness.generation.hypothesis_shim import random_source

PLAYERS = ("P1", "P2")


def _pool(test) -> tuple[str, ...]:
    """Names of the published cards of the pool for which ``test(card)`` holds, in the data's order."""
    return tuple(name for name, card in card_data.pool().items() if card.published and test(card))


# Generator lists. Which cards a generator uses is a choice (named lists); what a card
# is (legendary, umbra Aura, {X} in its cost, its toughness) is read from the card data.
#: Creatures boards are built from; the first is what the shrinker prefers: a vanilla creature.
CREATURES = (
    "Grizzly Bears", "Typhoid Rats", "Darksteel Myr", "River Boa", "Drudge Skeletons", "Isamaru, Hound of Konda",
    "Umbra Mystic",
    "Goblin Engineer",  # an enters ability: copies of it trigger (CR 707.5)
)
#: The legendary creatures among them (CR 205.4d).
LEGENDS = tuple(n for n in CREATURES if "Legendary" in card_data.card(n).supertypes)
#: The deathtouch creatures among them (CR 702.2).
DEATHTOUCH_CREATURES = tuple(n for n in CREATURES if "deathtouch" in card_data.card(n).keywords)
#: The nonlegendary creatures among them that 1 damage doesn't destroy by CR 704.5g
#: (toughness 2 or more, not indestructible): only deathtouch (CR 704.5h) would.
SURVIVORS = tuple(n for n in CREATURES if n not in LEGENDS and (card_data.card(n).toughness or 0) > 1
                  and "indestructible" not in card_data.card(n).keywords)
#: Umbra Auras that enchant any creature: Auras whose Oracle text gives them umbra armor (CR 702.89).
UMBRA_AURAS = _pool(lambda c: "Aura" in c.subtypes and "enchant creature" in c.keywords
                    and "umbra armor" in c.oracle_text.lower())
#: Creatures with {X} in their mana cost that enter with X +1/+1 counters (CR 107.3m).
X_CREATURES = _pool(lambda c: c.is_type("Creature") and c.x_in_cost > 0 and "with X +1/+1 counters" in c.oracle_text)
#: Creatures that may enter as a copy (CR 707.5).
COPY_CREATURES = _pool(lambda c: c.is_type("Creature") and re.search(r"enter the battlefield as a copy", c.oracle_text))
#: Creatures with an enters-the-battlefield triggered ability that the state machine
#: generates. (Nekrataal's "destroy target creature" is left to scenario tests: the
#: umbra armor invariants predict what an event destroys, not what a triggered ability
#: that resolves during the same event does.)
ENTERS_TRIGGER_CREATURES = ("Goblin Engineer",)
#: Creatures the layers-and-copies rule puts onto the battlefield.
LAYERS_CREATURES = COPY_CREATURES + X_CREATURES + ENTERS_TRIGGER_CREATURES
#: Auras of the layers-and-copies rule: a setting effect (7b), a copy trigger.
LAYERS_AURAS = ("Octopus Umbra", "Penumbra Umbra")
#: Spells that create tokens: a token copy (CR 707.2), tokens the spell defines (CR 111.3).
TOKEN_SPELLS = ("Cackling Counterpart", "Raise the Alarm")
#: Power/toughness counter kinds (CR 122.1a), asymmetric ones included.
COUNTER_KINDS = ("+1/+1", "-1/-1", "+1/+0", "+0/+1", "-1/-0", "-0/-1", "+2/+2")
#: Cards players may have in their library (Goblin Engineer searches for an artifact).
LIBRARY_CARDS = ("Darksteel Myr", "Hangarback Walker", "Stonecoil Serpent", "Grizzly Bears")
#: Cards that search a library (a sorcery, an activated ability, an enters ability) and the
#: name check of the search area (harness.rules.search; Omnipresent Impostor's rulings).
SEARCHERS = ("Sakura-Tribe Elder", "Explosive Vegetation", "Goblin Engineer")
NAME_CHECKS = ("Bile Blight",)
#: (power, toughness) of "creatures you control get +N/+N until end of turn" effects.
ANTHEMS = ((1, 1), (1, 0), (0, 1), (2, 2), (-1, -1))
DESTROY_SPELLS = ("Murder", "Doom Blade", "Breathe Your Last")
DAMAGE_SPELLS = ("Shock", "Lightning Bolt")
SWEEPERS = ("Wrath of God",)
PUMP_SPELLS = ("Giant Growth",)
COMBAT = (None, "attacking", "blocking")
#: Lists only declared cards of the database fill, by their model (``harness.generation.plan.lists_of``):
#: -N/-N spells, counter spells, token makers, life and draw spells, Auras with a bonus,
#: Equipment, anthems, creatures with activated abilities. Empty for the curated pool.
SHRINK_SPELLS = COUNTER_SPELLS = TOKEN_MAKERS = LIFE_DRAW_SPELLS = BONUS_AURAS = EQUIPMENT = ANTHEM_CARDS = ()
ACTIVATED_CREATURES = ()
#: Declared spells that exile, return to hand or flicker (capability ``zones``; harness.rules.zones).
ZONE_SPELLS = ()

#: Every generator list by name: ``harness.generation.plan.Plan`` keeps, for one engine, the cards
#: of each list it declares and has the capabilities for.
CARD_LISTS: dict[str, tuple[str, ...]] = {
    "creatures": CREATURES, "legends": LEGENDS, "deathtouch_creatures": DEATHTOUCH_CREATURES,
    "survivors": SURVIVORS, "umbra_auras": UMBRA_AURAS, "x_creatures": X_CREATURES,
    "copy_creatures": COPY_CREATURES, "enters_trigger_creatures": ENTERS_TRIGGER_CREATURES,
    "layers_creatures": LAYERS_CREATURES, "layers_auras": LAYERS_AURAS, "token_spells": TOKEN_SPELLS,
    "library_cards": LIBRARY_CARDS, "destroy_spells": DESTROY_SPELLS, "damage_spells": DAMAGE_SPELLS,
    "sweepers": SWEEPERS, "pump_spells": PUMP_SPELLS, "searchers": SEARCHERS, "name_checks": NAME_CHECKS,
    "shrink_spells": SHRINK_SPELLS, "counter_spells": COUNTER_SPELLS, "token_makers": TOKEN_MAKERS,
    "life_draw_spells": LIFE_DRAW_SPELLS, "bonus_auras": BONUS_AURAS, "equipment": EQUIPMENT,
    "anthems": ANTHEM_CARDS, "activated_creatures": ACTIVATED_CREATURES, "zone_spells": ZONE_SPELLS,
}


def toughness(name: str) -> int:
    """The printed toughness of creature card ``name`` (card data; CR 208). Raises ValueError for a
    card with none (a generator list's creature always has one)."""
    value = card_data.card(name).toughness
    if value is None:
        raise ValueError(f"{name} has no printed toughness")
    return value


def integer(draw, low: int, high: int, label: str | None = None) -> int:
    """``draw(st.integers(low, high))`` (with ``label=label`` when given); drawn at random
    (``--explore``: ``draw`` has a :func:`~harness.generation.hypothesis_shim.random_source`) without
    making the strategy, the same value from the same seed (``draw_at_random`` draws
    ``st.integers(low, high)`` as ``rng.randrange(low, high + 1)``). Bounds in the wrong order
    go to the strategy, which refuses them."""
    source = random_source(draw)
    if source is not None and low <= high:
        return source.rng.randrange(low, high + 1)
    return draw(st.integers(low, high)) if label is None else draw(st.integers(low, high), label=label)


def boolean(draw, label: str | None = None) -> bool:
    """``draw(st.booleans())``, drawn at random as :func:`integer` is (``rng.random() < 0.5``)."""
    source = random_source(draw)
    if source is not None:
        return source.rng.random() < 0.5
    return draw(st.booleans()) if label is None else draw(st.booleans(), label=label)


def element(draw, elements, label: str | None = None):
    """``draw(st.sampled_from(elements))``, drawn at random as ``draw_at_random`` draws it when
    ``elements`` is a non-empty list or tuple: the only element without a draw, else
    ``elements[rng.randrange(len(elements))]``. Anything else goes to the strategy."""
    source = random_source(draw)
    if source is not None and type(elements) in (list, tuple) and elements:
        return elements[0] if len(elements) == 1 else elements[source.rng.randrange(len(elements))]
    return draw(st.sampled_from(elements)) if label is None else draw(st.sampled_from(elements), label=label)


def several(draw, options, min_size: int, max_size: int, label: str | None = None) -> list:
    """``draw(st.lists(st.sampled_from(options), min_size=min_size, max_size=max_size))`` (with
    ``label=label`` when given), drawn at random as ``draw_at_random`` draws it when ``options`` is a
    non-empty list or tuple and ``0 <= min_size <= max_size``: the size ``rng.randint(min_size,
    max_size)``, then each element as :func:`element` draws it. Anything else goes to the strategy."""
    source = random_source(draw)
    if source is not None and type(options) in (list, tuple) and options and 0 <= min_size <= max_size:
        return _random_several(source.rng, options, min_size, max_size)
    strategy = st.lists(st.sampled_from(options), min_size=min_size, max_size=max_size)
    return draw(strategy) if label is None else draw(strategy, label=label)


def _random_several(rng, options, min_size: int, max_size: int) -> list:
    """:func:`several` drawn at random (``options`` a non-empty list or tuple, valid sizes)."""
    size = rng.randint(min_size, max_size)
    if len(options) == 1:
        return [options[0]] * size
    return [options[rng.randrange(len(options))] for _ in range(size)]


# The same for a rule's ``data`` (what ``st.data()`` draws: Hypothesis's ``DataObject``, or
# ``harness.running.explore.RandomData``): ``data.draw(strategy, label=label)`` under Hypothesis, a
# plain random draw under ``--explore``, where making the strategy (``st.integers`` looks its
# arguments up in Hypothesis's strategy cache; ``st.sampled_from`` of a list is a new strategy,
# compiled again) cost several times the draw.
def draw_integer(data, low: int, high: int, label: str | None = None) -> int:
    """``data.draw(st.integers(low, high), label=label)``, drawn at random as :func:`integer` is."""
    source = random_source(data)
    if source is not None and low <= high:
        return source.rng.randrange(low, high + 1)
    return data.draw(st.integers(low, high), label=label)


def draw_boolean(data, label: str | None = None) -> bool:
    """``data.draw(st.booleans(), label=label)``, drawn at random as :func:`boolean` is."""
    source = random_source(data)
    if source is not None:
        return source.rng.random() < 0.5
    return data.draw(st.booleans(), label=label)


def draw_element(data, elements, label: str | None = None):
    """``data.draw(st.sampled_from(elements), label=label)``, drawn at random as :func:`element` is."""
    source = random_source(data)
    if source is not None and type(elements) in (list, tuple) and elements:
        return elements[0] if len(elements) == 1 else elements[source.rng.randrange(len(elements))]
    return data.draw(st.sampled_from(elements), label=label)


def draw_several(data, options, min_size: int, max_size: int, label: str | None = None) -> list:
    """``data.draw(st.lists(st.sampled_from(options), min_size=min_size, max_size=max_size), label=label)``,
    drawn at random as :func:`several` is."""
    source = random_source(data)
    if source is not None and type(options) in (list, tuple) and options and 0 <= min_size <= max_size:
        return _random_several(source.rng, options, min_size, max_size)
    return data.draw(st.lists(st.sampled_from(options), min_size=min_size, max_size=max_size), label=label)


def rarely(draw, one_in: int, label: str | None = None) -> bool:
    """True one time in ``one_in``, drawn so that False (the feature absent) is the value
    Hypothesis shrinks toward: shrunk scenarios carry no rare feature they don't need."""
    return integer(draw, 0, one_in - 1) == one_in - 1


players = st.sampled_from(PLAYERS)


def pick(data, options, label: str | None = None):
    """One of ``options`` (a non-empty sequence) drawn with ``data`` (``st.data()``), as
    ``st.sampled_from(options)`` would draw it and shrinking toward the first, at less cost:
    the index is drawn from ``st.integers(0, n - 1)``, which Hypothesis caches by its
    bounds, where ``st.sampled_from`` of a new list is a new strategy, validated and
    checked for emptiness on its first draw (most of a step's drawing cost). Raises
    IndexError for empty ``options``."""
    if not options:
        raise IndexError("pick from no options")
    source = random_source(data)
    if source is not None:  # drawn at random (--explore): as integer() draws
        return options[source.rng.randrange(0, len(options))]
    return options[data.draw(st.integers(0, len(options) - 1), label=label)]


def _counter_pt(kind: str) -> tuple[int, int]:
    p, t = kind.split("/")
    return int(p), int(t)


@functools.cache
def _counters_of(kinds: tuple[str, ...]):
    """The strategy of :func:`pt_counters` 's counters of ``kinds``, made once per ``kinds``
    (``st.dictionaries`` is not cached by Hypothesis: a new one each draw, compiled again under
    ``--explore``)."""
    return st.dictionaries(st.sampled_from(kinds), st.integers(1, 2), max_size=2)


def _pt_counters(draw, kinds: tuple[str, ...] = COUNTER_KINDS):
    """A legal set of P/T counters of ``kinds`` (the engine's ``counter_kinds``): never both
    +1/+1 and -1/-1 (CR 704.5q would remove them)."""
    counters = draw(_counters_of(kinds))
    if "+1/+1" in counters and "-1/-1" in counters:
        del counters["-1/-1"]
    return counters


pt_counters = st.composite(_pt_counters)


def _composite(draw, composite, definition, *args):
    """``draw(composite(*args))``, ``composite`` being ``st.composite(definition)``; drawn at random
    (``draw`` has a :func:`~harness.generation.hypothesis_shim.random_source`) as ``definition(draw,
    *args)`` itself: what ``draw_at_random`` does with the strategy (the definition called with a
    ``draw`` of the same source), without making and compiling a new strategy for each draw."""
    if random_source(draw) is not None:
        return definition(draw, *args)
    return draw(composite(*args))


def owner_of(draw, controller: str, plan) -> str:
    """The owner of a permanent ``controller`` controls: usually the controller, one time in
    five the other player (a permanent whose control changed, CR 108.4, 613.1b, when
    ``plan`` has the board feature "owner is not controller"), so rules about owners
    (graveyards, CR 404.1) and controllers are told apart. Shrinks to the controller."""
    if plan.has("owner is not controller") and integer(draw, 0, 4) == 4:
        return next(p for p in PLAYERS if p != controller)
    return controller


def _creature_specs(draw, plan, index: int, legends_taken: set):
    """One creature of a board (``ObjectSpec``) with only the features ``plan`` allows."""
    name = draw(plan.choice("creatures"))
    controller = draw(players)
    if name in plan.lists["legends"]:
        if (controller, name) in legends_taken:
            name = plan.lists["creatures"][0]
        else:
            legends_taken.add((controller, name))
    spec = {"id": f"c{index}", "card": name, "owner": owner_of(draw, controller, plan), "controller": controller}
    printed = value = toughness(name)
    if plan.has("counters") and rarely(draw, 4):  # a quarter of the creatures have counters
        counters = _composite(draw, pt_counters, _pt_counters, getattr(plan, "counter_kinds", COUNTER_KINDS))
        with_counters = value + sum(_counter_pt(k)[1] * n for k, n in counters.items())
        if counters and with_counters > 0:
            spec["counters"] = counters
            value = with_counters
    if plan.has("tokens") and rarely(draw, 8):
        spec["token"] = True
    if plan.has("tapped permanents") and boolean(draw):
        spec["tapped"] = True
    if plan.has("marked damage") and min(printed, value) > 1:
        damage = integer(draw, 0, min(printed, value) - 1)
        if damage:
            spec["damage"] = damage
    if plan.has("combat"):
        combat = element(draw, COMBAT)
        if combat:
            spec["combat"] = combat
    if plan.has("regeneration_shields"):
        shields = integer(draw, 0, 2)
        if shields:
            spec["regeneration_shields"] = shields
    return spec


creature_specs = st.composite(_creature_specs)


def enchants_own(name: str) -> bool:
    """Whether Aura ``name`` says "Enchant creature you control" (CR 303.4a: its controller's creature)."""
    return "enchant creature you control" in card_data.card(name).keywords


def _creature_auras(draw, plan, i: int, creature: dict, max_auras: int) -> list[dict]:
    """The Auras of board creature ``i`` (boards): 0..max_auras umbra Auras, sometimes a Penumbra
    Umbra (never on a legend), sometimes an Aura with a bonus."""
    auras = []
    umbras = plan.lists["umbra_auras"] if plan.has("umbra Auras") else ()
    penumbra = "Penumbra Umbra" in plan.lists["layers_auras"]
    bonus_auras = plan.lists.get("bonus_auras", ())
    for j in range(integer(draw, 0, max_auras) if umbras else 0):
        controller = draw(players)
        auras.append({"id": f"c{i}a{j}", "card": draw(plan.choice("umbra_auras")),
                      "owner": owner_of(draw, controller, plan), "controller": controller,
                      "attached_to": creature["id"]})
    if penumbra and creature["card"] not in plan.lists["legends"] and rarely(draw, 6):
        # Penumbra Umbra: "Enchant creature you control".
        auras.append({"id": f"c{i}p", "card": "Penumbra Umbra", "owner": creature["controller"],
                      "controller": creature["controller"], "attached_to": creature["id"]})
    if bonus_auras and rarely(draw, 3):
        # An Aura with a bonus ("Enchanted creature gets +N/+M", CR 303.4, 613.4c) on a creature it may enchant.
        card = draw(plan.choice("bonus_auras"))
        controller = creature["controller"] if enchants_own(card) else draw(players)
        auras.append({"id": f"c{i}b", "card": card, "owner": owner_of(draw, controller, plan),
                      "controller": controller, "attached_to": creature["id"]})
    return auras


def _equipment_and_anthem(draw, plan, objects: list[dict]) -> list[dict]:
    """boards' Equipment ``e0`` (attached to one of ``objects`` or not) and anthem ``g0``, each sometimes."""
    found = []
    if plan.lists.get("equipment") and objects and rarely(draw, 2):
        # An Equipment (CR 301.5), attached to a creature (its controller needn't be the creature's) or not.
        controller = draw(players)
        spec = {"id": "e0", "card": draw(plan.choice("equipment")), "owner": owner_of(draw, controller, plan),
                "controller": controller}
        if integer(draw, 0, 2):
            spec["attached_to"] = objects[integer(draw, 0, len(objects) - 1)]["id"]
        found.append(spec)
    anthems = [n for n in plan.lists.get("anthems", ()) if not card_data.card(n).is_type("Creature")]
    if anthems and rarely(draw, 3):
        controller = draw(players)
        found.append({"id": "g0", "card": element(draw, anthems), "owner": owner_of(draw, controller, plan),
                      "controller": controller})
    return found


def _deathtouch_and_x_creatures(draw, plan) -> list[dict]:
    """boards' deathtouch pair ``d0``, ``d1`` (sometimes) and 0..1 {X} creature ``x0``."""
    extras = []
    if plan.has("deathtouch creatures") and plan.lists["deathtouch_creatures"] and plan.lists["survivors"] \
            and rarely(draw, 3):
        # CR 704.5h: a deathtouch creature facing a creature that only deathtouch damage would
        # destroy (704.5g wouldn't), the pair the deathtouch rule (harness.rules.destruction) needs.
        for i, name in enumerate((draw(plan.choice("deathtouch_creatures")), draw(plan.choice("survivors")))):
            controller = draw(players)
            extras.append({"id": f"d{i}", "card": name, "owner": owner_of(draw, controller, plan),
                           "controller": controller})
    for i in range(integer(draw, 0, 1) if plan.lists["x_creatures"] and plan.has("counters") else 0):
        # A creature with {X} in its cost that entered with X >= 1 +1/+1 counters.
        controller = draw(players)
        extras.append({"id": f"x{i}", "card": draw(plan.choice("x_creatures")), "owner": owner_of(draw, controller, plan),
                       "controller": controller, "counters": {"+1/+1": integer(draw, 1, 3)}})
    return extras


@st.composite
def boards(draw, plan, max_creatures: int = 4, max_auras: int = 3):
    """A board (``BoardSpec``) inside ``plan`` (a ``harness.generation.plan.Plan``; ``plan.FULL``:
    every card and capability): two players at 20 life, 1..max_creatures creatures, each
    with 0..max_auras umbra Auras attached, sometimes a Penumbra Umbra, sometimes
    counters (asymmetric ones too) or a token; on a third of the boards (when the plan
    has deathtouch creatures) a deathtouch creature ``d0`` and a creature ``d1`` that only
    deathtouch damage would destroy (CR 704.5h); 0..1 creature with {X} in its cost
    and +1/+1 counters; on some boards 1..3 cards in libraries. Each rare feature is
    drawn so that its absence is what shrinking goes toward.

    Creature ids are ``c<i>``, Aura ids ``c<i>a<j>`` (Penumbra Umbra ``c<i>p``), {X}
    creatures ``x<i>``, library cards ``l<i>``. Each Aura is drawn with its creature, so
    the shrinker removes a creature together with its Auras. An umbra Aura's controller
    is drawn independently of its creature's, so Auras controlled by the other player
    occur; any permanent's owner may differ from its controller (:func:`owner_of`);
    Penumbra Umbra ("enchant creature you control") has its creature's controller
    and is never on a legendary creature (its token copy would start a legend rule
    inside the event, which the umbra armor invariants do not predict).
    """
    legends: set = set()
    objects = []
    auras = []
    n_creatures = integer(draw, 1, max_creatures) if plan.lists["creatures"] else 0
    for i in range(n_creatures):
        creature = _composite(draw, creature_specs, _creature_specs, plan, i, legends)
        objects.append(creature)
        auras += _creature_auras(draw, plan, i, creature, max_auras)
    auras += _equipment_and_anthem(draw, plan, objects)
    extras = _deathtouch_and_x_creatures(draw, plan)
    library = []
    if plan.has("library cards") and plan.lists["library_cards"] and rarely(draw, 4):
        for i in range(integer(draw, 1, 3)):
            library.append({"id": f"l{i}", "card": draw(plan.choice("library_cards")), "owner": draw(players),
                            "zone": "library"})
    return {"players": [{"id": p, "life": 20} for p in PLAYERS], "objects": objects + extras + auras + library}
