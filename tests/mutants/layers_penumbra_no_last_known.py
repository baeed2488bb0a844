"""Penumbra Umbra makes no token when the creature it enchanted has left the battlefield.

Rule broken: CR 608.2h (last known information) and 111.12 ("This does not apply to an
effect that would use the last known information of an object"), and the Penumbra
Umbra ruling (2024-11-08): "If the enchanted creature is no longer on the battlefield
when Penumbra Umbra's second ability resolves, use its copiable values as it last
existed on the battlefield."

Bug: ``values_to_copy`` only looks at the battlefield: an object that left has nothing
to copy.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def values_to_copy(self, oid):
        obj = self.objects.get(oid)
        if obj is None or obj.zone != "battlefield":
            return None  # the bug: no last known information
        return super().values_to_copy(oid)


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_penumbra_no_last_known"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
