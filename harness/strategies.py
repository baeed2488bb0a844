"""Hypothesis strategies for boards and event parameters.

Boards are legal positions (no state-based action pending) built to contain the
interactions the rulings talk about: several umbra Auras on one creature, Auras
controlled by the other player, indestructible creatures, regeneration shields,
deathtouch sources, attacking and tapped creatures, damage already marked, and legends;
for layers and copies (CR 613, 707): counters of every P/T kind, asymmetric ones such as
+1/+0 included, creature tokens, Octopus Umbra's setting effect, Penumbra Umbra on its
controller's creature, creatures with {X} in their cost that entered with X counters,
and cards in libraries for Goblin Engineer's search.
"""

from __future__ import annotations

from hypothesis import strategies as st

PLAYERS = ("P1", "P2")

#: Creatures with their printed toughness (damage on the board stays below it). The
#: first one is what the shrinker prefers: a vanilla creature.
CREATURES = {
    "Grizzly Bears": 2,
    "Typhoid Rats": 1,
    "Darksteel Myr": 1,
    "River Boa": 1,
    "Drudge Skeletons": 1,
    "Isamaru, Hound of Konda": 2,
    "Umbra Mystic": 2,
    "Goblin Engineer": 2,  # an enters ability: copies of it trigger (CR 707.5)
}
LEGENDS = ("Isamaru, Hound of Konda",)
UMBRA_AURAS = (
    "Hyena Umbra", "Bear Umbra", "Snake Umbra", "Spider Umbra", "Boar Umbra", "Eel Umbra", "Eland Umbra",
    "Drake Umbra", "Mammoth Umbra", "Felidar Umbra", "Crab Umbra", "Indrik Umbra", "Treefolk Umbra",
    "Octopus Umbra", "Dog Umbra",
)
#: Creatures with {X} in their mana cost that enter with X +1/+1 counters (CR 107.3m).
X_CREATURES = ("Hangarback Walker", "Endless One", "Stonecoil Serpent", "Hydroid Krasis")
#: Creatures that may enter as a copy (CR 707.5).
COPY_CREATURES = ("Clone", "Mirror Image")
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
#: (power, toughness) of "creatures you control get +N/+N until end of turn" effects.
ANTHEMS = ((1, 1), (1, 0), (0, 1), (2, 2), (-1, -1))
DESTROY_SPELLS = ("Murder", "Doom Blade", "Breathe Your Last")
DAMAGE_SPELLS = ("Shock", "Lightning Bolt")
COMBAT = (None, "attacking", "blocking")

players = st.sampled_from(PLAYERS)


def _counter_pt(kind: str) -> tuple[int, int]:
    p, t = kind.split("/")
    return int(p), int(t)


@st.composite
def pt_counters(draw):
    """A legal set of P/T counters: never both +1/+1 and -1/-1 (CR 704.5q would remove them)."""
    counters = draw(st.dictionaries(st.sampled_from(COUNTER_KINDS), st.integers(1, 2), max_size=2))
    if "+1/+1" in counters and "-1/-1" in counters:
        del counters["-1/-1"]
    return counters


def owner_of(draw, controller: str) -> str:
    """The owner of a permanent ``controller`` controls: usually the controller, one time in
    five the other player (a permanent whose control changed, CR 108.4, 613.1b), so rules
    about owners (graveyards, CR 404.1) and controllers are told apart. Shrinks to the
    controller."""
    if draw(st.integers(0, 4)) == 4:
        return next(p for p in PLAYERS if p != controller)
    return controller


@st.composite
def creature_specs(draw, index: int, legends_taken: set):
    name = draw(st.sampled_from(list(CREATURES)))
    controller = draw(players)
    if name in LEGENDS:
        if (controller, name) in legends_taken:
            name = "Grizzly Bears"
        else:
            legends_taken.add((controller, name))
    spec = {"id": f"c{index}", "card": name, "owner": owner_of(draw, controller), "controller": controller}
    toughness = CREATURES[name]
    if draw(st.integers(0, 3)) == 0:  # a quarter of the creatures have counters
        counters = draw(pt_counters())
        with_counters = toughness + sum(_counter_pt(k)[1] * n for k, n in counters.items())
        if counters and with_counters > 0:
            spec["counters"] = counters
            toughness = with_counters
    if draw(st.integers(0, 7)) == 0:
        spec["token"] = True
    if draw(st.booleans()):
        spec["tapped"] = True
    damage = draw(st.integers(0, min(CREATURES[name], toughness) - 1))
    if damage:
        spec["damage"] = damage
    combat = draw(st.sampled_from(COMBAT))
    if combat:
        spec["combat"] = combat
    shields = draw(st.integers(0, 2))
    if shields:
        spec["regeneration_shields"] = shields
    return spec


@st.composite
def boards(draw, max_creatures: int = 4, max_auras: int = 3):
    """A board (``BoardSpec``): two players at 20 life, 1..max_creatures creatures, each
    with 0..max_auras umbra Auras attached, sometimes a Penumbra Umbra, sometimes
    counters (asymmetric ones too) or a token; 0..1 creature with {X} in its cost
    and +1/+1 counters; on some boards 1..3 cards in libraries.

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
    for i in range(draw(st.integers(1, max_creatures))):
        creature = draw(creature_specs(i, legends))
        objects.append(creature)
        for j in range(draw(st.integers(0, max_auras))):
            controller = draw(players)
            auras.append({"id": f"c{i}a{j}", "card": draw(st.sampled_from(UMBRA_AURAS)),
                          "owner": owner_of(draw, controller), "controller": controller,
                          "attached_to": creature["id"]})
        if creature["card"] not in LEGENDS and draw(st.integers(0, 5)) == 0:
            # Penumbra Umbra: "Enchant creature you control".
            auras.append({"id": f"c{i}p", "card": "Penumbra Umbra", "owner": creature["controller"],
                          "controller": creature["controller"], "attached_to": creature["id"]})
    extras = []
    for i in range(draw(st.integers(0, 1))):
        # A creature with {X} in its cost that entered with X >= 1 +1/+1 counters.
        controller = draw(players)
        extras.append({"id": f"x{i}", "card": draw(st.sampled_from(X_CREATURES)), "owner": owner_of(draw, controller),
                       "controller": controller, "counters": {"+1/+1": draw(st.integers(1, 3))}})
    library = []
    for i in range(draw(st.integers(1, 3)) if draw(st.integers(0, 3)) == 0 else 0):
        library.append({"id": f"l{i}", "card": draw(st.sampled_from(LIBRARY_CARDS)), "owner": draw(players),
                        "zone": "library"})
    return {"players": [{"id": p, "life": 20} for p in PLAYERS], "objects": objects + extras + auras + library}
