"""Hypothesis strategies for boards and event parameters (umbra armor slice).

Boards are legal positions (no state-based action pending) built to contain the
interactions the rulings talk about: several umbra Auras on one creature, Auras
controlled by the other player, indestructible creatures, regeneration shields,
deathtouch sources, attacking and tapped creatures, damage already marked, and legends.
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
}
LEGENDS = ("Isamaru, Hound of Konda",)
UMBRA_AURAS = (
    "Hyena Umbra", "Bear Umbra", "Snake Umbra", "Spider Umbra", "Boar Umbra", "Eel Umbra", "Eland Umbra",
    "Drake Umbra", "Mammoth Umbra", "Felidar Umbra", "Crab Umbra", "Indrik Umbra", "Treefolk Umbra",
    "Octopus Umbra", "Dog Umbra",
)
DESTROY_SPELLS = ("Murder", "Doom Blade", "Breathe Your Last")
DAMAGE_SPELLS = ("Shock", "Lightning Bolt")
COMBAT = (None, "attacking", "blocking")

players = st.sampled_from(PLAYERS)


@st.composite
def creature_specs(draw, index: int, legends_taken: set):
    name = draw(st.sampled_from(list(CREATURES)))
    controller = draw(players)
    if name in LEGENDS:
        if (controller, name) in legends_taken:
            name = "Grizzly Bears"
        else:
            legends_taken.add((controller, name))
    spec = {"id": f"c{index}", "card": name, "owner": controller, "controller": controller}
    if draw(st.booleans()):
        spec["tapped"] = True
    damage = draw(st.integers(0, CREATURES[name] - 1))
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
    with 0..max_auras umbra Auras attached.

    Creature ids are ``c<i>``, Aura ids ``c<i>a<j>``. Each Aura is drawn with its
    creature, so the shrinker removes a creature together with its Auras. An Aura's
    controller is drawn independently of its creature's, so Auras controlled by the
    other player occur.
    """
    legends: set = set()
    objects = []
    auras = []
    for i in range(draw(st.integers(1, max_creatures))):
        creature = draw(creature_specs(i, legends))
        objects.append(creature)
        for j in range(draw(st.integers(0, max_auras))):
            controller = draw(players)
            auras.append({"id": f"c{i}a{j}", "card": draw(st.sampled_from(UMBRA_AURAS)), "owner": controller,
                          "controller": controller, "attached_to": creature["id"]})
    return {"players": [{"id": p, "life": 20} for p in PLAYERS], "objects": objects + auras}
