"""A tapped permanent can pay {T} again.

Rule broken: CR 107.5: "A permanent that's already tapped can't be tapped again to pay the
cost."

Bug: ``check_cost`` doesn't look at the tapped status for {T}.
"""

from dataclasses import replace

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def check_cost(self, obj, ability, cost, player):
        return super().check_cost(obj, ability, replace(cost, tap=False), player)  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-tapped_permanent_pays_tap"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
