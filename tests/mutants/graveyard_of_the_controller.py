"""A permanent leaving the battlefield goes to its controller's graveyard, not its owner's.

Rule broken: CR 400.3 and 404.1 ("a card that's put into a graveyard ... goes to its
owner's graveyard"), 108.3 (ownership never changes). P1's creature that P2 controls dies
into P2's graveyard.

Bug: the zone change files the card under its controller, which the engine then reports
as its owner.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def move_to_graveyard(self, ids, cause):
        for oid in ids:
            obj = self.objects[oid]
            if obj.zone == "battlefield":
                obj.owner = obj.controller  # the bug: the controller's graveyard
        super().move_to_graveyard(ids, cause)


class MutantEngine(ReferenceEngine):
    name = "mutant-graveyard_of_the_controller"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
