"""A permanent returned to hand goes to its controller's hand, not its owner's.

Rule broken: CR 400.3 ("If an object would go to any library, graveyard, or hand other than its
owner's, it goes to its owner's corresponding zone") and 108.3 (ownership never changes). P1's
creature that P2 controls, bounced, goes to P1's hand.

Bug: the bounce files the card under the player who controlled it, whom the engine then reports as
its owner.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def return_to_hand(self, ids, by="return effect"):
        for oid in ids:
            obj = self.objects.get(oid)
            if obj is not None and obj.zone == "battlefield":
                obj.owner = obj.controller  # the bug: the controller's hand
        super().return_to_hand(ids, by)


class MutantEngine(ReferenceEngine):
    name = "mutant-zones_bounce_to_controllers_hand"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
