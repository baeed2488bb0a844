"""The umbra Aura destroyed instead is reported as destroyed by umbra armor itself.

Rule broken: CR 702.89a and 701.7b, and the ruling (Indrik Umbra 2024-06-07) "If a spell
or ability says that it would "destroy" a permanent enchanted by an Aura with umbra
armor, that spell or ability causes the Aura to be destroyed instead. (This matters for
cards such as Sanctum Prelate.) Umbra armor doesn't destroy the Aura; rather, it changes
the effects of the spell or ability." For lethal damage, the game rules destroy it.

Bug: ``apply_umbra_armor`` moves the Aura to the graveyard itself, with the cause
"destroyed by umbra armor", instead of handing it back to the destruction.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        for aid in super().apply_umbra_armor(obj, aura_id):
            self.move_to_graveyard([aid], {"event": "destroy", "by": "umbra armor"})  # the bug
        return []


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_aura_wrong_cause"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
