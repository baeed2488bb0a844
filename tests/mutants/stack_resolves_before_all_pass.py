"""The top of the stack resolves as soon as one player passes priority.

Rule broken: CR 117.4 ("If all players pass in succession (that is, if all players pass without
taking any actions in between passing), the spell or ability on top of the stack resolves") and
405.5: the other player could still respond.

Bug: ``all_passed`` is true for any pass, so priority never goes round.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def all_passed(self, player):
        return True  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-stack_resolves_before_all_pass"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
