"""The stack resolves first in, first out: the oldest object resolves first.

Rule broken: CR 405.5 ("When all players pass in succession, the top (last-added) spell or ability
on the stack resolves") and 608.1.

Bug: ``top_of_stack`` returns the bottom of the stack (a queue instead of a stack).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def top_of_stack(self):
        return self.stack[0]  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-stack_resolves_fifo"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
