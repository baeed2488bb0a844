"""A lone Orb of Origin's first ability costs {T} anyway.

Rule broken: CR 602.2b, 107.5 (Orb of Origin ruling 2024-11-08: "The poly supertype means Orb
of Origin's first ability doesn't cost {T} to activate (unless another Orb of Origin is also
on the battlefield)").

Bug: ``activation_cost`` treats every Orb of Origin as mono, as if it granted the supertypes to
itself.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def activation_cost(self, obj, ability):
        cost = super().activation_cost(obj, ability)
        if self.copiable_values(obj)[1].grants_playtest_supertypes:  # the bug: the Orb makes itself mono
            return cost.with_tap()
        return cost


class MutantEngine(ReferenceEngine):
    name = "mutant-poly_orb_pays_tap"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
