"""A creature with double strike deals combat damage only in the first strike step.

Rule broken: CR 702.4b: "... the remaining attackers and blockers that currently have double
strike" deal combat damage in the second combat damage step too. Fencing Ace (1/1 double strike)
unblocked deals 1 twice; this fork deals 1.

Bug: the second step leaves out every creature that dealt damage in the first (as if double
strike were first strike).
"""

from reference_engine import Game
from reference_engine.combat import FIRST_STRIKE_DAMAGE

from tests.mutants._combat import combat_engine


class MutantGame(Game):
    def combat_damage_participants(self):
        second = self.combat_state.step == FIRST_STRIKE_DAMAGE
        earlier = set(self.combat_state.first_strikers)
        found = super().combat_damage_participants()
        return [o for o in found if o.id not in earlier] if second else found  # the bug


engine = combat_engine(MutantGame, "mutant-double_strike_deals_damage_once")
