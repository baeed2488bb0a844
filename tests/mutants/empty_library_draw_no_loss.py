"""A player who draws from an empty library in their draw step doesn't lose.

Rule broken: CR 704.5b ("If a player attempted to draw a card from a library with no cards in it
since the last time state-based actions were checked, that player loses the game.") and 504.1 (the
draw step's draw is attempted whatever the library holds).

Bug: the engine treats the draw from an empty library as "nothing to draw" and never checks the
state-based action.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def lose_for_empty_library(self):
        self.empty_library_draws().clear()  # the bug: nobody loses
        return False


class MutantEngine(ReferenceEngine):
    name = "mutant-empty_library_draw_no_loss"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
