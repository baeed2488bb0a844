"""Umbra armor saves the creature and removes its damage but doesn't destroy the Aura.

Rule broken: CR 702.89a ("instead remove all damage marked on it and destroy this
Aura"). The creature becomes as good as indestructible.

Bug: ``apply_umbra_armor`` returns no Aura to destroy instead.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        super().apply_umbra_armor(obj, aura_id)
        return []  # the bug: the Aura stays


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_keeps_aura"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
