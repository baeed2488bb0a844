"""A d20 roll replaced by a coin flip (Pokey) is seen as 20 for tails and 1 for heads.

Rule broken: CR 614.1a and the ruling (Pokey, the Scallywagg 2024-11-08) "If the coin comes up heads,
the original spell or ability sees the result of the roll as 20. If the coin comes up
tails, the original spell or ability sees the result of the roll as 1."

Bug: the mapping from the coin to the d20 is reversed in what the engine reports.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def chance_instruction(self, player, start, calls, instruction, decider):
        seen = super().chance_instruction(player, start, calls, instruction, decider)
        for entry in self.log:
            if entry.get("kind") == "die_roll" and entry.get("replaced") and entry.get("instruction") == instruction:
                entry["result"] = 21 - entry["result"]  # the bug: 20 <-> 1
        return seen


class MutantEngine(ReferenceEngine):
    name = "mutant-pokey_tails_is_20"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
