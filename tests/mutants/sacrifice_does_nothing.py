"""Sacrifice does nothing: the sacrificed permanent stays on the battlefield.

Rule broken: CR 701.17a ("To sacrifice a permanent, its controller moves it from the
battlefield directly to its owner's graveyard."). Sacrifice is not destruction, so no
replacement effect in scope can stop it.

Bug: the sacrifice procedure checks for a replacement effect the way destruction does and
then forgets to move the permanent at all.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def sacrifice(self, obj):
        return None  # the bug: nothing moves


class MutantEngine(ReferenceEngine):
    name = "mutant-sacrifice_does_nothing"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
