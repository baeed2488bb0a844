"""An exiled creature "dies": its dies abilities trigger.

Rule broken: CR 700.4 ("The term dies means 'is put into a graveyard from the battlefield'") and
603.6c: Hangarback Walker exiled or returned to hand makes no Thopters.

Bug: every move off the battlefield is announced to the triggered abilities as a move to the
graveyard.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def leaves_triggers(self, obj, to_zone):
        super().leaves_triggers(obj, "graveyard")  # the bug: whatever the zone


class MutantEngine(ReferenceEngine):
    name = "mutant-zones_exile_triggers_dies"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
