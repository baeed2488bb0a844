"""The legend rule keeps the newest legend without asking its controller.

Rule broken: CR 704.5j ("that player chooses one of them, and the rest are put into
their owners' graveyards").

Bug: ``legend_rule_keep`` keeps the legendary permanent with the latest timestamp (the
one that just entered) instead of asking the controller.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def legend_rule_keep(self, controller, ids, decider):
        return max(ids, key=lambda oid: self.objects[oid].timestamp)  # the bug: no decision asked


class MutantEngine(ReferenceEngine):
    name = "mutant-legend_rule_engine_chooses"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
