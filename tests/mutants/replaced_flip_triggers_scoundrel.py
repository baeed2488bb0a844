"""A coin flip Pokey replaced with a d20 roll still triggers Tavern Scoundrel when "won".

Rule broken: CR 614.6 and the ruling (Pokey, the Scallywagg 2024-11-08) "If you apply
Pokey's second ability ... all other game effects ... recognize that you rolled a d20
rather than flipped a coin ... the first ability of Tavern Scoundrel would not trigger."

Bug: ``chance_instruction`` triggers "whenever you win a coin flip" on what the original
effect sees, not on the coins actually flipped.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def chance_instruction(self, player, start, calls, instruction, decider):
        seen = super().chance_instruction(player, start, calls, instruction, decider)
        for entry in self.log:
            if entry.get("kind") == "coin_flip" and entry.get("instruction") == instruction \
                    and entry.get("replaced") and entry.get("won"):  # the bug
                self.chance_triggers(player, "win a coin flip")
        return seen


class MutantEngine(ReferenceEngine):
    name = "mutant-replaced_flip_triggers_scoundrel"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
