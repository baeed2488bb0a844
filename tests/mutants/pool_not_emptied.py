"""Mana pools don't empty when a step ends.

Rule broken: CR 106.4 and 500.4: "Each player's mana pool empties at the end of each step
and phase."

Bug: ``empty_mana_pools`` does nothing (mana burn was removed, and the emptying with it).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def empty_mana_pools(self):
        pass  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-pool_not_emptied"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
