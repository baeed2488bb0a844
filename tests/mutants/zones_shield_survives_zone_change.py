"""A regeneration shield survives a zone change.

Rule broken: CR 400.7 (a new object has no memory of its previous existence) and 701.15a (a
shield protects "the permanent the next time it would be destroyed this turn": that permanent
only). A public engine's bug report, "a regeneration shield survives a zone change": River Boa
regenerates, is exiled and returned (or returned to its owner's hand), and still has its shield.

Bug: ``leave_battlefield`` resets the object for its zone change but puts its regeneration shields
back, and the card that returns from exile brings them along.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def leave_battlefield(self, ids, zone, cause):
        shields = {oid: self.objects[oid].regeneration_shields for oid in ids if oid in self.objects}
        super().leave_battlefield(ids, zone, cause)
        for oid, n in shields.items():
            if oid in self.objects:
                self.objects[oid].regeneration_shields = n  # the bug: the shield stays with the card

    def return_from_exile(self, card, new_id, controller, cause):
        shields = card.regeneration_shields
        new = super().return_from_exile(card, new_id, controller, cause)
        new.regeneration_shields = shields
        return new


class MutantEngine(ReferenceEngine):
    name = "mutant-zones_shield_survives_zone_change"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
