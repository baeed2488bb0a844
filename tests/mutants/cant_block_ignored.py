"""A creature that can't block is allowed to block.

Rule broken: CR 509.1b: the defending player checks each creature for restrictions ("This creature
can't block.": Aesthir Glider; "Enchanted creature ... can't block.": Cast into Darkness; Dog Umbra's
"it can't attack or block" while another player controls the creature); a declaration that
disobeys one is illegal and must be refused.

Bug: ``block_problem`` doesn't ask for "can't block" restrictions.
"""

from reference_engine import Game

from tests.mutants._combat import combat_engine


class MutantGame(Game):
    def block_problem(self, blocker, attacker, defending):
        problem = super().block_problem(blocker, attacker, defending)
        return None if problem == "can't block (CR 509.1b)" else problem  # the bug


engine = combat_engine(MutantGame, "mutant-cant_block_ignored")
