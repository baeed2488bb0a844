"""A creature with first strike deals combat damage in the first strike step and again in the regular one.

Rule broken: CR 510.4 and 702.7b ("The only creatures that assign combat damage in [the second
combat damage step] are the remaining attackers and blockers that had neither first strike nor
double strike as the first combat damage step began, as well as the remaining attackers and
blockers that currently have double strike."). Youthful Knight (2/1 first strike) unblocked deals 2,
not 4.

Bug: the second combat damage step takes every remaining attacker and blocker.
"""

from reference_engine import Game
from reference_engine.combat import FIRST_STRIKE_DAMAGE

from tests.mutants._combat import combat_engine


class MutantGame(Game):
    def combat_damage_participants(self):
        second = self.combat_state.step == FIRST_STRIKE_DAMAGE
        found = super().combat_damage_participants()
        if second:  # the bug: first strikers deal damage again
            found += [o for o in self.attacking_creatures() + self.blocking_creatures() if o not in found]
        return found


engine = combat_engine(MutantGame, "mutant-first_strike_deals_damage_twice")
