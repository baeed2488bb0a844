"""A summoning-sick creature can pay {Q}.

Rule broken: CR 107.6 and 302.6: "A creature's activated ability with the untap symbol in
its activation cost can't be activated unless the creature has been under its
controller's control continuously since their most recent turn began."

Bug: ``check_cost`` applies summoning sickness to {T} only, the public bug of {Q}
abilities usable by a creature that just arrived.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def check_cost(self, obj, ability, cost, player):
        if cost.untap and not cost.tap and obj.summoning_sick:  # the bug
            obj.summoning_sick = False
            try:
                return super().check_cost(obj, ability, cost, player)
            finally:
                obj.summoning_sick = True
        return super().check_cost(obj, ability, cost, player)


class MutantEngine(ReferenceEngine):
    name = "mutant-summoning_sick_pays_untap"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
