"""A flickered creature comes back with the counters it had.

Rule broken: CR 400.7 ("An object that moves from one zone to another becomes a new object with
no memory of, or relation to, its previous existence"). A creature with two +1/+1 counters that is
exiled and returned to the battlefield (Momentary Blink) returns with no counters.

Bug: ``return_from_exile`` copies the exiled card's counters, as they were on the battlefield, onto
the object that returns (the engine "moves the permanent" instead of making a new object).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def return_from_exile(self, card, new_id, controller, cause):
        counters = dict(self.last_known[card.id].counters)  # the bug: the old permanent's counters
        new = super().return_from_exile(card, new_id, controller, cause)
        new.counters.update(counters)
        return new


class MutantEngine(ReferenceEngine):
    name = "mutant-zones_flicker_keeps_counters"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
