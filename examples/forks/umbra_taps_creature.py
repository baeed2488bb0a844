"""A fork of the reference engine whose umbra armor works like regeneration: it taps the
creature it saves.

Planted bug (breaks CR 702.89a and the ruling "Umbra armor's effect is not regeneration"):
``apply_umbra_armor`` also taps the enchanted creature. Fuzz it with

    rulesfuzz run --engine examples/forks/umbra_taps_creature.py:engine
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class UmbraTapsGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        instead = super().apply_umbra_armor(obj, aura_id)
        obj.tapped = True  # the bug: regeneration's "its controller taps it" copied into umbra armor
        return instead


class UmbraTapsEngine(ReferenceEngine):
    name = "fork-umbra-taps-creature"
    game_class = UmbraTapsGame


engine = ReferenceAdapter(UmbraTapsEngine())
