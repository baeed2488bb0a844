"""What the combat mutants share: a fork of the reference engine that declares the cards a
combat needs (capability ``combat``, CR 506-511): creatures with first strike, double strike,
trample, deathtouch, lifelink, vigilance, flying, reach, menace, defender, haste or "can't
block" from the card database, beside the curated pool's (Typhoid Rats, Drudge Skeletons and
the umbra Auras that grant first strike, flying, reach, vigilance and lifelink), and Auras and
Equipment that grant them (Epic Proportions' trample, Gorgon Flail's deathtouch)."""

from __future__ import annotations

import dataclasses

from harness.adapters.reference import ReferenceAdapter
from reference_engine import ReferenceEngine

CARDS = frozenset({
    # the curated pool
    "Grizzly Bears", "Typhoid Rats", "Drudge Skeletons", "Hyena Umbra", "Mammoth Umbra", "Felidar Umbra",
    "Eland Umbra", "Spider Umbra", "Drake Umbra", "Dog Umbra", "Murder",
    # the card database
    "Fencing Ace", "Youthful Knight", "Colossal Dreadmaw", "Serra Angel", "Giant Spider", "Vampire Nighthawk",
    "Boggart Brute", "Wall of Stone", "Raging Goblin", "Aesthir Glider", "Craw Wurm", "Hill Giant",
    "Epic Proportions", "Cast into Darkness", "Unflinching Courage", "Gorgon Flail", "Brawler's Plate",
})


def combat_engine(game_class, name: str) -> ReferenceAdapter:
    """The adapter of a fork whose games are ``game_class``, declaring :data:`CARDS`."""
    engine = type("MutantEngine", (ReferenceEngine,), {"name": name, "game_class": game_class})()
    adapter = ReferenceAdapter(engine)
    adapter.info = dataclasses.replace(adapter.info, cards=CARDS)
    return adapter
