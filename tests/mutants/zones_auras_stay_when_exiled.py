"""Auras stay on the battlefield when the creature they enchant is exiled or returned to hand.

Rule broken: CR 704.5m ("If an Aura is attached to an illegal object or player, or is not
attached to an object or player, that Aura is put into its owner's graveyard") and 303.4c ("the
object it was attached to no longer exists"): the card in exile or in a hand is a new object
(400.7), which the Aura doesn't enchant.

Bug: the state-based action asks whether the enchanted object still exists somewhere in the game
rather than whether it is on the battlefield: an Aura on a card in exile or in a hand stays.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def can_enchant(self, aura, target_id):
        target = self.objects.get(target_id) if target_id else None
        if target is not None and target.zone in ("exile", "hand"):
            return True  # the bug: it still exists, so the Aura is still attached
        return super().can_enchant(aura, target_id)


class MutantEngine(ReferenceEngine):
    name = "mutant-zones_auras_stay_when_exiled"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
