"""Attacking taps a creature with vigilance.

Rule broken: CR 702.20b: "Attacking doesn't cause creatures with vigilance to tap." (508.1f taps
the others). Serra Angel, or a creature with Mammoth Umbra, attacks and stays untapped.

Bug: ``declare_attackers`` taps every attacker.
"""

from reference_engine import Game

from tests.mutants._combat import combat_engine


class MutantGame(Game):
    def declare_attackers(self, player, attackers):
        for obj in attackers:
            self.set_tapped(obj, True, "attack")  # the bug: vigilance not asked
        super().declare_attackers(player, attackers)


engine = combat_engine(MutantGame, "mutant-vigilance_ignored")
