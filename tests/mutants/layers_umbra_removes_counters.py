"""Umbra armor removes the saved creature's counters along with its damage.

Rule broken: CR 702.89a ("instead remove all damage marked on it and destroy this
Aura"): umbra armor removes damage, never counters (CR 122.1: counters stay until
something removes them).

Bug: ``apply_umbra_armor`` resets the creature (damage and counters), as if it were a
new object.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        instead = super().apply_umbra_armor(obj, aura_id)
        obj.counters = {}  # the bug
        return instead


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_umbra_removes_counters"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
