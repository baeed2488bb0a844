"""An activation whose mana can't be paid still untaps the permanent.

Rule broken: CR 602.2, 601.2h and the protocol's rule that an illegal activation changes
nothing: if the total cost can't be paid, the activation is illegal and the game returns
to the moment before it began (CR 724 / 602.2's rewind).

Bug: ``check_cost`` performs the {Q} before finding the pool can't pay the mana.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def check_cost(self, obj, ability, cost, player):
        if cost.untap and obj.tapped and cost.mana and not self.can_pay_mana(player, cost.mana):
            obj.tapped = False  # the bug
        return super().check_cost(obj, ability, cost, player)


class MutantEngine(ReferenceEngine):
    name = "mutant-untap_cost_before_mana_check"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
